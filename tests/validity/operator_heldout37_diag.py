"""heldout37's diagnosis of one workload: it follows what the workload's own pods, events, logs
and series say, most specific first (a missing key, a failing init container, an OOM kill, an
unschedulable pod, a named error in its logs), and says which alternatives it ruled out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import operator_read as rd
from .operator_heldout37_base import Op
from .operator_heldout37_look import Workload, config_refs, configmap, fmt, logs, series, signal


@dataclass
class Finding:
    """What the reads single out: a cause (or none), the evidence and a fix."""

    kind: str = ""
    cause: str = ""
    evidence: list[str] = field(default_factory=list)
    fix: str = ""
    detail: dict[str, str] = field(default_factory=dict)


_CLASSES = (
    (
        r"pool exhausted|cannot get a connection|connection pool",
        "pool",
        "database connection pool exhaustion",
    ),
    (r"certificate (?:has )?expired|x509|tls handshake", "tls", "an expired TLS certificate"),
    (
        r"column .* does not exist|relation .* does not exist|migration",
        "schema",
        "a schema mismatch after a database migration",
    ),
    (r"connection refused", "refused", "a dependency refusing connections"),
    (r"out of memory|oomkilled", "oom", "the container running out of memory"),
)


async def diagnose(op: Op, w: Workload) -> Finding:
    """The first cause the workload's own evidence shows, else an empty finding."""
    for check in (_missing_key, _init_failure, _pending, _oom, _image):
        found = await check(op, w)
        if found.kind:
            return found
    await logs(op, w)
    found = _from_logs(w)
    return found if found.kind else _unready(w)


def _unready(w: Workload) -> Finding:
    """A pod Running but failing its readiness probe while its siblings are fine."""
    bad = [p for p in w.pods if p.get("status") == "Running" and p in w.unhealthy()]
    probe = [e for e in w.events if "Readiness probe failed" in e]
    if not bad or not probe or (len(bad) == len(w.pods) and len(w.pods) > 1):
        return Finding()
    names = ", ".join(f"`{p.get('name')}`" for p in bad)
    return Finding(
        "unready",
        f"pod {names} of `{w.name}` is stuck unhealthy: it runs but fails its readiness probe "
        f"(`{_msg(probe[0])}`), so it is out of the Service and `{w.name}` runs degraded on "
        f"{len(w.pods) - len(bad)}/{len(w.pods)} pods",
        [
            f"{names}: READY `{bad[0].get('ready')}`, events: `{_msg(probe[0])}`",
            f"the other {len(w.pods) - len(bad)} pods are Ready, same image and config",
        ],
        f"restart `{w.ref}` (a rolling restart replaces the stuck pod without downtime)",
        {"pods": names},
    )


async def _missing_key(op: Op, w: Workload) -> Finding:
    said = [e for e in w.events if "couldn't find key" in e or "not found" in e.lower()]
    for cm, key, var in config_refs(w):
        if not key:
            continue
        data = await configmap(op, cm, w.ns, f"check the ConfigMap `{cm}` that `{w.name}` reads")
        if data is not None and key not in data:
            have = ", ".join(f"`{k}`" for k in sorted(data)) or "no keys"
            ev = [
                f"`{w.name}` sets `{var}` from `configMapKeyRef` `{cm}`/`{key}`",
                f"`configmap/{cm}` only has {have}: key `{key}` is missing",
            ]
            ev += [f"the events say: `{_msg(e)}`" for e in said[:1]]
            return Finding(
                "missing_key",
                f"the ConfigMap `{cm}` is missing the key `{key}` that `{w.name}` needs for `{var}`, "
                "so the container fails at start and the pods go into `CrashLoopBackOff`",
                ev,
                f"add `{key}` to `configmap/{cm}` with the right value (the owner knows it), "
                f"then restart `{w.ref}`",
                {"cm": cm, "key": key},
            )
    return Finding()


def _msg(event_line: str) -> str:
    parts = re.split(r"\s{2,}", event_line.strip())
    return parts[-1] if parts else event_line


async def _init_failure(op: Op, w: Workload) -> Finding:
    for pod in w.described:
        for c in pod.containers:
            if not c.init or not (
                c.reason in ("CrashLoopBackOff", "Error") or c.last_reason == "Error"
            ):
                continue
            text = await op.q(
                "logs_query",
                f"why init container `{c.name}` fails",
                namespace=w.ns,
                pod=pod.name,
                container=c.name,
                tail=50,
            )
            bad = [ln.message for ln in rd.log_lines(text) if ln.signal]
            said = bad[-1] if bad else f"exit code {c.exit_code or 'non-zero'}"
            kind = "migration" if re.search(r"migrat", c.name + " " + said, re.I) else "init"
            return Finding(
                kind,
                f"the init container `{c.name}` of `{w.name}` keeps failing ({said}), so the main "
                f"container never starts and the pods never become Ready",
                [
                    f"pod `{pod.name}` is `Init:{c.reason or 'Error'}`, restarts {c.restarts}",
                    f"`{c.name}` logs: `{said}`",
                ],
                f"fix what `{c.name}` trips on (`{said}`) with the schema owners, then let the pod retry",
                {"container": c.name, "message": said, "pod": pod.name},
            )
    return Finding()


async def _pending(op: Op, w: Workload) -> Finding:
    if not any(p.get("status") == "Pending" for p in w.pods):
        return Finding()
    sched = [e for e in w.events if "FailedScheduling" in e]
    msg = _msg(sched[0]) if sched else "pods stay Pending"
    req = {}
    for c in w.containers():
        req = dict((c.get("resources") or {}).get("requests") or {})
    return Finding(
        "pending",
        f"the scheduler can't place `{w.name}`'s pods: `{msg}`; the pod asks for "
        f"`{req.get('cpu', '?')}` CPU, more than any node has free",
        [
            f"pods `Pending`, event `FailedScheduling`: `{msg}`",
            f"CPU request `{req.get('cpu', '?')}`",
        ],
        "lower the CPU request to what a node can fit (or add capacity)",
        {"cpu": str(req.get("cpu", ""))},
    )


async def _oom(op: Op, w: Workload) -> Finding:
    hit = [
        (p, c)
        for p in w.described
        for c in p.containers
        if c.last_reason == "OOMKilled" or c.exit_code == "137"
    ]
    if not hit and not any("OOMKilled" in p.get("status", "") for p in w.pods):
        return Finding()
    limit = next((c.limits.get("memory", "") for p, c in hit if c.limits.get("memory")), "")
    if not limit:
        for c in w.containers():
            limit = str(((c.get("resources") or {}).get("limits") or {}).get("memory", "")) or limit
    got = await series(op, w)
    mem = got.get("container_memory_working_set_bytes", [])
    ev = [
        f"last termination `OOMKilled` (exit code 137), restarts {max((c.restarts for _, c in hit), default=0)}",
        f"memory limit `{limit or 'unset'}`",
    ]
    trend = ""
    if mem:
        trend = f"working set {fmt(mem[0])} -> {fmt(mem[-1])} ({rd.trend(mem)})"
        ev.append(trend)
    lim = rd.quantity(limit) if limit else None
    bigger = rd.mib(lim * 2) if lim else "a higher value"
    return Finding(
        "oom",
        f"`{w.name}` is being OOMKilled: its memory use climbs to the `{limit}` limit and the kernel "
        "kills the container (exit code 137), which is why it keeps restarting",
        ev,
        f"raise the memory limit of `{w.name}` from `{limit}` to `{bigger}` (and look for the leak)",
        {"limit": limit, "to": bigger, "trend": trend},
    )


async def _image(op: Op, w: Workload) -> Finding:
    bad = [
        c
        for p in w.described
        for c in p.containers
        if c.reason in ("ImagePullBackOff", "ErrImagePull")
    ]
    if not bad:
        return Finding()
    return Finding(
        "image",
        f"the image `{bad[0].image}` of `{w.name}` can't be pulled ({bad[0].reason})",
        [f"container `{bad[0].name}` waiting: `{bad[0].reason}`"],
        "fix the image reference or the registry credentials",
    )


def _from_logs(w: Workload) -> Finding:
    pats = signal(w)
    for rx, kind, name in _CLASSES:
        hits = [(lvl, msg, n) for lvl, msg, n in pats if re.search(rx, msg, re.I)]
        if hits:
            lvl, msg, _ = hits[0]
            total = sum(h[2] for h in hits)
            return Finding(
                kind,
                f"{name}: `{w.name}`'s logs repeat `{lvl}: {msg}`",
                [f"{total} matching {lvl} lines in `{w.name}`'s logs, e.g. `{msg}`"],
                "",
                {"message": msg, "count": str(total), "level": lvl},
            )
    return Finding()
