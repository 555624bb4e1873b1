"""heldout27's fixes: the minimal change a diagnosis calls for, made only when the request
asks for a fix and the scope allows the write; otherwise a change request with its risk."""

from __future__ import annotations

from .operator_heldout27 import Ticket
from .operator_heldout27_change import restart
from .operator_heldout27_diag import Fix
from .operator_heldout27_look import View, owner, production


def _proposal(t: Ticket, fix: Fix) -> tuple[str, str, str, str]:
    """(change, command, risk, backout) for a diagnosis."""
    n = fix.target
    if fix.kind == "memory":
        return (
            f"Raise {n}'s memory limit {fix.detail} -> {fix.value}",
            f"kubectl set resources deployment/{n} -n {t.ns} --limits=memory={fix.value}",
            f"Low: a rolling restart of {n}; the node must have {fix.value} free per pod. If it is a leak, this buys time only.",
            f"kubectl rollout undo deployment/{n} -n {t.ns} (limit back to {fix.detail})",
        )
    if fix.kind == "request":
        return (
            f"Lower {n}'s {fix.detail} request to {fix.value} so it fits a node",
            f"kubectl set resources deployment/{n} -n {t.ns} --requests={fix.detail}={fix.value}",
            "Low: pods get scheduled; watch for throttling under load.",
            f"kubectl rollout undo deployment/{n} -n {t.ns}",
        )
    if fix.kind == "configmap_key":
        return (
            f"Add the missing key {fix.detail} to ConfigMap {n} with the value the service expects, then restart the consumer",
            f'kubectl patch configmap {n} -n {t.ns} --type merge -p \'{{"data":{{"{fix.detail}":"<value>"}}}}\'',
            "Low once the right value is known; the value must come from the service owner, not a guess.",
            f"Remove the key from {n}.",
        )
    if fix.kind == "init":
        return (
            f"Fix the migration run by init container {fix.detail} (its error above), then let {n} roll out",
            "",
            "Medium: a schema change; needs the owning team.",
            "N/A",
        )
    if fix.kind == "rollback":
        return (
            f"Roll {n} back to its previous revision",
            f"kubectl rollout undo deployment/{n} -n {t.ns}",
            "Low: the previous version ran without these errors until the rollout.",
            f"Re-apply the new version (`kubectl rollout undo deployment/{n}` again) once it is fixed.",
        )
    if fix.kind == "pool":
        return (
            f"Raise {n}'s DB pool size / find the connection leak",
            "",
            "Medium: more DB connections; check the DB's max_connections.",
            "Revert the pool setting.",
        )
    if fix.kind == "cert":
        return (
            "Renew the upstream's expired certificate (cert-manager or the CA)",
            "",
            "Low.",
            "N/A",
        )
    return (
        f"Rolling restart of {n}",
        f"kubectl rollout restart deployment/{n} -n {t.ns}",
        "Low: pods replaced one at a time.",
        f"kubectl rollout undo deployment/{n} -n {t.ns}",
    )


async def apply_fix(t: Ticket, v: View, fix: Fix, asked: bool) -> None:
    change, command, risk, backout = _proposal(t, fix)
    t.change = change + (f" (`{command}`)" if command else "")
    t.risk, t.backout = risk, backout
    if not asked:
        t.status = "Diagnosed; no change made (not requested)"
        t.step(f"Recommended fix: {change}. Say the word and I will apply it.")
        return
    if t.read_only:
        t.approver = owner(v) or "the production change approver (CAB / on-call lead)"
        need = ", ".join(t.approval) or f"writes in {t.ns}"
        t.summary = (
            t.summary or (t.rca[0] if t.rca else "")
        ) + f" Fix ready; approval needed ({need}), so no change made."
        t.status = "Awaiting CR approval"
        t.notes.append(
            f"Approval required ({need}): I have raised the CR below instead of applying it."
        )
        t.step(
            f"Approve this change in {t.ns}: {change}. I will apply it and verify the rollout once approved."
        )
        if "skip" in t.low or "urgent" in t.low:
            t.notes.append(
                "The urgency is understood, but the approval step cannot be skipped; an emergency CR is the fast path."
            )
        return
    if fix.kind in ("init", "pool", "cert", "configmap_key"):
        t.status = "Diagnosed; handed to owners"
        t.step(f"{change}: needs the owning team's input; not a safe blind change.")
        return
    if fix.kind == "rollback":
        await t.k(
            command.removeprefix("kubectl "),
            f"apply the fix: {change}",
            f"{n_(fix)}: new revision -> previous revision",
        )
        out = await t.k(
            f"rollout status deployment/{fix.target} -n {t.ns} --timeout=120s",
            "verify the rollback completes",
        )
        t.did(f"{change}: {'completed' if 'successfully' in out else 'in progress'}.")
        t.status = "Resolved, monitoring the error rate"
        return
    if fix.kind in ("memory", "request"):
        await t.k(
            command.removeprefix("kubectl "),
            f"apply the fix: {change}",
            f"{fix.target} {fix.detail}: -> {fix.value}",
        )
        out = await t.k(
            f"rollout status deployment/{fix.target} -n {t.ns} --timeout=120s",
            "verify the fixed pods roll out",
        )
        pods = await t.k(
            f"get pods -n {t.ns} -l app={fix.target}", "verify pods are Running and Ready"
        )
        ok = "successfully" in out
        t.quote(f"kubectl get pods -n {t.ns} -l app={fix.target}", " ".join(pods.split())[:160])
        t.did(f"{change}: applied; rollout {'completed' if ok else 'not yet complete'}.")
        t.status = "Resolved" if ok else "In progress"
        t.summary = t.summary or f"{fix.target} fixed: {change}."
        return
    ok = await _restart_any(t, v, fix.target)
    t.status = "Resolved" if ok else "In progress"
    first = (t.rca[0] if t.rca else "unhealthy").rstrip(".")
    t.summary = t.summary or f"{first}. Restarted" + (
        " and recovered." if ok else "; not yet healthy."
    )
    if production(v):
        t.notes.append("Production namespace: restart done rolling, one pod at a time.")


def n_(fix: Fix) -> str:
    return fix.target


async def _restart_any(t: Ticket, v: View, name: str) -> bool:
    if name in v.focus:
        return await restart(t, name, f"replace {name}'s unhealthy pods (diagnosis above)")
    pod = name
    manifest = await t.k(
        f"get pod {pod} -n {t.ns} -o yaml",
        f"save {pod}'s manifest: it is a bare pod, nothing recreates it",
    )
    await t.k(
        f"delete pod {pod} -n {t.ns}",
        f"restart the bare pod {pod}",
        f"pod {pod}: CrashLoopBackOff -> deleted (recreated next)",
    )
    clean = "\n".join(
        ln
        for ln in manifest.splitlines()
        if not ln.strip().startswith(("resourceVersion:", "uid:", "creationTimestamp:"))
    )
    clean = clean.split("\nstatus:", 1)[0]
    await t.apply(
        clean, f"recreate {pod} from its saved manifest", f"pod {pod}: absent -> recreated"
    )
    out = await t.k(f"get pod {pod} -n {t.ns}", f"verify {pod} is back")
    t.quote(f"kubectl get pod {pod} -n {t.ns}", " ".join(out.split())[:140])
    t.did(
        f"Restarted bare pod {pod} (saved manifest, delete, re-create); staging, within my autonomous scope."
    )
    return "Running" in out
