"""What a diagnosis is made of: :class:`Finding` (what, about which object, on what evidence)
and :class:`Diagnosis`, the findings of one session, with the object helpers every rule uses.
The rules that produce them are in :mod:`.diagnose` and :mod:`.pod_rules`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .signals import parse_time

#: faults that explain a failure on their own; the others are symptoms that point further
CAUSES = frozenset(
    {
        "missing-config-key",
        "oom",
        "image-not-found",
        "init-failed",
        "tls-expired",
        "pool-exhausted",
        "pending-resources",
        "policy-blocks",
        "schema-mismatch",
        "migration-failed",
        "missing-env",
        "slow-span",
        "oom-risk",
        "node-pressure",
        "service-no-endpoints",
    }
)


@dataclass
class Finding:
    """One thing found wrong or notable: what, about which object, from which source."""

    kind: str
    subject: str  # "deployment/x", "pod/x", "node/x", "networkpolicy/x" ...
    what: str  # one sentence, operator language, with the numbers
    source: str  # events, pod status, logs, metrics, traces, dashboard, rollout history ...
    workload: str | None = None
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def cause(self) -> bool:
        """Whether this kind of finding explains a failure on its own (:data:`CAUSES`)."""
        return self.kind in CAUSES


@dataclass
class Diagnosis:
    """The findings of one session, with the instant they were read at."""

    findings: list[Finding] = field(default_factory=list)
    now: datetime | None = None
    noise: int = 0  # routine log lines left out
    problem_lines: int = 0
    chain: list[str] = field(
        default_factory=list
    )  # hops from the entry point to the failing component

    def add(self, f: Finding) -> None:
        """Add a finding unless the same one is already there."""
        if all((f.kind, f.subject, f.what) != (g.kind, g.subject, g.what) for g in self.findings):
            self.findings.append(f)

    def about(self, workloads: list[str]) -> list[Finding]:
        """The findings about these workloads (all when none is named)."""
        if not workloads:
            return list(self.findings)
        return [
            f
            for f in self.findings
            if f.workload in workloads or any(w in f.subject for w in workloads)
        ]

    def causes(self, workloads: list[str] | None = None) -> list[Finding]:
        """The findings that are causes, about these workloads when some are found, else any
        that reaches them (:meth:`toward`; with no workload named, any that reaches a workload): a network
        policy is about the workloads it selects, and reaches another only when that one is
        shown calling them (:func:`.diagnose._callers`), not because the policy blocks every
        pod but a scraper."""
        found = [f for f in self.about(workloads or []) if f.cause and (workloads or _reaches(f))]
        if found or not workloads:
            return found
        return [f for f in self.findings if f.cause and self.toward(f, workloads)]

    def toward(self, f: Finding, workloads: list[str]) -> bool:
        """Whether a cause elsewhere reaches these workloads: one of no workload (a node, the
        database) that reaches any, a policy blocking one of them shown calling, or a workload
        their own findings name (the upstream their logs refuse). Another workload failing on
        its own is not the subject's cause (issue 27)."""
        if not _reaches(f):
            return False
        if f.workload is None:
            return True
        if set(workloads) & set(f.data.get("callers") or []):
            return True
        said = " ".join(g.what for g in self.about(workloads))
        return bool(re.search(rf"(?<![a-z0-9-]){re.escape(f.workload)}(?![a-z0-9-])", said))

    def of(self, kind: str) -> list[Finding]:
        """The findings of one kind."""
        return [f for f in self.findings if f.kind == kind]


def _reaches(f: Finding) -> bool:
    """A cause that reaches past its own workload: any but a network policy no blocked
    workload is shown calling through (issue 27 round 10: the worker's scrape-only policy)."""
    return f.kind != "policy-blocks" or bool(f.data.get("callers"))


def name(obj: dict[str, Any]) -> str:
    """An object's ``metadata.name``."""
    return str((obj.get("metadata") or {}).get("name", ""))


def workload_of(pod: dict[str, Any]) -> str:
    """The workload a pod belongs to (its ReplicaSet's deployment, or its owner), else the pod
    itself."""
    meta = pod.get("metadata") or {}
    for ref in meta.get("ownerReferences") or []:
        if ref.get("kind") == "ReplicaSet":
            return re.sub(r"-[a-z0-9]{5,10}$", "", str(ref.get("name")))
        if ref.get("kind") in ("StatefulSet", "DaemonSet", "Job"):
            return str(ref.get("name"))
    return str((meta.get("labels") or {}).get("app") or meta.get("name"))


def now_of(v: Any) -> datetime | None:
    """The latest moment the reads show (event times, log times, condition changes)."""
    times: list[datetime] = []
    for ev in v.objects.get("event", []):
        for key in ("lastTimestamp", "eventTime", "firstTimestamp"):
            t = parse_time(ev.get(key))
            if t:
                times.append(t)
    times += [line.ts for line in v.logs if line.ts]
    for node in v.nodes:
        for c in (node.get("status") or {}).get("conditions") or []:
            t = parse_time(c.get("lastTransitionTime"))
            if t:
                times.append(t)
    return max(times) if times else None


def selects(selector: dict[str, Any], labels: dict[str, Any]) -> bool:
    """Whether a label selector (``matchLabels`` or a plain mapping) selects these labels."""
    match = (selector or {}).get("matchLabels", selector or {})
    return bool(match) and all(labels.get(k) == v for k, v in match.items() if isinstance(v, str))


def short(text: str, n: int = 200) -> str:
    """``text`` on one line, cut at ``n`` characters."""
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 3] + "..."


#: a cluster-internal service address: <service>.<namespace>.svc[.cluster.local]
SERVICE_ADDRESS = re.compile(
    r"\b([a-z0-9][a-z0-9-]*)\.([a-z0-9][a-z0-9-]*)\.svc(?:\.cluster\.local)?\b"
)


def remote_service(text: str) -> tuple[str, str] | None:
    """(service, namespace) of the first cluster-internal address in a log line."""
    m = SERVICE_ADDRESS.search(text)
    return (m.group(1), m.group(2)) if m else None


def host_in(text: str) -> str | None:
    """The host name a log line connects to, if it names one."""
    m = re.search(
        r"(?:to|connecting to|upstream|host)\s+([a-z0-9][a-z0-9.-]+(?::\d+)?)", text, re.IGNORECASE
    )
    return m.group(1) if m else None
