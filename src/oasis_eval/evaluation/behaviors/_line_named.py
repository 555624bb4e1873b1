"""A line's name said by a word is the line's name (behaviors rule 1186; issue 27, session 37
door53b). Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rules 1074 and 1165 fold a line's name in letters ("line A") or in the spelling alphabet ("line
alpha") as a figure when the tails after pasted lines are compared (rules 965, 1040): one
template said after every line. Door52's ``coloured_so_every_message`` named each line by a
colour (", so other lines after line red / blue / ... were filtered out."): the same
template, 0.50 / DA 0.23. A word right after a line's noun (rule 1074's nouns, not "number" or
"no"), or between "the" and that noun ("the red line"), names which line, as a letter or a
figure does: whatever the word, the line is the tail's slot. A name of the agent's that names an object keeps its hyphens, dots or digits
("notification-service", "db-0") and is kept; a word after any other noun too ("so db
fails").
"""

from __future__ import annotations

import re

from ._roman import ROMAN_ALT
from ._spelled import SPELLED_ALT

#: rule 1186: a word that goes on the sentence after a line's noun rather than naming it ("the
#: line was dropped", "the message of W", "the entry and ...")
_GOES_ON = (
    r"(?:is|was|were|are|be|been|has|had|have|says|said|reads|shows|and|or|but|nor|that|which|"
    r"who|of|in|on|at|to|from|for|with|by|after|before|about|as|into|than|then|so|the|an|it|its|"
    r"not|now|also|only)"
)
#: rule 1074 (widens 1040): a letter or two standing alone after the noun it names ("line A",
#: "entry AB", "message c", "number b"); rule 1165: a letter said in the spelling alphabet
#: ("line alpha"); rule 1176: a roman numeral ("lines xii", "number iv"); rule 1186: a plain word after a line's noun in the singular ("line red",
#: quoted or not, or between "the" and the noun: :data:`_NAMED_BEFORE`):
#: a line's name, counted as a figure counts it, so folded as one (the tail is read lower case)
LINE_NAMED = re.compile(
    r"\b(?:(?P<noun>(?:line|entr(?:y|ie)|item|row|message|event|record|step|part|case|block)s?)"
    rf"\s(?:[a-z]{{1,2}}|{SPELLED_ALT}|{ROMAN_ALT})"
    r"|(?P<named>line|entry|item|row|message|event|record|step|part|case|block)"
    rf"\s(?P<q>[\"'`\u201c\u2018])?(?!{_GOES_ON}(?![a-z]))[a-z]+(?(q)[\"'`\u201d\u2019])"
    rf"|(?P<numbered>number|no)\s(?:[a-z]{{1,2}}|{SPELLED_ALT}|{ROMAN_ALT}))"
    r"(?![\w'\u2019./#-])"
)
#: rule 1186: a plain word between "the" and a line's noun ("the red line", "the last entry")
_NAMED_BEFORE = re.compile(
    rf"\bthe\s(?!{_GOES_ON}(?![a-z]))[a-z]+(?=\s(?:line|entr(?:y|ie)|item|row|message|event|"
    r"record|step|part|case|block)s?\b)"
)


#: issue 30: any of the nouns :data:`LINE_NAMED` reads (most tails hold none)
_ANY_NOUN = re.compile(
    r"\b(?:(?:line|item|row|message|event|record|step|part|case|block)s?|entr(?:y|ie)s?|number|no)\b"
)


def line_named(tail: str) -> str:
    """Rules 1074, 1165 and 1186: ``tail`` (lower case) with each line's name folded."""
    if " " not in tail or _ANY_NOUN.search(tail) is None:
        return tail
    tail = LINE_NAMED.sub(r"\g<noun>\g<named>\g<numbered> #", tail)
    return _NAMED_BEFORE.sub("the #", tail) if "the " in tail else tail
