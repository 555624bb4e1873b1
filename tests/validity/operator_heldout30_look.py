"""heldout30's investigation (issue 27 item 6, written blind): find what the ask is about
(the workload, pod, ingress or service it names), then read what that points at: pods, events,
describe, logs (previous and init containers too), referenced ConfigMaps, its metrics, traces,
migrations and rollout history. Generic: every read is decided by the task and by what came
back, never by a scenario."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from . import operator_read as rd
from .operator_heldout30_shift import Shift, ago, containers, dig, labels, name_of, prompt_names

APP_METRICS = ("error_rate", "latency", "p99", "memory", "connections", "requests")


@dataclass
class Seen:
    """What the investigation read, by kind."""

    deployments: list[dict[str, Any]] = field(default_factory=list)
    pods: list[dict[str, str]] = field(default_factory=list)
    subject: list[str] = field(default_factory=list)
    path: list[str] = field(default_factory=list)  # ingress -> svc hops on the way in
    events: list[dict[str, str]] = field(default_factory=list)
    described: list[rd.PodView] = field(default_factory=list)
    logs: dict[str, str] = field(default_factory=dict)
    series: dict[str, list[tuple[dict[str, str], list[float]]]] = field(default_factory=dict)
    stamps: dict[str, list[float]] = field(default_factory=dict)
    configmaps: dict[str, dict[str, str]] = field(default_factory=dict)
    namespace: dict[str, Any] = field(default_factory=dict)
    alerts: list[dict[str, Any]] = field(default_factory=list)
    text: str = ""

    def dep(self, name: str) -> dict[str, Any]:
        return next((d for d in self.deployments if name_of(d) == name), {})

    def pods_of(self, name: str) -> list[dict[str, str]]:
        return [p for p in self.pods if p.get("name", "").startswith(name + "-")]


async def survey(sh: Shift, cue: str = "your ask") -> Seen:
    seen = Seen()
    ns = sh.ns
    seen.deployments = await sh.objects(
        "deploy", "list the deploys in the ns to find the one the ask is about", cue
    )
    seen.pods = rd.table(
        await sh.k(f"get po -n {ns} -o wide", "pod status, restarts, node at a glance", cue)
    )
    names = [name_of(d) for d in seen.deployments]
    seen.subject = prompt_names(sh.prompt, names)
    if not seen.subject:
        pods = prompt_names(sh.prompt, [p.get("name", "") for p in seen.pods])
        seen.subject = sorted({n for n in names for p in pods if p.startswith(n + "-")}) or pods
    if not seen.subject:
        await _from_entry_points(sh, seen, names, cue)
    seen.events = rd.table(
        await sh.k(f"get events -n {ns} --sort-by=.lastTimestamp", "recent events in the ns", cue)
    )
    return seen


async def _from_entry_points(sh: Shift, seen: Seen, names: list[str], cue: str) -> None:
    """The ask names an ingress or service, not a deploy: follow it to the pods behind it."""
    ings = await sh.objects("ingress", "the ask names an entry point; find which ingress", cue)
    words = set(re.findall(r"[a-z0-9-]+", sh.prompt.lower()))
    backends: list[str] = []
    code = re.search(r"\b(5\d\d)\b", sh.prompt)
    for ing in ings:
        if name_of(ing).lower() in words:
            seen.path.append(
                f"ing/{name_of(ing)} (answering {code.group(1) if code else 'errors'})"
            )
            for rule in dig(ing, "spec", "rules") or []:
                for p in dig(rule, "http", "paths") or []:
                    svc = dig(p, "backend", "service", "name")
                    if svc and svc not in backends:
                        backends.append(str(svc))
    if seen.path and sh.has("logs_query"):
        proxy = await sh.call(
            "logs_query",
            "what the proxies in front (ingress controller, mesh sidecar) say about the upstream",
            cue,
            query=f'{{namespace="{sh.ns}"}} |~ "upstream|no healthy|connection failure|503"',
        )
        for line in proxy.splitlines():
            m = re.search(r'source="([^"]+)"\}\s*(.*)', line)
            if m and f"{m.group(1)}:" not in " ".join(seen.path):
                seen.path.append(f'{m.group(1)}: "{m.group(2)[:90]}"')
    svcs = await sh.objects("svc", "which svc the entry point sends to and what it selects", cue)
    for svc in svcs:
        if name_of(svc) in backends or name_of(svc).lower() in words:
            seen.path.append(f"svc/{name_of(svc)}")
            svc_at = len(seen.path) - 1
            sel = dig(svc, "spec", "selector") or {}
            for dep in seen.deployments:
                tpl = labels({"metadata": dig(dep, "spec", "template", "metadata") or {}})
                if sel and all(tpl.get(k) == v for k, v in sel.items()):
                    seen.subject.append(name_of(dep))
            ep = await sh.k(
                f"get endpoints {name_of(svc)} -n {sh.ns}",
                "does the svc have ready endpoints behind it",
                cue,
            )
            seen.text += ep + "\n"
            if "<none>" in ep:
                seen.path[svc_at] += " (no endpoints)"


async def dig_into(sh: Shift, seen: Seen, cue: str = "your ask") -> None:
    """Describe, logs (current, previous, init), referenced ConfigMaps, for each subject deploy."""
    for name in seen.subject:
        pods = seen.pods_of(name) or [p for p in seen.pods if p.get("name") == name]
        for pod in pods[:2]:
            out = await sh.k(
                f"describe po {pod['name']} -n {sh.ns}",
                f"container state, last state, limits and events of {name}",
                cue,
            )
            seen.described += rd.describe_pods(out)
        await _logs(sh, seen, name, pods, cue)
        await _configmaps(sh, seen, name, cue)


def _restarts(pod: dict[str, str]) -> int:
    first = (pod.get("restarts") or "0").split()[0]
    return int(first) if first.isdigit() else 0


async def _logs(sh: Shift, seen: Seen, name: str, pods: list[dict[str, str]], cue: str) -> None:
    restarted = any(_restarts(p) > 0 for p in pods)
    if sh.has("logs_query"):
        who = {"deployment": name} if seen.dep(name) else {"pod": name}
        seen.logs[name] = await sh.call(
            "logs_query", f"what {name} itself is logging", cue, namespace=sh.ns, tail=200, **who
        )
        if restarted:
            seen.logs[name + " (previous)"] = await sh.call(
                "logs_query",
                f"{name} restarted: what the crashed container printed before it died",
                cue,
                namespace=sh.ns,
                previous=True,
                tail=200,
                **who,
            )
    elif pods:
        seen.logs[name] = await sh.k(
            f"logs {pods[0]['name']} -n {sh.ns} --tail=200", f"what {name} is logging", cue
        )
    for view in seen.described:
        if not view.name.startswith(name):
            continue
        for c in view.containers:
            if c.init and (c.reason or c.last_reason) not in ("", "Completed"):
                seen.logs[f"{name} init {c.name}"] = await sh.k(
                    f"logs {view.name} -c {c.name} -n {sh.ns}",
                    f"init container {c.name} is failing: read its output",
                    cue,
                )
        break


def cm_refs(dep: dict[str, Any]) -> list[str]:
    """ConfigMaps the Deployment reads: env keys, envFrom and volumes."""
    refs: set[str] = set()
    for c in containers(dep) + containers(dep, init=True):
        for env in c.get("env") or []:
            ref = dig(env, "valueFrom", "configMapKeyRef", "name")
            if ref:
                refs.add(str(ref))
        for env in c.get("envFrom") or []:
            ref = dig(env, "configMapRef", "name")
            if ref:
                refs.add(str(ref))
    for vol in dig(dep, "spec", "template", "spec", "volumes") or []:
        ref = dig(vol, "configMap", "name")
        if ref:
            refs.add(str(ref))
    return sorted(refs)


async def _configmaps(sh: Shift, seen: Seen, name: str, cue: str) -> None:
    for ref in cm_refs(seen.dep(name)):
        if ref in seen.configmaps:
            continue
        got = rd.items(
            await sh.k(
                f"get cm {ref} -n {sh.ns} -o yaml", f"{name} reads cm/{ref}: check its keys", cue
            )
        )
        data = got[0].get("data") if got else None
        seen.configmaps[ref] = {str(k): str(v) for k, v in (data or {}).items()}


async def metrics(sh: Shift, seen: Seen, cue: str = "your ask", window: str = "-6h") -> None:
    """The subject's own app series (error rate, latency, memory ...) over the window."""
    if not sh.has("metrics_query"):
        return
    names = rd.metric_names(
        await sh.call("metrics_query", "which series exist for this ns", cue, action="metric_names")
    )
    wanted = [
        n
        for n in names
        if not n.startswith(("kube_", "instance:")) and any(w in n for w in APP_METRICS)
    ]
    for name in seen.subject:
        for metric in wanted:
            out = await sh.call(
                "metrics_query",
                f"{metric} for {name} over the last {window.strip('-')}",
                cue,
                action="query_range",
                query=f'{metric}{{service="{name}"}}',
                start=window,
            )
            got = rd.prom_series(out)
            if not got and "memory" in metric:
                got = await pod_memory(sh, name, window, cue)
            if got:
                seen.series[f"{name}:{metric}"] = got
                seen.stamps[f"{name}:{metric}"] = stamps(out)


async def pod_memory(sh: Shift, name: str, window: str, cue: str) -> list:  # type: ignore[type-arg]
    """cAdvisor's series are per container of a pod: ask by pod name when no service label has it."""
    out = await sh.call(
        "metrics_query",
        f"no memory series labelled service={name}: ask cAdvisor's per-pod series instead",
        cue,
        action="query_range",
        query=f'container_memory_working_set_bytes{{namespace="{sh.ns}", pod=~"{name}-.*"}}',
        start=window,
    )
    return rd.prom_series(out)


def stamps(text: str) -> list[float]:
    """The sample times of a range answer's first series."""
    doc = rd.load_json(text)
    result = (doc or {}).get("data", {}).get("result", []) if isinstance(doc, dict) else []
    try:
        return [float(v[0]) for v in result[0].get("values", [])] if result else []
    except (TypeError, ValueError, IndexError, AttributeError):
        return []


def span(times: list[float]) -> str:
    """How long ago the first sample was, as handover shorthand."""
    return ago((times[-1] - times[0]) / 60) if len(times) > 1 else "earlier"


def rise(values: list[float], times: list[float]) -> str:
    """When a series left its floor (~20m ago), from the sample times."""
    if len(values) < 3 or len(times) != len(values) or values[0] <= 0 or values[-1] < values[0] * 3:
        return ""
    idx = next(i for i, v in enumerate(values) if v >= values[0] * 3)
    return ago((times[-1] - times[idx]) / 60)


async def alerts(sh: Shift, seen: Seen, cue: str = "your ask") -> None:
    if sh.has("metrics_query"):
        seen.alerts = rd.alerts(
            await sh.call("metrics_query", "anything firing right now", cue, action="alerts")
        )


def trend_words(values: list[float]) -> str:
    kind = rd.trend(values)
    return {"rising": "climbing steadily", "falling": "dropping"}.get(kind, "flat")


def fmt(metric: str, value: float) -> str:
    if "bytes" in metric or "memory" in metric:
        return rd.mib(value)
    if "rate" in metric and value <= 1:
        return f"{value * 100:.1f}%"
    if "latency" in metric or "_ms" in metric:
        return f"{value:.0f}ms"
    return f"{value:g}"
