"""heldout30's diagnosis (issue 27 item 6, written blind): one cause, from what the subject's
own pods, logs, ConfigMaps and series show, with the evidence read. When nothing read settles
it, it says so (kind "unsure") instead of guessing."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import operator_read as rd
from .operator_heldout30_asks import env_refs
from .operator_heldout30_look import Seen, fmt, trend_words
from .operator_heldout30_shift import ago


@dataclass
class Finding:
    kind: str
    cause: str = ""
    evidence: list[str] = field(default_factory=list)
    fix: str = ""
    target: str = ""
    detail: dict[str, str] = field(default_factory=dict)


def _pod_line(seen: Seen, name: str) -> str:
    pods = seen.pods_of(name)
    if not pods:
        return ""
    shown = ", ".join(
        f"{p['name']} {p.get('status', '?')} (restarts {p.get('restarts', '0')})" for p in pods[:3]
    )
    return f"you'll see po {shown}"


def _signals(seen: Seen, name: str) -> list[tuple[str, str, int]]:
    lines: list[rd.LogLine] = []
    for key, text in seen.logs.items():
        if key == name or key.startswith(name + " "):
            lines += rd.log_lines(text)
    return rd.signal_patterns(lines)


def missing_key(seen: Seen, name: str) -> Finding | None:
    for var, cm, key in env_refs(seen.dep(name)):
        data = seen.configmaps.get(cm)
        if data is not None and key not in data:
            have = ", ".join(sorted(data)) or "nothing"
            return Finding(
                "missing_key",
                f"cm/{cm} has no {key} key. {name} pulls env {var} from it "
                f"(configMapKeyRef {cm}/{key}), so the container can't start and the po go CLBO.",
                [
                    _pod_line(seen, name),
                    f"cm/{cm} only has: {have}; {key} missing",
                    f"deploy/{name} env {var} <- configMapKeyRef {cm}/{key}",
                ],
                f"add {key} to cm/{cm} with the right value (ask the {name} owners for it; "
                "I didn't guess one), then bounce the po",
                name,
                {"cm": cm, "key": key},
            )
    return None


def init_failure(seen: Seen, name: str) -> Finding | None:
    for view in seen.described:
        if not view.name.startswith(name + "-"):
            continue
        for c in view.containers:
            if c.init and (c.reason or c.last_reason) not in ("", "Completed"):
                sig = [m for _, m, _ in _signals(seen, f"{name} init {c.name}")]
                said = sig[0] if sig else "no output"
                hops = " -> ".join(
                    seen.path
                    + [
                        f"deploy/{name} (po {view.status or 'not ready'}, main container never starts)",
                        f"init container {c.name} (exit {c.exit_code or '1'})",
                    ]
                )
                return Finding(
                    "init",
                    f'init container {c.name} of {name} fails on every start: "{said}". '
                    f"The main container never starts, so {name} has no ready po, the svc has "
                    "no endpoints, and that's what the entry point in front of it is serving as "
                    f"errors. Chain: {hops}.",
                    [
                        f"po/{view.name}: init {c.name} {c.reason or 'waiting'}, last state "
                        f"{c.last_reason or '?'} exit {c.exit_code or '?'}, restarts {c.restarts}",
                        f"logs -c {c.name}: {said}",
                    ]
                    + [
                        f"ep/{line.split()[0]}: no ready endpoints"
                        for line in seen.text.splitlines()
                        if "<none>" in line
                    ][:1],
                    f"fix the migration step {c.name} runs (the log says what it trips on), "
                    "then let the po restart; that's for the app/DB owners to decide",
                    name,
                    {"init": c.name, "log": said},
                )
    return None


def oom(seen: Seen, name: str) -> Finding | None:
    for view in seen.described:
        if not view.name.startswith(name + "-"):
            continue
        for c in view.containers:
            if "OOMKilled" in (c.reason, c.last_reason):
                limit = c.limits.get("memory", "")
                ev = [
                    f"po/{view.name}: last state OOMKilled (exit {c.exit_code or '137'}), "
                    f"restarts {c.restarts}, memory limit {limit or 'none set'}"
                ]
                series = seen.series.get(f"{name}:container_memory_working_set_bytes")
                shape = ""
                if series and series[0][1]:
                    vals = series[0][1]
                    shape = trend_words(vals)
                    ev.append(
                        f"container_memory_working_set_bytes for {name}: {fmt('memory', vals[0])} "
                        f"-> {fmt('memory', vals[-1])}, {shape}"
                    )
                grow = (
                    " and memory keeps climbing until it hits the limit (leak-like)"
                    if shape.startswith("climb")
                    else ""
                )
                return Finding(
                    "oom",
                    f"{name} is getting OOMKilled: the container hits its {limit or ''} memory "
                    f"limit and the kernel kills it (exit 137){grow}.",
                    ev,
                    f"bump the memory limit of {name} (e.g. {_double(limit)}) as a stopgap and "
                    "get the owners to look at the leak",
                    name,
                    {"container": c.name, "limit": limit},
                )
    return None


def _double(limit: str) -> str:
    q = rd.quantity(limit) if limit else None
    return rd.mib(q * 2) if q else "2x the current limit"


def pending(seen: Seen, name: str) -> Finding | None:
    pods = [p for p in seen.pods_of(name) if p.get("status") == "Pending"]
    if not pods:
        return None
    why = [e.get("message", "") for e in seen.events if "FailedScheduling" in e.get("reason", "")]
    msg = next((m for m in why if "Insufficient" in m), why[0] if why else "")
    res = "cpu" if "cpu" in msg.lower() else "memory" if "memory" in msg.lower() else ""
    return Finding(
        "pending",
        f"{name} po can't be scheduled: no node has enough free {res or 'capacity'} for the "
        f"request ({msg or 'FailedScheduling'}).",
        [_pod_line(seen, name), f"events: FailedScheduling: {msg}"],
        f"lower the {res or 'resource'} request to fit what the nodes have free",
        name,
        {"resource": res},
    )


_LOG_CAUSES = (
    (
        "pool",
        r"pool exhausted|cannot get a connection|pool error",
        "the DB connection pool is exhausted",
    ),
    ("tls", r"certificate (has )?expired|x509", "an expired TLS cert on the upstream"),
    (
        "migration",
        r"column .* does not exist|relation .* does not exist",
        "a schema/migration mismatch",
    ),
    ("transient", r"\(transient\)", "a transient dependency error"),
)


def from_logs(seen: Seen, name: str) -> Finding | None:
    sig = _signals(seen, name)
    for kind, pattern, words in _LOG_CAUSES:
        hits = [(lvl, m, n) for lvl, m, n in sig if re.search(pattern, m, re.I)]
        if hits:
            lvl, msg, _n = hits[0]
            total = sum(h[2] for h in hits)
            noise = _noise(seen, name)
            return Finding(
                kind,
                f'{name}: {words}: "{msg}" ({total}x in the logs)',
                [f"logs {name}: {lvl} {msg} (x{total})"]
                + ([f"filtered out as noise: {noise}"] if noise else []),
                "",
                name,
                {"log": msg},
            )
    return None


def _noise(seen: Seen, name: str) -> str:
    lines = [
        ln for key, text in seen.logs.items() if key.startswith(name) for ln in rd.log_lines(text)
    ]
    quiet = [ln for ln in lines if ln.level in rd.NOISE_LEVELS]
    if not quiet:
        return ""
    kinds = sorted({ln.level for ln in quiet})
    return f"{len(quiet)} {'/'.join(kinds)} lines (health checks, request traces, pool stats): routine, nothing to do with the failures"


def recent_rollout(seen: Seen, name: str, rs: list[dict[str, str]]) -> Finding | None:
    mine = [r for r in rs if r.get("name", "").startswith(name + "-")]
    ages = sorted((rd.age_minutes(r.get("age", "")) or 1e9, r) for r in mine)
    if len(ages) < 2 or ages[0][0] > 120:
        return None
    minutes, newest = ages[0]
    old = ages[1][1]
    new_img, old_img = newest.get("images", ""), old.get("images", "")
    imgs = f" from {old_img} to {new_img}" if new_img and old_img else ""
    scaled = [
        e
        for e in seen.events
        if "ScalingReplicaSet" in e.get("reason", "") and name in e.get("object", "")
    ]
    return Finding(
        "rollout",
        f"{name} was rolled {ago(minutes)}{imgs}, and the error rate climbs right after it: the new "
        "release is the likely cause",
        [
            f"rs {newest.get('name')} ({new_img or '?'}) age {newest.get('age')}; previous rs "
            f"{old.get('name')} ({old_img or '?'}) age {old.get('age')}"
        ]
        + [f"event {e.get('last seen', '')} ago: {e.get('message', '')}" for e in scaled[:1]],
        f"roll {name} back to the previous revision{' (' + old_img + ')' if old_img else ''} with kubectl rollout undo, then watch error_rate",
        name,
        {"minutes": f"{minutes:.0f}"},
    )


def diagnose(seen: Seen, name: str, rs: list[dict[str, str]]) -> Finding:
    for rule in (missing_key, init_failure, oom, pending):
        got = rule(seen, name)
        if got:
            return got
    logged = from_logs(seen, name)
    if logged and logged.kind != "transient":
        return logged
    rolled = recent_rollout(seen, name, rs)
    if rolled:
        if logged:
            rolled.evidence += logged.evidence
        return rolled
    return logged or Finding("unsure", target=name)
