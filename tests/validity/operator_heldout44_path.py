"""heldout44's request-path and rollout work-ups (session 36, written blind): from the entry
(ingress -> service -> endpoints -> pods) when the request names no workload, a canary judged
by its own error rate, and a paused rolling update continued around a node in trouble."""

from __future__ import annotations

import json
import re

from . import operator_heldout44_tx as tx
from . import operator_read as rd
from .operator_heldout44 import Ask, Ctx
from .operator_heldout44_chart import Chart, Dx, Exam, pct
from .operator_heldout44_exam import Facts, examine


async def entry_path(ex: Exam, chart: Chart, ctx: Ctx, ask: Ask) -> None:
    """No workload named: follow the traffic from the ingress to the pods that should serve it."""
    from .operator_heldout44_work import treat

    ns = ctx.ns
    ing = await ex.kl(
        f"get ingress -n {ns} -o yaml",
        lambda t: (
            "; ".join(f"{i['metadata']['name']} -> " + ", ".join(_backends(i)) for i in rd.items(t))
            or "no ingress"
        ),
    )
    backends = [b for i in rd.items(ing) for b in _backends(i)]
    if not backends:
        chart.diagnosis, chart.confidence = "", "low: no entry point found to follow"
        return
    svc = backends[0]
    eps = await ex.kl(
        f"get endpoints {svc} -n {ns}",
        lambda t: "; ".join(f"{r['name']} endpoints {r.get('endpoints')}" for r in rd.table(t)),
    )
    doc = (rd.items(await ex.k(f"get service {svc} -n {ns} -o yaml")) or [{}])[0]
    sel = doc.get("spec", {}).get("selector") or {}
    ex.finding("kubectl", {"command": f"get service {svc} -n {ns} -o yaml"}, f"selector {sel}")
    mesh = await ex.read(
        "logs_query", query=f'{{namespace="{ns}"}} |~ "(?i)upstream|reset|refused|503"', tail=50
    )
    src = [ln for ln in mesh.splitlines() if "source=" in ln]
    if src:
        said = re.sub(r"^\S+\s+\{[^}]*\}\s*", "", src[-1])
        who = re.search(r'source="([^"]+)"', src[-1])
        ex.finding(
            "logs_query",
            {"query": f'{{namespace="{ns}"}} |~ "upstream|reset|refused|503"'},
            f'{who[1] if who else "proxy"}: "{said}"',
        )
        chart.history.append(f'{who[1] if who else "the proxy"} reports "{said}" towards {svc}')
    empty = "<none>" in eps
    chart.history.append(f"ingress -> service {svc} -> endpoints {'NONE' if empty else 'present'}")
    name = sel.get("app") or svc
    f = Facts(name)
    await examine(ex, chart, f, ns)
    chart.history.append(
        f"chain: ingress (503) -> {('mesh proxy: connection failure -> ' if src else '')}service {svc} "
        f"(no ready endpoints) -> deployment {name} (pods not ready)"
    )
    await treat(ex, chart, ctx, ask, f)


def _backends(ing: dict) -> list[str]:
    out = []
    for r in ing.get("spec", {}).get("rules") or []:
        for p in (r.get("http") or {}).get("paths") or []:
            name = ((p.get("backend") or {}).get("service") or {}).get("name")
            if name and name not in out:
                out.append(name)
    return out


async def canary(ex: Exam, chart: Chart, ctx: Ctx, target: list[str]) -> None:
    ns = ctx.ns
    names = [r["name"] for r in rd.table(await ex.k(f"get deployments -n {ns}"))]
    can = next((n for n in names if "canary" in n and any(t in n for t in target)), "")
    stable = next((t for t in target if "canary" not in t), "")
    m = re.search(r"under\s+(\d+(?:\.\d+)?)\s*%", chart.prompt.lower())
    limit = float(m[1]) / 100 if m else 0.02
    if not can:
        chart.diagnosis, chart.confidence = "", "low: no canary deployment found"
        return
    await ex.kl(
        f"get deployment {can} -n {ns} -o wide",
        lambda t: "; ".join(
            f"{r['name']} {r.get('ready')} {r.get('images', '')}" for r in rd.table(t)
        ),
    )
    q = f'error_rate{{namespace="{ns}",service="{can}"}}'
    got = rd.prom_series(await ex.read("metrics_query", action="query", query=q))
    rate = got[0][1][-1] if got and got[0][1] else None
    ex.finding(
        "metrics_query",
        {"action": "query", "query": q},
        f"canary error rate {pct(rate)}" if rate is not None else "no series",
    )
    dx = Dx(f"canary {can} unhealthy", kind="canary")
    if rate is None:
        chart.confidence = "low: no error-rate series for the canary; not proceeding either way"
        chart.referral.append(f"To the {stable} owners: canary health unreadable; rollout held.")
        return
    healthy = rate < limit
    (dx.against if healthy else dx.for_).append(
        f"error rate {pct(rate)} against the {pct(limit)} threshold"
    )
    dx.status = "ruled out by the error-rate read" if healthy else "confirmed"
    dx.cause = f"the canary {can} fails the health gate: {pct(rate)} errors, over {pct(limit)}"
    chart.ddx = [dx]
    chart.diagnosis = (
        dx.cause if not healthy else f"canary {can} healthy ({pct(rate)} < {pct(limit)})"
    )
    chart.confidence = "high: measured against the threshold the request set"
    chart.extra.append(
        f"Branch taken: {'healthy -> bump to 50%' if healthy else 'NOT healthy -> roll back the canary'} (condition: error rate < {pct(limit)})."
    )
    if healthy:
        chart.not_done.append(
            "traffic bump left to the traffic owner's weight setting; nothing rolled back"
        )
        return
    if await tx.scale(
        ex, chart, ctx, can, 0, "canary over its error threshold: the rollback branch"
    ):
        chart.done.append(
            f"{stable} (stable) left untouched at its replica count; it takes all traffic again"
        )
    chart.referral.append(
        f"To the {stable} owners: canary {can} rolled back at {pct(rate)} errors; look at its logs before another try."
    )
    chart.followup.append(f"{stable} error rate back to normal now the canary is gone")


async def rolling(ex: Exam, chart: Chart, ctx: Ctx, ask: Ask, name: str) -> None:
    """Continue a paused rolling update, checking the nodes first and again after."""
    ns = ctx.ns
    text = await ex.kl(f"get deployment {name} -n {ns} -o yaml", lambda t: _rollout_said(t))
    spec = (rd.items(text) or [{}])[0]
    image = (
        (spec.get("spec", {}).get("template", {}).get("spec", {}).get("containers") or [{}])[0]
    ).get("image")
    bad = await pressured_nodes(ex)
    events = await ex.kl(
        f"get events -n {ns}",
        lambda t: " | ".join(
            f"{r.get('reason')} {r.get('object')}"
            for r in rd.table(t)
            if r.get("type") == "Warning"
        )[:300],
    )
    del events
    chart.history.append(
        f"rolling update of {name} to {image} in progress, paused={bool(spec.get('spec', {}).get('paused'))}"
    )
    if bad:
        chart.extra.append(
            f"Changed condition: {', '.join(bad)} reports DiskPressure since the update started; pods "
            f"placed there get evicted. Plan adapted: keep {name}'s pods off {', '.join(bad)} and never "
            "drop below full capacity (maxUnavailable 0), then continue."
        )
        await _avoid_nodes(ex, chart, ns, name, bad)
    if spec.get("spec", {}).get("paused"):
        await tx.write_step(
            ex,
            chart,
            f"rollout resume deployment/{name} -n {ns}",
            "the operator asked to continue the update",
            "paused -> progressing",
        )
    ok = await tx.verify_rollout(ex, chart, ns, name)
    wide = rd.table(await ex.k(f"get pods -n {ns} -l app={name} -o wide"))
    chart.done.append(
        "read back pods: " + ", ".join(f"{r['name']} on {r.get('node')}" for r in wide)
    )
    chart.diagnosis = f"rollout of {name} {'completed' if ok else 'not yet complete'}" + (
        f", routed around DiskPressure on {', '.join(bad)}" if bad else ""
    )
    chart.confidence = "high: read back from the rollout status and the pod placement"
    if bad:
        chart.referral.append(
            f"To the cluster/platform owners: {', '.join(bad)} has DiskPressure; it needs cleaning before it takes pods again."
        )
        chart.followup.append(
            f"lift the node exclusion from {name} once {', '.join(bad)} is healthy"
        )


async def _avoid_nodes(ex: Exam, chart: Chart, ns: str, name: str, bad: list[str]) -> None:
    """Keep the update's pods off the nodes in trouble, at full capacity (split from
    :func:`rolling`, no change of behaviour)."""
    term = {"key": "kubernetes.io/hostname", "operator": "NotIn", "values": bad}
    required = {"nodeSelectorTerms": [{"matchExpressions": [term]}]}
    aff = {
        "spec": {
            "strategy": {"rollingUpdate": {"maxUnavailable": 0, "maxSurge": 1}},
            "template": {
                "spec": {
                    "affinity": {
                        "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": required}
                    }
                }
            },
        }
    }
    await tx.write_step(
        ex,
        chart,
        f"patch deployment {name} -n {ns} --type merge -p '{json.dumps(aff, separators=(',', ':'))}'",
        f"{', '.join(bad)} under DiskPressure: avoid it during the update",
        f"pods may schedule on any node -> not on {', '.join(bad)}; maxUnavailable 25% -> 0",
    )


def _rollout_said(text: str) -> str:
    d = (rd.items(text) or [{}])[0]
    st = d.get("status", {})
    return f"paused={bool(d.get('spec', {}).get('paused'))}, {st.get('updatedReplicas', 0)}/{d.get('spec', {}).get('replicas')} updated, {st.get('readyReplicas', 0)} ready"


async def pressured_nodes(ex: Exam) -> list[str]:
    text = await ex.k("describe nodes")
    bad = []
    for block in re.split(r"\n(?=Name:\s)", text):
        name = re.match(r"\s*Name:\s+(\S+)", block)
        if name and re.search(r"^\s*(DiskPressure|MemoryPressure|PIDPressure)\s+True", block, re.M):
            bad.append(name[1])
    ex.finding(
        "kubectl",
        {"command": "describe nodes"},
        ("pressure on " + ", ".join(bad)) if bad else "all nodes without pressure",
    )
    return bad
