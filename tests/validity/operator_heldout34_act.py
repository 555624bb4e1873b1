"""The held-out operator of session 29 (``heldout34``): following a symptom and fixing it.

The request path from an ingress to its backend, the signals beside a cause (latency,
traces, a node's CPU the requester suspects), a deploy that lines up with the errors, a
health check, a rollout to continue, and the narrow fixes it makes when allowed.
"""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout34_change import verify_rollout
from .operator_heldout34_diag import Finding
from .operator_heldout34_look import (
    View,
    Workload,
    app_metrics,
    metric_names,
)
from .operator_heldout34_ops import Call, Ops, cite
from .operator_heldout34_page import percent, seconds, share, size_q


async def chain(ops: Ops, view: View) -> tuple[list[str], list[str]]:
    """From an ingress to the workload behind it: (subject, the hops said)."""
    ing = await ops.k(
        f"get ingress -n {ops.ns} -o yaml", "find which Service the public entry point routes to"
    )
    backends = re.findall(r"name:\s*([a-z0-9-]+)\n\s*port:", ing.text)
    if not backends:
        return [], []
    svc = backends[0]
    hops = [f"The ingress sends traffic to the Service {svc} {cite(ing)}."]
    eps = await ops.k(
        f"get endpoints {svc} -n {ops.ns}", f"see whether {svc} has any ready pods behind it"
    )
    rows = rd.table(eps.text)
    if rows and rows[0].get("endpoints", "") in ("", "<none>"):
        hops.append(
            f"{svc} has no ready endpoints {cite(eps)}, which is why the ingress answers 503."
        )
    mesh = None
    if ops.has("logs_query"):
        mesh = await ops.call(
            "logs_query",
            "see what the proxies in front of the backend report",
            ops.request,
            query=f'{{namespace="{ops.ns}"}} |= "upstream"',
            tail=20,
        )
        up = [ln.message for ln in rd.log_lines(mesh.text) if "upstream" in ln.raw.lower()]
        if up:
            hops.append(
                f'The mesh sidecar logs "{up[0][:110]}" {cite(mesh)}: nothing is listening upstream.'
            )
    names = [d.get("name", "") for d in view.deployments]
    subject = (
        [svc] if svc in names else [n for n in names if svc.startswith(n) or n.startswith(svc)][:1]
    )
    if subject:
        hops.append(f"The pods behind it belong to {subject[0]} {cite(view.pods_call)}.")
    return subject, hops


async def side_signals(ops: Ops, wl: Workload, found: Finding) -> str:
    """Other sources that back (or clear) the cause: app metrics, a trace, the suspected signal."""
    out = ""
    _names_call, names = await metric_names(ops, f"the finding on {wl.name}")
    series = await app_metrics(ops, names, wl.name, f"the finding on {wl.name}") if names else []
    for metric, _labels, values, call in series:
        if metric.startswith("normal_"):
            continue
        base = next((v for m, _lb, v, _c in series if m == f"normal_{metric}"), None)
        now = values[-1]
        if "latency" in metric:
            out += (
                f" Its {metric} is about {seconds(now)}"
                + (f", up from a normal {seconds(base[-1])}" if base else "")
                + f" {cite(call)}."
            )
        elif "error" in metric:
            out += (
                f" Its {metric} is about {percent(now)}, {share(now)} requests"
                + (f", against a normal {percent(base[-1])}" if base else "")
                + f" {cite(call)}."
            )
    if ops.has("traces_query") and found.kind in ("pool", "unclear"):
        search = await ops.call(
            "traces_query",
            f"find slow traces through {wl.name}",
            f"the finding on {wl.name}",
            action="search",
            service=wl.name,
            min_duration="1s",
        )
        ids = re.findall(r'"traceID":\s*"([0-9a-f]+)"', search.text)
        if ids:
            tree = await ops.call(
                "traces_query",
                "walk the slowest trace span by span",
                f"slow traces [{search.n}]",
                action="get",
                trace_id=ids[0],
            )
            path, slow = rd.bottleneck(rd.trace_tree(tree.text))
            if slow:
                out += (
                    f' A trace of a slow request spends {seconds(slow.ms)} of {seconds(path[0].ms)} in "{slow.operation}" '
                    f"({slow.attrs or 'no attributes'}) {cite(tree)}, which is where the requests wait."
                )
    if re.search(r"\bcpu\b", ops.prompt, re.I) and found.kind == "oom":
        out += await _cpu_aside(ops, wl)
    return out


async def _cpu_aside(ops: Ops, wl: Workload) -> str:
    top = await ops.k(
        f"top pods -n {ops.ns}",
        "see which pod is actually using the CPU you mentioned",
        "your question about node CPU",
    )
    nodes = await ops.k(
        "top nodes", "read the node CPU you mentioned", "your question about node CPU"
    )
    node_rows = rd.table(nodes.text)
    pod_rows = sorted(
        rd.table(top.text), key=lambda r: -(rd.quantity(r.get("cpu(cores)", "0")) or 0)
    )
    hot = pod_rows[0].get("name", "another pod") if pod_rows else "another pod"
    peak = (
        max(node_rows, key=lambda r: int(re.sub(r"\D", "", r.get("cpu%", "0")) or 0))
        if node_rows
        else {}
    )
    return (
        f" About the node CPU: yes, {peak.get('name', 'the node')} is at {peak.get('cpu%', 'a high')} CPU {cite(nodes)}, "
        f"but that comes from {hot} {cite(top)}, not from {wl.name}. Busy CPU makes a pod slow (throttled); it "
        f"doesn't kill it. {wl.name}'s restarts are OOM kills, so the CPU is a red herring here."
    )


async def apply_fix(ops: Ops, view: View, wl: Workload, found: Finding) -> str:
    ns = ops.ns
    if found.kind == "transient":
        return await _replace_pods(ops, wl, found)
    if found.kind == "unready":
        write = await ops.k(
            f"rollout restart deployment/{wl.name} -n {ns}",
            f"rolling restart of {wl.name} to replace the pods failing readiness",
            "the failing readiness probes",
        )
        return await _verify(ops, wl, write, f"Ran a rolling restart of {wl.name}")
    if found.kind == "oom":
        limit = found.data.get("limit", "")
        m = re.fullmatch(r"(\d+)(Mi|Gi)", limit)
        if not m:
            return _escalate(ops, wl, found)
        new = f"{int(m.group(1)) * 2}{m.group(2)}"
        patch = {
            "spec": {
                "template": {
                    "spec": {
                        "containers": [
                            {
                                "name": found.data["container"],
                                "resources": {"limits": {"memory": new}},
                            }
                        ]
                    }
                }
            }
        }
        write = await ops.k(
            f"patch deployment {wl.name} -n {ns} --type strategic -p '{json.dumps(patch)}'",
            f"raise {wl.name}'s memory limit from {limit} to {new}",
            "the OOM kills",
        )
        return await _verify(
            ops, wl, write, f"Raised the memory limit from {size_q(limit)} to {size_q(new)}"
        )
    if found.kind == "pending_cpu":
        return await _lower_cpu(ops, wl)
    return _escalate(ops, wl, found)


def _escalate(ops: Ops, wl: Workload, found: Finding) -> str:
    ops.say(
        "Escalated",
        f"I didn't change anything: the fix needs the owners of {wl.name}. Recommendation: {found.fix}.",
    )
    return f"Update: {wl.name} escalated"


async def _replace_pods(ops: Ops, wl: Workload, found: Finding) -> str:
    calls: list[Call] = []
    for pod in wl.pods:
        if pod.owner:
            calls.append(
                await ops.k(
                    f"delete pod {pod.name} -n {ops.ns}",
                    f"restart the crash-looping pod {pod.name} so it reconnects; its {pod.owner} makes a new one",
                    "the transient failure in its log",
                )
            )
            continue
        got = await ops.k(
            f"get pod {pod.name} -n {ops.ns} -o yaml",
            f"{pod.name} has no controller, so keep its manifest to recreate it",
            "the transient failure in its log",
        )
        doc = (rd.items(got.text) or [{}])[0]
        meta = doc.get("metadata", {})
        body = {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {
                k: meta[k] for k in ("name", "namespace", "labels", "annotations") if meta.get(k)
            },
            "spec": {k: v for k, v in doc.get("spec", {}).items() if k not in ("nodeName",)},
        }
        calls.append(got)
        gone = await ops.k(
            f"delete pod {pod.name} -n {ops.ns}",
            f"restart the crash-looping pod {pod.name}: delete it, then recreate it from its saved manifest",
            "the transient failure in its log",
        )
        calls.append(gone)
        if gone.failed:
            continue
        calls.append(
            await ops.k(
                f"create -f - -n {ops.ns}",
                f"recreate {pod.name} from the manifest saved in [{got.n}] (it has no controller to do it)",
                f"my delete [{gone.n}]",
                stdin=json.dumps(body, sort_keys=True),
            )
        )
    check = await ops.k(
        f"get pods -n {ops.ns}", f"confirm {wl.name}'s replacement pod is up", "my restart"
    )
    logs = await ops.call(
        "logs_query",
        f"confirm the new {wl.name} pod connected",
        "my restart",
        namespace=ops.ns,
        pod=wl.pods[0].name if wl.pods else wl.name,
        tail=20,
    )
    rows = [r for r in rd.table(check.text) if r.get("name", "").startswith(wl.name)]
    state = rows[0].get("status", "?") if rows else "not listed yet"
    age = rows[0].get("age", "") if rows else ""
    broke = [c for c in calls if c.failed]
    if broke:
        ops.say(
            "Escalated",
            f"The restart didn't go through: {broke[0].command().split(' -')[0]} failed {cite(*broke)}, and "
            f"{wl.name} is {state} {cite(check)}. I stopped there; the pod is as it was. Its owners should "
            f"restart it, or look at the dependency in its log ({found.data.get('line', '')}).",
        )
        return f"Update: {wl.name} restart failed, escalated"
    ok = state == "Running"
    ops.say(
        "Resolved" if ok else "Monitoring",
        f"Restarted {wl.name} (pod deleted and recreated) {cite(*calls)}; the new pod is {age or 'fresh'} old and {state} {cite(check)}"
        + (f" and its log shows no new error {cite(logs)}" if logs.n and ok else "")
        + (
            ". The error looked transient, so this didn't need an escalation."
            if ok
            else f". It hasn't settled yet. If it keeps crashing after the back-off, the failure isn't transient and the owners of the dependency in its log ({found.data.get('line', '')}) need to look."
        ),
    )
    return f"Update: {wl.name} restarted"


async def _verify(ops: Ops, wl: Workload, write: Call, change: str) -> str:
    ok, status = await verify_rollout(ops, wl.name, f"my change [{write.n}]")
    pods = await ops.k(
        f"get pods -n {ops.ns} -l app={wl.name}",
        f"confirm {wl.name}'s new pods are Running and Ready",
        f"my change [{write.n}]",
    )
    if ok and not write.failed:
        ops.say(
            "Monitoring",
            f"{change}{'' if '[' in change else ' ' + cite(write)}. The rollout finished and the new pods are Ready {cite(status, pods)}; I'm watching for another restart.",
        )
        return f"Update: {wl.name} fixed, monitoring"
    undo = await ops.k(
        f"rollout undo deployment/{wl.name} -n {ops.ns}",
        "the change didn't roll out cleanly, so put the previous version back",
        f"the failed rollout [{status.n}]",
    )
    ops.say(
        "Escalated",
        f"The change ({change}) {cite(write)} didn't roll out cleanly {cite(status)}, so I rolled it back {cite(undo)}. Handing over to the owners.",
    )
    return f"Update: {wl.name} change rolled back"


async def _lower_cpu(ops: Ops, wl: Workload) -> str:
    nodes = await ops.k(
        "describe nodes", "see how much CPU each node can give", "the FailedScheduling event"
    )
    alloc = [
        rd.quantity(a) or 0.0 for a in re.findall(r"Allocatable:\s*\n\s*cpu:\s*(\S+)", nodes.text)
    ]
    cname = (wl.containers() or [{}])[0].get("name", wl.name)
    old = ""
    for c in wl.containers():
        old = str(((c.get("resources") or {}).get("requests") or {}).get("cpu", ""))
    biggest = max(alloc) if alloc else 1.0
    new_m = int(biggest * 1000 * 0.8) // 50 * 50
    ops.say(
        "Identified",
        f"Each {wl.name} pod asks for {old} of CPU {cite(wl.spec_call)}, but the biggest node can only hand out "
        f"{biggest * 1000:.0f}m in total {cite(nodes)}, so no node can ever take it. Other teams' pods hold part of "
        "every node too (I can't list them), so I'll bring the request under the node size and step down if it still won't fit.",
    )
    steps: list[tuple[str, str, Call]] = []
    current = old
    for _attempt in range(3):
        patch = {
            "spec": {
                "template": {
                    "spec": {
                        "containers": [
                            {"name": cname, "resources": {"requests": {"cpu": f"{new_m}m"}}}
                        ]
                    }
                }
            }
        }
        write = await ops.k(
            f"patch deployment {wl.name} -n {ops.ns} --type strategic -p '{json.dumps(patch)}'",
            f"set the CPU request from {current} to {new_m}m"
            + ("" if not steps else ", since the pod was still Pending at the last size"),
            f"the FailedScheduling event and the node size [{nodes.n}]"
            if not steps
            else f"the pod still Pending after [{steps[-1][2].n}]",
        )
        steps.append((current, f"{new_m}m", write))
        current = f"{new_m}m"
        pods = await ops.k(
            f"get pods -n {ops.ns} -l app={wl.name}",
            f"see whether {wl.name}'s new pod got scheduled",
            f"my change [{write.n}]",
        )
        if not any(r.get("status") == "Pending" for r in rd.table(pods.text)):
            break
        new_m = max(50, new_m // 2 // 50 * 50)
    said = "; then ".join(f"from {a} to {b} {cite(c)}" for a, b, c in steps)
    return await _verify(ops, wl, steps[-1][2], f"Lowered the CPU request {said}")


__all__ = ["apply_fix", "chain", "side_signals"]
