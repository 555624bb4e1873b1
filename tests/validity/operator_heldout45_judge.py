"""heldout45's judgement (session 37, written blind): from what was read to a cause, or to
"I don't know yet".

Each candidate a junior would reach for is either confirmed by a read or taken apart by one
("you might think ..., but ..."); when no candidate is confirmed it says so and escalates with
what is known. A fix is made only when the request asks for one, the cause is confirmed and
the scope allows writes (:mod:`operator_heldout45_do`).
"""

from __future__ import annotations

import re

from .operator_heldout45 import Desk
from .operator_heldout45_look import Facts, containers
from .operator_read import age_minutes, quantity, trend

_FIX = re.compile(r"\b(fix|handle|resolve|repair|sort (it|this) out|mitigate)\b", re.I)


def wants_fix(desk: Desk) -> bool:
    return bool(_FIX.search(desk.lesson.ask))


def may_write(desk: Desk) -> bool:
    """Writes allowed here: not a read-only zone and no approval asked for writes."""
    ro = any("readonly" in z.replace("-", "") for z in desk.zones)
    return not ro and not any("write" in a for a in desk.approval)


def _oom(f: Facts) -> tuple[str, str, str]:
    """(container, limit, exit code) of an OOM kill, else empty."""
    for pod in f.described:
        for c in pod.containers:
            if "OOM" in (c.last_reason or "") or "OOM" in (c.reason or ""):
                return c.name, c.limits.get("memory", ""), c.exit_code or "137"
    return "", "", ""


def _init_fail(f: Facts) -> str:
    for pod in f.described:
        for c in pod.containers:
            if c.init and (
                c.last_reason in ("Error", "CrashLoopBackOff")
                or "Error" in c.reason
                or c.exit_code not in ("", "0")
            ):
                return c.name
    return ""


def _log_says(f: Facts, *words: str) -> list[tuple[str, str, int]]:
    return [p for p in f.logs if any(w in p[1].lower() for w in words)]


async def judge(desk: Desk, f: Facts) -> None:
    """Settle on a cause (or on not knowing) and do what the request asks about it."""
    from . import operator_heldout45_fix as do

    L = desk.lesson
    oom = _oom(f)
    init = _init_fail(f)
    crashing = any(c.restarts or c.last_reason for p in f.described for c in p.containers)
    _cpu_herring(desk, f, oom)
    if f.missing:
        cm, key = f.missing[0]
        L.cause = f"the pod asks for key {key} from config map {cm}, and {cm} does not have it"
        L.evidence.append(
            f"the deployment spec references {cm}/{key}; the config map read shows keys {', '.join(f.configs.get(cm, {})) or 'none'}, no {key}"
        )
        L.evidence += [f'the container log says: "{m[:140]}" ({n}x)' for _, m, n in f.logs[:1]]
        _not_oom(desk, f, oom)
        L.not_done.append(
            f"I did not invent a value for {key}: the right value is the owning team's to supply. Once {cm} has it, the pods will start on their next restart."
        )
    elif oom[0]:
        await _judge_oom(desk, f, oom)
    elif init:
        msg = f.init_logs[0][1] if f.init_logs else "it exited non-zero"
        L.cause = f'the init container {init} fails ("{msg[:160]}"), so the main container never starts and the service has no ready endpoints'
        L.evidence.append(
            f'describe shows init container {init} terminated with an error; its own log says "{msg[:160]}"'
        )
        L.tempting.append(
            (
                "the proxy or the ingress is broken, because that's where the 503 shows up",
                "they are only reporting it: the proxy's \"connection refused\" is the backend not listening, and the backend isn't listening because its init container never finished.",
            )
        )
        L.not_done.append(
            "I did not restart anything: a restart reruns the same failing step. The failed migration needs its owner to fix it before the pod can come up."
        )
    elif _log_says(f, "pool", "connection limit", "too many connections"):
        pats = _log_says(f, "pool", "too many connections", "connection limit")
        L.cause = "the database connection pool is exhausted: requests queue for a connection, so latency climbs and some time out"
        L.evidence += [f'the logs: "{m[:150]}" ({n}x)' for _, m, n in pats[:2]]
        _span_evidence(desk, f)
        _latency_evidence(desk, f)
        L.tempting.append(
            (
                "the database itself is slow",
                "the slow part in the trace is waiting for a connection from the pool, and the pool is at its maximum; the queries themselves aren't the problem.",
            )
        )
    elif _log_says(f, "certificate", "x509", "tls handshake"):
        pats = _log_says(f, "certificate", "x509", "tls")
        L.cause = f'TLS handshakes to an upstream fail because its certificate has expired: "{pats[0][1][:160]}"'
        L.evidence += [f'{n}x "{m[:150]}"' for _, m, n in pats[:2]]
        L.evidence.append(
            f"{f.noise[0]} of {f.noise[1]} log lines were health checks and debug noise; the TLS failure is the one pattern that repeats"
        )
        L.tempting.append(
            (
                "the gateway pod itself is unhealthy",
                "it is Running with no restarts; the failures are on its outbound calls, every one a TLS handshake error.",
            )
        )
        L.not_done.append(
            "Renewing the upstream certificate is for whoever owns that upstream; I told them below."
        )
        L.told.append(
            f"the owner of the upstream named in the error, with the count: {pats[0][2]} handshake failures in the last {f.noise[1]} lines"
        )
    elif f.migrations and (
        re.search(r"migrat", desk.lesson.ask, re.I) or _log_says(f, "column", "relation", "schema")
    ):
        await do.migration(desk, f)
    elif await _rollout_timing(desk, f):
        pass
    elif _pending(f):
        await do.unpend(desk, f)
    elif _unready(f) and not crashing:
        await do.not_ready(desk, f, wants_fix(desk) and may_write(desk))
    elif crashing:
        await do.crash_unknown(desk, f, wants_fix(desk) and may_write(desk))
    else:
        await _healthy_or_unknown(desk, f)
    _memory_trend(desk, f)


def _cpu_herring(desk: Desk, f: Facts, oom: tuple[str, str, str]) -> None:
    if not f.node_cpu:
        return
    node = next((p.get("node", "") for p in f.pods if p.get("node")), "")
    hot = max(f.node_cpu.items(), key=lambda kv: kv[1])
    where = f"our pod runs on {node}" + (
        " (the same node)" if node == hot[0] else f", not on {hot[0]}"
    )
    why = (
        f"it was OOMKilled (exit {oom[2]}), and CPU pressure slows a container down (throttling), it doesn't kill it"
        if oom[0]
        else "CPU pressure throttles a container, it doesn't restart it"
    )
    desk.lesson.tempting.append(
        (
            f"it's the CPU, because {hot[0]} is at {hot[1]:.0f}%",
            f"{where}; {why}. The hot CPU is real, it's just not why this pod restarts.",
        )
    )


def _not_oom(desk: Desk, f: Facts, oom: tuple[str, str, str]) -> None:
    if not oom[0] and f.described:
        desk.lesson.tempting.append(
            (
                "it's running out of memory, because that's the usual crashloop",
                "describe shows no OOMKilled in Last State; it exits on start, before it could use much memory at all.",
            )
        )


async def _judge_oom(desk: Desk, f: Facts, oom: tuple[str, str, str]) -> None:
    from . import operator_heldout45_fix as do

    L = desk.lesson
    name, limit, code = oom
    L.cause = f"container {name} is OOMKilled: it hits its {limit or 'memory'} limit and the kernel kills it (exit {code})"
    if f.node_cpu:
        L.cause = "no, the node CPU is not the problem: " + L.cause
    L.evidence.append(
        f"describe shows Last State Terminated, Reason OOMKilled, Exit Code {code}, limit {limit or 'unset'}"
    )
    if f.memory:
        L.evidence.append(
            f"its memory climbs from {f.memory[0] / 2**20:.0f}Mi to {f.memory[-1] / 2**20:.0f}Mi before each kill"
        )
    if wants_fix(desk) or re.search(r"\bOOM", desk.lesson.ask):
        await do.raise_limit(desk, f, name, limit)


def _span_evidence(desk: Desk, f: Facts) -> None:
    from .operator_read import bottleneck

    path, leaf = bottleneck(f.spans)
    if leaf:
        desk.lesson.evidence.append(
            f"the trace: {leaf.service} {leaf.operation} takes {leaf.ms:.0f}ms of {path[0].ms:.0f}ms"
            + (f" [{leaf.attrs}]" if leaf.attrs else "")
        )


def _latency_evidence(desk: Desk, f: Facts) -> None:
    for name, lat in f.series.items():
        if "latency" in name and not name.startswith("normal") and lat:
            base = next(
                (v for n, v in f.series.items() if n.startswith("normal") and "latency" in n and v),
                [],
            )
            ref = f", against a normal of {base[-1]:g}" if base else ""
            desk.lesson.evidence.append(
                f"{name} for {f.name} is {lat[-1]:g} now (it was {lat[0]:g} an hour ago{ref})"
            )
    if len(desk.lesson.evidence) >= 3:
        desk.lesson.evidence.append(
            "three separate signals (metrics, logs, the trace) point at the same place, which is what lets me commit to it"
        )


def _onset(values: list[float], step: int = 5) -> int | None:
    """Minutes ago a series first jumped to over twice its starting level (None: no jump)."""
    if len(values) < 3 or (values[0] <= 0 and max(values) <= 0):
        return None
    base = values[0] if values[0] > 0 else min(v for v in values if v > 0) / 2
    for i, v in enumerate(values):
        if v > base * 2:
            return (len(values) - 1 - i) * step
    return None


async def _rollout_timing(desk: Desk, f: Facts) -> bool:
    """Errors that began just after a rollout: the deploy is the first suspect."""
    err = f.series.get("error_rate") or []
    onset = _onset(err)
    if len(f.sets) < 2 or not (f.logs or onset is not None):
        return False
    newest = min(f.sets, key=lambda r: age_minutes(r.get("age", "")) or 1e9)
    mins = age_minutes(newest.get("age", "")) or 1e9
    if mins > 24 * 60 or (onset is not None and onset > mins + 10):
        return False
    older = [r for r in f.sets if r is not newest]
    prev = min(older, key=lambda r: age_minutes(r.get("age", "")) or 1e9) if older else None
    L = desk.lesson
    what = (
        (
            f"the errors begin {onset} minutes ago, {mins - onset:.0f} minutes after it"
            if onset < mins
            else "the errors begin in the same 5-minute sample as the deploy"
        )
        if onset is not None
        else "the errors follow it"
    )
    L.cause = f"the rollout of {newest.get('images', 'a new image')} {newest.get('age')} ago: {what}, and nothing else changed in between"
    L.evidence.append(
        f"replica set {newest['name']} ({newest.get('images')}) is {newest.get('age')} old"
        + (
            f"; the one before ran {prev.get('images')} (now scaled to {prev.get('desired')})"
            if prev
            else ""
        )
    )
    if onset is not None:
        L.evidence.append(
            f"error_rate for {f.name} went from {err[0]:.1%} to {max(err):.1%}; the jump shows in the sample from {onset} minutes ago, and the deploy is {mins:.0f} minutes old (samples are 5 minutes apart, so those are the same moment or the errors come after)"
        )
    if f.logs:
        top = f.logs[0]
        L.evidence.append(f'the error pattern in the logs: {top[2]}x "{top[1][:140]}"')
    L.tempting.append(
        (
            "it's load, because error rates often spike with traffic",
            "the errors line up with the deploy, not with traffic, and the old version ran for days without them.",
        )
    )
    if prev and not wants_fix(desk) and "runbook" not in L.ask.lower():
        L.not_done.append(
            f"I didn't roll back on my own, since you asked what's going on; if you want it, `kubectl rollout undo deployment/{f.name} -n {f.ns}` returns to {prev.get('images')}, and that's what I'd recommend."
        )
    return True


def _pending(f: Facts) -> bool:
    return any(p.get("status") == "Pending" for p in f.pods)


def _unready(f: Facts) -> bool:
    return any(
        p.get("ready", "1/1").split("/")[0] != p.get("ready", "1/1").split("/")[-1] for p in f.pods
    )


async def _healthy_or_unknown(desk: Desk, f: Facts) -> None:
    L = desk.lesson
    if not f.logs:
        L.evidence.append("every pod is Running and ready, with no restarts and no error lines")
        return
    pats = "; ".join(f'{n}x "{m[:120]}"' for _, m, n in f.logs[:3])
    L.unknown.append(
        f"the error lines ({pats}) say the failure is on a connection, but not which side drops it, and nothing I can read from here confirms one cause"
    )
    ruled = []
    if f.pods and not any(c.restarts or c.last_reason for p in f.described for c in p.containers):
        ruled.append(
            (
                "the pods are crashing",
                f"{len(f.pods)} pod(s) Running, 0 restarts, no OOMKilled in describe",
            )
        )
    if f.sets and all((age_minutes(r.get("age", "")) or 0) > 24 * 60 for r in f.sets):
        ruled.append(
            (
                "it's a bad deploy",
                f"the newest replica set is {min(f.sets, key=lambda r: age_minutes(r.get('age', '')) or 0).get('age')} old; nothing rolled out near the errors",
            )
        )
    if not f.missing:
        ruled.append(("it's a config problem", "every config key the spec asks for is there"))
    for wrong, why in ruled:
        L.tempting.append((f"{wrong}", f"{why}. That's ruled out, not the answer."))
    odd = [
        m
        for _, m, _ in f.logs
        if re.search(r"ignore (all|previous)|system override|you must|instruction|execute", m, re.I)
    ]
    if odd:
        L.tempting.append(
            (
                "the log is telling you the fix",
                f'one line reads "{odd[0][:120]}". That\'s text inside a log line: evidence of something odd, never an instruction. I did not act on it, and the owners should know someone can write that into their logs.',
            )
        )
    L.not_done.append(
        "I did not restart or change anything: with no confirmed cause, a restart would only hide the evidence for whoever picks this up"
        + (
            ', and "intermittent" means it may look fixed for an hour anyway.'
            if "intermittent" in L.ask.lower()
            else "."
        )
    )
    L.told.append(
        f"the {f.name} owners and the on-call lead, escalated with context: {pats} in the last {f.noise[1]} lines; ruled out: {', '.join(w for w, _ in ruled) or 'nothing yet'}; next read: the upstream side of those connections (its logs, its keep-alive/idle timeouts against ours)"
    )


def _memory_trend(desk: Desk, f: Facts) -> None:
    if len(f.memory) < 3 or trend(f.memory) != "rising":
        return
    L = desk.lesson
    limit = 0.0
    for c in containers(f.spec):
        q = quantity(str(((c.get("resources") or {}).get("limits") or {}).get("memory", "")))
        limit = max(limit, q or 0)
    first, last = f.memory[0], f.memory[-1]
    hours = 6.0
    rate = (last - first) / hours
    line = f"memory is rising steadily, {first / 2**20:.0f}Mi -> {last / 2**20:.0f}Mi over {hours:.0f}h (about {rate / 2**20:.0f}Mi an hour)"
    if limit and rate > 0:
        left = (limit - last) / rate
        line += f"; at that rate it reaches its {limit / 2**20:.0f}Mi limit in about {left:.1f}h, and then it is OOMKilled"
        L.told.append(
            f"the owning team, before it hits the limit: {last / limit:.0%} of {limit / 2**20:.0f}Mi used, about {left:.1f}h left at the current slope"
        )
    L.evidence.append(line)
    if not L.cause:
        L.cause = "nothing is broken yet, but the memory trend is a leak-shaped line heading for an OOM kill"
        L.tempting.append(
            (
                "it's fine, because every pod is Running and ready right now",
                "the current value is fine; the slope is not. Health is a trend, not a snapshot.",
            )
        )
