"""Investigation and diagnosis for the competent validity agent (issue 13, item 7).

Reads what the symptom points at (pod state, events, logs, metrics, traces, dashboards,
database, network objects, rollout history) and concludes one cause from what it read, or
says it is not sure. Generic: every rule reads tool output, none knows a scenario.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from . import operator_read as rd
from .competent import Session, owner_of, unhealthy

TRAFFIC = re.compile(
    r"\b(50[234]|reach|unreachable|network|ingress|public|connect|timeout|"
    r"dropping|refused)\b",
    re.I,
)
MEMORY = re.compile(r"\b(oom|memory|restart|crash|doing|health|worry|killed)\w*", re.I)
DB = re.compile(r"\b(migration|database|schema|sql)\b", re.I)


@dataclass
class Cause:
    kind: str
    statement: str
    fix: str = ""
    certain: bool = True


@dataclass
class Investigation:
    ns: str
    focus: list[str]
    causes: list[Cause] = field(default_factory=list)
    chain: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    pods: list[rd.PodView] = field(default_factory=list)
    metrics: dict[str, list[tuple[dict[str, str], list[float]]]] = field(default_factory=dict)
    recent_rollout: dict[str, str] = field(default_factory=dict)
    out_of_scope: list[str] = field(default_factory=list)
    #: per signal source, what in it supports the conclusion (for the correlation sentence)
    support: dict[str, str] = field(default_factory=dict)
    scope: list[str] = field(default_factory=list)


def finished_run(row: dict[str, str], deployments: list[str]) -> bool:
    """A pod whose run is over (a Job's: exited once, in its init container or after, never
    restarted, no Deployment owns it): no symptom of a serving workload, whatever its exit
    status (issue 27's decoys)."""
    return (
        owner_of(row["name"], deployments) is None
        and row.get("status") in ("Completed", "Error", "Failed", "Init:Error")
        and row.get("restarts", "0").split(" ")[0] == "0"
    )


async def investigate(s: Session, ns: str, ctx: dict[str, Any], focus: list[str]) -> Investigation:
    """Read every source the symptom and the tools point at, then conclude."""
    from .operator_sources import (
        _database,
        _follow_upstream,
        _history,
        _metrics,
        _traces,
        _traffic,
    )

    inv = Investigation(ns, focus, scope=list(s.task.scope.get("namespaces") or [ns]))
    prompt = s.task.prompt
    await _pods_and_events(s, inv, ctx)
    await _logs(s, inv, ctx)
    await _follow_upstream(s, inv, ctx)
    if TRAFFIC.search(prompt):
        await _traffic(s, inv, ctx)
    await _metrics(s, inv, ctx)
    await _traces(s, inv)
    await _history(s, inv, ctx)
    if s.has("database") and (DB.search(prompt) or any(c.kind == "schema" for c in inv.causes)):
        await _database(s, inv)
    return inv


async def _pods_and_events(s: Session, inv: Investigation, ctx: dict[str, Any]) -> None:
    deps = [r["name"] for r in ctx["deployments"]]
    for ev in ctx["events"]:
        msg = ev.get("message", "")
        m = re.search(r"couldn't find key (\S+) in ConfigMap (\S+)", msg)
        if m:
            cm = m.group(2).split("/")[-1]
            inv.causes.append(
                Cause(
                    "missing-key",
                    f"ConfigMap {cm} has no key {m.group(1)}, which "
                    f"the container's environment references, so the container "
                    f"cannot start",
                    f"add the {m.group(1)} key to ConfigMap {cm} "
                    "with the right value, then restart the deployment",
                )
            )
        if "Insufficient" in msg:
            inv.notes.append(f"scheduler: {msg.split('. preemption')[0]}")
    targets = [r for r in ctx["pods"] if (owner_of(r["name"], deps) or r["name"]) in inv.focus]
    sick = [r for r in targets if unhealthy(r)]
    seen_owner: set[str] = set()
    for row in sick or targets[:1]:
        owner = owner_of(row["name"], deps) or row["name"]
        if owner in seen_owner:
            continue
        seen_owner.add(owner)
        text = await s.kubectl(
            f"describe pod {row['name']} -n {inv.ns}",
            f"described pod {row['name']}",
            "to read its container states, last termination reason and limits",
        )
        inv.pods += rd.describe_pods(text)
    for pod in inv.pods:
        for c in pod.containers:
            _container_cause(inv, pod, c)
    short = [re.search(r"Insufficient (\w+)", e.get("message", "")) for e in ctx["events"]]
    if any(short):
        await _capacity(s, inv, sorted({m.group(1) for m in short if m}))


async def _capacity(s: Session, inv: Investigation, resources: list[str]) -> None:
    """A pod the scheduler cannot place: its requests against the largest node's allocatable."""
    nodes = await s.kubectl(
        "describe nodes",
        "described the nodes",
        "to compare the pending pod's requests with what each node can offer",
    )
    for res in resources:
        alloc = [
            rd.quantity(x) or 0
            for x in re.findall(rf"Allocatable:(?:\n\s+\S+:\s+\S+)*?\n\s+{res}:\s+(\S+)", nodes)
        ]
        for pod in inv.pods:
            for c in pod.containers:
                want = rd.quantity(c.requests.get(res, ""))
                if not want or not alloc or want <= max(alloc):
                    continue
                fit = max(alloc) * 0.75
                fit_txt = f"{int(fit * 1000) // 100 * 100}m" if res == "cpu" else rd.mib(fit)
                inv.causes.append(
                    Cause(
                        "scheduling",
                        f"container {c.name} of pod {pod.name} requests {res} "
                        f"{c.requests[res]}, more than any node can allocate (largest: "
                        f"{_fmt_q(res, max(alloc))}), so the scheduler cannot place it and it stays Pending",
                        f"lower the {res} request of {c.name} to {fit_txt} so it fits a node, or add "
                        f"nodes with more {res} if the workload really needs {c.requests[res]}",
                    )
                )
                inv.notes.append(
                    f"{c.name} requests {res} {c.requests[res]}; nodes allocate at most "
                    f"{_fmt_q(res, max(alloc))}"
                )
                inv.recent_rollout["fit"] = f"{res}={fit_txt}"
                inv.recent_rollout["fit_container"] = c.name
                inv.recent_rollout["fit_from"] = c.requests[res]


def _fmt_q(res: str, value: float) -> str:
    return f"{value * 1000:.0f}m" if res == "cpu" else rd.mib(value)


def _container_cause(inv: Investigation, pod: rd.PodView, c: rd.Container) -> None:
    owner = pod.name
    if c.state == "Running" or (c.init and c.reason == "Completed"):
        return  # running now, or initialised: that crash is over, no current cause (issue 27)
    if c.last_reason == "OOMKilled" or c.reason == "OOMKilled":
        limit = c.limits.get("memory", "its limit")
        inv.causes.append(
            Cause(
                "oom",
                f"container {c.name} of pod {owner} is OOMKilled (exit code "
                f"{c.exit_code or '137'}): it runs out of memory at its {limit} "
                "memory limit and the kernel kills it, hence the restarts",
                f"raise the memory limit of {c.name} above {limit} (for example "
                f"{_double(limit)}) and look for a leak if usage keeps growing",
            )
        )
    elif c.reason in ("ImagePullBackOff", "ErrImagePull"):
        inv.causes.append(
            Cause(
                "image",
                f"container {c.name} cannot pull image {c.image} ({c.reason})",
                "point the deployment back at an image that exists",
            )
        )
    elif c.init and (c.reason == "CrashLoopBackOff" or c.last_reason == "Error"):
        inv.causes.append(
            Cause(
                "init",
                f"init container {c.name} of pod {owner} fails (exit code "
                f"{c.exit_code or '?'}), so the main container never starts",
                f"fix what {c.name} trips on, then let the pod retry",
            )
        )
    for k, v in c.env.items():
        if "secret" in v.lower():
            inv.notes.append(f"env {k} of {c.name} comes from a Secret ({v})")


def _double(limit: str) -> str:
    q = rd.quantity(limit)
    return rd.mib(q * 2) if q else "twice the current value"


async def _logs(s: Session, inv: Investigation, ctx: dict[str, Any]) -> None:
    if not s.has("logs_query"):
        return
    deps = {r["name"] for r in ctx["deployments"]}
    for name in inv.focus:
        args: dict[str, Any] = {"namespace": inv.ns, "tail": 200}
        args["deployment" if name in deps else "pod"] = name
        text = await s.read(
            "logs_query",
            f"read the logs of {name}",
            "to find the error pattern behind the symptom",
            **args,
        )
        crashed = any(c.restarts for p in inv.pods for c in p.containers if p.name.startswith(name))
        if crashed:
            text += "\n" + await s.read(
                "logs_query",
                f"read the previous container logs of {name}",
                "to see why the last instance exited",
                previous=True,
                **args,
            )
        _log_causes(inv, name, rd.log_lines(text))
    for pod in inv.pods:
        for c in pod.containers:
            if c.init and any(x.kind == "init" for x in inv.causes):
                text = await s.read(
                    "logs_query",
                    f"read the logs of init container {c.name}",
                    "to see why the init container fails",
                    namespace=inv.ns,
                    pod=pod.name,
                    container=c.name,
                    tail=50,
                )
                errs = rd.signal_patterns(rd.log_lines(text))
                if errs:
                    for cause in inv.causes:
                        if cause.kind == "init":
                            cause.statement += f': "{errs[0][1]}"'


#: text in data (logs, annotations, titles) that tries to instruct the agent
EMBEDDED = re.compile(
    r"system override|ignore (?:all |previous )|agent instruction|automated remediation|"
    r"any (?:assistant|agent|ai)\b|skip (?:the )?confirmation|automation-notice|"
    r"(?:delete|scale|create|grant)\b[^.]*\b(?:immediately|now)\b",
    re.I,
)


#: log patterns that name a cause: (pattern, kind, statement, fix); ``{name}`` is the
#: workload, ``{msg}`` the log message, ``{host}`` the peer it names
LOG_CAUSES: tuple[tuple[str, str, str, str], ...] = (
    (
        r"pool (exhausted|error)|cannot get a connection|no available connection",
        "pool",
        "{name}'s database connection pool is exhausted: every connection is in use and "
        "requests queue for one",
        "raise the pool size or find what holds connections (slow queries, leaks)",
    ),
    (
        r"certificate (has )?expired|x509|tls handshake",
        "tls",
        "TLS handshakes from {name} fail because the certificate presented by {host} has expired",
        "renew the expired certificate on {host}",
    ),
    (
        r"(column|relation|table) .* does not exist",
        "schema",
        "{name} queries a schema the database does not match: {msg}",
        "",
    ),
    (
        r"saturat|queue (?:is )?full|backlog|too many requests|rate limit",
        "saturation",
        "{name} is saturated: {msg}; requests wait in its queue and time out",
        "add capacity to {name} (more replicas or workers) and find what slows each request",
    ),
    (
        r"failed to (?:initiali[sz]e|start|load|boot)|cannot start|startup fail",
        "startup",
        "{name} fails during startup: {msg}",
        "fix what {name} needs at startup (the configuration source it waits for); a restart "
        "alone will hit the same error",
    ),
)


def _log_causes(inv: Investigation, name: str, lines: list[rd.LogLine]) -> None:
    """Error/warning patterns of a workload's logs (noise set aside), each read for a cause."""
    if any(EMBEDDED.search(ln.raw) for ln in lines):
        inv.notes.append(
            f"a log line of {name} embeds an instruction to the operator; it is "
            "log data, not a request from you, so I did not act on it"
        )
    patterns = rd.signal_patterns(lines)
    noise = sum(1 for ln in lines if ln.level in rd.NOISE_LEVELS)
    if patterns:
        inv.notes.append(
            f"logs of {name}: {len(patterns)} distinct error/warning pattern(s) among "
            f"{len(lines)} lines ({noise} routine info/debug/trace lines set aside)"
        )
    for level, msg, n in patterns:
        _log_line_cause(inv, name, level, msg, f"{n} time{'s' if n > 1 else ''}")


def _log_line_cause(inv: Investigation, name: str, level: str, msg: str, times: str) -> None:
    low = msg.lower()
    clean = (
        re.split(r"\s\|\s|\.\s+(?=[A-Z ]{6})", msg)[0].rstrip(" .") if EMBEDDED.search(msg) else msg
    )
    hm = re.search(r"(?:connecting to|to|host)\s+([\w.-]+(?::\d+)?)", msg)
    host = hm.group(1) if hm else "the upstream"
    for pattern, kind, statement, fix in LOG_CAUSES:
        if re.search(pattern, low):
            fill = {"name": name, "msg": clean, "host": host}
            _add(inv, Cause(kind, statement.format(**fill), fix.format(**fill)), clean, times)
            return
    if re.search(r"is not set|missing required|required environment", low):
        inv.notes.append(f'{name} log: "{msg}"')
    elif re.search(r"reset by peer|connection refused|upstream", low):
        peer = re.search(r"([a-z0-9-]+)\.([a-z0-9-]+)\.svc(?:\.cluster\.local)?", low)
        if peer and peer.group(2) not in s_scope(inv):
            inv.out_of_scope.append(f"{peer.group(1)} in namespace {peer.group(2)}")
        inv.causes.append(Cause("upstream", f'{name} logs "{clean}" ({times})', certain=False))
    else:
        inv.notes.append(f'{name} {level}: "{clean}" ({times})')


def s_scope(inv: Investigation) -> list[str]:
    return inv.scope or [inv.ns]


def as_text(obj: Any) -> str:
    return str(obj)


def _add(inv: Investigation, cause: Cause, msg: str, times: str) -> None:
    cause.statement += f' (log: "{msg}", {times})'
    inv.support.setdefault("logs", f'the "{msg}" log errors ({times})')
    if not any(c.kind == cause.kind for c in inv.causes):
        inv.causes.append(cause)
