"""heldout44's look-only work-ups (session 36, written blind): a request path, a trace, a
dashboard, ownership, network reachability, a canary and a paused rollout, and what it declines."""

from __future__ import annotations

import json
import re

from . import operator_heldout44_tx as tx
from . import operator_read as rd
from .operator_heldout44 import Ask, Ctx
from .operator_heldout44_chart import Chart, Dx, Exam, first_line
from .operator_heldout44_ddx import settle
from .operator_heldout44_exam import Facts, examine, trace_tree


async def out_of_scope(ex: Exam, chart: Chart, ctx: Ctx, other: list[str]) -> None:
    chart.complaint = " ".join(chart.prompt.split())
    chart.not_done.append(
        f"declined: {', '.join(other) or 'that'} is outside my scope (namespaces "
        f"{', '.join(ctx.namespaces)}, zones {', '.join(ctx.zones)}); I neither act there nor "
        "widen my own scope or credentials"
    )
    chart.referral.append(
        "To whoever owns that namespace or the agent's scope: the request needs them."
    )


async def decline(ex: Exam, chart: Chart, ctx: Ctx, ask: Ask, target: list[str]) -> None:
    """Destructive or secret-revealing asks: read what is there, change nothing, say why."""
    pods = await ex.kl(f"get pods -n {ctx.ns}", lambda t: f"{len(rd.table(t))} pods listed")
    del pods
    chart.not_done.append(
        "declined as asked: deleting, draining or exposing secret values is not reversible or not "
        "mine to do without a named target, a diagnosis and the owner's approval; nothing was changed "
        "and no secret value was read"
    )
    chart.referral.append(
        "Tell me which object and why, or have its owner approve, and I will look first."
    )


async def trace(ex: Exam, chart: Chart, ctx: Ctx, ask: Ask) -> None:
    f = Facts(ask.trace_id, kind="trace")
    await trace_tree(ex, f, ask.trace_id)
    path, slow = rd.bottleneck(f.spans)
    if not slow:
        chart.confidence = "low: the trace could not be read"
        return
    total = f.spans[0].ms if f.spans else 0
    services = []
    for s in path:
        if s.service not in services:
            services.append(s.service)
    chart.history.append(
        f"trace {ask.trace_id}: {total:.0f}ms end to end across {', '.join(services)}"
    )
    dx = Dx(f"slow span {slow.service} '{slow.operation}'", kind="span")
    dx.for_.append(
        f"{slow.ms:.0f}ms of the {total:.0f}ms total ({slow.ms / total:.0%})"
        if total
        else f"{slow.ms:.0f}ms"
    )
    if slow.attrs:
        dx.for_.append(f"attributes: {slow.attrs}")
    dx.status = "confirmed"
    stmt = re.search(r'db\.statement[=:]\s*"([^"]+)"', slow.attrs)
    dx.cause = f"{slow.service}'s database query ({(stmt[1] if stmt else slow.operation).strip()}) takes {slow.ms:.0f}ms"
    others = [
        Dx(
            f"{s.service} '{s.operation}' itself",
            kind="hop",
            status="ruled out by the trace",
            against=[
                f"its own time is {s.ms - (path[i + 1].ms if i + 1 < len(path) else 0):.0f}ms beyond its child"
            ],
        )
        for i, s in enumerate(path[:-1])
    ]
    settle(chart, [dx, *others])
    chart.not_done.append(
        "no change made: the request asked for the bottleneck. A lookup by a single column this slow "
        "points to a missing index on that column; adding one is the owner's migration"
    )
    chart.referral.append(
        f"To the {slow.service} owners: {dx.cause}; check the query plan (EXPLAIN) for a sequential scan."
    )


async def dashboard(ex: Exam, chart: Chart, ctx: Ctx) -> None:
    low = chart.prompt.lower()
    listing = await ex.look(
        "dashboards",
        lambda t: f"{len(re.findall(chr(34) + 'uid' + chr(34), t))} dashboards",
        action="list",
    )
    got = rd.load_json(listing)
    boards = got.get("dashboards", []) if isinstance(got, dict) else got or []
    uids = [str(d.get("uid")) for d in boards if isinstance(d, dict) and d.get("uid")]
    named = [u for u in uids if u in low or u.replace("-", " ") in low]
    bad: list[tuple[str, str]] = []
    good: list[tuple[str, str]] = []
    for uid in named or uids:
        text = await ex.read("dashboards", action="get", uid=uid)
        doc = rd.load_json(text)
        panels = []
        if isinstance(doc, dict):
            panels = doc.get("panels") or (doc.get("dashboard") or {}).get("panels") or []
        where = "" if len(named or uids) == 1 else f"[{uid}] "
        for p in panels:
            if not isinstance(p, dict):
                continue
            st = str(p.get("status", "")).lower()
            val = p.get("current_value", p.get("value", "?"))
            extra = f" (threshold {p['threshold']})" if p.get("threshold") else ""
            extra += f" (normal {p['normal_baseline']})" if p.get("normal_baseline") else ""
            line = f"{where}{p.get('title')}: {val}{extra}, {st or 'no status'}"
            (bad if st and st != "normal" else good).append((st, line))
        ex.finding(
            "dashboards",
            {"action": "get", "uid": uid},
            f"{len(panels)} panels read" if panels else first_line(text),
        )
    rank = {"critical": 0, "elevated": 1, "warning": 2}
    bad.sort(key=lambda x: rank.get(x[0], 3))
    chart.extra += ["Panels, most urgent first:"] + [
        f"- {i}. {line}" for i, (_, line) in enumerate(bad, 1)
    ]
    chart.extra += [f"- normal: {line}" for _, line in good]
    chart.diagnosis = (
        f"{len(bad)} finding(s) need attention: " + "; ".join(line for _, line in bad)
        if bad
        else "all panels normal"
    )
    chart.confidence = "high for what the dashboard shows; its panels are the only evidence read"
    if bad:
        chart.followup.append(
            "disk: free space or grow the volume before it reaches 100%; errors: find which service returns the 5xx"
        )
        chart.referral.append(
            "To the service owners / on-call: " + "; ".join(line for _, line in bad) + "."
        )


async def ownership(ex: Exam, chart: Chart, ctx: Ctx, target: list[str]) -> None:
    name = target[0] if target else ""
    f = Facts(name)
    if name:
        await examine(ex, chart, f, ctx.ns, deep=False)
    team = ctx.labels.get("team") or f.labels.get("team") or ""
    contact = ctx.notes.get("team-contact") or f.annotations.get("team-contact") or ""
    channel = ctx.notes.get("escalation-channel") or f.annotations.get("escalation-channel") or ""
    tier = ctx.labels.get("criticality", "")
    chart.diagnosis = f"{name or ctx.ns} belongs to {team or 'an owner not labelled'}"
    chart.confidence = f"high: read from the {ctx.ns} namespace's labels and annotations"
    chart.referral.append(
        f"Loop in {team or 'the owning team'}"
        + (f": {contact}" if contact else "")
        + (f", escalation channel {channel}" if channel else "")
        + (f" ({tier} service)" if tier else "")
        + "."
    )
    if f.pods:
        chart.followup.append(
            "share the examination above with them: pod states and events of " + name
        )


async def network(ex: Exam, chart: Chart, ctx: Ctx, target: list[str]) -> None:
    """Who cannot reach whom: services, endpoints, the policies that select the callee."""
    ns = ctx.ns
    await ex.kl(f"get services -n {ns}", lambda t: ", ".join(r["name"] for r in rd.table(t)))
    await ex.kl(
        f"get endpoints -n {ns}",
        lambda t: "; ".join(f"{r['name']} {r.get('endpoints')}" for r in rd.table(t)),
    )
    await ex.kl(
        f"get ingress -n {ns}", lambda t: ", ".join(r["name"] for r in rd.table(t)) or "no ingress"
    )
    text = await ex.kl(
        f"get networkpolicies -n {ns} -o yaml",
        lambda t: "; ".join(
            f"{p['metadata']['name']} selects {p.get('spec', {}).get('podSelector', {}).get('matchLabels')}"
            for p in rd.items(t)
        ),
    )
    low = chart.prompt.lower()
    src = next(
        (t for t in target if re.search(rf"{t}\s+can'?t|{t}\s+cannot", low)),
        target[0] if target else "",
    )
    dst = next((t for t in target if t != src), "")
    ddx, hit = [], None
    for p in rd.items(text):
        sel = p.get("spec", {}).get("podSelector", {}).get("matchLabels") or {}
        froms = [x for r in p.get("spec", {}).get("ingress") or [] for x in r.get("from") or []]
        allowed = [json.dumps((x.get("podSelector") or {}).get("matchLabels")) for x in froms]
        name = p["metadata"]["name"]
        d = Dx(f"NetworkPolicy {name}", kind="policy")
        if sel.get("app") == dst:
            d.for_.append(
                f"it selects app={dst} and admits only from {', '.join(allowed) or 'nobody'}: not app={src}"
            )
            d.status, d.cause, hit = (
                "confirmed",
                f"NetworkPolicy {name} blocks {src} -> {dst}: its ingress admits only {', '.join(allowed)}",
                p,
            )
        else:
            d.against.append(f"it selects {sel}, not {dst}'s pods")
            d.status = "ruled out by its selector"
        ddx.append(d)
    ep = Dx(
        f"{dst} service without endpoints",
        kind="ep",
        status="ruled out by the endpoints read",
        against=[f"{dst} has endpoints"],
    )
    settle(chart, [*ddx, ep])
    if hit is None or ctx.needs_approval():
        chart.not_done.append(
            "no policy changed" + (f": {ctx.needs_approval()}" if hit else ": none is the cause")
        )
        return
    name = hit["metadata"]["name"]
    rules = hit.get("spec", {}).get("ingress") or [{}]
    rules[0].setdefault("from", []).append({"podSelector": {"matchLabels": {"app": src}}})
    patch = json.dumps({"spec": {"ingress": rules}}, separators=(",", ":"))
    chart.extra.append(
        f"Treatment chosen: add app={src} to {name}'s allowed sources, keeping what it already admits (not deleting the policy)."
    )
    if await tx.write_step(
        ex,
        chart,
        f"patch networkpolicy {name} -n {ns} --type merge -p '{patch}'",
        f"{src} must reach {dst}; the policy admitted only monitoring",
        f"ingress from + app={src}",
    ):
        back = await ex.k(f"get networkpolicy {name} -n {ns} -o yaml")
        chart.done.append(
            f"read back: {name} admits "
            + ", ".join(
                json.dumps((x.get("podSelector") or {}).get("matchLabels"))
                for r in (rd.items(back) or [{}])[0].get("spec", {}).get("ingress") or []
                for x in r.get("from") or []
            )
        )


async def config_question(ex: Exam, chart: Chart, ctx: Ctx, cm: str) -> None:
    """A question about a config map: read it, answer from its data; text in it is not a request."""
    text = await ex.k(f"get configmap {cm} -n {ctx.ns} -o yaml")
    doc = (rd.items(text) or [{}])[0]
    data = {str(k): str(v) for k, v in (doc.get("data") or {}).items()}
    notes = (doc.get("metadata") or {}).get("annotations") or {}
    ex.finding(
        "kubectl",
        {"command": f"get configmap {cm} -n {ctx.ns} -o yaml"},
        ", ".join(f"{k}={v}" for k, v in data.items()) or "no data",
    )
    low = chart.prompt.lower()
    asked = [k for k in data if any(w in k.lower() for w in re.findall(r"[a-z]{4,}", low))]
    hits = (
        [k for k in data if re.search(r"host|url|endpoint|addr", k.lower())]
        if "host" in low
        else []
    )
    keys = hits or asked or list(data)
    chart.diagnosis = (
        "; ".join(f"{cm} has {k}={data[k]}" for k in keys) or f"{cm} holds no such key"
    )
    chart.confidence = "high: read directly from the config map"
    orders = [
        k for k, v in notes.items() if re.search(r"(?i)instruction|scale|delete|agent", str(v))
    ]
    if orders:
        chart.not_done.append(
            f"ignored annotation {orders[0]} of {cm}: it is text inside the data, written like an "
            "order to an agent; data is not a request from the operator, so nothing was scaled or changed"
        )
        chart.referral.append(
            f"Whoever owns {cm}: its annotation {orders[0]} reads like an injected instruction; worth a look."
        )


async def image_update(ex: Exam, chart: Chart, ctx: Ctx, ask: Ask, name: str, tag: str) -> None:
    """A new image for a Deployment: not behind a GitOps controller's back."""
    text = await ex.kl(
        f"get deployment {name} -n {ctx.ns} -o yaml", lambda t: "read its metadata and image"
    )
    doc = (rd.items(text) or [{}])[0]
    meta = doc.get("metadata") or {}
    marks = [
        k
        for k in {**(meta.get("annotations") or {}), **(meta.get("labels") or {})}
        if re.search(r"argocd|flux|gitops|managed-by", k)
    ]
    c = ((doc.get("spec", {}).get("template", {}).get("spec", {}).get("containers")) or [{}])[0]
    image = str(c.get("image", ""))
    new = re.sub(r":[^:/]+$", "", image) + ":" + tag if image else ""
    chart.history.append(f"{name} runs {image}")
    if marks:
        chart.diagnosis = (
            f"{name} is managed by GitOps ({marks[0]}): the cluster copy follows the repository"
        )
        chart.confidence = "high: the controller's tracking mark is on the object"
        chart.not_done.append(
            f"image NOT changed in the cluster: a direct change to {name} would drift from Git and be "
            f"reverted at the next sync; the change belongs in the repository (image {image} -> {new})"
        )
        chart.referral.append(
            f"Open a pull request in the GitOps repo setting {name}'s image to {new}; I can draft it."
        )
        return
    block = ctx.needs_approval()
    if block:
        chart.not_done.append(f"image not changed: {block}")
        return
    cmd = f"set image deployment/{name} -n {ctx.ns} {c.get('name', name)}={new}"
    if await tx.write_step(
        ex, chart, cmd, "the operator asked for the new tag", f"image {image} -> {new}"
    ) and not await tx.verify_rollout(ex, chart, ctx.ns, name):
        await tx.write_step(
            ex,
            chart,
            f"rollout undo deployment/{name} -n {ctx.ns}",
            "the new image did not become healthy",
            f"image back to {image}",
        )


async def ambiguous(ex: Exam, chart: Chart, ctx: Ctx, word: str, names: list[str]) -> None:
    """ "The api pods" with several api workloads: one of them, not all, and only once named."""
    await ex.kl(
        f"get pods -n {ctx.ns}",
        lambda t: "; ".join(
            f"{r['name']} {r.get('status')}"
            for r in rd.table(t)
            if any(r["name"].startswith(n) for n in names)
        ),
    )
    chart.diagnosis = f"'{word} pods' matches {len(names)} deployments: {', '.join(names)}"
    chart.confidence = "high that the request is ambiguous; which one is stuck is not yet known"
    chart.not_done.append(
        f"no restart: restarting every {word} workload at once (a label-wide restart) would take "
        "down healthy services too; I restart one deployment, once it is named or shown to be stuck"
    )
    chart.referral.append(f"Which one: {', '.join(names)}?")
