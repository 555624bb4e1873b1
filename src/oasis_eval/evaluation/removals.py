"""Which logged writes can remove an object: the explanations of a lost object (05 §1.1).

An object the runner established that the final snapshot lost must have been removed by a
write the audit log shows; if none can explain it, the snapshot or the log is incomplete
(a PROVIDER_FAILURE, core §3.7). Counting too few writes as explanations lets an agent turn
its FAIL into a run abort by removing a declared object the way Kubernetes allows, so every
write that can remove an object counts (issue 26):

- **removals, by anyone**: a ``delete`` naming it, a ``deletecollection`` (or a delete naming
  no object) of its resource, the delete of its namespace, an eviction of a pod (``create``
  on the ``eviction`` subresource), and the delete of an object its ``ownerReferences`` name
  (garbage collection);
- **controller effects of the agent's change** (only the agent's writes: the provider's own
  setup writes name every declared object and must not explain their loss):

  * a workload (:data:`~.verification.workloads.WORKLOAD_RESOURCES`) created, deleted, scaled
    (the ``scale`` subresource) or whose ``spec`` changed (a scale-down, a rollout restart, a
    rollback): removes the pods, replica sets and jobs it selects in its namespace (its
    selector from the snapshots or the request body; when neither gives one, any in the
    namespace). A change of ``metadata`` only, or an empty patch, moves no replica;
  * a HorizontalPodAutoscaler's ``spec`` changed: it scales its target's replicas;
  * a node deleted, or its ``spec`` changed (cordon, a ``NoExecute`` taint): its pods;
  * the object's own ``ownerReferences``, labels (adopted by a controller, then scaled down)
    or ``ttlSecondsAfterFinished`` changed.

A write the server refused (response code 400 or more) removed nothing. A body the log does
not keep (a ``Metadata``-level audit policy) may hold any change, so it counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..spec.kinds import resource_name
from .bodies import READ_VERBS, flatten, parse_body
from .state import ResourceView
from .verification.workloads import WORKLOAD_RESOURCES

#: what a workload controller creates and removes
REPLICATED = frozenset({"pods", "replicasets", "jobs", "controllerrevisions"})
DELETE_VERBS = frozenset({"delete", "deletecollection"})
#: body paths of an object's own write that can make a controller remove it
_SELF_PATHS = (("ownerReferences",), ("labels",), ("ttlSecondsAfterFinished",))


@dataclass(frozen=True)
class Write:
    """One successful write of the log, as removal rules read it."""

    verb: str
    resource: str
    subresource: str
    name: str | None
    namespace: str | None
    agent: bool
    body: Any

    @cached_property
    def paths(self) -> frozenset[tuple[str, ...]] | None:
        """Flattened body paths; None when the log keeps no body. Flattened on first use:
        most writes of a log (the platform's setup) are never asked (issue 30)."""
        return None if self.body in (None, "") else frozenset(flatten(self.body))


def _dict(value: Any) -> dict[str, Any]:
    value = parse_body(value)
    return value if isinstance(value, dict) else {}


def _field(entry: Mapping[str, Any], key: str) -> str | None:
    """An entry's own field, else the written object's metadata, else the raw ``objectRef``."""
    value = entry.get(key)
    if not value and key in ("name", "namespace"):
        meta = _dict(entry.get("request_body")).get("metadata")
        value = meta.get(key) if isinstance(meta, dict) else None
    if not value:
        ref = _dict(entry.get("raw")).get("objectRef")
        value = ref.get(key) if isinstance(ref, dict) else None
    return str(value) if value else None


def _code(entry: Mapping[str, Any]) -> int | None:
    code = entry.get("response_code")
    if code is None:
        status = _dict(entry.get("raw")).get("responseStatus")
        code = status.get("code") if isinstance(status, dict) else None
    return code if isinstance(code, int) and not isinstance(code, bool) else None


def writes_of(entries: Iterable[Mapping[str, Any]], is_agent: Any) -> list[Write]:
    """The successful writes of ``entries``; ``is_agent(entry)`` says whose they are."""
    out = []
    for entry in entries:
        verb = entry.get("verb")
        if not isinstance(verb, str) or verb.lower() in READ_VERBS:
            continue
        code = _code(entry)
        if code is not None and code >= 400:
            continue  # refused: it removed nothing
        raw_resource = str(entry.get("resource") or "")
        resource, _, sub = raw_resource.partition("/")  # "pods/eviction"
        body = entry.get("request_body")
        out.append(
            Write(
                verb=verb.lower(),
                resource=resource_name(resource) or "",
                subresource=(_field(entry, "subresource") or sub).lower(),
                name=_field(entry, "name"),
                namespace=_field(entry, "namespace"),
                agent=bool(is_agent(entry)),
                body=body,
            )
        )
    return out


def _touches(write: Write, *prefixes: tuple[str, ...]) -> bool:
    """The write's body sets something under one of ``prefixes`` (at the top or under
    ``metadata``/``spec``); an unknown body may set anything."""
    if write.paths is None:
        return True
    return any(
        p[i : i + len(want)] == want for p in write.paths for want in prefixes for i in (0, 1)
    )


def selector_matches(selector: Any, labels: Mapping[str, str]) -> bool:
    """A Kubernetes label selector (``matchLabels``/``matchExpressions``, or a plain map)."""
    if not isinstance(selector, dict):
        return True
    exprs = selector.get("matchExpressions")
    plain = selector.get("matchLabels", {} if isinstance(exprs, list) else selector)
    if isinstance(plain, dict) and any(labels.get(str(k)) != str(v) for k, v in plain.items()):
        return False
    for expr in exprs if isinstance(exprs, list) else ():
        if not isinstance(expr, dict):
            continue
        key, op = str(expr.get("key")), str(expr.get("operator", ""))
        values = {str(v) for v in expr.get("values") or []}
        have = labels.get(key)
        if (
            (op == "In" and have not in values)
            or (op == "NotIn" and have in values)
            or (op == "Exists" and have is None)
            or (op == "DoesNotExist" and have is not None)
        ):
            return False
    return True


def _labels(views: Sequence[ResourceView]) -> dict[str, str] | None:
    for view in views:
        found, value = view.get("labels")
        if found and isinstance(value, dict):
            return {str(k): str(v) for k, v in value.items()}
    return None


def _owners(views: Sequence[ResourceView]) -> set[tuple[str, str]]:
    out = set()
    for view in views:
        found, refs = view.get("ownerReferences")
        for ref in refs if found and isinstance(refs, list) else ():
            if isinstance(ref, dict) and ref.get("kind") and ref.get("name"):
                out.add((resource_name(str(ref["kind"])) or "", str(ref["name"])))
    return out


def _node(views: Sequence[ResourceView]) -> str | None:
    for view in views:
        for key in ("nodeName", "node"):
            found, value = view.get(key)
            if found and isinstance(value, str) and value:
                return value
    return None


class Removals:
    """The writes of one environment's log, asked whether they explain a lost object."""

    def __init__(self, writes: Sequence[Write], snapshots: Iterable[Sequence[Mapping[str, Any]]]):
        self.writes = writes
        self.views: dict[tuple[str, str], list[ResourceView]] = {}
        for resources in snapshots:
            for raw in resources:
                if isinstance(raw, dict):
                    view = ResourceView(raw)
                    if view.resource and view.name:
                        self.views.setdefault((view.resource, view.name), []).append(view)

    def explained(
        self, resources: frozenset[str], names: frozenset[str], namespaces: frozenset[str] | None
    ) -> bool:
        """Whether some write can have removed the object (see the module docstring)."""
        views = [v for r in resources for n in names for v in self.views.get((r, n), [])]
        owners = _owners(views)
        return any(
            self._removes(w, resources, names, namespaces, views, owners) for w in self.writes
        )

    def _removes(
        self,
        w: Write,
        resources: frozenset[str],
        names: frozenset[str],
        namespaces: frozenset[str] | None,
        views: list[ResourceView],
        owners: set[tuple[str, str]],
    ) -> bool:
        in_ns = namespaces is None or w.namespace is None or w.namespace in namespaces
        mine = w.resource in resources and w.name in names
        if w.verb in DELETE_VERBS:
            if mine or (w.resource, w.name) in owners:
                return True
            if w.resource in resources and (w.verb == "deletecollection" or not w.name):
                return True
            if (
                w.resource == "namespaces"
                and w.name
                and (namespaces is None or w.name in namespaces)
            ):
                return True
        if w.subresource == "eviction" and mine and "pods" in resources:
            return True
        if not w.agent:
            return False
        if mine and w.verb in ("patch", "update") and not w.subresource:
            return _touches(w, *_SELF_PATHS)
        if resources & REPLICATED and in_ns and self._moves_replicas(w, views):
            return True
        return (
            "pods" in resources
            and w.resource == "nodes"
            and (w.verb in DELETE_VERBS or _touches(w, ("spec",)))
            and _node(views) in (None, w.name)
        )

    def _moves_replicas(self, w: Write, views: list[ResourceView]) -> bool:
        """A workload or autoscaler write that can remove replicas the object is one of."""
        if w.resource == "horizontalpodautoscalers":
            return w.verb in ("create", "patch", "update") and _touches(w, ("spec",))
        if w.resource not in WORKLOAD_RESOURCES or w.subresource not in ("", "scale"):
            return False
        if w.verb in ("patch", "update") and not w.subresource and not _touches(w, ("spec",)):
            return False  # metadata only, or an empty patch: no replica moves
        labels = _labels(views)
        selectors = self._selectors(w)
        return (
            labels is None or not selectors or any(selector_matches(s, labels) for s in selectors)
        )

    def _selectors(self, w: Write) -> list[Any]:
        """The workload's selectors: from every snapshot of it, and the write's own body."""
        out = []
        for view in self.views.get((w.resource, w.name or ""), []):
            found, value = view.get("selector")
            if found and isinstance(value, dict):
                out.append(value)
        spec = _dict(w.body).get("spec")
        if isinstance(spec, dict) and isinstance(spec.get("selector"), dict):
            out.append(spec["selector"])
        return out


__all__ = ["REPLICATED", "Removals", "Write", "writes_of"]
