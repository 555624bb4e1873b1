"""heldout45's multi-step work (session 37, written blind): a runbook followed against the real
state, a rollout continued while watching the nodes, an image change, a highly-available layout.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .operator_heldout45 import Change, Desk
from .operator_heldout45_do import _gitops, _hpa_on, _replicas, _verify
from .operator_heldout45_look import containers, workload
from .operator_read import age_minutes, items, prom_series, table


async def runbook(desk: Desk, targets: list[str]) -> None:
    from .operator_heldout45_judge import judge

    L = desk.lesson
    cms = [
        r.get("name", "")
        for r in table(
            await desk.read(
                "where does the runbook live? I look for it by name in the config maps",
                command=f"get configmaps -n {desk.ns}",
            )
        )
    ]
    words = set(re.findall(r"[a-z]{4,}", L.ask.lower()))
    book = next((c for c in cms if "runbook" in c and sum(w in c for w in words) >= 2), "") or next(
        (c for c in cms if "runbook" in c), ""
    )
    steps: list[str] = []
    if book:
        found = items(
            await desk.read(
                f"read the runbook {book} in full before doing step one",
                command=f"get configmap {book} -n {desk.ns} -o yaml",
            )
        )
        data = (found[0].get("data") or {}) if found else {}
        text = "\n".join(str(v) for v in data.values())
        steps = [s.strip() for s in re.findall(r"^\s*(?:\d+[.)]|-)\s*(.+)$", text, re.M)]
        desk.shows(f"{len(steps)} steps: " + " / ".join(steps[:6]))
        L.says.append(
            f"The runbook {book} has {len(steps)} steps. I follow it, but a runbook is written before the incident: each step is checked against what the cluster actually shows."
        )
    else:
        L.unknown.append(
            "I found no runbook in the namespace, so I worked it as an ordinary error-rate investigation."
        )
    if not targets:
        return
    f = await workload(desk, targets[0])
    await judge(desk, f)
    await _apply_runbook(desk, f, steps)


async def _apply_runbook(desk: Desk, f: Any, steps: list[str]) -> None:
    """The runbook's steps against what the reads found: roll back only when its condition holds."""
    L = desk.lesson
    newest = min(f.sets, key=lambda r: age_minutes(r.get("age", "")) or 1e9) if f.sets else None
    mins = (age_minutes(newest.get("age", "")) or 1e9) if newest else 1e9
    limit = _window(steps)
    recent = newest is not None and mins <= limit
    rolled = ""
    if (
        recent
        and len(f.sets) > 1
        and any(re.search(r"roll ?back|undo|previous", s_, re.I) for s_ in steps)
        and not any("readonly" in z for z in desk.zones)
    ):
        prev = min(
            (r for r in f.sets if r is not newest),
            key=lambda r: age_minutes(r.get("age", "")) or 1e9,
        )
        ok, out = await desk.write(f"rollout undo deployment/{f.name} -n {desk.ns}")
        healthy, after = await _verify(desk, f.name) if ok else (False, out[:120])
        rolled = f"rolled back {newest.get('images')} -> {prev.get('images')} ({after})"
        L.done.append(
            Change(
                f"rolled {f.name} back (the runbook's rollback step)",
                f"the runbook says roll back after a deploy within {limit:.0f} minutes, and {newest.get('images')} went out {newest.get('age')} ago, right before the errors",
                f"image {newest.get('images')}",
                f"image {prev.get('images')} ({after})",
                "verified" if healthy else "not healthy yet",
            )
        )
    after_rate = ""
    if rolled and desk.has("metrics_query"):
        found = prom_series(
            await desk.read(
                "the runbook's last step: is the error rate coming back down? I read it now, and it needs watching for the runbook's window",
                tool="metrics_query",
                action="query",
                query="error_rate",
            )
        )
        mine = [v for labels, v in found if f.name in labels.values() and v]
        base = (f.series.get("error_rate") or [0.0])[0]
        after_rate = (
            (
                f"error_rate now {mine[0][-1]:.1%}"
                + (
                    ", back at baseline"
                    if mine[0][-1] <= base * 1.5
                    else ", not back yet right after the rollback: the runbook allows 5 minutes, so this needs one more look before closing"
                )
            )
            if mine
            else "no error_rate series to read"
        )
        desk.shows(after_rate + ".")
    top = f'{f.logs[0][2]}x "{f.logs[0][1][:100]}"' if f.logs else "no error lines"
    for i, step in enumerate(steps, 1):
        low = step.lower()
        if "log" in low:
            seen = f"done: {top}"
        elif re.search(r"deploy|rollout", low) and not re.search(r"roll ?back", low):
            seen = (
                f"done: {newest.get('images')} went out {newest.get('age')} ago, {'inside' if recent else 'outside'} the {limit:.0f}-minute window"
                if newest
                else "no deploy history found"
            )
        elif re.search(r"roll ?back|previous", low):
            seen = (
                f"done: {rolled}"
                if rolled
                else "skipped: the condition doesn't hold here, so this step doesn't apply"
            )
        elif re.search(r"verif|baseline|error rate", low):
            seen = (
                f"{after_rate}; the baseline before the deploy was {f.series['error_rate'][0]:.1%}"
                if after_rate and f.series.get("error_rate")
                else (after_rate or "checked the pods above")
            )
        else:
            seen = "no read in this cluster maps to it; noted, not run blind"
        L.extra.append(f"step:{i}:{step} -> {seen}")


def _window(steps: list[str]) -> float:
    for s_ in steps:
        m = re.search(r"last (\d+)\s*(minute|min|hour|h)", s_, re.I)
        if m:
            return float(m.group(1)) * (60 if m.group(2).lower().startswith("h") else 1)
    return 60.0


async def continue_rollout(desk: Desk, dep: str) -> None:
    L = desk.lesson
    spec = await _replicas(desk, dep)
    image = ",".join(str(c.get("image")) for c in containers(spec))
    paused = bool((spec.get("spec") or {}).get("paused"))
    st = spec.get("status") or {}
    desk.shows(
        f"target image {image}; {st.get('updatedReplicas', 0)} of {(spec.get('spec') or {}).get('replicas')} updated; paused: {paused}."
    )
    nodes = await _nodes(
        desk,
        "before going on, the nodes: a rollout puts new pods somewhere, and that somewhere has to be healthy",
    )
    if paused:
        ok, out = await desk.write(f"rollout resume deployment/{dep} -n {desk.ns}")
        L.done.append(
            Change(
                f"resumed the rollout of {dep}",
                "you asked me to continue it, and the nodes were healthy when I checked",
                "paused",
                "resumed" if ok else out[:100],
                "watched below",
            )
        )
    nodes = await _nodes(
        desk,
        "and again after the first step, because conditions change mid-rollout: has any node gone bad since?",
    )
    bad = {n: c for n, c in nodes.items() if c}
    if bad:
        where = ", ".join(f"{n} ({', '.join(c)})" for n, c in bad.items())
        ok, out = await desk.write(f"rollout pause deployment/{dep} -n {desk.ns}")
        pods = table(
            await desk.read(
                f"where are {dep}'s new pods landing?", command=f"get pods -n {desk.ns} -o wide"
            )
        )
        desk.shows(
            "; ".join(
                f"{p['name']} {p.get('status')} on {p.get('node')}"
                for p in pods
                if p.get("name", "").startswith(dep)
            )
        )
        L.cause = f"a new condition appeared mid-rollout: {where}; new pods scheduled there fail"
        L.done.append(
            Change(
                f"paused the rollout of {dep}",
                f"{where} appeared after I started; pushing on would put new pods on a node that can't run them",
                "rolling",
                "paused" if ok else out[:100],
                "read back: paused",
            )
        )
        L.not_done.append(
            f"I did not finish the rollout to {image}. Plan now: wait for {', '.join(bad)} to recover (or cordon it, with your OK), then resume. The pods already updated are healthy and serving."
        )
        L.told.append(
            f"you and the node owners: {where}, rollout of {dep} paused at {st.get('updatedReplicas', '?')} of {(spec.get('spec') or {}).get('replicas')}"
        )
        L.remember.append(
            "A rollout is a loop, not a command: look again after each step, and stop when the ground changes."
        )
        return
    _healthy, after = await _verify(desk, dep)
    L.evidence.append(f"rollout of {dep} to {image}: {after}; nodes healthy throughout")


async def _nodes(desk: Desk, why: str) -> dict[str, list[str]]:
    found = items(await desk.read(why, command="get nodes -o yaml"))
    out: dict[str, list[str]] = {}
    for n in found:
        name = str((n.get("metadata") or {}).get("name"))
        conds = (n.get("status") or {}).get("conditions") or []
        out[name] = [
            f"{c.get('type')}={c.get('status')}"
            for c in conds
            if (c.get("type") != "Ready" and c.get("status") == "True")
            or (c.get("type") == "Ready" and c.get("status") != "True")
        ]
    desk.shows("; ".join(f"{n}: {', '.join(c) or 'healthy'}" for n, c in out.items()) + ".")
    return out


async def set_image(desk: Desk, dep: str) -> None:
    L = desk.lesson
    tag = re.search(r"\b(v?\d+\.\d+[\w.-]*\w)", L.ask).group(1)
    spec = await _replicas(desk, dep)
    owner = _gitops(spec)
    cur = [str(c.get("image")) for c in containers(spec)]
    desk.shows(
        f"image {', '.join(cur)}; "
        + (f"managed by GitOps ({owner})." if owner else "no GitOps marker.")
    )
    if owner:
        L.not_done.append(
            f"I did not run `kubectl set image`: {dep} is managed from Git ({owner}). A hand edit drifts from the repo and the sync reverts it, or worse, hides it. The change is a commit bumping the tag to {tag} in {dep}'s manifest; the sync then rolls it out."
        )
        L.told.append(f"you / the repo owners: bump {dep} to {tag} in Git")
        L.remember.append(
            "Before you kubectl-edit anything, check who else writes it: GitOps, an autoscaler, an operator."
        )
        return
    c = containers(spec)[0]
    new = re.sub(r":[^:]+$", f":{tag}", str(c.get("image")))
    ok, out = await desk.write(f"set image deployment/{dep} {c.get('name')}={new} -n {desk.ns}")
    healthy, after = await _verify(desk, dep) if ok else (False, out[:120])
    L.done.append(
        Change(
            f"set {dep}'s image",
            "you asked for this tag",
            cur[0],
            f"{new} ({after})",
            "verified" if healthy else "not healthy yet",
        )
    )


async def make_ha(desk: Desk, dep: str) -> None:
    L = desk.lesson
    spec = await _replicas(desk, dep)
    have = int((spec.get("spec") or {}).get("replicas") or 1)
    nodes = await _nodes(
        desk,
        "how many nodes are there to spread over? HA against node failure needs pods on different nodes",
    )
    hpa = await _hpa_on(desk, dep)
    pdbs = await desk.read("any disruption budget already?", command=f"get pdb -n {desk.ns}")
    labels = ((spec.get("spec") or {}).get("selector") or {}).get("matchLabels") or {"app": dep}
    target = max(3, have) if len(nodes) >= 3 else max(2, have)
    L.says.append(
        f"The plan, in order: (1) {target} replicas instead of {have}, (2) spread them one per node, (3) a PodDisruptionBudget so a drain can't take them all, (4) verify they landed on different nodes."
    )
    patch = json.dumps(
        {
            "spec": {
                "replicas": target,
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
    )
    ok, out = await desk.write(f"patch deployment {dep} -n {desk.ns} --type strategic -p '{patch}'")
    L.done.append(
        Change(
            f"{dep}: replicas and a spread across nodes",
            "one replica dies with its node; three on three nodes survive losing one",
            f"{have} replica, no spread rule",
            f"{target} replicas, at most 1 apart per node" if ok else out[:120],
            "checked below",
        )
    )
    if dep not in pdbs:
        pdb = {
            "apiVersion": "policy/v1",
            "kind": "PodDisruptionBudget",
            "metadata": {"name": f"{dep}-pdb", "namespace": desk.ns},
            "spec": {"minAvailable": target - 1, "selector": {"matchLabels": labels}},
        }
        ok2, out2 = await desk.write("apply -f -", stdin=json.dumps(pdb))
        L.done.append(
            Change(
                f"PodDisruptionBudget {dep}-pdb",
                "so a node drain or upgrade keeps at least all-but-one running",
                "none",
                f"minAvailable {target - 1}" if ok2 else out2[:120],
                "read back below",
            )
        )
    _healthy, after = await _verify(desk, dep)
    pods = table(
        await desk.read(
            "and the point of it all: are the pods on different nodes?",
            command=f"get pods -n {desk.ns} -o wide -l app={dep}",
        )
    )
    spread = sorted({p.get("node", "") for p in pods})
    desk.shows(f"{len(pods)} pods on {', '.join(spread)}.")
    L.evidence.append(f"{after}, on {len(spread)} distinct nodes ({', '.join(spread)})")
    if not hpa:
        L.not_done.append(
            "I did not add an autoscaler: HA is about surviving a node, not about load, and an HPA without a load target is a guess."
        )
