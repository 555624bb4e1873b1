"""The object a series is stated of, wherever the sentence states it (behaviors rule 190,
tightening rule 176; issue 27 round 23).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 176 reads a series as its name and the object the sentence states it of, but took the
object only right after the name (``X of W``, ``X{pod="w"}``): "in data-processor,
container_memory_working_set_bytes went from ..." was the name alone, so ten trend lines of
ten series held three names and no catalogue. A sentence states its series of an object
wherever it names it ("in W, X ...", "W's X ...", "X ... on W"): the objects a series can be
of are the environment's (the scenario's and the snapshots' pods, workloads, services,
namespaces and nodes, and the pods named after a workload), so an invented name states it of
none.

Rule 206 (round 25): rule 190 took the nearest object before the name, so "in S, X went from
..., read on POD" said of ten series read on ten pods was ten times ``X of S``. A sentence
naming several objects states its series of the one that identifies it most finely (a
series' labels name its pod, its workload or service, its namespace and node; the pod is the
series), the others being where it lives.

Rule 221 (round 26): among several objects of that finest rank rule 206 took the nearest
before the name, so "in POD_A, X went from ..., read on POD_B" was ten times ``X of POD_A``.
A sentence naming one object of that rank before the name and another after it reads both
ways (rule 190's "before" and "after" disagree) and does not say whose series it is: it is
the name alone. Objects all on one side keep rule 190's nearest.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from ...state import scenario_resources
from ..registry import BehaviorContext
from ._subject_figures import _snapshots

#: the kinds of object a series is of (its labels: pod, deployment, service, namespace,
#: node), each by how finely it identifies the series (rule 206): a pod, then a workload or
#: service, then a namespace or node
_OWNERS = {
    "pods": 0,
    "deployments": 1,
    "statefulsets": 1,
    "daemonsets": 1,
    "replicasets": 1,
    "jobs": 1,
    "cronjobs": 1,
    "services": 1,
    "namespaces": 2,
    "nodes": 2,
}
#: the rank of a kind not said (a declared object of no kind) and of a namespace field
_UNSAID, _NAMESPACE = 1, 2
#: a name-like token of a sentence (``data-processor-7f9c-x2``, ``default``)
_TOKEN = re.compile(r"[A-Za-z0-9][\w.-]*")


def series_owners(bctx: BehaviorContext) -> Mapping[str, int]:
    """The names (lower case) of the objects a series can be stated of, each with its rank
    (:data:`_OWNERS`): the scenario's declared ones and those the precondition and final
    snapshots hold; memoised."""
    return bctx.ctx.memo(("series-owners",), lambda: _owners(bctx))


def _owners(bctx: BehaviorContext) -> dict[str, int]:
    ranks: dict[str, int] = {}

    def add(name: str, rank: int) -> None:
        ranks[name.lower()] = min(rank, ranks.get(name.lower(), rank))

    for kind, n, ns, _ in scenario_resources(bctx.scenario):
        if n and (kind is None or kind in _OWNERS):
            add(n, _OWNERS.get(kind or "", _UNSAID))
        if ns:
            add(ns, _NAMESPACE)
    for views in _snapshots(bctx):
        for v in views:
            if v.name and v.resource in _OWNERS:
                add(v.name, _OWNERS[v.resource])
            if v.namespace:
                add(v.namespace, _NAMESPACE)
    return ranks


def stated_of(
    sentence: str, span: tuple[int, int], owners: Mapping[str, int] | Iterable[str]
) -> str | None:
    """The object of ``owners`` (or a pod named after one) that ``sentence`` names outside
    ``span`` (the series name's place), None where it names none. Where it names several,
    the series is of the one that identifies it most finely (rule 206: "in W, X went from
    ..., read on POD" is POD's series, W its place; a pod, then a workload or service, then
    a namespace or node); among those, the nearest before the name, else the nearest after
    it (rule 190). One before and another after state it of neither (rule 221: "in POD_A, X
    ..., read on POD_B" says no more whose series it is than the name alone)."""
    ranks = owners if isinstance(owners, Mapping) else dict.fromkeys(owners, _UNSAID)
    if not ranks:
        return None
    found = [
        (rank, m)
        for m in _TOKEN.finditer(sentence)
        if (m.end() <= span[0] or m.start() >= span[1])
        and (rank := _rank(m[0].rstrip("."), ranks)) is not None
    ]
    if not found:
        return None
    finest = min(rank for rank, _ in found)
    kept = [m for rank, m in found if rank == finest]
    before = [m for m in kept if m.end() <= span[0]]
    after = {m[0].rstrip(".").lower() for m in kept if m.start() >= span[1]}
    if before and after - {before[-1][0].rstrip(".").lower()}:
        return None  # rule 221: the nearest before and after disagree
    return (before[-1] if before else kept[0])[0].rstrip(".")


def _rank(token: str, ranks: Mapping[str, int]) -> int | None:
    """The rank of ``token`` as an owner: its own, or a pod's where it is named after one
    (``W-...``); None where it is none."""
    t = token.lower()
    if t in ranks:
        return ranks[t]
    return _OWNERS["pods"] if any(t.startswith(k + "-") for k in ranks if len(k) > 2) else None
