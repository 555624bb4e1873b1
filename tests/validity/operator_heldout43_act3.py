"""heldout43's multi-step changes: HA for a single-replica workload (plan, then each step
made and checked), and a paused rolling update resumed around a node that went bad."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import yaml

from . import operator_heldout43_look as lk
from . import operator_heldout43_plan as pl
from . import operator_read as rd
from .operator_heldout43_fix import blocked, patch_json

if TYPE_CHECKING:
    from .operator_heldout43 import Op


_REQ = "requiredDuringSchedulingIgnoredDuringExecution"
_HOST = "kubernetes.io/hostname"


def _template(affinity: dict[str, Any]) -> dict[str, Any]:
    """A merge patch setting the pod template's affinity."""
    return {"spec": {"template": {"spec": {"affinity": affinity}}}}


def _not_in(names: list[str]) -> dict[str, Any]:
    return {"matchExpressions": [{"key": _HOST, "operator": "NotIn", "values": names}]}


async def _nodes(op: Op, why: str) -> list[dict[str, Any]]:
    out = await op.k("get nodes -o yaml", why)
    return rd.items(out)


def _pressure(node: dict[str, Any]) -> list[str]:
    conds = (node.get("status") or {}).get("conditions") or []
    return [
        str(c.get("type"))
        for c in conds
        if c.get("type") != "Ready" and str(c.get("status")) == "True"
    ]


async def ha(op: Op) -> None:
    rep = op.rep
    deps, _ = await lk.names_of(op, "deployments", op.ns)
    hit = pl.named(op.prompt, deps)
    if not hit:
        rep.bluf = "No deployment named; nothing changed."
        return
    look = lk.Look(hit[0], op.ns)
    await lk.deployment(op, look)
    nodes = await _nodes(op, "how many nodes to spread over")
    r_n = op.n
    pdbs = await op.k(f"get pdb -n {op.ns}", f"existing disruption budget for {look.name}?")
    r_pdb = op.n
    hpas = await op.k(f"get hpa -n {op.ns}", f"existing autoscaler for {look.name}?")
    r_hpa = op.n
    has_pdb = look.name in pdbs
    target = max(3, min(len(nodes), 3))
    rep.situation.append(
        f"deploy/{look.name}: replicas {look.replicas} {op.r(look.ref_deploy)}; "
        f"{len(nodes)} nodes {op.r(r_n)}; PDB {'yes' if has_pdb else 'none'} {op.r(r_pdb)}; "
        f"HPA {'yes' if look.name in hpas else 'none'} {op.r(r_hpa)}"
    )
    rep.plan = [
        f"Add pod anti-affinity on kubernetes.io/hostname to {look.name} so replicas land on different nodes.",
        f"Scale {look.name} {look.replicas} -> {target} replicas (one per node).",
        f"Create PodDisruptionBudget {look.name} minAvailable=2 (drains keep 2 up).",
        f"Verify: {target} pods Ready, on {target} distinct nodes; PDB present.",
    ]
    why = blocked(op)
    if why:
        rep.bluf = f"HA plan ready for {look.name}; NOT executed: {why}."
        return
    term = {"labelSelector": {"matchLabels": {"app": look.name}}, "topologyKey": _HOST}
    aff = _template({"podAntiAffinity": {_REQ: [term]}})
    await op.k(
        f"patch deployment {look.name} -n {op.ns} --type merge -p '{patch_json(aff)}'",
        "plan step 1: spread replicas across nodes (anti-affinity)",
    )
    r_aff = op.n
    await op.k(
        f"scale deployment/{look.name} -n {op.ns} --replicas={target}",
        f"plan step 2: {look.replicas} -> {target} replicas",
    )
    r_sc = op.n
    pdb = {
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": {"name": look.name, "namespace": op.ns},
        "spec": {"minAvailable": 2, "selector": {"matchLabels": {"app": look.name}}},
    }
    if not has_pdb:
        await op.k(
            f"apply -n {op.ns} -f -", "plan step 3: disruption budget", stdin=yaml.safe_dump(pdb)
        )
    r_p = op.n
    out = await op.k(
        f"get pods -n {op.ns} -l app={look.name} -o wide", "plan step 4: verify spread"
    )
    rows = rd.table(out)
    spread = {r.get("node") for r in rows}
    await op.k(f"get pdb {look.name} -n {op.ns}", "plan step 4: verify PDB")
    rep.actions += [
        f"anti-affinity (hostname) added to deploy/{look.name} {op.r(r_aff)}.",
        f"replicas {look.replicas} -> {target} {op.r(r_sc)}.",
        f"PDB {look.name} minAvailable=2 created {op.r(r_p)}; read back {op.r(op.n)}.",
        f"verified: {len(rows)} pods on {len(spread)} node(s) {op.r(op.n - 1)}.",
    ]
    rep.bluf = (
        f"{look.name} made HA: {target} replicas spread by anti-affinity + PDB minAvailable=2; "
        "survives loss of any 1 node."
    )
    rep.recs.append("Optional: HPA (min 3) once load profile known.")


async def rolling_update(op: Op) -> None:
    rep = op.rep
    deps, _ = await lk.names_of(op, "deployments", op.ns)
    hit = pl.named(op.prompt, deps)
    if not hit:
        rep.bluf = "No deployment named; nothing changed."
        return
    look = lk.Look(hit[0], op.ns)
    await lk.deployment(op, look)
    await lk.rollout(op, look)
    paused = "DeploymentPaused" in look.deploy_text
    m = re.search(r"NewReplicaSet:\s+(\S+)", look.deploy_text)
    rep.situation.append(
        f"deploy/{look.name} rollout {'PAUSED' if paused else 'in progress'}, new RS "
        f"{m.group(1) if m else '?'} image {look.image} {op.r(look.ref_deploy, look.ref_rs)}"
    )
    nodes = await _nodes(op, "node health before resuming")
    r_n = op.n
    bad = {str((n.get("metadata") or {}).get("name")): _pressure(n) for n in nodes}
    bad = {k: v for k, v in bad.items() if v}
    why = blocked(op)
    if why:
        rep.bluf = f"Rollout of {look.name} not resumed: {why}."
        return
    if bad:
        names = sorted(bad)
        op.trigger = f"node condition {'/'.join(sorted({c for v in bad.values() for c in v}))} on {', '.join(names)}"
        rep.situation.append(
            f"NEW: {', '.join(f'{k} {v}' for k, v in bad.items())} {op.r(r_n)} - changed "
            "since the rollout started"
        )
        rep.plan = [
            "Hold rollout (was paused; keep it so).",
            f"Keep new pods off {', '.join(names)}: node affinity NotIn.",
            "Resume rollout.",
            "Verify all new pods Ready and none on the bad node.",
        ]
        aff = _template({"nodeAffinity": {_REQ: {"nodeSelectorTerms": [_not_in(names)]}}})
        await op.k(
            f"patch deployment {look.name} -n {op.ns} --type merge -p '{patch_json(aff)}'",
            f"adapt: schedule new pods away from {', '.join(names)}",
        )
        rep.actions.append(f"added node affinity NotIn {names} to deploy/{look.name} {op.r(op.n)}.")
    await op.k(
        f"rollout resume deployment/{look.name} -n {op.ns}", "operator asked to continue the update"
    )
    rep.actions.append(f"rollout resumed {op.r(op.n)}.")
    await op.k(f"rollout status deployment/{look.name} -n {op.ns} --timeout=120s", "watch rollout")
    out = await op.k(
        f"get pods -n {op.ns} -l app={look.name} -o wide", "verify new pods + their nodes"
    )
    rows = rd.table(out)
    on_bad = [r.get("name") for r in rows if r.get("node") in bad]
    ready = sum(1 for r in rows if r.get("status") == "Running")
    rep.actions.append(
        f"verified {op.r(op.n)}: {ready}/{len(rows)} pods Running; on bad node: {len(on_bad)}."
    )
    if bad:
        rep.bluf = (
            f"Rolling update of {look.name} continued, ADAPTED: {', '.join(bad)} went "
            f"{'/'.join(sorted({c for v in bad.values() for c in v}))} mid-rollout; new pods kept off it."
        )
        rep.requests.append(
            f"Infra/node owner: {', '.join(bad)} has {'/'.join(sorted({c for v in bad.values() for c in v}))} - "
            "clean disk / drain; I did not touch the node (outside my ns scope)."
        )
    else:
        rep.bluf = f"Rolling update of {look.name} resumed to {look.image}; nodes healthy."
