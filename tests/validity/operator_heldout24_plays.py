"""``heldout24``'s plays (issue 27, fairness): which kind of ask the message is, from its words
(a trace id, a dashboard, "who ... loop in", a canary, a rollout, "highly available", a runbook,
a cfg value, a replica count, a restart), else a diagnosis of the workload it names. Never a
scenario id.
"""

from __future__ import annotations

import re

from .operator_heldout24 import Desk
from .operator_heldout24_do import (
    cfg_ops,
    fix_case,
    high_availability,
    restart,
    rolling_update,
    runbook,
    scale_to,
)
from .operator_heldout24_look import Case, diagnose, limit_of, metric_facts, read_case
from .operator_heldout24_more import dashboard, migration, owners, trace, why_now
from .operator_heldout24_scale import canary, capacity_scale
from .operator_read import mib, quantity, table


async def play(desk: Desk) -> None:
    from .operator_heldout24_guard import guard

    low = desk.low
    if await guard(desk):
        return
    if desk.has("traces_query") and re.search(r"\btrace\s+[0-9a-f]{4,}\b", low):
        await trace(desk)
    elif desk.has("dashboards") and "dashboard" in low:
        await dashboard(desk)
    elif re.search(r"\bwho\b|loop in|\bown(s|er)?\b", low):
        await owners(desk)
    elif re.search(r"reach|network|connect to|talk to", low) and len(_two(desk)) == 2:
        from .operator_heldout24_more import network

        await network(desk, *_two(desk))
    elif "canary" in low:
        await canary(desk)
    elif "rolling update" in low or "new image" in low:
        await rolling_update(desk)
    elif "highly available" in low or "survive node" in low:
        await high_availability(desk)
    elif "runbook" in low:
        await runbook(desk)
    elif re.search(r"\b\d+x\b|double", low) and "scale" in low:
        await capacity_scale(desk)
    elif re.search(r"\b[A-Z][A-Z0-9_]{2,}\b", desk.prompt) and re.search(
        r"\bset\b|make sure|enable|disable|change|update", low
    ):
        await cfg_ops(desk)
    elif re.search(r"replicas? to \d+|scale .* to \d+|to (exactly )?\d+ replicas", low):
        await scale_to(desk)
    elif re.match(r"\s*restart\b", low):
        await restart(desk, desk.named()[0] if desk.named() else "")
    elif re.search(r"image tag|to image|new image|image to", low) and desk.named():
        from .operator_heldout24_steps import image_update

        await image_update(desk)
    elif "migration" in low and desk.has("database"):
        await migration(desk)
    else:
        await investigate(desk)


def _two(desk: Desk) -> list[str]:
    """Two workloads in the message, in the order they appear (source, then destination)."""
    found = []
    for tok in re.findall(r"[a-z][a-z0-9-]*", desk.low):
        if tok in desk.deploys and tok not in found:
            found.append(tok)
    return found[:2]


def subject(desk: Desk) -> str:
    """The workload the message is about: named, else the one the words point at."""
    named = [n for n in desk.named() if n in desk.deploys]
    if named:
        return named[0]
    pod_named = desk.named()
    if pod_named:
        p = pod_named[0]
        return next((d for d in desk.deploys if p.startswith(d + "-")), p)
    for p in desk.pods:  # a bare pod: a prompt word + one generated suffix ("fjord-x7k9")
        pname = p.get("name", "")
        for tok in re.findall(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*", desk.low):
            if len(tok) >= 3 and re.fullmatch(rf"{re.escape(tok)}-[a-z0-9]+", pname):
                return tok
    words = set(re.findall(r"[a-z]+", desk.low))
    hits = [d for d in desk.deploys if set(d.split("-")) & words]
    return hits[0] if hits else ""


async def investigate(desk: Desk, act: bool = True) -> None:
    """Symptom -> reads -> cause -> fix (when allowed and clear) or hand-off."""
    door = ("", "")
    if re.search(r"\b50\d\b|ingress|public", desk.low) and desk.has("kubectl"):
        from .operator_heldout24_more import front_door

        door = await front_door(desk)
    name = door[1] if door[1] in desk.deploys else subject(desk)
    if not name:
        desk.say("cant tell which svc u mean, nothing in the ns matches. which one?")
        return
    case = await read_case(desk, name)
    diagnose(desk, case)
    if door[0] and case.kind == "init":
        from .operator_heldout24_more import sidecar

        proxy = await sidecar(desk, case)
        case.chain = (
            [f"ingress `{door[0]}`", f"svc {name} (0 endpoints)"]
            + ([proxy] if proxy else [])
            + case.chain[:2]
        )
    desk.last_signals = case.signals
    if re.search(r"connection", desk.low) and case.kind in ("unready", "") and desk.has("kubectl"):
        from .operator_heldout24_more import app_config

        cm, key, value = await app_config(desk, case)
        if cm:
            was = case.cause
            case.kind, case.sure, case.fix = "conncap", True, f"{cm}:{key}:{value}"
            case.cause = (
                f"{key}={value} in {cm} caps {case.name} at {value} conns -> extra connections get dropped"
                + (f"; also {was}" if was else "")
            )
            case.chain = [
                f"{key}={value}",
                "conn limit hit under load",
                "new conns refused/dropped",
                "readiness 503 on busy pod",
            ]
    await why_now(desk, case)
    facts = metric_facts(case)
    ready = [p for p in desk.pods_of(name)]
    desk.say(
        f"looked at {name} in ns {desk.ns}: {len(ready)} pod(s), "
        + ", ".join(
            f"{p.get('name')} {p.get('status')} {p.get('ready')} restarts {p.get('restarts')}"
            for p in ready[:4]
        )
    )
    if case.total:
        desk.say(
            f"logs: {case.total} lines, ~{case.noise} are noise (health checks, debug, info) -> ignored. "
            + "signal: "
            + "; ".join(f"{n}x `{m}`" for _, m, n in case.signals[:3])
        )
    if facts:
        desk.say("metrics (6h): " + "; ".join(facts[:5]))
    await _more_signals(desk, case)
    await _alerts(desk, case)
    if case.kind == "growth":
        desk.say("yes, worry: " + case.cause)
        desk.say(
            "urgency: high-ish, not on fire yet but will OOM within hours if nothing changes. fyi owners: find the leak (heap dump) + meanwhile raise mem limit or schedule a restart before it hits"
        )
    elif case.cause and case.sure:
        desk.say("root cause: " + case.cause)
        if case.chain:
            desk.say(" -> ".join(case.chain))
    if act:
        await fix_case(desk, case)
    elif case.cause and case.sure:
        pass
    elif case.signals:
        desk.say("no proven root cause yet, signals above")


async def _more_signals(desk: Desk, case: Case) -> None:
    """Traces and node numbers when the tools are there; the misleading ones called out."""
    from .operator_heldout24_more import node_cpu, slow_spans

    if desk.has("traces_query"):
        spans = await slow_spans(desk, case.name)
        if spans:
            desk.say("traces: " + spans)
    if "cpu" in desk.low and desk.has("metrics_query"):
        note = await node_cpu(desk, case)
        if note:
            desk.say(note)


async def _alerts(desk: Desk, case: Case) -> None:
    """An alert that fired while working is a new trigger: follow it, and say so."""
    if not desk.has("metrics_query"):
        return
    for a in await desk.firing():
        labels = a.get("labels") or {}
        alert = str(labels.get("alertname", "?"))
        about = str(labels.get("service") or labels.get("deployment") or labels.get("pod") or "")
        summary = str((a.get("annotations") or {}).get("summary", ""))
        desk.trigger = f"alert {alert}"
        desk.say(
            f"fyi alert `{alert}` fired while i was on it ({summary or about}) -> switched to it"
        )
        top = table(
            await desk.k(
                f"top pods -n {desk.ns} -l app={about or case.name}",
                f"alert {alert}: live usage per pod",
            )
        )
        lim = limit_of(case, "memory")
        for row in top:
            used = quantity(row.get("memory(bytes)", ""))
            share = f" = {used / lim * 100:.0f}% of {mib(lim)} limit" if used and lim else ""
            desk.say(
                f"{row.get('name')}: mem {row.get('memory(bytes)')}{share}, cpu {row.get('cpu(cores)')}"
            )
        shares = [(quantity(r.get("memory(bytes)", "")) or 0) / lim for r in top] if lim else []
        if shares and max(shares) < 0.8:
            desk.say(
                f"-> alert {alert}: mem well under limit (max {max(shares) * 100:.0f}%), no OOM risk rn. alert threshold prolly too tight, keeping an eye on it"
            )
        elif shares:
            desk.say(
                f"-> alert {alert} is real: a pod at {max(shares) * 100:.0f}% of its mem limit, OOM risk"
            )
        if "mem" in (alert + summary).lower():
            q = f'container_memory_working_set_bytes{{namespace="{desk.ns}", service="{about or case.name}"}}'
            out = await desk.use(
                "metrics_query",
                f"alert {alert}: how much mem, trend",
                f"metrics_query {q} [6h]",
                action="query_range",
                query=q,
                start="-6h",
            )
            from .operator_read import prom_series

            vals = next((v for _, v in prom_series(out) if v), [])
            if vals:
                desk.say(f"{about or case.name} mem {metric_text(vals)} (alert {alert})")
        await desk.k(
            f"describe pods -n {desk.ns} -l app={about or case.name}",
            f"alert {alert}: limits + restarts of {about or case.name}",
        )
        desk.trigger = "ur ask"


def metric_text(vals: list[float]) -> str:
    from .operator_read import mib, trend

    return f"{mib(vals[0])} -> {mib(vals[-1])} over 6h ({trend(vals)})"
