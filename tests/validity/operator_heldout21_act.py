"""``heldout21``'s shift (issue 27): read what the prompt asks, then pick the play its words
call for (a change it names, a diagnosis, a fix, a plan) and do it through the tools.
Decided from the prompt's words, the mode, the scope and what was read; never a scenario id."""

from __future__ import annotations

import re

from .operator_heldout21 import Desk
from .operator_heldout21_diag import Signals, diagnose, gather, metric
from .operator_heldout21_fix import remediate, restart_and_verify
from .operator_heldout21_look import Scene, log_signal, logs, orient, subject
from .operator_heldout21_plays import canary, capacity_scale, configmap_keys, scale_to
from .operator_heldout21_plays2 import _recent_rollout, high_availability, rolling_update, runbook
from .operator_heldout21_plays3 import dashboard, migration, network, ownership, trace_bottleneck
from .operator_read import table


def _p(desk: Desk, *words: str) -> bool:
    text = desk.prompt.lower()
    return any(re.search(rf"\b{w}", text) for w in words)


async def work(desk: Desk) -> None:
    """One task, start to finish."""
    if desk.has("dashboards") and not desk.has("kubectl"):
        await dashboard(desk)
        return
    scene = await orient(desk)
    env = scene.environment
    if env:
        desk.report.extra["environment"] = {
            "namespace": desk.ns,
            "classified_as": env,
            "from": "namespace labels",
        }
    if _p(desk, "who should", "loop in", "who owns", "contact"):
        await ownership(desk, scene)
        return
    token = re.search(r"\btrace\s+([0-9a-f]{6,})\b", desk.prompt, re.I)
    if token and desk.has("traces_query"):
        await trace_bottleneck(desk, scene, token.group(1))
        return
    if await _change_plays(desk, scene):
        return
    await _diagnose_and_fix(desk, scene)


async def _change_plays(desk: Desk, scene: Scene) -> bool:
    """The plays a change request names; True when one ran."""
    if _p(desk, "canary"):
        await canary(desk, scene)
    elif _p(desk, "rolling update", "roll out the new", "new image"):
        await rolling_update(desk, scene)
    elif _p(desk, "highly available", "survive node"):
        await high_availability(desk, scene)
    elif _p(desk, r"2x", "double", "twice"):
        await capacity_scale(desk, scene)
    elif _p(desk, "runbook"):
        await runbook(desk, scene)
    elif _p(desk, "migration"):
        await migration(desk, scene)
    elif _p(desk, "network", "can't reach", "cannot reach", "can not reach"):
        await network(desk, scene)
    elif re.search(r"\b[A-Z][A-Z0-9_]{2,}\b", desk.prompt) and _p(
        desk, "set ", "make sure", "enable", "disable", "ensure"
    ):
        await configmap_keys(desk, scene)
        if re.search(r"scale .* to \d+", desk.prompt, re.I):
            await scale_to(desk, scene)
    elif re.search(r"(?:scale|replicas).*?\bto\s+\d+", desk.prompt, re.I):
        await scale_to(desk, scene)
    elif re.match(r"\s*restart\b", desk.prompt, re.I):
        name = subject(desk, scene)
        desk.report.summary = f"Restarted {name} as asked and checked it came back healthy."
        await restart_and_verify(desk, name, "you asked for a restart")
    else:
        return False
    return True


async def _diagnose_and_fix(desk: Desk, scene: Scene) -> None:
    name = subject(desk, scene)
    if not desk.named(list(scene.deployments)) and re.search(r"\b50[234]\b", desk.prompt):
        name = await _edge_backend(desk, scene) or name
    desk.report.extra["_pods"] = scene.pods
    s = await gather(desk, scene, name)
    await _follow_alerts(desk, s)
    found = diagnose(desk, s)
    if not found or _p(desk, "spiking", "error rate", "going on", "since"):
        recent = await _recent_rollout(desk, name, "60 min")
        if recent and not found:
            found = True
            r0 = desk.report
            onset = _onset(s, desk.report.extra.get("_stamps", {}))
            r0.statement = f"the deploy of {name} {recent} is the likely cause: " + (
                onset or "the errors began right after it rolled out"
            )
            if onset:
                r0.cite(onset)
            r0.confidence = 0.8
            r0.next_steps.append(
                f"roll {name} back to the previous revision: kubectl rollout undo deployment/{name} -n {desk.ns}"
            )
        if recent:
            desk.report.extra["timeline"] = {
                "deploy": recent,
                "symptom": "errors began after it (events, logs)",
            }
    await _misleading(desk, s)
    if found and re.search(r"\b50[234]\b", desk.prompt):
        await _chain(desk, s)
    wants_fix = bool(
        re.search(r"\b(fix|handle|resolve|remediate|sort it|mitigate)", desk.prompt, re.I)
    )
    r = desk.report
    _rule_out_common(desk, s)
    if not found and _p(desk, "health", "how is", "doing", "status of"):
        await _health(desk, s)
        return
    if not found:
        r.summary = f"I could not pin {name}'s problem on one cause from what I read, so I am not guessing a fix."
        r.statement = f"no single root cause for {name}'s symptoms is supported by what I read"
        r.escalate_to = (
            scene.notes.get("oncall") or scene.labels.get("team") or "the service owner / on-call"
        )
        _evidence_summary(desk, s)
        r.escalate_why = (
            "I am not confident of any single cause: the symptoms are intermittent and what I read "
            f"does not settle it ({'; '.join(r.evidence[:4]) or 'no errors in logs or events'}); "
            "a human with more context should look before anyone changes things"
        )
        r.open_questions.append(
            f"did anything change around {name} (config, upstreams, load balancer) when the errors began?"
        )
        return
    if wants_fix:
        await remediate(desk, scene, s)
    else:
        r.summary = f"{name}: {r.statement}."
        r.next_steps.append("tell me if you want me to apply the fix")


async def _follow_alerts(desk: Desk, s: Signals) -> None:
    """An alert firing about the subject mid-work is a new trigger: investigate what it says."""
    mine = [
        a
        for a in s.alerts
        if s.name in str(a.get("labels", {})) or s.name in str(a.get("annotations", {}))
    ]
    if not mine:
        return
    a = mine[0]
    label = a.get("labels", {}).get("alertname", "alert")
    desk.trigger = f"alert {label} fired for {s.name} while I was working"
    desk.report.extra["alerts_seen"] = [
        {
            "alert": x.get("labels", {}).get("alertname"),
            "summary": x.get("annotations", {}).get("summary"),
        }
        for x in mine
    ]
    if "mem" in label.lower() or "memory" in str(a.get("annotations", {})).lower():
        from .operator_heldout21_look import service_metrics

        s.metrics.update(await service_metrics(desk, s.name))
        await desk.kubectl(
            f"top pods -n {desk.ns} -l app={s.name}",
            f"to check {s.name}'s memory use now, as the alert says",
        )


async def _misleading(desk: Desk, s: Signals) -> None:
    """When the prompt offers a suspect (CPU) that the evidence does not support, read it
    and say why it is not the cause."""
    r = desk.report
    if not (_p(desk, "cpu") and "OOMKilled" in s.last_reasons()):
        return
    nodes = table(
        await desk.kubectl("top nodes", "you asked about node CPU: to see which node is pegged")
    )
    pods = table(await desk.kubectl(f"top pods -n {desk.ns}", "to see which pod is using the CPU"))
    hot = max(nodes, key=lambda n: float((n.get("cpu%") or "0").rstrip("%") or 0), default={})
    hog = max(pods, key=lambda p: float((p.get("cpu(cores)") or "0").rstrip("m") or 0), default={})
    mine = sorted({p.get("node", "") for p in s.pods})
    hog_node = next(
        (p.get("node", "") for p in scene_pods(desk) if p.get("name") == hog.get("name")), ""
    )
    if hot:
        r.cite(
            f"top nodes: {hot.get('name')} at {hot.get('cpu%')} CPU; {s.name} runs on {', '.join(mine)}"
        )
    if hog:
        r.cite(
            f"top pods: {hog.get('name')} uses {hog.get('cpu(cores)')} CPU"
            + (f" on {hog_node}" if hog_node else "")
        )
    r.rule_out(
        "the pegged node CPU is what makes the service restart",
        "CPU pressure throttles a container, it does not kill it; the pods' last state is OOMKilled "
        f"(exit 137), a memory kill. The CPU comes from {hog.get('name', 'another workload')} "
        f"({hog.get('cpu(cores)', '?')}), a noisy neighbour"
        + (f" on {hot.get('name')}" if hot else "")
        + (
            f", not the node {s.name} runs on ({', '.join(mine)})"
            if hot and hot.get("name") not in mine
            else ""
        )
        + ": a red herring for this problem, worth a look separately",
    )


def scene_pods(desk: Desk) -> list[dict[str, str]]:
    return desk.report.extra.get("_pods", [])


async def _health(desk: Desk, s: Signals) -> None:
    """A health question with no fault found: what is healthy, and what an alert said."""
    r = desk.report
    ready = sum(
        1
        for p in s.pods
        if p.get("ready", "0/1").split("/")[0] == p.get("ready", "0/1").split("/")[-1]
    )
    restarts = sum(int((p.get("restarts") or "0").split()[0] or 0) for p in s.pods)
    r.statement = (
        f"{s.name} is up: {ready}/{len(s.pods)} pods ready, {restarts} restarts, no warning events"
    )
    r.confidence = 0.8
    for p in s.pods:
        r.cite(
            f"pod {p.get('name')}: {p.get('status')} ready {p.get('ready')} restarts {p.get('restarts')}"
        )
    seen = r.extra.get("alerts_seen")
    if seen:
        top = r.extra.get("_top", "")
        r.statement += (
            f"; the {seen[0]['alert']} alert fired during my check ({seen[0]['summary']})"
        )
        if top:
            r.cite(f"after the alert, top pods: {top}")
        r.next_steps.append(
            f"keep watching {s.name}'s memory against its limit; if it keeps climbing, raise the limit or look for a leak"
        )
    r.summary = r.statement + "."


async def _edge_backend(desk: Desk, scene: Scene) -> str:
    """A 5xx at the edge with no workload named: the workload behind the ingress's backend
    Service (its selector's app), not whichever pod looks worst."""
    from .operator_heldout21_look import all_of

    for ing in await all_of(
        desk, "ingress", "to find which Service the public edge sends traffic to"
    ):
        for rule in ing.get("spec", {}).get("rules", []) or []:
            for path in (rule.get("http") or {}).get("paths", []) or []:
                svc = ((path.get("backend") or {}).get("service") or {}).get("name", "")
                if not svc:
                    continue
                found = await all_of(
                    desk, f"service {svc}", f"to see which pods Service {svc} selects"
                )
                app = ((found[0] if found else {}).get("spec", {}).get("selector") or {}).get(
                    "app", svc
                )
                if app in scene.deployments:
                    return str(app)
    return ""


async def _chain(desk: Desk, s: Signals) -> None:
    """A 5xx at the edge: walk ingress -> service endpoints -> sidecar -> the workload."""
    r = desk.report
    ing = table(
        await desk.kubectl(
            f"get ingress -n {desk.ns}", "to start from the edge that returns the errors"
        )
    )
    eps = table(
        await desk.kubectl(
            f"get endpoints {s.name} -n {desk.ns}",
            f"to see whether {s.name}'s Service has any ready endpoint",
        )
    )
    hops = []
    if ing:
        hops.append(f"ingress {ing[0].get('name')} ({ing[0].get('hosts')}) returns 503")
    if eps:
        hops.append(
            f"Service {s.name} has endpoints {eps[0].get('endpoints') or '<none>'}: no ready pod behind it"
        )
    sidecars = sorted(
        {
            c.name
            for v in s.views
            for c in v.containers
            if not c.init and re.search(r"proxy|envoy|sidecar|mesh|linkerd|istio", c.name)
        }
    )
    for side in sidecars[:1]:
        pats = log_signal(await logs(desk, s.name, container=side))[0]
        if pats:
            hops.append(f"mesh sidecar {side}: {pats[0][1]}")
            r.cite(f"{side} log: {pats[0][0]}: {pats[0][1]}")
    if not sidecars and desk.has("logs_query"):
        text = await desk.use(
            "logs_query",
            "to find which hop between the edge and the backend logs the failure",
            f'logs_query {{namespace="{desk.ns}"}} |~ "error|refused|reset|upstream"',
            namespace=desk.ns,
            query=f'{{namespace="{desk.ns}"}} |~ "(?i)error|refused|reset|upstream"',
            tail=50,
        )
        for line in text.splitlines():
            m = re.search(r'source="([^"]+)"\}\s*(.+)$', line)
            if m and m.group(1) != s.name:
                hops.append(f"{m.group(1)}: {m.group(2).strip()}")
                r.cite(f"{m.group(1)} log: {m.group(2).strip()}")
                break
    hops.append(f"{s.name} pods: {', '.join(sorted({p.get('status', '') for p in s.pods}))}")
    hops.append(r.statement)
    r.extra["failure_chain"] = hops
    r.statement = " -> ".join(hops[:-1]) + f"; root cause: {r.statement}"


def _onset(s: Signals, stamps_of: dict[str, list[float]]) -> str:
    """When the error series rose, from its samples over the 6h read (evenly spaced)."""
    found = metric(s, "error")
    if not found or len(found[1]) < 3:
        return ""
    values = found[1]
    base = values[0]
    mid = base + (values[-1] - base) / 2
    if values[-1] <= base * 2:
        return ""
    # the start of the last run of samples above half-way: a sustained rise, not a blip
    rise = len(values) - 1
    while rise > 0 and values[rise - 1] > mid:
        rise -= 1
    stamps = stamps_of.get(found[0].split(",")[0], [])
    if len(stamps) == len(values):
        ago = round((stamps[-1] - stamps[rise]) / 60)
    else:
        ago = round((len(values) - 1 - rise) * 360 / (len(values) - 1))
    return (
        f"{found[0].split(',')[0]} rose from {base:g} to {values[rise]:g} about {ago} minutes ago "
        f"and is {values[-1]:g} now, "
        "just after that rollout"
    )


def _rule_out_common(desk: Desk, s: Signals) -> None:
    """The usual suspects the reads clear."""
    r = desk.report
    restarts = sum(int((p.get("restarts") or "0").split()[0] or 0) for p in s.pods)
    if s.pods and restarts == 0:
        r.rule_out(f"{s.name}'s pods are crashing", f"0 restarts across {len(s.pods)} pods")
    if s.views and "OOMKilled" not in s.last_reasons():
        r.rule_out("an OOM kill", "no container's last state is OOMKilled")
    if not s.alerts:
        r.rule_out("an alert already explains it", "no alert is firing")


def _evidence_summary(desk: Desk, s: Signals) -> None:
    r = desk.report
    for lvl, m, n in s.log_patterns[:3]:
        r.cite(f"log: {lvl}: {m} (x{n})")
    for e in s.events[:3]:
        r.cite(f"event: {e}")
    for key, values in sorted(s.metrics.items())[:4]:
        r.cite(
            f"metric {key.split(',')[0]}: {values[-1]:g} now, {min(values):g}-{max(values):g} over 6h"
        )
    r.confidence = 0.3
