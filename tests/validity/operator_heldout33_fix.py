"""heldout33's diagnose-then-act play (session 28, written blind): read the workload, state one
cause, then act only where the request asks for a fix, the change is narrow and nothing
(production approval, data at risk, an unclear cause) says a human should decide.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .operator_heldout33_cure import ACT, nothing
from .operator_heldout33_diag import Finding, diagnose, rollout_age
from .operator_heldout33_look import (
    Desk,
    Workload,
    frac,
    mb,
    prom,
    read_workload,
    unhealthy,
)
from .operator_heldout33_plays import memory_view
from .operator_heldout33_say import Reply, said
from .operator_read import (
    bottleneck,
    items,
    log_lines,
    quantity,
    signal_patterns,
    table,
    trace_tree,
)

FIX = re.compile(r"\b(fix|handle|resolve|repair|sort|remediate|restart|recover)\b")


async def _subject(desk: Desk) -> Workload | None:
    """No workload named: follow the entry point the request names (an ingress), else the
    one unhealthy deployment."""
    ns = desk.scope[0]
    ing = await desk.k(
        f"get ingress -n {ns} -o yaml", "no workload was named, so I started at the entry point"
    )
    for i in items(ing.text):
        txt = json.dumps(i.get("spec") or {})
        svc = re.findall(r'"service": \{"name": "([^"]+)"', txt)
        if svc:
            return await read_workload(desk, ns, svc[0])
    bad = await unhealthy(desk, ns)
    deps = await desk.k(f"get deployments -n {ns}", "to map the unhealthy pods to their workloads")
    names = [r.get("name", "") for r in table(deps.text)]
    hits = sorted({n for n in names for b in bad if b.startswith(n + "-")})
    return await read_workload(desk, ns, hits[0]) if len(hits) == 1 else None


async def diagnose_play(desk: Desk, task: Any, w: Workload | None) -> Reply:
    chain: list[str] = []
    if w is None:
        w = await _subject(desk)
        if w is not None and w.name:
            chain.append(w.name)
    if w is None:
        r = Reply()
        r.wrong = "More than one workload here is unhealthy and your message does not say which one you mean."
        r.human = "Please tell me the service you are looking at and I will take it from there."
        return r
    f = await diagnose(desk, w)
    r = Reply()
    r.wrong = said(f.wrong, w.get_pods) if f.wrong else ""
    r.why = (
        "; ".join(said(t, c) for t, c in f.proof[:4])
        if not f.why
        else said(
            (f.why if "-" in f.why.split()[0] else f.why[0].upper() + f.why[1:]),
            *[c for _, c in f.proof[:3]],
        )
    )
    asks_fix = bool(FIX.search(desk.prompt.lower()))
    await _context(desk, w, f, r)
    if f.kind != "memory_trend":
        await ACT.get(f.kind, nothing)(desk, task, w, f, r, asks_fix)
    return r


async def _context(desk: Desk, w: Workload, f: Finding, r: Reply) -> None:
    p = desk.prompt.lower()
    if "cpu" in p and f.kind == "oom":
        top = await desk.k("top nodes", "you asked whether the node's CPU is the problem")
        pods = await desk.k(f"top pods -n {w.ns}", "to see which pod uses that CPU")
        busy = max(
            table(pods.text), key=lambda x: quantity(x.get("cpu(cores)", "0")) or 0, default={}
        )
        r.more.insert(
            0,
            (
                "Is the node's CPU the problem?",
                said(
                    f"No. The CPU is busy, mostly {busy.get('name', 'another pod')}, but CPU"
                    " pressure only slows a container down, it never restarts it; the"
                    f" restarts of {w.name} are memory kills",
                    top,
                    pods,
                ),
            ),
        )
    if f.kind in ("oom",) or re.search(r"memory|doing|worry", p):
        line, risk = await memory_view(desk, w)
        if line and f.kind == "unclear" and "reaches the limit" in risk:
            f.kind, f.sure = "memory_trend", True
            r.wrong = line
            r.why = (
                f"{risk} Nothing else is wrong with {w.name} today: its pods run and its"
                " logs show no errors, so this steady growth (a leak, most likely) is the worry."
            )
            r.human = (
                f"{w.name}'s owners should look for the leak (or raise the limit as a stop-gap)"
                " before it runs out; until then a restart only resets the clock."
            )
        elif line:
            r.more.append(("What does its memory look like?", f"{line} {risk}"))
        elif f.kind == "oom":
            top = await desk.k(f"top pods -n {w.ns}", f"to read how much memory {w.name} uses now")
            lim = f.data.get("limit", "")
            for row in table(top.text):
                if row.get("name", "").startswith(w.name):
                    use = row.get("memory(bytes)", "")
                    r.more.append(
                        (
                            "How close to its limit does it run?",
                            said(
                                f"{row.get('name')} uses {mb(use)} of its {mb(lim)} limit"
                                f" ({frac(quantity(use) or 0, quantity(lim) or 0)} of it): the"
                                " limit is set below what the service needs, not a spike",
                                top,
                            ),
                        )
                    )
                    break
    if f.kind != "rollout" and (
        f.kind.startswith("log_") or re.search(r"spik|since|after|error rate", p)
    ):
        age, prev, rs = await rollout_age(desk, w)
        if age is not None and age < 120:
            r.more.append(
                (
                    "Did anything change recently?",
                    said(
                        f"Yes: {w.name} was rolled out {age:.0f} minutes ago (now {w.image},"
                        f" before {prev or 'an earlier image'}), shortly before the errors began",
                        rs,
                    ),
                )
            )
            f.data["recent"] = (age, prev)
    if f.kind == "log_pool":
        await _pool_signals(desk, w, f, r)
    if f.kind == "init":
        await _chain(desk, w, r)
    if f.kind.startswith("log_"):
        lines = log_lines(f.data["logs"].text)
        noise = sum(1 for x in lines if x.level in ("DEBUG", "TRACE", "INFO"))
        if noise:
            sig = signal_patterns(lines)
            r.more.append(
                (
                    "What else is in the logs?",
                    said(
                        f"{noise} of {len(lines)} lines are routine (health checks, debug and"
                        f" trace lines) and I set them aside; the {len(sig)} distinct warning or"
                        " error message(s) left are the ones above",
                        f.data["logs"],
                    ),
                )
            )


async def _pool_signals(desk: Desk, w: Workload, f: Finding, r: Reply) -> None:
    """Metrics and traces read beside the logs, and the cause stated with all three."""
    parts, calls = [f'the logs say "{f.data.get("line")}"'], [f.data.get("logs")]
    lat = await latency(desk, w)
    if desk.has("traces_query"):
        tr = await desk.run(
            "traces_query",
            f"to see where {w.name}'s slow requests spend their time",
            action="search",
            service=w.name,
            limit=5,
        )
        m = re.search(r"[0-9a-f]{8,}", tr.text)
        if m:
            one = await desk.run(
                "traces_query",
                "to read the slowest trace span by span",
                action="get",
                trace_id=m.group(0),
                format="tree",
            )
            spans = trace_tree(one.text)
            _path, slow = bottleneck(spans)
            attrs = dict(re.findall(r"db\.pool\.(\w+)[=:]\s*(\d+)", one.text))
            if slow is not None and spans:
                pool = (
                    f" with the pool at {attrs['active']} active of {attrs['max']} max"
                    if "active" in attrs and "max" in attrs
                    else ""
                )
                parts.append(
                    f"the slowest trace spends {slow.ms / 1000:.2f} s of its"
                    f" {spans[0].ms / 1000:.2f} s in {slow.operation}{pool}"
                )
                calls.append(one)
    if lat:
        parts.append(lat[0])
        calls.append(lat[1])
    if len(parts) > 1:
        r.why = said(
            "The database connection pool is exhausted, and the signals agree on it: "
            + "; ".join(parts[:-1])
            + f"; and {parts[-1]}",
            *calls,
        )


async def latency(desk: Desk, w: Workload) -> tuple[str, Any] | None:
    """The p99 latency series now, against the normal series beside it (else its lowest)."""
    if not desk.has("metrics_query"):
        return None
    names = await desk.run("metrics_query", "to find the latency series", action="metric_names")
    found = re.findall(r'"([a-z0-9_:]*(?:latency|duration)[a-z0-9_:]*)"', names.text)
    for metric in [n for n in found if not n.startswith("normal")][:2]:
        got, call = await prom(
            desk, f'{metric}{{service="{w.name}"}}', f"to read {w.name}'s latency"
        )
        vals = [v for _, s in got for v in s]
        if not vals:
            continue
        base = min(vals)
        if f"normal_{metric}" in found:
            norm, _c = await prom(
                desk, f'normal_{metric}{{service="{w.name}"}}', "to read its normal latency"
            )
            base = next((v[-1] for _, v in norm if v), base)
        unit = "ms" if "ms" in metric or vals[-1] > 50 else "s"
        scale = 1000 if unit == "ms" else 1
        return (
            f"p99 latency reads {vals[-1] / scale:.2f} s against a normal {base / scale:.2f} s",
            call,
        )
    return None


async def _chain(desk: Desk, w: Workload, r: Reply) -> None:
    ep = await desk.k(
        f"get endpoints -n {w.ns}", "to see whether the service in front has backends"
    )
    row = next((x for x in table(ep.text) if x.get("name") == w.name), {})
    side = await desk.run(
        "logs_query",
        "to read the mesh sidecar's view of the backend",
        namespace=w.ns,
        filter="upstream",
        tail=20,
    )
    hop = signal_patterns(log_lines(side.text))
    r.more.append(
        (
            "How does that reach the users?",
            said(
                f"The ingress sends to Service {w.name}, which has {'no' if row.get('endpoints', '<none>') == '<none>' else row.get('endpoints')} endpoints because no"
                f" pod of {w.name} gets past its init container; the mesh sidecar therefore logs"
                f' "{hop[0][1] if hop else "upstream connect error"}" and the ingress answers 503',
                ep,
                side,
            ),
        )
    )


#: what the owner should do per cause, when the request did not ask me to change anything
