"""heldout35's diagnosis: at most one cause, with the evidence read for it.

Ordered the way an on-call engineer checks a broken workload: does it start at all (a
ConfigMap key it references is missing, an init container fails, it cannot be scheduled),
does it die (OOMKilled), what do its own logs say repeatedly, did it change recently. A
signal that explains nothing on its own (a connection reset now and then) is not promoted to
a cause: the finding is then marked unsure and the work is handed over with the readings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import operator_read as rd
from .operator_heldout35_calls import Session
from .operator_heldout35_look import Workload, missing_keys, signal
from .operator_heldout35_pr import ref, thousands

#: log text -> (kind, what it means); generic failure modes, most specific first
LOG_CAUSES: tuple[tuple[str, str, str], ...] = (
    (
        r"\(transient\)|transient error|temporarily unavailable",
        "transient",
        "a transient dependency failure, as the log itself says",
    ),
    (
        r"pool (error|exhausted)|cannot get a connection",
        "pool",
        "database connection pool exhausted",
    ),
    (r"certificate (has )?expired|x509", "tls", "an expired TLS certificate on the upstream"),
    (r"column .* does not exist|relation .* does not exist", "schema", "schema mismatch"),
    (r"migration .* failed", "migration", "a failed database migration"),
    (r"out of memory|oomkilled", "oom", "memory exhaustion"),
    (r"no such host|nxdomain", "dns", "a DNS lookup failure"),
    (r"exception|panic|segfault|nullpointer", "crash", "an application exception"),
)


@dataclass
class Finding:
    kind: str = "unknown"
    cause: str = ""
    evidence: list[str] = field(default_factory=list)
    confident: bool = False
    fix: str = ""
    doubts: list[str] = field(default_factory=list)


def first_signal(lines: list[rd.LogLine]) -> tuple[str, str, int] | None:
    found = signal(lines)
    return found[0] if found else None


def _log_kind(message: str) -> tuple[str, str]:
    for pattern, kind, meaning in LOG_CAUSES:
        if re.search(pattern, message, re.I):
            return kind, meaning
    return "", ""


def _restarts(w: Workload) -> int:
    return sum(c.restarts for p in w.pods for c in p.containers if not c.init)


def _oom(w: Workload) -> rd.Container | None:
    for p in w.pods:
        for c in p.containers:
            if not c.init and ("OOMKilled" in (c.last_reason, c.reason) or c.exit_code == "137"):
                return c
    return None


def _pending_reason(w: Workload) -> str:
    for e in w.events:
        msg = e.get("message", "")
        if e.get("reason") == "FailedScheduling" or "Insufficient" in msg:
            return msg
    for p in w.pods:
        for ev in p.events:
            if "FailedScheduling" in ev or "Insufficient" in ev:
                return ev
    return ""


def diagnose(s: Session, w: Workload) -> Finding:
    """One cause (or none) for what the workload shows."""
    missing = missing_keys(w)
    if missing:
        cm, key = missing[0]
        state = ", ".join(sorted({r.get("status", "") for r in w.pod_rows if r.get("status")}))
        return Finding(
            "config-key",
            f"`{w.name}` reads key `{key}` from ConfigMap `{cm}`, and `{cm}` has no `{key}` key "
            f"(it holds only {', '.join(f'`{k}`' for k in sorted(w.configmaps[cm])) or 'nothing'}), "
            f"so the container cannot get its configuration and the pods never stay up ({state}).",
            [
                f"`{cm}` holds {', '.join(f'`{k}`' for k in sorted(w.configmaps[cm]))}, no `{key}` {ref(s, w.calls['cm:' + cm])}",
                f"pods {state} {ref(s, w.describe_call)}",
            ],
            True,
            f"add `{key}` to ConfigMap `{cm}` with the value the service expects, then restart "
            f"`{w.name}`",
        )
    for init, lines in w.init_logs.items():
        hit = first_signal(lines)
        if hit:
            return Finding(
                "init",
                f"init container `{init}` of `{w.name}` fails on every start: "
                f'"{hit[0]}: {hit[1]}". The main container never starts, so `{w.name}` has no '
                f"ready pod.",
                [
                    f'`{init}` log: "{hit[0]}: {hit[1]}" {ref(s, w.calls["init:" + init])}',
                    f"`{init}` terminated with an error, main container waiting {ref(s, w.describe_call)}",
                ],
                True,
                f"fix the failing step run by `{init}` (or mark it applied), then let the pod restart",
            )
    pending = _pending_reason(w)
    if pending and any("Pending" in r.get("status", "") for r in w.pod_rows):
        return Finding(
            "pending",
            f'`{w.name}`\'s pods are Pending: the scheduler reports "{pending}". The pods '
            f"request more than any node has left.",
            [f"{pending} {ref(s, w.describe_call)}"],
            True,
            "lower the pods' requests to what the nodes can fit, or add capacity",
        )
    oom = _oom(w)
    if oom is not None:
        limit = oom.limits.get("memory", "")
        return Finding(
            "oom",
            f"`{w.name}`'s container `{oom.name}` is OOMKilled (exit code 137, "
            f"{thousands(_restarts(w))} restarts)"
            + (f": it runs out of its `{limit}` memory limit." if limit else "."),
            [
                f"last state OOMKilled, exit code 137, memory limit {limit or 'none'} {ref(s, w.describe_call)}"
            ],
            True,
            _memory_fix(w, oom, limit),
        )
    return _from_logs(s, w)


def _memory_fix(w: Workload, c: rd.Container, limit: str) -> str:
    """The concrete change: double the limit (and the request with it)."""
    q = rd.quantity(limit) if limit else None
    if not q:
        return "set a memory limit that fits the working set, then look for the leak"
    new = f"{int(q * 2 / 1024**2)}Mi"
    return (
        f"raise `{c.name}`'s memory limit and request from `{limit}` to `{new}`: "
        f"`kubectl set resources deployment/{w.name} -n {w.ns} -c {c.name} "
        f"--limits=memory={new} --requests=memory={new}`, then watch restarts stop and look for the leak"
    )


def _from_logs(s: Session, w: Workload) -> Finding:
    prev = first_signal(w.previous)
    hit = prev or first_signal(w.logs)
    if hit:
        kind, meaning = _log_kind(hit[1])
        where = ref(s, w.previous_call if prev else w.log_call)
        line = f'"{hit[0]}: {hit[1]}" ({hit[2]}x in the log) {where}'
        fix = {
            "pool": "raise the pool size or find what holds connections",
            "tls": "renew the upstream's certificate (its owner)",
            "transient": "restart it so it reconnects, and check the dependency is back",
        }.get(kind, "")
        if kind:
            return Finding(kind, f"{meaning}: `{w.name}` logs {line}.", [line], True, fix)
        return Finding("unknown", "", [line], False, "", [line])
    return Finding()


def memory_figures(series: list[tuple[dict[str, str], list[float]]]) -> tuple[float, float, str]:
    """(first, last, trend) of the largest series."""
    best = max(series, key=lambda s: s[1][-1] if s[1] else 0, default=({}, []))
    values = best[1]
    if not values:
        return 0.0, 0.0, "flat"
    return values[0], values[-1], rd.trend(values)
