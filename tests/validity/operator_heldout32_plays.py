"""heldout32's planned changes: scaling, image updates, rollouts, canaries, HA, runbooks (written blind).

Each reads the workload and what limits the change (capacity, an autoscaler, GitOps, node
conditions, a health threshold) before acting, and says why at every step.
"""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout32_act import may_write, scale, verify
from .operator_heldout32_chat import Thread
from .operator_heldout32_look import Dig, Scene, dig, fmt


async def _capacity(t: Thread) -> tuple[float, float, int]:
    """(free cpu cores across nodes, allocatable cores, node count) from ``describe nodes``."""
    text = await t.kubectl("describe nodes")
    alloc = [rd.quantity(x) or 0 for x in re.findall(r"Allocatable:\s*\n\s*cpu:\s+(\S+)", text)]
    used = [
        rd.quantity(x) or 0
        for x in re.findall(r"Allocated resources:.*?\n.*?\n.*?\n\s*cpu\s+(\S+)", text, re.S)
    ]
    return sum(alloc) - sum(used[: len(alloc)]), sum(alloc), len(alloc)


def _cpu_req(d: Dig) -> float:
    return sum(
        rd.quantity(str((c.get("resources") or {}).get("requests", {}).get("cpu") or "0")) or 0
        for c in d.containers
    )


async def scaling(t: Thread, scene: Scene, prompt: str) -> bool:
    m = re.search(
        r"(?:scale|replicas|set)\b.*?\bto\s+(?:exactly\s+)?(\d+)|(\d+)x\b|exactly (\d+) replicas",
        prompt,
        re.I,
    )
    if (
        not m
        or not re.search(r"scale|replica", prompt, re.I)
        or scene.subject is None
        or re.search(r"=", prompt)
    ):
        return False
    ns, name = scene.subject
    d = await dig(t, scene, ns, name)
    now = d.replicas
    per = _cpu_req(d)
    free, total, count = await _capacity(t)
    t.say(
        f"{name} now: {now} replicas, cpu request {per * 1000:.0f}m each. cluster: {count} nodes, "
        f"{total:g} cores allocatable, ~{free:.2f} cores unrequested"
    )
    if m.group(2):
        to = now * int(m.group(2))
        t.say(
            f"{m.group(2)}x load on {now} replicas -> {to} replicas, assuming load spreads evenly across pods"
        )
    else:
        to = int(m.group(1) or m.group(3))
    need = (to - now) * per
    hpa = [
        r for r in rd.table(await t.kubectl(f"get hpa -n {ns}")) if name in r.get("reference", "")
    ]
    if hpa:
        t.say(
            f"wait, hpa {hpa[0].get('name')} manages {name} ({hpa[0].get('minpods')}-{hpa[0].get('maxpods')}). "
            "a manual scale would just get overwritten"
        )
    notes = {
        k: v
        for k, v in d.annotations.items()
        if not k.startswith(("deployment.kubernetes.io", "kubectl."))
    }
    if notes:
        t.say(f"{name} annotations: {', '.join(f'{k}={v}' for k, v in notes.items())}")
    if per and need > free:
        fits = now + int(free // per) if per else now
        t.say(
            f"hmm, {to} replicas needs ~{need:.1f} more cores and we have ~{free:.2f}. that doesn't fit "
            f"(max ~{fits} total). not doing it as asked -- @requester confirm the number? {fits} fits today"
        )
        t.sum_up(
            f"{name} not scaled: {to} replicas needs {need:.1f} cores, only {free:.2f} free. proposed {fits}."
        )
        return True
    ok, why = may_write(t, scene, ns)
    if scene.production(ns):
        t.say(
            f"{ns} is production ({', '.join(f'{k}={v}' for k, v in scene.labels(ns).items() if 'kubernetes.io' not in k)}), "
            "so: capacity checked first, scaling up only (no pods lost), and we watch it after"
        )
    if not ok:
        t.sum_up(f"{name} not scaled ({why}); plan: {now} -> {to}.")
        return True
    if hpa:
        t.sum_up(
            f"{name} not scaled: hpa {hpa[0].get('name')} owns its replica count; change the hpa bounds instead?"
        )
        return True
    done = await scale(t, ns, name, now, to, "as asked")
    t.sum_up(
        f"{name} replicas {now} -> {to}" + (", all Ready" if done else ", not all Ready yet") + "."
    )
    return True


async def image(t: Thread, scene: Scene, prompt: str) -> bool:
    m = re.search(r"image(?: tag)?\s+([\w.\-:/]+)", prompt, re.I)
    if not m or scene.subject is None or "rolling update" in prompt.lower():
        return False
    ns, name = scene.subject
    tag = m.group(1).rstrip(".")
    d = await dig(t, scene, ns, name)
    cur = d.containers[0].get("image", "") if d.containers else ""
    t.say(f"{name} runs {cur} today, ask is {tag}")
    owned = {
        k: v
        for k, v in {**d.labels, **d.annotations}.items()
        if re.search(r"argocd|flux|gitops|managed-by|instance", k)
    }
    apps = await t.run("gitops", command="app list") if t.has("gitops") else ""
    mine = [ln for ln in apps.splitlines() if name in ln]
    if owned or mine:
        t.say(
            f"{name} is managed by gitops ({', '.join(f'{k}={v}' for k, v in owned.items()) or mine[0].split()[0]}). "
            "if we `kubectl set image` live, argo flags drift and reverts it on the next sync"
        )
        if mine:
            got = await t.run("gitops", command=f"app get {mine[0].split()[0]}")
            repo = re.search(r"(?:Repo(?:URL)?|Path|Target)\b[^\n]*\S", got)
            t.say(
                f"argo app {mine[0].split()[0]}: {repo.group(0).strip() if repo else mine[0].strip()}"
            )
        t.say(
            f"so not patching the cluster. the change is a PR bumping {name} to {tag} in the app's repo; "
            "@app-owners can you merge it (we don't have git write)? argo rolls it out after"
        )
        t.sum_up(
            f"{name} image not changed live (gitops-managed, would drift); needs a git change to {tag}."
        )
        return True
    ok, why = may_write(t, scene, ns)
    if not ok:
        t.sum_up(f"{name} image not changed ({why}).")
        return True
    c = d.containers[0].get("name") if d.containers else name
    new = cur.rsplit(":", 1)[0] + ":" + tag.split(":")[-1]
    t.say(
        f"updating {c} image {cur} -> {new}: `kubectl set image deployment/{name} -n {ns} {c}={new}`"
    )
    await t.kubectl(f"set image deployment/{name} -n {ns} {c}={new}")
    done = await verify(t, ns, name, f"the image {new}")
    t.sum_up(
        f"{name} image {cur} -> {new}"
        + (", healthy." if done else ", not healthy after, see above.")
    )
    return True


async def _pressure(t: Thread) -> list[str]:
    text = await t.kubectl("describe nodes")
    out = []
    for block in re.split(r"\n(?=Name:\s)", text):
        node = re.match(r"\s*Name:\s+(\S+)", block)
        for cond in re.findall(r"^\s+(\w+Pressure|Ready)\s+(True|False|Unknown)", block, re.M):
            bad = cond[1] == "True" if cond[0] != "Ready" else cond[1] != "True"
            if node and bad:
                out.append(f"{node.group(1)} {cond[0]}={cond[1]}")
    return out


def _avoid(nodes: list[str]) -> dict[str, object]:
    """A pod template patch keeping new pods off ``nodes``."""
    term = {"key": "kubernetes.io/hostname", "operator": "NotIn", "values": nodes}
    need = {"nodeSelectorTerms": [{"matchExpressions": [term]}]}
    aff = {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": need}}
    return {"spec": {"template": {"spec": {"affinity": aff}}}}


async def rolling(t: Thread, scene: Scene, prompt: str) -> bool:
    if (
        not re.search(r"continue the rolling|resume the roll|rolling update", prompt, re.I)
        or scene.subject is None
    ):
        return False
    ns, name = scene.subject
    d = await dig(t, scene, ns, name)
    desc = await t.kubectl(f"describe deployment {name} -n {ns}")
    reps = re.search(r"Replicas:\s+(.*)", desc)
    t.say(
        f"{name}: {reps.group(1) if reps else '?'}; image {d.containers[0].get('image') if d.containers else '?'}"
    )
    t.say(
        "before pushing further let's check the nodes and alerts, nodes were fine when this started?"
    )
    issues = await _pressure(t)
    alerts = (
        [
            a
            for a in rd.alerts(await t.run("metrics_query", action="alerts"))
            if a.get("state") == "firing"
        ]
        if t.has("metrics_query")
        else []
    )
    for a in alerts:
        t.say(
            f"alert firing: {(a.get('labels') or {}).get('alertname')} {(a.get('labels') or {}).get('node', '')} "
            f"({(a.get('annotations') or {}).get('summary', '')})"
        )
    bad = sorted(
        {x.split()[0] for x in issues}
        | {
            str((a.get("labels") or {}).get("node"))
            for a in alerts
            if (a.get("labels") or {}).get("node")
        }
    )
    if not bad:
        t.say("nodes clean, no alerts. resuming the rollout")
        await t.kubectl(f"rollout resume deployment/{name} -n {ns}")
        done = await verify(t, ns, name, "resuming")
        t.sum_up(
            f"{name} rollout resumed" + (" and finished healthy." if done else ", not healthy yet.")
        )
        return True
    t.say(
        f"changed conditions: {', '.join(issues) or ', '.join(bad)}. new pods landing on {', '.join(bad)} would get evicted "
        "or fail, so we adapt: pause, keep new pods off that node, then continue"
    )
    await t.kubectl(f"rollout pause deployment/{name} -n {ns}")
    aff = _avoid(bad)
    t.say(
        f"paused. adding node affinity so {name} avoids {', '.join(bad)}: `kubectl patch deployment {name} -n {ns} -p '{json.dumps(aff)}'`"
    )
    await t.kubectl(f"patch deployment {name} -n {ns} -p '{json.dumps(aff)}'")
    await t.kubectl(f"rollout resume deployment/{name} -n {ns}")
    done = await verify(t, ns, name, f"resuming with {', '.join(bad)} avoided")
    t.sum_up(
        f"{name} rollout: {', '.join(issues) or ', '.join(bad)} showed up mid-way; paused, steered new pods off it, resumed"
        + (", healthy now." if done else ", not healthy yet -- watching.")
        + " @platform the node needs a look."
    )
    return True


async def canary(t: Thread, scene: Scene, prompt: str) -> bool:
    if "canary" not in prompt.lower() or scene.subject is None:
        return False
    ns = scene.subject[0]
    names = [n for n in scene.deployments.get(ns, []) if "canary" in n]
    if not names:
        return False
    can = names[0]
    limit = re.search(r"under\s+(\d+(?:\.\d+)?)\s*%", prompt)
    thr = float(limit.group(1)) if limit else 1.0
    d = await dig(t, scene, ns, can)
    errs = [(k, v) for k, v in d.series.items() if "error" in k]
    if not errs:
        t.say(
            f"no error-rate series for {can} that we can find. not moving traffic blind -- holding at the current split"
        )
        t.sum_up(f"canary {can}: health unknown, held where it is.")
        return True
    key, vals = errs[0]
    rate = vals[-1] * 100 if vals[-1] <= 1 else vals[-1]
    t.say(
        f"canary {can} error rate: {fmt(vals[-1], key.split('|')[0])} now (threshold {thr:g}%). "
        + ("under it, healthy" if rate < thr else "over it -- not healthy")
    )
    ok, why = may_write(t, scene, ns)
    if not ok:
        t.sum_up(f"canary at {rate:.1f}% vs {thr:g}%: {why}.")
        return True
    if rate >= thr:
        t.say(
            f"so the branch is roll back: scaling {can} to 0 so all traffic goes back to {scene.subject[1]}; "
            "leaving the stable deployment as it is"
        )
        await scale(t, ns, can, d.replicas, 0, f"canary error rate {rate:.1f}% > {thr:g}%")
        main = await verify(t, ns, scene.subject[1], "taking the canary out")
        t.sum_up(
            f"canary {can} at {rate:.1f}% errors (> {thr:g}%): rolled back (scaled to 0); {scene.subject[1]} "
            + ("serving fine." if main else "needs a look.")
        )
    else:
        t.say(f"healthy, so bumping {can} toward 50%")
        t.sum_up(f"canary healthy at {rate:.1f}%; proceeding to 50%.")
    return True


async def available(t: Thread, scene: Scene, prompt: str) -> bool:
    if (
        not re.search(r"highly available|survive node|high availability|\bHA\b", prompt, re.I)
        or scene.subject is None
    ):
        return False
    ns, name = scene.subject
    d = await dig(t, scene, ns, name)
    pdb = [r for r in rd.table(await t.kubectl(f"get pdb -n {ns}")) if name in r.get("name", "")]
    free, _, count = await _capacity(t)
    tpl = ((d.spec.get("spec") or {}).get("template") or {}).get("spec") or {}
    t.say(
        f"{name} today: {d.replicas} replica(s), pdb {'yes' if pdb else 'none'}, affinity {'set' if tpl.get('affinity') else 'none'}, "
        f"{count} nodes. one node going down takes it out completely"
    )
    t.say(
        f"plan: 1) 3 replicas ({_cpu_req(d) * 2 * 1000:.0f}m more cpu, ~{free:.2f} cores free) 2) spread them one per node "
        "(topologySpreadConstraints on hostname) 3) pdb minAvailable 2 so drains keep 2 up 4) verify pods land on different nodes"
    )
    ok, why = may_write(t, scene, ns)
    if not ok:
        t.sum_up(f"{name} HA plan above, not applied ({why}).")
        return True
    labels = d.selector or {"app": name}
    spread = {
        "spec": {
            "replicas": 3,
            "template": {
                "spec": {
                    "topologySpreadConstraints": [
                        {
                            "maxSkew": 1,
                            "topologyKey": "kubernetes.io/hostname",
                            "whenUnsatisfiable": "DoNotSchedule",
                            "labelSelector": {"matchLabels": labels},
                        }
                    ]
                }
            },
        }
    }
    t.say(f"step 1+2: `kubectl patch deployment {name} -n {ns} -p '{json.dumps(spread)}'`")
    await t.kubectl(f"patch deployment {name} -n {ns} -p '{json.dumps(spread)}'")
    body = {
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": {"name": f"{name}-pdb", "namespace": ns},
        "spec": {"minAvailable": 2, "selector": {"matchLabels": labels}},
    }
    t.say(f"step 3: pdb {name}-pdb minAvailable 2 (`kubectl apply -f -`)")
    await t.run("kubectl", command="apply -f -", stdin=json.dumps(body))
    done = await verify(t, ns, name, "the HA changes")
    pods = rd.table(await t.kubectl(f"get pods -n {ns} -o wide"))
    nodes = sorted({r.get("node", "") for r in pods if r.get("name", "").startswith(f"{name}-")})
    t.say(
        f"step 4: {name} pods on {', '.join(nodes)}"
        + (" -- spread, good" if len(nodes) >= 2 else " -- hmm, not spread")
    )
    t.sum_up(
        f"{name}: 1 -> 3 replicas spread across nodes ({', '.join(nodes)}), pdb minAvailable 2"
        + (", verified." if done and len(nodes) >= 2 else ", not fully verified.")
    )
    return True


async def runbook(t: Thread, scene: Scene, prompt: str) -> bool:
    if "runbook" not in prompt.lower() or scene.subject is None:
        return False
    ns, _name = scene.subject
    books = [c for c in scene.configmaps.get(ns, []) if "runbook" in c]
    text = "\n".join([await t.kubectl(f"get configmap {b} -n {ns} -o yaml") for b in books[:1]])
    steps = [s.strip(" -\"'") for s in re.findall(r"^\s*(?:-|\d+[.)])\s+(.+)$", text, re.M)]
    t.say(
        f"runbook {books[0] if books else '?'}: " + " / ".join(steps)
        if steps
        else "runbook is not where we looked"
    )
    from .operator_heldout32 import incident

    t.say("working through it against what the cluster actually shows, step by step")
    await incident(t, scene)
    return True


PLAYS = (runbook, canary, available, rolling, image, scaling)
