"""heldout33's reads (session 28, written blind): the calls an operator makes before answering a
requester, each kept with the reason it was made, so the Q&A answer can cite it inline.

Nothing here knows a scenario: the subject is the workload the requester names (else the one
whose pods are unhealthy), and every fact is parsed from what a tool returned.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .agents import Tools, namespaces
from .operator_read import describe_pods, items, load_json, table


@dataclass
class Call:
    """One call as the answer cites it: its short form and why it was made."""

    cite: str
    why: str
    prompted: str
    text: str
    error: bool = False


@dataclass
class Desk:
    """The operator's desk: the tools, the task's words, and every call made so far."""

    tools: Tools
    prompt: str
    scope: list[str]
    calls: list[Call] = field(default_factory=list)
    trigger: str = "your request"

    async def run(self, tool: str, why: str, **args: Any) -> Call:
        text = await self.tools.call(tool, **args)
        if tool == "kubectl":
            cite = f"kubectl {args.get('command', '')}"
        else:
            bits = " ".join(f"{k}={v}" for k, v in args.items() if k != "stdin")
            cite = f"{tool} {bits}".strip()
        last = self.tools.calls[-1] if self.tools.calls else None
        error = bool(last and last.error) if tool in self.tools.names else True
        call = Call(cite, why, self.trigger, text, error)
        if tool in self.tools.names:
            self.calls.append(call)
        return call

    async def k(self, command: str, why: str) -> Call:
        return await self.run("kubectl", why, command=command)

    def has(self, tool: str) -> bool:
        return tool in self.tools.names


def cite(call: Call | None) -> str:
    return f" [{call.cite}]" if call is not None else ""


def make_desk(tools: Tools, task: Any) -> Desk:
    return Desk(tools, task.prompt, namespaces(task))


@dataclass
class Workload:
    """What was read about the workload the requester asked about."""

    ns: str
    name: str
    replicas: str = ""
    image: str = ""
    pods: list[Any] = field(default_factory=list)
    get_pods: Call | None = None
    describe: Call | None = None
    deploy: dict[str, Any] = field(default_factory=dict)
    deploy_call: Call | None = None
    events: list[str] = field(default_factory=list)
    events_call: Call | None = None
    bare: bool = False


def words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9][a-z0-9._-]*[a-z0-9]", text.lower()))


async def survey(desk: Desk) -> dict[str, list[str]]:
    """Deployments per scope namespace (one ``get deployments`` each)."""
    out: dict[str, list[str]] = {}
    for ns in desk.scope:
        call = await desk.k(f"get deployments -n {ns}", "to see which workloads run here")
        out[ns] = [row.get("name", "") for row in table(call.text) if row.get("name")]
    return out


def named(prompt: str, found: dict[str, list[str]]) -> list[tuple[str, str]]:
    """The deployments the requester names, longest name first (``api`` in ``api-service``
    is not a second subject)."""
    said = words(prompt)
    low = prompt.lower()
    flat = re.sub(r"[-_\s]+", " ", low)
    hits = []
    for ns, names in found.items():
        for name in names:
            spaced = re.sub(r"[-_]+", " ", name.lower())
            if (
                name.lower() in said
                or re.search(rf"\b{re.escape(name.lower())}\b", low)
                or re.search(rf"\b{re.escape(spaced)}\b", flat)
            ):
                hits.append((ns, name))
    hits.sort(key=lambda h: -len(h[1]))
    kept: list[tuple[str, str]] = []
    for ns, name in hits:
        if not any(name in other and name != other for _, other in kept):
            kept.append((ns, name))
    return kept


async def read_workload(desk: Desk, ns: str, name: str) -> Workload:
    """The deployment, its pods (described) and the namespace's events about it."""
    w = Workload(ns, name)
    w.deploy_call = await desk.k(
        f"get deployment {name} -n {ns} -o yaml", f"to read {name}'s spec and status"
    )
    got = items(w.deploy_call.text)
    w.deploy = got[0] if got else {}
    if not got:
        return await _bare(desk, w)
    spec = w.deploy.get("spec", {}) or {}
    w.replicas = str(spec.get("replicas", ""))
    ctrs = ((spec.get("template") or {}).get("spec") or {}).get("containers") or []
    w.image = str(ctrs[0].get("image", "")) if ctrs else ""
    labels = ((spec.get("selector") or {}).get("matchLabels")) or {}
    sel = ",".join(f"{k}={v}" for k, v in sorted(labels.items()))
    target = f"-l {sel}" if sel else ""
    w.get_pods = await desk.k(f"get pods -n {ns} {target}".strip(), f"to see {name}'s pods")
    w.describe = await desk.k(
        f"describe pods -n {ns} {target}".strip(), f"to read {name}'s container states"
    )
    w.pods = [p for p in describe_pods(w.describe.text) if p.name.startswith(name)]
    w.events_call = await desk.k(
        f"get events -n {ns} --sort-by=.lastTimestamp", f"to see what happened to {name} lately"
    )
    w.events = [ln for ln in w.events_call.text.splitlines() if name in ln]
    return w


async def _bare(desk: Desk, w: Workload) -> Workload:
    """A pod no Deployment owns (the request named the pod): read it by name."""
    w.bare = True
    w.get_pods = await desk.k(
        f"get pods -n {w.ns}", f"no Deployment is called {w.name}, so I looked for its pods"
    )
    names = [
        r.get("name", "") for r in table(w.get_pods.text) if r.get("name", "").startswith(w.name)
    ]
    w.describe = await desk.k(
        f"describe pod {' '.join(names) or w.name} -n {w.ns}",
        f"to read {w.name}'s container states",
    )
    w.pods = [p for p in describe_pods(w.describe.text) if p.name.startswith(w.name)]
    w.events = [ln for p in w.pods for ln in p.events]
    w.image = w.pods[0].containers[0].image if w.pods and w.pods[0].containers else ""
    return w


async def named_pod(desk: Desk) -> tuple[str, str] | None:
    """A pod the request names by its stem (``cache-worker`` for ``cache-worker-x7k9``)."""
    low = desk.prompt.lower()
    for ns in desk.scope:
        call = await desk.k(
            f"get pods -n {ns}", "no Deployment matched your words, so I listed the pods"
        )
        for row in table(call.text):
            parts = row.get("name", "").split("-")
            for cut in range(len(parts) - 1, 0, -1):
                stem = "-".join(parts[:cut])
                if len(stem) > 3 and re.search(rf"\b{re.escape(stem)}\b", low):
                    return ns, stem
    return None


async def unhealthy(desk: Desk, ns: str) -> list[str]:
    """Deployments whose pods are not all ready (a fall-back subject when none is named)."""
    call = await desk.k(f"get pods -n {ns}", "to find pods that are not healthy")
    bad = []
    for row in table(call.text):
        ready = row.get("ready", "1/1").split("/")
        status = row.get("status", "")
        if status in ("Completed", "Succeeded") or row.get("name", "").count("-") < 2:
            continue
        if status != "Running" or (len(ready) == 2 and ready[0] != ready[1]):
            bad.append(row.get("name", ""))
    return bad


async def logs(desk: Desk, w: Workload, previous: bool = False, container: str = "") -> Call:
    args: dict[str, Any] = {"namespace": w.ns, "deployment": w.name, "tail": 200}
    if previous:
        args["previous"] = True
    if container:
        args["container"] = container
    why = f"to read what {w.name} printed" + (" before its last restart" if previous else "")
    if desk.has("logs_query"):
        return await desk.run("logs_query", why, **args)
    pod = w.pods[0].name if w.pods else f"deploy/{w.name}"
    flag = " --previous" if previous else ""
    ctr = f" -c {container}" if container else ""
    return await desk.k(f"logs {pod} -n {w.ns}{ctr}{flag} --tail=200", why)


async def configmap(desk: Desk, ns: str, name: str, why: str) -> tuple[dict[str, str], Call]:
    call = await desk.k(f"get configmap {name} -n {ns} -o yaml", why)
    got = items(call.text)
    data = (got[0].get("data") or {}) if got else {}
    return {str(k): str(v) for k, v in data.items()}, call


async def namespace_meta(desk: Desk, ns: str) -> tuple[dict[str, Any], Call]:
    call = await desk.k(f"get namespace {ns} -o yaml", f"to read who owns {ns} and what it is")
    got = items(call.text)
    meta = (got[0].get("metadata") or {}) if got else {}
    return meta, call


async def prom(desk: Desk, query: str, why: str, rng: bool = True) -> tuple[list[Any], Call]:
    from .operator_read import prom_series

    args: dict[str, Any] = {"query": query}
    if rng:
        args.update(action="query_range", start="-6h", step="5m")
    else:
        args["action"] = "query"
    call = await desk.run("metrics_query", why, **args)
    return prom_series(call.text), call


async def alerts(desk: Desk, why: str) -> tuple[list[dict[str, Any]], Call]:
    call = await desk.run("metrics_query", why, action="alerts")
    doc = load_json(call.text)
    got = (doc or {}).get("data", {}).get("alerts", []) if isinstance(doc, dict) else []
    return [a for a in got if isinstance(a, dict)], call


def mb(raw: str | float | None) -> str:
    """A quantity or a byte count in decimal units (MB, GB), as the requester's tools show."""
    from .operator_read import quantity

    value = quantity(raw) if isinstance(raw, str) else raw
    if value is None:
        return str(raw)
    if value >= 1e9:
        return f"{value / 1e9:.2f} GB"
    return f"{value / 1e6:.0f} MB"


def frac(part: float, whole: float) -> str:
    return f"{part / whole:.2f}" if whole else "?"


def pct_to_frac(text: str) -> str:
    """'12%' -> '0.12'; other text unchanged."""
    out = re.sub(r"([0-9.]+)\s*%", lambda m: f"{float(m.group(1)) / 100:.3g}", text)
    return out.replace("< ", "under ").replace("<", "under ")


def hrs(stamp: str) -> str:
    """An ISO timestamp as a 24-hour time with 'hrs' (09:30 hrs)."""
    m = re.search(r"T(\d\d):(\d\d)", stamp or "")
    return f"{m.group(1)}:{m.group(2)} hrs" if m else stamp


def disk_pressure(describe_nodes: str) -> list[str]:
    """Nodes whose describe block reports DiskPressure True (one block per node)."""
    bad = []
    for block in re.split(r"\n(?=Name:\s)", describe_nodes):
        name = re.match(r"\s*Name:\s+(\S+)", block)
        if name and re.search(r"^\s*DiskPressure\s+True", block, re.M):
            bad.append(name.group(1))
    return bad


def amount(req: str, res: str) -> str:
    """A request in the answer's units: cores for CPU, MB/GB for memory."""
    from .operator_read import quantity

    value = quantity(req)
    if value is None:
        return req
    return f"{value:g} cores" if res == "cpu" else mb(value)


async def error_onset(desk: Desk, w: Workload) -> tuple[float, float, float | None, Call] | None:
    """The workload's error-rate series: baseline, now, and minutes since it first doubled."""
    from .operator_read import load_json

    names = await desk.run(
        "metrics_query", f"to find {w.name}'s error-rate series", action="metric_names"
    )
    pick = [n for n in re.findall(r'"([a-z0-9_:]*error[a-z0-9_:]*)"', names.text)]
    for metric in pick[:2]:
        call = await desk.run(
            "metrics_query",
            f"to see when {w.name}'s errors rose",
            action="query_range",
            query=f'{metric}{{service="{w.name}"}}',
            start="-2h",
            step="5m",
        )
        doc = load_json(call.text) or {}
        res = (doc.get("data") or {}).get("result") or [] if isinstance(doc, dict) else []
        pts = [(float(t), float(v)) for r in res for t, v in r.get("values", [])]
        if len(pts) < 2:
            continue
        pts.sort()
        base, end = pts[0][1], pts[-1][0]
        up = next((t for t, v in pts if v > max(base * 2, base + 0.005)), None)
        onset = (end - up) / 60 if up is not None else None
        return base, pts[-1][1], onset, call
    return None
