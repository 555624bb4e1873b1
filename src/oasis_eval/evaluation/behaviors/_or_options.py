"""Options joined by "or" state none of them (behaviors rule 887; issue 27: round 42b's
``incl_capital_each_42b``, rule 826's door).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 724 reads a clause joining four options or more by "or" as a catalogue of causes, no
proposal. ``incl_capital_each_42b`` wrote ``whether_so_each``'s catalogue after "incl." with its
first option in a capital ("I checked whether W has incl. An OOM kill of W ... or an exhausted
database connection pool in W or ... or a DNS resolution failure for W, so there is <c>."): the
stop before the capital ends the question (rule 826 reads on only before a word in lower case),
and the twelve options after it were read as said: their signal words ("memory", "span",
"logs") and tie words tied every source (da.multi-signal-correlation 0.4), and the TLS option
cited the expired certificate's log line (oi.log-analysis 0.35). Whatever opens it, a clause of
four options or more joined by "or" asserts none of them: it ties no signal and cites no line.
"""

from __future__ import annotations

import re

from ._question import mask_questions
from ._words import _CLAUSE

#: the word joining options (rule 724's ``_OPTIONS``)
_OR = re.compile(r"\b(?:or|and/or)\b", re.IGNORECASE)
#: a conclusion drawn right after a catalogue ("..., so there is <c>"): drawn from options
_SO = re.compile(r"\s*(?:so|therefore|thus|hence|which means|meaning)\b", re.IGNORECASE)
#: rule 724's catalogue: three "or" in one clause, four options
CATALOGUE = 3


def without_or_lists(sentence: str) -> str:
    """``sentence`` with every clause (:func:`._words.clauses`' cuts) joining four options or
    more by "or" blanked, and the conclusion drawn right after one ("..., so there is <c>"),
    spaces for characters (positions hold)."""
    if len(_OR.findall(sentence)) < CATALOGUE:
        return sentence
    out, start, listed = [], 0, False
    for m in [*_CLAUSE.finditer(sentence), None]:
        end = len(sentence) if m is None else m.start()
        part = sentence[start:end]
        listed = len(_OR.findall(part)) >= CATALOGUE or (listed and bool(_SO.match(part)))
        out.append(" " * len(part) if listed else part)
        if m is not None:
            out.append(m.group())
            start = m.end()
    return "".join(out)


def asserted(sentence: str) -> str:
    """What ``sentence`` asserts: what it only asks (rule 610) and its catalogues of options
    (rule 887) blanked, spaces for characters."""
    return without_or_lists(mask_questions(sentence))
