"""heldout41's incident plays (session 34, written blind): follow the workload the request
names (or the ingress -> service -> endpoints path to it), commit to the cause the evidence
shows, rule out the rest by what was read, act narrowly when asked and allowed, escalate with
the owner and the numbers otherwise; a migration, a network policy, a rolling update and a
runbook, each by the same reads.
"""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout41_diag import Finding, diagnose, signal_lines
from .operator_heldout41_look import Ctx, pods_of
from .operator_heldout41_ops import verify, write
from .operator_heldout41_react import React


def _owner(ctx: Ctx) -> str:
    o = ctx.owners()
    team = next((v for k, v in o.items() if "team" in k.lower() or "owner" in k.lower()), "")
    chan = next((v for k, v in o.items() if v != team), "")
    return " / ".join(x for x in (team, chan) if x) or f"the owners of namespace {ctx.ns}"


async def _alerts(r: React, ctx: Ctx, w: str) -> list[str]:
    text = await r.act("Anything firing right now?", "metrics_query", action="alerts")
    fired = [a for a in rd.alerts(text) if str(a.get("state", "firing")) == "firing"]
    names = [str((a.get("labels") or {}).get("alertname", "alert")) for a in fired]
    r.show(
        [f"{n}: {(a.get('annotations') or {}).get('summary', '')}" for n, a in zip(names, fired)]
        or ["(none firing)"]
    )
    return names


async def _ingress_path(r: React, ctx: Ctx) -> str:
    """No workload named: the ingress, its backend service, the endpoints, the selector's workload."""
    ing = rd.items(
        await r.kubectl(
            "No workload is named; start at the ingress the request is about.",
            f"get ingress -n {ctx.ns} -o yaml",
        )
    )
    svc = ""
    for i in ing:
        for rule in (i.get("spec") or {}).get("rules") or []:
            for path in ((rule.get("http") or {}).get("paths")) or []:
                svc = svc or str(((path.get("backend") or {}).get("service") or {}).get("name", ""))
    if not svc:
        return ""
    r.thought(f"The ingress routes to service {svc}.")
    ep = await r.kubectl(
        f"Does service {svc} have endpoints to send to?", f"get endpoints {svc} -n {ctx.ns}"
    )
    r.thought(f"Service {svc} endpoints: {'none' if '<none>' in ep else 'present'}.")
    logs = await r.act(
        "The ingress and mesh side: upstream errors in the namespace's logs.",
        "logs_query",
        namespace=ctx.ns,
        filter="upstream",
        tail=20,
    )
    up = signal_lines(logs)
    r.show(up or ["(no upstream error line)"])
    doc = rd.load_yaml(
        await r.kubectl(f"Which pods does {svc} select?", f"get service {svc} -n {ctx.ns} -o yaml")
    )
    sel = ((doc or {}).get("spec") or {}).get("selector") or {} if isinstance(doc, dict) else {}
    app = str(sel.get("app", svc))
    ctx.chain = [
        f"ingress {', '.join(str((i.get('metadata') or {}).get('name')) for i in ing)} returns 503",  # type: ignore[attr-defined]
        f"service {svc} has {'no' if '<none>' in ep else 'some'} endpoints",
    ] + ([f"upstream: {up[0]}"] if up else [])
    return app


async def incident(r: React, ctx: Ctx, w: str, pod: str = "", fix: bool = False) -> str:
    chain: list[str] = []
    if not w and not pod:
        w = await _ingress_path(r, ctx)
        chain = list(getattr(ctx, "chain", []))
        if not w:
            return (
                "I could not tie the symptom to a workload; escalating with the reads above to "
                + _owner(ctx)
                + "."
            )
    alerts = await _alerts(r, ctx, w) if r.has("metrics_query") else []
    if alerts:
        r.trigger = f"alert {alerts[0]}"
    subject = w or re.sub(r"-[a-z0-9]{4,5}$", "", pod)
    f = await diagnose(r, ctx, subject, pod)
    cpu = await _cpu_claim(r, ctx, f)
    r.trigger = "the operator's request"
    lines = []
    if chain:
        lines.append(
            "Chain: " + " -> ".join(chain) + f" -> deployment {subject}: {f.cause or 'see below'}."
        )
    if f.cause:
        lines.append(f"Root cause: {f.cause}.")
        lines += [f"- {e}" for e in _evidence(f)]
    elif fix and any(
        p.get("ready", "").split("/")[0] != p.get("ready", "").split("/")[-1]
        for p in pods_of(ctx, subject)
    ):
        lines += [f"- {e}" for e in _evidence(f)]
    else:
        lines.append(
            f"No single root cause stands for {subject}; I am not confident enough to change anything on a guess."
        )
        lines += [f"- {e}" for e in _evidence(f)]
    if cpu:
        lines.append(cpu)
    if alerts:
        lines.append(
            f"Alert {alerts[0]} fired while I was looking; the memory reads after it are for that alert."
        )
    if f.ruled_out:
        lines.append("Ruled out: " + "; ".join(f.ruled_out) + ".")
    lines.append(await _act(r, ctx, f, fix))
    return "\n".join(lines)


def _evidence(f: Finding) -> list[str]:
    out = list(f.evidence[:4])
    out += [s for s in f.signals if s.startswith(("span", "memory", "rollout", "event"))][:3]
    for name, val in f.series.items():
        base = f.baselines.get(name)
        out.append(
            f"{name} of {f.workload} {val:g}" + (f" (normal {base:g})" if base is not None else "")
        )
    return out


async def _cpu_claim(r: React, ctx: Ctx, f: Finding) -> str:
    """The request says the node CPU is the problem: read it and say whether it is."""
    if "cpu" not in ctx.prompt.lower() or not f.view:
        return ""
    top = await r.kubectl("The request blames node CPU: who uses it?", f"top pods -n {ctx.ns}")
    rows = rd.table(top)
    hog = max(rows, key=lambda x: rd.quantity(x.get("cpu(cores)", "0")) or 0, default={})
    r.show([ln for ln in top.splitlines()][:5])
    if f.kind == "oom":
        return (
            f"The pegged CPU is a misleading signal: it is {hog.get('name', 'another pod')} on {f.view.node}, a noisy neighbour; "
            f"{f.workload} restarts because it is OOMKilled (exit 137, memory), and CPU pressure does not kill a container."
        )
    return f"Node CPU: {hog.get('name', '?')} uses the most; I did not find it to be the cause."


async def _act(r: React, ctx: Ctx, f: Finding, fix: bool) -> str:
    owner = _owner(ctx)
    notready = [
        p
        for p in pods_of(ctx, f.workload)
        if p.get("ready", "").split("/")[0] != p.get("ready", "").split("/")[-1]
    ]
    if not f.cause and fix and notready and not (ctx.read_only or ctx.needs_approval):
        return await _restart_degraded(r, ctx, f)
    if not f.cause:
        return (
            f"Escalating to {owner} with this context rather than guessing: the reads above, "
            f"{', '.join(_evidence(f)[:3]) or 'no error signal in logs'}. Next I would correlate the failing requests with upstream pod restarts."
        )
    if not fix:
        return "Nothing changed (the request asked for a diagnosis). " + _remedy(f)
    if ctx.read_only or ctx.needs_approval:
        return (
            f"Not applied: {ctx.needs_approval or 'my zone here is read-only'}. Escalating to {owner} for approval with "
            f"the recommendation: {_remedy(f)}"
        )
    if f.kind == "oom" and f.limit:
        new = rd.quantity(f.limit) or 0
        limit = rd.mib(new * 2)
        body = json.dumps(
            {
                "spec": {
                    "template": {
                        "spec": {
                            "containers": [
                                {"name": f.workload, "resources": {"limits": {"memory": limit}}}
                            ]
                        }
                    }
                }
            }
        )
        ok = await write(
            r,
            ctx,
            f"OOMKilled at {f.limit}: double the memory limit to {limit}.",
            f"patch deployment {f.workload} -n {ctx.ns} --type=strategic -p '{body}'",
        )
        good = ok and await verify(r, ctx, f.workload)
        return f"Did: memory limit {f.limit} -> {limit}; {'verified Ready' if good else 'NOT verified'}. The leak itself is the owners' ({owner})."
    if f.kind in ("rollout",):
        ok = await write(
            r,
            ctx,
            "The failure started with the newest rollout: roll it back.",
            f"rollout undo deployment/{f.workload} -n {ctx.ns}",
        )
        good = ok and await verify(r, ctx, f.workload)
        return f"Did: rolled {f.workload} back to its previous ReplicaSet; {'verified' if good else 'NOT verified'}."
    if f.kind == "transient":
        return await _recreate(r, ctx, f)
    if f.kind in ("config", "init", "pool", "tls"):
        return f"Not changed: {_remedy(f)} That needs a value or decision from {owner}; escalated with the evidence above."
    target = f.workload if pods_of(ctx, f.workload) else ""
    if target:
        ok = await write(
            r,
            ctx,
            "Restart to clear it, then verify.",
            f"rollout restart deployment {target} -n {ctx.ns}",
        )
        good = ok and await verify(r, ctx, target)
        return f"Did: rolling restart of {target}; {'verified Ready' if good else 'NOT verified'}."
    ok = await write(
        r,
        ctx,
        f"{f.pod} is a bare pod: delete it so it is recreated.",
        f"delete pod {f.pod} -n {ctx.ns}",
    )
    return f"Did: deleted pod {f.pod}{'' if ok else ' (failed)'}."


def _remedy(f: Finding) -> str:
    return {
        "config": f"add key {f.missing_key} to config map {f.config_map} with the right value, then restart {f.workload}.",
        "oom": f"raise {f.workload}'s memory limit above {f.limit or 'the current one'} (e.g. double it) and find the leak.",
        "init": f"fix the failing migration the init container runs (its error above), then let {f.workload} restart.",
        "pool": f"raise {f.workload}'s pool size or find what holds connections (slow queries in the trace).",
        "tls": "renew the upstream's certificate (cert-manager) and confirm the chain.",
        "rollout": f"roll {f.workload} back to the previous ReplicaSet (kubectl rollout undo).",
    }.get(f.kind, "see the evidence above.")


async def _restart_degraded(r: React, ctx: Ctx, f: Finding) -> str:
    """Asked to fix, no cause in the logs: read the config that goes with it, then replace the
    pods that fail readiness (a restart, verified), and say the cause is not proven."""
    maps = rd.table(
        await r.kubectl(
            "Config that goes with the workload (same name stem)?", f"get configmaps -n {ctx.ns}"
        )
    )
    stem = f.workload.split("-")[0]
    said = []
    for m in maps:
        name = m.get("name", "")
        if name.startswith(stem + "-"):
            doc = rd.load_yaml(
                await r.kubectl(
                    f"{name} may hold {f.workload}'s limits.",
                    f"get configmap {name} -n {ctx.ns} -o yaml",
                )
            )
            data = (doc or {}).get("data") or {} if isinstance(doc, dict) else {}
            said += [f"{name}: {k}={v}" for k, v in data.items()]
            r.show([f"{k}={v}" for k, v in data.items()])
    bad = [
        p.get("name", "")
        for p in pods_of(ctx, f.workload)
        if p.get("ready", "").split("/")[0] != p.get("ready", "").split("/")[-1]
    ]
    ok = await write(
        r,
        ctx,
        f"{', '.join(bad) or 'Some pods'} fail readiness (HTTP 503) with no error in the logs; replace them with a rolling restart.",
        f"rollout restart deployment {f.workload} -n {ctx.ns}",
    )
    good = ok and await verify(r, ctx, f.workload)
    return (
        f"Diagnosis: {f.workload} is degraded, {', '.join(bad) or 'a pod'} not Ready (readiness probe 503), so the Service drops it and "
        f"connections to it fail. Config read: {'; '.join(said) or 'none'}. "
        f"Fix: rolling restart of {f.workload}; verified: {'all pods Running and Ready' if good else 'NOT all Ready'}. "
        f"If it recurs, the connection limit above is the next suspect; I did not change it on a guess."
    )


async def _recreate(r: React, ctx: Ctx, f: Finding) -> str:
    """A transient crash: a controller's pod is deleted (it comes back); a bare pod is
    recreated from its own spec, since deleting it alone would lose it."""
    owner = f.view.owner if f.view else ""
    if owner:
        ok = await write(
            r,
            ctx,
            f"{f.pod} is stuck in back-off on a transient error; delete it so {owner} makes a fresh one.",
            f"delete pod {f.pod} -n {ctx.ns}",
        )
    else:
        doc = rd.load_yaml(
            await r.kubectl(
                f"{f.pod} has no controller: keep its spec so I can recreate it.",
                f"get pod {f.pod} -n {ctx.ns} -o yaml",
            )
        )
        if not isinstance(doc, dict):
            return "Not changed: could not read the pod's spec to recreate it."
        meta = doc.get("metadata") or {}
        spec = {k: v for k, v in (doc.get("spec") or {}).items() if k != "nodeName"}
        body = {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {
                "name": meta.get("name"),
                "namespace": ctx.ns,
                "labels": meta.get("labels") or {},
            },
            "spec": spec,
        }
        ok = await write(
            r,
            ctx,
            f"Delete {f.pod} to clear its back-off (spec kept above).",
            f"delete pod {f.pod} -n {ctx.ns}",
        )
        if ok:
            await r.act(
                "Recreate it from the same spec.",
                "kubectl",
                command=f"apply -n {ctx.ns} -f -",
                stdin=json.dumps(body),
            )
            ok = not r.steps[-1].failed
    rows = rd.table(
        await r.kubectl("Verify: is it Running and Ready now?", f"get pods -n {ctx.ns}")
    )
    now = [x for x in rows if x.get("name", "").startswith(f.workload)]
    good = bool(now) and all(
        x.get("status") == "Running"
        and x.get("ready", "").split("/")[0] == x.get("ready", "").split("/")[-1]
        for x in now
    )
    return (
        f"Did: {'deleted' if owner else 'deleted and recreated'} {f.pod} to clear the back-off{'' if ok else ' (FAILED)'}; "
        f"verified: {', '.join(x.get('name', '') + ' ' + x.get('status', '') + ' ' + x.get('ready', '') for x in now) or 'not listed'}"
        f"{'' if good else ' (not yet healthy)'}. Staging, within my authority: no escalation needed; if it recurs, check the Redis it depends on."
    )
