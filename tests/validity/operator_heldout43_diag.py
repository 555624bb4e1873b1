"""heldout43's diagnosis: follow the named workload (else the ingress path), read it, commit
to the cause the reads show, say what it ruled out and by which read, fix when asked and
allowed, else escalate with the owner and the numbers."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from . import operator_heldout43_look as lk
from . import operator_heldout43_plan as pl
from . import operator_read as rd

if TYPE_CHECKING:
    from .operator_heldout43 import Op


@dataclass
class Cause:
    kind: str
    text: str
    refs: list[int] = field(default_factory=list)
    fix: str = ""


async def follow_ingress(op: Op) -> tuple[list[str], list[str]]:
    """No workload named: ingress -> service -> endpoints -> deployment, as a request goes."""
    ings, _ = await lk.names_of(op, "ingress", op.ns)
    hit = pl.named(op.prompt, ings) or ings[:1]
    if not hit:
        return [], []
    out = await op.k(f"describe ingress {hit[0]} -n {op.ns}", f"backend of ingress {hit[0]}")
    r_ing = op.n
    op.ing_ref = r_ing
    m = re.search(r"\s/\S*\s+([\w.-]+):(\d+)", out)
    if not m:
        return [], []
    svc = m.group(1)
    out = await op.k(f"get endpoints {svc} -n {op.ns}", f"endpoints behind svc {svc}")
    r_ep = op.n
    empty = "<none>" in out
    path = [f"ingress/{hit[0]} -> svc/{svc} {op.r(r_ing)}"]
    path.append(
        f"svc/{svc} endpoints: {'NONE (0 ready pods)' if empty else 'present'} {op.r(r_ep)}"
    )
    out = await op.k(f"get svc {svc} -n {op.ns} -o yaml", f"selector of svc {svc}")
    docs = rd.items(out)
    sel = ((docs[0].get("spec") or {}).get("selector") or {}) if docs else {}
    name = str(sel.get("app") or svc)
    return [name], path


async def mesh_logs(op: Op, name: str) -> tuple[str, int]:
    """Proxy/sidecar lines about the backend: what the hop in front of it saw."""
    q = f'{{namespace="{op.ns}"}} |~ "upstream|connection refused|reset"'
    out = await op.t("logs_query", "mesh/proxy errors toward backend", query=q, tail=50)
    sig = rd.signal_patterns(rd.log_lines(out))
    return (f"{sig[0][1]}" if sig else ""), op.n


async def read_all(op: Op, look: lk.Look) -> None:
    if look.kind == "deployment":
        await lk.deployment(op, look)
        await lk.pods_of(op, look)
    else:
        out = await op.k(f"get pod {look.name} -n {look.ns} -o wide", f"state of pod {look.name}")
        look.pods = rd.table(out)
        look.ref_pods = op.n
    await lk.describe(op, look)
    await lk.init_logs(op, look)
    await lk.logs(op, look)
    await lk.config_keys(op, look)


def log_cause(look: lk.Look) -> Cause | None:
    every = look.prev_logs + look.logs
    text = " ".join(m for _, m, _ in every).lower()
    ref = look.ref_prev or look.ref_logs
    first = next((f"{lv}: {m}" for lv, m, _ in every), "")
    if "pool" in text and ("exhaust" in text or "cannot get a connection" in text):
        return Cause("pool", f"DB conn pool exhausted ('{lk.short(first, 90)}')", [ref])
    if "certificate" in text and "expired" in text:
        line = next(m for _, m, _ in every if "expired" in m.lower())
        return Cause("tls", f"expired TLS cert on upstream: '{lk.short(line, 100)}'", [ref])
    if "does not exist" in text and ("column" in text or "relation" in text):
        return Cause("schema", f"schema mismatch: '{lk.short(first, 90)}'", [ref])
    return None


def decide(op: Op, look: lk.Look) -> Cause | None:
    """The cause the reads show, most specific first."""
    if look.missing_keys:
        cm, key = look.missing_keys[0]
        return Cause(
            "config",
            f"cm {cm} has no key {key}; pod env needs it -> container exits "
            f"at start (CreateContainerConfigError / CrashLoopBackOff)",
            [look.ref_desc, look.ref_cm],
            f"add {key} to cm {cm}",
        )
    if look.init_fail:
        c, line = look.init_fail
        return Cause(
            "init",
            f"init container {c} of {look.name} fails ({line}) -> app "
            "container never starts, 0 ready pods",
            [look.ref_desc, look.ref_init],
        )
    if look.oom:
        lim = look.limits.get("memory", "?")
        return Cause(
            "oom",
            f"{look.name} is OOMKilled (exit 137) at mem lim {lim}",
            [look.ref_desc],
            f"raise mem lim above {lim}",
        )
    sched = [e for e in look.events if "Insufficient" in e or "FailedScheduling" in e]
    if sched:
        req = look.requests.get("cpu", "?")
        return Cause(
            "sched",
            f"pods unschedulable: cpu req {req} per pod > what any node can "
            f"fit ('{lk.short(sched[0].split('default-scheduler')[-1], 80)}')",
            [look.ref_desc],
        )
    return log_cause(look)


def _fix_words(op: Op) -> bool:
    return bool(re.search(r"\b(fix|handle|resolve|remediate|sort it|repair)\b", op.low))


async def diagnose(op: Op) -> None:
    from . import operator_heldout43_fix as fx

    rep = op.rep
    names, kind = await pl.targets(op)
    path: list[str] = []
    if not names:
        names, path = await follow_ingress(op)
        kind = "deployment"
    if not names:
        rep.bluf = f"No workload in ns {op.ns} matches the request; nothing changed, need a name."
        rep.requests.append("Requester: which workload/svc? Re-task w/ name.")
        return
    if len(names) > 1 and re.search(r"reach|connect|talk to", op.low):
        names.sort(
            key=lambda n: -op.low.find(n.replace("-", " ")) if n not in op.low else -op.low.find(n)
        )
        op.src = names[-1]
    look = lk.Look(names[0], op.ns, kind)
    await read_all(op, look)
    rep.situation += path
    await context(op, look)
    cause = decide(op, look)
    if path and cause:
        line, ref = await mesh_logs(op, look.name)
        if line:
            rep.situation.append(
                f"mesh/proxy in front of {look.name} logs '{lk.short(line, 90)}' "
                f"{op.r(ref)} -> conn to backend refused: no pod to send to"
            )
    situation(op, look)
    if cause is None:
        cause = await others(op, look)
    if cause is None and _fix_words(op) and re.search(r"Available\s+False", look.deploy_text):
        from .operator_heldout43_fix3 import degraded

        await degraded(op, look)
        return
    if cause is None and re.search(r"\bhealth\b|how is|doing", op.low):
        from .operator_heldout43_fix3 import health

        await health(op, look)
        return
    if cause is None or cause.kind == "unknown":
        await fx.uncertain(op, look, cause)
        return
    if cause.kind != "trend":
        rep.assessment.insert(0, f"CAUSE (high confidence): {cause.text} {op.r(*cause.refs)}.")
    if path:
        rep.assessment.append(
            "Chain: "
            + " -> ".join(
                [p.split(" (")[0] for p in path[:1]] + [f"deploy/{look.name} 0 ready", cause.kind]
            )
        )
    await fx.act_on(op, look, cause, _fix_words(op))


def situation(op: Op, look: lk.Look) -> None:
    rep = op.rep
    w = lk.worst(look)
    if w:
        rep.situation.append(
            f"{look.name}: {len(look.pods)} pod(s); worst {w.get('name')} {w.get('status')} "
            f"ready {w.get('ready')}, restarts {w.get('restarts', '0')} {op.r(look.ref_pods)}"
        )
    for lv, msg, n in (look.prev_logs or look.logs)[:2]:
        ref = look.ref_prev or look.ref_logs
        rep.situation.append(f"log: '{lv}: {lk.short(msg, 100)}' x{n} {op.r(ref)}")
    for name, (val, ref) in look.metrics.items():
        if name.startswith("normal_"):
            continue
        base = look.metrics.get(f"normal_{name}")
        vs = f" vs normal {lk.pct(base[0])} (~{val / base[0]:.0f}x)" if base and base[0] else ""
        rep.situation.append(f"{name} = {lk.pct(val)}{vs} {op.r(ref)}")


async def context(op: Op, look: lk.Look) -> None:
    """The reads the request's words call for beyond the workload itself."""
    names = await lk.metric_names(op)
    if names:
        await lk.metrics(op, look, names)
        for alert in await lk.alerts(op):
            labels = alert.get("labels") or {}
            if isinstance(labels, dict) and look.name in labels.values():
                name = labels.get("alertname", "alert")
                op.rep.situation.append(
                    f"ALERT {name} {alert.get('state', '')} for {look.name} "
                    f"mid-check {op.r(op.n)} -> pivoted to memory"
                )
                op.trigger = f"alert {name}"
                look.oom = look.oom or False
    if look.kind == "deployment":
        await lk.rollout(op, look)
    if (
        names
        and ("container_memory_working_set_bytes" in names)
        and (look.oom or re.search(r"memory|mem\b|doing|health|worry|restart", op.low))
    ):
        await lk.memory(op, look)
    if re.search(r"\bcpu\b|node", op.low):
        await node_cpu(op, look)


async def node_cpu(op: Op, look: lk.Look) -> None:
    """The requester's CPU theory, checked: which node is hot, what runs there, where ours is."""
    out = await op.k("top nodes", "node CPU (requester's theory)")
    r_top = op.n
    nodes = rd.table(out)
    if not nodes:
        return
    hot = max(nodes, key=lambda r: int((r.get("cpu%") or "0").rstrip("%") or 0))
    out = await op.k(f"get pods -n {look.ns} -o wide", "which pod runs on which node")
    r_wide = op.n
    rows = rd.table(out)
    ours = [r for r in rows if r.get("name", "").startswith(look.name)]
    our_node = ours[0].get("node", "") if ours else ""
    out = await op.k(f"top pods -n {look.ns}", "CPU per pod")
    r_pods = op.n
    busy = max(rd.table(out), key=lambda r: rd.quantity(r.get("cpu(cores)", "0")) or 0, default={})
    rep = op.rep
    rep.situation.append(
        f"node {hot.get('name')} CPU {hot.get('cpu%')} {op.r(r_top)}; top consumer "
        f"{busy.get('name', '?')} {busy.get('cpu(cores)', '?')} {op.r(r_pods)}"
    )
    if our_node and our_node != hot.get("name"):
        other = next((r for r in nodes if r.get("name") == our_node), {})
        rep.assessment.append(
            f"RULED OUT node CPU: NO, it is a red herring, not the cause. {look.name} runs on "
            f"{our_node} (CPU {other.get('cpu%', '?')}) {op.r(r_wide, r_top)}, not on "
            f"{hot.get('name')}; the hot node is {busy.get('name', 'another pod')}'s "
            "(noisy neighbour), a separate issue."
        )
    else:
        rep.assessment.append(
            f"RULED OUT node CPU as the cause of the restarts: CPU contention throttles, "
            f"it does not kill a container {op.r(r_top)}."
        )


async def others(op: Op, look: lk.Look) -> Cause | None:
    """No fault in the pod itself: a recent deploy, a blocking policy, a memory trend, a
    transient dependency error, else nothing proven."""
    from . import operator_heldout43_obs as obs

    if re.search(r"reach|connect|network|traffic|talk to", op.low):
        found = await obs.policies(op, look)
        if found:
            return found
    if "connection" in op.low:
        from .operator_heldout43_fix3 import conn_cap

        found = await conn_cap(op, look)
        if found:
            return found
    if look.recent_rs:
        new, old, age = look.recent_rs
        errs = [m for m in look.metrics if "error" in m and not m.startswith("normal_")]
        ev = await op.k(
            f"get events -n {look.ns} --sort-by=.lastTimestamp", "recent events/deploys"
        )
        r_ev = op.n
        seen = [ln for ln in ev.splitlines() if look.name in ln]
        if seen:
            op.rep.situation.append(f"event: '{lk.short(seen[-1], 110)}' {op.r(r_ev)}")
        if errs or look.logs:
            refs = [look.ref_rs, r_ev] + [look.metrics[m][1] for m in errs]
            return Cause(
                "deploy",
                f"bad rollout: new RS w/ image {new} went out ~{age} ago "
                f"(prev {old}); errors started after it",
                refs,
                f"rollout undo -> {old}",
            )
    mem = look.series.get("memory")
    if mem and len(mem[0]) >= 3:
        return await obs.memory_trend(op, look)
    transient = [m for _, m, _ in look.prev_logs + look.logs if "transient" in m.lower()]
    if transient:
        ref = look.ref_prev or look.ref_logs
        return Cause(
            "transient",
            f"transient dependency error at start ('{lk.short(transient[0], 80)}'); "
            "pod stuck in back-off after it",
            [ref, look.ref_desc],
        )
    return None
