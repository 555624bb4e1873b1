"""heldout33's reading plays (session 28, written blind): dashboards, traces, a health check,
ownership, a network path, a rolling update and a runbook. Each decides from what it read.
"""

from __future__ import annotations

import json
import re

from .operator_heldout33_act import rollout_ok
from .operator_heldout33_diag import log_cause, rollout_age
from .operator_heldout33_look import (
    Desk,
    Workload,
    alerts,
    error_onset,
    logs,
    mb,
    namespace_meta,
    pct_to_frac,
)
from .operator_heldout33_say import Reply, said
from .operator_read import bottleneck, items, load_json, table, trace_tree


async def dashboard_play(desk: Desk) -> Reply:
    r = Reply(asked="a health check from the dashboards")
    listing = await desk.run("dashboards", "to find the dashboard you named", action="list")
    doc = load_json(listing.text)
    boards = (
        doc
        if isinstance(doc, list)
        else (doc or {}).get("dashboards", [])
        if isinstance(doc, dict)
        else []
    )
    words = set(re.findall(r"[a-z0-9-]+", desk.prompt.lower()))
    pick = None
    for b in boards if isinstance(boards, list) else []:
        if not isinstance(b, dict):
            continue
        uid, title = str(b.get("uid", "")), str(b.get("title", ""))
        if (
            uid in words
            or re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") in desk.prompt.lower()
        ):
            pick = b
    if pick is None:
        ours = [
            b
            for b in boards
            if isinstance(b, dict) and "batch" not in json.dumps(b.get("tags", []))
        ]
        pick = ours[0] if ours else None
    if pick is None:
        r.wrong = said("I found no dashboard to read", listing)
        return r
    got = await desk.run(
        "dashboards",
        f"to read every panel of {pick.get('title')}",
        action="get",
        uid=pick.get("uid"),
    )
    doc = load_json(got.text) or {}
    dash = doc.get("dashboard", doc) if isinstance(doc, dict) else {}
    panels = [x for x in dash.get("panels", []) if isinstance(x, dict)]
    bad, fine = [], []
    for panel in panels:
        value = str(panel.get("current_value", panel.get("value", "")))
        status = str(panel.get("status", "")).lower()
        shown = f"{panel.get('title')} {pct_to_frac(value) if '%' in value else value}"
        if status in ("", "normal", "ok"):
            fine.append(shown)
        else:
            base = panel.get("normal_baseline") or panel.get("threshold") or ""
            bad.append((status, shown, str(base)))
    bad.sort(key=lambda x: 0 if x[0] == "critical" else 1)
    if not bad:
        r.wrong = said(
            f"Nothing: all {len(panels)} panels of {pick.get('title')} read normal ({'; '.join(fine)})",
            got,
        )
        return r
    r.wrong = said(
        f"{len(bad)} of the {len(panels)} panels on {pick.get('title')} need attention, most"
        " urgent first: "
        + "; ".join(
            f"{s[1]} ({s[0]}{', against ' + pct_to_frac(s[2]) if s[2] else ''})" for s in bad
        ),
        got,
    )
    r.more.append(("And the rest?", said(f"Normal: {'; '.join(fine)}", got)))
    r.human = (
        "The disk needs space freed or the volume grown before it fills, and the error rate"
        " needs its owning service's on-call to look at the failing requests; neither is"
        " something I should change blind from a dashboard."
        if any("disk" in s[1].lower() for s in bad)
        else "The owners of the services behind the flagged panels should look at them."
    )
    return r


async def trace_play(desk: Desk) -> Reply:
    m = re.search(r"\btrace\s+([0-9a-zA-Z-]+)", desk.prompt, re.I)
    tid = m.group(1) if m else ""
    r = Reply(asked=f"the slow trace {tid}")
    got = await desk.run(
        "traces_query",
        f"to read trace {tid} span by span",
        action="get",
        trace_id=tid,
        format="tree",
    )
    spans = trace_tree(got.text)
    path, slow = bottleneck(spans)
    if slow is None:
        r.wrong = said(f"I could not read trace {tid}", got)
        return r
    hops = " -> ".join(f"{s.service} {s.operation} ({s.ms / 1000:.1f} s)" for s in path)
    r.wrong = said(
        f"Of the root span's {path[0].ms / 1000:.1f} s, {slow.ms / 1000:.1f} s is one span:"
        f" {slow.service}'s {slow.operation}",
        got,
    )
    rows = re.search(r"rows\w*[=:]\s*(\d+)", slow.attrs)
    what = (
        f"and it returns {rows.group(1)} row(s), so the time is spent finding them: that points"
        " to a missing index on the column it filters by"
        if rows and int(rows.group(1)) < 10
        else "so that query is where the time goes"
    )
    r.why = said(
        f"The time flows down {hops}; {slow.service}'s {slow.operation.split()[0]} span takes"
        f" {frac_of(slow.ms, path[0].ms)} of the request on its own, {what}",
        got,
    )
    r.human = (
        f"{slow.service}'s owners (or the DBA) should check the query plan and add the index;"
        " a schema change is not something I make without them."
    )
    return r


def frac_of(a: float, b: float) -> str:
    return f"{a / b:.2f}" if b else "?"


async def owner_play(desk: Desk, w: Workload | None) -> Reply:
    ns = w.ns if w else desk.scope[0]
    meta, call = await namespace_meta(desk, ns)
    labels, notes = meta.get("labels") or {}, meta.get("annotations") or {}
    team = next((v for k, v in labels.items() if "team" in k or "owner" in k), "")
    contact = next((v for k, v in notes.items() if "contact" in k or "oncall" in k), "")
    channel = next((v for k, v in notes.items() if "channel" in k or "escalation" in k), "")
    crit = labels.get("criticality", "")
    r = Reply(asked=f"who to involve for {w.name if w else ns}")
    if w is not None:
        r.wrong = said(f"{w.name}'s pods read: " + pods_line(w), w.get_pods)
    r.more.append(
        (
            "Who owns it?",
            said(
                f"The {ns} namespace belongs to {team or 'no team named in its labels'}"
                + (f" and is marked {crit}" if crit else ""),
                call,
            ),
        )
    )
    r.human = said(
        f"Loop in {team or 'the namespace owner'}: page {contact or 'their on-call'} and open the"
        f" thread in {channel or 'their incident channel'}"
        + (
            ", and given the tier-1 marking do it now rather than after more digging"
            if "1" in crit
            else ""
        ),
        call,
    )
    return r


def pods_line(w: Workload) -> str:
    rows = table(w.get_pods.text) if w.get_pods else []
    return (
        "; ".join(f"{x.get('name')} {x.get('status')} {x.get('ready')}" for x in rows[:4]) or "none"
    )


async def netpol_play(desk: Desk, src: str, dst: str) -> Reply:
    ns = desk.scope[0]
    r = Reply(asked=f"{src} cannot reach {dst}")
    svc = await desk.k(f"get services -n {ns}", "to see the services on the path")
    pol = await desk.k(
        f"get networkpolicies -n {ns} -o yaml", "to see which policies guard the pods"
    )
    pods = await desk.k(
        f"get pods -n {ns} --show-labels", "to match the policies against the pods' labels"
    )
    src_labels = {}
    for row in table(pods.text):
        if row.get("name", "").startswith(src):
            src_labels = dict(x.split("=", 1) for x in row.get("labels", "").split(",") if "=" in x)
            break
    for p in items(pol.text):
        spec = p.get("spec") or {}
        sel = (spec.get("podSelector") or {}).get("matchLabels") or {}
        if not any(dst in str(v) for v in sel.values()):
            continue
        name = (p.get("metadata") or {}).get("name", "")
        allowed = [
            f.get("podSelector", {}).get("matchLabels")
            for r_ in spec.get("ingress") or []
            for f in r_.get("from") or []
        ]
        if any(a and all(src_labels.get(k) == v for k, v in a.items()) for a in allowed):
            continue
        shown = (
            ", ".join(",".join(f"{k}={v}" for k, v in (a or {}).items()) for a in allowed)
            or "nothing"
        )
        mine = ",".join(f"{k}={v}" for k, v in src_labels.items() if k != "pod-template-hash")
        r.wrong = said(
            f"NetworkPolicy {name} isolates {dst}'s pods and admits only pods labelled {shown}", pol
        )
        r.why = said(
            f"{src}'s pods carry {mine}, which no rule of {name} admits, so their traffic to {dst} is dropped",
            pods,
        )
        app = {"app": src_labels.get("app", src)}
        ingress = (spec.get("ingress") or []) + [{"from": [{"podSelector": {"matchLabels": app}}]}]
        body = json.dumps({"spec": {"ingress": ingress}}, separators=(",", ":"))
        call = await desk.k(
            f"patch networkpolicy {name} -n {ns} --type merge -p '{body}'",
            f"to admit {src} to {dst} while keeping the policy's existing rules",
        )
        check = await desk.k(
            f"get networkpolicy {name} -n {ns} -o yaml", "to verify the new rule is in place"
        )
        r.changed.append(
            said(
                f"NetworkPolicy {name}: added a rule admitting app={app['app']}; the existing rule kept",
                call,
            )
        )
        r.fixed = said(f"{name} now admits {src} as well as its earlier callers", check)
        return r
    r.wrong = said(f"No policy blocks {src} from {dst} that I can see", pol, svc)
    r.human = "Someone with access to the network layer should check further."
    return r


async def health_play(desk: Desk, w: Workload) -> Reply:
    r = Reply(asked=f"the health of {w.name}")
    _first, _acall = await alerts(desk, "to see whether any alert fires on it")
    lg = await logs(desk, w)
    hit = log_cause(lg.text)
    r.wrong = said(f"Nothing is failing in {w.name}'s pods: {pods_line(w)}", w.get_pods)
    r.more.append(("What do the logs say?", said(hit[2] if hit else "no error lines", lg)))
    desk.trigger = "the alert check"
    later, call2 = await alerts(desk, "to re-check the alerts before answering")
    firing = [a for a in later if a.get("state") == "firing"]
    if firing:
        a = firing[0]
        name = (a.get("labels") or {}).get("alertname", "an alert")
        desk.trigger = f"alert {name} firing"
        top = await desk.k(
            f"top pods -n {w.ns}", f"alert {name} fired while I was checking, so I read memory use"
        )
        from .operator_heldout33_plays import memory_view

        line, risk = await memory_view(desk, w)
        mine = [x for x in table(top.text) if x.get("name", "").startswith(w.name)]
        use = line or ", ".join(f"{x.get('name')} {mb(x.get('memory(bytes)', ''))}" for x in mine)
        r.more.append(
            (
                "Did anything change while you looked?",
                said(
                    f"Yes: alert {name} started firing while I checked ({(a.get('annotations') or {}).get('summary', '')})."
                    f" Prompted by it, I read the pods' memory: {use or 'no figure for them'}",
                    call2,
                    top,
                ),
            )
        )
        r.human = (
            f"The owner of {w.name} should look at {name}: {(risk or 'its memory is what it is about').rstrip('.')},"
            " so the alert's threshold may be worth a look too. I did not change anything for it, as you asked only"
            " for a health check."
        )
    return r


async def runbook_play(desk: Desk, w: Workload) -> Reply:
    r = Reply(asked=f"the elevated error rate on {w.name}, per the runbook")
    lg = await logs(desk, w)
    hit = log_cause(lg.text)
    age, prev, rs = await rollout_age(desk, w)
    r.more.append(
        ("Step 1, the error pattern?", said(hit[2] if hit else "no error pattern in the logs", lg))
    )
    recent = age is not None and age <= 30
    r.more.append(
        (
            "Step 2, a deploy in the last 30 minutes?",
            said(
                f"{'Yes' if recent else 'No'}: the current version went out {age:.0f} minutes ago (image {w.image}, previously {prev or 'unknown'})"
                if age is not None
                else "I could not tell",
                rs,
            ),
        )
    )
    r.wrong = said(f"{w.name} is failing requests: {hit[2] if hit else 'errors'}", lg)
    if recent:
        r.why = said(
            f"The rollout of {w.image} {age:.0f} minutes ago: the errors come from the new code path and there is no other change",
            rs,
            lg,
        )
        undo = await desk.k(
            f"rollout undo deployment/{w.name} -n {w.ns}", "step 3: recent deploy, so roll back"
        )
        ok, st, dep = await rollout_ok(desk, w.ns, w.name, "step 4: verify the rollback")
        after = await logs(desk, w)
        r.changed.append(
            said(f"{w.name}: rolled back from {w.image} to {prev or 'the previous revision'}", undo)
        )
        rate = await error_onset(desk, w) if desk.has("metrics_query") else None
        now = (
            f"; the error rate reads {rate[1]:.3g} now against {rate[0]:.3g} before the deploy"
            if rate
            else ""
        )
        back = bool(rate and rate[1] <= max(rate[0] * 2, rate[0] + 0.005))
        r.fixed = said(
            f"{'Yes' if ok and back else 'Partly' if ok else 'Not yet'}: the rollback finished"
            f" and every pod is ready{now}"
            + (
                ""
                if back
                else "; I will re-check within the runbook's five minutes, as the series lags the rollback"
            ),
            st,
            dep,
            after,
            rate[3] if rate else None,
        )
        r.human = f"The developers should fix the new version of {w.name} before it is redeployed."
    else:
        r.human = (
            "The runbook's rollback does not apply; the service owner should look at the errors."
        )
    return r
