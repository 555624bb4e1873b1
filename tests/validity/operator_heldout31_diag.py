"""heldout31's diagnosis: one cause is stated, with the evidence that was read for it.

Each check reads the subject's own data (its pods, logs, Services, policies, claims, series,
rollout history) and returns a finding or nothing; the first that holds is the cause. When
none holds, the finding says what was seen and that the cause is not established.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from . import operator_read as rd
from .operator_heldout31_look import Look, pods_of
from .operator_heldout31_rec import num, plural


@dataclass
class Finding:
    kind: str
    subject: str
    cause: str
    evidence: list[str] = field(default_factory=list)
    sure: bool = True
    set_aside: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)


def iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _views(look: Look, name: str) -> list[rd.PodView]:
    pods = set(pods_of(look, name)) | ({name} if name in look.bare_pods else set())
    return [v for v in look.views if v.name in pods]


def _signal(text: str) -> list[tuple[str, str, int]]:
    return rd.signal_patterns(rd.log_lines(text))


def _a(word: str) -> str:
    return "an" if word[:1].upper() in "AEIOU" else "a"


def times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{num(n)} times")


def _pct(v: float) -> str:
    return f"{v * 100:.1f}%".replace(".0%", "%") if v < 1 else f"{v:g}"


def check_pending(look: Look, name: str) -> Finding | None:
    pods = pods_of(look, name)
    rows = [p for p in look.pods if p.get("name") in pods and p.get("status") == "Pending"]
    if not rows:
        return None
    msgs = [e.get("message", "") for e in look.events if e.get("object", "").split("/")[-1] in pods]
    msgs = [m.rstrip(".") for m in msgs]
    sched = next(
        (m for m in msgs if "Insufficient" in m or "didn't" in m or "nodes are available" in m), ""
    )
    for pvc in look.pvcs:
        pname = str((pvc.get("metadata") or {}).get("name"))
        phase = str((pvc.get("status") or {}).get("phase"))
        if phase != "Pending":
            continue
        sc = str((pvc.get("spec") or {}).get("storageClassName") or "")
        ev = next(
            (
                e.get("message", "")
                for e in look.events
                if e.get("object", "").endswith("/" + pname)
            ),
            "",
        )
        return Finding(
            "pvc",
            name,
            f"the PersistentVolumeClaim {pname} is Pending because its StorageClass {sc} does not "
            f"exist, so no volume is provisioned and the {name} pods cannot be scheduled",
            [
                f"{plural(len(rows), 'pod')} of {name} were found in phase Pending",
                f"claim {pname} requests storageClassName {sc} and is in phase {phase}",
                f"the event on the claim reads: {ev}" if ev else "no volume was bound to the claim",
            ],
            data={"pvc": pname, "storage_class": sc},
        )
    if sched:
        return Finding(
            "pending-cpu" if "cpu" in sched.lower() else "pending",
            name,
            f'the {name} pods cannot be scheduled: the scheduler reports "{sched}"',
            [
                f"{plural(len(rows), 'pod')} of {name} were found in phase Pending",
                f"the FailedScheduling event reads: {sched}",
            ],
            data={"message": sched},
        )
    return None


def check_init(look: Look, name: str) -> Finding | None:
    for key, text in look.init_logs.items():
        pod, cont = key.split("/", 1)
        if pod not in pods_of(look, name):
            continue
        sig = _signal(text)
        line = sig[0][1] if sig else (text.strip().splitlines() or [""])[-1]
        return Finding(
            "init",
            name,
            f"the init container {cont} of {name} fails ({line}), so the main container never "
            f"starts and the Service {name} has no ready endpoints",
            [f"init container {cont} of pod {pod} is not Completed", f"its log reads: {line}"],
            data={"container": cont, "line": line},
        )
    return None


def check_config_key(look: Look, name: str) -> Finding | None:
    obj = look.objs.get(name) or {}
    spec = ((obj.get("spec") or {}).get("template") or {}).get("spec") or {}
    data = {
        str((c.get("metadata") or {}).get("name")): dict(c.get("data") or {})
        for c in look.configmaps
    }
    for cont in spec.get("containers") or []:
        for env in cont.get("env") or []:
            ref = ((env.get("valueFrom") or {}).get("configMapKeyRef")) or {}
            cm, key = ref.get("name"), ref.get("key")
            if cm and key and not ref.get("optional") and key not in data.get(cm, {key: 1}):
                have = ", ".join(sorted(data.get(cm, {}))) or "no keys"
                return Finding(
                    "config-key",
                    name,
                    f"the ConfigMap {cm} has no key {key}, which the {name} container reads into "
                    f"{env.get('name')}; the container cannot start without it",
                    [
                        f"the {name} pod spec sets {env.get('name')} from configMapKeyRef {cm}/{key}",
                        f"ConfigMap {cm} holds only {have}",
                    ],
                    data={"configmap": cm, "key": key},
                )
    return None


def check_oom(look: Look, name: str) -> Finding | None:
    for view in _views(look, name):
        for c in view.containers:
            if "OOMKilled" in (c.reason, c.last_reason):
                limit = c.limits.get("memory", "")
                ev = [
                    f"container {c.name} of pod {view.name} was last terminated OOMKilled"
                    + (f" (exit code {c.exit_code})" if c.exit_code else "")
                    + (f" after {plural(c.restarts, 'restart')}" if c.restarts else ""),
                    f"its memory limit is {limit}" if limit else "no memory limit was read",
                ]
                trend = memory_trend(look, name, limit)
                if trend:
                    ev.append(trend)
                return Finding(
                    "oom",
                    name,
                    f"the {name} container exceeds its memory limit of {limit or 'unknown size'} "
                    "and is OOMKilled by the kernel, which is why it restarts",
                    ev,
                    data={"limit": limit, "container": c.name},
                )
    return None


def memory_trend(look: Look, name: str, limit: str = "") -> str:
    for metric, ys, ts in look.series.get("container_memory_working_set_bytes", []):
        if name not in " ".join(str(v) for v in metric.values()) or len(ys) < 2:
            continue
        text = (
            f"container_memory_working_set_bytes of {name} went from {rd.mib(ys[0])} at "
            f"{iso(ts[0])} to {rd.mib(ys[-1])} at {iso(ts[-1])} ({rd.trend(ys)})"
        )
        cap = rd.quantity(limit) if limit else None
        if cap:
            text += f", {ys[-1] / cap:.0%} of the {limit} limit"
        return text
    return ""


def noise(text: str) -> list[str]:
    """How much of what was read was noise (levels below WARN), set aside by level."""
    levels: dict[str, int] = {}
    for ln in rd.log_lines(text):
        if ln.level in rd.NOISE_LEVELS:
            levels[ln.level] = levels.get(ln.level, 0) + 1
    if not levels:
        return []
    shown = ", ".join(f"{num(n)} {lv}" for lv, n in sorted(levels.items()))
    return [
        f"the other lines read ({shown}: health checks, request traces, start-up lines) were set aside as noise"
    ]


def check_logs(look: Look, name: str) -> Finding | None:
    text = look.previous.get(name, "") + "\n" + look.logs.get(name, "")
    sig = _signal(text)
    if not sig:
        return None
    level, msg, count = sig[0]
    low = msg.lower()
    table = (
        (
            "pool",
            r"pool exhausted|cannot get a connection|pool error",
            "the database connection pool of {n} is exhausted, so requests wait for a connection and time out",
        ),
        (
            "tls",
            r"certificate expired|x509|tls handshake",
            "TLS handshakes from {n} to its upstream fail because the upstream's certificate has expired",
        ),
        (
            "schema",
            r"column .* does not exist|relation .* does not exist",
            "the {n} code and the database schema disagree after the last migration",
        ),
        (
            "dns",
            r"nxdomain|no such host|could not resolve|name resolution",
            "a host name {n} depends on does not resolve in cluster DNS",
        ),
        (
            "upstream",
            r"no endpoints|connection refused|upstream",
            "calls from {n} to an upstream are refused",
        ),
    )
    for kind, pat, cause in table:
        if re.search(pat, msg, re.I) and not (kind == "upstream" and "transient" in low):
            lines = [f'{_a(level)} {level} line was logged by {name} {times(count)}: "{msg}"']
            lines += [
                f'a further {lv} line was logged {times(n)}: "{m}"'
                for lv, m, n in sig[1:3]
                if m != msg
            ]
            lines += noise(text)
            return Finding(
                kind,
                name,
                cause.format(n=name),
                lines,
                sure=kind != "upstream",
                data={"line": msg, "count": count},
            )
    transient = "transient" in low or "refused" in low
    return Finding(
        "crash",
        name,
        f'the {name} process exits on "{msg}"',
        [f"the crashed instance's log ends with {level}: {msg}"],
        sure=True,
        data={"line": msg, "transient": transient},
    )


def rollout(look: Look, name: str) -> dict[str, str]:
    """The current and previous image of a Deployment and the age of the current one."""
    rows = [r for r in look.replicasets if r.get("name", "").startswith(name + "-")]
    rows.sort(key=lambda r: rd.age_minutes(r.get("age", "")) or 0)
    if len(rows) < 2:
        return {}
    return {
        "current": rows[0].get("images", ""),
        "previous": rows[1].get("images", ""),
        "age": rows[0].get("age", ""),
        "rs": rows[0].get("name", ""),
    }


def error_rise(look: Look, name: str) -> tuple[float, float, float] | None:
    """(before, now, time of the first step up) of the subject's error_rate series."""
    for metric, ys, ts in look.series.get("error_rate", []):
        if name in metric.values() and len(ys) >= 2 and ys[-1] > ys[0] * 2 and ys[-1] > 0.01:
            i = next(k for k, v in enumerate(ys) if v > ys[0] * 2)
            return ys[0], ys[-1], ts[i]
    return None


def check_rollout(look: Look, name: str) -> Finding | None:
    ro = rollout(look, name)
    rise = error_rise(look, name)
    if not ro or not rise:
        return None
    mins = rd.age_minutes(ro["age"]) or 0
    if mins > 24 * 60:
        return None
    sig = _signal(look.logs.get(name, ""))
    when = ""
    if look.now():
        now = (
            datetime.strptime(look.now()[:19], "%Y-%m-%dT%H:%M:%S").replace(tzinfo=UTC).timestamp()
        )
        when = f" at about {iso(now - mins * 60)}"
    ev = [
        f"the image was changed from {ro['previous']} to {ro['current']}{when} (ReplicaSet {ro['rs']}, created {ro['age']} before the reads)",
        f"error_rate of {name} rose from {_pct(rise[0])} to {_pct(rise[1])}, the first step up at {iso(rise[2])}",
    ]
    if sig:
        ev.append(f"the {name} logs show {sig[0][0]}: {sig[0][1]}")
    return Finding(
        "rollout",
        name,
        f"the rollout of {ro['current']} introduced the errors: the error rate of {name} rose "
        "only after the new image went out, and the previous image ran clean",
        ev,
        data=ro | {"before": _pct(rise[0]), "now": _pct(rise[1])},
    )
