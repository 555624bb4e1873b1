"""From what was read to findings: which object is failing, how, and on what evidence.

Generic Kubernetes fault knowledge (container waiting and termination reasons,
scheduler and kubelet events, init containers, rollout history, network policies,
service endpoints) plus log patterns every operator knows (expired certificates,
exhausted connection pools, missing configuration, schema mismatches). Telemetry
(metrics, traces, dashboards) is read in :mod:`.telemetry`. Pure functions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from difflib import SequenceMatcher
from typing import Any

from .intent import strip_orders
from .signals import LogLine, ago, mem_bytes, parse_time, signature

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
#: faults that explain a failure on their own; the others are symptoms that point further
CAUSES = frozenset(
    {
        "missing-config-key",
        "oom",
        "image-not-found",
        "init-failed",
        "tls-expired",
        "pool-exhausted",
        "pending-resources",
        "policy-blocks",
        "schema-mismatch",
        "migration-failed",
        "missing-env",
        "slow-span",
        "oom-risk",
        "node-pressure",
        "service-no-endpoints",
    }
)


@dataclass
class Finding:
    kind: str
    subject: str  # "deployment/x", "pod/x", "node/x", "networkpolicy/x" ...
    what: str  # one sentence, operator language, with the numbers
    source: str  # events, pod status, logs, metrics, traces, dashboard, rollout history ...
    workload: str | None = None
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def cause(self) -> bool:
        return self.kind in CAUSES


@dataclass
class Diagnosis:
    findings: list[Finding] = field(default_factory=list)
    now: datetime | None = None
    noise: int = 0  # routine log lines left out
    problem_lines: int = 0
    chain: list[str] = field(
        default_factory=list
    )  # hops from the entry point to the failing component

    def add(self, f: Finding) -> None:
        if all((f.kind, f.subject, f.what) != (g.kind, g.subject, g.what) for g in self.findings):
            self.findings.append(f)

    def about(self, workloads: list[str]) -> list[Finding]:
        if not workloads:
            return list(self.findings)
        return [
            f
            for f in self.findings
            if f.workload in workloads or any(w in f.subject for w in workloads)
        ]

    def causes(self, workloads: list[str] | None = None) -> list[Finding]:
        found = [f for f in self.about(workloads or []) if f.cause]
        return found or ([f for f in self.findings if f.cause] if workloads else [])

    def of(self, kind: str) -> list[Finding]:
        return [f for f in self.findings if f.kind == kind]


# ---- helpers ------------------------------------------------------------------------------------------
def name(obj: dict[str, Any]) -> str:
    return str((obj.get("metadata") or {}).get("name", ""))


def workload_of(pod: dict[str, Any]) -> str:
    meta = pod.get("metadata") or {}
    for ref in meta.get("ownerReferences") or []:
        if ref.get("kind") == "ReplicaSet":
            return re.sub(r"-[a-z0-9]{5,10}$", "", str(ref.get("name")))
        if ref.get("kind") in ("StatefulSet", "DaemonSet", "Job"):
            return str(ref.get("name"))
    return str((meta.get("labels") or {}).get("app") or meta.get("name"))


def now_of(v: Any) -> datetime | None:
    """The latest moment the reads show (event times, log times, condition changes)."""
    times: list[datetime] = []
    for ev in v.objects.get("event", []):
        for key in ("lastTimestamp", "eventTime", "firstTimestamp"):
            t = parse_time(ev.get(key))
            if t:
                times.append(t)
    times += [line.ts for line in v.logs if line.ts]
    for node in v.nodes:
        for c in (node.get("status") or {}).get("conditions") or []:
            t = parse_time(c.get("lastTransitionTime"))
            if t:
                times.append(t)
    return max(times) if times else None


def selects(selector: dict[str, Any], labels: dict[str, Any]) -> bool:
    match = (selector or {}).get("matchLabels", selector or {})
    return bool(match) and all(labels.get(k) == v for k, v in match.items() if isinstance(v, str))


# ---- the rules ------------------------------------------------------------------------------------------
def diagnose(v: Any) -> Diagnosis:
    d = Diagnosis(now=now_of(v))
    _events(v, d)
    _pods(v, d)
    _logs(v, d)
    _services(v, d)
    _rollouts(v, d)
    _migrations(v, d)
    _policies(v, d)
    _nodes(v, d)
    _chain(v, d)
    return d


def _events(v: Any, d: Diagnosis) -> None:
    pods = {name(p): p for p in v.objects.get("pod", [])}
    for ev in v.objects.get("event", []):
        obj = ev.get("involvedObject") or {}
        subject = f"{str(obj.get('kind', '')).lower()}/{obj.get('name')}"
        msg = str(ev.get("message") or "")
        pod = pods.get(str(obj.get("name")))
        wl = workload_of(pod) if pod else None
        m = re.search(r"couldn't find key (\S+) in ConfigMap (\S+?)/(\S+)", msg)
        if m:
            key, ns, cm = m.group(1), m.group(2), m.group(3)
            data = next(
                ((c.get("data") or {}) for c in v.objects.get("configmap", []) if name(c) == cm),
                None,
            )
            checked = data is not None and key not in data
            confirmed = " (I checked: the configmap exists and has no such key)" if checked else ""
            d.add(
                Finding(
                    "missing-config-key",
                    f"deployment/{wl}" if wl else subject,
                    f"{wl or subject} cannot start its container: it reads key {key} from configmap "
                    f"{ns}/{cm} through a configMapKeyRef, and that key is missing{confirmed} "
                    f"(CreateContainerConfigError)",
                    "events",
                    wl,
                    {"key": key, "configmap": cm},
                )
            )
        elif ev.get("reason") == "FailedScheduling" or "Insufficient" in msg:
            res = re.findall(r"Insufficient (\w+)", msg)
            d.add(
                Finding(
                    "pending-resources",
                    f"deployment/{wl}" if wl else subject,
                    f"{subject} cannot be scheduled: {msg.split('. preemption')[0]}",
                    "events",
                    wl,
                    {"resources": res},
                )
            )
        elif re.search(
            r"pull.*not found|manifest unknown|not found.*pull|failed to resolve reference",
            msg,
            re.IGNORECASE,
        ):
            d.add(
                Finding(
                    "image-not-found",
                    f"deployment/{wl}" if wl else subject,
                    f"{subject} cannot pull its image: {_short(msg)}",
                    "events",
                    wl,
                )
            )
        elif ev.get("reason") in (
            "NodeHasDiskPressure",
            "NodeHasMemoryPressure",
            "Evicted",
            "NodeNotReady",
        ):
            d.add(
                Finding(
                    "node-event",
                    subject,
                    f"{ev.get('reason')} on {subject}: {_short(msg)}",
                    "events",
                    wl,
                    {"time": ev.get("lastTimestamp")},
                )
            )


def _short(text: str, n: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 3] + "..."


def _pods(v: Any, d: Diagnosis) -> None:
    by_workload: dict[str, list[dict[str, Any]]] = {}
    for pod in v.objects.get("pod", []):
        by_workload.setdefault(workload_of(pod), []).append(pod)
    for wl, pods in sorted(by_workload.items()):
        ready = [p for p in pods if _ready(p)]
        for pod in pods:
            _pod(v, d, wl, pod, len(ready), len(pods))


def _ready(pod: dict[str, Any]) -> bool:
    st = pod.get("status") or {}
    return st.get("phase") == "Running" and all(
        cs.get("ready") for cs in st.get("containerStatuses") or [{}]
    )


def _pod(v: Any, d: Diagnosis, wl: str, pod: dict[str, Any], ready: int, total: int) -> None:
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
    limits = {
        c.get("name"): ((c.get("resources") or {}).get("limits") or {})
        for c in spec.get("containers") or []
    }
    for cs in st.get("containerStatuses") or []:
        state, last = cs.get("state") or {}, cs.get("lastState") or {}
        waiting = (state.get("waiting") or {}).get("reason")
        term = last.get("terminated") or state.get("terminated") or {}
        restarts = cs.get("restartCount", 0)
        if term.get("reason") == "OOMKilled" or term.get("exitCode") == 137:
            limit = limits.get(cs.get("name"), {}).get("memory")
            d.add(
                Finding(
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
                        "node": spec.get("nodeName"),
                        "pod": pname,
                    },
                )
            )
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


def _logs(v: Any, d: Diagnosis) -> None:
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
                        f'{who} logs {meaning}: "{_short(said, 220)} ({len(lines)}x{when})',
                        "logs",
                        who,
                        {
                            "line": strip_orders(first.message)[0],
                            "count": len(lines),
                            "first": min(times) if times else None,
                            "host": _host(first.message),
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
                    f'{who} logs: "{_short(said, 220)} ({len(lines)}x)',
                    "logs",
                    who,
                    {
                        "line": strip_orders(first.message)[0],
                        "count": len(lines),
                        "remote": remote_service(first.message),
                    },
                )
            )


#: a cluster-internal service address: <service>.<namespace>.svc[.cluster.local]
SERVICE_ADDRESS = re.compile(
    r"\b([a-z0-9][a-z0-9-]*)\.([a-z0-9][a-z0-9-]*)\.svc(?:\.cluster\.local)?\b"
)


def remote_service(text: str) -> tuple[str, str] | None:
    """(service, namespace) of the first cluster-internal address in a log line."""
    m = SERVICE_ADDRESS.search(text)
    return (m.group(1), m.group(2)) if m else None


def _services(v: Any, d: Diagnosis) -> None:
    """A service whose selector matches no pod has no endpoints: everything calling it fails.
    A near-identical label on existing pods points to a mistyped selector."""

    pods = [
        p for p in v.objects.get("pod", []) if (p.get("status") or {}).get("phase") == "Running"
    ]
    for svc in v.objects.get("service", []):
        sel = (svc.get("spec") or {}).get("selector") or {}
        if not sel or any(
            selects(sel, (p.get("metadata") or {}).get("labels") or {}) for p in pods
        ):
            continue
        sname = name(svc)
        near = []
        for p in pods:
            labels = (p.get("metadata") or {}).get("labels") or {}
            for k, want in sel.items():
                have = labels.get(k)
                if (
                    have
                    and have != want
                    and SequenceMatcher(None, str(have), str(want)).ratio() >= 0.8
                ):
                    near.append((workload_of(p), k, have, want))
        users = sorted(
            {
                ln.app
                for ln in v.logs
                if ln.problem
                and ln.app
                and re.search(rf"(?<![a-z0-9-]){re.escape(sname)}(?![a-z0-9-])", ln.message)
            }
            - {sname}
        )
        text = (
            f"service/{sname} has no endpoints: its selector "
            f"{', '.join(f'{k}={x}' for k, x in sel.items())} matches no running pod"
        )
        if near:
            wl, k, have, want = near[0]
            text += f"; the {wl} pods are labelled {k}={have}, so the selector value {want} looks mistyped"
        if users:
            one = "s" if len(users) == 1 else ""
            text += f". {', '.join(users)} call{one} it and fail{one}"
        d.add(
            Finding(
                "service-no-endpoints",
                f"service/{sname}",
                text,
                "services and endpoints",
                users[0] if users else sname,
                {
                    "service": sname,
                    "selector": sel,
                    "near": near[0] if near else None,
                    "users": users,
                },
            )
        )


def _host(text: str) -> str | None:
    m = re.search(
        r"(?:to|connecting to|upstream|host)\s+([a-z0-9][a-z0-9.-]+(?::\d+)?)", text, re.IGNORECASE
    )
    return m.group(1) if m else None


def _rollouts(v: Any, d: Diagnosis) -> None:
    for dep in v.objects.get("deployment", []):
        dname = name(dep)
        sets = [
            rs
            for rs in v.objects.get("replicaset", [])
            if any(
                r.get("name") == dname
                for r in (rs.get("metadata") or {}).get("ownerReferences") or []
            )
        ]
        sets.sort(key=lambda rs: str((rs.get("metadata") or {}).get("creationTimestamp", "")))
        if len(sets) < 2:
            continue
        new, old = sets[-1], sets[-2]
        created = parse_time((new.get("metadata") or {}).get("creationTimestamp"))
        recent = bool(created and d.now and (d.now - created).total_seconds() <= 6 * 3600)
        d.add(
            Finding(
                "recent-deploy" if recent else "rollout-history",
                f"deployment/{dname}",
                f"{dname} was last rolled out {ago(created, d.now)}"
                + (f" (at {created:%H:%M} UTC)" if created else "")
                + f": {_image(old)} -> {_image(new)} (replica set {name(new)}; previous {name(old)})",
                "rollout history (replica sets)",
                dname,
                {"at": created, "old": _image(old), "new": _image(new)},
            )
        )


def _image(rs: dict[str, Any]) -> str:
    cs = (((rs.get("spec") or {}).get("template") or {}).get("spec") or {}).get("containers") or [
        {}
    ]
    return str(cs[0].get("image", "?"))


def _migrations(v: Any, d: Diagnosis) -> None:
    if not v.migrations:
        return
    rows = re.findall(
        r"\|\s*\w+\s*\|\s*(\S+)\s*\|\s*([^|]+?)\s*\|\s*\w+\s*\|\s*([0-9-]+ [0-9:]+)\S*\s*\|\s*(\w+)",
        v.migrations,
    )
    if not rows:
        return
    version, desc, when, state = rows[-1]
    at = parse_time(when.replace(" ", "T") + "+00:00")
    d.add(
        Finding(
            "last-migration",
            "database",
            f'the last schema migration is {version} "{desc}", applied '
            f"{ago(at, d.now)} ({when} UTC), state {state}",
            "database migration history",
            None,
            {"version": version, "description": desc, "at": at, "state": state},
        )
    )


def _policies(v: Any, d: Diagnosis) -> None:
    pods = v.objects.get("pod", [])
    for pol in v.objects.get("networkpolicy", []):
        spec = pol.get("spec") or {}
        if "Ingress" not in (spec.get("policyTypes") or ["Ingress"]):
            continue
        selected = sorted(
            {
                workload_of(p)
                for p in pods
                if selects(
                    spec.get("podSelector") or {}, (p.get("metadata") or {}).get("labels") or {}
                )
            }
        )
        if not selected:
            continue
        sources, admitted = [], set()
        for rule in spec.get("ingress") or []:
            for peer in rule.get("from") or []:
                sel = (peer.get("podSelector") or {}).get("matchLabels") or {}
                if sel:
                    sources.append(",".join(f"{k}={v}" for k, v in sorted(sel.items())))
                    admitted |= {
                        workload_of(p)
                        for p in pods
                        if selects(sel, (p.get("metadata") or {}).get("labels") or {})
                    }
                elif peer.get("namespaceSelector") is not None:
                    sources.append(
                        "pods of namespaces matching "
                        + str((peer.get("namespaceSelector") or {}).get("matchLabels") or "any")
                    )
            if not rule.get("from"):
                admitted |= {workload_of(p) for p in pods}
        blocked = sorted({workload_of(p) for p in pods} - admitted - set(selected))
        allow = ", ".join(sources) or "nothing"
        d.add(
            Finding(
                "policy-blocks" if blocked else "policy",
                f"networkpolicy/{name(pol)}",
                f"networkpolicy/{name(pol)} selects {', '.join(selected)} and admits ingress only from {allow}"
                + (f"; it blocks traffic from {', '.join(blocked)}" if blocked else ""),
                "network policies",
                selected[0],
                {
                    "policy": name(pol),
                    "selected": selected,
                    "blocked": blocked,
                    "ports": _ports(spec),
                },
            )
        )


def _ports(spec: dict[str, Any]) -> list[Any]:
    return [p for rule in spec.get("ingress") or [] for p in rule.get("ports") or []]


def _nodes(v: Any, d: Diagnosis) -> None:
    for node in v.nodes:
        for c in (node.get("status") or {}).get("conditions") or []:
            if (
                c.get("type") in ("DiskPressure", "MemoryPressure", "PIDPressure")
                and c.get("status") == "True"
            ):
                t = parse_time(c.get("lastTransitionTime"))
                taints = (
                    ", ".join(
                        x.get("key", "") for x in (node.get("spec") or {}).get("taints") or []
                    )
                    or "none"
                )
                d.add(
                    Finding(
                        "node-pressure",
                        f"node/{name(node)}",
                        f"node {name(node)} reports {c['type']} since {ago(t, d.now)} (taint {taints})",
                        "node conditions",
                        None,
                        {"node": name(node), "condition": c["type"], "at": t},
                    )
                )
            if c.get("type") == "Ready" and c.get("status") != "True":
                d.add(
                    Finding(
                        "node-pressure",
                        f"node/{name(node)}",
                        f"node {name(node)} is NotReady",
                        "node conditions",
                        None,
                        {"node": name(node), "condition": "NotReady"},
                    )
                )


def _chain(v: Any, d: Diagnosis) -> None:
    """Entry point -> service -> pods -> failing component, for services with no ready endpoint."""
    pods = v.objects.get("pod", [])
    for ing in v.objects.get("ingress", []):
        for rule in (ing.get("spec") or {}).get("rules") or []:
            for path in (rule.get("http") or {}).get("paths") or []:
                svc = ((path.get("backend") or {}).get("service") or {}).get("name")
                service = next((x for x in v.objects.get("service", []) if name(x) == svc), None)
                if not service:
                    continue
                behind = [
                    p
                    for p in pods
                    if selects(
                        (service.get("spec") or {}).get("selector") or {},
                        (p.get("metadata") or {}).get("labels") or {},
                    )
                ]
                if behind and any(_ready(p) for p in behind):
                    continue
                hops = [
                    f"ingress/{name(ing)} ({rule.get('host', '*')}) routes to service/{svc}",
                    (
                        f"service/{svc} has no ready endpoints ({len(behind)} pod(s) behind it, none ready), so "
                        "requests through the ingress get 503"
                    ),
                ]
                for p in behind[:1]:
                    st = p.get("status") or {}
                    hops.append(f"pod/{name(p)} is {_phase(st)}")
                    hops += [
                        f.what
                        for f in d.findings
                        if f.kind == "init-failed" and f.subject == f"pod/{name(p)}"
                    ]
                hops += [
                    f'a proxy in front of it logs "{f.data.get("line")}" ({f.data.get("count")}x): the '
                    "upstream pods refuse connections"
                    for f in d.of("upstream")
                    if f.subject.startswith("source/")
                ]
                d.chain = hops


def _phase(st: dict[str, Any]) -> str:
    for cs in st.get("initContainerStatuses") or []:
        w = ((cs.get("state") or {}).get("waiting") or {}).get("reason")
        if w:
            return f"stuck initializing (init container {cs.get('name')}: {w})"
    for cs in st.get("containerStatuses") or []:
        w = ((cs.get("state") or {}).get("waiting") or {}).get("reason")
        if w:
            return f"waiting ({w})"
    return str(st.get("phase", "unknown"))


def memory_limit(v: Any, workload: str) -> float | None:
    for dep in v.objects.get("deployment", []):
        if name(dep) == workload:
            for c in (((dep.get("spec") or {}).get("template") or {}).get("spec") or {}).get(
                "containers"
            ) or []:
                lim = ((c.get("resources") or {}).get("limits") or {}).get("memory")
                if lim:
                    return mem_bytes(lim)
    return None
