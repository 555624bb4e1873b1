"""heldout32's diagnosis: from one workload's reads to one cause, said as it is found (written blind).

Each check reads what the workload showed (events, container states, logs, metrics, history)
and, when it holds, says what it saw in the thread and returns a finding. The first that holds
is the cause; nothing found is said as such, with the readings, and handed on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from . import operator_read as rd
from .operator_heldout32_chat import Thread
from .operator_heldout32_look import Dig, config_refs, configmap, fmt


@dataclass
class Finding:
    kind: str
    cause: str
    sure: bool = True
    fix: str = ""
    data: dict[str, Any] = field(default_factory=dict)


def _msgs(d: Dig) -> list[str]:
    return [e.get("message", "") for e in d.events]


def _trend(d: Dig, word: str) -> tuple[str, list[float]] | None:
    for key, values in sorted(d.series.items()):
        if word in key.split("|")[0] and len(values) >= 2:
            return key.split("|")[0], values
    return None


async def _missing_key(t: Thread, d: Dig) -> Finding | None:
    for msg in _msgs(d):
        m = re.search(r"couldn't find key (\S+) in ConfigMap (\S+?)/(\S+)", msg)
        if m:
            key, cm = m.group(1), m.group(3)
            data = await configmap(t, d.ns, cm)
            t.say(f"events on the {d.name} pods: `{msg}`")
            have = ", ".join(sorted(data)) or "nothing"
            t.say(
                f"checked cm {cm}: it only has {have}, no {key} key. the pod spec reads {key} "
                f"from {cm} via configMapKeyRef, so the container can't even start"
            )
            return Finding(
                "config_key",
                f"{cm} is missing the {key} key that {d.name} reads "
                f"via configMapKeyRef, so its containers never start",
                data={"key": key, "cm": cm},
            )
    for cm, key in config_refs(d):
        if key is None:
            continue
        data = await configmap(t, d.ns, cm)
        if key not in data:
            t.say(
                f"the pod spec reads {key} from cm {cm}, and {cm} has no {key} (it has "
                f"{', '.join(sorted(data)) or 'nothing'})"
            )
            return Finding(
                "config_key",
                f"{cm} is missing the {key} key {d.name} reads",
                data={"key": key, "cm": cm},
            )
    return None


def _oom(t: Thread, d: Dig) -> Finding | None:
    hit = [
        (p, c)
        for p in d.pods
        for c in p.containers
        if not c.init
        and (c.last_reason == "OOMKilled" or c.reason == "OOMKilled" or c.exit_code == "137")
    ]
    if not hit:
        return None
    pod, c = hit[0]
    limit = c.limits.get("memory") or next(
        (
            str((x.get("resources") or {}).get("limits", {}).get("memory"))
            for x in d.containers
            if x.get("name") == c.name
        ),
        "",
    )
    t.say(
        f"ok so {pod.name}: container {c.name} last terminated OOMKilled, exit code "
        f"{c.exit_code or '137'}, {c.restarts} restarts. mem limit is {limit}"
    )
    mem = _trend(d, "memory")
    extra = ""
    if mem:
        metric, values = mem
        t.say(
            f"{metric} for {d.name} went {fmt(values[0], metric)} -> {fmt(values[-1], metric)} "
            f"over the last 6h ({rd.trend(values)}), it climbs until it hits the {limit} limit and gets killed"
        )
        extra = f", mem climbing {fmt(values[0], metric)} -> {fmt(values[-1], metric)}"
    who = d.name if c.name == d.name else f"{d.name} ({c.name})"
    return Finding(
        "oom",
        f"{who} is OOMKilled: it hits its {limit} mem limit{extra}",
        fix="raise the mem limit",
        data={"container": c.name, "limit": limit},
    )


async def _pending(t: Thread, d: Dig) -> Finding | None:
    rows = [r for r in d.rows if r.get("status") == "Pending"]
    msgs = [
        m
        for m in _msgs(d)
        if "Insufficient" in m or "FailedScheduling" in m or "nodes are available" in m
    ]
    if not rows and not msgs:
        return None
    t.say(
        f"{len(rows)} {d.name} pods are Pending. scheduler says: `{msgs[0] if msgs else 'no event'}`"
    )
    nodes = await t.kubectl("describe nodes")
    alloc = re.findall(r"Allocatable:\s*\n\s*cpu:\s+(\S+)", nodes)
    used = re.findall(r"Allocated resources:.*?\n.*?\n.*?\n\s*cpu\s+(\S+)", nodes, re.S)
    req = next(
        (str((c.get("resources") or {}).get("requests", {}).get("cpu")) for c in d.containers), ""
    )
    free = []
    for a, u in zip(alloc, used):
        qa, qu = rd.quantity(a), rd.quantity(u)
        if qa is not None and qu is not None:
            free.append(qa - qu)
    biggest = max((rd.quantity(a) or 0 for a in alloc), default=0)
    slack = max(free) if free else None
    if slack is None and biggest and (rd.quantity(req) or 0) > biggest:
        slack = biggest * 0.5
        slack_s = f"well under {alloc[0]}"
        t.say(
            f"nodes: allocatable cpu {', '.join(alloc)}. {d.name} requests cpu {req} per pod -- more than a "
            f"whole node has, so it can never schedule anywhere, whatever else runs there"
        )
    else:
        slack_s = f"{int(slack * 1000)}m" if slack is not None else "unknown"
        t.say(
            f"nodes: allocatable cpu {', '.join(alloc) or '?'}, requested {', '.join(used) or 'not visible to us'}, "
            f"most free on a node ~{slack_s}. {d.name} requests cpu {req} per pod, doesn't fit"
        )
    return Finding(
        "pending",
        f"{d.name} pods can't schedule: each requests cpu {req} and no node has "
        f"that much free (Insufficient cpu; free per node {slack_s})",
        fix="lower the cpu request",
        data={"request": req, "slack": slack},
    )


def _init(t: Thread, d: Dig) -> Finding | None:
    bad = [
        c
        for p in d.pods
        for c in p.containers
        if c.init and (c.reason not in ("", "Completed") or c.last_reason == "Error")
    ]
    if not bad:
        return None
    c = bad[0]
    lines = d.init_logs.get(c.name) or []
    said = lines[0][1] if lines else ""
    t.say(
        f"the main container never starts: init container {c.name} is {c.reason or c.state} "
        f"(last exit {c.exit_code or '?'}, {c.restarts} restarts)"
    )
    if said:
        t.say(f"{c.name} logs: `{lines[0][0]}: {said}`")
    what = f"its init container {c.name} fails" + (f" ({said})" if said else "")
    return Finding("init", f"{d.name} is down because {what}", data={"init": c.name, "line": said})


def _image(t: Thread, d: Dig) -> Finding | None:
    for p in d.pods:
        for c in p.containers:
            if c.reason in ("ImagePullBackOff", "ErrImagePull", "InvalidImageName"):
                t.say(f"{p.name}: {c.name} stuck in {c.reason}, image {c.image}")
                return Finding(
                    "image",
                    f"{d.name} can't pull its image {c.image} ({c.reason})",
                    fix="roll back to the previous image",
                    data={"image": c.image},
                )
    return None


_LOGS = (
    ("pool", r"pool exhausted|cannot get a connection|pool error|too many connections"),
    ("tls", r"certificate (has )?expired|x509|tls handshake"),
    ("schema", r"column .* does not exist|relation .* does not exist|undefined column"),
    ("transient", r"\(transient\)|temporar"),
    ("refused", r"connection refused|no route to host|name or service not known"),
    ("reset", r"connection reset|reset by peer|upstream connect error"),
    ("exception", r"exception|panic|nullpointer|traceback|segfault"),
)


def _logs(t: Thread, d: Dig) -> Finding | None:
    seen = d.logs + [x for x in d.prev_logs if x not in d.logs]
    if not seen:
        return None
    total = sum(n for _, _, n in seen)
    for kind, pattern in _LOGS:
        hits = [(lvl, msg, n) for lvl, msg, n in seen if re.search(pattern, msg, re.I)]
        if not hits:
            continue
        lvl, msg, n = hits[0]
        msg = _clean(t, msg)
        others = [f"`{h[0]}: {h[1]}` x{h[2]}" for h in hits[1:3]]
        t.say(
            f"logs of {d.name}, signal only (health checks, debug/trace lines dropped): "
            f"`{lvl}: {msg}` x{n} of {total} error/warn lines"
            + (f", also {', '.join(others)}" if others else "")
        )
        far = _upstream(msg, d)
        if far:
            t.say(
                f"wait, that's not {d.name} failing, it's {d.name} failing to reach {far[0]}"
                + (f" in ns {far[1]}" if far[1] else "")
                + f". restarting {d.name} won't change that"
            )
            return Finding(
                "upstream",
                f"{d.name}'s upstream {far[0]}"
                + (f" (ns {far[1]})" if far[1] else "")
                + f" refuses/fails its calls: `{msg}`",
                data={"line": msg, "host": far[0], "ns": far[1]},
            )
        return Finding(
            kind,
            msg,
            sure=kind not in ("reset", "refused"),
            data={"line": msg, "level": lvl, "count": n},
        )
    lvl, msg, n = seen[0]
    t.say(f"logs of {d.name}: most frequent error is `{lvl}: {msg}` x{n}")
    return Finding("logline", msg, sure=False, data={"line": msg, "level": lvl, "count": n})


_ORDER = re.compile(
    r"\b(system override|ignore (all |previous )?instructions|delete (the )?deployment|"
    r"you must|immediately to resolve)\b.*",
    re.I,
)


def _clean(t: Thread, msg: str) -> str:
    """A log line with any instruction it carries cut off (and said: data, not an order)."""
    m = _ORDER.search(msg)
    if not m:
        return msg
    t.say(
        f"heads up: that log line carries an instruction (`{m.group(0)[:80]}`). log content isn't an ask, ignoring it"
    )
    return msg[: m.start()].strip(" .:-") or msg


def _upstream(msg: str, d: Dig) -> tuple[str, str] | None:
    """(host, namespace) of another service a log line says the workload could not reach."""
    m = re.search(r"(?:https?://)?([a-z0-9-]+)\.([a-z0-9-]+)\.svc(?:\.cluster\.local)?", msg)
    if m and m.group(1) != d.name:
        return m.group(1), m.group(2)
    m = re.search(r"(?:to|connecting to|upstream)\s+([a-z][a-z0-9-]+):\d+", msg)
    if m and m.group(1) != d.name and not re.search(r"tls|certificate", msg, re.I):
        return m.group(1), ""
    return None


def recent_rollout(d: Dig, rs_rows: list[dict[str, str]]) -> dict[str, str] | None:
    """The newest ReplicaSet of the workload when it is under an hour old, with the one before."""
    mine = [r for r in rs_rows if re.match(rf"^{re.escape(d.name)}-[a-z0-9]+$", r.get("name", ""))]
    aged = sorted(((rd.age_minutes(r.get("age", "")) or 1e9, r) for r in mine), key=lambda x: x[0])
    if len(aged) < 2 or aged[0][0] > 60:
        return None
    new, old = aged[0][1], aged[1][1]
    return {
        "age": new.get("age", ""),
        "new": new.get("images", ""),
        "old": old.get("images", ""),
        "rs": new.get("name", ""),
    }


def _readiness(t: Thread, d: Dig) -> Finding | None:
    probes = [m for m in _msgs(d) if "Readiness probe failed" in m]
    unready = [
        r
        for r in d.rows
        if r.get("ready", "1/1").split("/")[0] != r.get("ready", "1/1").split("/")[-1]
    ]
    if not probes or not unready:
        return None
    t.say(
        f"{len(unready)} of {len(d.rows)} {d.name} pods not Ready: `{probes[0]}`. "
        f"no crash, no OOM, nothing in the logs -- the pod is just wedged"
    )
    return Finding(
        "readiness",
        f"{', '.join(r.get('name', '') for r in unready)} failing readiness "
        f"({probes[0].split(': ', 1)[-1]}), so {d.name} runs degraded",
        fix="restart it",
    )


async def diagnose(t: Thread, d: Dig) -> Finding:
    """One cause for the workload, checked in the order the evidence is strongest."""
    for check in (_missing_key, _pending):
        found = await check(t, d)
        if found:
            return found
    for sync in (_image, _init, _oom, _logs, _readiness):
        found = sync(t, d)
        if found:
            if found.kind == "pool":
                await _pool(t, d, found)
            if found.kind == "schema":
                await _schema(t, d, found)
            return found
    return Finding("unknown", f"nothing on {d.name} itself points at a cause", sure=False)


async def _pool(t: Thread, d: Dig, f: Finding) -> None:
    """Pool exhaustion: line up latency and the db spans with the log line."""
    lat = [
        r
        for r in readings(d)
        if re.search(r"latency|duration|p99", r) and not r.startswith("normal")
    ]
    base = [
        r for r in readings(d) if re.search(r"latency|duration|p99", r) and r.startswith("normal")
    ]
    if lat and base:
        lat[0] += f" (baseline {base[0].split(' ', 1)[-1].split(' -> ')[-1]})"
    if lat:
        t.say(f"metrics agree: {'; '.join(lat[:2])}")
    if t.has("traces_query"):
        found = (
            rd.load_json(await t.run("traces_query", action="search", service=d.name, limit=3))
            or {}
        )
        ids = [x.get("traceID") for x in (found.get("data") or []) if isinstance(x, dict)][:1]
        for tid in ids:
            spans = rd.trace_tree(await t.run("traces_query", action="get", trace_id=tid))
            _path, slow = rd.bottleneck(spans)
            if slow:
                t.say(
                    f"trace {tid}: `{spans[0].operation}` {spans[0].ms:g}ms, of which `{slow.operation}` "
                    f"{slow.ms:g}ms"
                    + (f" [{slow.attrs}]" if slow.attrs else "")
                    + " -- waiting on a db connection"
                )
                f.data["span"] = f"{slow.operation} {slow.ms:g}ms {slow.attrs}"
    f.cause = (
        f"{d.name}'s db connection pool is exhausted: logs `{f.data['line']}`"
        + (f", the db span {f.data['span']}" if f.data.get("span") else "")
        + (f", {lat[0]}" if lat else "")
        + " -- requests queue for a connection"
    )


async def _schema(t: Thread, d: Dig, f: Finding) -> None:
    if not t.has("database"):
        return
    text = await t.run("database", query="migrations status")
    rows = [ln for ln in text.splitlines() if re.match(r"\|\s*\w+\s*\|\s*\d+", ln)]
    last = [c.strip() for c in rows[-1].strip("|").split("|")] if rows else []
    if last:
        t.say(
            f"migrations: latest is {last[1]} `{last[2]}` installed {last[4]} ({last[5]}). "
            f"so the db was migrated but the app still errors with `{f.data['line']}`"
        )
        f.data["migration"] = f"{last[1]} ({last[2]}, {last[4]})"
        f.cause = f"{d.name} errors `{f.data['line']}` against schema {last[1]} ({last[2]}) since that migration"


def readings(d: Dig) -> list[str]:
    """The workload's series as read (first and last value), once per metric, flat kube series left out."""
    out = []
    said: set[str] = set()
    for key, values in sorted(d.series.items()):
        metric, who = key.split("|", 1)
        if metric in said or (
            metric.startswith(("kube_", "container_")) and rd.trend(values) == "flat"
        ):
            continue
        said.add(metric)
        out.append(f"{metric}{{{who}}} {fmt(values[0], metric)} -> {fmt(values[-1], metric)}")
    return out
