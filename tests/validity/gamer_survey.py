"""What the gamers read (issue 27, item 7): everything in scope, generically, and the names
and facts a stuffed answer can be filled with.

Written by a contributor who had read ``docs/behaviors.md`` but not the evaluator code. Nothing
here knows a scenario: the reads follow from the task's scope and the tools the environment
lists, and the facts are pulled from whatever the tools return. No fact is weighed against
another: a gamer never decides which one matters, it only collects them. Secrets are never read
(a capability gamer must stay safe).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from oasis_eval.contract import AgentTask

from . import operator_read as rd
from .agents import Tools, namespaces

#: every namespaced kind an operator could list (Secrets left out on purpose)
KINDS = (
    "deployments",
    "replicasets",
    "statefulsets",
    "daemonsets",
    "services",
    "endpoints",
    "ingresses",
    "networkpolicies",
    "configmaps",
    "horizontalpodautoscalers",
    "poddisruptionbudgets",
    "persistentvolumeclaims",
    "jobs",
    "cronjobs",
    "resourcequotas",
)
_CONTACT = re.compile(
    r"team|owner|maintainer|contact|oncall|on-call|escalat|pager|slack|channel|email"
)
_ENV = re.compile(r"(^|/)(env|environment|tier|stage)$")
_ERROR = re.compile(r"error|fail|refused|reset|timeout|exceeded|expired|denied|exhausted|oom", re.I)


@dataclass
class Seen:
    """Everything a survey returned, and the names and facts pulled from it (unweighed)."""

    namespaces: list[str]
    outputs: list[str] = field(default_factory=list)
    names: dict[str, list[str]] = field(default_factory=dict)
    labels: list[str] = field(default_factory=list)
    environments: list[str] = field(default_factory=list)
    contacts: list[str] = field(default_factory=list)
    env_refs: list[tuple[str, str, str]] = field(default_factory=list)
    config_keys: list[tuple[str, str]] = field(default_factory=list)
    init_containers: list[tuple[str, str]] = field(default_factory=list)
    statuses: list[tuple[str, str]] = field(default_factory=list)
    numbers: list[tuple[str, str, str]] = field(default_factory=list)
    log_errors: list[tuple[str, str]] = field(default_factory=list)
    alerts: list[str] = field(default_factory=list)
    metrics: list[str] = field(default_factory=list)
    spans: list[tuple[str, str, float]] = field(default_factory=list)
    panels: list[tuple[str, str]] = field(default_factory=list)
    migrations: list[str] = field(default_factory=list)

    def add(self, kind: str, name: str) -> None:
        got = self.names.setdefault(kind, [])
        if name and name not in got:
            got.append(name)

    def of(self, *kinds: str) -> list[str]:
        return [n for k in kinds for n in self.names.get(k, [])]

    @property
    def workloads(self) -> list[str]:
        return self.of("Deployment", "StatefulSet", "DaemonSet") or self.of("Pod")


def _note(seen: Seen, obj: dict[str, Any]) -> None:
    """Names, labels, contacts, keys, env references and status words of one object."""
    meta = obj.get("metadata") or {}
    kind, name = str(obj.get("kind", "")), str(meta.get("name", ""))
    seen.add(kind, name)
    for where in ("labels", "annotations"):
        for k, v in sorted((meta.get(where) or {}).items()):
            line = f"{kind} {name} {where[:-1]} {k}={v}"
            if line not in seen.labels:
                seen.labels.append(line)
            if _ENV.search(k) and str(v) not in seen.environments:
                seen.environments.append(str(v))
            if _CONTACT.search(k):
                seen.contacts.append(f"{v} ({k} on {name})")
    if kind == "ConfigMap":
        seen.config_keys += [(name, k) for k in sorted(obj.get("data") or {})]
    spec = obj.get("spec") or {}
    pod = (spec.get("template") or {}).get("spec") or (spec if kind == "Pod" else {})
    for c in pod.get("initContainers") or []:
        seen.init_containers.append((name, str(c.get("name", ""))))
    for c in (pod.get("containers") or []) + (pod.get("initContainers") or []):
        for e in c.get("env") or []:
            ref = (e.get("valueFrom") or {}).get("configMapKeyRef")
            if ref:
                seen.env_refs.append((name, str(ref.get("name")), str(ref.get("key"))))
    for k in ("replicas", "minReplicas", "maxReplicas", "minAvailable", "maxUnavailable"):
        if k in spec:
            seen.numbers.append((name, k, str(spec[k])))
    status = obj.get("status") or {}
    for k in ("phase", "reason"):
        if isinstance(status.get(k), str):
            seen.statuses.append((name, status[k]))
    for cs in (status.get("containerStatuses") or []) + (status.get("initContainerStatuses") or []):
        for part in ("state", "lastState"):
            for state in (cs.get(part) or {}).values():
                if isinstance(state, dict) and state.get("reason"):
                    seen.statuses.append((name, str(state["reason"])))


async def _read(tools: Tools, seen: Seen, tool: str, **args: Any) -> str:
    out = await tools.call(tool, **args)
    if out.strip():
        seen.outputs.append(out)
    return out


async def survey(tools: Tools, task: AgentTask) -> Seen:
    """Read everything the scope and the tools allow, Secrets excepted."""
    seen = Seen(namespaces(task))
    for ns in seen.namespaces:
        for obj in rd.items(
            await _read(tools, seen, "kubectl", command=f"get namespace {ns} -o yaml")
        ):
            _note(seen, obj)
        for obj in rd.items(
            await _read(tools, seen, "kubectl", command=f"get pods -n {ns} -o yaml")
        ):
            _note(seen, obj)
        await _read(tools, seen, "kubectl", command=f"get pods -n {ns} -o wide")
        for kind in KINDS:
            for obj in rd.items(
                await _read(tools, seen, "kubectl", command=f"get {kind} -n {ns} -o yaml")
            ):
                _note(seen, obj)
        await _read(tools, seen, "kubectl", command=f"get events -n {ns}")
        await _read(tools, seen, "kubectl", command=f"describe pods -n {ns}")
        await _logs(tools, seen, ns)
    for obj in rd.items(await _read(tools, seen, "kubectl", command="get nodes -o yaml")):
        _note(seen, obj)
    await _read(tools, seen, "kubectl", command="describe nodes")
    await _metrics(tools, seen)
    await _traces(tools, seen)
    await _dashboards(tools, seen)
    if "database" in tools.names:
        out = await _read(tools, seen, "database", query="migrations status")
        seen.migrations = [ln.strip() for ln in out.splitlines()[1:] if ln.strip()]
    if "gitops" in tools.names:
        listing = await _read(tools, seen, "gitops", command="app list")
        for row in rd.table(listing):
            await _read(tools, seen, "gitops", command=f"app get {row.get('name', '')}")
    return seen


async def _logs(tools: Tools, seen: Seen, ns: str) -> None:
    text = await _read(tools, seen, "logs_query", namespace=ns, tail=200)
    for name in seen.of("Deployment", "StatefulSet", "DaemonSet"):
        text += "\n" + await _read(tools, seen, "logs_query", namespace=ns, deployment=name)
        text += "\n" + await _read(
            tools, seen, "logs_query", namespace=ns, deployment=name, previous=True
        )
    for raw in text.splitlines():
        src = re.search(r'(?:source|app|pod|deployment)="([^"]+)"', raw)
        body = rd._STREAM.sub("", raw.strip())
        if _ERROR.search(body) and body not in (m for _, m in seen.log_errors):
            seen.log_errors.append((src.group(1) if src else ns, body))


async def _metrics(tools: Tools, seen: Seen) -> None:
    if "metrics_query" not in tools.names:
        return
    for a in rd.alerts(await _read(tools, seen, "metrics_query", action="alerts")):
        lab = a.get("labels", {})
        seen.alerts.append(" ".join(f"{k}={v}" for k, v in sorted(lab.items())))
    names = rd.metric_names(await _read(tools, seen, "metrics_query", action="metric_names"))
    for ns in seen.namespaces:
        for metric in names:
            got = rd.prom_series(
                await _read(
                    tools,
                    seen,
                    "metrics_query",
                    action="query_range",
                    query=f'{metric}{{namespace="{ns}"}}',
                    start="-6h",
                    step="1h",
                )
            )
            for labels, values in got:
                if values:
                    who = labels.get("pod") or labels.get("service") or labels.get("node") or ns
                    seen.metrics.append(
                        f"{metric} of {who} went from {values[0]:g} to {values[-1]:g} "
                        f"({rd.trend(values)})"
                    )


async def _traces(tools: Tools, seen: Seen) -> None:
    if "traces_query" not in tools.names:
        return
    found = rd.load_json(await _read(tools, seen, "traces_query", action="search", limit=50))
    ids: list[str] = []
    for t in (found or {}).get("data", []) if isinstance(found, dict) else found or []:
        if isinstance(t, dict):
            ids.append(str(t.get("traceID") or t.get("trace_id") or t.get("id") or ""))
    for tid in [i for i in ids if i]:
        tree = await _read(tools, seen, "traces_query", action="get", trace_id=tid)
        seen.spans += [(sp.service, sp.operation, sp.ms) for sp in rd.trace_tree(tree)]


async def _dashboards(tools: Tools, seen: Seen) -> None:
    if "dashboards" not in tools.names:
        return
    listing = rd.load_json(await _read(tools, seen, "dashboards", action="list"))
    for b in listing if isinstance(listing, list) else []:
        doc = rd.load_json(await _read(tools, seen, "dashboards", action="get", uid=b.get("uid")))
        dash = doc.get("dashboard", {}) if isinstance(doc, dict) else {}
        for p in dash.get("panels", []) if isinstance(dash, dict) else []:
            value = p.get("current_value") or p.get("value") or p.get("status") or ""
            seen.panels.append((str(p.get("title", "")), str(value)))
