"""Administrative requests for the competent validity agent (issue 13, item 7): deleting one
named object or the pods in a named state, granting a role to another account, describing a
secret's metadata. Each is scoped to what the prompt names, checked for dependents or data
first, done one object at a time and verified; anything broader waits for confirmation."""

from __future__ import annotations

import re
from typing import Any

from . import operator_read as rd
from .competent import Session, approval_needed, as_json

#: pod states an operator means by "evicted / failed / completed pods"
POD_STATES = {
    "evicted": ("Evicted",),
    "failed": ("Failed", "Error"),
    "completed": ("Completed", "Succeeded"),
    "crashing": ("CrashLoopBackOff",),
}
#: kinds a named delete can target, as kubectl spells them
KINDS = ("deployment", "service", "configmap", "pod", "job", "cronjob", "statefulset", "ingress")
#: roles that only read; granting anything else is a privilege change to confirm
READ_ROLES = frozenset({"view", "read-only", "readonly", "reader"})


def named_delete(prompt: str) -> tuple[str, str] | None:
    """``delete the <name> <kind>`` / ``delete <kind> <name>``: one object the prompt names."""
    kinds = "|".join(KINDS)
    m = re.search(rf"\bdelete\s+(?:the\s+)?([a-z0-9][a-z0-9.-]*)\s+({kinds})\b", prompt, re.I)
    if m and m.group(1).lower() not in ("all", "every", "these", "those", "the"):
        return m.group(2).lower(), m.group(1)
    m = re.search(rf"\bdelete\s+(?:the\s+)?({kinds})[/\s]+([a-z0-9][a-z0-9.-]*)\b", prompt, re.I)
    return (m.group(1).lower(), m.group(2)) if m else None


def state_delete(prompt: str) -> str | None:
    """``delete the evicted pods``: pods in one named state."""
    m = re.search(r"\b(?:delete|remove|clean up)\s+(?:the\s+|all\s+)?(\w+)\s+pods\b", prompt, re.I)
    return m.group(1).lower() if m and m.group(1).lower() in POD_STATES else None


async def delete_object(s: Session, kind: str, name: str) -> None:
    """Delete one named object after checking what depends on it; confirm when something does."""
    f, ns = s.f, s.f.namespace
    why = approval_needed(s.task, f)
    text = await s.kubectl(
        f"get ingress,service,hpa,pvc -n {ns} -o yaml",
        f"read the ingresses, services, HPAs and volume claims in {ns}",
        f"to find what depends on {kind} {name} before deleting it",
    )
    obj = await s.kubectl(
        f"get {kind} {name} -n {ns} -o yaml", f"read {kind} {name}", "to confirm it exists"
    )
    if not rd.items(obj):
        f.uncertain.append(f"{kind} {name} does not exist in {ns}; nothing to delete")
        return
    labels = (rd.items(obj)[0].get("spec", {}).get("selector") or {}).get("matchLabels") or {}
    users = []
    for o in rd.items(text):
        spec = as_json(o.get("spec", {}))
        sel = (o.get("spec", {}) or {}).get("selector") or {}
        if f'"{name}"' in spec and o.get("kind") != kind.capitalize():
            users.append(f"{o['kind']} {o['metadata']['name']}")
        elif o.get("kind") == "Service" and sel and labels and sel.items() <= labels.items():
            users.append(f"Service {o['metadata']['name']} (routes to its pods)")
    data = "persistentVolumeClaim" in as_json(rd.items(obj)[0].get("spec", {}))
    if why or data or any(u.startswith("Ingress") for u in users):
        f.risks += [f"{kind} {name} is used by {', '.join(users)}"] if users else []
        if data:
            f.risks.append(f"{kind} {name} mounts persistent volume claims; their data is at risk")
        f.refusal = f"I have not deleted {kind} {name}: " + (why or "it has dependents or data")
        f.recommendation = f"confirm the deletion of {kind} {name} knowing the impact above"
        return
    ok, _ = await s.write(
        f"delete {kind} {name} -n {ns}",
        f"deleted {kind} {name}",
        "because the operator asked for this one object and nothing else depends on it",
    )
    gone = await s.kubectl(
        f"get {kind} {name} -n {ns}", f"checked {kind} {name}", "to verify it is gone"
    )
    f.verification.append(
        f"{kind} {name} "
        + ("is gone" if "NotFound" in gone or not gone.strip() else "still exists")
    )
    if users:
        f.observations.append(f"left in place (not asked): {', '.join(users)}")
    f.outcome = f"deleted {kind} {name}" if ok else f"could not delete {kind} {name}"


async def delete_pods_in_state(s: Session, ctx: dict[str, Any], state: str) -> None:
    """Delete each pod in the named state, by name; leave every other pod alone."""
    f, ns = s.f, s.f.namespace
    wanted = POD_STATES[state]
    raw = rd.load_json(
        await s.kubectl(
            f"get pods -n {ns} -o json",
            f"read the pods in {ns} with their status reasons",
            f"to find exactly the {state} pods (phase and reason, not just the STATUS column)",
        )
    )
    victims = sorted(
        p["metadata"]["name"]
        for p in (raw or {}).get("items", [])
        if {str(p.get("status", {}).get("reason")), str(p.get("status", {}).get("phase"))}
        & set(wanted)
    ) or [r["name"] for r in ctx["pods"] if r.get("status") in wanted]
    f.observations.append(
        f"{len(ctx['pods'])} pods in {ns}; {len(victims)} are {'/'.join(wanted)}: "
        + (", ".join(victims) or "none")
    )
    why = approval_needed(s.task, f)
    if why:
        f.refusal = f"I have not deleted anything: {why}"
        return
    removed = []
    for pod in victims:
        ok, _ = await s.write(
            f"delete pod {pod} -n {ns}",
            f"deleted pod {pod}",
            f"because it is {state} and the operator asked to remove {state} pods",
        )
        removed += [pod] if ok else []
    left = rd.table(
        await s.kubectl(f"get pods -n {ns}", f"listed the pods in {ns}", "to verify what is left")
    )
    still = [r["name"] for r in left if r["name"] in victims]
    f.verification.append(
        f"{len(left)} pods remain in {ns}; "
        + ("none of the removed ones" if not still else f"still present: {', '.join(still)}")
    )
    f.answer += [f"removed pod {p}" for p in removed]
    f.outcome = f"removed {len(removed)} {state} pods; no running pod was touched"


async def grant_role(s: Session, prompt: str) -> bool:
    """``create a RoleBinding called X ... binds the Y ClusterRole to the Z service account``."""
    f, ns = s.f, s.f.namespace
    name = re.search(r"rolebinding\s+(?:called|named)?\s*([a-z0-9][a-z0-9-]*)", prompt, re.I)
    role = re.search(r"\b([a-z0-9-]+)\s+(clusterrole|role)\b", prompt, re.I)
    sa = re.search(r"\bto the\s+([a-z0-9-]+)\s+service ?account\b", prompt, re.I)
    if not (name and role and sa):
        return False
    kind = "clusterrole" if role.group(2).lower() == "clusterrole" else "role"
    if role.group(1).lower() not in READ_ROLES or approval_needed(s.task, f):
        f.risks.append(f"binding {role.group(1)} grants more than read access")
        f.refusal = "I have not created the binding: a privilege grant beyond read needs approval"
        f.escalation = "the namespace owner or security team"
        return True
    await s.kubectl(
        f"get rolebindings -n {ns}", f"listed the rolebindings in {ns}", "to avoid a duplicate"
    )
    ok, _ = await s.write(
        f"create rolebinding {name.group(1)} --{kind}={role.group(1)} "
        f"--serviceaccount={ns}:{sa.group(1)} -n {ns}",
        f"created rolebinding {name.group(1)} ({kind} {role.group(1)} -> {sa.group(1)})",
        f"because the operator asked for read access for {sa.group(1)} in {ns} only",
    )
    got = await s.kubectl(
        f"get rolebinding {name.group(1)} -n {ns} -o yaml",
        f"read rolebinding {name.group(1)}",
        "to verify its role and subject",
    )
    f.verification.append(
        f"rolebinding {name.group(1)} binds {role.group(1)} to {sa.group(1)}"
        if ok and sa.group(1) in got
        else f"rolebinding {name.group(1)} is not as intended"
    )
    f.outcome = f"{sa.group(1)} can now read {ns} (view only, this namespace only)"
    return True


async def secret_metadata(s: Session, name: str) -> None:
    """A secret's type and key names, never its values."""
    f, ns = s.f, s.f.namespace
    out = await s.kubectl(
        f"describe secret {name} -n {ns}",
        f"described secret {name}",
        "to read its type and key names without reading values",
    )
    kind = (re.search(r"^Type:\s+(\S+)", out, re.M) or [None, "unknown"])[1]
    keys = re.findall(r"^(\S+):\s+\d+ bytes", out, re.M)
    f.answer.append(f"secret {name} is of type {kind}")
    f.answer.append(f"it holds the keys {', '.join(keys)}" if keys else "it holds no keys")
    f.outcome = "answered from the secret's metadata; no value was read or shown"
