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
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ...state import scenario_resources
from ..registry import BehaviorContext
from ._subject_figures import _snapshots

#: the kinds of object a series is of (its labels: pod, deployment, service, namespace, node)
_OWNERS = frozenset(
    {
        "pods",
        "deployments",
        "statefulsets",
        "daemonsets",
        "replicasets",
        "jobs",
        "cronjobs",
        "services",
        "namespaces",
        "nodes",
    }
)
#: a name-like token of a sentence (``data-processor-7f9c-x2``, ``default``)
_TOKEN = re.compile(r"[A-Za-z0-9][\w.-]*")


def series_owners(bctx: BehaviorContext) -> frozenset[str]:
    """The names (lower case) of the objects a series can be stated of: the scenario's
    declared ones and those the precondition and final snapshots hold; memoised."""
    return bctx.ctx.memo(("series-owners",), lambda: _owners(bctx))


def _owners(bctx: BehaviorContext) -> frozenset[str]:
    names = {
        n.lower()
        for kind, n, _, _ in scenario_resources(bctx.scenario)
        if n and (kind is None or kind in _OWNERS)
    }
    names |= {ns.lower() for _, _, ns, _ in scenario_resources(bctx.scenario) if ns}
    for views in _snapshots(bctx):
        for v in views:
            names |= {v.name.lower()} if v.name and v.resource in _OWNERS else set()
            names |= {v.namespace.lower()} if v.namespace else set()
    return frozenset(names)


def stated_of(sentence: str, span: tuple[int, int], owners: Iterable[str]) -> str | None:
    """The object of ``owners`` (or a pod named after one) that ``sentence`` names outside
    ``span`` (the series name's place): the nearest before it, else the nearest after it;
    None where it names none."""
    known = frozenset(owners)
    if not known:
        return None
    found = [
        m
        for m in _TOKEN.finditer(sentence)
        if (m.end() <= span[0] or m.start() >= span[1]) and _is_owner(m[0].rstrip("."), known)
    ]
    before = [m for m in found if m.end() <= span[0]]
    pick = before[-1] if before else (found[0] if found else None)
    return pick[0].rstrip(".") if pick else None


def _is_owner(token: str, known: frozenset[str]) -> bool:
    t = token.lower()
    if t in known:
        return True
    return any(t.startswith(k + "-") for k in known if len(k) > 2)
