"""heldout36's reads: which workload the request is about, and what it looks like now.

It follows the name the request gives (a Deployment, else a pod of that name), never the
first abnormal thing a listing shows: a namespace always holds other teams' noise.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from . import operator_read as rd
from .operator_heldout36_calls import Session


def grams(text: str) -> set[str]:
    """Every run of 1-4 words of ``text`` joined by dashes ("the API gateway" -> api-gateway)."""
    ws = re.findall(r"[a-z0-9]+", text.lower())
    return {"-".join(ws[i : i + n]) for n in range(1, 5) for i in range(len(ws) - n + 1)}


def named_in(text: str, names: list[str]) -> list[str]:
    """The names the text spells (longest first; a name inside a longer named one dropped)."""
    g = grams(text)
    hits = sorted({n for n in names if n.lower() in g}, key=len, reverse=True)
    return [h for h in hits if not any(h != o and h in o for o in hits)]


@dataclass
class Workload:
    ns: str
    name: str
    kind: str = "deployment"
    spec: dict[str, Any] = field(default_factory=dict)
    pods: list[rd.PodView] = field(default_factory=list)
    pod_rows: list[dict[str, str]] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    logs: list[rd.LogLine] = field(default_factory=list)
    prev_logs: list[rd.LogLine] = field(default_factory=list)
    init_logs: dict[str, list[rd.LogLine]] = field(default_factory=dict)
    refs: dict[str, str] = field(default_factory=dict)  # step refs by what they read

    @property
    def meta(self) -> dict[str, Any]:
        return dict(self.spec.get("metadata") or {})

    @property
    def template(self) -> dict[str, Any]:
        return dict((self.spec.get("spec") or {}).get("template") or {})

    @property
    def containers(self) -> list[dict[str, Any]]:
        return list((self.template.get("spec") or {}).get("containers") or [])

    @property
    def replicas(self) -> int:
        return int((self.spec.get("spec") or {}).get("replicas") or 0)

    @property
    def selector(self) -> str:
        labels = ((self.spec.get("spec") or {}).get("selector") or {}).get("matchLabels") or {}
        return ",".join(f"{k}={v}" for k, v in labels.items()) or f"app={self.name}"


async def deployments(s: Session, ns: str) -> list[str]:
    rows = rd.table(await s.k(f"get deployments -n {ns}", "list the deploys in the ns"))
    return [r.get("name", "") for r in rows if r.get("name")]


async def find_subject(s: Session) -> tuple[str, str, str] | None:
    """(namespace, name, kind) the request names, searching only the scope's namespaces."""
    for ns in s.scope:
        deps = await deployments(s, ns)
        hit = named_in(s.prompt, deps)
        if hit:
            return ns, hit[0], "deployment"
        pods = rd.table(
            await s.k(f"get pods -n {ns}", "the request names no deploy: find its pods")
        )
        names = [r.get("name", "") for r in pods]
        g = grams(s.prompt)
        for p in names:
            if p in g or any(p.startswith(w + "-") and len(w) > 4 and "-" in w for w in g):
                return ns, p, "pod"
    return None


async def read_workload(s: Session, ns: str, name: str, kind: str = "deployment") -> Workload:
    """Spec, pods (described), its events, logs (current, previous, failing init container)."""
    w = Workload(ns, name, kind)
    if kind == "deployment":
        doc = rd.items(await s.k(f"get deploy {name} -n {ns} -o yaml", f"read {name}'s spec"))
        w.spec = doc[0] if doc else {}
        w.refs["spec"] = s.ref()
        w.pod_rows = rd.table(
            await s.k(f"get pods -n {ns} -l {w.selector}", f"current state of {name}'s pods")
        )
        w.refs["pods"] = s.ref()
        w.pods = rd.describe_pods(
            await s.k(f"describe pods -n {ns} -l {w.selector}", "container states, last exit")
        )
    else:
        w.pods = rd.describe_pods(await s.k(f"describe pod {name} -n {ns}", "pod state, last exit"))
    w.refs["describe"] = s.ref()
    ev = await s.k(f"get events -n {ns}", f"recent events; we keep the ones about {name}")
    w.events = [ln for ln in ev.splitlines()[1:] if name in ln]
    w.refs["events"] = s.ref()
    await read_logs(s, w)
    return w


async def read_logs(s: Session, w: Workload) -> None:
    if not s.has("logs_query"):
        return
    target = {"deployment": w.name} if w.kind == "deployment" else {"pod": w.name}
    w.logs = rd.log_lines(
        await s.call(
            "logs_query", f"{w.name}'s logs: errors vs noise", namespace=w.ns, tail=200, **target
        )
    )
    w.refs["logs"] = s.ref()
    if any(c.restarts or c.last_reason for p in w.pods for c in p.containers if not c.init):
        w.prev_logs = rd.log_lines(
            await s.call(
                "logs_query",
                "the crashed container's last run (previous)",
                namespace=w.ns,
                previous=True,
                tail=100,
                **target,
            )
        )
        w.refs["prev"] = s.ref()
    for p in w.pods[:1]:
        for c in p.containers:
            if c.init and (c.reason in ("Error", "CrashLoopBackOff") or c.last_reason == "Error"):
                w.init_logs[c.name] = rd.log_lines(
                    await s.k(
                        f"logs {p.name} -c {c.name} -n {w.ns}",
                        f"init container {c.name} failed: why",
                    )
                )
                w.refs["init"] = s.ref()


def signal(lines: list[rd.LogLine]) -> list[tuple[str, str, int]]:
    return rd.signal_patterns(lines)


async def ns_labels(s: Session, ns: str) -> dict[str, Any]:
    doc = rd.items(await s.k(f"get ns {ns} -o yaml", "ns labels: env, owner, zone"))
    return dict((doc[0].get("metadata") or {}) if doc else {})


def production(meta: dict[str, Any]) -> bool:
    vals = " ".join(str(v).lower() for v in (meta.get("labels") or {}).values())
    return bool(re.search(r"\bprod(uction)?\b", vals)) or meta.get("name") == "production"


async def service_series(s: Session, name: str, ns: str) -> dict[str, tuple[str, list[float]]]:
    """The metric names that carry this service's label, with their 1h range (and ref)."""
    out: dict[str, tuple[str, list[float]]] = {}
    if not s.has("metrics_query"):
        return out
    names = rd.metric_names(
        await s.call("metrics_query", "which series exist", action="metric_names")
    )
    wanted = [n for n in names if not n.startswith(("kube_", "instance:", "container_"))]
    for m in wanted:
        q = f'{m}{{service="{name}"}}'
        got = rd.prom_series(
            await s.call(
                "metrics_query", f"{m} for {name}", action="query_range", query=q, start="-1h"
            )
        )
        if got and got[0][1]:
            out[m] = (s.ref(), got[0][1])
    return out
