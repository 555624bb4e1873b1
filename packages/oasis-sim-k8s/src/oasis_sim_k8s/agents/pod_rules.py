"""The diagnosis rules about pods (:mod:`.diagnose`): container waiting and termination
reasons, readiness, restarts and init containers from pod status, and the fault-naming log
lines every operator knows. Pure functions."""

from __future__ import annotations

import re
from typing import Any

from .findings import Diagnosis, Finding, host_in, name, remote_service, short, workload_of
from .intent import strip_orders
from .signals import LogLine, ago, signature

#: (fault kind, line pattern, what it means) — log lines that name a specific fault
LOG_FAULTS: tuple[tuple[str, re.Pattern[str], str], ...] = (
    (
        "tls-expired",
        re.compile(
            r"certificate (has )?expired|x509: certificate has expired|cert(ificate)? .*expir",
            re.IGNORECASE,
        ),
        "an expired TLS certificate",
    ),
    (
        "pool-exhausted",
        re.compile(
            r"(connection )?pool (is )?exhausted|cannot get a connection|pool error|"
            r"too many connections|remaining connection slots",
            re.IGNORECASE,
        ),
        "database connection pool exhaustion",
    ),
    (
        "missing-env",
        re.compile(
            r"environment variable (\w+) is not set|missing (required )?(env|config)", re.IGNORECASE
        ),
        "missing configuration",
    ),
    (
        "schema-mismatch",
        re.compile(
            r"column .* does not exist|relation .* does not exist|no such column|"
            r"unknown column",
            re.IGNORECASE,
        ),
        "a database schema mismatch",
    ),
    (
        "migration-failed",
        re.compile(r"migration \S+ failed|migrat\w* .*(error|failed)", re.IGNORECASE),
        "a failed database migration",
    ),
    ("oom", re.compile(r"out of memory|OutOfMemory|oom-?kill", re.IGNORECASE), "memory exhaustion"),
    (
        "upstream",
        re.compile(
            r"upstream (connect error|connection reset|request timeout)|connection reset by peer|"
            r"disconnect/reset before headers|bad gateway",
            re.IGNORECASE,
        ),
        "failing upstream connections",
    ),
    (
        "dependency-refused",
        re.compile(r"connection refused|could not connect|no route to host", re.IGNORECASE),
        "a dependency refusing connections",
    ),
    (
        "app-exception",
        re.compile(r"exception|panic|segfault|stack trace|nullpointer", re.IGNORECASE),
        "an application error (exception)",
    ),
)


def pods(v: Any, d: Diagnosis) -> None:
    """Findings about every pod read, grouped by the workload that owns it."""
    by_workload: dict[str, list[dict[str, Any]]] = {}
    for pod in v.objects.get("pod", []):
        by_workload.setdefault(workload_of(pod), []).append(pod)
    for wl, pods in sorted(by_workload.items()):
        ready = [p for p in pods if is_ready(p)]
        for pod in pods:
            one_pod(v, d, wl, pod, len(ready), len(pods))


def is_ready(pod: dict[str, Any]) -> bool:
    """Running, with every container ready."""
    st = pod.get("status") or {}
    return st.get("phase") == "Running" and all(
        cs.get("ready") for cs in st.get("containerStatuses") or [{}]
    )


def one_pod(v: Any, d: Diagnosis, wl: str, pod: dict[str, Any], ready: int, total: int) -> None:
    """Findings about one pod of workload ``wl`` (``ready`` of ``total`` pods ready)."""
    pname, st = name(pod), pod.get("status") or {}
    spec = pod.get("spec") or {}
    if st.get("phase") in ("Failed", "Succeeded"):
        d.add(
            Finding(
                "evicted" if st.get("reason") == "Evicted" else "finished",
                f"pod/{pname}",
                f"{pname} ({wl}) is {st.get('reason') or st.get('phase')}: {st.get('message') or 'not running'}".rstrip(),
                "pod status",
                wl,
                {"pod": pname},
            )
        )
        return
    _init_containers(v, d, wl, pod)
    limits = {
        c.get("name"): ((c.get("resources") or {}).get("limits") or {})
        for c in spec.get("containers") or []
    }
    for cs in st.get("containerStatuses") or []:
        _container(d, wl, pod, cs, limits.get(cs.get("name"), {}), (ready, total))
    if st.get("phase") == "Pending" and not st.get("containerStatuses"):
        d.add(
            Finding(
                "pending",
                f"pod/{pname}",
                f"{pname} ({wl}) is Pending: not scheduled",
                "pod status",
                wl,
                {"pod": pname},
            )
        )


def _init_containers(v: Any, d: Diagnosis, wl: str, pod: dict[str, Any]) -> None:
    """A failing init container, with what it logs: the main container never starts."""
    pname, st = name(pod), pod.get("status") or {}
    for cs in st.get("initContainerStatuses") or []:
        last = (
            (cs.get("lastState") or {}).get("terminated")
            or (cs.get("state") or {}).get("terminated")
            or {}
        )
        waiting = ((cs.get("state") or {}).get("waiting") or {}).get("reason")
        if not cs.get("ready") and (last.get("exitCode") or waiting == "CrashLoopBackOff"):
            lines = [ln.message for ln in v.logs if ln.source == pname and ln.problem]
            log = v.pod_logs.get(f"{pname}/{cs['name']}", "")
            said = next((ln.strip() for ln in log.splitlines() if ln.strip()), "") or (
                lines[0] if lines else ""
            )
            d.add(
                Finding(
                    "init-failed",
                    f"pod/{pname}",
                    f"init container {cs['name']} of {pname} ({wl}) fails "
                    f"(exit code {last.get('exitCode', '?')}, "
                    f"{cs.get('restartCount', 0)} restarts"
                    + (f", it logs: {said}" if said else "")
                    + f"); the main container never starts, so {wl} has no ready pod",
                    "pod status and init container logs",
                    wl,
                    {"container": cs["name"], "log": said},
                )
            )


def _container(
    d: Diagnosis,
    wl: str,
    pod: dict[str, Any],
    cs: dict[str, Any],
    limits: dict[str, Any],
    counts: tuple[int, int],
) -> None:
    """The finding of one container status: OOMKilled, image pull, crash loop, waiting or
    not ready; ``limits`` are its resource limits, ``counts`` ``(ready, total)`` pods."""
    pname, st = name(pod), pod.get("status") or {}
    ready, total = counts
    state, last = cs.get("state") or {}, cs.get("lastState") or {}
    waiting = (state.get("waiting") or {}).get("reason")
    term = last.get("terminated") or state.get("terminated") or {}
    restarts = cs.get("restartCount", 0)
    if "running" in state and cs.get("ready"):
        return  # running and ready now: its last termination is over, no finding (issue 27)
    if term.get("reason") == "OOMKilled" or term.get("exitCode") == 137:
        d.add(_oom(wl, pod, cs, limits.get("memory")))
    elif waiting in ("ImagePullBackOff", "ErrImagePull", "InvalidImageName"):
        d.add(
            Finding(
                "image-not-found",
                f"deployment/{wl}",
                f"{pname} cannot pull image {cs.get('image')} ({waiting})",
                "pod status",
                wl,
                {"image": cs.get("image")},
            )
        )
    elif waiting == "CrashLoopBackOff" or (term.get("reason") == "Error" and restarts):
        d.add(
            Finding(
                "crashloop",
                f"pod/{pname}",
                f"{pname} ({wl}) is crash-looping: {restarts} restarts, last exit code "
                f"{term.get('exitCode', '?')}",
                "pod status",
                wl,
                {
                    "pod": pname,
                    "restarts": restarts,
                    "bare": not (pod.get("metadata") or {}).get("ownerReferences"),
                },
            )
        )
    elif waiting and waiting not in (
        "PodInitializing",
        "ContainerCreating",
        "CreateContainerConfigError",
    ):
        d.add(
            Finding(
                "waiting",
                f"pod/{pname}",
                f"{pname} ({wl}) is waiting: {waiting}",
                "pod status",
                wl,
            )
        )
    elif st.get("phase") == "Running" and not cs.get("ready") and not restarts and not waiting:
        d.add(
            Finding(
                "not-ready",
                f"pod/{pname}",
                f"{pname} is running but not ready: its readiness probe fails ({ready} of {total} {wl} "
                "pods ready)",
                "pod status and events",
                wl,
                {"pod": pname, "ready": ready, "total": total},
            )
        )


def _oom(wl: str, pod: dict[str, Any], cs: dict[str, Any], limit: Any) -> Finding:
    """An OOMKilled container (exit code 137) and the memory limit it ran out at."""
    pname, restarts = name(pod), cs.get("restartCount", 0)
    return Finding(
        "oom",
        f"deployment/{wl}",
        f"container {cs.get('name')} of {pname} was OOMKilled (exit code 137, {restarts} restarts): "
        f"it runs out of memory at its {limit or 'unset'} memory limit",
        "pod status",
        wl,
        {
            "limit": limit,
            "container": cs.get("name"),
            "restarts": restarts,
            "node": (pod.get("spec") or {}).get("nodeName"),
            "pod": pname,
        },
    )


def logs(v: Any, d: Diagnosis) -> None:
    """Findings from problem log lines, grouped by source and message signature."""
    groups: dict[tuple[str, str], list[LogLine]] = {}
    for line in v.logs:
        if not line.problem:
            d.noise += 1
            continue
        d.problem_lines += 1
        groups.setdefault((line.app or line.source, signature(line.message)), []).append(line)
    for (who, _), lines in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        first = lines[0]
        said, cut = strip_orders(first.message)
        said = said + (
            ' [...]" (the rest of the line is an instruction embedded in the log, ignored)'
            if cut
            else '"'
        )
        for kind, pattern, meaning in LOG_FAULTS:
            if pattern.search(first.message):
                times = [ln.ts for ln in lines if ln.ts]
                when = f", last {ago(max(times), d.now)}" if times and d.now else ""
                subject = (
                    f"deployment/{who}"
                    if any(name(x) == who for x in v.objects.get("deployment", []))
                    else f"{'pod' if who.count('-') >= 2 else 'source'}/{who}"
                )
                d.add(
                    Finding(
                        kind,
                        subject,
                        f'{who} logs {meaning}: "{short(said, 220)} ({len(lines)}x{when})',
                        "logs",
                        who,
                        {
                            "line": strip_orders(first.message)[0],
                            "count": len(lines),
                            "first": min(times) if times else None,
                            "host": host_in(first.message),
                            "remote": remote_service(first.message),
                        },
                    )
                )
                break
        else:
            d.add(
                Finding(
                    "log-error",
                    f"source/{who}",
                    f'{who} logs: "{short(said, 220)} ({len(lines)}x)',
                    "logs",
                    who,
                    {
                        "line": strip_orders(first.message)[0],
                        "count": len(lines),
                        "remote": remote_service(first.message),
                    },
                )
            )
