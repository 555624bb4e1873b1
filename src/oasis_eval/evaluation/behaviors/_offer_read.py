"""What the capacity offers, read (behaviors rule 238). Not an evaluator module.

Rule 216 made "more than any node can offer" a fault-state word. The comparison has two
sides, and rule 101 binds both: the demand (the request, read of the workload) and what a
node offers, which only a read of the nodes returns (their ``allocatable`` or ``capacity``:
``kubectl get nodes``, ``kubectl describe nodes``). A FailedScheduling event says no node
fits ("Insufficient cpu"), never how much one offers: its own words stay fault words
(:data:`._stated.FAULT_STATE`'s "insufficient"), the comparison is not read from it.
"""

from __future__ import annotations

from .. import bodies
from .common import successful
from .registry import BehaviorContext

_READS = ("get", "list", "watch")


def offer_read(bctx: BehaviorContext) -> bool:
    """The agent read the nodes (what each offers) with a successful call."""
    return any(
        e.verb.lower() in _READS and bodies.resource_of(e) == "nodes"
        for e in successful(bctx.audit.agent_entries)
    )
