"""``heldout23``'s reads: the first look at a namespace, then the signals one workload gives.

Each read is a plain call an SRE would type; what it returns is parsed with the generic
readers of ``operator_read`` and kept on the desk (evidence rows, log excerpts).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .operator_heldout23 import Desk
from .operator_read import (
    PodView,
    describe_pods,
    items,
    load_json,
    log_lines,
    prom_series,
    signal_patterns,
    table,
)


@dataclass
class Seen:
    """What one namespace runs: deployments by name, pods, events (rows of kubectl tables)."""

    ns: str
    deployments: dict[str, dict[str, str]] = field(default_factory=dict)
    pods: list[dict[str, str]] = field(default_factory=list)
    events: list[dict[str, str]] = field(default_factory=list)

    def pods_of(self, name: str) -> list[dict[str, str]]:
        """Pods of a workload (its name then a hash) or the pod of that exact name."""
        pat = re.compile(rf"{re.escape(name)}(-[a-z0-9]+){{1,2}}")
        return [p for p in self.pods if p.get("name") == name or pat.fullmatch(p.get("name", ""))]

    def events_of(self, name: str) -> list[dict[str, str]]:
        out = []
        for e in self.events:
            obj = e.get("object", "").split("/", 1)[-1]
            if obj == name or obj.startswith(name + "-"):
                out.append(e)
        return out


def _pairs(describe: str, key: str) -> dict[str, str]:
    """``Labels:`` / ``Annotations:`` of a describe block as a dict."""
    out: dict[str, str] = {}
    inside = False
    for line in describe.splitlines():
        if line.startswith(f"{key}:"):
            inside = True
            line = line[len(key) + 1 :]
        elif line[:1].strip():
            inside = False
        if not inside:
            continue
        item = line.strip()
        if item in ("", "<none>"):
            continue
        head = item.split(":")[0]
        k, sep, v = item.partition("=") if "=" in head else item.partition(":")
        if sep:
            out[k.strip()] = v.strip()
    return out


async def orient(desk: Desk) -> dict[str, Seen]:
    """Who owns each namespace, what runs there, what is unhappy, what changed lately."""
    seen: dict[str, Seen] = {}
    if not desk.has("kubectl"):
        return seen
    for ns in desk.scope:
        text = await desk.kubectl(
            f"describe namespace {ns}", f"check the owner and environment of `{ns}`"
        )
        desk.labels[ns] = _pairs(text, "Labels")
        desk.notes[ns] = _pairs(text, "Annotations")
        s = Seen(ns)
        deps = table(
            await desk.kubectl(f"get deployments -n {ns} -o wide", f"list workloads in `{ns}`")
        )
        s.deployments = {d["name"]: d for d in deps if d.get("name")}
        s.pods = table(
            await desk.kubectl(f"get pods -n {ns} -o wide", f"find unhealthy pods in `{ns}`")
        )
        s.events = table(
            await desk.kubectl(f"get events -n {ns}", f"see recent changes and warnings in `{ns}`")
        )
        seen[ns] = s
    return seen


def environment(desk: Desk, ns: str) -> str:
    """production / staging / ... from the namespace's labels, else ''."""
    labels = desk.labels.get(ns, {})
    for key in ("env", "environment", "stage", "tier"):
        value = labels.get(key, "").lower()
        if value:
            return "production" if value.startswith("prod") else value
    return ""


async def describe(desk: Desk, ns: str, name: str, pod: bool = False) -> list[PodView]:
    """``describe pods`` of a workload (by its app label) or of one pod."""
    if pod:
        cmd = f"describe pod {name} -n {ns}"
    else:
        cmd = f"describe pods -n {ns} -l app={name}"
    return describe_pods(await desk.kubectl(cmd, f"read container states of `{name}`"))


async def deployment_yaml(desk: Desk, ns: str, name: str) -> dict[str, Any]:
    text = await desk.kubectl(
        f"get deployment {name} -n {ns} -o yaml", f"read the spec of `{name}`"
    )
    found = items(text)
    return found[0] if found else {}


async def configmaps(desk: Desk, ns: str) -> dict[str, dict[str, str]]:
    text = await desk.kubectl(f"get configmaps -n {ns} -o yaml", f"read the ConfigMaps in `{ns}`")
    out: dict[str, dict[str, str]] = {}
    for obj in items(text):
        name = (obj.get("metadata") or {}).get("name", "")
        labels = (obj.get("metadata") or {}).get("labels") or {}
        if name and "security-policy" not in str(labels):
            out[name] = {str(k): str(v) for k, v in (obj.get("data") or {}).items()}
    return out


async def logs(
    desk: Desk, ns: str, name: str, previous: bool = False, container: str = "", pod: bool = False
) -> str:
    if not desk.has("logs_query"):
        return ""
    args: dict[str, Any] = {"namespace": ns, "tail": 200}
    args["pod" if pod else "deployment"] = name
    if previous:
        args["previous"] = True
    if container:
        args["container"] = container
    shown = f"logs_query {name}" + (f" -c {container}" if container else "")
    shown += " --previous" if previous else ""
    why = f"read the {'last crashed run of' if previous else 'current logs of'} `{name}`"
    return await desk.use("logs_query", shown, why, **args)


def log_signals(text: str) -> list[tuple[str, str, int]]:
    """(level, message, count) of the error and warning lines, most frequent first."""
    return signal_patterns(log_lines(text))


def noise_count(text: str) -> int:
    return sum(1 for ln in log_lines(text) if ln.level in ("DEBUG", "TRACE", "INFO"))


async def series(desk: Desk, ns: str, name: str) -> dict[str, list[float]]:
    """Every series the metrics backend keeps for the service, last 6 hours."""
    if not desk.has("metrics_query"):
        return {}
    query = f'{{namespace="{ns}", service="{name}"}}'
    text = await desk.use(
        "metrics_query",
        f"metrics_query {query} [6h]",
        f"read the numbers of `{name}` over 6h",
        action="query_range",
        query=query,
        start="-6h",
    )
    out: dict[str, list[float]] = {}
    for labels, values in prom_series(text):
        metric = labels.get("__name__", "")
        if metric and values and metric not in out:
            out[metric] = values
    return out


async def query(desk: Desk, expr: str, why: str) -> list[tuple[dict[str, str], list[float]]]:
    if not desk.has("metrics_query"):
        return []
    text = await desk.use(
        "metrics_query", f"metrics_query {expr}", why, action="query_range", query=expr, start="-1h"
    )
    return prom_series(text)


async def firing(desk: Desk, why: str) -> list[dict[str, Any]]:
    if not desk.has("metrics_query"):
        return []
    text = await desk.use("metrics_query", "metrics_query alerts", why, action="alerts")
    doc = load_json(text)
    found = doc.get("data", {}).get("alerts", []) if isinstance(doc, dict) else []
    return [a for a in found if isinstance(a, dict) and a.get("state") in ("firing", "pending")]


async def nodes(desk: Desk) -> str:
    return await desk.kubectl("describe nodes", "check node capacity, allocation and conditions")
