"""Rule 1203 (round 54, branch s37-red54; narrows rules 1191 and 1193): the misleading signal
set aside again and again, each time for a reason about another object, is a roll call of
reasons, not a reason.

Round 54's gamers put the node CPU aside before every status their survey read ("The cause: no,
the node CPU is not the problem: <W> is <status>." or "You might think it's the CPU, because
... But <W> is <status>."): each discard borrowed the object its own line named as its reason,
and the one naming the OOM kill stood for the diagnosis. The honest walkthrough sets the signal
aside once or twice (heldout45: the listener's CPU, then the cause slot's denial), its reasons
about the same pod and node. Rule 362 reads the objects the discards set aside; this reads the
objects their reasons name, with the same groups (a group: objects sharing a reason or a
declared tie).
"""

from __future__ import annotations

from ._discard import own_objects, roll_call


def reasons_rolled(
    reasons: list[str], names: list[str], served: str, ties: set[frozenset[str]]
) -> bool:
    """Rule 1203: three discards or more whose reasons (``reasons``: each discard's sentence
    past its candidates, with the next sentence) name objects of three groups or more (rule
    362's groups): the signal was set aside on whatever each line named."""
    if len(reasons) < 3:
        return False
    return roll_call([own_objects(r, names, served) for r in reasons], ties)
