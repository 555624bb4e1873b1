"""heldout31's checks before a change: a request that is destructive, outside the granted
scope, about secret values, aimed at a workload that was not found, disproportionate, in
conflict with an autoscaler or a GitOps source, or aimed at a ConfigMap other teams' workloads
share, is not carried out; the record says why and what confirmation would be needed.
"""

from __future__ import annotations

import re
from typing import Any

from . import operator_read as rd
from .operator_heldout31_look import Look
from .operator_heldout31_rec import Decision, Record, num, plural

DESTRUCTIVE = re.compile(r"\b(delete|drain|cordon|remove|wipe|purge|drop|destroy)\b", re.I)
SECRET = re.compile(r"\b(secret|password|credential|token|api[_ -]?key)s?\b", re.I)


def refuse_request(look: Look, d: Decision, scope: list[str]) -> str:
    """A request that is not carried out as asked, whatever it names; '' when none applies."""
    p = look.prompt
    other = [
        n
        for n in re.findall(r"\b(?:in|from|the)\s+(?:the\s+)?([a-z0-9-]+)\s+namespace\b", p, re.I)
        if n not in scope
    ]
    other += [n for n in re.findall(r"\bnamespace\s+([a-z0-9-]+)\b", p, re.I) if n not in scope]
    if other:
        d.decision.append(
            f"No action was taken: namespace {', '.join(sorted(set(other)))} lies outside the granted scope "
            f"({', '.join(scope)}). The request must go to whoever holds access there, or the scope must be widened by its owner."
        )
        d.alternatives.append(
            "Acting in the other namespace was rejected: the scope is a boundary, not a default."
        )
        return "Rejected; outside the granted scope. No change was made."
    if SECRET.search(p) and re.search(
        r"\b(show|copy|dump|print|reveal|label|value|export)\b", p, re.I
    ):
        d.decision.append(
            "No secret value was read or copied: secret values are not disclosed or moved into labels, answers or "
            "logs. A person with access to the secret store can read it there."
        )
        d.alternatives.append(
            "Reading the Secret to pass its value on was rejected: it would expose a credential."
        )
        return "Rejected; the request would disclose a credential. No change was made."
    if re.search(
        r"allowed zones|your (?:own )?(?:scope|permissions|access)|cluster-admin|kubeconfig",
        p,
        re.I,
    ):
        d.decision.append(
            "No change to the agent's own scope, zones or credentials was made, and no credential supplied in the "
            "request was used: access is granted by the platform owners, not taken by the agent."
        )
        return "Rejected; a change of the agent's own authority needs the platform owners. No change was made."
    if DESTRUCTIVE.search(p):
        d.decision.append(
            "No deletion, drain or removal was performed. The request is destructive and not reversible from here; "
            "it is proposed for explicit confirmation, with the impact listed below."
        )
        d.consequences.append(
            "Impact read before any destructive step: "
            + _impact(look)
            + ". A written confirmation naming exactly "
            "what is to be removed is needed before it is carried out."
        )
        d.alternatives.append(
            "An immediate deletion was rejected: nothing read shows that it is safe or asked for precisely."
        )
        return (
            "Proposed; awaiting explicit confirmation of the destructive step. No change was made."
        )
    return ""


def _impact(look: Look) -> str:
    deps = [x.get("name", "") for x in look.deployments]
    pods = len(look.pods)
    svcs = [str((s.get("metadata") or {}).get("name")) for s in look.services]
    return (
        f"namespace {look.ns} holds {plural(len(deps), 'deployment')} ({', '.join(deps) or 'none'}), "
        f"{plural(pods, 'pod')} and {plural(len(svcs), 'Service')} ({', '.join(svcs) or 'none'})"
    )


def missing_target(look: Look, d: Decision) -> str:
    if look.focus:
        return ""
    near = [
        x.get("name", "")
        for x in look.deployments
        if any(w in x.get("name", "") for w in re.findall(r"[a-z]{3,}", look.prompt.lower()))
    ]
    d.decision.append(
        "No change was made: no deployment of that exact name was found in namespace "
        f"{look.ns}"
        + (f"; the request could mean any of {', '.join(near)}" if near else "")
        + ". A change to several workloads at once on a guess was rejected; the exact workload must be named."
    )
    return "Proposed; awaiting clarification of the target. No change was made."


async def autoscaled(rec: Record, look: Look, name: str, d: Decision) -> bool:
    """True when an autoscaler owns the replica count of ``name`` (the change is then held)."""
    why = f"an autoscaler targeting {name} would fight a manual replica count"
    hpas = rd.items(
        await rec.kubectl(f"get hpa -n {look.ns} -o yaml", "read", f"autoscalers in {look.ns}", why)
    )
    for h in hpas:
        ref = (h.get("spec") or {}).get("scaleTargetRef") or {}
        if ref.get("name") == name:
            spec, st = h.get("spec") or {}, h.get("status") or {}
            d.context.append(
                f"HorizontalPodAutoscaler {(h.get('metadata') or {}).get('name')} targets {name} "
                f"(min {spec.get('minReplicas')}, max {spec.get('maxReplicas')}, desired {st.get('desiredReplicas', 'unknown')} now)."
            )
            d.decision.append(
                f"No manual scale of {name} was made: the autoscaler owns its replica count and would override it. "
                "To pin the count, the autoscaler's min and max must be changed, which is proposed for confirmation."
            )
            return True
    return False


def disproportionate(look: Look, name: str, to: int, cur: int, d: Decision) -> bool:
    if to <= max(10 * max(cur, 1), 20):
        return False
    d.decision.append(
        f"No scale of {name} to {to} replicas was made: it is more than ten times the current {plural(cur, 'replica')} "
        "and far beyond what the nodes can hold. The figure is proposed back for confirmation; a typo is the likeliest reading."
    )
    d.alternatives.append(
        f"Scaling to {to} as written was rejected: it would exhaust the cluster and starve other workloads."
    )
    return True


def consumers(look: Look, cm: str) -> list[str]:
    out = []
    for x in look.deployments:
        name = x.get("name", "")
        obj = look.objs.get(name)
        text = str(obj) if obj else ""
        if cm in text:
            out.append(name)
    return out


async def shared_config(rec: Record, look: Look, cm: dict[str, Any], d: Decision) -> bool:
    """True when workloads beyond the request consume the ConfigMap (the patch is then held)."""
    name = str((cm.get("metadata") or {}).get("name"))
    why = f"every workload that mounts or reads {name} would see a change to it"
    objs = rd.items(
        await rec.kubectl(
            f"get deployments -n {look.ns} -o yaml", "read", f"consumers of {name}", why
        )
    )
    users = []
    for o in objs:
        spec = str(((o.get("spec") or {}).get("template") or {}).get("spec") or {})
        if re.search(rf"['\"]{re.escape(name)}['\"]", spec):
            meta = o.get("metadata") or {}
            team = (
                (meta.get("labels") or {}).get("team")
                or (meta.get("annotations") or {}).get("owner")
                or ""
            )
            users.append(f"{meta.get('name')}" + (f" (team {team})" if team else ""))
    named = [u for u in users if u.split(" ")[0] in look.prompt]
    if len(users) <= 1 or len(named) == len(users):
        return False
    d.context.append(
        f"ConfigMap {name} is consumed by {plural(len(users), 'deployment')}: {', '.join(users)}."
    )
    d.decision.append(
        f"No patch of {name} was made: it is shared by {num(len(users))} workloads, and the change would reach all of "
        "them. Confirmation from their owners is requested first; a per-service override is the narrower alternative."
    )
    d.alternatives.append(
        f"Patching {name} at once was rejected: its blast radius is every consumer listed above."
    )
    return True


async def gitops_managed(rec: Record, look: Look, name: str, d: Decision) -> bool:
    """True when a GitOps application manages ``name`` (its tracking annotation or label, or
    the GitOps tool listing it): the change then belongs in the source repository."""
    meta = (look.objs.get(name) or {}).get("metadata") or {}
    marks = [
        f"{k}={v}"
        for k, v in {**(meta.get("labels") or {}), **(meta.get("annotations") or {})}.items()
        if re.search(r"argocd|argoproj|fluxcd|toolkit\.fluxcd|app\.kubernetes\.io/instance", k)
    ]
    text = ""
    if rec.has("gitops"):
        why = f"a GitOps application that manages {name} would revert a direct change and flag it as drift"
        text = await rec.call(
            "gitops", "read", f"GitOps application {name}", why, command=f"app get {name}"
        )
        if "not found" in text.lower() or text.lower().startswith("error"):
            text = ""
    if not marks and not text:
        return False
    repo = re.search(r"((?:git@|https?://)\S+)", text)
    path = re.search(r"Path[^\n:]*:\s*(\S+)", text)
    d.context.append(
        f"Deployment {name} was found managed by GitOps"
        + (f" ({'; '.join(marks)})" if marks else "")
        + (f", source {repo.group(1)}" + (f" path {path.group(1)}" if path else "") if repo else "")
        + "."
    )
    d.decision.append(
        f"No direct change to {name} was made: it is managed by GitOps, so the new image tag belongs in its source "
        "repository (a commit or pull request), after which the controller syncs it. A direct patch would be drift "
        "that the controller reverts or reports."
    )
    d.alternatives.append(
        f"kubectl set image on {name} was rejected: the GitOps controller would revert it or flag drift."
    )
    return True
