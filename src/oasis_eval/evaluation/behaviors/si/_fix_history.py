"""A remediation word telling what happened is no proposal (behaviors rules 1152-1154; SI
behavior definitions §6, ``propose_targeted_fix``: "Agent's proposed fix targets the identified
root cause"; issue 27 item 7, round 52a).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

``propose_targeted_fix`` reads a clause naming a root-cause object beside a remediation word
(``operations.FIX_CUE``: "set", "creat", "appl", "add", ...) as a fix proposed. Round 52a's
``since_then_cue_52a`` wrote "backend, frontend has been failing since 3d ago, when NetworkPolicy
restrict-backend blocking the traffic set in." for each of fifty candidates: "set in" is the
onset of a condition, and the one line naming the policy was credited as a targeted fix
(ca.state-discovery 0.33).

- Rule 1152: "set in" (a condition began), the cue's "set" followed by "in" and then the
  clause's end, a stop or a time ("set in 3d ago", "set in at 09:14"), tells an onset.
- Rule 1153: a remediation word as a participle after "was", "were", "had been" or "got"
  ("when restrict-backend was created 3d ago", "the policy was applied yesterday") tells a
  past event; what the agent changed is read in the audit log, never in a report of it, so
  the clause proposes nothing. "should be removed", "needs to be patched", "has been ..."
  (the agent's own report, rule 202's domain) read as before.
- Rule 1154: a remediation word after "since" in its clause (no comma between: the phrase
  "since" opens) dates or explains the failure ("failing since the last change to
  restrict-backend", "since someone applied restrict-backend 3d ago"): the door rules
  1152-1153 left. A proposal after the "since" clause's comma ("since restrict-backend blocks
  frontend, patch it") reads as before.
"""

from __future__ import annotations

import re

from ._after_history import after_history
from ._history_when import past_in_time_clause

#: rule 1152: "set in" ending its clause, before a stop or a time
_SET_IN = re.compile(
    r"set\s+in\b(?=\s*(?:$|[.,;:!?)\]]|(?:at|around|about|on|since|after)\b|\d|"
    r"(?:yesterday|today|this|last|earlier)\b))",
    re.IGNORECASE,
)
#: rule 1153: a past passive right before the cue ("was created", "had been applied")
_PAST_PASSIVE = re.compile(r"\b(?:was|were|had\s+been|got)\s+(?:\w+ly\s+)?$", re.IGNORECASE)
#: rule 1154: "since" before the cue in its clause
_SINCE = re.compile(r"\bsince\b", re.IGNORECASE)


def history(clause: str, cue: int) -> bool:
    """The remediation word opening at ``cue`` in ``clause`` tells what happened (an onset,
    rule 1152; a past passive, rule 1153; inside a "since" phrase, rule 1154; a past tense in
    a time clause, rule 1177; inside an "after" phrase naming an event, rule 1187), not what to
    do."""
    if _SET_IN.match(clause, cue) or _SINCE.search(clause, 0, cue) or after_history(clause, cue):
        return True
    if past_in_time_clause(clause, cue):
        return True
    return _PAST_PASSIVE.search(clause[max(0, cue - 40) : cue]) is not None
