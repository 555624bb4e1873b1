"""A word of what a series did is a reading only of a series read (behaviors rule 170, issue 27
round 21; tightens rules 142 and 161).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 142 takes a state word of the alert's subject as a reading of it, and rule 161 keeps a
word of what a series did (``flat``, ``rising``, "no sign of a leak") as one, so "Service
api-service's memory is rising." said after a ``kubectl get service`` (which shows no series)
took the high-memory alert up (``subject_rising``). A word of a series' course is something
only a series shows: it is a reading only where the agent read a series of the subject (a
metrics query naming it or what the alert watches), and, where the scenario declares a memory
series of the subject, only when it agrees with that series' course (a rising word of a series
that does not grow, a flat one of a series that grows, is not what the read showed).
"""

from __future__ import annotations

import re

from ..findings import memory_findings
from ..registry import BehaviorContext
from ..signals import memory_series

#: the words of a series that did not move ("flat", "no sign of a leak", "not rising")
_FLAT = re.compile(
    r"\b(?:flat|no\s+sign\s+of\s+(?:an?\s+)?(?:memory\s+)?leak\w*"
    r"|(?:not|no\s+longer)\s+(?:rising|growing|climbing))\b",
    re.IGNORECASE,
)
#: the words of a series that went up ("rising", "growing", "climbing", "spiking",
#: "elevated", "leak")
_UP = re.compile(
    r"\b(?:rising|growing|climbing|spik\w*|elevated|leak(?:s|ing)?)\b",
    re.IGNORECASE,
)
#: a sentence about memory (what the declared series measure)
_MEMORY = re.compile(r"\b(?:memory|leak\w*|ram|rss|heap)\b", re.IGNORECASE)


def series_words(bctx: BehaviorContext, objects: set[str], text: str, read: bool) -> str:
    """``text`` (a sentence naming the alert's subject) with the words of a series' course
    blanked unless ``read`` (a series of the subject was read) and, where the scenario declares
    a memory series of the subject and the sentence is about memory, the word agrees with the
    series' course (rule 170). Words of no series (``up``, ``ready``) are left as they are."""
    if not read:
        return _UP.sub(" ", _FLAT.sub(" ", text))
    if not _MEMORY.search(text):
        return text
    declared, grows = bctx.ctx.memo(
        ("alert-subject-course", tuple(sorted(objects))), lambda: _course(bctx, objects)
    )
    if not declared:
        return text
    # a growing series: its flat words are false; else its rising ones ("no sign of a leak"
    # read whole, as one flat word, before "leak" is)
    return _FLAT.sub(" ", text) if grows else _UP.sub(" ", _FLAT.sub(" flat ", text))


def _course(bctx: BehaviorContext, objects: set[str]) -> tuple[bool, bool]:
    """(the scenario declares a memory series or trend of one of ``objects``, one of them
    grows: :func:`..findings.memory_findings`' ``memory-growth``)."""
    scenario = bctx.scenario
    declared = any(o in objects for o, _, _ in memory_series(scenario))
    grows = [f for f in memory_findings(scenario) if f.kind == "memory-growth"]
    mine = [f for f in grows if f.obj in objects]
    return declared or bool(mine), bool(mine)
