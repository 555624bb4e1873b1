"""The held-out operator of session 29 (``heldout34``): from what it read to one cause.

It commits to at most one cause, the one the workload's own evidence shows, and says it is
unsure (and escalates) when nothing it read explains the symptom. Generic: every fact is
taken from a tool's answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from . import operator_read as rd
from .operator_heldout34_look import View, Workload
from .operator_heldout34_ops import Call, cite
from .operator_heldout34_page import size

_MISSING_KEY = re.compile(r"couldn't find key (\S+) in ConfigMap (\S+?)/(\S+)")


@dataclass
class Finding:
    """One cause (or none, when ``kind`` is "unclear"), with the facts behind it."""

    kind: str
    cause: str
    evidence: str
    fix: str = ""
    sure: bool = True
    data: dict[str, Any] = field(default_factory=dict)


def _ev_call(view: View) -> Call | None:
    return view.events_call


def missing_key(view: View, wl: Workload) -> Finding | None:
    texts = [str(ev.get("message", "")) for ev in view.events_of(wl.name)]
    for pod in wl.pods:
        texts += pod.events
    for text in texts:
        m = _MISSING_KEY.search(text)
        if m:
            key, cm = m.group(1), m.group(3)
            return Finding(
                "missing_key",
                f"{wl.name} can't start because the key {key} is missing from the ConfigMap "
                f"{cm}, and the pod reads that key into its environment",
                f"Kubernetes refuses to start the container with \"couldn't find key {key} in "
                f'ConfigMap {m.group(2)}/{cm}" {cite(view.events_call, wl.describe)}',
                f"add {key} to the ConfigMap {cm} with the value the service expects, then let "
                f"the pods start again",
                data={"key": key, "configmap": cm},
            )
    return None


def init_failure(wl: Workload) -> Finding | None:
    for cname, call in sorted(wl.init_logs.items()):
        lines = rd.signal_patterns(rd.log_lines(call.text))
        if not lines:
            continue
        level, message, _n = lines[0]
        migration = re.search(r"migrat", message, re.I)
        what = "its database migration" if migration else "its init step"
        return Finding(
            "init_failure",
            f"{wl.name}'s init container {cname} fails, so {what} never completes and the app "
            f"container never starts",
            f'{cname} exits with an error and logs "{level}: {message}" {cite(wl.describe, call)}',
            "fix the failing migration (for example make it skip an index or relation that "
            "already exists) with the team that owns the schema, then roll the pods again",
            data={"init": cname, "line": f"{level}: {message}"},
        )
    return None


def oom(wl: Workload, memory: list[float], mem_call: Call | None) -> Finding | None:
    kills = [
        (p, c)
        for p in wl.pods
        for c in p.containers
        if not c.init and "OOMKilled" in (c.last_reason, c.reason)
    ]
    if not kills:
        return None
    pod, c = kills[0]
    limit = rd.quantity(c.limits.get("memory", "")) if c.limits.get("memory") else None
    said = f"its memory limit is {c.limits['memory']}" if limit else "it has no clear memory limit"
    trend = ""
    if memory and limit and rd.trend(memory) == "rising":
        trend = (
            f" Its memory climbs steadily, from {size(memory[0])} to {size(max(memory))}, "
            f"{_of_limit(max(memory) / limit)} {cite(mem_call)}: a leak, not a spike."
        )
    elif memory and limit:
        trend = f" Its memory peaks at {size(max(memory))}, {_of_limit(max(memory) / limit)} {cite(mem_call)}."
    elif memory:
        trend = f" Its memory peaks at {size(max(memory))} {cite(mem_call)}."
    return Finding(
        "oom",
        f"{wl.name}'s container runs out of memory and is OOMKilled by the kernel; {said}",
        f"the last termination of {c.name} in {pod.name} was OOMKilled with exit code "
        f"{c.exit_code or '137'}, {c.restarts} restarts so far {cite(wl.describe)}.{trend}",
        f"raise the memory limit of {wl.name} (for example from {c.limits.get('memory', '?')} "
        f"to {_double(c.limits.get('memory', ''))}) and look for the leak in the app",
        data={"container": c.name, "limit": c.limits.get("memory", "")},
    )


def _of_limit(ratio: float) -> str:
    if ratio >= 0.95:
        return "right up against the limit"
    if 0.45 <= ratio <= 0.55:
        return "roughly half the limit"
    return f"about {round(ratio * 100)} percent of the limit"


def _double(quantity: str) -> str:
    m = re.fullmatch(r"(\d+)(Mi|Gi)", quantity or "")
    if not m:
        return "about double"
    return f"{int(m.group(1)) * 2}{m.group(2)}"


def pending(view: View, wl: Workload) -> Finding | None:
    for ev in view.events_of(wl.name):
        msg = str(ev.get("message", ""))
        if ev.get("reason") == "FailedScheduling" and "insufficient cpu" in msg.lower():
            return Finding(
                "pending_cpu",
                f"{wl.name}'s pods ask for more CPU than any node has free, so the scheduler "
                "can't place them",
                f'the scheduler says "{msg}" {cite(view.events_call, wl.describe)}',
                f"lower {wl.name}'s CPU request to what the nodes can still give",
            )
    return None


_LOG_CAUSES: tuple[tuple[str, str, str, str], ...] = (
    (
        r"pool exhausted|pool error|cannot get a connection",
        "pool",
        "the database connection pool is exhausted: requests queue waiting for a free connection",
        "raise the pool size or find what holds connections open, with the service owners",
    ),
    (
        r"certificate (?:has )?expired|x509",
        "tls",
        "an expired TLS certificate on the upstream the service calls makes the TLS handshake fail",
        "renew the upstream's certificate (its owners), then confirm the handshake errors stop",
    ),
    (
        r"column .* does not exist|relation .* does not exist",
        "schema",
        "the code and the database schema disagree after the migration",
        "",
    ),
    (
        r"connection refused.*transient|transient",
        "transient",
        "a transient dependency failure at start-up left the container in a crash loop",
        "restart the pod so it reconnects, then watch it stay up",
    ),
)


_UPSTREAM = re.compile(r"\b([a-z0-9][a-z0-9-]*)\.([a-z0-9][a-z0-9-]*)\.svc\b")


def elsewhere(wl: Workload, scope: list[str]) -> Finding | None:
    """The workload's errors name an upstream in a namespace outside the operator's scope."""
    for level, message, n in wl.signals + wl.prev_signals:
        m = _UPSTREAM.search(message)
        if m and m.group(2) not in scope and level in ("ERROR", "FATAL", "CRITICAL"):
            svc, ns = m.group(1), m.group(2)
            return Finding(
                "elsewhere",
                f"{wl.name} fails because its upstream {svc} in the {ns} namespace isn't answering; "
                f"{wl.name} itself is healthy and passes the failure on",
                f'{wl.name}\'s log shows "{level}: {message}" ({n} times) {cite(wl.logs)}',
                f"the {ns} team should look at {svc}; that namespace is outside my scope, so I didn't read or touch it",
                data={"service": svc, "namespace": ns},
            )
    return None


def from_logs(wl: Workload) -> Finding | None:
    patterns = wl.prev_signals + wl.signals
    for regex, kind, cause, fix in _LOG_CAUSES:
        for level, message, n in patterns:
            if re.search(regex, message, re.I):
                times = "once" if n == 1 else f"{n} times"
                if kind == "schema":
                    fix = "put the code and the schema back in step"
                return Finding(
                    kind,
                    f"{wl.name}: {cause}",
                    f'{wl.name}\'s log shows "{level}: {message}" ({times} in what I read) '
                    f"{cite(wl.previous if (level, message, n) in wl.prev_signals else wl.logs)}",
                    fix,
                    data={"line": f"{level}: {message}", "count": n},
                )
    return None


def unready(view: View, wl: Workload) -> Finding | None:
    """Some of the workload's pods run but fail their readiness probe, with no crash behind it."""
    pods = view.pods_of(wl.name)
    down = [
        p
        for p in pods
        if p.get("status") == "Running"
        and p.get("ready", "1/1").split("/")[0] != p.get("ready", "1/1").split("/")[-1]
    ]
    probe = [
        str(ev.get("message", ""))
        for ev in view.events_of(wl.name)
        if ev.get("reason") == "Unhealthy"
    ]
    if not down or not probe:
        return None
    return Finding(
        "unready",
        f"{len(down)} of {len(pods)} {wl.name} pods are running but failing their readiness probe, so "
        f"they're out of rotation and the rest carry all the traffic",
        f'{", ".join(p["name"] for p in down)} report "{probe[0]}" {cite(view.events_call, wl.describe)}, '
        "with no crash, OOM kill or config error behind it",
        f"a rolling restart of {wl.name}, one pod at a time so it keeps serving, then check every pod is Ready",
    )


def diagnose(
    view: View,
    wl: Workload,
    memory: list[float],
    mem_call: Call | None,
    scope: list[str] | None = None,
) -> Finding:
    for found in (
        elsewhere(wl, scope or []),
        missing_key(view, wl),
        init_failure(wl),
        oom(wl, memory, mem_call),
        pending(view, wl),
        from_logs(wl),
        unready(view, wl),
    ):
        if found is not None:
            return found
    return Finding(
        "unclear",
        "",
        "nothing I read explains the symptom on its own",
        sure=False,
    )
