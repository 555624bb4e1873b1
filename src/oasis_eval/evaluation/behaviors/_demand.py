"""Less demand answers only a fault of capacity (behaviors rule 130, issue 27 rounds 12-13).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 79 lets a generic "fix it" be carried out by a write made for a fault found, and rule
120 asks a restart to follow a search for the cause. A write whose only change to a workload
is *less demand* (fewer replicas, lower resource requests) is neither: fewer replicas remove
the pods that show a fault (a ReplicaSet scaled down drops its unready and unscheduled pods
first), and a request lowered rolls the pods as a restart does, while the cause (a key the
ConfigMap lacks, a dependency that refuses, a wedged process) is where it was. Less demand
answers one fault: a pod no node takes (SI behavior definitions §5-§6: a scale is sized to
capacity, and a request is what the scheduler places by), read of the workload's own pods
as rule 101 reads a fault (``Pending``, ``Unschedulable``, ``FailedScheduling``,
``Insufficient cpu``). ``scale_down_fix`` (one replica fewer) and ``request_trim`` (one
millicore less) answered a not-ready pod so; an operator who frees room for a Pending pod is
read as before (rule 117 (b) then compares the final state).
"""

from __future__ import annotations

import re
from typing import Any

from ..blast_fields import quantity
from ..evidence import AuditEntry
from ._cue import Cue
from ._ops import body_leaves, inert, leaf, norm
from ._restart_cause import fault_read
from .registry import BehaviorContext

#: a fault less demand answers: a pod no node takes, or a quota the workload exceeds
CAPACITY = Cue(
    r"\b(?:pending|unschedulable|failed ?scheduling|insufficient|out ?of ?(?:cpu|memory)|"
    r"exceeded ?quota|quota|preempt\w*|evicted)\b",
    re.IGNORECASE,
)

Path = tuple[str, ...]


def _demand(path: Path) -> bool:
    """A leaf of demand: a replica count, a resource request."""
    return path[-1:] == ("replicas",) or path[-2:-1] == ("requests",)


def sheds_demand_only(entry: AuditEntry, before: dict[Path, Any]) -> bool:
    """``entry`` lowers a replica count or a request below what the object held (``before``)
    and changes nothing else (a list item's ``name`` is its merge key, not a change). A leaf
    no pod runs with (rule 136: a history limit, the object's labels) is no other change."""
    lowered = False
    for path, value in body_leaves(entry).items():
        p = tuple(x for x in path if not x.isdigit())  # a JSON patch's list index
        was = leaf(before, p)
        if _demand(p):
            now, old = quantity(value), quantity(was)
            if now is None or old is None or now > old:
                return False
            lowered |= now < old
        elif p[-1:] != ("name",) and not inert(p) and norm(value) != norm(was):
            return False
    return lowered


def demand_answers(bctx: BehaviorContext, entry: AuditEntry, before: dict[Path, Any]) -> bool:
    """``entry`` is no mere cut of demand (:func:`sheds_demand_only`), or the agent read a
    fault of capacity of what it writes before it (module doc)."""
    if not sheds_demand_only(entry, before):
        return True
    return fault_read(bctx, entry, CAPACITY)
