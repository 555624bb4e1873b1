"""heldout40's diagnosis of one workload (written blind, session 33): its spec, a pod's
describe, its events, logs (the crashed instance's and a failed init container's too), the
config map an event names, its own series beside their normal baselines, its rollout history
and a trace: each read shown with what it says, ending in one finding it will stand behind, or
none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import operator_read as rd
from .operator_heldout40_look import Ctx
from .operator_heldout40_term import Term, load


@dataclass
class Finding:
    kind: str = ""  # config_key, oom, init, pending_cpu, pool, tls, transient, rollout, unready
    cause: str = ""
    evidence: list[str] = field(default_factory=list)
    ruled_out: list[str] = field(default_factory=list)
    data: dict[str, str] = field(default_factory=dict)


#: log messages and what an operator makes of them (generic, not any scenario's wording)
LOG_SIGNS = (
    ("pool", r"pool (?:is )?exhausted|cannot get a connection|pool error"),
    ("tls", r"certificate (?:has )?expired|x509|handshake failed"),
    ("schema", r"column .* does not exist|relation .* does not exist|no such column"),
    ("transient", r"\(transient\)|connection refused"),
    ("reset", r"reset by peer|upstream connect error|connection reset"),
    ("code", r"exception|panic|nullpointer|segfault|traceback"),
)


def _limits(describe: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for part, key in (("Limits", "limit"), ("Requests", "request")):
        m = re.search(
            rf"^\s+{part}:\n((?:\s+(?:cpu|memory|ephemeral-storage):\s+\S+\n)+)", describe, re.M
        )
        for res, val in re.findall(
            r"(cpu|memory|ephemeral-storage):\s+(\S+)", m.group(1) if m else ""
        ):
            out[f"{res}_{key}"] = val
    return out


async def spec(term: Term, ctx: Ctx, w: str) -> dict[str, str]:
    """The Deployment: image, limits, requests, the config it reads."""
    text = await term.k(
        f"describe deployment {w} -n {ctx.ns}",
        f"read {w}'s spec: image, limits, what config it reads",
        keep=["Replicas:", "Image:", "memory:", "cpu:", "configmap", "Available", "Init"],
    )
    info = _limits(text)
    img = re.search(r"Image:\s+(\S+)", text)
    info["image"] = img.group(1) if img else ""
    refs = re.findall(r"<set to the key '([^']+)' of config map '([^']+)'>", text)
    refs += [
        (k, c)
        for c, k in re.findall(
            r"configMapKeyRef[^\n]*name[:=]\s*([\w.-]+)[^\n]*key[:=]\s*([\w.-]+)", text
        )
    ]
    if refs:
        info["config_refs"] = ";".join(f"{c}/{k}" for k, c in refs)
    said = [
        f"{k.replace('_', ' ')} {v}" for k, v in info.items() if k.endswith(("limit", "request"))
    ]
    if said or info["image"]:
        term.note(f"{w} runs {info['image']}" + (f", {', '.join(said)}" if said else ""))
    return info


def _worst(ctx: Ctx, w: str) -> str:
    pods = ctx.pods_of(w)
    bad = [p for p in pods if p.get("status") != "Running" or p.get("ready", "").startswith("0/")]
    return (bad or pods or [{"name": ""}])[0]["name"]


async def pod_state(term: Term, ctx: Ctx, w: str, f: Finding) -> rd.PodView | None:
    """The worst pod of the workload, described: container states, last state, events."""
    pod = _worst(ctx, w) if w in [d["name"] for d in ctx.deployments] else w
    if not pod:
        return None
    text = await term.k(
        f"describe pod {pod} -n {ctx.ns}",
        f"see why {pod} is not healthy: state, last state, exit code, events",
        keep=["Status:", "State:", "Reason:", "Exit Code:", "Restart Count:", "Warning", "Init"],
    )
    views = rd.describe_pods(text)
    view = views[0] if views else None
    if view is None:
        return None
    for c in view.containers:
        if c.last_reason == "OOMKilled" or c.reason == "OOMKilled" or c.exit_code == "137":
            f.kind = f.kind or "oom"
            f.data.update(
                container=c.name, restarts=str(c.restarts), limit=c.limits.get("memory", "")
            )
            term.note(
                f"container {c.name} was OOMKilled (exit code 137), restarted {c.restarts} times:"
                f" it runs out of memory at its {c.limits.get('memory', '?')} limit"
            )
        elif (
            c.init and (c.reason or c.last_reason) and "Completed" not in (c.reason, c.last_reason)
        ):
            f.kind = f.kind or "init"
            f.data.update(init=c.name, restarts=str(c.restarts))
            term.note(
                f"init container {c.name} is failing ({c.reason or c.last_reason},"
                f" exit code {c.exit_code or '?'}): the main container never starts"
            )
    missing = re.search(r"couldn't find key (\S+) in ConfigMap ([\w-]+)/([\w.-]+)", text)
    if missing:
        f.kind = "config_key"
        f.data.update(key=missing.group(1), cm=missing.group(3))
        term.note(
            f"kubelet cannot start the container: key {missing.group(1)} is missing"
            f" from ConfigMap {missing.group(3)}"
        )
    sched = re.search(r"FailedScheduling\s+.*?(\d+/\d+ nodes are available: [^.]*)", text)
    if view.status == "Pending" and sched:
        f.kind = f.kind or "pending"
        f.data["sched"] = sched.group(1)
        term.note(f'{pod} is Pending: the scheduler says "{sched.group(1)}"')
    if "Readiness probe failed" in text and not f.kind:
        f.data["unready"] = pod
        term.note(
            f"{pod} is Running but fails its readiness probe (HTTP 503), so it is out of"
            " the Service"
        )
    return view


async def events(term: Term, ctx: Ctx, w: str) -> str:
    text = await term.k(f"get events -n {ctx.ns}", f"events touching {w}", keep=[w])
    mine = [ln for ln in text.splitlines() if w in ln]
    term.note(f"{len(mine)} event line(s) for {w}" + ("" if mine else "; nothing recent"))
    return text


async def logs(
    term: Term, ctx: Ctx, w: str, f: Finding, previous: bool = False, pod: bool = False
) -> list[str]:
    """Its logs, noise (DEBUG, health checks) set aside; the error lines it repeats."""
    args: dict[str, object] = {
        "namespace": ctx.ns,
        ("pod" if pod else "deployment"): w,
        "tail": 100,
    }
    if previous:
        args["previous"] = True
    what = "the crashed instance's logs" if previous else "its logs"
    text = await term.run(
        "logs_query", f"{what}: what {w} says before it fails", ["ERROR", "WARN", "FATAL"], **args
    )
    lines = rd.log_lines(text)
    pats = rd.signal_patterns(lines)
    noise = sum(1 for ln in lines if not ln.signal)
    found = []
    for _lvl, msg, n in pats[:3]:
        found.append(msg)
        for kind, pat in LOG_SIGNS:
            if re.search(pat, msg, re.I) and not f.data.get("log_kind"):
                f.data["log_kind"], f.data["log_msg"] = kind, msg
        term.note(f"{n}x: {msg}")
    if pats:
        term.note(f"{noise} other line(s) are routine (health checks, debug): noise")
    elif lines:
        term.note("no error or warning lines, only routine ones")
    return found


async def series(term: Term, ctx: Ctx, w: str) -> dict[str, float]:
    """The workload's own recorded series, with any normal_ baseline beside it."""
    text = await term.run(
        "metrics_query",
        f"{w}'s own metrics and their normal baselines",
        ["__name__", "value"],
        action="query",
        query=f'{{service="{w}"}}',
    )
    doc = load(text)
    out: dict[str, float] = {}
    for metric, vals in rd.prom_series(text) if doc else []:
        if vals:
            out[metric.get("__name__", "")] = vals[-1]
    term.steps[-1].shown = [f"{k} = {v:g}" for k, v in out.items()] or ["(no series)"]
    for name, value in out.items():
        if name.startswith("normal_") or f"normal_{name}" not in out:
            continue
        base = out[f"normal_{name}"]
        ratio = value / base if base else 0
        term.note(
            f"{name} of {w} is {_num(name, value)} against a normal {_num(name, base)}"
            f" ({ratio:.0f}x its baseline)"
        )
    return out


def _num(name: str, v: float) -> str:
    if "rate" in name and v <= 1:
        return f"{v * 100:g}%"
    return f"{v:g}ms" if name.endswith("_ms") else f"{v:g}"


async def rollout(term: Term, ctx: Ctx, w: str) -> dict[str, str]:
    """Its replica sets: a new one minutes old beside an older image is a recent deploy."""
    text = await term.k(f"get rs -n {ctx.ns} -o wide", f"{w}'s rollout history", keep=[w])
    rows = [r for r in rd.table(text) if r.get("name", "").startswith(w + "-")]
    rows.sort(key=lambda r: rd.age_minutes(r.get("age", "")) or 1e9)
    if len(rows) < 2:
        term.note(f"{w} has one replica set: no recent rollout")
        return {}
    new, old = rows[0], rows[1]
    age = rd.age_minutes(new.get("age", "")) or 0
    info = {"new": new.get("images", ""), "old": old.get("images", ""), "age": new.get("age", "")}
    if age <= 60 and new.get("images") != old.get("images"):
        info["recent"] = "yes"
        term.note(
            f"{w} was rolled out {new.get('age')} ago: {old.get('images')} ->"
            f" {new.get('images')} (the old replica set {old.get('name')} is scaled to 0)"
        )
    else:
        term.note(f"latest rollout of {w} is {new.get('age')} old")
    return info


async def trace(term: Term, ctx: Ctx, w: str, f: Finding) -> None:
    """The slowest trace through the workload, followed to the span holding the time."""
    text = await term.run(
        "traces_query",
        f"where {w}'s requests spend their time",
        ["traceID", "duration"],
        action="search",
        service=w,
        limit=5,
    )
    doc = load(text) or {}
    hits = doc.get("data") or []
    if not hits:
        term.note(f"no traces for {w}")
        return
    tid = max(hits, key=lambda h: float(str(h.get("duration", "0")).rstrip("ms") or 0))["traceID"]
    tree = await term.run("traces_query", "open the slowest one", None, action="get", trace_id=tid)
    spans = rd.trace_tree(tree)
    path, slow = rd.bottleneck(spans)
    if slow:
        f.data.update(
            span=slow.operation,
            span_ms=f"{slow.ms:g}",
            span_svc=slow.service,
            span_attrs=slow.attrs,
        )
        term.note(" -> ".join(f"{s.service} {s.operation} {s.ms:g}ms" for s in path))
        term.note(
            f'the time is in {slow.service} span "{slow.operation}" ({slow.ms:g}ms'
            + (f", {slow.attrs}" if slow.attrs else "")
            + ")"
        )
