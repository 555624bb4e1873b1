"""heldout39's diagnosis: what the reads of one workload show, as findings with the number
or line read, the cause it commits to and the alternatives it ruled out (and by what).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import operator_read as rd
from .operator_heldout39_look import Work, fmt


@dataclass
class Cause:
    kind: str = ""  # missing-key, oom, init, image, pool, tls, rollout, migration, cpu, transient, unready, none
    text: str = ""
    evidence: list[str] = field(default_factory=list)
    ruled_out: list[str] = field(default_factory=list)
    fix: str = ""
    sure: bool = True


def signal(lines: list[rd.LogLine]) -> list[tuple[str, str, int]]:
    return rd.signal_patterns(lines)


def diagnose(w: Work, prompt: str) -> Cause:
    """The cause the reads show, strongest evidence first."""
    for rule in (_missing_key, _init_failed, _image, _oom, _pool, _tls, _migration, _cpu):
        c = rule(w)
        if c:
            _ruled(w, c, prompt)
            return c
    c = _rollout(w) or _transient(w) or _upstream(w) or _unclear(w)
    _ruled(w, c, prompt)
    return c


def _missing_key(w: Work) -> Cause | None:
    for env, cm, key in w.key_refs:
        data = w.configmaps.get(cm)
        if data is not None and key not in data:
            waiting = [c for p in w.pods for c in p.containers if c.reason or c.last_reason]
            state = f"{waiting[0].reason or waiting[0].last_reason}" if waiting else "not starting"
            return Cause(
                "missing-key",
                f"root cause: ConfigMap `{cm}` has no key `{key}`, which {w.name} reads as env "
                f"`{env}` (configMapKeyRef); the pods are {state}",
                [f"`{cm}` holds only {', '.join(sorted(data)) or 'nothing'}"],
                fix=f"add `{key}` to ConfigMap `{cm}` with the right value (the owner knows it), then restart {w.name}",
            )
    return None


def _init_failed(w: Work) -> Cause | None:
    for name, lines in w.init_logs.items():
        sig = signal(lines)
        if sig:
            line = f"{sig[0][0]}: {sig[0][1]}"
            return Cause(
                "init",
                f'root cause: init container `{name}` of {w.name} fails: "{line}", so the main '
                f"container never starts and {w.name} has no ready endpoint",
                [f'init `{name}` log: "{line}"'],
                fix=f"fix the migration in `{name}` (the schema object it creates already exists: make it idempotent or mark it applied), then let {w.name} restart",
            )
    return None


def _image(w: Work) -> Cause | None:
    for p in w.pods:
        for c in p.containers:
            if c.reason in ("ImagePullBackOff", "ErrImagePull", "InvalidImageName"):
                return Cause(
                    "image",
                    f"root cause: {p.name} cannot pull image `{c.image}` ({c.reason})",
                    fix="point the deployment back at an image tag that exists",
                )
    return None


def _oom(w: Work) -> Cause | None:
    for p in w.pods:
        for c in p.containers:
            if c.last_reason == "OOMKilled" or c.reason == "OOMKilled":
                limit = c.limits.get("memory", "?")
                trend = rd.trend(w.memory) if w.memory else "not read"
                mem = (
                    f"; memory {rd.mib(w.memory[0])} -> {rd.mib(w.memory[-1])} ({trend})"
                    if w.memory
                    else ""
                )
                return Cause(
                    "oom",
                    f"root cause: {w.name} is OOMKilled (exit code {c.exit_code or '137'}, "
                    f"{c.restarts} restarts) at its {limit} memory limit{mem}",
                    [f"{p.name}: last state OOMKilled, exit {c.exit_code or '137'}, limit {limit}"],
                    fix=f"raise {w.name}'s memory limit (from {limit}) and look for the leak",
                )
    return None


def _pool(w: Work) -> Cause | None:
    lines = [ln for ln in w.logs if re.search(r"pool", ln.raw, re.I) and ln.signal]
    if not lines:
        return None
    ev = [f'log: "{ln.level}: {ln.message[:110]}"' for ln in lines[:2]]
    span = next((s for s in w.spans if "pool" in s.attrs), None)
    if span:
        ev.append(f"trace: span `{span.operation}` {span.ms:.0f}ms [{span.attrs}]")
    for n, vals in w.series.items():
        if "latency" in n and not n.startswith("normal_"):
            base = w.series.get(f"normal_{n}")
            ev.append(f"{n} {fmt(vals[-1])}" + (f" vs normal {fmt(base[-1])}" if base else ""))
    return Cause(
        "pool",
        f"root cause: {w.name}'s database connection pool is exhausted: requests wait for a "
        "connection, so latency climbs (logs, trace and latency all point at the pool)",
        ev,
        fix="raise the pool size or cut connection hold time; check the DB for long-held connections",
    )


def _tls(w: Work) -> Cause | None:
    lines = [ln for ln in w.logs if re.search(r"tls|x509|certificate", ln.raw, re.I) and ln.signal]
    if not lines:
        return None
    top = signal(lines)[0]
    noise = sum(1 for ln in w.logs if ln.level in rd.NOISE_LEVELS)
    return Cause(
        "tls",
        f'root cause: "{top[0]}: {top[1]}" repeats {top[2]} times: the upstream\'s TLS '
        "certificate has expired, so those requests fail",
        [
            f"{top[2]} of {len(w.logs)} log lines are this error; {noise} DEBUG/TRACE/INFO lines (health checks, request traces) are noise"
        ],
        fix="renew the upstream's certificate (owner of the upstream); nothing to change on the gateway",
    )


def _migration(w: Work) -> Cause | None:
    lines = [
        ln
        for ln in w.logs
        if ln.signal and re.search(r"column|relation|schema|migration", ln.raw, re.I)
    ]
    if not lines:
        return None
    return Cause(
        "migration",
        f'root cause: {w.name} fails on the schema: "{lines[0].level}: {lines[0].message}"',
        fix="reconcile app and schema (roll the app forward or the migration back, with approval)",
    )


def _cpu(w: Work) -> Cause | None:
    ev = [e for e in w.events if "Insufficient cpu" in e]
    if not ev:
        return None
    req = ", ".join(
        c.get("resources", {}).get("requests", {}).get("cpu", "?") for c in w.containers
    )
    return Cause(
        "cpu",
        f"root cause: {w.name}'s pods cannot be scheduled: it requests {req} CPU per pod, "
        "more than any node has free (FailedScheduling: Insufficient cpu)",
        [re.sub(r"\s+", " ", ev[0])[:200]],
        fix="lower the CPU request to what a node can fit",
    )


def _rollout(w: Work) -> Cause | None:
    fresh = [r for r in w.rs_rows if (rd.age_minutes(r.get("age", "")) or 1e9) < 60]
    old = [r for r in w.rs_rows if r not in fresh]
    err = next((n for n in w.series if "error" in n and not n.startswith("normal_")), "")
    if not fresh or not old:
        return None
    new_rs, prev = fresh[0], max(old, key=lambda r: -(rd.age_minutes(r.get("age", "")) or 0))
    ev = [
        f"new replica set {new_rs.get('name')} ({new_rs.get('images')}) is {new_rs.get('age')} old; "
        f"previous {prev.get('name')} ran {prev.get('images')}"
    ]
    if err:
        vals = w.series[err]
        ev.append(f"{err} {fmt(vals[0])} an hour ago -> {fmt(vals[-1])} now")
    errs = signal(w.logs)
    if errs:
        ev.append(f'log: "{errs[0][0]}: {errs[0][1][:100]}"')
    return Cause(
        "rollout",
        f"root cause: the rollout of {new_rs.get('images')} {new_rs.get('age')} ago; errors "
        f"started after it (previous version {prev.get('images')} was clean)",
        ev,
        fix=f"roll {w.name} back to {prev.get('images')}",
    )


def _transient(w: Work) -> Cause | None:
    lines = w.prev_logs + w.logs
    hit = [
        ln for ln in lines if ln.signal and re.search(r"transient|refused|timeout", ln.raw, re.I)
    ]
    crash = any(c.reason == "CrashLoopBackOff" for p in w.pods for c in p.containers)
    if hit and crash:
        return Cause(
            "transient",
            f'cause: {w.name} crash-loops on "{hit[-1].level}: {hit[-1].message}" (a '
            "dependency refusing it at start; the log calls it transient)",
            fix=f"restart {w.name} so it reconnects",
        )
    return None


def _upstream(w: Work) -> Cause | None:
    """The errors name a dependency in another namespace: the fault is on the far side."""
    for lvl, msg, n in signal(w.logs):
        m = re.search(r"\b([a-z0-9-]+)\.([a-z0-9-]+)\.svc\b", msg)
        if m and m.group(2) != w.ns:
            return Cause(
                "upstream",
                f"cause is upstream: {w.name} fails calling `{m.group(1)}` in namespace "
                f'`{m.group(2)}` ("{lvl}: {msg[:120]}" x{n}); {w.name} itself is healthy',
                fix=f"owners of namespace {m.group(2)} to look at {m.group(1)} (outside my scope: I did not read or change anything there)",
            )
    return None


def _unclear(w: Work) -> Cause:
    unready = [
        p.name
        for p in w.pods
        if any(not c.init and c.state == "Running" for c in p.containers)
        and any("Readiness probe failed" in e for e in p.events)
    ]
    if unready and not w.series:
        return Cause(
            "unready",
            f"{len(unready)} of {len(w.pods)} {w.name} pods are Running but failing readiness "
            f"(503 on the probe), no error in the logs and no restarts",
            fix=f"rolling restart of {w.name}",
            sure=False,
        )
    return Cause("none", "", sure=False)


def _ruled(w: Work, c: Cause, prompt: str) -> None:
    """Alternatives a reader would ask about, and the reading that rules them out."""
    if c.kind != "oom":
        ooms = [p.name for p in w.pods for x in p.containers if x.last_reason == "OOMKilled"]
        if not ooms and w.pods:
            c.ruled_out.append(f"memory: no OOMKilled container in {w.name}'s pods")
    if c.kind not in ("image",) and w.pods:
        c.ruled_out.append(f"image pull: every {w.name} container has its image")
    if c.kind != "rollout" and w.rs_rows and len(w.rs_rows) == 1:
        c.ruled_out.append(f"a recent deploy: one replica set, {w.rs_rows[0].get('age')} old")
