"""heldout33's diagnosis (session 28, written blind): from the workload the requester asked
about to one cause, each step kept with the call it rests on. At most one cause is committed
to; when the signals do not single one out, the answer says so and who should look.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .operator_heldout33_look import (
    Call,
    Desk,
    Workload,
    amount,
    configmap,
    disk_pressure,
    error_onset,
    logs,
    mb,
)
from .operator_read import items, log_lines, signal_patterns, table


@dataclass
class Finding:
    """What is wrong, why, and the statements (each with its call) that show it."""

    kind: str = ""
    wrong: str = ""
    why: str = ""
    proof: list[tuple[str, Call | None]] = field(default_factory=list)
    sure: bool = True
    data: dict[str, Any] = field(default_factory=dict)

    def add(self, text: str, call: Call | None) -> None:
        self.proof.append((text, call))


def _pending(w: Workload) -> list[Any]:
    return [p for p in w.pods if p.status == "Pending"]


def _sched_msg(w: Workload) -> str:
    for pod in _pending(w):
        for ev in pod.events:
            if "FailedScheduling" in ev or "nodes are available" in ev:
                return ev.split("  ")[-1].strip() if "  " in ev else ev
    for ev in w.events:
        if "FailedScheduling" in ev:
            return ev
    return ""


async def pending(desk: Desk, w: Workload, f: Finding) -> bool:
    """Pods that never get a node: what the scheduler said, and the object it points at."""
    msg = _sched_msg(w) if _pending(w) else ""
    if not msg:
        return False
    n = len(_pending(w))
    f.wrong = f"{n} of {w.name}'s pods are Pending and have not been given a node"
    f.add(f"{n} pod(s) of {w.name} show Pending", w.get_pods)
    low = msg.lower()
    if "persistentvolumeclaim" in low or "unbound" in low:
        return await _pvc(desk, w, f, msg)
    if "insufficient cpu" in low or "insufficient memory" in low:
        res = "cpu" if "cpu" in low else "memory"
        req = next((c.requests.get(res, "") for p in _pending(w) for c in p.containers), "")
        f.kind, f.data = "requests", {"resource": res, "request": req}
        f.why = (
            f"each pod requests {amount(req, res)} of {res}"
            f" and no node has that much {res} left to give, so the scheduler cannot place it"
        )
        f.add(f"the scheduler reported: {msg.strip()}", w.describe)
        return True
    if "disk-pressure" in low or "taint" in low:
        return await _disk(desk, w, f, msg)
    f.kind, f.why, f.sure = "pending", f"the scheduler reported: {msg.strip()}", bool(msg)
    f.add(f"scheduler message: {msg.strip()}", w.describe)
    return True


async def _pvc(desk: Desk, w: Workload, f: Finding, msg: str) -> bool:
    claims = [
        v.get("persistentVolumeClaim", {}).get("claimName", "")
        for v in ((w.deploy.get("spec") or {}).get("template") or {})
        .get("spec", {})
        .get("volumes", [])
        or []
        if isinstance(v, dict) and v.get("persistentVolumeClaim")
    ]
    claim = claims[0] if claims else ""
    call = await desk.k(
        f"describe pvc {claim} -n {w.ns}".replace("pvc  ", "pvc "),
        f"the scheduler said the pod waits on a volume claim, so I read the claim {claim}",
    )
    sc = re.search(r"StorageClass:\s+(\S+)", call.text)
    cls = sc.group(1) if sc else ""
    f.add(f"the scheduler reported: {msg.strip()}", w.describe)
    status = re.search(r"Status:\s+(\S+)", call.text)
    f.add(f"claim {claim} is {status.group(1) if status else 'unbound'}", call)
    sc_call = await desk.k(
        "get storageclass", f"to check whether the storage class {cls} the claim asks for exists"
    )
    have = [r.get("name", "").split()[0] for r in table(sc_call.text) if r.get("name")]
    f.kind, f.data = "pvc", {"claim": claim, "class": cls, "classes": have}
    if cls and cls not in have:
        f.why = (
            f"the claim {claim} asks for storage class '{cls}', which does not exist in the "
            f"cluster (there is only {', '.join(have) or 'none'}), so no volume is ever made"
        )
        f.add(f"storage classes present: {', '.join(have) or 'none'}", sc_call)
    else:
        events = [ln.strip() for ln in call.text.split("Events:")[-1].splitlines() if ln.strip()]
        f.why = f"the claim {claim} cannot be bound: {events[-1] if events else 'no volume'}"
    return True


async def _disk(desk: Desk, w: Workload, f: Finding, msg: str) -> bool:
    call = await desk.k("describe nodes", "the scheduler named a node taint, so I read the nodes")
    bad = disk_pressure(call.text)
    f.kind, f.data = "disk", {"nodes": bad}
    f.why = (
        f"node(s) {', '.join(bad) or 'in the pool'} report DiskPressure, so the kubelet taints"
        " them and the pods are refused or evicted"
    )
    f.add(f"the scheduler reported: {msg.strip()}", w.describe)
    f.add(f"DiskPressure=True on {', '.join(bad) or 'the nodes'}", call)
    return True


async def config_key(desk: Desk, w: Workload, f: Finding) -> bool:
    """A container that cannot start because a ConfigMap key it reads is absent."""
    text = w.describe.text if w.describe else ""
    m = re.search(r"couldn't find key (\S+) in ConfigMap (\S+)/(\S+)", text + "\n".join(w.events))
    refs = re.findall(r"(\w+):\s+<set to the key '([^']+)' of config map '([^']+)'", text)
    if not m and not refs:
        return False
    checked: dict[str, tuple[dict[str, str], Call]] = {}
    for _, key, cm in refs:
        if cm not in checked:
            checked[cm] = await configmap(
                desk, w.ns, cm, f"the pod reads keys of ConfigMap {cm}, so I compared them"
            )
        data, call = checked[cm]
        if key not in data:
            f.kind, f.data = "config_key", {"key": key, "configmap": cm}
            f.wrong = f"{w.name}'s containers cannot start (CreateContainerConfigError/crash loop)"
            f.why = (
                f"the pod spec reads key {key} from ConfigMap {cm}, and {cm} has no {key} key"
                f" (it holds only {', '.join(sorted(data)) or 'nothing'})"
            )
            f.add(f"the container's env takes {key} from ConfigMap {cm}", w.describe)
            f.add(f"ConfigMap {cm} holds {', '.join(sorted(data)) or 'no keys'}", call)
            return True
    return False


async def init_failed(desk: Desk, w: Workload, f: Finding) -> bool:
    for pod in w.pods:
        for c in pod.containers:
            if c.init and (c.reason in ("CrashLoopBackOff", "Error") or c.last_reason == "Error"):
                call = await logs(desk, w, container=c.name)
                errs = signal_patterns(log_lines(call.text))
                line = errs[0][1] if errs else "it exits with an error"
                f.kind, f.data = "init", {"container": c.name, "line": line}
                f.wrong = f"{w.name}'s pods never start: init container {c.name} keeps failing"
                f.why = f"init container {c.name} fails with: {line}"
                f.add(
                    f"init container {c.name} of {pod.name} is {c.reason or c.state}"
                    f" (exit code {c.exit_code or '1'})",
                    w.describe,
                )
                f.add(f"{c.name} printed: {line}", call)
                return True
    return False


async def oom(desk: Desk, w: Workload, f: Finding) -> bool:
    for pod in w.pods:
        for c in pod.containers:
            if not c.init and c.last_reason == "OOMKilled":
                lim = c.limits.get("memory", "")
                f.kind, f.data = "oom", {"limit": lim, "container": c.name, "restarts": c.restarts}
                f.wrong = f"{w.name} keeps restarting ({c.restarts} restarts on {pod.name})"
                f.why = (
                    f"container {c.name} is killed by the kernel for running out of memory"
                    f" (OOMKilled, exit code {c.exit_code or '137'}) at its {mb(lim)} limit"
                )
                f.add(
                    f"last state of {c.name} on {pod.name}: OOMKilled, exit code"
                    f" {c.exit_code or '137'}, memory limit {mb(lim)}",
                    w.describe,
                )
                return True
    return False


#: what a log line shows, as an operator names it (a pattern of words, the cause it states)
LOG_CAUSES: tuple[tuple[str, str, str], ...] = (
    (
        "pool",
        r"pool exhausted|cannot get a connection|pool error",
        "the database connection pool is exhausted",
    ),
    ("tls", r"certificate (has )?expired|x509", "the upstream's TLS certificate has expired"),
    (
        "dns",
        r"nxdomain|no such host|could not resolve|name resolution",
        "a host name no longer resolves in cluster DNS",
    ),
    (
        "schema",
        r"column .* does not exist|relation .* does not exist",
        "the database schema does not match the code",
    ),
    ("refused", r"connection refused", "a dependency refuses connections"),
    ("code", r"exception|panic|nullpointer|traceback", "the new code throws on requests"),
    ("reset", r"reset by peer|upstream connect error|502", "upstream connections are being reset"),
)


def log_cause(text: str) -> tuple[str, str, str, int] | None:
    pats = signal_patterns(log_lines(text))
    for kind, rx, said in LOG_CAUSES:
        for _lvl, msg, n in pats:
            if re.search(rx, msg, re.I):
                return kind, said, msg, n
    return None


async def from_logs(desk: Desk, w: Workload, f: Finding) -> bool:
    crashing = any(
        c.restarts > 0 or c.reason == "CrashLoopBackOff" for p in w.pods for c in p.containers
    )
    call = await logs(desk, w, previous=crashing)
    hit = log_cause(call.text)
    if hit is None and crashing:
        call = await logs(desk, w)
        hit = log_cause(call.text)
    if hit is None:
        return False
    kind, said, msg, n = hit
    f.kind, f.data = f"log_{kind}", {"line": msg, "count": n, "logs": call}
    f.why = f'{said}: {w.name} logged "{msg}" {n} time(s) in the lines I read'
    f.add(f'{n} log line(s) read: "{msg}"', call)
    if not f.wrong:
        f.wrong = (
            f"{w.name} keeps crashing"
            if crashing
            else f"{w.name}'s pods run, but its requests are failing or slow"
        )
    return True


async def rollout_age(desk: Desk, w: Workload) -> tuple[float | None, str, Call]:
    """Minutes since the newest ReplicaSet of the workload, and the image before it."""
    from .operator_read import age_minutes

    if w.bare:
        return None, "", w.get_pods  # type: ignore[return-value]
    sel = ((w.deploy.get("spec") or {}).get("selector") or {}).get("matchLabels") or {}
    flt = ",".join(f"{k}={v}" for k, v in sorted(sel.items()))
    call = await desk.k(
        f"get replicasets -n {w.ns} -l {flt} -o wide", f"to see when {w.name} was last rolled out"
    )
    rows = [r for r in table(call.text) if r.get("name", "").startswith(w.name)]
    aged = sorted(
        ((age_minutes(r.get("age", "")), r.get("images", "")) for r in rows),
        key=lambda x: x[0] if x[0] is not None else 1e9,
    )
    newest = aged[0][0] if aged else None
    previous = aged[1][1] if len(aged) > 1 else ""
    return newest, previous, call


async def service_path(desk: Desk, w: Workload, f: Finding) -> bool:
    """Ready pods a Service does not reach: the Service's selector against the pods' labels."""
    call = await desk.k(f"get services -n {w.ns} -o yaml", "to see which Service fronts it")
    for svc in items(call.text):
        name = (svc.get("metadata") or {}).get("name", "")
        sel = (svc.get("spec") or {}).get("selector") or {}
        if not sel or not name.startswith(w.name.split("-")[0]):
            continue
        ep = await desk.k(f"get endpoints {name} -n {w.ns}", f"to see whether {name} has backends")
        rows = table(ep.text)
        empty = not rows or rows[0].get("endpoints", "") in ("", "<none>")
        if not empty:
            continue
        labels = (((w.deploy.get("spec") or {}).get("template") or {}).get("metadata") or {}).get(
            "labels"
        ) or {}
        diff = {k: v for k, v in sel.items() if labels.get(k) != v}
        if not diff:
            continue
        f.kind, f.data = "selector", {"service": name, "selector": sel, "labels": labels}
        f.wrong = f"Service {name} has no endpoints although {w.name}'s pods are running"
        want = ", ".join(f"{k}={v}" for k, v in sorted(diff.items()))
        have = ", ".join(f"{k}={labels.get(k, '(absent)')}" for k in sorted(diff))
        f.why = (
            f"Service {name} selects pods labelled {want}, but {w.name}'s pods carry {have},"
            " so the Service routes to nothing"
        )
        f.add(f"{name} selects {want}", call)
        f.add(f"{name} has no endpoints", ep)
        f.add(f"{w.name}'s pod template labels: {have}", w.deploy_call)
        return True
    return False


async def recent_rollout(desk: Desk, w: Workload, f: Finding) -> bool:
    """No error in the pods themselves, but a rollout shortly before the errors rose."""
    age, prev, rs = await rollout_age(desk, w)
    if age is None or age > 90 or not desk.has("metrics_query"):
        return False
    rise = await error_onset(desk, w)
    if rise is None:
        return False
    before, now, onset, call = rise
    if onset is None or onset > age + 5:
        return False
    f.kind, f.data = "rollout", {"age": age, "previous": prev}
    f.wrong = f"{w.name} fails {now:.3g} of requests now, against {before:.3g} before"
    f.why = (
        f"the rollout of {w.image} {age:.0f} minutes ago (replacing {prev or 'the previous image'});"
        f" the error rate left its baseline about {onset:.0f} minutes ago, right after it, and"
        " nothing else in the pods changed"
    )
    f.add(f"newest ReplicaSet {age:.0f} minutes old, image {w.image}", rs)
    f.add(f"error rate {before:.3g} before, {now:.3g} now", call)
    return True


async def unready(desk: Desk, w: Workload, f: Finding) -> bool:
    """Some pods Running but failing their readiness probe while their siblings pass."""
    bad = [
        p
        for p in w.pods
        if p.status == "Running" and any("Readiness probe failed" in ev for ev in p.events)
    ]
    if not bad or (len(bad) == len(w.pods) and len(w.pods) > 1):
        return False
    msg = next(ev for ev in bad[0].events if "Readiness probe failed" in ev)
    msg = msg[msg.find("Readiness") :]
    f.kind, f.data = "unready", {"pods": [p.name for p in bad]}
    f.wrong = (
        f"{w.name} is degraded: {len(bad)} of its {len(w.pods)} pods is out of service"
        f" ({', '.join(p.name for p in bad)})"
    )
    f.why = (
        f"{bad[0].name} fails its readiness probe ({msg.strip()}) while the other pods of the"
        " same ReplicaSet and image pass theirs, so the fault is in that pod's state, not the"
        " code or config"
    )
    f.add(f"{bad[0].name}: {msg.strip()}", w.describe)
    return True


async def diagnose(desk: Desk, w: Workload) -> Finding:
    f = Finding()
    for step in (
        pending,
        config_key,
        init_failed,
        oom,
        from_logs,
        unready,
        recent_rollout,
        service_path,
    ):
        if await step(desk, w, f):
            return f
    f.sure, f.kind = False, "unclear"
    f.wrong = f"{w.name} does not show one clear fault in what I read"
    return f
