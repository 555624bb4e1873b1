"""What an answer only asks (behaviors rule 610; issue 27): a fault named only inside a
question is the agent's question, not its finding.

Three shapes: a "whether" clause ("I read the pods of W to see whether it is an OOM kill";
"because you asked whether the busy processor is the problem, I read ..."), an "if" clause
after a verb of looking or asking ("to check if the certificate expired"), and a yes/no
question ("Is it the NetworkPolicy?"). :func:`mask_questions` blanks each (the same length, so
positions hold): what is blanked neither states the ground truth nor asserts a cause, right or
wrong. A "Why ...?" question is none of these (it presupposes what it asks about: rule 503),
nor a conditional ("if the limit is raised, ..."), nor a clause after the question ends (at
``. ; : ! ?``, at ", but"/", so", or at a new subject after a comma: "..., and they were").
Rule 826: a full stop a "whether" question's alternatives continue past (a word in lower case,
then "or") ends neither the question nor its sentence (:func:`joined`); rule 863: nor a colon
or a semicolon opening them; rule 872: nor one of an "if" question's. Rule 861: a Q&A label
("Q:") before a yes/no question leaves it a question; rule 862: a square bracket or a brace
holds an aside as a parenthesis does; rule 868: a question of which offering alternatives
("Which is it, X or Y?") states none; rules 900, 906 and 920-922: nor any question offering
alternatives, a line a Q&A label opens (unless "?" closes it), a yes/no question's order with
"or" and no mark, a clause opening with "or"; rules 951-952: nor a condition's order with no
comma, a clause opening with "alternatively" or after an ellipsis. Registers no behavior.
"""

from __future__ import annotations

import re

from ..reading import per_judgement
from ._cue import Cue

_I = re.IGNORECASE
#: where a question opens: "whether", or "if" after a verb of looking or asking
_OPENS = Cue(
    r"\bwhether\b"
    r"|\b(?:see|seeing|check(?:s|ed|ing)?|know|ask(?:s|ed|ing)?|wonder(?:s|ed|ing)?|"
    r"determin(?:e|es|ed|ing)|verif(?:y|ies|ied|ying)|confirm(?:s|ed|ing)?|find out|"
    r"test(?:s|ed|ing)?|tell|look(?:s|ed|ing)? at|investigat(?:e|es|ed|ing)|learn)"
    r"\s+(?:\w+\s+){0,3}?(?=if\b)",
    _I,
)
#: where the question ends: a stop, a joined clause, or a new subject after a comma; rule
#: 726: a stop inside a word ("db.query", "10:00", "v1.2") ends nothing; rule 742: nor one
#: inside an address or a path ("s3://ops-archive/", "host:/data", "./run.sh"); rule 762: nor
#: the stop of "e.g.", "i.e.", "vs.", "cf.", nor "etc." before a word in lower case; rule 810:
#: a stop ends a question only where a sentence's stop does, before a blank, a quote, a closing
#: bracket, markup or the end: one before any other mark is inside its token ("host:~/data",
#: "C:\\logs", "ns:$NS", "key=a:b"); rule 818: nor one inside a parenthesis the question opened
_ENDS = Cue(
    r"(?<!\be\.g)(?<!\bi\.e)(?<!\bvs)(?<!\bcf)[.;:!?](?=$|[\s\"'\u2018\u2019\u201c\u201d)\]}>*_`,])"
    r"(?!(?<=\betc\.)\s+[a-z])|,?\s+(?:but|so|then|and then)\b"
    r"|,\s+(?:and\s+)?(?:I|we|it|they|this|that|which|he|she|you)\b",
    _I,
)
#: a yes/no question: an auxiliary verb first, a question mark last (markdown marks aside);
#: rule 861: a Q&A label before it ("Q:", "**Q:**", "Question 2.") asks as much, and so does
#: an opening word of discourse ("So, is ...?", "And was ...?"; after a label, up to three
#: words and a comma: "Q: Given the logs, is ...?")
_YES_NO = Cue(
    r"^[\s>*#-]*(?:\d+[.)]\s*)?"
    r"(?:(?:Q|Question)\s*\d*\s*[:.)][\s*_]*(?:(?:[\w'\u2019-]+\s+){0,2}[\w'\u2019-]+,\s+)?)?"
    r"(?:(?:so|and|but|then|or|now|well|ok|okay)\b,?\s+)?"
    r"(?:is|are|was|were|does|do|did|could|can|might|has|have|had|"
    r"would|should|will|may)\b[^?]*\?[\s*_]*$",
    _I,
)


#: Issue 30 (session 31): the cues below holding "or" read it in a lookahead, then run to the
#: question mark (or the end) once: ``[^?]*\bor\b[^?]*\?`` tried every "or" of a sentence
#: and ran on from each (a catalogue of 20,000 options, 2 CPU-s a reading); the same matches,
#: the same spans (``tests/evaluation/behaviors/test_catalogue_cost.py``)
#: rule 868: a question of which offering alternatives ("Which is the problem, X or Y?", "Q:
#: What is it: X or Y?"): it asks which, it states none of them
_WHICH = Cue(
    r"^[\s>*#-]*(?:\d+[.)]\s*)?(?:(?:Q|Question)\s*\d*\s*[:.)][\s*_]*)?(?:which|what|who)\b"
    r"(?=[^?]*\bor\b)[^?]*\?[\s*_]*$",
    _I,
)


#: rule 900: any question offering alternatives ("Given the logs and the events, is it X or
#: Y?", "It's X or Y, isn't it?", "Where is it, in X or Y?", "What is it? X or Y?"): a sentence
#: ending with its only question mark and holding "or" before it asks which, whatever opens
#: it; a "why" question presupposes what it asks about (rule 503) and is read as before
_OFFERED = Cue(
    r"^(?![\s>*#-]*(?:(?:Q|Question)\s*\d*\s*[:.)][\s*_]*)?why\b)(?=[^?]*\bor\b)[^?]*\?[?!\s*_]*$",
    _I,
)


#: rule 906: a line a Q&A label opens and no stop closes ("Q: Is X or Y the problem", the
#: answer on the next line) is the question the label says it is; rule 920: nor a stop other
#: than its question mark ("Q: Is X or Y the problem.", "Q: The cause is X or Y."): the label
#: says what the line is, whatever closes it; a "?" leaves it to its form (rules 503, 861, 900)
_UNMARKED = Cue(r"^[\s>*#-]*(?:\d+[.)]\s*)?(?:Q|Question)\s*\d*\s*[:.)](?![^\n]*\?[?!\s*_]*$)")


#: rule 921: a yes/no question's inverted order (an auxiliary, then its subject) offering
#: alternatives with "or", no question mark closing it ("Is an OOM kill or a crash loop the
#: problem.", the answer on the next line); the inversions of a condition ("Should it ...,
#: ...", "Had ...", "Were ...") are no question
_INVERTED = Cue(
    r"^[\s>*#-]*(?:\d+[.)]\s*)?(?:(?:so|and|but|then|now|well)\b,?\s+)?"
    r"(?:is|are|was|does|do|did|has|have|can|could|will|would)\s+"
    r"(?:it|this|that|there|the|a|an|any|its|their|these|those|they|we|you|he|she|one|some|"
    r"either|each)\b(?=[^?]*\bor\b)[^?]*$",
    _I,
)
#: rule 951: a condition's inversion ("Were", "Had", "Should") goes on, after a comma, with what
#: follows from it ("Were the pods OOMKilled or evicted, W would restart."); one with no comma,
#: offering alternatives with "or" and no question mark, is the question its order asks ("Were
#: an OOM kill or a crash loop the problem.", the answer on the next line)
_CONDITION_ASKS = Cue(
    r"^[\s>*#-]*(?:\d+[.)]\s*)?(?:(?:so|and|but|then|now|well)\b,?\s+)?"
    r"(?:were|had|should)\s+"
    r"(?:it|this|that|there|the|a|an|any|its|their|these|those|they|we|you|he|she|one|some|"
    r"either|each)\b(?=[^?,]*\bor\b)[^?,]*$",
    _I,
)
#: rule 922: a clause opening with "or" at a sentence's start or after a question's mark
#: offers an alternative ("Or a crash loop or an expired certificate, so ...", "is it X? Or
#: Y ..."): it states none; blanked to the clause's end
#: rule 952: so does one opening with "alternatively" or "or else", and an "or" after an ellipsis
#: ("is that it? Alternatively Y or Z ...", "is that it? \u2026or Y ...")
_OR_CLAUSE = Cue(
    r"(?:^|(?<=[?!]))[\s>*_\-\u2013\u2014\u2026.]*(?P<or>or(?:\s+else)?|alternatively)\b"
)


@per_judgement
def mask_questions(sentence: str) -> str:
    """``sentence`` with what it only asks blanked, spaces for characters (module docstring)."""
    cues = (_YES_NO, _WHICH, _OFFERED, _UNMARKED, _INVERTED, _CONDITION_ASKS)
    if any(cue.match(sentence) for cue in cues):
        return " " * len(sentence)
    return _or_clauses(_asked(sentence))


def _or_clauses(sentence: str) -> str:
    """Rule 922: ``sentence`` with each clause :data:`_OR_CLAUSE` opens blanked."""
    for m in _OR_CLAUSE.finditer(sentence):
        start = m.start("or")
        end = _end(sentence, start)
        sentence = sentence[:start] + " " * (end - start) + sentence[end:]
    return sentence


def _asked(sentence: str) -> str:
    """``sentence`` with its "whether" and "if" questions blanked (rule 610)."""
    if "whether" not in sentence.lower() and " if " not in sentence.lower():
        return sentence
    out, at = [], 0
    for m in _OPENS.finditer(sentence):
        if m.start() < at:
            continue
        start = m.start() if m.group().lower() == "whether" else m.end()
        end = _end(sentence, start)  # rules 872, 901: an "if" question as a "whether" one
        out.append(sentence[at:start] + " " * (end - start))
        at = end
    return "".join(out) + sentence[at:]


def _end(sentence: str, start: int) -> int:
    """Where the question opened at ``start`` ends (:data:`_ENDS`); rule 818: not inside a
    parenthesis it opened ("whether W has X (see: W logs) or Y, so ..." runs to ", so"): an
    aside is part of the clause holding it; a parenthesis never closed is none; rule 826: nor
    at a full stop a "whether" question's alternatives continue past. One pass."""
    scanned, depth, first = start, 0, None
    for stop in _ENDS.finditer(sentence, start + 1):
        part = sentence[scanned : stop.start()]
        depth, scanned = max(0, depth + _opened(part)), stop.start()
        if depth == 0:
            if _reads_on(sentence, stop.start()):
                continue  # rules 826, 901
            return stop.start()
        if first is None:
            first = stop.start()
            if _closed(sentence[scanned:]) < depth:  # never closed: the stop ends it
                return first
    return len(sentence)


def _opened(part: str) -> int:
    """Brackets ``part`` opens less those it closes; rule 862: a square bracket or a brace
    holds an aside as a parenthesis does ("[see: W logs]")."""
    return sum(part.count(o) - part.count(c) for o, c in ("()", "[]", "{}"))


def _closed(rest: str) -> int:
    return rest.count(")") + rest.count("]") + rest.count("}")


#: rule 826: alternatives joined by "or"
_OR = re.compile(r"\bor\b", _I)
#: rule 826: a "whether" question, no question mark after it, cut by a stop at its end;
#: rule 901: an "if" question as well
_CUT = re.compile(r"\b(?:whether|if)\b[^?]*\.$", _I)
#: rule 902: a part opening with "or" (after a dash closing an aside): the alternatives of the
#: question before it go on ("whether W has X \u2014 is that it? \u2014 or Y or Z")
_OR_NEXT = re.compile(r"^[\s\-\u2013\u2014)\]}*_]*or\b")


def _reads_on(sentence: str, at: int) -> bool:
    """Rule 826: the stop at ``at`` cuts a "whether" question its alternatives continue: a
    full stop, then a word in lower case, then "or" before the question's next end ("I
    checked whether W has incl. an OOM kill or a crash loop or ..."): whatever word the stop
    closed, the list after it is the question's own; rule 863: a colon or a semicolon opening
    the list likewise, whatever the case after it ("whether W has any of: an OOM kill or a
    crash loop or ..."): neither ends a sentence."""
    if sentence[at : at + 1] not in (".", ":", ";", "?", "!"):
        return False
    rest = sentence[at + 1 :].lstrip()
    if _OR_NEXT.match(sentence[at + 1 :]):
        return True  # rule 902: the stop closes an aside, the alternatives go on
    if sentence[at] in "?!" or not sentence[at + 1 : at + 2].isspace():
        return False
    if sentence[at] == "." and not rest[:1].islower():
        return False
    stop = _ENDS.search(rest)
    return _OR.search(rest[: stop.start() if stop else len(rest)]) is not None


def joined(parts: list[str]) -> list[str]:
    """Rule 826: ``parts`` (one line's sentences) with a "whether" question cut by a stop read
    on into the part after it, where that part opens in lower case and gives alternatives
    (:func:`_reads_on`)."""
    out: list[str] = []
    for part in parts:
        if (
            out
            and _OPENS.search(out[-1])  # a "whether" or an "if" question (rules 826, 872, 901)
            and (_CUT.search(out[-1]) or _OR_NEXT.match(part))  # rule 902
            and _reads_on(f"{out[-1]} {part}", len(out[-1]) - 1)
        ):
            out[-1] = f"{out[-1]} {part}"
        else:
            out.append(part)
    return out
