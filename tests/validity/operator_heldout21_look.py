"""``heldout21``'s reads (issue 27): orientation, the subject's pods, logs, metrics, alerts,
traces, nodes and the database. Each read goes through the desk (so it lands in
``actions_taken``) and returns parsed facts; nothing here knows a scenario."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .operator_heldout21 import Desk
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
class Scene:
    """What one namespace shows at first look."""

    ns: str
    labels: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    deployments: dict[str, dict[str, str]] = field(default_factory=dict)
    pods: list[dict[str, str]] = field(default_factory=list)
    events: list[dict[str, str]] = field(default_factory=list)

    @property
    def environment(self) -> str:
        for key in sorted(self.labels):
            if key.split("/")[-1] in ("env", "environment", "tier", "stage"):
                return self.labels[key]
        zone = self.labels.get("oasis.zone", "")
        return zone.split("-")[0] if zone else ""


def pairs(describe: str, key: str) -> dict[str, str]:
    """``Labels:`` / ``Annotations:`` of a describe block as a dict."""
    out: dict[str, str] = {}
    inside = False
    for line in describe.splitlines():
        if line.startswith(f"{key}:"):
            inside, line = True, line[len(key) + 1 :]
        elif line[:1].strip():
            inside = False
        item = line.strip()
        if not inside or item in ("", "<none>"):
            continue
        k, sep, v = item.partition("=") if "=" in item.split(":")[0] else item.partition(":")
        if sep:
            out[k.strip()] = v.strip()
    return out


async def orient(desk: Desk) -> Scene:
    """Namespace labels, deployments, pods and events of the first namespace in scope."""
    ns = desk.ns
    scene = Scene(ns)
    desc = await desk.kubectl(
        f"describe namespace {ns}", f"to learn what environment {ns} is and who owns it"
    )
    scene.labels, scene.notes = pairs(desc, "Labels"), pairs(desc, "Annotations")
    deps = table(
        await desk.kubectl(f"get deployments -n {ns} -o wide", f"to see what runs in {ns}")
    )
    scene.deployments = {d["name"]: d for d in deps if d.get("name")}
    scene.pods = table(
        await desk.kubectl(f"get pods -n {ns} -o wide", f"to see which pods in {ns} are unhealthy")
    )
    scene.events = table(
        await desk.kubectl(
            f"get events -n {ns} --sort-by=.lastTimestamp", f"to see what changed recently in {ns}"
        )
    )
    return scene


def pods_of(scene: Scene, name: str) -> list[dict[str, str]]:
    """Pods of a deployment (ReplicaSet hash suffix) or the pod of that exact name."""
    pat = re.compile(rf"{re.escape(name)}(-[a-z0-9]+){{1,2}}")
    return [p for p in scene.pods if p.get("name") == name or pat.fullmatch(p.get("name", ""))]


def bases(scene: Scene) -> list[str]:
    """Workload names the pods imply (a pod name less its ReplicaSet / pod suffixes)."""
    out = set()
    for p in scene.pods:
        parts = p.get("name", "").split("-")
        for cut in (1, 2):
            if len(parts) > cut:
                out.add("-".join(parts[:-cut]))
    return sorted(out)


def subject(desk: Desk, scene: Scene) -> str:
    """The workload the prompt is about: a deployment it names, else a bare pod's name it
    names, else the least healthy deployment."""
    named = desk.named(list(scene.deployments)) or desk.named(bases(scene))
    if named:
        return named[0]
    sick = [
        n
        for n, d in sorted(scene.deployments.items())
        if d.get("ready", "").split("/")[0] != d.get("ready", "").split("/")[-1]
    ]
    return sick[0] if sick else (sorted(scene.deployments) or [""])[0]


def events_about(scene: Scene, name: str) -> list[str]:
    return [
        f"{e.get('reason', '')}: {e.get('message', '')}"
        for e in scene.events
        if name and name in e.get("object", "")
    ]


async def pod_views(desk: Desk, name: str) -> list[PodView]:
    text = await desk.kubectl(
        f"describe pods -n {desk.ns} -l app={name}",
        f"to see {name}'s container states, last exits and limits",
    )
    return describe_pods(text)


async def logs(desk: Desk, name: str, previous: bool = False, container: str = "") -> str:
    args: dict[str, Any] = {"namespace": desk.ns, "deployment": name, "tail": 200}
    if previous:
        args["previous"] = True
    if container:
        args["container"] = container
    which = (
        f"container {container}"
        if container
        else ("the crashed run" if previous else "the current run")
    )
    return await desk.use(
        "logs_query", f"to read {name}'s logs ({which})", f"logs_query {name} ({which})", **args
    )


def log_signal(text: str) -> tuple[list[tuple[str, str, int]], int, int]:
    """(signal patterns, signal lines, all lines) of a log answer."""
    lines = log_lines(text)
    pats = signal_patterns(lines)
    return pats, sum(n for _, _, n in pats), len(lines)


async def service_metrics(desk: Desk, name: str) -> dict[str, list[float]]:
    """Every series the metrics backend keeps for the service over 6h, by metric name."""
    if not desk.has("metrics_query"):
        return {}
    query = f'{{namespace="{desk.ns}", service="{name}"}}'
    text = await desk.use(
        "metrics_query",
        f"to read {name}'s own numbers over the last 6h",
        f"metrics_query {query} over 6h",
        action="query_range",
        query=query,
        start="-6h",
    )
    out: dict[str, list[float]] = {}
    for labels, values in prom_series(text):
        metric = labels.get("__name__", "")
        if metric and values:
            key = metric + "".join(
                f",{k}={v}"
                for k, v in sorted(labels.items())
                if k in ("track", "version", "pod", "deployment", "container")
            )
            out.setdefault(key, values)
    doc = load_json(text)
    result = (doc or {}).get("data", {}).get("result", []) if isinstance(doc, dict) else []
    for r in result if isinstance(result, list) else []:
        stamps = [float(v[0]) for v in r.get("values") or [] if isinstance(v, list) and v]
        if stamps and r.get("metric", {}).get("__name__"):
            desk.report.extra.setdefault("_stamps", {}).setdefault(r["metric"]["__name__"], stamps)
    return out


async def firing_alerts(desk: Desk, why: str) -> list[dict[str, Any]]:
    if not desk.has("metrics_query"):
        return []
    doc = load_json(await desk.use("metrics_query", why, "metrics_query alerts", action="alerts"))
    found = doc.get("data", {}).get("alerts", []) if isinstance(doc, dict) else []
    return [a for a in found if isinstance(a, dict) and a.get("state") == "firing"]


async def yaml_of(desk: Desk, kind: str, name: str, why: str) -> dict[str, Any]:
    found = items(await desk.kubectl(f"get {kind} {name} -n {desk.ns} -o yaml", why))
    return found[0] if found else {}


async def all_of(desk: Desk, kind: str, why: str) -> list[dict[str, Any]]:
    return items(await desk.kubectl(f"get {kind} -n {desk.ns} -o yaml", why))


def env_refs(deploy: dict[str, Any]) -> set[str]:
    """The ConfigMaps a deployment's pod template reads (env, envFrom, volumes)."""
    spec = deploy.get("spec", {}).get("template", {}).get("spec", {})
    out: set[str] = set()
    for c in spec.get("containers", []) + spec.get("initContainers", []):
        for e in c.get("env", []) or []:
            ref = (e.get("valueFrom") or {}).get("configMapKeyRef") or {}
            if ref.get("name"):
                out.add(ref["name"])
        for e in c.get("envFrom", []) or []:
            ref = e.get("configMapRef") or {}
            if ref.get("name"):
                out.add(ref["name"])
    for v in spec.get("volumes", []) or []:
        ref = v.get("configMap") or {}
        if ref.get("name"):
            out.add(ref["name"])
    return out


def num(text: str) -> float | None:
    m = re.search(r"-?\d+(?:\.\d+)?", str(text))
    return float(m.group(0)) if m else None
