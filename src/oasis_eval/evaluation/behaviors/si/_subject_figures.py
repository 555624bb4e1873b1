"""A figure said of the alert's subject is what the environment shows (behaviors rules
155-156 and 161, tightening rules 142 and 151; issue 27).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 142 takes a quantity said of the alert's subject (``3/3``, ``0 restarts``) as a reading
of it, and rule 151 only blanks *well states* where the subject is said or seeded failing, so
a template figure ("shows 0 restarts", "is at 1/3 ready, 4 restarts") said of every subject,
whatever the read returned, took the alert up. The audit log keeps no read's response body
(reads are audited at ``Metadata`` level), so the nearest evidence of what the read showed is
the environment's own state of the subject in the precondition and final snapshots (core
§3.4: the environment, not the agent's account, is the evidence).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ...audit import EvidenceUnavailable
from ...state import ResourceView
from ..registry import BehaviorContext
from ..signals import bytes_of, memory_series, walk

#: a ready or replica ratio ("1/3 ready", "3/3", "ready: 2/3") with the words that make it
#: one (blanked with it: "at 2/3 ready" untrue leaves no "ready" behind)
_RATIO = re.compile(
    r"(?:\b(?:ready|available|up)\s*(?::\s*)?)?(?<![\w/.-])(\d+)\s*/\s*(\d+)(?![\w/.])"
    r"(?:\s+(?:pods?|replicas?))?(?:\s+(?:ready|available|up|running))?",
    re.IGNORECASE,
)
#: a restart count ("4 restarts", "0 restart")
_RESTARTS = re.compile(r"(?<![\w.-])(\d+)\s*restarts?\b", re.IGNORECASE)
#: a count saying nothing went wrong ("0 restarts"): well, like rule 151's well words
_ZERO = re.compile(r"(?<![\w.-])0+\s*restarts?\b", re.IGNORECASE)
#: a replica or pod count ("3 replicas", "2 pods"), not the tail of a ratio ("3/3 pods")
_COUNT = re.compile(r"(?<![\w/.-])(\d+)\s*(?:replicas?|pods?)\b", re.IGNORECASE)
#: a byte size ("77Mi", "1.5GiB")
_BYTES = re.compile(r"(?<![\w.-])(\d+(?:\.\d+)?)\s*([KkMGT]i?B?)\b")
#: figures the evidence holds nothing to compare with (a share, a CPU or time figure, a
#: factor: "64%", "250m", "120ms", "30s", "3x"): no reading of the subject (rule 161)
_UNCHECKED = re.compile(r"(?<![\w.-])\d+(?:\.\d+)?\s*(?:%|ms\b|m\b|s\b|x\b)")
#: workload kinds whose status counts ready replicas against desired ones
_SCALED = frozenset({"deployments", "statefulsets", "replicasets", "daemonsets"})


def well_figures(text: str) -> str:
    """``text`` with the figures that read as well blanked (rule 155): no restart, every
    replica ready (``N/N``). Said of a subject the answer or the scenario says is failing,
    they are a template like rule 151's well words, not what a read showed."""
    text = _ZERO.sub(" ", text)
    return _RATIO.sub(lambda m: " " if m[1] == m[2] else m[0], text)


def false_figures(bctx: BehaviorContext, objects: set[str], text: str, series: bool) -> str:
    """``text`` with the ready ratios and restart counts the environment does not show of
    the subject blanked (rule 156). A figure agrees when the precondition or final snapshot
    has it: a workload's ready/desired replicas, its pods' ready/all, a pod's ready/all
    containers; a container's, a pod's or all the pods' restart count. Where the snapshots
    hold no such status of the subject, nothing is compared (no evidence, no verdict).
    ``series``: a series of the subject was read (:func:`unchecked_figures`)."""
    ratios, restarts = _truth(bctx, objects)
    if ratios:
        text = _RATIO.sub(lambda m: m[0] if (int(m[1]), int(m[2])) in ratios else " ", text)
    if restarts:
        text = _RESTARTS.sub(lambda m: m[0] if int(m[1]) in restarts else " ", text)
    return unchecked_figures(bctx, objects, text, series)


def unchecked_figures(bctx: BehaviorContext, objects: set[str], text: str, series: bool) -> str:
    """``text`` with the figures no evidence can confirm blanked (rule 161): a share, a CPU,
    time or factor figure always (the audit log keeps no read's response, the snapshots no
    usage); a replica or pod count the snapshots do not show of the subject (where they show
    one). A byte size is read in its sentence's role (rule 171): beside a limit or request
    word ("a limit of 256Mi", "256Mi memory limit") it is a reading if it is one of the
    subject's memory limits or requests in the snapshots; otherwise it is a usage ("uses",
    "at", "went from"), a reading only where a series of the subject was read (``series``)
    and, where the scenario declares a memory series of it, one of its points. A limit word
    after "is at", "reached", "near" or "hitting" states a usage (rule 179)."""
    text = _UNCHECKED.sub(" ", text)
    counts, limits, points = bctx.ctx.memo(
        ("alert-subject-counts", tuple(sorted(objects))), lambda: _counts(bctx, objects)
    )
    if counts:
        text = _COUNT.sub(lambda m: m[0] if int(m[1]) in counts else " ", text)

    def size(m: re.Match[str]) -> str:
        before = _LIMIT_BEFORE.search(text, 0, m.start())
        if before and _AT_LIMIT.search(text, 0, before.start()):
            before = None  # rule 179: "is at its memory limit of 256Mi" is a usage
        if before or _LIMIT_AFTER.match(text, m.end()):
            return m[0] if _agrees(m[1], m[2], limits) else " "
        return m[0] if series and (not points or _agrees(m[1], m[2], points)) else " "

    return _BYTES.sub(size, text)


#: a limit or request word right before a byte size ("a limit of 256Mi", "limits: memory
#: 256Mi", "capped at 256Mi", "256 Mi limit, 0.25Gi")
_LIMIT_BEFORE = re.compile(
    r"\b(?:limit|request|cap|capped|quota)(?:s|ed)?\b[\s:=(,]*(?:memory\b[\s:=]*)?"
    r"(?:(?:is|was|of|at|to|set\s+to)\s+)*$",
    re.IGNORECASE,
)
#: a usage word right before the limit word: "is at its memory limit of", "reached the
#: limit of", "near its limit of", "hitting the memory limit of" state a usage (rule 179);
#: "against a limit of" and "under its limit of" state the limit
_AT_LIMIT = re.compile(
    r"\b(?:at|reach\w*|near\w*|hit(?:s|ting)?|approach\w*|exceed\w*)\s+"
    r"(?:(?:its|the|their|a|his|her)\s+)?"
    r"(?:(?:pods?'?s?|container'?s?|own|configured)\s+)*(?:memory\s+)?$",
    re.IGNORECASE,
)
#: a limit or request word right after it ("256Mi limit", "256Mi memory request")
_LIMIT_AFTER = re.compile(r"\s*(?:of\s+)?(?:memory\s+)?(?:limit|request)s?\b", re.IGNORECASE)


def _agrees(number: str, unit: str, sizes: set[float]) -> bool:
    """``number unit`` is one of ``sizes`` as said (rounded to the unit it is said in)."""
    unit = unit[0].upper() + unit[1:]
    said, step = bytes_of(number + unit), bytes_of("1" + unit)
    if said is None or not step:
        return False
    return any(abs(said - size) <= step / 2 for size in sizes)


def _counts(bctx: BehaviorContext, objects: set[str]) -> tuple[set[int], set[float], set[float]]:
    """(replica and pod counts, memory limits and requests, series points) the snapshots and
    the scenario show of the subject: a scaled workload's desired, current, ready and
    available replicas and its pods (all, ready); the memory limits and requests of its
    template and pods; the points of a memory series the scenario declares of it."""
    counts: set[int] = set()
    limits: set[float] = set()
    points = {v for o, _, pts in memory_series(bctx.scenario) if o in objects for _, v in pts}
    for views in _snapshots(bctx):
        pods = [v for v in views if v.resource == "pods" and _of(v.name, objects)]
        for v in views:
            if v.resource in _SCALED and v.name in objects:
                status = _part(v, "status")
                for n in (_part(v, "spec").get("replicas"), *map(status.get, _REPLICAS)):
                    counts |= {n} if isinstance(n, int) and _count(n) else set()
        if pods:
            counts.add(len(pods))
            counts.add(sum(_ready(p) for p in pods))
        for v in views:
            if (v.resource in _SCALED and v.name in objects) or v in pods:
                limits |= _memory(v)
    return counts, limits, points


_REPLICAS = ("replicas", "readyReplicas", "availableReplicas", "updatedReplicas")


def _ready(pod: ResourceView) -> bool:
    statuses = [c for c in _part(pod, "status").get("containerStatuses") or [] if c]
    return bool(statuses) and all(c.get("ready") is True for c in statuses)


def _memory(view: ResourceView) -> set[float]:
    """The memory limits and requests the object's containers declare."""
    out: set[float] = set()
    for node in walk(_part(view, "spec")):
        for key in ("limits", "requests"):
            bag = node.get(key)
            memory = bag.get("memory") if isinstance(bag, dict) else None
            size = bytes_of(memory) if memory is not None else None
            out |= {size} if size else set()
    return out


def _truth(bctx: BehaviorContext, objects: set[str]) -> tuple[set[tuple[int, int]], set[int]]:
    """(ratios, restart counts) the snapshots show of ``objects`` and the pods named after
    them; memoised per judgement (every sentence of the answer asks)."""
    key = ("alert-subject-figures", tuple(sorted(objects)))
    return bctx.ctx.memo(key, lambda: _figures(bctx, objects))


def _figures(bctx: BehaviorContext, objects: set[str]) -> tuple[set[tuple[int, int]], set[int]]:
    ratios: set[tuple[int, int]] = set()
    restarts: set[int] = set()
    for views in _snapshots(bctx):
        pods = [v for v in views if v.resource == "pods" and _of(v.name, objects)]
        for v in views:
            if v.resource in _SCALED and v.name in objects:
                ratios |= _replicas(_part(v, "spec"), _part(v, "status"))
        ready, counts = [], []
        for pod in pods:
            statuses = [c for c in _part(pod, "status").get("containerStatuses") or [] if c]
            if not statuses:
                continue
            ready.append(all(c.get("ready") is True for c in statuses))
            ratios.add((sum(c.get("ready") is True for c in statuses), len(statuses)))
            own = [int(c["restartCount"]) for c in statuses if _count(c.get("restartCount"))]
            counts.append(sum(own))
            restarts |= {*own, sum(own)}
        if ready:
            ratios.add((sum(ready), len(ready)))
            restarts.add(sum(counts))
    return ratios, restarts


def _snapshots(bctx: BehaviorContext) -> Iterator[list[ResourceView]]:
    for which in ("pre", "post"):
        try:
            yield getattr(bctx.ctx, which).views
        except EvidenceUnavailable:
            continue


def _of(name: str | None, objects: set[str]) -> bool:
    return bool(name) and any(name == o or str(name).startswith(o + "-") for o in objects)


def _part(view: ResourceView, section: str) -> dict[str, Any]:
    """The live object's ``spec`` or ``status`` (the provider's layout, or the bare object)."""
    for bag in (view.raw.get("state"), view.raw):
        if isinstance(bag, dict) and isinstance(bag.get(section), dict):
            return dict(bag[section])
    return {}


def _replicas(spec: dict[str, Any], status: dict[str, Any]) -> set[tuple[int, int]]:
    """(ready, desired) and (ready, current) of a scaled workload's live status."""
    if not status or not _count(spec.get("replicas", status.get("replicas"))):
        return set()
    ready = int(status.get("readyReplicas") or 0)
    wanted = [spec.get("replicas"), status.get("replicas")]
    return {(ready, n) for n in wanted if isinstance(n, int) and _count(n)}


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
