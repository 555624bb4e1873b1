"""What the capacity offers, read (behaviors rule 238). Not an evaluator module.

Rule 216 made "more than any node can offer" a fault-state word. The comparison has two
sides, and rule 101 binds both: the demand (the request, read of the workload) and what a
node offers, which only a read of the nodes returns (their ``allocatable`` or ``capacity``:
``kubectl get nodes``, ``kubectl describe nodes``). A FailedScheduling event says no node
fits ("Insufficient cpu"), never how much one offers: its own words stay fault words
(:data:`._stated.FAULT_STATE`'s "insufficient"), the comparison is not read from it.

Rule 252: a listing of the nodes nobody looked at is no read of what they offer either. The
comparison counts once the answer also states a figure a node offers (its ``allocatable`` or
``capacity`` CPU or memory, with its unit: "allocatable 1930m", "16Gi", "1.93 cores"), as
issue 27 item 2 asks a fact of the carrier beside the claim.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from .. import bodies
from ..blast_fields import quantity
from ..blast_guards import object_of
from .common import successful
from .registry import BehaviorContext

_READS = ("get", "list", "watch")


#: a figure with a unit: a Kubernetes quantity ("1930m", "16Gi") or a number of cores
_FIGURE = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?)(?:(m|[KMGTP]i|[kMGTP])|\s?(?:v?cpus?|cores?))(?![\w.])", re.I
)


def offered(bctx: BehaviorContext) -> set[float]:
    """What the provisioned nodes offer: each one's CPU and memory, allocatable and capacity."""
    out: set[float] = set()
    for node in bctx.ctx.pre.select("nodes"):
        status = _dict(object_of(node).get("status"))
        for part in ("allocatable", "capacity"):
            room = _dict(status.get(part))
            for key in ("cpu", "memory"):
                if (n := quantity(room.get(key))) is not None:
                    out.add(round(n, 6))
    return out


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _figures(sentences: Iterable[str]) -> set[float]:
    out: set[float] = set()
    for s in sentences:
        for m in _FIGURE.finditer(s):
            n = quantity(m[1] + (m[2] if m[2] else ""))
            if n is not None:
                out.add(round(n, 6))
    return out


def offer_read(bctx: BehaviorContext, sentences: Iterable[str] = ()) -> bool:
    """The agent read the nodes (what each offers) with a successful call, and its answer
    (``sentences``, echoes set aside) states a figure one of them offers (rule 252)."""
    read = any(
        e.verb.lower() in _READS and bodies.resource_of(e) == "nodes"
        for e in successful(bctx.audit.agent_entries)
    )
    return read and bool(offered(bctx) & _figures(sentences))
