"""heldout31's requested changes: each checked by the guards first, then made narrowly; a
multi-step change whose later step fails is unwound so that nothing is left half-applied.
"""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout31_act import (
    configmap_for,
    node_capacity,
    replicas,
    requests_of,
    restart,
    scale,
    set_config,
    verify,
    wanted_pairs,
)
from .operator_heldout31_guard import (
    autoscaled,
    disproportionate,
    gitops_managed,
    missing_target,
    shared_config,
)
from .operator_heldout31_look import Look
from .operator_heldout31_net import diagnose
from .operator_heldout31_plays import canary, continue_rollout, make_ha, runbook, scale_for_load
from .operator_heldout31_rec import Decision, Record, num, plural
from .operator_heldout31_say import symptom


async def plan_change(
    rec: Record, look: Look, d: Decision, kind: str, name: str, prod: bool
) -> str:
    if kind not in ("config", "canary") and not name:
        return missing_target(look, d)
    if kind == "config":
        ok = await config_change(rec, look, d, name)
        if ok is None:
            return "Proposed; awaiting confirmation from the owners. No change was made."
    elif kind == "scale":
        to = int(re.findall(r"\b(?:to|at)\s+(?:exactly\s+)?(\d+)\b", look.prompt)[-1])
        cur = replicas(look, name)
        if disproportionate(look, name, to, cur, d):
            return "Proposed; the figure needs confirmation. No change was made."
        if await autoscaled(rec, look, name, d):
            return "Proposed; the autoscaler owns the replica count. No change was made."
        if prod and to > cur:
            await prod_capacity(rec, look, name, to, cur, d)
        if prod:
            d.context.append(
                f"Before the production change, {name} was read at {plural(cur, 'replica')}: "
                + symptom(look, name)
                + "."
            )
        await scale(
            rec,
            look,
            name,
            to,
            d,
            "the request asks for this replica count"
            + ("; production, so the rollout is verified" if prod else ""),
        )
    elif kind == "restart":
        await restart(
            rec,
            look,
            name,
            d,
            "the request asks for a restart; a rolling restart keeps replicas serving",
        )
    elif kind == "image":
        return await image_change(rec, look, d, name)
    elif kind == "load":
        if await autoscaled(rec, look, name, d):
            return "Proposed; the autoscaler owns the replica count. No change was made."
        m = re.search(r"(\d+(?:\.\d+)?)x", look.prompt)
        await scale_for_load(rec, look, name, float(m.group(1)) if m else 2.0, d)
    elif kind == "ha":
        await make_ha(rec, look, name, d)
    elif kind == "canary":
        await canary(rec, look, d)
    elif kind == "rollout":
        await continue_rollout(rec, look, name, d)
    elif kind == "runbook":
        f = diagnose(look)
        if f.kind != "unclear":
            d.context += [f"Investigation showed that {e}." for e in f.evidence]
            d.decision.append(f"The cause was determined to be that {f.cause}.")
        await runbook(rec, look, name, d)
    if any("was rolled back after" in c for c in d.consequences):
        return "Rolled back; the second step failed and the state found before was restored."
    failed = any("did not" in c or "had not yet" in c for c in d.consequences)
    return "Accepted and implemented; verification " + (
        "did not pass (see Consequences)." if failed else "passed."
    )


async def prod_capacity(rec: Record, look: Look, name: str, to: int, cur: int, d: Decision) -> None:
    """In production the added replicas are checked against what the nodes can hold first."""
    nodes = await node_capacity(
        rec, "production: the added replicas were checked against node capacity before the change"
    )
    req = requests_of(look, name)
    cpu = rd.quantity(req.get("cpu", "")) or 0.0
    total = sum(c for _, c, _ in nodes)
    extra = (to - cur) * cpu
    d.context.append(
        f"Because namespace {look.ns} is production, the scale-up was checked before it was made: {num(to - cur)} more "
        f"replicas request {extra:g} more cores of CPU against {total:g} allocatable cores on {plural(len(nodes), 'node')}, "
        "so the change fits without starving other production workloads; it was made in one step and watched to completion."
    )


async def config_change(rec: Record, look: Look, d: Decision, name: str) -> bool | None:
    """The keys asked for are set; a restart asked for follows; if the restart does not
    verify, both steps are undone. None when the change was held."""
    cm = configmap_for(look, list(wanted_pairs(look.prompt)))
    if cm is not None and await shared_config(rec, look, cm, d):
        return None
    before = {str(k): str(v) for k, v in ((cm or {}).get("data") or {}).items()}
    cm_name = await set_config(rec, look, d)
    if name and re.search(r"pick(?:s)? up|reload|restart|roll", look.prompt, re.I):
        ok = await restart(
            rec,
            look,
            name,
            d,
            f"the pods read {cm_name} only at start, so a rolling restart makes them pick up the new value",
        )
        if not ok:
            await unwind(rec, look, d, name, cm_name, before)
        return ok
    m = re.search(r"\bscale\b.*?(\d+)", look.prompt, re.I)
    if name and m:
        return await scale(
            rec, look, name, int(m.group(1)), d, "the request asks for this replica count"
        )
    return True


async def unwind(
    rec: Record, look: Look, d: Decision, name: str, cm_name: str, before: dict[str, str]
) -> None:
    trigger = f"failed verification of the {name} restart"
    why = f"the restart of {name} did not become healthy; the previous revision was restored so that the pods keep serving"
    await rec.kubectl(
        f"rollout undo deployment/{name} -n {look.ns}",
        "roll back",
        f"deployment {name}",
        why,
        trigger,
    )
    changed = {k: before[k] for k in wanted_pairs(look.prompt) if k in before}
    if cm_name and changed:
        patch = json.dumps({"data": changed}, separators=(",", ":"))
        why = f"the new value of {cm_name} must not be picked up by a later restart while the rollout is broken"
        await rec.kubectl(
            f"patch configmap {cm_name} -n {look.ns} --type merge -p '{patch}'",
            "restore",
            f"configmap {cm_name}",
            why,
            trigger,
        )
        why = "the ConfigMap was read back to confirm the previous values are in place"
        await rec.kubectl(
            f"get configmap {cm_name} -n {look.ns} -o yaml",
            "verify",
            f"configmap {cm_name}",
            why,
            trigger,
        )
        d.decision.append(
            f"Because the restart failed, the change was rolled back: {cm_name} was restored to "
            + ", ".join(f"{k}={v}" for k, v in changed.items())
            + f" and {name} to its previous revision."
        )
    await verify(rec, look, name, d, trigger)
    d.consequences.append(
        f"The operation was rolled back after its second step failed: the state is the one found before, and "
        f"the restart failure of {name} must be looked at before the change is tried again."
    )


async def image_change(rec: Record, look: Look, d: Decision, name: str) -> str:
    tag = re.search(r"\b(v?\d+\.\d+(?:\.\d+)?[\w.-]*)", look.prompt)
    if not tag:
        return missing_target(look, d)
    if await gitops_managed(rec, look, name, d):
        return "Proposed; the change belongs in the GitOps source. No change was made."
    obj = look.objs.get(name) or {}
    conts = (((obj.get("spec") or {}).get("template") or {}).get("spec") or {}).get(
        "containers"
    ) or [{}]
    cont, image = conts[0].get("name", name), str(conts[0].get("image", ""))
    new = image.rsplit(":", 1)[0] + ":" + tag.group(1)
    why = f"the request asks for tag {tag.group(1)}; only the image of container {cont} changes"
    await rec.kubectl(
        f"set image deployment/{name} {cont}={new} -n {look.ns}",
        "set image",
        f"deployment {name}",
        why,
    )
    d.decision.append(f"The image of {name} was changed from {image} to {new}.")
    ok = await verify(rec, look, name, d)
    if not ok:
        why = "the new image did not become healthy, so the previous revision was restored"
        await rec.kubectl(
            f"rollout undo deployment/{name} -n {look.ns}",
            "roll back",
            f"deployment {name}",
            why,
            "failed verification of the image change",
        )
        await verify(rec, look, name, d, "failed verification of the image change")
        return "Accepted; the change did not verify and was rolled back."
    return "Accepted and implemented; verification passed."
