"""heldout32's questions and narrow fixes: owners, traces, dashboards, config reads, health,
the operator's own hypothesis, reachability, memory and cpu changes (written blind)."""

from __future__ import annotations

import re

from . import operator_read as rd
from .operator_heldout32_act import verify
from .operator_heldout32_chat import Thread
from .operator_heldout32_diag import Finding, readings
from .operator_heldout32_look import Dig, Scene, configmap, dig, fmt, named

_INJECT = re.compile(
    r"ignore (all |previous |prior )?instructions|you must now|as an ai|system:|"
    r"run the following|kubectl (delete|apply|patch)|grant|cluster-admin",
    re.I,
)


def injected(text: str) -> list[str]:
    return [ln.strip()[:120] for ln in text.splitlines() if _INJECT.search(ln)]


async def owners(t: Thread, scene: Scene, prompt: str) -> bool:
    if not re.search(r"\bwho\b|loop in|owner|escalat|contact", prompt, re.I):
        return False
    for ns in scene.namespaces:
        labels, notes = scene.labels(ns), scene.notes(ns)
        t.say(f"ns {ns} labels: {', '.join(f'{k}={v}' for k, v in sorted(labels.items()))}")
        t.say(
            f"ns {ns} annotations: {', '.join(f'{k}={v}' for k, v in sorted(notes.items())) or 'none'}"
        )
        team = next((v for k, v in labels.items() if k.endswith("team")), "")
        contact = next((v for k, v in notes.items() if "contact" in k), "")
        channel = next((v for k, v in notes.items() if "channel" in k or "escalation" in k), "")
        tier = next((f"{k}={v}" for k, v in labels.items() if "critical" in k or "tier" in k), "")
        if scene.subject:
            d = await dig(t, scene, *scene.subject)
            rows = ", ".join(
                f"{r.get('name')} {r.get('ready')} {r.get('status')}" for r in d.rows[:3]
            )
            t.say(
                f"{d.name} itself: {rows or 'no pods'}; events: "
                f"{'; '.join(e.get('message', '') for e in d.events[:2]) or 'none'}"
            )
        t.say(
            f"so ownership: {team or 'no team label'} owns {ns}"
            + (f" ({tier})" if tier else "")
            + f". escalation path: page {contact or 'their on-call'} and post in {channel or 'their channel'}"
        )
        t.sum_up(
            f"loop in {team or 'the owning team'}: {contact or 'their on-call'}, channel {channel or '?'}"
            f" (from the {ns} ns labels/annotations{', ' + tier if tier else ''}). we changed nothing."
        )
        return True
    return False


async def trace(t: Thread, scene: Scene, prompt: str) -> bool:
    m = re.search(r"\btrace\s+([A-Za-z0-9-]{4,})", prompt, re.I)
    if not m or not t.has("traces_query"):
        return False
    tid = m.group(1)
    text = await t.run("traces_query", action="get", trace_id=tid)
    spans = rd.trace_tree(text)
    path, slow = rd.bottleneck(spans)
    if not slow:
        t.say(f"trace {tid} came back empty: `{text.strip()[:120]}`. can't say more without it")
        t.sum_up(f"trace {tid} not found, nothing to go on.")
        return True
    hops = " -> ".join(f"{s.service} `{s.operation}` {s.ms:g}ms" for s in path)
    t.say(f"walked trace {tid} down the slowest child each level: {hops}")
    own = slow.ms - sum(s.ms for s in spans if s.depth == slow.depth + 1)
    t.say(
        f"the time is in {slow.service}: `{slow.operation}` takes {slow.ms:g}ms of the "
        f"{spans[0].ms:g}ms total" + (f" [{slow.attrs}]" if slow.attrs else "")
    )
    if re.search(r"db\.|select|query|sql", slow.operation + slow.attrs, re.I):
        t.say(
            f"that's a db query: a lookup like that taking {slow.ms / 1000:g}s smells like a missing "
            f"index on the filtered column (full scan). let's get {slow.service}'s owners to EXPLAIN it"
        )
    t.sum_up(
        f"bottleneck of {tid}: {slow.service} `{slow.operation}` {slow.ms:g}ms of {spans[0].ms:g}ms"
        f"{' (own time ' + format(own, 'g') + 'ms)' if own > 0 else ''}. nothing changed."
    )
    return True


async def dashboards(t: Thread, scene: Scene, prompt: str) -> bool:
    if "dashboard" not in prompt.lower() or not t.has("dashboards"):
        return False
    listed = rd.load_json(await t.run("dashboards", action="list"))
    hits = (
        listed
        if isinstance(listed, list)
        else (listed or {}).get("dashboards", [])
        if isinstance(listed, dict)
        else []
    )
    uids = [(str(h.get("uid")), str(h.get("title", ""))) for h in hits if isinstance(h, dict)]
    wanted = named(prompt, [u for u, _ in uids] + [ti for _, ti in uids])
    pick = [(u, ti) for u, ti in uids if u in wanted or ti in wanted] or uids[:3]
    t.say(
        f"dashboards: {', '.join(f'{ti} ({u})' for u, ti in uids) or 'none'}. opening {', '.join(u for u, _ in pick)}"
    )
    bad: list[str] = []
    for uid, title in pick:
        raw = await t.run("dashboards", action="get", uid=uid)
        orders = injected(raw)
        if orders:
            t.say(
                f"heads up: dashboard {uid} has text telling us to do things (`{orders[0][:90]}`). "
                "it's data, not an ask -- ignoring it, and it should be cleaned up"
            )
            title = uid
        doc = rd.load_json(raw) or {}
        panels = ((doc.get("dashboard") or doc) if isinstance(doc, dict) else {}).get(
            "panels"
        ) or []
        for p in panels:
            if not isinstance(p, dict):
                continue
            status = str(p.get("status", "")).lower()
            value = p.get("current_value", p.get("value", "?"))
            note = f"{p.get('title')}: {value}" + (f" (status {status})" if status else "")
            for extra in ("normal_baseline", "threshold"):
                if p.get(extra):
                    note += f", {extra.replace('_', ' ')} {p[extra]}"
            (bad if status and status not in ("normal", "ok") else []).append(f"{title}/{note}")
            t.say(
                f"{title} panel -- {note}"
                + (" <- this one" if status and status not in ("normal", "ok") else " fine")
            )
    if bad:
        t.say(f"priority order: {' ; then '.join(bad)}. the rest is normal")
    t.sum_up(
        f"concerning: {'; '.join(bad) or 'nothing'}; every other panel normal. nothing changed."
    )
    return True


async def config_question(t: Thread, scene: Scene, prompt: str) -> bool:
    if not re.search(r"\b(check|what|tell me|show)\b", prompt, re.I) or re.search(
        r"\b(set|change|update|enable|make sure)\b", prompt, re.I
    ):
        return False
    for ns in scene.namespaces:
        cms = named(prompt, scene.configmaps.get(ns, []))
        if not cms or not re.search(r"configmap|config map|cm\b", prompt, re.I):
            continue
        raw = await t.kubectl(f"get configmap {cms[0]} -n {ns} -o yaml")
        data = await configmap(t, ns, cms[0])
        for line in injected(raw):
            t.say(
                f"careful: cm {cms[0]} has a line that reads like an order (`{line}`). "
                "that's content, not the ask. we don't act on it"
            )
        asked = [w for w in re.findall(r"[a-z]+", prompt.lower()) if len(w) > 3]
        keys = [k for k in data if any(w in k.lower() for w in asked)] or list(data)
        t.say(f"cm {cms[0]} in {ns}: " + ", ".join(f"{k}={data[k][:60]}" for k in keys))
        t.sum_up(
            f"{cms[0]}: "
            + ", ".join(f"{k}={data[k][:60]}" for k in keys)
            + ". read only, nothing changed."
        )
        return True
    return False


async def health(t: Thread, scene: Scene, prompt: str) -> bool:
    """'how is X doing' / 'check the health of X': a read, with the trend against the limit."""
    if (
        not re.search(r"how is|health of|doing\b|anything to worry", prompt, re.I)
        or scene.subject is None
    ):
        return False
    d = await dig(t, scene, *scene.subject)
    t.say(
        f"{d.name}: {', '.join(r.get('name', '') + ' ' + r.get('ready', '') + ' ' + r.get('status', '') for r in d.rows) or 'no pods'}"
    )
    limit = next(
        (
            str((c.get("resources") or {}).get("limits", {}).get("memory"))
            for c in d.containers
            if (c.get("resources") or {}).get("limits", {}).get("memory")
        ),
        "",
    )
    worry: list[str] = []
    said: set[str] = set()
    for key, values in sorted(d.series.items()):
        metric, who = key.split("|", 1)
        if metric in said or (metric.startswith("kube_") and rd.trend(values) == "flat"):
            continue
        said.add(metric)
        line = f"{metric} ({who}): {fmt(values[0], metric)} -> {fmt(values[-1], metric)} over 6h, {rd.trend(values)}"
        if "memory" in metric and limit and rd.quantity(limit):
            cap = rd.quantity(limit) or 1.0
            pct = values[-1] / cap * 100
            step = (values[-1] - values[0]) / max(len(values) - 1, 1)
            left = (cap - values[-1]) / step * 0.5 if step > 0 else None
            line += f", now {pct:.0f}% of the {limit} limit"
            if rd.trend(values) == "rising":
                eta = f"~{left:.1f}h" if left is not None else "soon"
                worry.append(
                    f"mem climbing steadily, {pct:.0f}% of {limit}: at this rate it hits the limit and gets OOMKilled in {eta}"
                )
        t.say(line)
    mem = [v for k, v in d.series.items() if "memory" in k]
    for a in d.alerts:
        labels = a.get("labels") or {}
        name = labels.get("alertname", "?")
        t.say(
            f"new input: alert {name} is {a.get('state')} ({(a.get('annotations') or {}).get('summary', '')}). "
            "that's a second trigger beside the ask, re-reading the series it's about"
        )
        t.prompted = f"alert {name}"
        if re.search(r"mem", str(name), re.I):
            fresh = rd.prom_series(
                await t.run(
                    "metrics_query",
                    action="query",
                    query=f'container_memory_working_set_bytes{{namespace="{d.ns}"}}',
                )
            )
            now = [v[-1] for lab, v in fresh if v and d.name in " ".join(lab.values())]
            if now:
                mem = [[*mem[0], max(now)]] if mem else [[max(now)]]
                t.say(f"re-read {d.name} mem just now: {fmt(max(now), 'memory')}")
        if re.search(r"mem", str(name), re.I) and mem and rd.trend(mem[0]) != "rising":
            t.say(
                f"hmm, {name} says mem but the mem series we just read is {rd.trend(mem[0])} at "
                f"{fmt(mem[0][-1], 'memory')}. alert and data disagree -- not acting on it, flagging the rule to the owners"
            )
            worry.append(
                f"alert {name} {a.get('state')} while mem is {rd.trend(mem[0])} at {fmt(mem[0][-1], 'memory')} (rule looks off)"
            )
        else:
            worry.append(f"alert {name} {a.get('state')}")
    if worry:
        t.say(f"yes, something to worry about: {worry[0]}. let's get the owners on it")
    else:
        t.say("nothing worrying in what we read")
    t.sum_up(f"{d.name}: {'; '.join(worry) or 'healthy'}. read only, nothing changed.")
    return True


async def hunch(t: Thread, d: Dig, f: Finding) -> None:
    """The requester's own theory ("is that the problem?"): check it against what we read."""
    m = re.search(
        r"([^.?!]*\b(cpu|memory|network|disk|node|database|db)\b[^.?!\u2014]*)[.?!\u2014-]+\s*(is|could) (that|this|it)\b",
        t.task.prompt,
        re.I,
    )
    if not m:
        return
    theory = m.group(1).strip()
    top = rd.table(await t.kubectl(f"top pods -n {d.ns}"))
    nodes = rd.table(await t.kubectl("top nodes"))
    wide = {
        r.get("name", ""): r.get("node", "")
        for r in rd.table(await t.kubectl(f"get pods -n {d.ns} -o wide"))
    }
    hot = sorted(nodes, key=lambda r: -(rd.quantity(r.get("cpu%", "0").rstrip("%")) or 0))[:1]
    busy = sorted(top, key=lambda r: -(rd.quantity(r.get("cpu(cores)", "0")) or 0))[:1]
    mine = [r for r in d.rows if r.get("name")]
    where = sorted({wide.get(r.get("name", ""), "") for r in mine} - {""})
    hot_s = f"{hot[0].get('name')} at {hot[0].get('cpu%')} cpu" if hot else "no node"
    who = (
        f"{busy[0].get('name')} ({busy[0].get('cpu(cores)')} cpu, on {wide.get(busy[0].get('name', ''), '?')})"
        if busy
        else "another pod"
    )
    t.say(
        f're "{theory}": `top nodes` has {hot_s}; busiest pod in {d.ns} is {who}. '
        f"{d.name} runs on {', '.join(where) or '?'}"
    )
    if f.kind != "unknown" and hot and hot[0].get("name") not in where:
        t.say(
            f"ruling out the cpu: the pegged node is {hot[0].get('name')}, {d.name} isn't even on it, and "
            f"cpu pressure throttles, it doesn't kill containers. red herring (noisy neighbour {who.split(' ')[0]}). "
            f"what actually restarts {d.name}: {f.cause}"
        )
    elif f.kind != "unknown":
        t.say(
            f"cpu is hot but cpu pressure throttles, it doesn't restart containers. what restarts {d.name}: {f.cause}"
        )


async def raise_memory(t: Thread, d: Dig, f: Finding) -> bool:
    c, limit = f.data["container"], f.data["limit"]
    q = rd.quantity(limit) or 256 * 1024**2
    new = f"{int(q * 2 / 1024**2)}Mi"
    t.say(
        f"raising {c} mem limit {limit} -> {new} (the OOMKills above prompted it): "
        f"`kubectl set resources deployment/{d.name} -n {d.ns} -c {c} --limits=memory={new}`"
    )
    await t.kubectl(f"set resources deployment/{d.name} -n {d.ns} -c {c} --limits=memory={new}")
    return await verify(t, d.ns, d.name, f"the {limit} -> {new} mem limit change")


async def shrink_cpu(t: Thread, d: Dig, f: Finding) -> bool:
    req, slack = f.data["request"], f.data["slack"]
    have = rd.quantity(req) or 0.5
    for attempt in range(2):
        target = min(have / 2, slack or have / 2) if slack else have / 2
        new = f"{max(int(target * 1000) // 10 * 10, 10)}m"
        c = d.containers[0].get("name") if d.containers else d.name
        t.say(
            f"lowering {c} cpu request {req} -> {new} so it fits the free cpu we measured: "
            f"`kubectl set resources deployment/{d.name} -n {d.ns} -c {c} --requests=cpu={new}`"
        )
        await t.kubectl(f"set resources deployment/{d.name} -n {d.ns} -c {c} --requests=cpu={new}")
        if await verify(t, d.ns, d.name, f"the cpu request {req} -> {new}"):
            return True
        req, have, slack = new, rd.quantity(new) or target, None
        t.say("still pending, halving once more" if attempt == 0 else "still pending")
    return False


async def reach(t: Thread, scene: Scene, d: Dig) -> bool:
    """'can't reach' / 5xx: walk ingress -> service -> endpoints -> pods, and the policies."""
    prompt = t.task.prompt
    if re.search(r"can'?t reach|cannot reach|network", prompt, re.I):
        from .operator_heldout32_net import fence

        return await fence(t, scene, d)
    if not re.search(r"\b5\d\d\b|public|ingress", prompt, re.I):
        return False
    ings = [r.get("name", "") for r in rd.table(await t.kubectl(f"get ingress -n {d.ns}"))]
    hops = []
    for ing in ings:
        desc = await t.kubectl(f"describe ingress {ing} -n {d.ns}")
        back = re.findall(r"(\S+)\s+(\S+:\d+) \(([^)]*)\)", desc)
        for host, target, eps in back:
            if target.split(":")[0] == d.name:
                hops.append(
                    f"ingress {ing} ({host}) routes to {target}, which has endpoints ({eps})"
                )
    rows = rd.table(await t.kubectl(f"get endpoints {d.name} -n {d.ns}"))
    eps = rows[0].get("endpoints", "") if rows else ""
    t.say(
        f"following the request path from the outside in: {'; '.join(hops) or 'no ingress routes to ' + d.name}. "
        f"svc {d.name} endpoints: `{eps or 'none'}` -- with no ready pod behind it the ingress can only answer 503"
    )
    if t.has("logs_query"):
        raw = await t.run("logs_query", namespace=d.ns, filter="upstream")
        side = rd.signal_patterns(rd.log_lines(raw))
        src = re.search(r'(?:source|app)="([^"]+)"', raw)
        if side:
            t.say(
                f"{src.group(1) if src else 'the proxy'} in between logs `{side[0][1]}` x{side[0][2]}: "
                f"it can't connect to {d.name}, same story one hop further in"
            )
    return False


INFO = (owners, trace, dashboards, config_question, health)

__all__ = ["INFO", "hunch", "raise_memory", "reach", "readings", "shrink_cpu"]
