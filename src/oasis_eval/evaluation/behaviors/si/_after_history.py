"""A remediation word inside an "after" phrase naming an event is no proposal (behaviors rule
1187; issue 27, session 37 door53b; SI behavior definitions §6, ``propose_targeted_fix``).
Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 1154 reads a cue inside the phrase "since" opens as the failure's starting point. Its
door, round 52a's ``after_change_noun_52a`` ("W has been failing after the last change to
<candidate>, 3d ago." for every candidate), dates the failure by "after" (ca.state-discovery
0.33). "after" also opens a proposal's order ("after you update P, restart W"; "after the patch
to P is applied, W recovers"), so "after" alone is no history: only where what it opens is a
noun phrase (a determiner or a possessive right after it: "after the last change", "following
its rollout") with no verb of its own up to the clause's end, an event named, never an order.
"""

from __future__ import annotations

import re

#: rule 1187: "after" / "following" opening a noun phrase (a determiner or a time word first)
_AFTER = re.compile(
    r"\b(?:after|following)\s+(?:the|a|an|its|their|this|that|last|latest|recent|previous|"
    r"yesterday's|today's)\b",
    re.IGNORECASE,
)
#: a verb of the phrase's own ("after the patch is applied", "after the change will land")
_OWN_VERB = re.compile(
    r"\b(?:is|are|was|were|will|would|should|must|can|could|be|been|being|gets?|got|has|have|"
    r"had|does|do|did)\b|n't\b",
    re.IGNORECASE,
)


def after_history(clause: str, cue: int) -> bool:
    """Rule 1187: the cue at ``cue`` lies in an "after" phrase of ``clause`` naming an event (a
    noun phrase, no verb of its own to the clause's end)."""
    if "fter" not in clause and "ollowing" not in clause:  # issue 30: most clauses hold neither
        return False
    opened = [m for m in _AFTER.finditer(clause, 0, cue)]
    return bool(opened) and _OWN_VERB.search(clause, opened[-1].end()) is None
