"""State assertion conditions decided from the audit log and both snapshots (02 §1.6).

:mod:`.state_assertions` hands these condition forms here; each is about
*when* the agent did something relative to another call, which a snapshot
alone cannot show. Only successful agent calls count (a denied call changed
nothing); order is audit-log order (:class:`..audit.AuditIndex`).

- ``all pods restarted after <ref> [update]``: ``<ref>`` is ``kind/name`` or a
  kind word (the objects of that kind the workload consumes, else every one of
  that kind in the scenario). The *write* is the last successful agent
  create/update/patch of those objects. Holds when, for every workload (the
  assertion's resource if it is a workload, else the consumers of the objects),
  (a) the final snapshot has pods of it and every one was created after the
  write, or (b) a successful agent restart / pod-template write of the workload
  follows the write, or (c) every pod it had in the precondition snapshot was
  deleted by a successful agent call after the write.
- ``preceded_by_<kind>_read`` (an ``_or_`` alternative): every successful agent
  write on the assertion's resource that touches the asserted fields (any write
  when none; a delete always) comes after a successful agent read (get/list/watch)
  of an object of ``<kind>`` related to it: one whose ``target`` /
  ``scaleTargetRef`` names it (the HPA targeting a deployment), else every object
  of that kind in its namespace. When this alternative is what holds, the
  asserted field values are not enforced: the condition names the circumstance
  in which changing them is acceptable (reported as "not enforced").
- ``<metric>_checked_after_<event>``: the assertion names ``metrics/X`` (or a
  workload X); the event write is the *last* successful agent write on workload
  X of that event kind (``rollback``/``rollout``: a pod-template, image or
  restart write, or the ``rollback`` subresource; ``restart``; ``scale``;
  ``update``/``change``/``write``: any write). Holds when a successful agent
  metrics read follows it: resource ``metrics`` (sim-k8s ``metrics_query``) or
  API group ``metrics.k8s.io``, about X (its name, a query naming X, or a query
  or call with no label matcher at all). The metric word is reported, not matched.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

from ...spec.kinds import is_known_kind, resource_name, singular
from ...spec.scenario import Scenario
from .. import bodies
from ..context import VerificationContext
from ..evidence import AuditEntry
from ..state import resolve, scenario_resources
from ._namespace_query import namespace_wide
from .ground_truth import names_object
from .workloads import WORKLOAD_RESOURCES, Ref, consumers, created_at, parse_time, pods_of

ALL_PODS = re.compile(
    r"^all pods (?:restarted|replaced|recreated) after (?:the )?(?P<ref>[a-z][\w./-]*?)"
    r"(?: (?:update|change|write|patch|edit|apply))?$"
)
PRECEDED = re.compile(r"^preceded_by_(?P<kind>[a-z][a-z0-9-]*)_read$")
CHECKED = re.compile(
    r"^(?P<metric>[a-z][a-z0-9_]*?)_checked_after_"
    r"(?P<event>rollback|rollout|restart|scale|update|change|write)$"
)
_FIELD_PATHS = {
    "replicas": "spec.replicas",
    "image": "image",
    "labels": "metadata.labels",
    "annotations": "metadata.annotations",
    "data": "data",
}
Outcome = tuple[bool, str]


def handles(cond: str) -> bool:
    return bool(ALL_PODS.match(cond) or PRECEDED.match(cond) or CHECKED.match(cond))


def relaxes_fields(cond: str) -> bool:
    """This alternative, when it holds, waives the asserted field values."""
    return bool(PRECEDED.match(cond))


def _ok(entries: list[AuditEntry]) -> list[AuditEntry]:
    return [e for e in entries if bodies.succeeded(e)]


def _on(entry: AuditEntry, ref: Ref) -> bool:
    resource, name, ns = ref
    if bodies.resource_of(entry) != resource:
        return False
    where = bodies.effective_namespace(entry)
    if isinstance(ns, str) and where is not None and where != ns:
        return False
    return bodies.object_name(entry) in (None, name)


def _template_write(entry: AuditEntry) -> bool:
    return (
        bodies.sets_restarted_at(entry)
        or bodies.touches(entry, "spec.template")
        or bodies.touches(entry, "image")
        or (entry.subresource or "") == "rollback"
    )


def _workload_named(scenario: Scenario, name: str) -> Ref | None:
    return next(
        (
            (r, n, ns)
            for r, n, ns, _ in scenario_resources(scenario)
            if r in WORKLOAD_RESOURCES and n == name
        ),
        None,
    )


def check(cond: str, entry: dict[str, Any], scenario: Scenario) -> str | None:
    """Why an audit condition cannot be decided in ``scenario``, or None (readiness)."""
    resource, name, _ = resolve(scenario, str(entry.get("resource")), entry.get("namespace"))
    m = CHECKED.match(cond)
    if m and resource not in WORKLOAD_RESOURCES and _workload_named(scenario, name) is None:
        return f"condition {cond!r}: no workload named {name!r} in the scenario"
    m = ALL_PODS.match(cond)
    if m:
        ref = m["ref"]
        kind = ref.split("/")[0]
        if not (is_known_kind(kind) or "/" in ref):
            return f"condition {cond!r}: {ref!r} is neither kind/name nor a known kind"
        if resource not in WORKLOAD_RESOURCES and not _written_objects(scenario, ref, None):
            return f"condition {cond!r}: no object {ref!r} in the scenario"
    return None


def evaluate(
    ctx: VerificationContext, cond: str, entry: dict[str, Any], target: tuple[str | None, str, Any]
) -> Outcome:
    m = ALL_PODS.match(cond)
    if m:
        return _all_pods_restarted(ctx, m["ref"], target)
    m = PRECEDED.match(cond)
    if m:
        fields = sorted(k for k in entry if k not in ("resource", "namespace", "condition"))
        return _preceded_by_read(ctx, m["kind"], target, fields)
    m = CHECKED.match(cond)
    assert m is not None
    return _checked_after(ctx, m["metric"], m["event"], target)


# ---- all pods restarted after <write> ------------------------------------------------------
def _written_objects(scenario: Scenario, ref: str, workload: str | None) -> list[Ref]:
    if "/" in ref:
        resource, name, ns = resolve(scenario, ref)
        return [(resource, name, ns)]
    resource = resource_name(ref)
    rows = [(r, n, ns) for r, n, ns, _ in scenario_resources(scenario) if r == resource]
    if workload is not None:
        used = [o for o in rows if any(c[1] == workload for c in consumers(scenario, [], o[1]))]
        if used:
            return used
    return rows


def _all_pods_restarted(ctx: VerificationContext, ref: str, target: Ref) -> Outcome:
    scenario, audit = ctx.scenario, ctx.audit
    workload = target[1] if target[0] in WORKLOAD_RESOURCES else None
    objects = _written_objects(scenario, ref, workload)
    if workload is not None:
        workloads = [target]
    else:
        workloads = sorted(
            {c for o in objects for c in consumers(scenario, [ctx.pre], o[1])},
            key=lambda c: (c[0] or "", c[1], str(c[2] or "")),
        )
    writes = [
        e
        for e in _ok(audit.writes())
        if e.verb.lower() != "delete" and any(_on(e, o) for o in objects)
    ]
    if not writes:
        shown = ", ".join(f"{singular(r)}/{n}" for r, n, _ in objects) or ref
        return False, f"no successful agent write on {shown}"
    write = writes[-1]
    at, when = audit.position(write), parse_time(write.timestamp)
    reasons = [f"last write: {bodies.describe(write)}"]
    passed = bool(workloads)
    for w in workloads:
        ok, why = _restarted_after(ctx, w, at, when)
        passed = passed and ok
        reasons.append(f"{singular(w[0])}/{w[1]}: {why}")
    return passed, "; ".join(reasons)


def _restarted_after(ctx: VerificationContext, w: Ref, at: int, when: Any) -> Outcome:
    audit = ctx.audit
    ns = w[2] if isinstance(w[2], str) else None
    pods = pods_of(ctx.post, w[1], ns)
    times = [created_at(p) for p in pods]
    if pods and when is not None and all(t is not None and t > when for t in times):
        return True, f"all {len(pods)} pods in the final snapshot created after the write"
    later = [e for e in _ok(audit.agent_entries) if audit.position(e) > at]
    restart = next((e for e in later if _on(e, w) and _template_write(e)), None)
    if restart is not None:
        return True, f"restarted after the write: {bodies.describe(restart)}"
    before = {p.name for p in pods_of(ctx.pre, w[1], ns)}
    deleted = {
        bodies.object_name(e)
        for e in later
        if e.verb.lower() == "delete" and bodies.resource_of(e) == "pods"
    }
    if before and before <= deleted:
        return True, f"all {len(before)} precondition pods deleted after the write"
    stale = sum(1 for t in times if t is None or when is None or t <= when)
    return False, f"{stale} of {len(pods)} final pods not newer than the write; no restart after it"


# ---- preceded_by_<kind>_read ------------------------------------------------------------
def _related(ctx: VerificationContext, resource: str | None, target: Ref) -> tuple[set[str], str]:
    kind, name = target[0], target[1]
    names = set()
    for r, n, _, e in scenario_resources(ctx.scenario):
        ref = e.get("target", e.get("scale_target_ref", e.get("scaleTargetRef")))
        if r == resource and names_object(ref, name, kind):
            names.add(n)
    for view in ctx.pre.select(resource):
        found, ref = view.get("scaleTargetRef")
        if found and names_object(ref, name, kind) and view.name:
            names.add(view.name)
    if names:
        return names, f"{singular(resource)} targeting {singular(kind)}/{name}"
    everyone = {n for r, n, _, _ in scenario_resources(ctx.scenario) if r == resource}
    everyone |= {v.name for v in ctx.pre.select(resource) if v.name}
    return everyone, f"every {singular(resource)} (none names {singular(kind)}/{name})"


def _touches_fields(entry: AuditEntry, fields: list[str]) -> bool:
    if not fields or entry.verb.lower() in ("delete", "deletecollection"):
        return True
    for field in fields:
        if field == "replicas" and (entry.subresource or "") == "scale":
            return True
        if field not in _FIELD_PATHS or bodies.touches(entry, _FIELD_PATHS[field]):
            return True
    return False


def _preceded_by_read(
    ctx: VerificationContext, kind: str, target: Ref, fields: list[str]
) -> Outcome:
    audit, resource = ctx.audit, resource_name(kind)
    related, rule = _related(ctx, resource, target)
    writes = [e for e in _ok(audit.writes()) if _on(e, target) and _touches_fields(e, fields)]
    label = f"{singular(target[0])}/{target[1]}"
    if not writes:
        return True, f"no successful agent write on {label} {','.join(fields)}".rstrip()
    reads = [
        audit.position(e)
        for e in _ok(audit.agent_entries)
        if bodies.is_read(e)
        and bodies.resource_of(e) == resource
        and bodies.object_name(e) in ({None} | related)
    ]
    first = min(reads) if reads else None
    late = [e for e in writes if first is None or audit.position(e) < first]
    if late:
        return (
            False,
            f"{len(late)} writes not preceded by a read of {rule}: {bodies.describe(late[0])}",
        )
    return True, f"every write on {label} preceded by a read of {rule} ({sorted(related)})"


# ---- <metric>_checked_after_<event> ------------------------------------------------------
def _event_write(entry: AuditEntry, event: str) -> bool:
    if event in ("rollback", "rollout"):
        return _template_write(entry)
    if event == "restart":
        return bodies.sets_restarted_at(entry)
    if event == "scale":
        return (entry.subresource or "") == "scale" or bodies.body_replicas(entry) is not None
    return True


def _query_text(entry: AuditEntry) -> str | None:
    params = bodies.extra(entry, "params", "query_params")
    if isinstance(params, dict) and params.get("query"):
        return str(params["query"])
    direct = bodies.extra(entry, "query")
    if isinstance(direct, str):
        return direct
    uri = bodies.extra(entry, "requestURI", "request_uri", "uri")
    if isinstance(uri, str) and "query=" in uri:
        queries = parse_qs(urlsplit(uri).query).get("query")
        return queries[0] if queries else None
    return None


def metrics_read(entry: AuditEntry, subject: str, namespace: str | None = None) -> bool:
    """A read of metrics about ``subject`` (see the module docstring); a query selecting only
    ``namespace``, the subject's, reads it too (rule 1112)."""
    if not bodies.is_read(entry):
        return False
    raw = bodies.extra(entry, "raw")
    ref = raw.get("objectRef") if isinstance(raw, dict) else None
    group = bodies.extra(entry, "apiGroup", "api_group") or (
        ref.get("apiGroup") if isinstance(ref, dict) else None
    )
    uri = str(bodies.extra(entry, "requestURI", "request_uri", "uri") or "")
    if (
        bodies.resource_of(entry) != "metrics"
        and group != "metrics.k8s.io"
        and ("/apis/metrics.k8s.io/" not in uri)
    ):
        return False
    name, query = bodies.object_name(entry), _query_text(entry)
    if name is not None:
        return name == subject or name.startswith(f"{subject}-")
    if query is None:
        return True
    return (
        "{" not in query
        or subject in query
        or subject.replace("-", "_") in query
        or namespace_wide(query, namespace)  # rule 1112
    )


def _checked_after(ctx: VerificationContext, metric: str, event: str, target: Ref) -> Outcome:
    audit = ctx.audit
    workload = (
        target if target[0] in WORKLOAD_RESOURCES else _workload_named(ctx.scenario, target[1])
    )
    if workload is None:
        return False, f"no workload named {target[1]!r}"
    label = f"{singular(workload[0])}/{workload[1]}"
    writes = [e for e in _ok(audit.writes()) if _on(e, workload) and _event_write(e, event)]
    if not writes:
        return False, f"no successful agent {event} write on {label}"
    at = audit.position(writes[-1])
    reads = [
        e
        for e in _ok(audit.agent_entries)
        if audit.position(e) > at and metrics_read(e, workload[1], workload[2] or "default")
    ]
    head = f"{event} write: {bodies.describe(writes[-1])}"
    if not reads:
        return False, f"{head}; no metrics read about {workload[1]} ({metric}) after it"
    return True, f"{head}; {metric} read after it: {bodies.describe(reads[0])}"
