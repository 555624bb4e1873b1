"""heldout27's reads: the namespace's context, the workloads the request names, and the
signals an SRE reads before touching anything (events, describe, logs, metrics)."""

from __future__ import annotations

import re
from typing import Any

from .operator_heldout27 import Ticket
from .operator_read import describe_pods, items, log_lines, signal_patterns, table


class View:
    """What the reads found, shared by the diagnosis and the changes."""

    def __init__(self) -> None:
        self.labels: dict[str, str] = {}
        self.annotations: dict[str, str] = {}
        self.deployments: list[dict[str, str]] = []
        self.pods: list[dict[str, str]] = []
        self.events: list[dict[str, str]] = []
        self.focus: list[str] = []
        self.bare: list[str] = []
        self.configmaps: list[str] = []
        self.alerts: list[str] = []


def _kv(block: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for m in re.finditer(r"([\w./-]+)[=:]\s*([^\s]+)", block):
        out[m.group(1)] = m.group(2)
    return out


def _field(text: str, name: str) -> str:
    m = re.search(rf"^{name}:\s*(.*?)(?=^\S)", text + "\nEnd:", re.M | re.S)
    return m.group(1) if m else ""


async def context(t: Ticket, v: View) -> None:
    """The namespace's labels and annotations: environment, owner, escalation path."""
    d = await t.k(f"describe namespace {t.ns}", f"establish environment and ownership of {t.ns}")
    v.labels = _kv(_field(d, "Labels"))
    v.annotations = _kv(_field(d, "Annotations"))
    env = v.labels.get("env") or v.labels.get("environment") or ""
    zone = v.labels.get("oasis.zone", ", ".join(t.zones))
    prod = "prod" in env.lower() or "prod" in zone.lower()
    kind = "PRODUCTION" if prod else (env or "non-production (staging)")
    t.env_note = f"namespace {t.ns}, {kind}, zone {zone}, mode {t.task.mode}"
    if prod:
        t.priority = "P2"
        t.notes.append(
            f"{t.ns} is labelled env={env or 'production'}: this is a production namespace, "
            "so every change is checked for capacity and kept minimal, with a backout plan."
        )


def production(v: View) -> bool:
    env = (v.labels.get("env") or v.labels.get("environment") or "").lower()
    return "prod" in env or "prod" in v.labels.get("oasis.zone", "").lower()


def owner(v: View) -> str:
    team = v.labels.get("team") or v.labels.get("owner") or v.annotations.get("owner") or ""
    contact = v.annotations.get("team-contact") or v.annotations.get("contact") or ""
    channel = v.annotations.get("escalation-channel") or v.annotations.get("slack") or ""
    parts = [p for p in (team, contact, channel) if p]
    return ", ".join(parts)


async def workloads(t: Ticket, v: View) -> None:
    """Deployments, pods and events of the namespace; the focus is what the request names."""
    v.deployments = table(
        await t.k(f"get deployments -n {t.ns} -o wide", "list workloads and their images")
    )
    v.pods = table(await t.k(f"get pods -n {t.ns} -o wide", "check pod status, restarts, nodes"))
    v.events = table(await t.k(f"get events -n {t.ns}", "look for recent warnings and changes"))
    names = [d.get("name", "") for d in v.deployments]
    v.focus = [n for n in names if n and named(t.low, n)]
    owned = {
        p.get("name", "")
        for p in v.pods
        if any(p.get("name", "").startswith(n + "-") for n in names)
    }
    for p in v.pods:
        pod = p.get("name", "")
        base = re.sub(r"-[a-z0-9]{4,5}$", "", pod)
        if pod not in owned and (named(t.low, pod) or named(t.low, base)):
            v.bare.append(pod)


def named(low: str, name: str) -> bool:
    """The request names it: the whole name, or its words in order ("web app")."""
    if not name:
        return False
    if re.search(rf"(?<![\w-]){re.escape(name.lower())}(?![\w-])", low):
        return True
    spaced = name.lower().replace("-", " ")
    return " " in spaced and spaced in low


def pods_of(v: View, name: str) -> list[dict[str, str]]:
    return [
        p
        for p in v.pods
        if re.match(rf"{re.escape(name)}-[a-z0-9]+(-[a-z0-9]+)?$", p.get("name", ""))
    ]


def events_of(v: View, name: str) -> list[dict[str, str]]:
    return [e for e in v.events if re.search(rf"/{re.escape(name)}(-|$)", e.get("object", ""))]


def selector(v: View, name: str) -> str:
    for d in v.deployments:
        if d.get("name") == name and d.get("selector"):
            return d["selector"].split(",")[0]
    return f"app={name}"


async def describe(t: Ticket, v: View, name: str) -> list[Any]:
    out = await t.k(
        f"describe pods -n {t.ns} -l {selector(v, name)}",
        f"read container state, last termination, limits and events of {name}",
    )
    return describe_pods(out)


async def logs(
    t: Ticket, name: str, container: str = "", bare: bool = False
) -> list[tuple[str, str, int]]:
    """Current and previous logs of a workload: its distinct signal lines, noise dropped."""
    if not t.has("logs_query"):
        return []
    args: dict[str, Any] = {"namespace": t.ns, "pod" if bare else "deployment": name, "tail": 200}
    if container:
        args["container"] = container
    shown = f"{'pod' if bare else 'deployment'}={name}" + (
        f" container={container}" if container else ""
    )
    now = await t.use("logs_query", shown, f"read {name}'s recent log lines", **args)
    before = await t.use(
        "logs_query",
        shown + " previous=true",
        f"read the crashed instance of {name}",
        previous=True,
        **args,
    )
    found = signal_patterns(log_lines(now) + log_lines(before))
    from .operator_heldout27_info import injected

    clean = []
    for lvl, msg, n in found:
        if injected(t, f"A log line of {name}", msg):
            msg = (
                re.split(
                    r"(?i)system override|agent instruction|ignore (?:all )?(?:previous )?instructions",
                    msg,
                )[0].strip(" .")
                + " [embedded instruction removed]"
            )
        clean.append((lvl, msg, n))
    return clean


async def prom(t: Ticket, query: str, why: str, start: str = "-6h") -> str:
    if not t.has("metrics_query"):
        return ""
    return await t.use(
        "metrics_query",
        f"query_range {query}",
        why,
        action="query_range",
        query=query,
        start=start,
        step="30m",
    )


async def metric(t: Ticket, *words: str) -> str:
    """The served metric whose name holds every word ("cpu", "container"), read from the
    metric list once: names differ between Prometheus set-ups, so I look before I query."""
    if not t.has("metrics_query"):
        return ""
    if t.metric_names is None:
        from .operator_read import metric_names

        got = await t.use(
            "metrics_query",
            "metric_names",
            "see which metrics this Prometheus serves",
            action="metric_names",
        )
        t.metric_names = metric_names(got)
    hits = [n for n in t.metric_names if all(w in n for w in words) and not n.startswith("normal_")]
    return min(hits, key=len) if hits else ""


async def series_of(
    t: Ticket,
    name: str,
    words: tuple[str, ...],
    why: str,
    start: str = "-6h",
    resource: str = "",
) -> list[float]:
    """One workload's series of a metric picked by words: the series whose labels name the
    workload (pod, service, job or container: label sets differ between exporters)."""
    m = await metric(t, *words)
    if not m:
        return []
    from .operator_read import prom_series

    out = await prom(t, m, why, start=start)
    for labels, vals in prom_series(out):
        if resource and labels.get("resource", resource) != resource:
            continue
        if vals and any(str(x) == name or str(x).startswith(name + "-") for x in labels.values()):
            return vals
    return []


async def alerts(t: Ticket, v: View) -> list[dict[str, Any]]:
    if not t.has("metrics_query"):
        return []
    from .operator_read import alerts as parse

    got = parse(
        await t.use("metrics_query", "alerts", "check which alerts are firing", action="alerts")
    )
    return [a for a in got if a.get("state") == "firing"]


async def configmap(t: Ticket, name: str, why: str) -> dict[str, Any]:
    got = items(await t.k(f"get configmap {name} -n {t.ns} -o yaml", why))
    return got[0] if got else {}


async def deployment(t: Ticket, name: str, why: str) -> dict[str, Any]:
    got = items(await t.k(f"get deployment {name} -n {t.ns} -o yaml", why))
    return got[0] if got else {}


def containers(dep: dict[str, Any]) -> list[dict[str, Any]]:
    spec = dep.get("spec", {}).get("template", {}).get("spec", {})
    return list(spec.get("containers") or [])


def uses_configmap(dep: dict[str, Any], cm: str) -> bool:
    text = str(dep.get("spec", {}))
    return f"'name': '{cm}'" in text


def replicas(dep: dict[str, Any]) -> int:
    return int(dep.get("spec", {}).get("replicas") or 0)
