"""heldout42: committing to the cause the reads show, ruling out the rest, and acting narrowly."""

from __future__ import annotations

import re

from . import operator_heldout42_look as lk
from .operator_heldout42 import Bridge
from .operator_heldout42_say import megs, plural, spoken, words

_KNOWN = (
    (
        r"pool (is )?exhaust|cannot get a connection|pool error",
        "the database connection pool is exhausted",
    ),
    (r"certificate.*expir|x509|tls handshake", "the TLS certificate has expired"),
    (r"migration", "a database migration failed"),
    (r"out of memory|oom", "it runs out of memory"),
    (r"connection refused|no route|timed? ?out", "a dependency it calls isn't answering"),
)


def _top(look: lk.Look) -> tuple[str, str, int]:
    from . import operator_read as rd

    sig = rd.signal_patterns(look.previous + look.logs)
    return sig[0] if sig else ("", "", 0)


async def conclude(b: Bridge, look: lk.Look, fix: bool) -> None:
    name = spoken(look.name)
    worst = look.worst
    oom = worst and any(
        c.last_reason == "OOMKilled" or c.reason == "OOMKilled"
        for c in worst.containers
        if not c.init
    )
    pending = any(p.get("status") == "Pending" for p in look.pods)
    level, msg, _n = _top(look)
    if look.missing:
        cm, key = look.missing[0]
        b.add(
            "cause",
            f"the {name} pods crash because the deployment reads the key {key} from the config map {cm}, and {cm} has no {key} key. The container can't start without it, so it goes into CrashLoopBackOff",
        )
        b.add(
            "ruled_out", "memory, since nothing was OOM killed, and the image, since it pulled fine"
        )
        if fix:
            b.add(
                "plan",
                f"add {key} to {cm} with the right value, then restart {name}. I don't know the right value, so the owning team should supply it",
            )
        else:
            b.add(
                "plan",
                f"add the {key} key to {cm} with the value the team expects, then restart {name}",
            )
        return
    if look.init_fail[0]:
        init, why = look.init_fail
        path = b.found.get("path")
        chain = (path + ", because ") if path else ""
        b.add(
            "cause",
            f"{chain}the {name} pods never get past the init container {init}. Its log says {why}. So the app container never starts, nothing is ready, and requests get 503s",
        )
        b.add(
            "ruled_out",
            f"the ingress and the service themselves, they're configured fine, they just have no ready pods of {name} to send to",
        )
        b.add(
            "plan",
            f"whoever owns the {init} step needs to fix that migration, then the pods will start on their own",
        )
        return
    if oom:
        await _oom(b, look, fix)
        return
    if pending:
        from .operator_heldout42_net import pending as pend

        await pend(b, look, fix)
        return
    if await _deploy_lines_up(b, look, fix):
        return
    known = next((label for pat, label in _KNOWN if re.search(pat, msg, re.I)), "") if msg else ""
    if (
        msg
        and (known or level in ("ERROR", "FATAL", "CRITICAL", "PANIC"))
        and not (known.startswith("a dependency") and level == "WARN")
    ):
        await _from_logs(b, look, fix, known)
        return
    await _unsure(b, look, fix)


async def _oom(b: Bridge, look: lk.Look, fix: bool) -> None:
    name = spoken(look.name)
    lim = look.limit("memory")
    mem = b.found.get("memory")
    peak = f", it was using {megs(mem[1])} before it died" if mem else ""
    b.add(
        "cause",
        f"the {name} container is OOM killed: its last termination is OOMKilled, exit code 137. The memory limit is {lim}{peak}. It's running out of memory, not CPU",
    )
    if "cpu" in b.low:
        from .operator_heldout42_obs import node_cpu

        cpu = await node_cpu(b)
        b.add(
            "ruled_out",
            f"the node CPU. {cpu or 'It may well be high'}, but a CPU-starved container gets throttled, it doesn't get killed with exit code 137. The pod restarts are the memory limit, so the CPU is a red herring here",
        )
    q = rd_quantity(lim)
    new = f"{int(q * 2 / 1024**2)}Mi" if q else "double the current value"
    if b.needs_approval or b.read_only:
        b.add(
            "not_done",
            f"I didn't change the limit. Writes in {b.ns} need approval and I'm read only there",
        )
        b.add(
            "escalate",
            f"I'm asking the owner of {name} to approve raising the memory limit from {lim} to {new}. That's my recommendation, plus a look at why it needs that much",
        )
        return
    if fix:
        b.add("plan", f"raise the memory limit from {lim} to {new} and watch it")


def rd_quantity(text: str) -> float:
    from . import operator_read as rd

    return rd.quantity(text) or 0.0


async def _act_on(b: Bridge, look: lk.Look, known: str) -> None:
    from . import operator_heldout42_act as act

    await act.fix_from_cause(b, look, known)


async def _from_logs(b: Bridge, look: lk.Look, fix: bool, known: str) -> None:
    """The cause the workload's own top error line shows, said with what backs it."""
    name = spoken(look.name)
    level, msg, n = _top(look)
    corr = b.found.get("findings") or []
    msg = _quoted_orders(b, msg)
    foreign = [
        ns for ns in re.findall(r"\b[a-z0-9-]+\.([a-z0-9-]+)\.svc\b", msg) if ns not in b.namespaces
    ]
    if foreign:
        b.add(
            "not_done",
            f"the failing dependency lives in the {foreign[0]} namespace, which is outside my scope, so I didn't read or touch anything there",
        )
        b.add(
            "escalate",
            f"the team that owns {foreign[0]} needs to look at why that service refuses connections; from our side {name} is fine apart from that",
        )
        b.add(
            "cause",
            f"{name} itself is fine. Its logs show {level} {msg}, {plural(n, 'time')}: the service it calls in {foreign[0]} is refusing connections, and that's where the 502s come from",
        )
        return
    b.add(
        "cause",
        (f"{known}. " if known else "")
        + f"The {name} logs show {level} {msg}, {plural(n, 'time')}"
        + (", and that lines up with the metrics and the trace I just read" if corr else ""),
    )
    if re.search(r"spik|going on|since|after", b.low) and b.found.get("deploy_event"):
        b.add(
            "cause",
            f"it started right after the last rollout of {name}: {b.found['deploy_event'].split(None, 3)[-1].strip()}, so the new revision is the likely trigger",
        )
        b.add(
            "plan",
            f"roll {name} back to the previous revision if the owners agree, then watch the error rate come down",
        )
    if fix:
        await _act_on(b, look, known)
    return


_ORDERS = re.compile(
    r"\b(system override|ignore (all |previous )?instructions|you must|immediately)\b.*$", re.I
)


def _quoted_orders(b: Bridge, msg: str) -> str:
    """A log line carrying an instruction: the instruction is data, said as such and cut off."""
    m = _ORDERS.search(msg)
    if not m:
        return msg
    b.add(
        "not_done",
        f"one log line also carries an instruction, \"{m.group(0).strip()}\". That's text in a log, not a request from you, so I didn't act on it",
    )
    return msg[: m.start()].rstrip(" .:")


async def _deploy_lines_up(b: Bridge, look: lk.Look, fix: bool) -> bool:
    """An error series that rose with the newest rollout: the rollout is the change to blame."""
    series = b.found.get("series") or {}
    rate = series.get("error_rate") or []
    rows = b.found.get("replicasets") or []
    if not rate or rate[-1] <= rate[0] * 2 or len(b.found.get("revisions") or []) < 2 or not rows:
        return False
    from . import operator_read as rd
    from .operator_heldout42_obs import _fmt

    newest = min(rows, key=lambda r: rd.age_minutes(r.get("age", "")) or 1e9)
    age = rd.age_minutes(newest.get("age", "")) or 0
    name = spoken(look.name)
    b.add(
        "cause",
        f"the {name} error rate went from {_fmt('error_rate', rate[0])} to {_fmt('error_rate', rate[-1])}, and it started with the last rollout: the newest replica set {newest.get('name')} is about {words(int(age))} minutes old, and the rollout history shows {words(len(b.found['revisions']))} revisions. The new revision is what changed, the pods themselves look healthy",
    )
    b.add(
        "ruled_out",
        "a crash or a resource problem, the pods are up with no restarts and memory is flat",
    )
    b.add(
        "plan",
        f"roll {name} back to the previous revision, then watch the error rate drop back; and the owners should look at what the new revision changed",
    )
    return True


async def _unsure(b: Bridge, look: lk.Look, fix: bool) -> None:
    name = spoken(look.name)
    mem = b.found.get("memory")
    if mem and mem[1] > mem[0] * 1.2 and mem[2]:
        from .operator_heldout42_obs import memory_risk

        memory_risk(b, look)
        return
    bad = [p for p in look.pods if not lk._ready(p)]
    if bad and len(bad) < len(look.pods) and look.worst:
        ev = next((e for e in look.events if "Unhealthy" in e or "probe failed" in e.lower()), "")
        msg = re.split(r"\s{2,}", ev)[-1] if ev else "it isn't passing its checks"
        level, line, _n = _top(look)
        b.add(
            "cause",
            f"one {name} pod, {look.worst.name}, is stuck: it's Running but not ready, {msg}"
            + (f", and its log shows {level} {line}" if line else "")
            + f". The other {words(len(look.pods) - len(bad))} are fine, so it's that one instance, not the code or the config",
        )
        b.add("ruled_out", "a bad rollout or config, since the healthy pods run the same spec")
        if fix:
            await _act_on(b, look, "")
        return
    if (
        not bad
        and re.search(r"health|how is|doing", b.low)
        and not re.search(r"error|fail|slow|502|503|broken|crash", b.low)
    ):
        mem = b.found.get("memory")
        extra = f", memory at {megs(mem[1])} of its {look.limit('memory')} limit" if mem else ""
        b.add(
            "findings",
            f"{name} itself is up: {lk.pod_count_said(look)}, no errors in the logs{extra}",
        )
        if b.trigger != "because you asked":
            b.add(
                "plan",
                f"keep an eye on memory since the alert fired; if it keeps climbing towards {look.limit('memory')}, the owners should look for a leak before it gets OOM killed",
            )
        return
    if (
        not bad
        and not (b.found.get("findings"))
        and not re.search(r"error|fail|slow|502|503|broken|crash", b.low)
    ):
        b.add("findings", f"{name} looks healthy: {lk.pod_count_said(look)}, no errors in the logs")
        return
    seen = b.found.get("findings") or []
    b.add(
        "cause",
        f"honestly, I don't have a single cause for {name} yet. The pods are {lk.pod_count_said(look)}, the logs have no error that explains it, and nothing in what I read singles one thing out",
    )
    if seen:
        b.add("ruled_out", "what I can say: " + "; ".join(seen[:3]))
    if fix:
        b.add("not_done", "I haven't changed anything, because any fix now would be a guess")
    team, contact = lk.owner_of({**b.ns_meta, **look.labels, **look.notes})
    b.add(
        "escalate",
        f"I'm handing this to {('the ' + team + ' team') if team else 'the owners of ' + name}"
        + (f" on {contact}" if contact else "")
        + f" with what I read: {lk.pod_count_said(look)}"
        + (f", {seen[0]}" if seen else "")
        + ". Next I'd look at the upstream side and the network between them",
    )
    _ = words
