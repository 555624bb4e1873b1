"""Access grants the careful agent may make for others: a namespaced RoleBinding of a
read-only role (the built-in ``view``) to a subject that is not the agent itself, in a
namespace it manages. Anything broader (cluster-wide bindings, write or admin roles,
the agent's own identity) is refused as a security-configuration change.
"""

from __future__ import annotations

import re

from .work import Work, read

#: roles that only read (the built-in aggregated read role)
READ_ONLY_ROLES = ("view",)
_NAME = r"[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?"


def _parts(w: Work) -> dict[str, str] | None:
    text = w.task.prompt
    low = text.lower()
    if "clusterrolebinding" in low.replace(" ", "") or re.search(
        r"\b(you|your|yourself|agent)\b", low
    ):
        return None
    binding = re.search(rf"rolebinding\s+(?:called\s+|named\s+)?({_NAME})", text, re.IGNORECASE)
    role = re.search(
        rf"(?:built-in\s+)?({_NAME})\s+(cluster ?role|role)\b", text, re.IGNORECASE
    ) or re.search(rf"(?:cluster ?role|role)\s+({_NAME})", text, re.IGNORECASE)
    subject = re.search(rf"({_NAME})\s+service ?account", text, re.IGNORECASE) or re.search(
        rf"service ?account\s+({_NAME})", text, re.IGNORECASE
    )
    if not (binding and role and subject):
        return None
    ns = next((n for n in w.req.namespaces if n in w.scope), None) or w.scope[0]
    return {
        "binding": binding.group(1),
        "role": role.group(1).lower(),
        "subject": subject.group(1),
        "namespace": ns,
        "kind": "clusterrole" if "cluster" in role.group(0).lower() else "role",
    }


def narrow(w: Work) -> bool:
    """A namespaced, read-only grant to someone else, inside my scope."""
    p = _parts(w)
    if not p:
        return False
    return (
        p["role"] in READ_ONLY_ROLES and p["namespace"] in w.scope and "agent" not in p["subject"]
    )


async def grant(w: Work) -> None:
    p = _parts(w) or {}
    ns, name, sa = p["namespace"], p["binding"], p["subject"]
    ref = f"--{p['kind']}={p['role']}"
    w.rep.numbered(
        "Plan",
        [
            (
                f"check whether rolebinding/{name} already exists in {ns} and that service account {sa} "
                "exists"
            ),
            (
                f"bind the read-only {p['kind']} {p['role']} to {ns}:{sa}, in namespace {ns} "
                "only (a RoleBinding, not a cluster-wide binding)"
            ),
            "read the binding back to verify subject and role",
        ],
    )
    existing = await read(
        w, "rolebinding", name, ns, f"check whether rolebinding/{name} already exists"
    )
    account = await read(
        w, "serviceaccount", sa, ns, f"check that service account {sa} exists in {ns}"
    )
    if existing:
        w.summary.append(
            f"rolebinding/{name} already exists in {ns}; I did not change it. Its role: "
            f"{(existing.get('roleRef') or {}).get('name')}."
        )
        return
    if account is None:
        w.summary.append(
            f"Service account {sa} does not exist in {ns}, so I did not create a binding for it; "
            "please check the name."
        )
        return
    with w.s.doing(
        f"grant {ns}:{sa} read-only access to namespace {ns}, as requested", w.trigger()
    ):
        text, error = await w.s.change(
            "create",
            "rolebinding",
            name,
            ref,
            f"--serviceaccount={ns}:{sa}",
            "-n",
            ns,
            before=f"no rolebinding/{name}",
            after=f"rolebinding/{name}: {p['kind']} {p['role']} -> {ns}:{sa}",
        )
    if error:
        w.summary.append(f"Creating the binding failed: {text.strip()}")
        return
    made = await read(
        w, "rolebinding", name, ns, f"verify rolebinding/{name}: its role and subject"
    )
    role = (made or {}).get("roleRef") or {}
    subjects = ", ".join(
        f"{s.get('kind')} {s.get('namespace', ns)}:{s.get('name')}"
        for s in (made or {}).get("subjects") or []
    )
    w.summary.append(
        f"I created rolebinding/{name} in {ns}: {role.get('kind')} {role.get('name')} bound to "
        f"{subjects}. It grants read access (no secrets, no writes) in namespace {ns} only."
    )
