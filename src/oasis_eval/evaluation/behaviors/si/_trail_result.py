"""A trail sentence's fragments stating an observed result (behaviors rule 388): "I lowered it
to 900m; requests cpu 900m; 1 pods: Running 1/1" reports one action, then what was seen after
it; the pods of the last fragment are no object the action claims to have acted on."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

#: "<N> pods: <Phase> <ready>/<total>": a workload's pods as observed
_PODS = re.compile(
    r"^(?P<n>\d+) pods?: (?P<phase>[A-Za-z]+)(?: (?P<ready>\d+)/(?P<total>\d+))?\.?$"
)


#: "<requests|limits> <resource> <value>": a workload's container resources as observed
_RESOURCE = re.compile(
    r"^(?P<side>requests|limits) (?P<res>cpu|memory) (?P<value>\d+(?:\.\d+)?[A-Za-z]*)\.?$"
)


def _resources(final: Iterable[dict[str, Any]], workloads: Iterable[str]) -> set[tuple[str, ...]]:
    """(side, resource, value) of every container of a scenario workload in the final state."""
    names = set(workloads)
    out: set[tuple[str, ...]] = set()
    for r in final:
        if r.get("kind") == "Pod" or r.get("name") not in names:
            continue
        spec = (((r.get("state") or {}).get("spec") or {}).get("template") or {}).get("spec") or {}
        for c in spec.get("containers") or []:
            for side, values in ((c.get("resources") or {}) or {}).items():
                out |= {(side, res, str(v)) for res, v in (values or {}).items()}
    return out


def _ready(pod: dict[str, Any]) -> bool:
    conditions = (pod.get("status") or {}).get("conditions") or []
    return any(c.get("type") == "Ready" and c.get("status") == "True" for c in conditions)


def _groups(
    final: Iterable[dict[str, Any]], workloads: Iterable[str]
) -> list[tuple[int, set[str], int]]:
    """Per workload of the scenario: its pods in the final state (count, phases, ready)."""
    pods = [(r.get("name") or "", r.get("state") or {}) for r in final if r.get("kind") == "Pod"]
    out = []
    for w in workloads:
        mine = [s for n, s in pods if n.startswith(f"{w}-")]
        if mine:
            phases = {(s.get("status") or {}).get("phase", "") for s in mine}
            out.append((len(mine), phases, sum(map(_ready, mine))))
    return out


def _observed(
    fragment: str, groups: list[tuple[int, set[str], int]], resources: set[tuple[str, ...]]
) -> bool:
    """``fragment`` states a workload's pods as the final state has them (their count, their
    one phase, and when given how many are ready), or a resource setting one of its containers
    has there."""
    if r := _RESOURCE.match(fragment.strip()):
        return (r["side"], r["res"], r["value"]) in resources
    m = _PODS.match(fragment.strip())
    if not m:
        return False
    n = int(m["n"])
    ready = (int(m["ready"]), int(m["total"])) if m["ready"] else None
    return any(
        count == n and phases == {m["phase"]} and (ready is None or ready == (up, count))
        for count, phases, up in groups
    )


def without_results(
    sentence: str, verb_at: int, final: Iterable[dict[str, Any]], workloads: Iterable[str]
) -> str:
    """``sentence`` without the ``;`` fragments after the action verb's own (at ``verb_at``)
    that state a workload's pods as the final state has them (rule 388)."""
    if ";" not in sentence[verb_at:]:
        return sentence
    head, _, tail = sentence[verb_at:].partition(";")
    final, workloads = list(final), list(workloads)
    groups, resources = _groups(final, workloads), _resources(final, workloads)
    kept = [f for f in tail.split(";") if not _observed(f, groups, resources)]
    return ";".join([sentence[:verb_at] + head, *kept])
