"""A "since" giving the changed object as a reason is no change cue (behaviors rule 1095;
issue 27, round 50b: ``reasons_carry_causes_50b``).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

``detect_changed_conditions`` falls back to a changed object named with a change cue in one
clause ("node-2 is new", "since 09:31 node-2 ..."), and "since" is one of its cues, read as
time. A catalogue setting each candidate aside "since <the next candidate> explains it" put
"since node node-2 under CPU, memory or disk pressure" in a clause of its own (the clause ends
at the comma, so rule 723's alternative is in the next one): a reason naming the node, read as
the disk pressure detected (mr.interruption-recovery 0.5). A "since" with the changed object
after it in its clause opens a reason for something else ("X, since node-2 ..."); the time a
change began is said of the object before it ("node-2 has been under disk pressure since
09:31") or with a time after it ("since 09:31"). Such a "since" is left out of the clause's
change cues; every other cue of the clause ("now", "became", "new") is read as before. And the
comma that cut the candidate's list of options ("under CPU, memory or disk pressure") no
longer hides its "or": a clause the next clause continues as a list of options ("memory or
disk pressure ...") is one option of an alternative, as rule 723 reads an "or" of its own.
"""

from __future__ import annotations

import re

from .._cue import Searcher

#: "since" as a word
_SINCE = re.compile(r"\bsince\b", re.IGNORECASE)


def reasons_out(clause: str, obj: Searcher) -> str:
    """``clause`` with each "since" the changed object (``obj``) follows blanked (rule 1095)."""
    if not _SINCE.search(clause):
        return clause
    named = obj.search(clause)
    if named is None:
        return clause
    return _SINCE.sub(lambda m: " " * 5 if m.start() < named.start() else m[0], clause)


#: a clause that continues the one before as a list of options: "memory or disk pressure ..."
_LIST_TAIL = re.compile(r"^[\w-]+(?:\s+[\w-]+)?\s+(?:or|and/or|nor)\b", re.IGNORECASE)


def list_head(parts: list[str], i: int) -> bool:
    """The clause ``parts[i]`` is the first items of a list of options the next clause ends
    ("under CPU" of "under CPU, memory or disk pressure"): one option of an alternative, as
    rule 723 reads "or" in the clause itself (rule 1095)."""
    return i + 1 < len(parts) and bool(_LIST_TAIL.match(parts[i + 1]))
