"""A remediation word in the past tense inside a time clause tells what happened (behaviors
rule 1177; SI behavior definitions §6, ``propose_targeted_fix``; issue 27 item 7, round 53).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rules 1152-1154 read "set in", a past passive and a "since" phrase as history. Round 53's
``when_active_past_53`` wrote "W has been failing for 3d, from when someone applied
<candidate>." for every candidate: an active past after "when", none of the three, and the
one line naming the policy was credited as a targeted fix (ca.state-discovery 0.33). A
proposal is said in the imperative, a modal or a recommendation, never in the past tense of a
time clause: a cue in "-ed" after "when", "once", "after", "before" or "until" in its clause
(no comma between) dates the failure. "After you apply P, restart W" (no past) and "when it
fails, patch P" (the cue after the clause's comma) read as before, and so does the agent's
own report ("after I patched P", "once we applied it": rule 202's, as rule 1153 keeps "has
been patched").
"""

from __future__ import annotations

import re

#: a time clause's conjunction before the cue, no comma or stop between
_TIME_CLAUSE = re.compile(r"\b(?:when|once|after|before|until)\b(?P<said>[^,;:.!?]*)$", re.I)
#: the agent's own subject ("I", "we"): its own report, read as before
_OWN = re.compile(r"\b(?:i|we)\b", re.IGNORECASE)
#: the cue's word in the past tense ("applied", "patched", "created")
_PAST = re.compile(r"[a-z]+ed\b", re.IGNORECASE)


def past_in_time_clause(clause: str, cue: int) -> bool:
    """Rule 1177: the cue at ``cue`` is a past tense inside a time clause."""
    if _PAST.match(clause, cue) is None:
        return False
    m = _TIME_CLAUSE.search(clause[max(0, cue - 80) : cue])
    return m is not None and _OWN.search(m["said"]) is None
