"""heldout42: reading one workload the way an engineer does before saying anything on the call.

The spec (containers, limits, config references, init containers), its pods, the worst pod's
describe, its events, its logs (the crashed instance's too), and the config maps it reads.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from . import operator_read as rd
from .operator_heldout42 import Bridge
from .operator_heldout42_say import of, plural, spoken, words


@dataclass
class Look:
    """What was read about one deployment."""

    name: str
    spec: dict[str, Any] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    selector: dict[str, str] = field(default_factory=dict)
    replicas: int = 0
    pods: list[dict[str, str]] = field(default_factory=list)
    worst: rd.PodView | None = None
    events: list[str] = field(default_factory=list)
    logs: list[rd.LogLine] = field(default_factory=list)
    previous: list[rd.LogLine] = field(default_factory=list)
    missing: list[tuple[str, str]] = field(default_factory=list)
    config_maps: list[str] = field(default_factory=list)
    init_fail: tuple[str, str] = ("", "")

    def containers(self) -> list[dict[str, Any]]:
        return list(self.spec.get("containers") or [])

    def limit(self, what: str = "memory") -> str:
        for c in self.containers():
            val = ((c.get("resources") or {}).get("limits") or {}).get(what)
            if val:
                return str(val)
        return ""

    def request(self, what: str = "cpu") -> str:
        for c in self.containers():
            val = ((c.get("resources") or {}).get("requests") or {}).get(what)
            if val:
                return str(val)
        return ""


def owner_of(meta: dict[str, Any]) -> tuple[str, str]:
    """(team, contact) from labels and annotations, the keys teams use."""
    team = contact = ""
    for key, value in meta.items():
        k = key.split("/")[-1].lower()
        if not team and k in ("team", "owner", "owning-team", "owner-team"):
            team = str(value)
        if not contact and any(
            w in k for w in ("contact", "escalation", "oncall", "on-call", "slack", "pager")
        ):
            contact = str(value)
    return team, contact


async def spec(b: Bridge, name: str) -> Look:
    look = Look(name)
    out = await b.kubectl(
        f"get deployment {name} -n {b.ns} -o yaml",
        f"pulled the spec of the {spoken(name)} deployment",
        "to see its containers, limits and what config it reads",
    )
    docs = rd.items(out)
    if not docs:
        b.saw("It didn't come back")
        return look
    doc = docs[0]
    meta = doc.get("metadata") or {}
    look.labels = {str(k): str(v) for k, v in (meta.get("labels") or {}).items()}
    look.notes = {str(k): str(v) for k, v in (meta.get("annotations") or {}).items()}
    dspec = doc.get("spec") or {}
    look.replicas = int(dspec.get("replicas") or 0)
    look.selector = {
        str(k): str(v) for k, v in ((dspec.get("selector") or {}).get("matchLabels") or {}).items()
    }
    look.spec = (dspec.get("template") or {}).get("spec") or {}
    refs = set()
    for c in [*look.containers(), *(look.spec.get("initContainers") or [])]:
        for e in c.get("env") or []:
            ref = ((e.get("valueFrom") or {}).get("configMapKeyRef") or {}).get("name")
            if ref:
                refs.add(ref)
        for e in c.get("envFrom") or []:
            ref = (e.get("configMapRef") or {}).get("name")
            if ref:
                refs.add(ref)
    for v in look.spec.get("volumes") or []:
        ref = (v.get("configMap") or {}).get("name")
        if ref:
            refs.add(ref)
    look.config_maps = sorted(refs)
    lim = look.limit("memory")
    b.saw(
        f"It wants {plural(look.replicas, 'replica')}"
        + (f", memory limit {lim}" if lim else "")
        + (
            f", and it reads the config map {', '.join(look.config_maps)}"
            if look.config_maps
            else ""
        )
    )
    return look


def _selector(look: Look) -> str:
    sel = look.selector or ({"app": look.name} if look.name else {})
    return ",".join(f"{k}={v}" for k, v in sel.items())


async def pods(b: Bridge, look: Look) -> None:
    out = await b.kubectl(
        f"get pods -n {b.ns} -l {_selector(look)}",
        f"listed the {spoken(look.name)} pods",
        "to see how many are up",
    )
    look.pods = rd.table(out)
    if not look.pods:
        b.saw("No pods at all")
        return
    ready = sum(1 for p in look.pods if _ready(p))
    states = sorted({p.get("status", "") for p in look.pods})
    restarts = max((_restarts(p) for p in look.pods), default=0)
    line = f"{of(ready, len(look.pods), 'pods')} ready, status {', '.join(states)}"
    if restarts:
        line += f", up to {plural(restarts, 'restart')}"
    b.saw(line)


def _ready(row: dict[str, str]) -> bool:
    have, _, want = row.get("ready", "0/1").partition("/")
    return have == want and row.get("status") == "Running"


def _restarts(row: dict[str, str]) -> int:
    m = re.match(r"(\d+)", row.get("restarts", "0"))
    return int(m.group(1)) if m else 0


def worst_pod(look: Look) -> str:
    if not look.pods:
        return ""
    bad = sorted(look.pods, key=lambda p: (_ready(p), -_restarts(p)))
    return bad[0].get("name", "")


async def describe(b: Bridge, look: Look) -> None:
    pod = worst_pod(look)
    if not pod:
        return
    out = await b.kubectl(
        f"describe pod {pod} -n {b.ns}",
        f"described the worst of those pods, {pod}",
        "for its container states, last termination and events",
    )
    views = rd.describe_pods(out)
    look.worst = views[0] if views else None
    if not look.worst:
        return
    look.events = look.worst.events
    said = []
    for c in look.worst.containers:
        if (
            c.init
            and c.state.startswith(("Waiting", "Terminated"))
            and (c.reason or c.last_reason) not in ("", "Completed")
        ):
            look.init_fail = (c.name, c.reason or c.last_reason)
            said.append(f"the init container {c.name} is {c.reason or c.last_reason}")
        elif not c.init and c.last_reason:
            said.append(
                f"{c.name} last died {c.last_reason}"
                + (f" with exit code {c.exit_code}" if c.exit_code else "")
                + (f" after {plural(c.restarts, 'restart')}" if c.restarts else "")
            )
        elif not c.init and c.reason:
            said.append(f"{c.name} is {c.reason}")
    for ev in look.events:
        if re.search(r"couldn't find key|not found|failed|insufficient|error", ev, re.I):
            msg = re.split(r"\s{2,}", ev)[-1]
            said.append(f"the events say {msg}")
            break
    if said:
        b.saw("It shows " + "; ".join(said))


async def logs(b: Bridge, look: Look) -> None:
    if not b.has("logs_query"):
        return
    out = await b.call(
        "logs_query",
        f"pulled the {spoken(look.name)} logs",
        "to see what the app itself says",
        namespace=b.ns,
        deployment=look.name,
        tail=100,
    )
    look.logs = rd.log_lines(out)
    crashed = any(_restarts(p) for p in look.pods)
    if crashed:
        prev = await b.call(
            "logs_query",
            "pulled the logs of the crashed instance, the previous container",
            "since the current one has just started",
            namespace=b.ns,
            deployment=look.name,
            previous=True,
            tail=100,
        )
        look.previous = rd.log_lines(prev)
    sig = rd.signal_patterns(look.logs + look.previous)
    if sig:
        level, msg, n = sig[0]
        b.saw(f"The line that matters is {level} {msg}, {plural(n, 'time')}")
    elif look.logs:
        b.saw("Nothing but routine lines in there")
    noise = sum(1 for ln in look.logs if not ln.signal and ln.level in rd.NOISE_LEVELS)
    if sig and noise:
        b.saw(
            f"The other {plural(noise, 'line')} are routine info and debug, health checks and the like, so I set them aside"
        )
    if look.init_fail[0]:
        init = await b.call(
            "logs_query",
            f"pulled the log of the init container {look.init_fail[0]}",
            "because that's the container that fails before the app starts",
            namespace=b.ns,
            pod=worst_pod(look),
            container=look.init_fail[0],
            tail=50,
        )
        isig = rd.signal_patterns(rd.log_lines(init))
        if isig:
            look.init_fail = (look.init_fail[0], f"{isig[0][0]} {isig[0][1]}")
            b.saw(f"It says {isig[0][0]} {isig[0][1]}")


async def config_maps(b: Bridge, look: Look) -> None:
    """Each config map it reads, checked for the keys the spec asks of it."""
    wanted: dict[str, set[str]] = {}
    for c in [*look.containers(), *(look.spec.get("initContainers") or [])]:
        for e in c.get("env") or []:
            ref = (e.get("valueFrom") or {}).get("configMapKeyRef") or {}
            if ref.get("name") and not ref.get("optional"):
                wanted.setdefault(ref["name"], set()).add(str(ref.get("key")))
    for name in look.config_maps:
        out = await b.kubectl(
            f"get configmap {name} -n {b.ns} -o yaml",
            f"opened the config map {name}",
            "because the deployment takes keys from it",
        )
        docs = rd.items(out)
        if not docs:
            look.missing.append((name, "(the whole config map)"))
            b.saw("It doesn't exist")
            continue
        data = docs[0].get("data") or {}
        gone = sorted(wanted.get(name, set()) - set(data))
        for key in gone:
            look.missing.append((name, key))
        have = ", ".join(sorted(data)) or "nothing"
        b.saw(
            f"It has {have}"
            + (f", but no {', '.join(gone)}, which the deployment asks for" if gone else "")
        )


async def full(b: Bridge, name: str) -> Look:
    look = await spec(b, name)
    await pods(b, look)
    await describe(b, look)
    await logs(b, look)
    await config_maps(b, look)
    return look


def pod_count_said(look: Look) -> str:
    ready = sum(1 for p in look.pods if _ready(p))
    return f"{words(ready)} of {words(len(look.pods))} pods ready" if look.pods else "no pods"
