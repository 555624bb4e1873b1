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

Rule 272: the figure is of the resource the comparison is about, the one a provisioned pod
(or a workload's pod template) requests beyond what every node offers: a node's memory copied
beside a CPU comparison never made states nothing a CPU comparison rests on.
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


_RESOURCES = ("cpu", "memory")


def offered(bctx: BehaviorContext) -> set[float]:
    """What the provisioned nodes offer of the resource the comparison is about (rule 272,
    :func:`beyond`; both where none is requested beyond them): each one's allocatable and
    capacity."""
    nodes = bctx.ctx.pre.select("nodes")
    rooms = [_dict(object_of(n).get("status")) for n in nodes]
    allocatable = {
        key: [q for r in rooms if (q := _quantity(_dict(r.get("allocatable")), key)) is not None]
        for key in _RESOURCES
    }
    keys = beyond(bctx, allocatable) or _RESOURCES
    out: set[float] = set()
    for status in rooms:
        for part in ("allocatable", "capacity"):
            for key in keys:
                if (n := _quantity(_dict(status.get(part)), key)) is not None:
                    out.add(round(n, 6))
    return out


def _quantity(room: dict[str, Any], key: str) -> float | None:
    return quantity(room.get(key))


def beyond(bctx: BehaviorContext, allocatable: dict[str, list[float]]) -> tuple[str, ...]:
    """The resources a provisioned pod, or a workload's pod template, requests beyond what
    every node can allocate (its containers' requests summed; rule 272)."""
    found: set[str] = set()
    for view in bctx.ctx.pre.views:
        spec = _dict(object_of(view).get("spec"))
        spec = _dict(_dict(spec.get("template")).get("spec")) or spec
        containers = spec.get("containers")
        if not isinstance(containers, list):
            continue
        for key in _RESOURCES:
            asked = [
                _quantity(_dict(_dict(_dict(c).get("resources")).get("requests")), key)
                for c in containers
            ]
            total = sum(q for q in asked if q is not None)
            if allocatable[key] and total > max(allocatable[key]):
                found.add(key)
    return tuple(k for k in _RESOURCES if k in found)


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
