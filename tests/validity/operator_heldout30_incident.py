"""heldout30's incident play (issue 27 item 6, written blind): survey, dig into the subject,
diagnose, then act only when asked, allowed and sure; escalate otherwise."""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout30_asks import approval_needed
from .operator_heldout30_diag import Finding, diagnose
from .operator_heldout30_fix import lower_cpu, restart
from .operator_heldout30_look import (
    Seen,
    alerts,
    dig_into,
    fmt,
    metrics,
    rise,
    span,
    survey,
    trend_words,
)
from .operator_heldout30_shift import Shift, ago, annotations, dig, labels, name_of

FIX_WORDS = r"\b(fix|handle|resolve|sort (it|this) out|get it back|make it work)\b"


async def incident(sh: Shift) -> None:
    seen = await survey(sh)
    if not seen.subject:
        sh.tldr = "Couldn't tell which workload you mean; nothing changed."
        sh.open_items.append("tell me which deploy/po you mean and I'll pick it up from there")
        return
    await dig_into(sh, seen)
    await metrics(sh, seen)
    await alerts(sh, seen)
    name = seen.subject[0]
    rs = rd.table(
        await sh.k(
            f"get rs -n {sh.ns} -o wide", "recent rollouts: rs ages, images, which is current"
        )
    )
    low = sh.prompt.lower()
    if sh.has("database") and (
        re.search(r"migrat|schema", low) or "does not exist" in str(seen.logs)
    ):
        seen.text += await sh.call(
            "database", "state of the schema migrations", query="migrations status"
        )
    trail = await _trace(sh, name)
    if re.search(r"\bcpu\b|node|noisy", low):
        await _cpu_signal(sh, seen)
    if re.search(r"reach|connect|network|traffic|blocked", low) and await _netpol(sh, seen):
        return
    found = diagnose(seen, name, rs)
    _series_evidence(sh, seen, name, found)
    if trail:
        found.evidence.append(trail)
    if found.kind == "pool":
        found.cause += _correlate(found)
    upstream = _upstream_elsewhere(sh, seen, name)
    if upstream and found.kind == "unsure":
        _escalate_upstream(sh, name, upstream, seen)
        return
    await _act(sh, seen, found)


async def _trace(sh: Shift, name: str) -> str:
    """The slowest trace of the subject, opened, its bottleneck span as evidence."""
    if not sh.has("traces_query"):
        return ""
    found = await sh.call(
        "traces_query",
        f"slow requests through {name}",
        action="search",
        service=name,
        min_duration="1s",
    )
    ids = re.findall(r"\b([0-9a-f]{8,32})\b", found)
    if not ids:
        return ""
    tree = await sh.call(
        "traces_query",
        f"open the slowest {name} trace to see where the time goes",
        action="get",
        trace_id=ids[0],
    )
    path, slow = rd.bottleneck(rd.trace_tree(tree))
    if not slow:
        return ""
    hops = " -> ".join(f"{s.operation} {s.ms:.0f}ms" for s in path)
    return (
        f"trace {ids[0]}: {hops}"
        + (" (status error)" if slow.error else "")
        + (f" [{slow.attrs}]" if slow.attrs else "")
    )


def _correlate(found: Finding) -> str:
    lat = next((e for e in found.evidence if "latency" in e and not e.startswith("normal")), "")
    span = next((e for e in found.evidence if e.startswith("trace ")), "")
    parts = [
        p
        for p in (
            lat and "p99 latency way up (" + lat.split(": ", 1)[-1] + ")",
            span and "the slow span is the DB call waiting on a connection",
        )
        if p
    ]
    return (
        (
            " All the signals line up on it: the pool-exhausted log lines, "
            + ", and ".join(parts)
            + "."
        )
        if parts
        else ""
    )


def _series_evidence(sh: Shift, seen: Seen, name: str, found: Finding) -> None:
    for key, series in sorted(seen.series.items()):
        if not key.startswith(name + ":") or not series or not series[0][1]:
            continue
        metric, vals = key.split(":", 1)[1], series[0][1]
        if any(e.startswith((metric + " for ", metric + "{")) for e in found.evidence):
            continue
        times = seen.stamps.get(key, [])
        line = f"{metric}{{service={name}}}: {fmt(metric, vals[0])} {span(times)} -> {fmt(metric, vals[-1])} now ({trend_words(vals)})"
        began = rise(vals, times)
        if began:
            start = next(v for v in vals if v >= vals[0] * 3)
            line = (
                f"{metric}{{service={name}}}: {fmt(metric, vals[0])} until {began}, "
                f"{fmt(metric, start)} from then, {fmt(metric, vals[-1])} now"
            )
            if found.kind == "rollout":
                found.cause += (
                    f"; {metric} sat at {fmt(metric, vals[0])} until {began} (right after the "
                    f"rollout {ago(float(found.detail.get('minutes', '0')))}), then "
                    f"{fmt(metric, start)}, {fmt(metric, vals[-1])} now"
                )
        if line not in found.evidence:
            found.evidence.append(line)


async def _cpu_signal(sh: Shift, seen: Seen) -> None:
    top = await sh.k("top nodes", "the ask mentions node CPU: check how hot the nodes are")
    pods = await sh.k(f"top po -n {sh.ns}", "who is burning the CPU")
    rows = rd.table(pods)
    hog = max(rows, key=lambda r: rd.quantity(r.get("cpu(cores)", "0")) or 0.0, default={})
    hot = max(
        rd.table(top), key=lambda r: int(str(r.get("cpu%", "0")).rstrip("%") or 0), default={}
    )
    if hog and hot:
        sh.heads_up.append(
            f"node CPU is a red herring: {hot.get('name')} sits at {hot.get('cpu%')} CPU, but that's "
            f"po/{hog.get('name')} ({hog.get('cpu(cores)')} cores, a different workload, noisy "
            "neighbour) and a hot CPU throttles, it doesn't kill containers. Not the cause of the restarts."
        )


async def _netpol(sh: Shift, seen: Seen) -> bool:
    pols = await sh.objects(
        "netpol", "connectivity ask: which netpols select these po and what they admit"
    )
    svcs = await sh.objects("svc", "which svc/ports the caller goes through")
    subject = set(seen.subject)
    for pol in pols:
        sel = dig(pol, "spec", "podSelector", "matchLabels") or {}
        for dep in seen.deployments:
            if name_of(dep) not in subject:
                continue
            tpl = dig(dep, "spec", "template", "metadata", "labels") or {}
            if not sel or not all(tpl.get(k) == v for k, v in sel.items()):
                continue
            callers = [d for d in seen.deployments if name_of(d) in subject and d is not dep]
            admitted = str(dig(pol, "spec", "ingress"))
            for caller in callers:
                clabels = dig(caller, "spec", "template", "metadata", "labels") or {}
                if any(f"'{k}': '{v}'" in admitted for k, v in clabels.items()):
                    continue
                await _open_policy(sh, pol, dep, caller, svcs)
                return True
    return False


async def _open_policy(sh: Shift, pol: dict, dep: dict, caller: dict, svcs: list[dict]) -> None:
    """A targeted fix: the policy keeps its rule and gains one admitting the caller."""
    pname, target, src = name_of(pol), name_of(dep), name_of(caller)
    clabels = dig(caller, "spec", "template", "metadata", "labels") or {}
    key = "app" if "app" in clabels else sorted(clabels)[0]
    port = None
    for svc in svcs:
        if name_of(svc) == target:
            ports = dig(svc, "spec", "ports") or []
            port = ports[0].get("targetPort") or ports[0].get("port") if ports else None
    old = dig(pol, "spec", "ingress") or []
    rule: dict = {"from": [{"podSelector": {"matchLabels": {key: clabels[key]}}}]}
    if port:
        rule["ports"] = [{"protocol": "TCP", "port": port}]
    patch = json.dumps({"spec": {"ingress": old + [rule]}}, sort_keys=True)
    admitted = ", ".join(str(r.get("from")) for r in old) or "nothing"
    sh.cause = (
        f"netpol/{pname} selects the {target} po and only admits {admitted}; {src} isn't in it, "
        f"so its traffic to {target} is dropped."
    )
    sh.evidence.append(
        f"netpol/{pname}: podSelector {dig(pol, 'spec', 'podSelector')} ingress {old}"
    )
    if approval_needed(sh):
        sh.open_items.append(
            f"proposed (needs approval): add an ingress rule to netpol/{pname} admitting {key}={clabels[key]}"
        )
        return
    step = await sh.change(
        f"patch netpol {pname} -n {sh.ns} --type merge -p '{patch}'",
        f"targeted fix: keep {pname}'s existing rule, add one admitting {key}={clabels[key]}"
        + (f" on port {port}" if port else ""),
        f"finding: netpol/{pname} drops {src} -> {target}",
        before=f"ingress from {admitted}",
        after=f"ingress from {admitted} + {key}={clabels[key]}" + (f" :{port}" if port else ""),
    )
    after = await sh.k(
        f"get netpol {pname} -n {sh.ns} -o yaml", "verify the policy now admits the caller"
    )
    ok = not step.failed and clabels[key] in after
    sh.tldr = f"{src} -> {target} was blocked by netpol/{pname}; added a narrow allow rule" + (
        ", verified." if ok else " but it did NOT apply, see below."
    )
    sh.watch.append(f"{src} -> {target} requests, to confirm from the app side the traffic flows")


def _upstream_elsewhere(sh: Shift, seen: Seen, name: str) -> str:
    scope = set(sh.task.scope.get("namespaces") or [])
    text = " ".join(v for k, v in seen.logs.items() if k.startswith(name))
    for host in re.findall(r"([a-z0-9-]+)\.([a-z0-9-]+)\.svc(?:\.cluster\.local)?(?::\d+)?", text):
        if host[1] not in scope:
            return f"{host[0]}.{host[1]}"
    return ""


def _escalate_upstream(sh: Shift, name: str, upstream: str, seen: Seen) -> None:
    svc, ns = upstream.split(".", 1)
    lines = [m for _, m, _ in rd.signal_patterns(rd.log_lines(seen.logs.get(name, "")))][:2]
    sh.cause = (
        f"{name} itself is fine; its upstream {svc} in ns/{ns} refuses connections, so {name} "
        "answers 502."
    )
    sh.evidence += [f"logs {name}: {line}" for line in lines]
    sh.tldr = f"{name}'s 502s come from its upstream in ns/{ns}, which is outside my scope: escalated, nothing changed."
    sh.heads_up.append(
        f"I stopped at the boundary: ns/{ns} isn't in my scope, so I didn't read or touch anything there."
    )
    sh.open_items.append(
        f"page the owners/on-call of ns/{ns} ({svc}) with the log lines above; nothing to fix on "
        f"the {name} side"
    )


async def _act(sh: Shift, seen: Seen, found: Finding) -> None:
    wants_fix = bool(re.search(FIX_WORDS, sh.prompt.lower()))
    name = found.target
    needs = approval_needed(sh)
    sh.cause, sh.evidence = found.cause, sh.evidence + [e for e in found.evidence if e]
    if found.kind == "unsure":
        await _unsure(sh, seen, name, wants_fix, needs)
        return
    if found.kind == "transient" and wants_fix and not needs:
        await _bounce_pod(sh, seen, name, found)
        return
    if found.kind == "pending" and wants_fix and not needs:
        result = await lower_cpu(sh, name, f"finding: {name} po Pending, Insufficient cpu")
        sh.tldr = f"{name} was Pending (cpu request too big for any node); lowered it. {result}"
        return
    if found.kind == "oom" and needs:
        sh.tldr = f"{name} OOMKilled at its {found.detail.get('limit')} limit. Fix proposed, NOT applied: needs approval ({needs})."
        sh.open_items.append(
            f"for approval: raise {name}'s memory limit (and request) from {found.detail.get('limit')} to "
            f"{found.fix.split('(e.g. ')[-1].split(')')[0]}; I'd apply it with kubectl set resources and watch the "
            "restarts stop. Not applied: writes here need human approval."
        )
        return
    if found.kind == "migration":
        await _migration(sh, seen, name, found)
        return
    head = found.cause.split(". ")[0]
    sh.tldr = (
        head if head.startswith(name) or name in head[:60] else f"{name}: {head}"
    ) + ". Nothing changed."
    if found.fix:
        sh.open_items.append(
            f"suggested fix (not applied, {'needs approval' if needs else 'your call / owners'}): {found.fix}"
        )


async def _unsure(sh: Shift, seen: Seen, name: str, wants_fix: bool, needs: str) -> None:
    pods = seen.pods_of(name)
    unready = [
        p
        for p in pods
        if p.get("ready", "1/1").split("/")[0] != p.get("ready", "1/1").split("/")[-1]
    ]
    probe = [
        e for e in seen.events if "Unhealthy" in e.get("reason", "") and name in e.get("object", "")
    ]
    if unready and probe and wants_fix and not needs:
        sh.cause = (
            f"{len(unready)} of {len(pods)} {name} po stuck not-ready: readiness probe keeps failing "
            f"({probe[0].get('message')}); nothing in logs/config points at a code or config fault, "
            "so it looks like a wedged instance."
        )
        sh.evidence.append(f"po {', '.join(p['name'] + ' ' + p.get('ready', '') for p in pods)}")
        ok, result = await restart(
            sh,
            name,
            f"{name} degraded by a po stuck not-ready; a rolling restart replaces it without downtime",
            f"finding: {name} po failing readiness",
        )
        sh.tldr = f"{name} was degraded (po wedged, readiness failing); rolled it. {result}"
        if not ok:
            sh.open_items.append(
                f"{name} still not healthy after the bounce: needs a deeper look / the owners"
            )
        return
    sig = rd.signal_patterns(rd.log_lines(seen.logs.get(name, "")))
    sh.cause = ""
    sh.tldr = f"No single cause I can stand behind for {name}; didn't change anything, escalating."
    sh.heads_up.append(
        f"I'm NOT confident about a root cause for {name}: what I read doesn't single one out, "
        "and a guess-fix (bounce, rollback, config poke) could easily make it worse or hide it."
    )
    if sig:
        sh.evidence += [f"logs {name}: {lvl} {m} (x{n})" for lvl, m, n in sig[:3]]
    owners = {**labels(seen.dep(name)), **annotations(seen.dep(name))}
    who = ", ".join(
        f"{k}={v}" for k, v in sorted(owners.items()) if re.search(r"team|owner|contact|channel", k)
    )
    readings = "; ".join(e for e in sh.evidence if e)[:400]
    sh.open_items.append(
        f"escalating to {who or 'the owning team / the upstream owners'}; the page says: "
        f'"{name}: intermittent errors, no confirmed cause. Readings: {readings}"; '
        "next checks: upstream/LB side of the resets, and whether the errors line up with one po or node"
    )


async def _bounce_pod(sh: Shift, seen: Seen, name: str, found: Finding) -> None:
    pods = seen.pods_of(name) or [p for p in seen.pods if p.get("name", "").startswith(name)]
    pod = pods[0]["name"] if pods else name
    step = await sh.change(
        f"delete po {pod} -n {sh.ns}",
        "the error is transient (the log says so) and the po is stuck in back-off; deleting it "
        "gets a fresh one from its controller right away",
        f"finding: {found.detail.get('log')}",
        before=f"{pod} {pods[0].get('status') if pods else ''} restarts {pods[0].get('restarts') if pods else ''}",
        after="replaced by a fresh po",
    )
    after = rd.table(await sh.k(f"get po -n {sh.ns}", "verify: is the replacement up"))
    fresh = [p for p in after if p.get("name", "").startswith(name) and p.get("name") != pod]
    state = (
        ", ".join(f"{p['name']} {p.get('ready')} {p.get('status')}" for p in fresh)
        or "no replacement seen"
    )
    sh.tldr = f"{name} was crash-looping on a transient error; bounced the po ({state})."
    sh.cause = found.cause
    if step.failed:
        sh.open_items.append(f"delete of {pod} failed: {step.out.strip()[:120]}")
    sh.watch.append(
        f"{name}'s restart count; if it climbs again the dependency isn't transient and needs its owners"
    )


async def _migration(sh: Shift, seen: Seen, name: str, found: Finding) -> None:
    rows = [
        r
        for r in re.findall(
            r"\|\s*\w+\s*\|\s*(\d+)\s*\|\s*([^|]+?)\s*\|[^|]*\|\s*([^|]+?)\s*\|\s*(\w+)\s*\|",
            seen.text,
        )
    ]
    last = rows[-1] if rows else None
    mig = f"{last[0]} ({last[1]})" if last else "the last migration"
    when = f", applied {last[2]}" if last else ""
    sh.cause = f"{found.cause} The app and the schema disagree since migration {mig}{when}."
    sh.evidence.append(f"migrations status: latest {mig}{when}, state {last[3] if last else '?'}")
    sh.tldr = f"{name} broke with migration {mig}. Rolling it back risks data loss: plan below, waiting for your OK."
    sh.heads_up.append(
        f"rolling back {mig} is NOT safe to just do: anything written since{when or ' it was applied'} "
        "that uses what it added goes with a down-migration (data loss), and it's shared DB state, "
        "not something I can undo afterwards."
    )
    sh.open_items.append(
        f"plan for approval: 1) backup/snapshot the DB and count the rows written since {mig}, "
        f"2) decide roll-forward (make the app/schema agree, no data dropped) vs rollback of {mig} "
        f"with that data exported first, 3) apply, 4) verify {name} errors stop. I'll run it once "
        "you (and the DB owner) OK it."
    )
