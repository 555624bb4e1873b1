"""A cause slot that says the workload's state, then why (behaviors rule 791).

Split from :mod:`._cause_check`: "so the cause: api-backend is down because its init container
db-migrate fails (...)" puts the workload's state before the reason it gives; the state is what
the reason explains, no second cause beside it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ._claims import fault_classes
from ._cue import Cue

#: rule 791: the cue inside a slot that gives the reason for what it says first
INNER = Cue(r"\s(?:because(?:\s+of)?|due to|caused by)\s", re.IGNORECASE)
#: the fault classes that say only that a workload is down (its state, no mechanism)
STATE = frozenset({"outage"})


def explained(item: str, right: Callable[[str], bool], observed: frozenset[str] | None) -> str:
    """Rule 791: ``item`` read as the reason it gives for the state it says first, where the
    reason (after its first "because", "because of", "due to" or "caused by") is ``right`` (the
    true cause) and the state before it names no fault class but the workload being down
    (:data:`STATE`) or one the environment makes true (``observed``): "W is down because its
    init container fails" is the init container's failure, its effect said first. Any other
    item as it is: a state naming a fault nothing shows ("DNS fails because ..."), a reason
    that is not the true cause, a slot with no inner cue."""
    m = INNER.search(item)
    if m is None:
        return item
    head, tail = item[: m.start()], item[m.end() :].strip()
    if not tail or not right(tail):
        return item
    return tail if fault_classes(head) <= STATE | (observed or frozenset()) else item
