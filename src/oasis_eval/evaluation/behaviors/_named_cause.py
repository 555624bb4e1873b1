"""The root cause an answer names itself (behaviors rules 181-183; issue 27).

A cause cue (:data:`._claims.CAUSE_BEFORE`, :data:`._claims.CAUSE_AFTER`) marks any causal
claim ("because", "leads to"); a *naming* cue marks the one the answer gives as its
diagnosis: "the root cause is X", "Root cause: X", "Cause: X", "the actual cause of the
restarts is X", "X is the root cause", "the culprit is X", "caused by X". Such a claim,
committed to (not hedged, not rebutted: :attr:`._claims.Claim.asserted`), is what the
profile's verification calls the agent's *stated root cause* (SI behavior definitions §5):
:func:`._claims.check_causes` counts those that name no true cause (rule 183).

A log line restated ("the api-service log reports ERROR: pool exhausted") is what the log
says, not a cause the answer commits to (rule 182): :func:`unrestated` drops it from a slot.
A cue explaining a figure ("CPU is at 97%, driven by X") gives what makes up a reading, no
rival diagnosis (rule 198, :func:`of_reading`). Registers no behavior.
"""

from __future__ import annotations

import re

from ._cue import Cue
from ._words import mask_quotes

#: a root cause named as the diagnosis (quotations masked before it is searched)
NAMING = Cue(
    r"\broot[\s-]causes?\b"
    r"|\b(?:actual|real|underlying|main|primary)\s+causes?\b"
    r"|\bthe\s+causes?\s+(?:of\s+[^.;:]{0,80}?\s*)?(?:is|was|are|were)\b"
    r"|^[\W_]*causes?[\W_]*:"
    r"|\bculprit\b|\bcaused by\b",
    re.IGNORECASE,
)
#: a log line restated as what the log says: "the api-service log reports ...", "its logs
#: show ...", up to the end of its clause (a ``;``) or the sentence
_RESTATED = re.compile(
    r"\b(?:the|its|their|[\w.-]+'s)\s+(?:[\w.-]+\s+){0,3}?logs?\s+"
    r"(?:reports?|shows?|says|said|contains?|prints?|reads|records?|has|had)\b[^;]*",
    re.IGNORECASE,
)


def unrestated(slot: str) -> str:
    """``slot`` without the log lines it restates (rule 182): "X being CrashLoopBackOff, and
    the api log reports pool exhausted" -> "X being CrashLoopBackOff, and"."""
    return _RESTATED.sub("", slot).strip(" ,;:-")


def names_cause(sentence: str) -> bool:
    """A naming cue in the agent's own words (quotations masked)."""
    return bool(NAMING.search(mask_quotes(sentence)))


#: a clause ending in a figure ("node-1 CPU is at 97%, "): what a cue after it explains
_FIGURE_END = re.compile(
    r"\d+(?:\.\d+)?\s*(?:%|[KMGT]i?B?|m|cores?|ms|s|x)?\)?\s*[,;:]?\s*$", re.IGNORECASE
)


def of_reading(sentence: str, cause: str, cue: Cue) -> bool:
    """The ``cue`` (a cause before its cause) giving ``cause`` in ``sentence`` explains a
    figure the sentence reads ("node-1 CPU is at 97%, driven by batch-processor (1.9
    cores)"): what makes up a reading, not a rival cause of the fault (behaviors rule 198)."""
    at = sentence.rfind(cause) if cause else -1
    head = sentence[: max(at, 0)]
    cues = list(cue.finditer(mask_quotes(head)))
    return bool(cues) and _FIGURE_END.search(head[: cues[-1].start()]) is not None
