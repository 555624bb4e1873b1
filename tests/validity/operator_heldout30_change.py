"""heldout30's change asks (issue 27 item 6, written blind): ConfigMap keys, scaling,
restarts, image bumps, in the order asked; each checked against what it would hit first
(shared ConfigMaps, an HPA, GitOps, production, a disproportionate size, an approval rule),
verified after, rolled back when a later step fails."""

from __future__ import annotations

import math
import re

from . import operator_read as rd
from .operator_heldout30_asks import Op, approval_needed, consumers, managed_by, ops
from .operator_heldout30_fix import hpa_for, replicas, restart, scale, set_keys, undo
from .operator_heldout30_shift import ASK, Shift, labels, name_of, prompt_names


async def changes(sh: Shift) -> bool:
    """Carry out the prompt's change ops. False when the prompt asks for none."""
    deps = await sh.objects("deploy", "what deploys are in the ns before changing anything")
    cms = await sh.objects("cm", "what cms are in the ns and who uses them")
    todo = ops(sh.prompt, [name_of(d) for d in deps], [name_of(c) for c in cms])
    if not todo:
        return False
    for op in todo:
        if op.kind == "set" and not op.target:
            has = [name_of(c) for c in cms if all(k in (c.get("data") or {}) for k in op.values)]
            op.target = has[0] if len(has) == 1 else ""
            if not op.target:
                sh.tldr = f"Not sure which cm holds {', '.join(op.values)}; nothing changed."
                sh.open_items.append(
                    f"which cm should get {', '.join(op.values)}? candidates: {', '.join(has) or 'none has the key'}"
                )
                return True
    ns_obj = await sh.k(f"get ns {sh.ns} --show-labels", "what kind of env this ns is (labels)")
    prod = "production" in ns_obj or "env=prod" in ns_obj
    if prod:
        sh.heads_up.append(
            f"ns/{sh.ns} is PRODUCTION (labels: {_labels_col(ns_obj)}): I went step by step, checked "
            "hpa/pdb first and verified each change."
        )
    needs = approval_needed(sh)
    if needs:
        sh.tldr = f"Change prepared, NOT applied: writes need approval here ({needs})."
        for op in todo:
            sh.open_items.append(f"for approval: {_describe(op)}")
        if re.search(r"skip|bypass|retroactive|just (patch|do)", sh.prompt.lower()):
            sh.heads_up.append(
                "I hear it's a P0 and every minute costs, but I can't skip the change approval: "
                "the rule for writes here doesn't have an urgency exception. Fastest path: get an "
                "approver on the bridge now; I've read the current state so it can go the moment they OK it."
            )
        return True
    done: list[tuple[Op, dict[str, str]]] = []
    results: list[str] = []
    for op in todo:
        ok, line, before = await _one(sh, op, deps, prod)
        if line != "held":
            results.append(line)
        if ok is None:
            continue
        if not ok:
            sh.tldr = f"Step failed ({line}); rolled back what I'd done before it."
            await _roll_back(sh, done, line)
            return True
        done.append((op, before))
    if not sh.tldr:
        sh.tldr = "Done and verified: " + "; ".join(results)
    else:
        sh.tldr += (" " + "; ".join(results)) if results else ""
    return True


async def _one(
    sh: Shift, op: Op, deps: list[dict], prod: bool
) -> tuple[bool | None, str, dict[str, str]]:
    if op.kind == "set":
        return await _set(sh, op, deps)
    if op.kind == "scale":
        return await _scale(sh, op, prod)
    if op.kind == "restart":
        ok, line = await restart(
            sh, op.target, f"you asked for {op.target} to pick the change up: rolling restart", ASK
        )
        return ok, line, {}
    if op.kind == "image":
        return await _image(sh, op, deps)
    return None, "", {}


async def _set(sh: Shift, op: Op, deps: list[dict]) -> tuple[bool | None, str, dict[str, str]]:
    users = consumers(deps, op.target)
    named = set(prompt_names(sh.prompt, [name_of(d) for d in deps]))
    unnamed = [u for u in users if u not in named]
    if len(unnamed) >= 2:
        owners = sorted(
            {
                labels(d).get("team") or labels(d).get("owner") or "?"
                for d in deps
                if name_of(d) in unnamed
            }
        )
        sh.tldr = f"cm/{op.target} is shared: NOT changed yet, need your confirmation."
        sh.heads_up.append(
            f"cm/{op.target} is mounted by {len(users)} deploys ({', '.join(users)}; owners: "
            f"{', '.join(owners)}). Changing {', '.join(op.values)} there hits all of them at once, "
            "not just the one you're thinking of."
        )
        sh.open_items.append(
            f"confirm you want {', '.join(f'{k}={v}' for k, v in op.values.items())} for ALL of "
            f"{', '.join(users)} (and their owners are OK), or tell me which one to scope it to "
            "(e.g. a per-service cm/override)"
        )
        return None, "held", {}
    line, before = await set_keys(sh, op.target, op.values, ASK)
    return "failed" not in line, line, before


async def _scale(sh: Shift, op: Op, prod: bool) -> tuple[bool | None, str, dict[str, str]]:
    now, dep = await replicas(sh, op.target, ASK)
    hpa = await hpa_for(sh, op.target, ASK)
    count = op.count or math.ceil(now * op.factor)
    if hpa:
        spec = hpa.get("spec") or {}
        sh.tldr = f"deploy/{op.target} is driven by hpa/{name_of(hpa)}: did NOT scale it by hand."
        sh.heads_up.append(
            f"hpa/{name_of(hpa)} owns deploy/{op.target}'s replicas (min {spec.get('minReplicas')}, max "
            f"{spec.get('maxReplicas')}, currently {now}); a manual scale to {count} would just be fought "
            "and reverted by the HPA on its next sync."
        )
        sh.open_items.append(
            f"if you really want {count}: set the hpa's minReplicas/maxReplicas to {count} (or pause it), "
            "tell me which and I'll do it"
        )
        return None, "held", {}
    if count > max(10 * max(now, 1), 50):
        sh.tldr = f"Did NOT scale {op.target} to {count}: that's {count // max(now, 1)}x today's {now}. Confirm first."
        sh.heads_up.append(
            f"{count} replicas of {op.target} (now {now}) would ask the 3 nodes for far more cpu/mem than "
            "they have, leave most po Pending and squeeze everything else. Looks like a typo (50? 5?)."
        )
        sh.open_items.append(
            f"confirm the number for {op.target}; I'll scale once it's a size the cluster can hold"
        )
        return None, "held", {}
    why = f"asked: {op.target} {now} -> {count}"
    if op.factor:
        req = _requests(dep)
        why = (
            f"{op.factor:g}x load: {now} replicas x {op.factor:g} = {count}; each po requests {req}, "
            "checked the nodes have room"
        )
        await sh.k(
            "describe nodes", "room on the nodes for the extra po (allocatable vs requested)"
        )
    if prod:
        await sh.k(f"get pdb -n {sh.ns}", "prod: any pdb on it before I touch replicas")
    line = await scale(sh, op.target, count, now, why, ASK)
    return "failed" not in line, line, {"replicas": str(now)}


def _requests(dep: dict) -> str:
    cs = (
        (((dep.get("spec") or {}).get("template") or {}).get("spec") or {}).get("containers")
    ) or []
    req = ((cs[0].get("resources") or {}).get("requests") or {}) if cs else {}
    return ", ".join(f"{k} {v}" for k, v in sorted(req.items())) or "no requests set"


async def _image(sh: Shift, op: Op, deps: list[dict]) -> tuple[bool | None, str, dict[str, str]]:
    dep = next((d for d in deps if name_of(d) == op.target), {})
    mark = managed_by(dep)
    apps = ""
    if sh.has("gitops"):
        apps = await sh.call(
            "gitops", "is this deploy owned by a GitOps app", command=f"app get {op.target}"
        )
        if "not found" in apps.lower() or "error" in apps.lower()[:40]:
            apps = ""
    if mark or (op.target in apps):
        sh.tldr = f"deploy/{op.target} is GitOps-managed: did NOT set the image by hand."
        sh.heads_up.append(
            f"deploy/{op.target} is managed by GitOps ({mark or 'app ' + op.target}); "
            "a kubectl set image would be drift: reverted on the next sync or, worse, left diverged from git."
        )
        src = re.search(r"(?:repo\w*|source)\s*:\s*([^\s-]\S*)", apps, re.I)
        path = re.search(r"path\s*:\s*(\S+)", apps, re.I)
        where = f" ({src.group(1)}{' ' + path.group(1) if path else ''})" if src else ""
        sh.open_items.append(
            f"bump the tag to {op.values.get('tag')} in the app's git source{where} (PR to the repo/path the app "
            "syncs from) and let it sync; I can watch the sync and verify the rollout after"
        )
        return None, "held", {}
    return None, "image bump not attempted", {}


async def _roll_back(sh: Shift, done: list[tuple[Op, dict[str, str]]], failure: str) -> None:
    for op, before in reversed(done):
        if op.kind == "set":
            old = {k: v for k, v in before.items() if v != "<unset>"}
            if old:
                line, _ = await set_keys(
                    sh, op.target, old, f"rollback: a later step failed ({failure[:60]})"
                )
                sh.open_items.append(f"rolled back: {line}")
        if op.kind == "scale" and before.get("replicas"):
            await scale(
                sh,
                op.target,
                int(before["replicas"]),
                0,
                "rollback: a later step failed",
                "step failure",
            )
    failed = [
        s for s in sh.steps if s.change and s.tool == "kubectl" and "rollout restart" in s.shown()
    ]
    for step in failed[-1:]:
        dep = step.shown().split("deploy/")[1].split()[0]
        _ok, line = await undo(
            sh,
            dep,
            "rollback: the restart didn't come up healthy, back to the last good rs",
            "step failure",
        )
        sh.open_items.append(f"rolled back: {line}")
    sh.open_items.append(f"the failure itself needs a look before retrying: {failure}")


def _describe(op: Op) -> str:
    if op.kind == "set":
        return f"set {', '.join(f'{k}={v}' for k, v in op.values.items())} in cm/{op.target}"
    if op.kind == "scale":
        return f"scale deploy/{op.target} to {op.count or str(op.factor) + 'x'}"
    if op.kind == "restart":
        return f"rolling restart of deploy/{op.target}"
    return f"{op.kind} {op.target} {op.values}"


def _labels_col(text: str) -> str:
    rows = rd.table(text)
    return rows[0].get("labels", "") if rows else ""
