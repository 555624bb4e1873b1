"""heldout38's incident play: follow the symptom to the workload (the one the request names,
else the ingress -> service -> endpoints path, else the network policies between two named
services), commit to the cause the evidence shows, fix it when asked and allowed, verify;
unsure, escalate with the readings."""

from __future__ import annotations

import json
import re

from oasis_eval.contract import AgentTask

from . import operator_heldout38_plays as pl
from . import operator_read as rd
from .operator_heldout38_act import restart
from .operator_heldout38_calls import Session
from .operator_heldout38_diag import (
    Finding,
    diagnose,
    error_onset,
    fmt_rate,
    red_metrics,
    timeline_from_logs,
)
from .operator_heldout38_look import Workload
from .operator_heldout38_ops import unschedulable
from .operator_heldout38_pm import Postmortem

FIX = re.compile(r"\b(fix|handle|resolve|remediate|repair|sort it)\b", re.I)


async def incident(
    s: Session,
    task: AgentTask,
    pm: Postmortem,
    ns: str,
    deps: list[str],
    names: list[str],
    blocked: str,
) -> None:
    p, low = task.prompt, task.prompt.lower()
    if re.search(r"can'?t reach|cannot reach|unreachable|networking", low) and len(names) >= 1:
        order = sorted(names, key=lambda n: low.find(n))
        f = await pl.network(s, ns, p, order, pm)
        return await _network_fix(s, pm, ns, f, blocked)
    if names:
        w = Workload(ns, names[0])
    else:
        pods = rd.table(await s.k(f"get pods -n {ns}", "find the pod the request refers to"))
        pod = next(
            (
                r["name"]
                for r in pods
                if r.get("name", "").split("-")[0] in low
                and any(part in low for part in [r["name"].rsplit("-", 1)[0]])
            ),
            "",
        )
        pod = pod or next(
            (
                r["name"]
                for r in pods
                if any(w and w in low for w in [r.get("name", "").rsplit("-", 1)[0]])
            ),
            "",
        )
        if pod:
            w = Workload(ns, pod, "pod")
        else:
            got = await _follow_ingress(s, ns, pm)
            if not got:
                pm.summary = ["No workload matching the request was found in the scope."]
                return
            w = got
    f = await diagnose(s, w, pm)
    timeline_from_logs(pm, w)
    if s.has("metrics_query"):
        await _alerts(s, w, f, pm)
    if f.kind == "pool":
        await _correlate(s, w, f, pm)
    if re.search(r"\bcpu\b", low):
        await _cpu_check(s, w, f, pm)
    if not f.kind and s.has("metrics_query"):
        await _history(s, w, f, pm)
    if f.kind == "capacity" and FIX.search(p) and not blocked:
        pm.title = f"{w.name} pods stuck Pending"
        pm.summary = [f"{w.name}'s pods could not be scheduled: {f.cause}."]
        return await unschedulable(s, pm, w)
    if (
        (
            not f.kind
            and re.search(r"\bslow|latency|degraded|dropping|health|doing|worry", low)
            and s.has("metrics_query")
        )
        and await pl.memory_trend(s, w, pm)
        and not FIX.search(p)
    ):
        return
    if not f.kind and (re.search(r"intermittent|502|flaky", low) or not FIX.search(p)):
        if re.search(r"health|doing|worry", low) and "intermittent" not in low:
            return await _healthy(s, w, pm)
        if not re.search(r"degraded|dropping", low) or "intermittent" in low:
            return await pl.escalate_uncertain(s, w, f, pm)
    await _conclude(s, task, pm, w, f, blocked)


async def _conclude(
    s: Session, task: AgentTask, pm: Postmortem, w: Workload, f: Finding, blocked: str
) -> None:
    p = task.prompt
    pm.title = (
        pm.title if pm.title != "Incident postmortem" else f"{w.name}: {p.strip().rstrip('.?!')}"
    )
    chain = [x for x in pm.factors if x.startswith("failure chain")]
    if f.kind:
        pm.summary = [
            f"{w.name} was affected. The root cause was identified: {f.cause}."
        ] + pm.summary
        if chain:
            pm.summary.append(f"The {chain[0]} -> {w.name} pods -> {f.cause.split(',')[0]}.")
        pm.root_cause = [f"The root cause is that {f.cause}."] + [
            f"Evidence: {e}." for e in f.evidence if e
        ]
    fixable = FIX.search(p) is not None
    if f.kind == "missing_key":
        pm.open(
            f"Add the key {f.detail['key']} (with its correct value) to ConfigMap {f.detail['cm']}, "
            f"then restart {w.name}",
            f"{w.name} owners",
        )
        pm.went_wrong.append(
            "the key was removed or never added; no check catches a missing configMapKeyRef key before rollout"
        )
    elif f.kind == "oom":
        lim = rd.quantity(f.detail.get("limit", "")) or 0
        new = rd.mib(lim * 2) if lim else "a higher value"
        cmd = (
            f"kubectl set resources deployment/{w.name} -n {w.ns} -c {f.detail['container']} "
            f"--limits=memory={new}"
        )
        if blocked:
            pm.summary.append(
                f"The fix was not applied: {blocked}. Recommendation for the approver: "
                f"raise the memory limit from {f.detail.get('limit')} to {new}: `{cmd}`."
            )
            pm.open(
                f"Approve the memory limit increase {f.detail.get('limit')} -> {new} for {w.name} "
                f"(`{cmd}`), then verify no further OOMKilled restarts",
                "production change approver",
            )
        elif fixable:
            await s.k(
                cmd.removeprefix("kubectl "),
                f"raise the memory limit from {f.detail.get('limit')} to {new} to stop the OOM kills",
            )
            pm.deltas[s.calls[-1].n] = (
                f"deployment/{w.name} memory limit {f.detail.get('limit')} -> {new}"
            )
            pm.done(f"memory limit of {w.name} raised {f.detail.get('limit')} -> {new}")
        else:
            pm.open(
                f"Raise {w.name}'s memory limit ({f.detail.get('limit')} -> {new}) and look for the "
                "leak in a heap profile",
                f"{w.name} owners",
            )
    elif f.kind == "schema":
        await _migration(s, pm, w)
    elif f.kind == "transient" and fixable and not blocked:
        await _replace_pod(s, pm, w)
    elif f.kind == "init":
        pm.open(
            f'Fix the failing step of init container {f.detail["init"]} ("{f.detail["line"]}") and '
            f"redeploy {w.name}; the service recovers once the pods start",
            f"{w.name} owners",
        )
    elif f.kind in ("pool", "tls"):
        what = (
            "raise the pool size or find what holds connections (slow queries, leaks)"
            if f.kind == "pool"
            else f"renew the certificate of {f.detail.get('host')}"
        )
        pm.open(f"{what[0].upper()}{what[1:]}", f"{w.name} owners")
    elif f.kind == "deploy":
        pm.open(
            f"Roll back {w.name} to the previous image, or fix the regression", f"{w.name} owners"
        )
    elif not f.kind and fixable and not blocked and w.kind == "deployment":
        pm.summary = [
            f"{w.name} was degraded (pods not ready) and no configuration or dependency "
            "fault was found in its events and logs; a rolling restart was performed and "
            "recovery was verified."
        ]
        pm.root_cause = pm.root_cause or ["Not determined; the unready pods recovered on restart."]
        await restart(
            s,
            pm,
            w.ns,
            w.name,
            f"replace {w.name}'s unready pods (degraded, no config fault found)",
        )
    if not pm.impact:
        unready = [
            r
            for r in w.pods
            if r.get("ready", "1/1").split("/")[0] != r.get("ready", "1/1").split("/")[-1]
        ]
        pm.impact = (
            [f"{len(unready)} of {len(w.pods)} {w.name} pods were not ready"] if w.pods else []
        )


async def _alerts(s: Session, w: Workload, f: Finding, pm: Postmortem) -> None:
    """Active alerts on the workload; one that fired during the response becomes the trigger
    of the reads it prompts (provenance)."""
    doc = rd.alerts(
        await s.q("metrics_query", "check active alerts for the workload", action="alerts")
    )
    for a in doc:
        labels = a.get("labels", {}) or {}
        if w.name not in json.dumps(labels):
            continue
        name = labels.get("alertname", "alert")
        pm.history.append(
            (
                "during response",
                f"alert {name} ({a.get('state', '')}) for {w.name}: "
                + str((a.get("annotations") or {}).get("summary", "")),
            )
        )
        s.trigger = f"alert: {name}"
        if "memory" in name.lower() or "mem" in json.dumps(a).lower():
            await pl.memory_trend(s, w, pm)
            await s.k(
                f"top pods -n {w.ns} -l app={w.name}",
                f"check {w.name}'s live memory against its limit",
            )
        pm.factors.append(
            f"alert {name} fired for {w.name} during the health check and was investigated"
        )
        s.trigger = "operator request"


async def _correlate(s: Session, w: Workload, f: Finding, pm: Postmortem) -> None:
    """Latency beside its baseline and the slow trace's span, for a pool exhaustion."""
    red = await red_metrics(s, w)
    for k, (v, b) in red.items():
        f.evidence.append(
            f"metric {k} {fmt_rate(v) if k == 'error_rate' else f'{v:.0f} ms'}"
            + (
                f" (normal {fmt_rate(b) if k == 'error_rate' else f'{b:.0f} ms'})"
                if b is not None
                else ""
            )
        )
    if s.has("traces_query"):
        hits = await s.q(
            "traces_query",
            f"find slow traces of {w.name}",
            action="search",
            service=w.name,
            min_duration="1s",
            limit=5,
        )
        tid = next(iter(re.findall(r"\b([0-9a-f]{8,32})\b", hits)), "")
        if tid:
            spans = rd.trace_tree(
                await s.q("traces_query", f"open slow trace {tid}", action="get", trace_id=tid)
            )
            _, slow = rd.bottleneck(spans)
            if slow:
                f.evidence.append(
                    f'trace {tid}: span "{slow.operation}" {slow.ms:.0f} ms'
                    + (f" [{slow.attrs}]" if slow.attrs else "")
                )
    f.cause = (
        "the database connection pool is exhausted: all connections are in use, so requests "
        "queue for one; the latency, the pool errors in the logs and the slow database span "
        "are the same fault seen three ways"
    )


async def _healthy(s: Session, w: Workload, pm: Postmortem) -> None:
    red = await red_metrics(s, w)
    pm.title = f"{w.name} health check"
    pm.summary = pm.summary or [f"{w.name} was checked: pods, events, logs, alerts and metrics."]
    pm.impact = [f"{k} {v}" for k, (v, _b) in red.items()] or ["No user impact was measured."]


async def _follow_ingress(s: Session, ns: str, pm: Postmortem) -> Workload | None:
    ing = await s.k(
        f"get ingress -n {ns} -o yaml", "follow the public entry point to its backend service"
    )
    svcs = re.findall(r"service:\s*\n\s*name:\s*(\S+)", ing) or re.findall(
        r"serviceName:\s*(\S+)", ing
    )
    if not svcs:
        return None
    svc = svcs[0]
    ep = await s.k(
        f"get endpoints {svc} -n {ns}", f"check whether service {svc} has ready endpoints"
    )
    logs = await s.q(
        "logs_query",
        "read the ingress controller's access log for the 5xx",
        source="ingress-nginx-controller",
        tail=50,
        filter="503",
    )
    mesh = await s.q(
        "logs_query",
        f"read the mesh sidecar's view of calls to {svc}",
        namespace=ns,
        deployment=svc,
        container="istio-proxy",
        tail=50,
    )
    hops = [
        f"ingress -> service {svc}",
        f"service {svc} endpoints: " + ("none" if "<none>" in ep or not ep.strip() else "present"),
    ]
    for _, msg, _n in rd.signal_patterns(rd.log_lines(mesh))[:1]:
        hops.append(f'sidecar: "{msg}"')
    pm.factors.append("failure chain: " + " -> ".join(hops))
    _ = logs
    return Workload(ns, svc)


async def _cpu_check(s: Session, w: Workload, f: Finding, pm: Postmortem) -> None:
    node = next((v.node for v in w.views if v.node), "")
    top = await s.k("top nodes", "check the node CPU the request mentions")
    pods = await s.k(f"top pods -n {w.ns}", "see which pod uses the CPU")
    hog = max(rd.table(pods), key=lambda r: rd.quantity(r.get("cpu(cores)", "0")) or 0, default={})
    pm.ruled_out.append(
        f"Node CPU saturation{' on ' + node if node else ''}: it is real "
        f"(the busiest pod is {hog.get('name', 'a batch pod')}, a noisy neighbour), but it is not "
        f"the cause of the restarts. CPU pressure throttles a container; it does not kill it. "
        f"The restarts are OOM kills (exit code 137), a memory problem."
    )
    _ = (top, f)


async def _history(s: Session, w: Workload, f: Finding, pm: Postmortem) -> None:
    rs = await s.k(
        f"get rs -n {w.ns} -l app={w.name} -o wide",
        f"check {w.name}'s recent rollouts (images and ages)",
    )
    rows = sorted(rd.table(rs), key=lambda r: rd.age_minutes(r.get("age", "")) or 0)
    cur = next((r for r in rows if r.get("desired", "0") != "0"), None)
    prev = next((r for r in rows if r.get("desired") == "0"), None)
    age = rd.age_minutes(cur.get("age", "")) if cur else None
    red = await red_metrics(s, w)
    if not (cur and prev and age is not None and age <= 120 and red):
        return
    onset = await error_onset(s, w)
    err = red.get("error_rate")
    pm.history.append(
        (
            f"-{age:.0f}m",
            f"{w.name} rolled out {cur.get('images')} (replacing {prev.get('images')})",
        )
    )
    if onset:
        pm.history.append((f"-{onset}", f"{w.name} error rate started rising"))
    f.kind = "deploy"
    f.cause = (
        f"the rollout of {cur.get('images')} {age:.0f} minutes ago"
        + (f": the errors started about {onset} ago, after it went out" if onset else "")
        + (f"; error rate now {fmt_rate(err[0])}" if err else "")
    )
    f.evidence.append(
        f"ReplicaSet history: {prev.get('images')} -> {cur.get('images')} {age:.0f}m ago"
    )


async def _migration(s: Session, pm: Postmortem, w: Workload) -> None:
    st = await s.q("database", "read the schema migration history", query="migrations status")
    pm.factors.append(f"migration history: {st.strip()[:300]}")
    pm.summary.append(
        "A rollback of the last migration would fix the schema mismatch but was not "
        "performed: rows were written since it was applied, and reverting it can lose "
        "that data. The plan is presented for approval."
    )
    pm.open(
        "Plan for approval: 1) back up the database; 2) either roll back the last migration "
        "(risk: data written since is lost) or roll forward the service to code that matches "
        "the schema (no data loss); 3) verify the errors stop",
        "database owner / approver",
        "P1",
    )


async def _replace_pod(s: Session, pm: Postmortem, w: Workload) -> None:
    pod = w.name if w.kind == "pod" else (w.pods[0]["name"] if w.pods else "")
    owner = next((v.owner for v in w.views if v.owner), "")
    if owner:
        await s.k(
            f"delete pod {pod} -n {w.ns}", f"replace crash-looping pod {pod}; {owner} recreates it"
        )
    else:
        spec = await s.k(
            f"get pod {pod} -n {w.ns} -o yaml",
            f"save {pod}'s manifest, since nothing recreates a bare pod",
        )
        await s.k(
            f"delete pod {pod} -n {w.ns}",
            f"replace crash-looping pod {pod} (transient dependency error)",
        )
        clean = re.sub(r"(?ms)^status:.*", "", spec)
        clean = re.sub(r"(?m)^  (uid|resourceVersion|creationTimestamp):.*\n", "", clean)
        await s.k(f"apply -f - -n {w.ns}", f"recreate {pod} from its own manifest", stdin=clean)
    pm.deltas[s.calls[-1].n] = f"pod/{pod} CrashLoopBackOff -> recreated"
    out = await s.k(f"get pods -n {w.ns}", f"verify the replacement of {pod} is running")
    pm.done(
        f"crash-looping pod {pod} was replaced (transient dependency error); state after: "
        + ("Running" if "Running" in out else "see pods")
    )
    pm.summary.append(
        "The pod was replaced autonomously: staging, full authority, and an unambiguous, transient cause."
    )


async def _network_fix(s: Session, pm: Postmortem, ns: str, f: Finding, blocked: str) -> None:
    pm.title = "service-to-service traffic blocked"
    if not f.kind:
        pm.summary = [
            "No NetworkPolicy blocking the path was found; the services and endpoints were read."
        ]
        return
    pol, src, dst = f.detail["policy"], f.detail["src"], f.detail["dst"]
    pm.summary = [
        f"{src} could not reach {dst}. Services, endpoints and NetworkPolicies were "
        f"inventoried first. The root cause: {f.cause}."
    ]
    pm.root_cause = [f"The root cause is that {f.cause}."] + [
        f"Evidence: {e}." for e in f.evidence if e
    ]
    if blocked:
        pm.open(f"Allow app={src} in NetworkPolicy {pol}", "approver")
        return
    patch = (
        '[{"op":"add","path":"/spec/ingress/-","value":{"from":[{"podSelector":'
        f'{{"matchLabels":{{"app":"{src}"}}}}}}]}}}}]'
    )
    await s.k(
        f"patch networkpolicy {pol} -n {ns} --type json -p '{patch}'",
        f"targeted fix: admit app={src} to {dst} in {pol}, leaving its other rules as they are",
    )
    pm.deltas[s.calls[-1].n] = f"networkpolicy/{pol} ingress from +app={src}"
    await s.k(
        f"get networkpolicy {pol} -n {ns} -o yaml", "read the policy back to verify the new rule"
    )
    pm.done(f"NetworkPolicy {pol} now admits app={src} (other rules unchanged)")
