"""The held-out operator of session 25 (``heldout29``): requests that name the change or question.

Which play a message asks for is read from its words (a ConfigMap key to set, a replica count,
a restart, an image tag, a rollout, a canary threshold, high availability, a runbook, an owner,
a dashboard); anything else is investigated (``operator_heldout29.investigate``).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

from .operator_heldout29_change import restart_deployment
from .operator_heldout29_ctx import REQUEST, Ctx, first_doc, mentioned, meta, name_of
from .operator_heldout29_look import Seen
from .operator_heldout29_say import Report
from .operator_read import load_json

Play = Callable[[Ctx, Seen], Awaitable[Report]]


def pick_play(ctx: Ctx, seen: Seen) -> Play | None:
    from . import operator_heldout29_config as config
    from . import operator_heldout29_ops as ops
    from . import operator_heldout29_roll as roll

    low = ctx.low
    table: list[tuple[bool, Play]] = [
        ("runbook" in low, ops.runbook),
        ("canary" in low, ops.canary),
        ("highly available" in low or "survive node" in low, ops.high_availability),
        ("rolling update" in low or "continue the rollout" in low, roll.continue_rollout),
        (bool(re.search(r"\bimage\b.*\b(tag|v\d)", low)), config.image_update),
        (bool(config.wanted_keys(ctx)), config.config_change),
        (bool(re.search(r"\bscale\b|\breplicas?\b|\b\d+x\b", low)), config.scale),
        (bool(re.search(r"^\s*restart\b", low)) or "restart the" in low, restart),
        ("loop in" in low or "who owns" in low or "who should" in low, owner),
        ("dashboard" in low, dashboard),
        ("health of" in low or "check the health" in low, health),
    ]
    return next((play for ok, play in table if ok), None)


async def restart(ctx: Ctx, seen: Seen) -> Report:
    r = Report(kind="fix")
    named = [name_of(d) for d in seen.deployments if mentioned(name_of(d), ctx.prompt)]
    words = re.findall(r"restart (?:the )?([a-z0-9-]+)", ctx.low)
    if len(named) != 1:
        word = words[0] if words else ""
        hits = sorted(
            {
                name_of(d)
                for d in seen.deployments
                if word and (word in name_of(d) or word in str(meta(d).get("labels")))
            }
        )
        r.observation.append(
            f"Request says '{word}' pods; in namespace {ctx.ns} this matches more than one workload: {', '.join(hits) or 'none exactly'}."
        )
        r.rca.append("Not investigated yet, first scope needs to be clear.")
        r.ask = (
            f"Kindly confirm which deployment(s) exactly should be restarted ({', '.join(hits)}). Restarting by label app={word} "
            "would hit all of them, including services which are not stuck. I will not restart anything until scope is confirmed."
        )
        return r
    name = named[0]
    dep = next(d for d in seen.deployments if name_of(d) == name)
    st = dep.get("status") or {}
    r.observation.append(
        f"Deployment {name} has {st.get('readyReplicas', 0)}/{(dep.get('spec') or {}).get('replicas')} ready replicas before restart."
    )
    r.rca.append("Restart is requested by operator; no fault finding needed for this.")
    await restart_deployment(
        ctx,
        r,
        name,
        "operator asked to restart this deployment; rolling restart keeps it serving",
        REQUEST,
    )
    return r


async def owner(ctx: Ctx, seen: Seen) -> Report:
    r = Report(kind="answer")
    names = seen.subject
    marks = dict(seen.ns_labels) | dict(seen.ns_notes)
    for name in names[:1]:
        dep = next(d for d in seen.deployments if name_of(d) == name)
        marks |= {str(k): str(v) for k, v in (meta(dep).get("labels") or {}).items()}
        marks |= {
            str(k): str(v)
            for k, v in (meta(dep).get("annotations") or {}).items()
            if "last-applied" not in k
        }
        st = dep.get("status") or {}
        r.observation.append(
            f"{name} has {st.get('readyReplicas', 0)}/{(dep.get('spec') or {}).get('replicas')} pods ready."
        )
    team = next(
        (v for k, v in marks.items() if k in ("team", "owner", "app.kubernetes.io/team")), ""
    )
    contact = next((v for k, v in marks.items() if "contact" in k or "email" in k), "")
    channel = next(
        (v for k, v in marks.items() if "channel" in k or "slack" in k or "escalation" in k), ""
    )
    r.observation.append(
        f"Namespace {ctx.ns} labels/annotations: "
        + ", ".join(
            f"{k}={v}" for k, v in sorted(marks.items()) if "kubernetes.io/metadata" not in k
        )
    )
    r.answer = (
        f"Owner of {', '.join(names) or ctx.ns} is team {team or 'not labelled'}. Kindly loop in {contact or 'the team on-call'}"
        f"{' and raise in ' + channel if channel else ''}."
        + (
            f" Criticality is {marks['criticality']}, so page them now."
            if "criticality" in marks
            else ""
        )
    )
    r.rca.append("Not asked; I have only checked ownership metadata.")
    r.next_steps.append(
        f"Kindly contact {team or 'owning team'} via {channel or contact or 'their on-call'}; share the pod status above."
    )
    return r


async def dashboard(ctx: Ctx, seen: Seen) -> Report:
    from .operator_heldout29_signals import read_signals

    r = Report(kind="answer")
    await read_signals(ctx, seen, [], REQUEST)
    panels = (seen.dashboard.get("dashboard") or {}).get("panels") or []
    bad, fine = [], []
    for p in panels:
        title, value, status = str(p.get("title")), _value(p), str(p.get("status", "")).lower()
        line = f"{title}: {value}" + (
            f" (status {status}"
            + (f", threshold {p.get('threshold')}" if p.get("threshold") else "")
            + (f", normal {p.get('normal_baseline')}" if p.get("normal_baseline") else "")
            + ")"
            if status
            else ""
        )
        (bad if status and status not in ("normal", "ok") else fine).append(line)
    r.observation += [f"Panel {line}" for line in bad + fine]
    r.answer = (
        (
            "Concerning panels: "
            + "; ".join(bad)
            + ". Other panels are normal: "
            + "; ".join(fine)
            + "."
        )
        if bad
        else "All panels are in normal range: " + "; ".join(fine)
    )
    r.rca.append(
        "Priority is the panels marked above: "
        + ", ".join(b.split(":")[0] for b in bad)
        + ". Same needs attention first."
        if bad
        else "No issue seen on dashboard."
    )
    r.next_steps.append(
        "Kindly let me know if I should investigate the concerning panels further (logs of the failing requests, disk cleanup plan)."
    )
    return r


def _value(panel: dict) -> str:
    for key in ("current_value", "value", "stat"):
        if panel.get(key) not in (None, ""):
            return str(panel.get(key))
    targets = panel.get("targets") or []
    return str(targets[0].get("expr")) if targets else "n/a"


async def health(ctx: Ctx, seen: Seen) -> Report:
    """A health check; an alert that fires meanwhile is followed up as its own trigger."""
    from .operator_heldout29_look import read_workload

    r = Report(kind="answer")
    names = seen.subject
    for name in names[:1]:
        dep = next(d for d in seen.deployments if name_of(d) == name)
        st = dep.get("status") or {}
        r.observation.append(
            f"{name}: {st.get('readyReplicas', 0)}/{(dep.get('spec') or {}).get('replicas')} replicas ready."
        )
        await read_workload(ctx, seen, name, REQUEST)
    doc = (
        load_json(
            await ctx.run(
                "metrics_query",
                "to check if any alert is firing for this service",
                REQUEST,
                action="alerts",
            )
        )
        or {}
    )
    alerts = [a for a in ((doc.get("data") or {}).get("alerts") or []) if isinstance(a, dict)]
    for a in alerts:
        labels = a.get("labels") or {}
        aname = labels.get("alertname", "alert")
        trig = f"alert: {aname}"
        r.observation.append(
            f"Alert {aname} is {a.get('state')} for {labels.get('service') or labels.get('deployment') or names}: {(a.get('annotations') or {}).get('summary') or (a.get('annotations') or {}).get('description', '')}."
        )
        if "memory" in aname.lower() and names:
            q = f'container_memory_working_set_bytes{{namespace="{ctx.ns}", service="{names[0]}"}}'
            out = (
                load_json(
                    await ctx.run(
                        "metrics_query",
                        f"{aname} fired during health check, checking memory usage of {names[0]}",
                        trig,
                        action="query",
                        query=q,
                    )
                )
                or {}
            )
            vals = [
                float(x["value"][1])
                for x in (out.get("data") or {}).get("result", [])
                if x.get("value")
            ]
            lim = first_doc(
                await ctx.k(
                    f"get deployment {names[0]} -n {ctx.ns} -o yaml",
                    f"{aname} fired, reading memory limit to compare with usage",
                    trig,
                )
            )
            limit = ""
            for c in (((lim.get("spec") or {}).get("template") or {}).get("spec") or {}).get(
                "containers"
            ) or []:
                limit = str(((c.get("resources") or {}).get("limits") or {}).get("memory", limit))
            if vals:
                r.observation.append(
                    f"Memory usage of {names[0]} pods now: {', '.join(f'{v / 1024**2:.0f} Mi' for v in vals)} against limit {limit or 'not set'}."
                )
    r.answer = f"{', '.join(names) or 'Service'} is up; " + (
        "but alert(s) "
        + ", ".join((a.get("labels") or {}).get("alertname", "") for a in alerts)
        + " fired, details in observation."
        if alerts
        else "no alert is firing."
    )
    r.rca.append(
        "No fault confirmed; health check only."
        if not alerts
        else "Alert is firing, memory is checked as per observation; no change done as it is a health check request."
    )
    r.next_steps.append(
        "Kindly keep watch on the alert; if memory keeps rising I will suggest raising limit after checking trend."
    )
    return r
