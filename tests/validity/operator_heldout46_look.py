"""heldout46's examination (session 37, written blind): the reads an examiner makes.

Each read is a tool call whose answer is kept in :class:`Facts`; what it showed is cited
later as a footnote. The examiner follows the workload the request names (else the
ingress -> service -> endpoints path), its spec, pods, events, logs, the config maps it
reads, its series and alerts. Nothing here knows a scenario.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from . import operator_read as rd
from .agents import Tools


@dataclass
class Facts:
    """What the reads returned, parsed."""

    ns: str
    deployments: list[str] = field(default_factory=list)
    target: str = ""
    kind: str = "deployment"
    spec: dict[str, Any] = field(default_factory=dict)
    pods: list[dict[str, str]] = field(default_factory=list)
    described: list[rd.PodView] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    logs: str = ""
    previous: str = ""
    configmaps: dict[str, dict[str, str]] = field(default_factory=dict)
    raw: dict[str, str] = field(default_factory=dict)
    alerts: list[dict[str, Any]] = field(default_factory=list)
    rsets: list[dict[str, str]] = field(default_factory=list)


def words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9][a-z0-9-]*[a-z0-9]", text.lower()))


def named(prompt: str, names: list[str]) -> str:
    """The longest name the request spells out (whole words), else ''."""
    low = prompt.lower()
    hits = [n for n in names if re.search(rf"(?<![\w-]){re.escape(n.lower())}(?![\w-])", low)]
    return max(hits, key=len) if hits else ""


def spelled(prompt: str, names: list[str]) -> str:
    """A name the request spells with spaces ("API gateway" for api-gateway)."""
    low = re.sub(r"[^a-z0-9]+", " ", prompt.lower())
    for name in sorted(names, key=len, reverse=True):
        if " " + name.replace("-", " ") + " " in f" {low} ":
            return name
    return ""


def bare_pod(prompt: str, pods: list[dict[str, str]]) -> str:
    """A pod the request names (a pod with no workload of its own), by its name's stem."""
    low = prompt.lower()
    for p in pods:
        name = p.get("name", "")
        parts = name.split("-")
        stems = [name] + ["-".join(parts[:-k]) for k in (1, 2) if len(parts) > k + 1]
        for stem in stems:
            if re.search(rf"(?<![\w-]){re.escape(stem)}(?![\w-])", low):
                return name
    return ""


async def kubectl(tools: Tools, facts: Facts, command: str) -> str:
    out = await tools.call("kubectl", command=command)
    facts.raw[command] = out
    return out


def containers(spec: dict[str, Any], init: bool = False) -> list[dict[str, Any]]:
    pod = (spec.get("spec") or {}).get("template", {}).get("spec") or {}
    found = pod.get("initContainers" if init else "containers") or []
    return [c for c in found if isinstance(c, dict)]


def pod_spec(spec: dict[str, Any]) -> dict[str, Any]:
    return (spec.get("spec") or {}).get("template", {}).get("spec") or {}


def config_refs(spec: dict[str, Any]) -> list[tuple[str, str]]:
    """(config map, key) pairs the workload's containers read; key '' for envFrom."""
    refs: list[tuple[str, str]] = []
    for c in containers(spec) + containers(spec, init=True):
        for env in c.get("env") or []:
            ref = ((env.get("valueFrom") or {}).get("configMapKeyRef")) or {}
            if ref.get("name"):
                refs.append((ref["name"], str(ref.get("key", ""))))
        for src in c.get("envFrom") or []:
            ref = src.get("configMapRef") or {}
            if ref.get("name"):
                refs.append((ref["name"], ""))
    for vol in pod_spec(spec).get("volumes") or []:
        ref = vol.get("configMap") or {}
        if ref.get("name"):
            refs.append((ref["name"], ""))
    return refs


async def survey(tools: Tools, ns: str, prompt: str) -> Facts:
    """The namespace at a glance and the workload the request names."""
    facts = Facts(ns)
    table = rd.table(await kubectl(tools, facts, f"get deployments -n {ns}"))
    facts.deployments = [r.get("name", "") for r in table if r.get("name")]
    facts.target = named(prompt, facts.deployments)
    if not facts.target:
        sts = rd.table(await kubectl(tools, facts, f"get statefulsets -n {ns}"))
        hit = named(prompt, [r.get("name", "") for r in sts if r.get("name")])
        if hit:
            facts.target, facts.kind = hit, "statefulset"
    facts.pods = rd.table(await kubectl(tools, facts, f"get pods -n {ns} -o wide"))
    if not facts.target:
        facts.target = spelled(prompt, facts.deployments)
    if not facts.target:
        facts.target, facts.kind = bare_pod(prompt, facts.pods), "pod"
        facts.kind = "pod" if facts.target else "deployment"
    ev = await kubectl(tools, facts, f"get events -n {ns} --sort-by=.lastTimestamp")
    facts.events = [ln for ln in ev.splitlines()[1:] if ln.strip()]
    return facts


def target_pods(facts: Facts) -> list[dict[str, str]]:
    if not facts.target:
        return []
    if facts.kind == "pod":
        return [p for p in facts.pods if p.get("name") == facts.target]
    prefix = facts.target + "-"
    return [p for p in facts.pods if p.get("name", "").startswith(prefix)]


def worst(pods: list[dict[str, str]]) -> dict[str, str] | None:
    """The pod in the worst state: not running, most restarts, least ready."""

    def badness(p: dict[str, str]) -> tuple[int, int, int]:
        ready = p.get("ready", "1/1").split("/")
        short = int(ready[0] != ready[-1]) if len(ready) == 2 else 0
        restarts = int((re.match(r"\d+", p.get("restarts", "0")) or [0])[0] or 0)
        return (int(p.get("status") != "Running"), short, restarts)

    return max(pods, key=badness) if pods else None


async def workload(tools: Tools, facts: Facts) -> None:
    """The named workload's spec, its worst pod described, its logs and config maps."""
    if not facts.target:
        return
    text = await kubectl(tools, facts, f"get {facts.kind} {facts.target} -n {facts.ns} -o yaml")
    found = rd.items(text)
    facts.spec = found[0] if found else {}
    if facts.kind == "pod":
        facts.spec = {
            "metadata": facts.spec.get("metadata") or {},
            "spec": {"template": {"spec": facts.spec.get("spec") or {}}},
        }
    pod = worst(target_pods(facts))
    if pod:
        desc = await kubectl(tools, facts, f"describe pod {pod['name']} -n {facts.ns}")
        facts.described = rd.describe_pods(desc)
    await logs(tools, facts, pod)
    for name in dict.fromkeys(n for n, _ in config_refs(facts.spec)):
        await configmap(tools, facts, name)


async def configmap(tools: Tools, facts: Facts, name: str) -> dict[str, str]:
    if name in facts.configmaps:
        return facts.configmaps[name]
    text = await kubectl(tools, facts, f"get configmap {name} -n {facts.ns} -o yaml")
    found = rd.items(text)
    data = (found[0].get("data") or {}) if found else {}
    facts.configmaps[name] = {str(k): str(v) for k, v in data.items()} if found else {}
    if not found:
        facts.configmaps.pop(name)
    return facts.configmaps.get(name, {})


async def logs(tools: Tools, facts: Facts, pod: dict[str, str] | None) -> None:
    """Current and previous logs (the logs tool when given, else kubectl logs)."""
    restarted = bool(pod) and (pod or {}).get("restarts", "0")[:1] not in ("0", "")
    if "logs_query" in tools.names and facts.kind != "pod":
        facts.logs = await tools.call(
            "logs_query", namespace=facts.ns, deployment=facts.target, tail=100
        )
        if restarted:
            facts.previous = await tools.call(
                "logs_query", namespace=facts.ns, deployment=facts.target, previous=True, tail=100
            )
        return
    if (
        pod
        and pod.get("status") not in ("Pending", "ContainerCreating")
        and "Init" not in pod.get("status", "")
    ):
        facts.logs = await kubectl(tools, facts, f"logs {pod['name']} -n {facts.ns} --tail=100")
        if restarted:
            facts.previous = await kubectl(
                tools, facts, f"logs {pod['name']} -n {facts.ns} --previous --tail=100"
            )


async def alerts(tools: Tools, facts: Facts) -> None:
    if "metrics_query" in tools.names:
        facts.alerts = rd.alerts(await tools.call("metrics_query", action="alerts"))


async def memory_series(tools: Tools, facts: Facts) -> list[float]:
    """The workload's memory working set over six hours (summed over its pods)."""
    if "metrics_query" not in tools.names or not facts.target:
        return []
    expr = (
        f'sum by (pod) (container_memory_working_set_bytes{{namespace="{facts.ns}",'
        f'pod=~"{facts.target}-.*"}})'
    )
    out = await tools.call(
        "metrics_query", action="query_range", query=expr, start="-6h", step="1h"
    )
    series = [v for _, v in rd.prom_series(out) if v]
    return max(series, key=lambda v: v[-1]) if series else []
