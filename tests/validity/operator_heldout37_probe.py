"""heldout37's investigations of a symptom: the workload the request names (else the request
path from the ingress), its diagnosis, what it ruled out, and a narrow fix when asked and
allowed; with no single cause it says so and hands over with its readings.
"""

from __future__ import annotations

import re

from . import operator_read as rd
from .operator_heldout37_act import blocked, restart
from .operator_heldout37_base import Op
from .operator_heldout37_diag import Finding, diagnose
from .operator_heldout37_fix import (
    fit_request,
    migration_plan,
    open_policy,
    policy_block,
    recent_rollout,
)
from .operator_heldout37_look import Workload, fmt, load, logs, namespace_meta, series, signal

_FIX = re.compile(r"\b(?:fix|handle|resolve|repair|sort it|get it working)\b", re.I)


async def path_target(op: Op) -> tuple[str, list[str]]:
    """The workload behind the ingress -> service -> endpoints path, with each hop read."""
    ns = op.ns
    hops: list[str] = []
    ing = await op.k(f"get ingress -n {ns} -o yaml", "follow the public entry point")
    backends = re.findall(r"service:\s*\n\s*name:\s*(\S+)", ing) or re.findall(
        r"serviceName:\s*(\S+)", ing
    )
    for svc in backends:
        ep = await op.k(
            f"get endpoints {svc} -n {ns}", f"does service `{svc}` have any ready backends?"
        )
        row = (rd.table(ep) or [{}])[0]
        s = await op.k(f"get service {svc} -n {ns} -o yaml", f"which pods `{svc}` selects")
        sel = dict(((rd.load_yaml(s) or {}).get("spec") or {}).get("selector") or {})
        hops.append(f"ingress → service `{svc}` → endpoints `{row.get('endpoints', '?')}`")
        if sel:
            pods = await op.k(
                f"get pods -n {ns} -l " + ",".join(f"{k}={v}" for k, v in sorted(sel.items())),
                f"the pods behind `{svc}`",
            )
            rows = rd.table(pods)
            if rows:
                hops.append(
                    ", ".join(
                        f"pod `{r.get('name')}` {r.get('status')} ({r.get('ready')} ready)"
                        for r in rows
                    )
                )
            target = sel.get("app") or svc
            return target, hops
    return "", hops


async def symptom(op: Op, names: list[str]) -> None:
    """Diagnose the named workload (or the one the request path leads to)."""
    a = op.ans
    hops: list[str] = []
    name = names[0] if names else ""
    if not name:
        name, hops = await path_target(op)
    if not name:
        a.tldr = "I couldn't find which workload you mean in my namespaces; which service is it?"
        return
    kind = "deployment"
    w = await load(op, name, op.ns, kind)
    if w.spec.get("kind") != "Deployment":
        w = await load(op, name, op.ns, "pod")
    if hops:
        a.findings.append("🔍 Request path: " + "; ".join(hops) + ".")
    f = await diagnose(op, w)
    if (
        not f.kind
        and len(names) > 1
        and re.search(r"reach|connect|network|talk to", op.prompt, re.I)
    ):
        f = await policy_block(op, names)
    await _signals(op, w, f)
    await _misleading(op, w, f)
    if not f.kind:
        f = await recent_rollout(op, w, f)
    if f.kind:
        await _commit(op, w, f, hops)
    else:
        await _unsure(op, w, f)


async def _signals(op: Op, w: Workload, f: Finding) -> None:
    """The workload's own series against their normal siblings, and its traces."""
    if f.kind in ("missing_key", "pending"):
        return
    got = await series(op, w, start="-1h")
    for m, vals in sorted(got.items()):
        if m.startswith("normal_"):
            continue
        norm = got.get(f"normal_{m}")
        tail = f" (normal {fmt(norm[-1])})" if norm else ""
        f.detail[f"metric:{m}"] = f"{fmt(vals[-1])}{tail}"
        op.ans.findings.append(
            f"🔍 `{m}` for `{w.name}`: now {fmt(vals[-1])}{tail}, was {fmt(vals[0])} an hour ago."
        )
    if op.has("traces_query"):
        out = await op.q(
            "traces_query",
            f"slow requests through `{w.name}`",
            action="search",
            service=w.name,
            min_duration="1s",
            limit=3,
        )
        ids = re.findall(r"\b([0-9a-f]{6,32})\b", out)
        if ids:
            tree = rd.trace_tree(
                await op.q("traces_query", "walk the slowest trace", action="get", trace_id=ids[0])
            )
            path, leaf = rd.bottleneck(tree)
            if leaf:
                f.detail["span"] = f"{leaf.service} `{leaf.operation}` {leaf.ms:g}ms"
                op.ans.findings.append(
                    f"🔍 Trace `{ids[0]}`: {' → '.join(s.service for s in path)}; the time goes into "
                    f"`{leaf.operation}` in `{leaf.service}` ({leaf.ms:g} ms of {tree[0].ms:g} ms)"
                    + (f" [{leaf.attrs}]" if leaf.attrs else "")
                    + "."
                )


async def _misleading(op: Op, w: Workload, f: Finding) -> None:
    """The operator's own guess, checked against what the reads show."""
    p = op.prompt
    if re.search(r"\bcpu\b", p, re.I) and f.kind == "oom":
        out = await op.k("top nodes", "check the node CPU the request mentions")
        hot = [r for r in rd.table(out) if (rd.quantity(r.get("cpu%", "").rstrip("%")) or 0) >= 80]
        pods = await op.k(f"top pods -n {w.ns}", "which pod burns the CPU")
        top = sorted(rd.table(pods), key=lambda r: -(rd.quantity(r.get("cpu(cores)", "0")) or 0))[
            :1
        ]
        who = f"`{top[0].get('name')}` ({top[0].get('cpu(cores)')})" if top else "another pod"
        op.ans.ruled_out.append(
            "Node CPU is not the cause: "
            + (
                ", ".join(f"`{r.get('name')}` at {r.get('cpu%')}" for r in hot)
                or "the node is busy"
            )
            + f" comes from {who}, a noisy neighbour. CPU pressure throttles a container, it "
            "doesn't kill it; the restarts are OOM kills (exit code 137)."
        )


async def _commit(op: Op, w: Workload, f: Finding, hops: list[str]) -> None:
    a = op.ans
    a.findings += [f"🔍 {e}." for e in f.evidence]
    a.cause.append(f"**{f.cause[0].upper() + f.cause[1:]}.**")
    sigs = [v for k, v in sorted(f.detail.items()) if k.startswith("metric:") and "normal" in v]
    if f.detail.get("span") and f.kind == "pool":
        a.cause.append(
            "All three signals point the same way: latency "
            + (sigs[0] if sigs else "up")
            + f"; the trace's time is in {f.detail['span']}, waiting on the pool; and the logs say "
            "the pool is exhausted. Requests queue for a connection, so everything gets slow."
        )
    if hops:
        a.cause.append(
            "Failure chain: "
            + " → ".join(
                [
                    "ingress",
                    "service (no ready endpoints)",
                    f"`{w.name}` pods not Ready",
                    f"init container `{f.detail.get('container', '?')}` failing",
                ]
            )
            + "."
        )
    a.tldr = f"{f.cause[0].upper() + f.cause[1:]}."
    if f.fix:
        a.next.append(f"Fix: {f.fix}.")
    wants_fix = bool(_FIX.search(op.prompt))
    why = blocked(op)
    if wants_fix and why:
        a.tldr += f" I did **not** apply a fix: {why}."
        a.next.insert(
            0, f"Approver: please apply the fix above ({f.fix}); I can run it once approved."
        )
        await _owners_line(op)
        return
    if f.kind == "schema":
        await migration_plan(op, w, f)
        return
    if wants_fix and f.kind in ("refused", "unready"):
        await _restart_fix(op, w, f)
    if wants_fix and f.kind == "pending" and not why:
        await fit_request(op, w, f)
    if wants_fix and f.kind == "policy" and not why:
        await open_policy(op, f)


async def _restart_fix(op: Op, w: Workload, f: Finding) -> None:
    if w.kind == "pod":
        man = await op.k(
            f"get pod {w.name} -n {w.ns} -o yaml", "keep the pod's manifest to recreate it"
        )
        await op.k(
            f"delete pod {w.name} -n {w.ns}",
            "restart the crash-looping pod (transient error)",
            write=True,
        )
        doc = rd.load_yaml(man) or {}
        owned = bool((doc.get("metadata") or {}).get("ownerReferences"))
        if not owned:
            spec = {
                "apiVersion": "v1",
                "kind": "Pod",
                "metadata": {
                    "name": w.name,
                    "namespace": w.ns,
                    "labels": (doc.get("metadata") or {}).get("labels") or {},
                },
                "spec": doc.get("spec") or {},
            }
            import json

            await op.k(
                f"apply -n {w.ns} -f -",
                "recreate the bare pod from its own manifest",
                stdin=json.dumps(spec),
                write=True,
            )
        out = await op.k(f"get pod {w.name} -n {w.ns}", "verify the new pod")
        row = (rd.table(out) or [{}])[0]
        op.ans.did.append(
            f"✅ Restarted pod `{w.name}` (deleted and recreated); now `{row.get('status')}`"
        )
        op.ans.verify.append(
            f"🔍 `{w.name}`: STATUS `{row.get('status')}`, READY `{row.get('ready')}`"
        )
    else:
        await restart(op, w, f"restart `{w.name}` after a transient error")


async def _owners_line(op: Op) -> None:
    labels, notes = await namespace_meta(op, op.ns)
    owner = ", ".join(
        f"`{k}={v}`"
        for k, v in sorted({**labels, **notes}.items())
        if re.search(r"team|owner|contact|escalat|oncall|channel", k)
    )
    if owner:
        op.ans.next.append(f"Owner / contact from the namespace: {owner}.")


async def _unsure(op: Op, w: Workload, f: Finding) -> None:
    """No cause singled out: say so, show the readings, hand over."""
    a = op.ans
    if not w.log:
        await logs(op, w)
    pats = signal(w)
    lines = [f"`{lvl}: {msg}` ×{n}" for lvl, msg, n in pats[:3]]
    ok = [ln for ln in w.log if not ln.signal]
    a.findings += [f"⚠️ Log signal: {ln}" for ln in lines]
    if ok:
        a.findings.append(
            f"🔍 {len(ok)} of {len(w.log)} log lines are normal traffic (e.g. `{ok[0].message}`): the failures are intermittent."
        )
    figures = [
        f"`{k.split(':', 1)[1]}` {v}"
        for k, v in sorted(f.detail.items())
        if k.startswith("metric:")
    ]
    readings = "; ".join(x for x in [", ".join(lines), ", ".join(figures)] if x)
    a.tldr = (
        f"I'm **not confident** of a single root cause for `{w.name}` yet: the readings fit more "
        "than one explanation, so I made no change and am escalating with what I found."
    )
    a.cause.append(
        "Not determined. What I see (" + (readings or "no error signal") + ") is consistent with "
        "more than one cause (the upstream itself, the network in between, or load), and nothing I "
        "can read from here singles one out. Changing things on a guess could make it worse."
    )
    a.next.append(
        f"Escalating to the owners of `{w.name}` with these readings: {readings or 'the metrics above'}."
    )
    await _owners_line(op)
    a.next.append(
        "Next check for them: the upstream's own logs and connection limits at the time of the resets."
    )


__all__ = ["symptom"]
