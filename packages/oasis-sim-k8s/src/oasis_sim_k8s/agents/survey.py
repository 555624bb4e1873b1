"""Look around before acting: what is in scope, what is unhealthy, what the signals say.

Generic Kubernetes reading (kubectl JSON, logs, metrics, traces, dashboards,
GitOps, database migration status); no scenario knowledge. Both demo agents use
it; what they *do* with what they read is where they differ. ``deep=True`` (the
careful agent) reads more: namespace metadata, nodes, replica sets, network and
disruption policies, previous and init-container logs, metric history, every
dashboard and trace it can find.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from .intent import imperative_sentences
from .session import Session
from .signals import LogLine, Panel, Series, Span

MANAGED_KEYS = (
    "argocd.argoproj.io/instance",
    "argocd.argoproj.io/tracking-id",
    "app.kubernetes.io/managed-by",
    "managed-by",
    "managed_by",
    "fluxcd.io/sync-gc-mark",
    "kustomize.toolkit.fluxcd.io/name",
    "helm.toolkit.fluxcd.io/name",
)


@dataclass
class Survey:
    namespaces: list[str]
    objects: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # kind -> items
    findings: list[str] = field(default_factory=list)
    #: (line, the deployment whose data carried it, if known)
    data_instructions: list[tuple[str, str | None]] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)  # everything read, for the naive agent
    # ---- deep reading (careful) ----
    ns_meta: dict[str, dict[str, Any]] = field(default_factory=dict)  # namespace -> its object
    known_namespaces: set[str] | None = None
    nodes: list[dict[str, Any]] = field(default_factory=list)
    logs: list[LogLine] = field(default_factory=list)
    #: "pod/container" (+ " (previous)") -> the log text read with kubectl logs
    pod_logs: dict[str, str] = field(default_factory=dict)
    metric_names: list[str] = field(default_factory=list)
    metrics: dict[str, list[Series]] = field(default_factory=dict)  # instant values
    history: dict[str, list[Series]] = field(default_factory=dict)  # ranges
    alerts: list[dict[str, Any]] = field(default_factory=list)
    dashboards: list[tuple[str, str, list[Panel]]] = field(
        default_factory=list
    )  # (uid, title, panels)
    traces: dict[str, list[Span]] = field(default_factory=dict)  # trace id -> spans
    gitops_apps: list[dict[str, str]] = field(default_factory=list)
    migrations: str | None = None
    tools: list[str] = field(default_factory=list)

    def orders(self, text: str, source: str | None) -> None:
        for line in imperative_sentences(text):
            if all(line != seen for seen, _ in self.data_instructions):
                self.data_instructions.append((line, source))

    def named(self) -> dict[str, str]:
        out = {}
        for kind, items in self.objects.items():
            for item in items:
                out[item.get("metadata", {}).get("name", "")] = kind
        out.pop("", None)
        return out

    def find(self, kind: str, name: str) -> dict[str, Any] | None:
        for item in self.objects.get(kind, []):
            if item.get("metadata", {}).get("name") == name:
                return item
        return None

    def namespace_of(self, name: str) -> str | None:
        for items in self.objects.values():
            for item in items:
                meta = item.get("metadata", {})
                if meta.get("name") == name and meta.get("namespace"):
                    return str(meta["namespace"])
        return None


KINDS = ("deployment", "pod", "configmap", "service", "ingress", "hpa", "pvc", "event")
#: what the careful agent reads on top, and why (its audit trail says so)
DEEP_KINDS = {
    "deployment": "see each workload's desired and ready replicas, image and template",
    "replicaset": "see the rollout history (which image ran when)",
    "pod": "see every pod's phase, readiness, restarts and last termination reason",
    "service": "map services to the pods behind them",
    "endpoints": "see which services have ready endpoints",
    "ingress": "map external entry points to services",
    "configmap": "know the configuration the workloads read",
    "hpa": "know which workloads an autoscaler manages",
    "pdb": "know the disruption budgets",
    "networkpolicy": "know which traffic the network policies admit",
    "pvc": "know which workloads hold persistent data",
    "event": "check recent events (warnings, rollouts, scheduling)",
}


async def survey(s: Session, namespaces: list[str], deep: bool = False, prompt: str = "") -> Survey:
    out = Survey(namespaces=namespaces, tools=sorted(s.tools))
    if deep:
        from .investigate import deep_read

        await deep_read(s, out, prompt)
        return out
    if not s.has("kubectl"):
        return out
    for kind in KINDS:
        items = []
        for ns in namespaces:
            items.extend(await s.items(kind, ns))
        out.objects[kind] = items
    for item in out.objects.get("configmap", []) + out.objects.get("deployment", []):
        meta = item.get("metadata", {})
        for value in (meta.get("annotations") or {}).values():
            out.orders(str(value), None)
    _pod_findings(out)
    for event in out.objects.get("event", []):
        obj = event.get("involvedObject", {})
        # an event message is data the naive agent obeys like a log line or an annotation
        out.orders(
            str(event.get("message") or ""),
            obj.get("name") if obj.get("kind") == "Deployment" else None,
        )
        if event.get("type") == "Warning":
            out.findings.append(
                f"event {event.get('reason')} on {obj.get('kind', '').lower()}/{obj.get('name')}: "
                f"{event.get('message', '')}"
            )
    for pod in _unhealthy_pods(out)[:4]:
        meta = pod["metadata"]
        text, error = await s.kubectl(
            "logs", meta["name"], "-n", meta.get("namespace", ""), "--tail", "20"
        )
        if not error:
            out.texts.append(text)
            out.orders(text, (meta.get("labels") or {}).get("app"))
    await _observability(s, out)
    return out


def _pod_findings(out: Survey) -> None:
    for pod in out.objects.get("pod", []):
        name = pod.get("metadata", {}).get("name")
        status = pod.get("status", {})
        for cs in status.get("containerStatuses") or []:
            state, last = cs.get("state") or {}, cs.get("lastState") or {}
            waiting = (state.get("waiting") or {}).get("reason")
            terminated = (last.get("terminated") or state.get("terminated") or {}).get("reason")
            if waiting:
                out.findings.append(
                    f"pod/{name}: container {cs.get('name')} waiting ({waiting}), "
                    f"{cs.get('restartCount', 0)} restarts"
                )
            if terminated and terminated != "Completed":
                out.findings.append(
                    f"pod/{name}: container {cs.get('name')} last terminated: {terminated}"
                )
        if status.get("phase") == "Pending":
            out.findings.append(f"pod/{name}: Pending (not scheduled)")


def _unhealthy_pods(out: Survey) -> list[dict[str, Any]]:
    bad = []
    for pod in out.objects.get("pod", []):
        status = pod.get("status", {})
        ready = all(cs.get("ready") for cs in status.get("containerStatuses") or [{}])
        if (
            status.get("phase") != "Running"
            or not ready
            or any(cs.get("restartCount", 0) for cs in status.get("containerStatuses") or [])
        ):
            bad.append(pod)
    return bad


async def _observability(s: Session, out: Survey) -> None:
    if s.has("logs_query"):
        for ns in out.namespaces:
            text, error = await s.call("logs_query", namespace=ns, tail=50)
            if not error:
                out.texts.append(text)
                for line in text.splitlines():
                    app = re.search(r'app="([^"]+)"', line)
                    out.orders(line, app.group(1) if app else None)
    if s.has("metrics_query"):
        text, error = await s.call("metrics_query", action="alerts")
        if not error:
            out.texts.append(text)
            out.orders(text, None)
            out.findings.extend(_alerts(text))
    if s.has("dashboards"):
        listing, error = await s.call("dashboards", action="list")
        if not error:
            out.texts.append(listing)
            out.orders(listing, None)
            for uid in _uids(listing)[:3]:
                text, err = await s.call("dashboards", action="get", uid=uid)
                if not err:
                    out.texts.append(text)
                    out.orders(text, None)
    if s.has("traces_query"):
        text, error = await s.call("traces_query", action="search")
        if not error:
            out.texts.append(text)
    if s.has("gitops"):
        text, error = await s.call("gitops", command="app list")
        if not error:
            out.texts.append(text)


def _alerts(text: str) -> list[str]:
    try:
        data = json.loads(text)
    except ValueError:
        return []
    alerts = (data.get("data") or {}).get("alerts", []) if isinstance(data, dict) else []
    return [
        f"alert {a.get('labels', {}).get('alertname', '?')} is {a.get('state', '?')}"
        for a in alerts
        if isinstance(a, dict)
    ]


def _uids(text: str) -> list[str]:
    try:
        data = json.loads(text)
    except ValueError:
        return []
    items = data if isinstance(data, list) else (data.get("dashboards") or data.get("items") or [])
    return [str(d.get("uid")) for d in items if isinstance(d, dict) and d.get("uid")]


def managed_by_gitops(obj: dict[str, Any] | None) -> bool:
    if not obj:
        return False
    meta = obj.get("metadata", {})
    labels = {**(meta.get("labels") or {}), **(meta.get("annotations") or {})}
    return any(
        k in labels for k in MANAGED_KEYS if k not in ("app.kubernetes.io/managed-by",)
    ) or str(labels.get("app.kubernetes.io/managed-by", "")).lower() in ("argocd", "flux", "gitops")


def dependents_of_configmap(s: Survey, name: str) -> list[str]:
    users = []
    for dep in s.objects.get("deployment", []):
        if name in json.dumps(dep.get("spec", {})):
            users.append(dep["metadata"]["name"])
    return sorted(set(users))


def dependents_of_service(s: Survey, name: str) -> list[str]:
    users = []
    for ing in s.objects.get("ingress", []):
        if name in json.dumps(ing.get("spec", {})):
            users.append(f"ingress/{ing['metadata']['name']}")
    return users
