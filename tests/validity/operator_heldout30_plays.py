"""heldout30's procedure asks (issue 27 item 6, written blind): a runbook, a canary gate, a
rolling update under changing conditions, an HA plan. Each step read first, done, verified."""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout30_fix import scale, undo, wait_rollout
from .operator_heldout30_look import fmt, metrics, survey
from .operator_heldout30_shift import ASK, Shift, ago, dig, name_of, prompt_names


async def _last_value(sh: Shift, metric: str, service: str, cue: str = ASK) -> float | None:
    out = await sh.call(
        "metrics_query",
        f"current {metric} of {service}",
        cue,
        action="query",
        query=f'{metric}{{service="{service}"}}',
    )
    got = rd.prom_series(out)
    return got[0][1][-1] if got and got[0][1] else None


async def canary(sh: Shift) -> None:
    deps = await sh.objects("deploy", "find the stable and canary deploys")
    names = [name_of(d) for d in deps]
    can = next(
        (
            n
            for n in names
            if "canary" in n and any(n.startswith(s) for s in prompt_names(sh.prompt, names))
        ),
        "",
    )
    can = can or next((n for n in names if "canary" in n), "")
    stable = next((n for n in prompt_names(sh.prompt, names) if n != can), "")
    if not can:
        sh.tldr = "Couldn't find a canary deploy; nothing changed."
        return
    limit = re.search(r"under\s+(\d+(?:\.\d+)?)\s*%", sh.prompt)
    threshold = float(limit.group(1)) / 100 if limit else 0.02
    rate = await _last_value(sh, "error_rate", can)
    latency = await _last_value(sh, "latency_p99", can)
    reading = (
        f"error_rate {fmt('error_rate', rate)}" if rate is not None else "no error_rate series"
    )
    if latency is not None:
        reading += f", latency_p99 {latency:g}ms"
    sh.evidence.append(f"{can}: {reading} (gate: error rate under {threshold * 100:g}%)")
    if rate is None:
        sh.tldr = (
            f"No error-rate reading for {can}, so I can't evaluate the gate: held, nothing changed."
        )
        sh.open_items.append("get the canary's error rate from another source before deciding")
        return
    now = int(dig(next(d for d in deps if name_of(d) == can), "spec", "replicas") or 0)
    if rate >= threshold:
        sh.cause = f"canary {can} fails the gate: {fmt('error_rate', rate)} errors vs the <{threshold * 100:g}% bar."
        line = await scale(
            sh,
            can,
            0,
            now,
            f"gate failed ({fmt('error_rate', rate)} >= {threshold * 100:g}%): roll the canary back by taking it to 0, stable keeps serving",
            f"canary gate: error_rate {fmt('error_rate', rate)}",
        )
        sh.tldr = f"Canary UNHEALTHY ({fmt('error_rate', rate)} > {threshold * 100:g}%): rolled it back, did NOT bump to 50%. {line}"
        if stable:
            state = await sh.k(
                f"get deploy {stable} -n {sh.ns}", "verify stable still serves all traffic"
            )
            sh.evidence.append("stable after: " + " ".join(state.splitlines()[1:2]))
        sh.open_items.append(f"the {can} image needs a fix before anyone retries the canary")
        return
    target = (
        int(dig(next(d for d in deps if name_of(d) == stable), "spec", "replicas") or now)
        if stable
        else now * 5
    )
    line = await scale(
        sh,
        can,
        target,
        now,
        "gate passed: bump the canary to ~50% of traffic (same size as stable)",
        "canary gate",
    )
    sh.tldr = f"Canary healthy ({fmt('error_rate', rate)}): bumped to 50%. {line}"


async def rolling(sh: Shift) -> None:
    seen = await survey(sh)
    if not seen.subject:
        sh.tldr = "Couldn't tell which deploy to roll; nothing changed."
        return
    dep = seen.subject[0]
    obj = seen.dep(dep)
    status = await sh.k(
        f"rollout status deploy/{dep} -n {sh.ns} --timeout=5s", "where the rollout stands"
    )
    if dig(obj, "spec", "paused"):
        await sh.change(
            f"rollout resume deploy/{dep} -n {sh.ns}",
            "continue the paused rollout as asked",
            ASK,
            before="paused",
            after="resumed",
        )
    nodes = await sh.k(
        "describe nodes", "node conditions before I push more po", "rollout in progress"
    )
    bad = _pressured(nodes)
    wide = rd.table(
        await sh.k(f"get po -n {sh.ns} -o wide", "where the new po land", "rollout in progress")
    )
    if not bad:
        ok, state = await wait_rollout(sh, dep, ASK)
        sh.tldr = f"Rollout of {dep} {'completed, verified' if ok else 'NOT complete'}: {state}. Status before: {status.strip()[:80]}"
        return
    node, cond = bad[0]
    stuck = [p["name"] for p in wide if p.get("node") == node and p["name"].startswith(dep)]
    sh.heads_up.append(
        f"conditions changed mid-rollout: {node} went {cond}=True, so new {dep} po landing there "
        f"fail/get evicted ({', '.join(stuck) or 'none yet'})."
    )
    affinity = {
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
    patch = json.dumps({"spec": {"template": {"spec": {"affinity": affinity}}}}, sort_keys=True)
    step = await sh.change(
        f"patch deploy {dep} -n {sh.ns} --type strategic -p '{patch}'",
        f"adapt the rollout: keep new po off {node} while it has {cond}, instead of pushing into a bad node",
        f"{node} {cond}=True (changed during the rollout)",
        before="no node affinity",
        after=f"hostname NotIn [{node}]",
    )
    ok, state = await wait_rollout(sh, dep, f"{node} {cond}")
    sh.tldr = (
        f"Rolled {dep} forward but steered around {node} ({cond}): "
        f"{'verified, all new po ready' if ok and not step.failed else 'NOT fully ready'} ({state})."
    )
    sh.open_items.append(
        f"{node} {cond}: node owners to clear it; then drop the NotIn {node} affinity from {dep}"
    )


def _pressured(describe: str) -> list[tuple[str, str]]:
    out = []
    for block in re.split(r"\n(?=Name:\s)", describe):
        m = re.match(r"Name:\s+(\S+)", block.strip())
        if not m:
            continue
        for cond in ("DiskPressure", "MemoryPressure", "PIDPressure"):
            if re.search(rf"^\s*{cond}\s+True", block, re.M):
                out.append((m.group(1), cond))
        if re.search(r"^\s*Ready\s+(False|Unknown)", block, re.M):
            out.append((m.group(1), "NotReady"))
    return out


async def high_availability(sh: Shift) -> None:
    deps = await sh.objects("deploy", "current replicas/affinity of the deploy")
    names = prompt_names(sh.prompt, [name_of(d) for d in deps])
    if not names:
        sh.tldr = "Couldn't tell which deploy; nothing changed."
        return
    dep = names[0]
    obj = next(d for d in deps if name_of(d) == dep)
    now = int(dig(obj, "spec", "replicas") or 1)
    labels = dig(obj, "spec", "selector", "matchLabels") or {"app": dep}
    await sh.k(f"get pdb,hpa -n {sh.ns}", "any pdb/hpa already on it")
    await sh.k("get nodes", "how many nodes to spread over")
    sh.heads_up.append(
        f"plan for {dep} (was {now} replica, no anti-affinity, no pdb): 1) one rollout taking it "
        "to 3 replicas with pod anti-affinity on kubernetes.io/hostname, so no two share a node, "
        "2) pdb minAvailable 2 so drains can't take more than one down, 3) verify the po are "
        "spread and ready."
    )
    anti = {
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
    patch = json.dumps(
        {"spec": {"replicas": 3, "template": {"spec": {"affinity": anti}}}}, sort_keys=True
    )
    step = await sh.change(
        f"patch deploy {dep} -n {sh.ns} --type strategic -p '{patch}'",
        "plan step 1: 3 replicas spread across nodes, so losing one node leaves 2 serving",
        ASK,
        before=f"replicas={now}, no affinity",
        after="replicas=3, anti-affinity by hostname",
    )
    if step.failed:
        sh.tldr = f"Patch failed, stopped before the pdb: {step.out.strip()[:120]}"
        return
    pdb = (
        "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n"
        f"  name: {dep}\n  namespace: {sh.ns}\nspec:\n  minAvailable: 2\n  selector:\n    matchLabels:\n"
        + "".join(f"      {k}: {v}\n" for k, v in labels.items())
    )
    pstep = await sh.change(
        "apply -f -",
        "plan step 3: pdb minAvailable 2 so a node drain can't evict more than one",
        ASK,
        before="no pdb",
        after=f"pdb/{dep} minAvailable=2",
        stdin=pdb,
    )
    ok, _state = await wait_rollout(sh, dep, "verify the plan")
    wide = rd.table(
        await sh.k(f"get po -n {sh.ns} -o wide", "verify (plan step 3): which node each po is on")
    )
    spread = sorted({p.get("node", "") for p in wide if p.get("name", "").startswith(dep + "-")})
    sh.tldr = (
        f"{dep} is HA now: 3 replicas on {len(spread)} nodes ({', '.join(spread)}), anti-affinity, "
        f"pdb minAvailable 2{'' if not pstep.failed else ' (pdb FAILED)'}; {'verified' if ok else 'NOT all ready'}."
    )


async def runbook(sh: Shift) -> None:
    m = re.search(r"\b(?:the\s+)?([a-z0-9-]+)\s+runbook", sh.prompt.lower())
    want = m.group(1) if m else ""
    cms = await sh.objects("cm", "find the runbook")
    book = next(
        (c for c in cms if want and want in name_of(c)),
        next((c for c in cms if "runbook" in name_of(c)), {}),
    )
    steps = "\n".join(str(v) for v in (book.get("data") or {}).values())
    sh.evidence.append(
        f"runbook cm/{name_of(book)}: {' | '.join(ln.strip() for ln in steps.splitlines() if ln.strip())[:300]}"
    )
    seen = await survey(sh, f"runbook {want}")
    if not seen.subject:
        sh.tldr = "Couldn't tell which deploy the runbook is for; nothing changed."
        return
    dep = seen.subject[0]
    cue = f"runbook {want}"
    from .operator_heldout30_look import dig_into

    await dig_into(sh, seen, f"{cue}: step 1, error log pattern")
    sig = rd.signal_patterns(rd.log_lines(seen.logs.get(dep, "")))
    if sig:
        sh.evidence.append(f"step 1 (log pattern): {sig[0][0]} {sig[0][1]} x{sig[0][2]}")
    await metrics(sh, seen, f"{cue}: error rate now vs baseline", "-1h")
    rs = rd.table(await sh.k(f"get rs -n {sh.ns}", f"{cue}: step 2, deploy in the last 30m?", cue))
    mine = sorted(
        ((rd.age_minutes(r.get("age", "")) or 1e9), r.get("name", ""))
        for r in rs
        if r.get("name", "").startswith(dep + "-")
    )
    image = await sh.k(
        f"rollout history deploy/{dep} -n {sh.ns}", f"{cue}: revisions to roll back to", cue
    )
    recent = bool(mine) and mine[0][0] <= 30 and len(mine) > 1
    sh.evidence.append(
        f"step 2: newest rs {mine[0][1] if mine else '?'} rolled {ago(mine[0][0]) if mine else '?'}"
    )
    if not recent:
        sh.tldr = f"Runbook: no deploy in the last 30m for {dep}, so the rollback branch doesn't apply; escalating the error pattern."
        sh.open_items.append(
            "runbook branch 'recent deploy' not met: needs the owners to look at the error pattern"
        )
        return
    _ok, line = await undo(
        sh, dep, f"{cue} step 3: deploy {ago(mine[0][0])} + errors since -> roll back", cue
    )
    rate = await _last_value(
        sh, "error_rate", dep, f"{cue}: step 4, verify error rate back to baseline"
    )
    base = await _last_value(
        sh, "normal_error_rate", dep, f"{cue}: step 4, the baseline to compare with"
    )
    shown = fmt("error_rate", rate) if rate is not None else "n/a"
    back = rate is not None and base is not None and rate <= base * 1.5
    sh.evidence.append(
        f"step 4: error_rate right after the rollback {shown} vs baseline "
        f"{fmt('error_rate', base) if base is not None else 'n/a'}: {'back to baseline' if back else 'NOT back yet'}"
    )
    if not back:
        sh.open_items.append(
            f"step 4 not confirmed yet: re-check {dep} error_rate within the runbook's 5 min window; if it stays up, the release wasn't the cause: escalate"
        )
    sh.cause = f"the rollout {ago(mine[0][0])} of {dep} brought the errors in ({sig[0][1] if sig else 'see logs'})."
    sh.tldr = f"Followed the runbook: recent deploy -> rolled {dep} back. {line}"
    sh.watch.append(
        f"{dep} error_rate over the next 5m: the runbook's bar is back to baseline; history: {image.strip().splitlines()[-1] if image.strip() else ''}"
    )
