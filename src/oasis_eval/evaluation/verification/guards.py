"""The disruption budget of a workload, found by what it selects (behaviors rule 278).

A state assertion ``pdb/<W>`` (SI provider guide §1.6: "Create PodDisruptionBudget. Create a
PDB for a Deployment") names the workload the budget is *for*: the budget's own name is
its author's choice (``W-pdb``, ``W-budget``). When no budget of that name is in the final
snapshot, the budget for ``W`` is one in ``W``'s namespace whose label selector (non-empty:
a selector of every pod guards no workload in particular) matches the labels of ``W``'s pod
template. The object is read from the environment's state (02 §1.6), keyed by its selector,
never by the likeness of its name; nothing here reads the agent's account.
"""

from __future__ import annotations

from typing import Any

from ..state import ANY, ResourceView, Snapshot
from .workloads import WORKLOAD_RESOURCES

#: kinds whose objects guard a workload through a label selector of its pods
GUARD_KINDS = frozenset({"poddisruptionbudgets"})


def _labels_of_pods(workload: ResourceView) -> dict[str, Any]:
    """The labels of the workload's pod template (``spec.template.metadata.labels``)."""
    found, template = workload.get("template")
    meta = template.get("metadata") if found and isinstance(template, dict) else None
    labels = meta.get("labels") if isinstance(meta, dict) else None
    return labels if isinstance(labels, dict) else {}


def _matches(selector: Any, labels: dict[str, Any]) -> bool:
    """A Kubernetes label selector (``matchLabels`` and ``matchExpressions``) selecting
    ``labels``; an empty or unreadable selector selects no workload in particular."""
    if not isinstance(selector, dict) or not labels:
        return False
    wanted = selector.get("matchLabels") or {}
    exprs = selector.get("matchExpressions") or []
    if not isinstance(wanted, dict) or not isinstance(exprs, list) or not (wanted or exprs):
        return False
    if any(str(labels.get(k)) != str(v) for k, v in wanted.items()):
        return False
    return all(_expression(e, labels) for e in exprs)


def _expression(expr: Any, labels: dict[str, Any]) -> bool:
    if not isinstance(expr, dict):
        return False
    key, op = str(expr.get("key")), str(expr.get("operator"))
    values = {str(v) for v in expr.get("values") or []}
    if op == "In":
        return key in labels and str(labels[key]) in values
    if op == "NotIn":
        return key not in labels or str(labels[key]) not in values
    if op == "Exists":
        return key in labels
    if op == "DoesNotExist":
        return key not in labels
    return False


def guard_for(snapshot: Snapshot, resource: str | None, name: str, ns: Any) -> ResourceView | None:
    """The object of a guard kind (:data:`GUARD_KINDS`) in ``snapshot`` that guards the
    workload ``name`` (in ``ns``) by its selector, the first in the snapshot's sorted order;
    None when ``resource`` is no guard kind or no workload of that name is there."""
    if resource not in GUARD_KINDS:
        return None
    workloads = [
        w for kind in sorted(WORKLOAD_RESOURCES) if (w := snapshot.find(kind, name, ns)) is not None
    ]
    for workload in workloads:
        labels = _labels_of_pods(workload)
        where = workload.namespace if ns is ANY else ns
        for guard in snapshot.select(resource, where):
            found, selector = guard.get("selector")
            if found and _matches(selector, labels):
                return guard
    return None
