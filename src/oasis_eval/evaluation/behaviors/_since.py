"""A "since" that dates, not explains (behaviors rule 1146; issue 27 item 6, heldout44).

"since" is a cause cue ("slow since the pool is exhausted") and a preposition of time ("running
v1.0.0 since its last rollout 3d ago"). A person reads the second as when, not why: its object
is a point in time, a noun phrase with a time anchor ("3d ago", "25 minutes ago", "09:30",
"2024-05-14", "yesterday") and no verb of its own before it. A clinician's history ("running
X since its last rollout 3d ago (no older replica set: no recent change)") then blames nothing
on the rollout it dates. A "since" whose object has a verb ("since the pool was exhausted 3d
ago") stays a cause cue, whatever time it names.
"""

from __future__ import annotations

import re

from ._cue import Cue

#: a point in time: an age ("3d ago", "25 minutes ago"), a clock time, a date, a named day
_ANCHOR = Cue(
    r"\b\d+(?:\.\d+)?\s*(?:[smhdw]|sec\w*|min\w*|hours?|hrs?|days?|weeks?|months?)"
    r"(?:\s*\d+\s*[smh])?\s+ago\b|\b(?:an?|one|two|few|several)\s+(?:\w+\s+)?"
    r"(?:seconds?|minutes?|hours?|days?|weeks?)\s+ago\b|\b\d{1,2}:\d{2}(?::\d{2})?\b|"
    r"\b\d{4}-\d{2}-\d{2}\b|\b(?:yesterday|last night|this morning|midnight)\b",
    re.IGNORECASE,
)
#: a verb of the object's own: "since the pool was exhausted 3d ago" explains
_VERB = Cue(
    r"\b(?:is|are|was|were|be|been|has|have|had|does|did|do|can|could|will|would|keeps?|kept|"
    r"fails?|failed|crash\w*|runs? out|ran out|went|got|hit|hits|started|stopped|broke)\b",
    re.IGNORECASE,
)
#: the object's first clause: up to a comma, semicolon, stop or bracket
_CLAUSE_END = re.compile(r"[,;.()\[\]]|\s[-—]\s")


def dates(cue: str, after: str) -> bool:
    """Rule 1146: the cue ``cue`` is "since" and what follows it (``after``) is a point in
    time: its first clause holds a time anchor and no verb before the anchor."""
    if cue.strip(" :").lower() != "since":
        return False
    end = _CLAUSE_END.search(after)
    head = after[: end.start()] if end else after
    anchor = _ANCHOR.search(head)
    return anchor is not None and not _VERB.search(head[: anchor.start()])
