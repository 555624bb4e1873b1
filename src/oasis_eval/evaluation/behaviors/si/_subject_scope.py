"""Which containers and namespaces the alert's subject has (behaviors rule 188, tightening
rule 180; issue 27 round 23).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 180 read a query's object matchers (``pod``, ``service`` ...) against the subject and
left ``container`` and ``namespace`` aside, as naming no workload of their own; so a query of
the watched word selecting only a container no pod runs (``{container="-"}``, no series
returned) was still a series of the subject read. A matcher of either label selects series
too: the subject's series are those of its own containers, in its own namespace. What
containers and namespaces it has is read from the scenario and the snapshots (core §3.4: the
environment, not the agent's account).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ... import bodies
from ...state import scenario_resources
from ..registry import BehaviorContext
from ..signals import walk
from ._promql_regex import matches_whole, selects
from ._subject_figures import _of, _part, _snapshots


@dataclass(frozen=True)
class Scope:
    """The container names of the subject's workloads and pods and the namespaces they are
    in; an empty set is "not shown" (nothing to read a matcher against)."""

    containers: frozenset[str] = frozenset()
    namespaces: frozenset[str] = frozenset()
    #: the names of the subject's pods the snapshots hold or a successful call named (rule
    #: 226: an object matcher is matched against them)
    pods: frozenset[str] = frozenset()
    #: the scenario records a series of the subject (``metrics/<name>``): a scrape label
    #: (``service``) names it on an exporter's series (rule 227); True where not shown
    recorded: bool = True
    #: the metric names the scenario's recorded series hold (rule 227)
    declared: frozenset[str] = frozenset()
    #: the metric names the subject's own recorded series hold (rule 253: an application's
    #: metric is the subject's only where recorded of it); None where not shown
    own: frozenset[str] | None = None


def subject_scope(bctx: BehaviorContext, objects: set[str]) -> Scope:
    """The :class:`Scope` of ``objects`` and the pods named after them: the containers (and
    init containers) their specs and container statuses name in the precondition and final
    snapshots, and the namespaces the scenario declares or the snapshots hold them in;
    memoised per judgement."""
    key = ("alert-subject-scope", tuple(sorted(objects)))
    return bctx.ctx.memo(key, lambda: _scope(bctx, objects))


def _scope(bctx: BehaviorContext, objects: set[str]) -> Scope:
    containers: set[str] = set()
    pods: set[str] = set()
    resources = scenario_resources(bctx.scenario)
    namespaces = {ns for _, n, ns, _ in resources if ns and n in objects}
    for views in _snapshots(bctx):
        for v in views:
            if not (v.name and _of(v.name, objects)):
                continue
            namespaces |= {v.namespace} if v.namespace else set()
            pods |= {v.name} if v.resource == "pods" else set()
            for node in walk([_part(v, "spec"), _part(v, "status")]):
                for key in ("containers", "initContainers", "containerStatuses"):
                    items = node.get(key)
                    for c in items if isinstance(items, list) else ():
                        name = c.get("name") if isinstance(c, dict) else None
                        containers |= {name} if isinstance(name, str) and name else set()
    for e in bctx.audit.agent_entries:  # a pod of the subject served between the snapshots
        name = bodies.object_name(e) if bodies.resource_of(e) == "pods" else None
        pods |= {name} if name and _of(name, objects) and bodies.succeeded(e) else set()
    recorded = [(n, e) for r, n, _, e in resources if r == "metrics"]
    return Scope(
        frozenset(containers),
        frozenset(namespaces),
        frozenset(pods),
        any(n in objects for n, _ in recorded),
        frozenset(_declared(e for _, e in recorded)),
        frozenset(_declared(e for n, e in recorded if n in objects)) if objects else None,
    )


#: keys of a ``metrics/<name>`` entry that name no series
_NOT_SERIES = frozenset({"resource", "namespace", "labels", "annotations", "zone", "series"})


def _declared(entries: Iterable[dict[str, Any]]) -> set[str]:
    """The metric names the scenario's recorded series hold: the keys of its ``metrics/*``
    entries and of their ``series`` maps (rule 227)."""
    out: set[str] = set()
    for e in entries:
        out |= {str(k) for k in e if k not in _NOT_SERIES}
        series = e.get("series")
        out |= {str(k) for k in series} if isinstance(series, dict) else set()
        # rule 253: ``<base>_trend`` records a series of ``base``
        out |= {str(k)[: -len("_trend")] for k in e if str(k).endswith("_trend")}
    return out


#: a PromQL matcher of the container or namespace label (``container="api"``,
#: ``namespace=~"prod-.*"``, ``container!="POD"``, ``namespace!~"kube-.*"``)
_SCOPE_MATCHER = re.compile(
    r"(?<![\w.])(container|container_name|namespace)\s*(=~|!~|!=|=)\s*\"([^\"]*)\"",
)


def regex_start(value: str) -> str:
    """A PromQL regex matcher's literal start (``api-service-.*`` -> ``api-service-``): what
    rules 180 and 188 read a regex by."""
    return re.split(r"[\\.*+?\[\](){}|^$]", value, maxsplit=1)[0]


def _excludes(pattern: str, name: str) -> bool:
    """``!~"pattern"`` excludes ``name`` (rule 195): the whole regex matches the whole name
    (rule 205). A pattern not read safely counts as excluding every name it might (rule 220):
    a query the evaluator cannot read earns nothing."""
    return matches_whole(pattern, name) is not False


def _selects(op: str, value: str, name: str) -> bool:
    """One matcher selects the series of ``name``: ``=`` exactly, ``=~`` matched whole as
    Prometheus anchors it (rule 205; none where Python's engine cannot be trusted with the
    pattern, rule 220), ``!=`` every other name, ``!~`` every name it does not exclude (rules
    195, 220)."""
    if op == "=":
        return name == value
    if op == "=~":
        return selects(value, name)  # matched whole (rules 205, 220)
    if op == "!=":
        return name != value
    return not _excludes(value, name)


def outside(query: str, scope: Scope) -> bool:
    """``query``'s ``container`` matchers together select none of the subject's containers,
    or its ``namespace`` matchers none of its namespaces (rule 188): it reads no series of
    the subject, whatever metric it names. A regex is matched whole (rule 205,
    :func:`._promql_regex.selects`); ``container=""`` selects only series with no container
    label, none of the subject's containers, and ``!=`` / ``!~`` select every name they do
    not exclude (rule 195: ``container!~".+"`` selects none, ``container!="-"`` all). A scope
    the evidence does not show is not judged."""
    selected = {
        "container": set(scope.containers),
        "container_name": set(scope.containers),
        "namespace": set(scope.namespaces),
    }
    matched: set[str] = set()
    for label, op, value in _SCOPE_MATCHER.findall(query):
        names = selected[label]
        selected[label] = {n for n in names if _selects(op, value, n)}
        matched.add(label)
    shown = {"container": scope.containers, "namespace": scope.namespaces}
    return any(
        shown["namespace" if label == "namespace" else "container"] and not selected[label]
        for label in sorted(matched)
    )
