"""``heldout26``'s investigations that follow a path: connectivity (network policies), a 5xx
chain from the edge to the workload, a health check that meets a new alert, a misleading CPU
signal beside an OOM, and a broken migration whose fix needs a human's go-ahead."""

from __future__ import annotations

import json
import re

from .operator_heldout26 import Postmortem
from .operator_heldout26_dig import Finding, dig, memory_series
from .operator_read import alerts, items, load_yaml, mib, prom_series, quantity, trend


def _labels(pm: Postmortem, name: str) -> dict[str, str]:
    sel = pm.deploys.get(name, {}).get("selector", "") or f"app={name}"
    return dict(kv.split("=", 1) for kv in sel.split(",") if "=" in kv)


def _selects(policy: dict, labels: dict[str, str]) -> bool:
    want = ((policy.get("spec") or {}).get("podSelector") or {}).get("matchLabels") or {}
    return all(labels.get(k) == v for k, v in want.items())


def _admits(rule: dict, labels: dict[str, str]) -> bool:
    for peer in rule.get("from") or [{}]:
        sel = (peer.get("podSelector") or {}).get("matchLabels")
        if peer == {} or (sel is not None and all(labels.get(k) == v for k, v in sel.items())):
            return True
    return False


async def network(pm: Postmortem) -> bool:
    """Source cannot reach target: find the policy on the target that leaves the source out."""
    named = sorted(pm.named(), key=lambda n: pm.low.index(n.lower()))
    if len(named) < 2:
        return False
    src, dst = named[0], named[1]
    raw = await pm.k(
        f"get networkpolicies -n {pm.ns} -o yaml",
        f"to discover every NetworkPolicy that could block {src} -> {dst}",
    )
    pols = items(raw)
    pm.note(
        "We discovered the NetworkPolicies in "
        + pm.ns
        + ": "
        + ", ".join(str(p["metadata"]["name"]) for p in pols)
        + "."
    )
    s_lab, d_lab = _labels(pm, src), _labels(pm, dst)
    blocking = [
        p
        for p in pols
        if _selects(p, d_lab)
        and "Ingress" in ((p.get("spec") or {}).get("policyTypes") or ["Ingress"])
        and not any(_admits(r, s_lab) for r in (p.get("spec") or {}).get("ingress") or [])
    ]
    if not blocking:
        return False
    pol = blocking[0]
    name = pol["metadata"]["name"]
    rules = (pol.get("spec") or {}).get("ingress") or []
    allowed = json.dumps(rules, sort_keys=True) if rules else "nothing (no ingress rule)"
    pm.why(
        f"can {src} not reach {dst}",
        f"the NetworkPolicy {name} selects {dst}'s pods and denies ingress from {src}",
    )
    pm.why(
        f"does {name} deny {src}",
        f"it admits only {allowed}; {src}'s pods carry {json.dumps(s_lab)}, which no rule matches, "
        "so their packets are dropped",
    )
    fix = {"from": [{"podSelector": {"matchLabels": s_lab}}]}
    pm.tldr = f"the NetworkPolicy {name} blocks {src} -> {dst}; the targeted fix is one ingress rule admitting {src}'s pods."
    if not pm.writable or not re.search(r"\bfix\b", pm.low):
        pm.hold(f"We did not edit {name}; the fix is proposed below.")
        pm.item(
            f"{dst} owners",
            f"Add to {name} the ingress rule {json.dumps(fix)}.",
            "it opens only the path that is needed.",
        )
        return True
    patch = {"spec": {"ingress": [*rules, fix]}}
    await pm.k(
        f"patch networkpolicy {name} -n {pm.ns} --type merge -p '{json.dumps(patch, sort_keys=True)}'",
        f"to admit {src}'s pods only (the targeted fix, not deleting the policy)",
        f"networkpolicy/{name} ingress += from podSelector {json.dumps(s_lab)}",
    )
    await pm.k(f"get networkpolicy {name} -n {pm.ns} -o yaml", "to verify the rule is in place")
    pm.tldr += (
        " We applied it and verified it; the rest of the policy still restricts everyone else."
    )
    pm.hold(f"We did not delete {name} or open {dst} to all pods: the policy still protects it.")
    return True


async def chain(pm: Postmortem) -> bool:
    """A 5xx at the edge: ingress -> service -> endpoints -> the workload behind it."""
    ing = items(
        await pm.k(
            f"get ingress -n {pm.ns} -o yaml", "to start from the edge that returns the errors"
        )
    )
    backends = sorted(set(re.findall(r"'name': '([a-z0-9-]+)'", str([i.get("spec") for i in ing]))))
    svcs = [b for b in backends if b not in [i["metadata"]["name"] for i in ing]]
    for svc in svcs:
        ep = await pm.k(
            f"get endpoints {svc} -n {pm.ns}", f"to see whether {svc} has ready backends"
        )
        doc = load_yaml(
            await pm.k(f"get service {svc} -n {pm.ns} -o yaml", f"to find the pods behind {svc}")
        )
        sel = ((doc or {}).get("spec") or {}).get("selector") or {} if isinstance(doc, dict) else {}
        owner = next(
            (
                d
                for d in pm.deploys
                if all(_labels(pm, d).get(k) == v for k, v in sel.items()) and sel
            ),
            "",
        )
        if not owner:
            continue
        empty = "<none>" in ep or not re.search(r"\d+\.\d+\.\d+\.\d+:\d+", ep)
        side = await pm.use(
            "logs_query",
            f"logs_query namespace={pm.ns} filter=upstream",
            "to read the proxy/sidecar errors",
            namespace=pm.ns,
            filter="upstream",
            tail=20,
        )
        edge = f"the ingress {ing[0]['metadata']['name']}" if ing else "the ingress"
        pm.why(
            "does the public API return 503",
            f"{edge} routes to the service {svc}, and the proxy has no healthy upstream",
        )
        if side.strip():
            line = side.strip().splitlines()[-1]
            pm.why(
                "does the proxy/mesh sidecar fail",
                f'the logs show "{re.sub(r"^.*?}} ?", "", line)[:160]}"',
            )
        pm.why(
            f"has {svc} no healthy upstream",
            f"its endpoints are {'empty' if empty else 'not ready'}: no pod of {owner} is Ready",
        )
        f = await dig(pm, owner)
        if f.cause:
            pm.tldr = f"the 503s trace back through {edge} -> service {svc} -> {owner}; root cause: {f.cause}."
            await _after_chain(pm, f)
        return True
    return False


async def _after_chain(pm: Postmortem, f: Finding) -> None:
    pm.hold("We did not restart the ingress or the proxy: they are symptoms, not the cause.")
    if f.fix:
        pm.item(
            f"{f.name} owners",
            f"{f.fix[0].upper()}{f.fix[1:]}.",
            f"it is the root cause: {f.cause}.",
        )


async def health(pm: Postmortem, name: str) -> Finding:
    """A health check: the workload, its memory over time, and any alert that fires meanwhile."""
    f = await dig(pm, name)
    used = await memory_series(pm, name) if f.kind != "oom" else []
    limit = next(
        (c.limits.get("memory") for p in f.pods for c in p.containers if c.limits.get("memory")), ""
    )
    fired = (
        alerts(
            await pm.use(
                "metrics_query",
                "metrics_query alerts",
                "to see whether any alert fired meanwhile",
                action="alerts",
            )
        )
        if pm.has("metrics_query")
        else []
    )
    for a in fired:
        lab = a.get("labels", {})
        if name in json.dumps(lab) or name in json.dumps(a.get("annotations", {})):
            pm.prompted = f"the {lab.get('alertname', 'new')} alert on {name}"
            summary = a.get("annotations", {}).get("summary", lab.get("alertname"))
            pm.why(
                f"did we look at {name}'s memory",
                f"the alert {lab.get('alertname')} fired while we checked ({summary}), so we followed it",
            )
            used = used or await memory_series(pm, name)
            await pm.k(
                f"top pods -n {pm.ns} -l app={name}",
                f"to read {name}'s current memory, prompted by the alert",
            )
    if used:
        _memory_risk(pm, f, used, limit)
        cap = quantity(limit) if limit else None
        if cap and not f.sure:
            share = used[-1] / cap
            f.cause = f"memory is at {mib(used[-1])} of its {limit} limit ({share:.0%}), steady"
            f.sure = share >= 0.8
            room = "little" if share >= 0.8 else "enough"
            pm.why(
                f"is {name} {'close to' if share >= 0.8 else 'below'} its memory limit",
                f"it uses {mib(used[-1])} of {limit} ({share:.0%}); the series is flat over 6h, "
                f"so it is not leaking, and there is {room} headroom for a spike",
            )
            if not f.sure:
                ready = pm.deploys.get(name, {}).get("ready", "?")
                f.detail["health"] = (
                    f"{name} is healthy: {ready} pods ready, memory {mib(used[-1])} of "
                    f"{limit} ({share:.0%}) and flat over 6h"
                )
            if share >= 0.6:
                f.fix = (
                    f"raise the memory limit above {limit} or trim the working set; keep the alert"
                )
    return f


def _memory_risk(pm: Postmortem, f: Finding, used: list[float], limit: str) -> None:
    rising = trend(used) == "rising"
    cap = quantity(limit) if limit else None
    if not rising:
        return
    pm.why(
        f"are we worried about {f.name}'s memory" if rising else f"is {f.name}'s memory fine",
        f"the 6h memory series went {mib(used[0])} -> {mib(used[-1])}"
        + (
            ", rising steadily at every step (a leak-like growth, not a one-off spike)"
            if rising
            else ", flat"
        ),
    )
    if rising and cap:
        per = (used[-1] - used[0]) / max(len(used) - 1, 1)
        left = (cap - used[-1]) / per if per > 0 else 0
        hours = left * 0.5
        pm.why(
            "is there an OOM risk",
            f"at {mib(per * 2)}/h it reaches the {limit} limit in about {hours:.0f}h; then the "
            "container will be OOMKilled",
        )
        f.fix = f"raise the memory limit above {limit} now and find the leak; watch it until then"
        f.sure = True
        f.cause = f"memory is growing steadily ({mib(used[0])} -> {mib(used[-1])}) toward its {limit} limit: an OOM kill in about {hours:.0f}h"


async def cpu_red_herring(pm: Postmortem, f: Finding) -> None:
    """The prompt blames node CPU: we check it and say why it is not the cause."""
    if not pm.has("metrics_query"):
        return
    out = await pm.use(
        "metrics_query",
        "metrics_query container_cpu_usage_cores",
        "to see who burns the node's CPU",
        action="query",
        query="container_cpu_usage_cores",
    )
    cpu = await pm.use(
        "metrics_query",
        "metrics_query instance:node_cpu_utilisation:rate5m",
        "to read the node CPU the request mentions",
        action="query",
        query="instance:node_cpu_utilisation:rate5m",
    )
    for lab, v in prom_series(cpu):
        if v and v[-1] > 0.8:
            pm.why(
                "did the node look suspicious",
                f"{lab.get('instance', lab.get('node', 'a node'))} CPU utilisation is {v[-1]:.0%}",
            )
    top = [(lab.get("pod", "?"), v[-1]) for lab, v in prom_series(out) if v]
    top.sort(key=lambda t: -t[1])
    hog = top[0][0] if top else "another pod"
    pm.why(
        "is the pegged node CPU not the cause",
        f"the CPU is burned by {hog} ({top[0][1]:.2f} cores)"
        if top
        else "the CPU is burned by another pod",
    )
    pm.why(
        f"is {hog} only a misleading signal",
        f"CPU contention throttles a container, it does not kill it; {f.name} is OOMKilled (exit code 137), "
        "which is memory, so the noisy neighbour is a red herring",
    )
    pm.item(
        "batch job owners",
        f"Set CPU limits on {hog} or move it to a batch node pool.",
        "it is a noisy neighbour, though not this outage's cause.",
    )


async def migration(pm: Postmortem, name: str) -> bool:
    if not pm.has("database"):
        return False
    f = await dig(pm, name)
    st = await pm.use(
        "database",
        "database migrations status",
        "to see which migration ran last",
        query="migrations status",
    )
    rows = [ln for ln in st.splitlines() if re.search(r"\d{3}", ln)]
    cells = [c.strip() for c in rows[-1].strip().strip("|").split("|")] if rows else []
    version = next((c for c in cells if re.fullmatch(r"\d{3,}", c)), "")
    title = next((c for c in cells if re.search(r"[a-z] [a-z]", c)), "")
    last = f"migration {version} ('{title}')" if version else "the latest migration"
    col = re.search(r"column '?\"?([\w.]+)", f.cause + " " + f.logs)
    column = f"the {col.group(1)} column" if col else "what it added"
    pm.why(f"is {name} broken", f'the logs show "{f.cause or "errors"}" right after the migration')
    pm.why(
        "did the migration break it",
        f"the migration history ends with {last}; the application's queries no longer match "
        f"the schema it left ({column})",
    )
    pm.why(
        "are we not fixing it right away",
        f"the fix is a schema change on the live user data: rolling {last} back would drop "
        f"{column} and every value written to it since it ran, a data loss we could not undo",
    )
    pm.tldr = f"{name} broke with the last migration ({last}); the fix is a risky schema change, so we present a plan for approval."
    pm.note(
        "Proposed plan, for approval: (1) take a database backup/snapshot; (2) roll the application "
        "back to the version that matches the schema, or write a forward migration that restores the "
        "missing schema; (3) re-run it in staging; (4) apply, then verify the error rate."
    )
    pm.hold(
        "We did not run any migration, rollback or write: the data risk needs a human's approval first."
    )
    pm.item(
        f"{name} owners / DBA",
        "Approve (or amend) the plan above; we will execute it once approved.",
        "it risks data loss.",
    )
    return True
