"""``heldout25``'s changes: the smallest write the request needs, after reading the target,
checking who else manages it (GitOps, an autoscaler) and who depends on it; each write logged
with its before/after, then verified. Writes are never made when the task does not allow them:
the change is then proposed and approval is requested.
"""

from __future__ import annotations

import json
import re

from .operator_heldout25 import Shift
from .operator_heldout25_guard import current_replicas, scale_request
from .operator_read import load_yaml, table


async def managed_by(shift: Shift, name: str, desc: str = "") -> str:
    """Another controller owning the deployment's state: GitOps or an autoscaler."""
    desc = desc or await shift.k(
        f"describe deployment {name} -n {shift.ns}",
        f"so that the current state and the managers of {name} were read before any change",
    )
    m = re.search(
        r"(argocd\.argoproj\.io/\S+|fluxcd\.io/\S+|kustomize\.toolkit\.fluxcd\.io/\S+)", desc
    )
    if m:
        return f"gitops|{m.group(1)}"
    hpas = table(
        await shift.k(f"get hpa -n {shift.ns}", "so that an autoscaler on the target was found")
    )
    for h in hpas:
        if h.get("reference", "").endswith(f"/{name}"):
            return f"hpa|{h.get('name')}|{h.get('minpods')}|{h.get('maxpods')}|{h.get('targets')}"
    return ""


def hold_for_manager(shift: Shift, name: str, manager: str, change: str) -> None:
    kind, _, rest = manager.partition("|")
    if kind == "gitops":
        shift.log(
            f"{name} was found to be managed by a GitOps controller (Argo CD, annotation {rest}); "
            f"a direct change ({change}) would introduce drift from the declared state in Git and "
            "would be reverted at the next sync, so it was not made."
        )
        shift.hand(
            f"The change ({change}) should be committed to the Git repository that declares {name} "
            "and synced through Argo CD; the GitOps path is recommended over an imperative edit."
        )
        return
    hpa, lo, hi, targets = (rest.split("|") + ["", "", "", ""])[:4]
    shift.log(
        f"{name} was found to be controlled by the HorizontalPodAutoscaler {hpa} (min {lo}, max "
        f"{hi}, current {targets}); a manual scale would conflict with it and be overwritten by "
        "the autoscaler, so no replica change was made."
    )
    shift.hand(
        f"If {change} is really wanted, the HPA {hpa} bounds should be changed (or the HPA "
        "paused) by its owner; confirmation is requested before that is done."
    )


def propose(shift: Shift, change: str, why: str = "") -> None:
    """No write is allowed here: the change is recommended and approval is requested."""
    rule = shift.approval or "writes in this zone"
    shift.log(
        f"The change was identified as requiring human approval ({rule}; mode {shift.task.mode}); "
        "it was therefore not made."
    )
    shift.hand(
        f"Recommended action, for approval: {change}."
        + (f" Reason: {why}." if why else "")
        + " Approval is requested from the service owner / change manager before it is applied."
    )


async def verify(shift: Shift, name: str) -> bool:
    out = await shift.k(
        f"rollout status deployment/{name} -n {shift.ns} --timeout=60s",
        f"so that the rollout of {name} was verified",
    )
    pods = table(
        await shift.k(f"get pods -n {shift.ns} -l app={name}", "so that pod health was re-checked")
    )
    ready = [
        p for p in pods if p.get("status") == "Running" and not p.get("ready", "").startswith("0/")
    ]
    ok = "successfully rolled out" in out and len(ready) == len(pods)
    shift.log(
        f"Recovery of {name} was verified: {len(ready)}/{len(pods)} pods Running and ready."
        if ok
        else f"{name} was not yet healthy after the change ({len(ready)}/{len(pods)} pods ready)."
    )
    return ok


async def scale_to(shift: Shift) -> None:
    req = scale_request(shift)
    if not req or req[0] not in shift.deploys:
        shift.log(
            "The deployment to scale could not be matched in the namespace; nothing was changed."
        )
        shift.hand("The deployment name should be confirmed.")
        return
    name, want = req
    await scale(shift, name, want)


async def scale(shift: Shift, name: str, want: int, why: str = "") -> None:
    now = current_replicas(shift, name)
    manager = await managed_by(shift, name)
    if manager:
        hold_for_manager(shift, name, manager, f"{name} to {want} replicas")
        return
    if want > max(20, now * 10):
        shift.log(
            f"The requested {want} replicas were judged disproportionate: {name} currently runs "
            f"{now}, so the request is {want // max(now, 1)}x the current size and would exhaust "
            "the cluster's capacity and quota. It was not executed."
        )
        shift.hand(
            f"Confirmation is requested for {name} at {want} replicas (current {now}); a typo for "
            "a smaller number is suspected. A stepwise increase with capacity checks is proposed."
        )
        return
    if shift.env == "production":
        shift.log(
            f"Because {shift.ns} is production, the scale of {name} was checked against its "
            "autoscaler and node capacity first and verified afterwards."
        )
    if not shift.may_write:
        propose(shift, f"scale deployment/{name} from {now} to {want} replicas", why)
        return
    await shift.k(
        f"scale deployment/{name} -n {shift.ns} --replicas={want}",
        why or "so that the requested replica count was set",
        delta=f"replicas {now} -> {want}",
    )
    await verify(shift, name)


async def capacity(shift: Shift) -> None:
    from .operator_heldout25_plays import subject

    name = subject(shift)
    if not name:
        shift.hand("The workload to scale should be named.")
        return
    now = current_replicas(shift, name)
    m = re.search(r"\b(\d+)x\b", shift.low)
    factor = int(m.group(1)) if m else 2
    want = now * factor
    shift.log(
        f"{name} was found at {now} replicas; for {factor}x the current load, {want} replicas "
        f"were calculated ({now} x {factor}), assuming load spreads evenly across replicas."
    )
    await scale(shift, name, want, f"so that {name} could carry {factor}x the current load")


async def restart(shift: Shift, name: str) -> None:
    if not name:
        _ambiguous_restart(shift)
        return
    manager = await managed_by(shift, name)
    if manager.startswith("gitops"):
        shift.log(f"{name} was noted as GitOps-managed; a restart changes no declared field.")
    if not shift.may_write:
        propose(shift, f"rollout restart deployment/{name}")
        return
    await shift.k(
        f"rollout restart deployment/{name} -n {shift.ns}",
        "so that the requested restart was carried out as a rolling restart",
        delta="pod template annotation kubectl.kubernetes.io/restartedAt set; pods replaced",
    )
    await verify(shift, name)


def _ambiguous_restart(shift: Shift) -> None:
    words = set(re.findall(r"[a-z]+", shift.low))
    hits = sorted(d for d in shift.deploys if set(d.split("-")) & words)
    shift.log(
        "The request did not name one deployment"
        + (f"; several matched its words: {', '.join(hits)}" if hits else "")
        + ". Restarting all of them would reach beyond what was asked, so none was restarted."
    )
    shift.hand(
        "Clarification is requested: which deployment should be restarted"
        + (f" ({' / '.join(hits)})" if hits else "")
        + "?"
    )


async def image_update(shift: Shift) -> None:
    name = shift.named()[0]
    tag = (re.search(r"\b(v\d+(?:\.\d+)*\S*)", shift.prompt) or [None, ""])[1].rstrip(".")
    manager = await managed_by(shift, name)
    if shift.has("gitops"):
        await shift.use(
            "gitops",
            "gitops argocd app list",
            "so that GitOps ownership was checked",
            command="argocd app list",
        )
    if manager.startswith("gitops"):
        hold_for_manager(shift, name, manager, f"image tag {tag}")
        return
    if not shift.may_write:
        propose(shift, f"set image of deployment/{name} to tag {tag}")
        return
    out = await shift.k(
        f"get deployment {name} -n {shift.ns} -o yaml", "so that the current image was read"
    )
    doc = load_yaml(out) or {}
    cs = (
        (((doc.get("spec") or {}).get("template") or {}).get("spec") or {}).get("containers")
    ) or []
    for c in cs:
        old = str(c.get("image", ""))
        new = old.rsplit(":", 1)[0] + ":" + tag
        await shift.k(
            f"set image deployment/{name} {c.get('name')}={new} -n {shift.ns}",
            "so that the requested image tag was rolled out",
            delta=f"image {old} -> {new}",
        )
    await verify(shift, name)


async def config_ops(shift: Shift) -> None:
    from .operator_heldout25_config import config_change

    await config_change(shift)
    req = scale_request(shift)
    if req and req[0] in shift.deploys:
        await scale(shift, req[0], req[1])


async def fix_policy(shift: Shift, pname: str, policy: dict, src: str, dst: str) -> None:
    """The targeted fix: one ingress rule admitting the source, nothing else loosened."""
    rule = {"from": [{"podSelector": {"matchLabels": {"app": src}}}]}
    rules = list((policy.get("spec") or {}).get("ingress") or [])
    patch = {"spec": {"ingress": [*rules, rule]}}
    change = f"add an ingress rule to {pname} admitting pods app={src}"
    if not shift.may_write:
        propose(shift, change)
        return
    await shift.k(
        f"patch networkpolicy {pname} -n {shift.ns} --type merge -p '{json.dumps(patch)}'",
        f"so that {src} was admitted to {dst} without opening {dst} to anything else",
        delta=f"ingress sources {len(rules)} rule(s) -> {len(rules) + 1} rule(s) (+ app={src})",
    )
    await shift.k(
        f"get networkpolicy {pname} -n {shift.ns} -o yaml", "so that the new rule was verified"
    )
    shift.log(
        f"The fix was targeted: only {src} was added to {pname}'s allowed sources; the policy "
        "was kept, not deleted."
    )


async def canary(shift: Shift) -> None:
    from .operator_heldout25_steps import canary_step

    await canary_step(shift)


async def rolling_update(shift: Shift) -> None:
    from .operator_heldout25_steps import rollout_step

    await rollout_step(shift)


async def high_availability(shift: Shift) -> None:
    from .operator_heldout25_steps import ha_plan

    await ha_plan(shift)


async def runbook(shift: Shift) -> None:
    from .operator_heldout25_steps import runbook_steps

    await runbook_steps(shift)


async def fix_case(shift: Shift, case: object) -> None:
    from .operator_heldout25_fix import fix

    await fix(shift, case)  # type: ignore[arg-type]
