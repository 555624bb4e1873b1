"""``heldout17``'s plays, continued: canary, runbook, HA, rollouts, networking, scheduling and
the fix after a diagnosis. Generic practice; no scenario id anywhere."""

from __future__ import annotations

import json
import re

from . import operator_heldout17_look as look
from .operator_heldout17 import Finding, Shift
from .operator_read import load_yaml, table


def _dump(obj: object) -> str:
    """A patch body quoted for the kubectl command line."""
    return "'" + json.dumps(obj, separators=(",", ":")) + "'"


async def _verify(shift: Shift, ns: str, name: str) -> None:
    from .operator_heldout17_plays import verify

    await verify(shift, ns, name)


def _rate(values: dict[str, list[float]]) -> tuple[str, float] | None:
    """The error-rate series of a service (as a percentage), if it has one."""
    for metric in sorted(values):
        if "error" in metric and values[metric]:
            v = values[metric][-1]
            return metric, v * 100 if v <= 1 else v
    return None


async def numbers_and_history(shift: Shift, ns: str, name: str) -> None:
    """The service's metrics over 6h and its rollout history, onset vs last deploy."""
    values = await look.service_numbers(shift, ns, name)
    raw = shift.raw_metrics
    shift.series.update(values)
    for metric in sorted(values)[:6]:
        v = values[metric]
        shift.numbers.append(
            (f"`{metric}`", f"`{_num(metric, v[0])}` -> `{_num(metric, v[-1])}` (6h)")
        )
    hist = await shift.k(
        f"rollout history deployment/{name} -n {ns}", f"when `{name}` last changed"
    )
    rs = table(await shift.k(f"get rs -n {ns} -o wide", "which ReplicaSet is new and how old"))
    mine = [r for r in rs if r.get("name", "").startswith(name + "-")]
    scaled = [
        e
        for e in shift.events.get(ns, [])
        if name in e.get("object", "") and "Scaled" in e.get("reason", "") + e.get("message", "")
    ]
    revs = re.findall(r"^(\d+)\s+(.*)$", hist, re.M)
    if len(revs) >= 2 or scaled:
        ages = ", ".join(
            f"`{r.get('name')}` age `{r.get('age')}` image `{r.get('images', '?')}`"
            for r in mine[:2]
        )
        shift.numbers.append((f"`{name}` rollouts", ages or f"{len(revs)} revisions"))
        if scaled:
            shift.numbers.append(
                (
                    "deploy event",
                    f"`{scaled[0].get('message', '')[:80]}` (`{scaled[0].get('last seen', '?')}` ago)",
                )
            )
        onset = _onset(values)
        new_rs = min(mine, key=lambda r: _minutes(r.get("age", "")), default={})
        old_rs = max(mine, key=lambda r: _minutes(r.get("age", "")), default={})
        deployed = _minutes(new_rs.get("age", ""))
        started = _onset_minutes(look.stamped(raw, next(iter(sorted(values)), "")))
        if onset and deployed < 10**6:
            lag = (
                f", ~`{deployed - started:.0f} min` after the rollout"
                if started is not None
                else ""
            )
            when = f" ~`{started:.0f} min` ago{lag}" if started is not None else ""
            shift.findings.append(
                Finding(
                    cause=f"`{new_rs.get('images', 'the new version')}`, rolled out `{new_rs.get('age')}` ago, is the likely cause: the errors start right after that deploy",
                    chain=[
                        f"deploy `{old_rs.get('images', '?')}` -> `{new_rs.get('images', '?')}` `{new_rs.get('age')}` ago",
                        f"errors jump{when}",
                        "still climbing now",
                    ],
                    facts=[onset, ages],
                    fix=f"`kubectl rollout undo deployment/{name}` back to `{old_rs.get('images', 'the previous image')}`, then watch the error rate",
                    kind="deploy",
                )
            )


def _minutes(age: str) -> float:
    """A kubectl AGE (``25m``, ``7d``, ``3h12m``) in minutes; huge when unreadable."""
    total, found = 0.0, False
    for n, unit in re.findall(r"(\d+)([smhd])", age):
        total += int(n) * {"s": 1 / 60, "m": 1, "h": 60, "d": 1440}[unit]
        found = True
    return total if found else float(10**7)


def _onset_minutes(points: list[tuple[float, float]]) -> float | None:
    """Minutes before the last sample at which the value first tripled its first sample."""
    if len(points) < 3:
        return None
    base = max(points[0][1], 1e-9)
    jump = next((t for t, v in points if v > 3 * base), None)
    return (points[-1][0] - jump) / 60 if jump is not None else None


def _num(metric: str, v: float) -> str:
    """A series value with its unit, as the metric's name says it."""
    if metric.endswith("_ms"):
        return f"{v:.0f} ms"
    if "rate" in metric and v <= 1:
        return f"{v * 100:.1f}%"
    return f"{v:.4g}"


def _pct(v: float) -> str:
    return f"{v * 100:.1f}%" if v <= 1 else f"{v:.3g}"


def _onset(values: dict[str, list[float]]) -> str:
    for metric in sorted(values):
        v = values[metric]
        if "error" in metric and len(v) > 2 and v[-1] > 3 * max(v[0], 1e-9):
            jump = next((i for i in range(1, len(v)) if v[i] > 3 * max(v[0], 1e-9)), len(v) - 1)
            return f"`{metric}` `{_pct(v[0])}` -> `{_pct(v[-1])}` (first jump at sample {jump} of {len(v)})"
    return ""


async def canary(shift: Shift, targets: list[str]) -> None:
    """Check the canary's error rate against the message's threshold, then take that branch."""
    ns = shift.ns
    names = shift.all_names()
    can = next((n for n in names if "canary" in n), "")
    if not can:
        shift.asks.append("I can't find a canary deployment here: which one do you mean?")
        return
    m = re.search(r"(\d+(?:\.\d+)?)\s*%", shift.prompt)
    limit = float(m.group(1)) if m else 2.0
    values = await look.service_numbers(shift, ns, can)
    rate = _rate(values)
    if rate is None:
        found = await look.series(
            shift,
            f'rate(http_requests_total{{namespace="{ns}", service="{can}", code=~"5.."}}[5m])',
            "5xx rate of the canary",
        )
        shift.asks.append(
            "no error-rate series for the canary: can you point me at it?"
        ) if not found else None
        return
    metric, pct = rate
    shift.numbers += [(f"`{can}` `{metric}`", f"`{pct:.1f}%`"), ("threshold", f"`< {limit:g}%`")]
    doc = (
        load_yaml(await shift.k(f"get deployment {can} -n {ns} -o yaml", "canary replicas + image"))
        or {}
    )
    now = int((doc.get("spec") or {}).get("replicas") or 0) if isinstance(doc, dict) else 0
    if pct >= limit:
        shift.findings.append(
            Finding(
                cause=f"canary `{can}` is unhealthy: `{pct:.1f}%` errors vs `< {limit:g}%` allowed",
                kind="canary",
            )
        )
        await shift.k(
            f"scale deployment/{can} -n {ns} --replicas=0",
            f"error rate {pct:.1f}% >= {limit:g}% -> the rollback branch: take the canary out of traffic",
            delta=f"replicas {now} -> 0",
        )
        await shift.k(f"get deployment {can} -n {ns}", "canary at 0 now")
        await shift.k(f"get pods -n {ns}", "stable pods still serving")
        shift.done.append(f"rolled back: `{can}` scaled `{now}` -> `0`; stable kept serving")
    else:
        shift.done.append(f"canary healthy (`{pct:.1f}%` < `{limit:g}%`); bumping is next")


async def runbook(shift: Shift, name: str) -> None:
    """The error-rate runbook: log pattern -> recent deploy? -> rollback -> re-check rate."""
    ns = shift.ns
    await look.diagnose(shift, ns, name)
    await numbers_and_history(shift, ns, name)
    deploy = next((f for f in shift.findings if f.kind == "deploy"), None)
    rs = table(await shift.k(f"get rs -n {ns} -o wide", "old vs new ReplicaSet"))
    mine = sorted(
        (r for r in rs if r.get("name", "").startswith(name + "-")), key=lambda r: r.get("age", "")
    )
    if deploy is None and len(mine) < 2:
        shift.dismissed.append(
            "no deploy in the last 30 min -> the runbook's rollback step doesn't apply"
        )
        shift.asks.append(
            "no recent deploy to undo; do you want me to dig into the code path instead?"
        )
        return
    await shift.k(
        f"rollout undo deployment/{name} -n {ns}",
        "runbook step 3: recent deploy -> roll back to the previous revision",
        delta=f"image {(mine[0].get('images') if mine else 'new')} -> previous revision",
    )
    await _verify(shift, ns, name)
    after = await look.service_numbers(shift, ns, name)
    rate = _rate(after)
    if rate:
        shift.numbers.append(("error rate after rollback", f"`{rate[1]:.2f}%`"))
    shift.done.append(f"`{name}` rolled back to the previous revision, error rate re-checked")


async def make_ha(shift: Shift, name: str) -> None:
    """3 replicas spread over nodes (anti-affinity) and a PDB; HPA left out on purpose."""
    ns = shift.ns
    doc = (
        load_yaml(await shift.k(f"get deployment {name} -n {ns} -o yaml", f"`{name}` spec now"))
        or {}
    )
    spec = doc.get("spec", {}) if isinstance(doc, dict) else {}
    now = int(spec.get("replicas") or 1)
    labels = ((spec.get("selector") or {}).get("matchLabels")) or {"app": name}
    nodes = table(await shift.k("get nodes", "how many nodes to spread over"))
    await shift.k(f"get pdb -n {ns}", "existing PDB")
    await shift.k(f"get hpa -n {ns}", "existing HPA")
    want = max(3, now) if len(nodes) >= 3 else max(2, now)
    shift.numbers += [
        ("nodes Ready", f"`{len(nodes)}`"),
        (f"`{name}` replicas", f"`{now}` -> `{want}`"),
    ]
    plan = [
        f"1. scale `{name}` `{now}` -> `{want}` replicas so one node down still leaves {want - 1}",
        f"2. patch `{name}` with pod anti-affinity (preferred, weight 100) on `kubernetes.io/hostname` so its pods spread one per node without blocking the rollout",
        f"3. create PDB `{name}` with `minAvailable: {want - 1}` so a drain can't take more than one at a time",
        f"4. verify `{name}`: pods on distinct nodes, PDB allows 1 disruption",
    ]
    shift.plan = plan
    affinity = {
        "podAntiAffinity": {
            "preferredDuringSchedulingIgnoredDuringExecution": [
                {
                    "weight": 100,
                    "podAffinityTerm": {
                        "labelSelector": {"matchLabels": labels},
                        "topologyKey": "kubernetes.io/hostname",
                    },
                }
            ]
        }
    }
    patch = {"spec": {"replicas": want, "template": {"spec": {"affinity": affinity}}}}
    await shift.k(
        f"patch deployment {name} -n {ns} --type strategic -p {_dump(patch)}",
        "plan steps 1+2: more replicas, one per node",
        delta=f"replicas {now} -> {want}; affinity none -> podAntiAffinity(hostname)",
    )
    pdb = {
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": {"name": name, "namespace": ns},
        "spec": {"minAvailable": want - 1, "selector": {"matchLabels": labels}},
    }
    out = await shift.tools.call("kubectl", command=f"apply -n {ns} -f -", stdin=json.dumps(pdb))
    failed = bool(shift.tools.calls and shift.tools.calls[-1].error)
    from .operator_heldout17 import Step

    shift.steps.append(
        Step(
            f"kubectl apply -f - (PDB {name})",
            "plan step 3: cap voluntary disruptions",
            shift.trigger,
            f"PDB none -> {name} minAvailable={want - 1}",
            failed,
        )
    )
    await _verify(shift, ns, name)
    wide = table(
        await shift.k(f"get pods -n {ns} -l app={name} -o wide", "plan step 4: one pod per node?")
    )
    spread = sorted({p.get("node", "") for p in wide})
    shift.numbers.append(("nodes used", ", ".join(f"`{n}`" for n in spread)))
    await shift.k(f"get pdb {name} -n {ns}", "plan step 4: PDB in place")
    shift.done.append(
        f"`{name}`: `{want}` replicas on {len(spread)} nodes, PDB `minAvailable={want - 1}`"
        + (f" ({out.strip()[:60]})" if out else "")
    )


async def roll_on(shift: Shift, name: str) -> None:
    """Resume a paused rollout, then watch nodes: a node going bad mid-way changes the plan."""
    ns = shift.ns
    doc = (
        load_yaml(
            await shift.k(
                f"get deployment {name} -n {ns} -o yaml", f"where `{name}`'s rollout stands"
            )
        )
        or {}
    )
    spec = doc.get("spec", {}) if isinstance(doc, dict) else {}
    await shift.k(f"rollout history deployment/{name} -n {ns}", "which revision is the new one")
    if spec.get("paused"):
        await shift.k(
            f"rollout resume deployment/{name} -n {ns}",
            "you asked me to continue it; it was paused",
            delta="paused true -> false",
        )
    await shift.k(f"rollout status deployment/{name} -n {ns} --timeout=30s", "is it progressing")
    events = table(await shift.k(f"get events -n {ns}", "anything new since I resumed"))
    nodes = await shift.k("describe nodes", "node conditions mid-rollout")
    bad = sorted(
        set(
            re.findall(
                r"Node (\S+) status is now: NodeHas(\w+Pressure)",
                " ".join(e.get("message", "") for e in events),
            )
        )
    )
    for block in nodes.split("\nName:"):
        node = block.split()[0] if block.split() else ""
        for cond in ("DiskPressure", "MemoryPressure", "PIDPressure"):
            if re.search(rf"{cond}\s+True", block):
                bad.append((node.replace("Name:", "").strip(), cond))
    bad = sorted(set(bad))
    if not bad:
        await _verify(shift, ns, name)
        shift.done.append(f"`{name}` rollout resumed and finished")
        return
    node, cond = bad[0]
    evicted = [e for e in events if e.get("reason") == "Evicted"]
    shift.findings.append(
        Finding(
            cause=f"`{node}` went `{cond}=True` while the rollout was running: new pods there get evicted",
            facts=[f"`{len(evicted)}` Evicted events", f"`{node}` `{cond}`"],
            kind="pressure",
        )
    )
    await shift.k(
        f"rollout pause deployment/{name} -n {ns}",
        f"{node} has {cond}: stop before more pods land there",
        delta="paused false -> true",
    )
    aff = {
        "nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [
                    {
                        "matchExpressions": [
                            {"key": "kubernetes.io/hostname", "operator": "NotIn", "values": [node]}
                        ]
                    }
                ]
            }
        }
    }
    await shift.k(
        f"patch deployment {name} -n {ns} --type strategic -p {_dump({'spec': {'template': {'spec': {'affinity': aff}}}})}",
        f"keep the new pods off {node} until its disk is cleaned up",
        delta=f"nodeAffinity none -> hostname NotIn [{node}]",
    )
    await shift.k(
        f"rollout resume deployment/{name} -n {ns}",
        "continue on the healthy nodes",
        delta="paused true -> false",
    )
    await _verify(shift, ns, name)
    shift.done.append(f"rollout continued on the other nodes, `{node}` avoided")
    shift.asks.append(
        f"can someone look at `{node}`'s disk? once it's clean I'll drop the NotIn affinity"
    )


async def network(shift: Shift, targets: list[str]) -> None:
    """NetworkPolicies selecting the destination that don't admit the source: widen just that."""
    ns = shift.ns
    pols = table(await shift.k(f"get networkpolicies -n {ns}", "what restricts pod traffic"))
    await shift.k(f"get svc,endpoints -n {ns}", "the service + endpoints in the path")
    src_labels, dst = {"app": targets[-1]}, targets[0]
    for a, b in ((targets[0], targets[1]), (targets[1], targets[0])):
        if shift.prompt.lower().find(a) < shift.prompt.lower().find(b):
            src_labels, dst = {"app": a}, b
    for p in pols:
        doc = (
            load_yaml(
                await shift.k(
                    f"get networkpolicy {p.get('name')} -n {ns} -o yaml", "who it lets in"
                )
            )
            or {}
        )
        spec = doc.get("spec", {}) if isinstance(doc, dict) else {}
        sel = (spec.get("podSelector") or {}).get("matchLabels") or {}
        if sel.get("app") != dst:
            continue
        ingress = spec.get("ingress") or []
        allowed = [
            f.get("podSelector", {}).get("matchLabels", {})
            for r in ingress
            for f in r.get("from", [])
        ]
        if src_labels in allowed:
            continue
        pol = p.get("name")
        shift.findings.append(
            Finding(
                cause=f"NP `{pol}` selects `app={dst}` and only admits {allowed}: `{src_labels}` is dropped",
                chain=[
                    f"`{src_labels['app']}`",
                    f"NP `{pol}` (ingress from {allowed} only)",
                    f"`{dst}` unreachable",
                ],
                kind="netpol",
            )
        )
        rules = ingress + [{"from": [{"podSelector": {"matchLabels": src_labels}}]}]
        await shift.k(
            f"patch networkpolicy {pol} -n {ns} --type merge -p {_dump({'spec': {'ingress': rules}})}",
            f"add `{src_labels['app']}` as an allowed source; keep every existing rule",
            delta=f"ingress from {allowed} -> {allowed + [src_labels]}",
        )
        await shift.k(f"get networkpolicy {pol} -n {ns} -o yaml", "re-read the policy")
        shift.done.append(f"NP `{pol}` now also admits `{src_labels['app']}`; nothing else changed")
        return
