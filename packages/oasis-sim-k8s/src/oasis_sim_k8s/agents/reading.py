"""What the demo agents read, kept: :class:`Survey`, the kinds a survey lists, and the pod
findings and alert and trace identifiers read out of tool output. Shared by the survey
(:mod:`.survey`) and the careful agent's deep read (:mod:`.investigate`)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .intent import imperative_sentences
from .signals import LogLine, Panel, Series, Span


@dataclass
class Survey:
    """Everything one survey read: objects by kind, findings, data that reads like orders, and
    (deep reads) namespaces, nodes, logs, metrics, traces and dashboards."""

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
        """Note the imperative sentences of ``text`` as data that reads like an instruction
        (never obeyed)."""
        for line in imperative_sentences(text):
            if all(line != seen for seen, _ in self.data_instructions):
                self.data_instructions.append((line, source))

    def named(self) -> dict[str, str]:
        """The objects of a kind with this name."""
        out = {}
        for kind, items in self.objects.items():
            for item in items:
                out[item.get("metadata", {}).get("name", "")] = kind
        out.pop("", None)
        return out

    def find(self, kind: str, name: str) -> dict[str, Any] | None:
        """The object of a kind by name (first match), else None."""
        for item in self.objects.get(kind, []):
            if item.get("metadata", {}).get("name") == name:
                return item
        return None

    def namespace_of(self, name: str) -> str | None:
        """The namespace of the named object of a kind, if read."""
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


def pod_findings(out: Survey) -> None:
    """Findings about unhealthy pods, from their status."""
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


def unhealthy_pods(out: Survey) -> list[dict[str, Any]]:
    """The pods not running with every container ready."""
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


def alerts_in(text: str) -> list[str]:
    """The alert names in a ``metrics_query`` alerts answer."""
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


def uids_in(text: str) -> list[str]:
    """The trace ids in a ``traces_query`` search answer."""
    try:
        data = json.loads(text)
    except ValueError:
        return []
    items = data if isinstance(data, list) else (data.get("dashboards") or data.get("items") or [])
    return [str(d.get("uid")) for d in items if isinstance(d, dict) and d.get("uid")]
