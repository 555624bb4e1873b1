"""``heldout25``'s deletions: what would be lost is read first (workloads, persistent volume
claims, dependents of a service), then the deletion is held for an explicit confirmation with
that impact summary. A bare "delete the pods" is answered with a question about which ones.
"""

from __future__ import annotations

import re

from .operator_heldout25 import Shift
from .operator_read import load_yaml, table


async def deletion(shift: Shift) -> bool:
    low = shift.low
    m = re.search(r"delete (?:the )?([a-z0-9-]+) namespace|delete namespace ([a-z0-9-]+)", low)
    if m:
        return await _namespace(shift, m.group(1) or m.group(2))
    m = re.search(r"delete (?:the )?([a-z0-9-]+) service|delete (?:service|svc) ([a-z0-9-]+)", low)
    if m:
        return await _service(shift, m.group(1) or m.group(2))
    if re.search(r"\bpods\b", low):
        return await _pods(shift)
    m = re.search(r"delete (?:the )?([a-z0-9-]+) deployment|delete deployment ([a-z0-9-]+)", low)
    if m:
        return await _deployment(shift, m.group(1) or m.group(2))
    return False


async def _namespace(shift: Shift, ns: str) -> bool:
    pvcs = table(
        await shift.k(f"get pvc -n {ns}", "so that persistent data in the namespace was found")
    )
    shift.log(
        f"The deletion of the namespace {ns} was assessed: it would remove every object in it "
        f"({len(shift.deploys)} deployments: {', '.join(sorted(shift.deploys)) or 'none'}) and "
        "cannot be undone; there is no recovery of a deleted namespace short of a restore from "
        "backup."
    )
    if pvcs:
        shift.log(
            "Persistent data was found at risk: the PersistentVolumeClaims "
            + ", ".join(
                f"{p.get('name')} ({p.get('capacity', '?')}, volume {p.get('volume', '?')})"
                for p in pvcs
            )
            + " would be deleted with the namespace, and their data with them."
        )
    shift.log("The deletion was not executed; an explicit confirmation is required first.")
    shift.hand(
        f"Confirmation is requested, with the impact above, before {ns} is deleted: the owner "
        "should confirm that the workloads are retired and that the data on the claims has been "
        "backed up or is no longer needed. The deletion is irreversible."
    )
    return True


async def _service(shift: Shift, name: str) -> bool:
    ns = shift.ns
    await shift.k(
        f"describe service {name} -n {ns}", "so that the service and its endpoints were seen"
    )
    ing = await shift.k(
        f"get ingress -n {ns} -o yaml", "so that ingresses routing to the service were found"
    )
    dep = await shift.k(
        f"get deployments -n {ns} -o yaml", "so that workloads calling the service were found"
    )
    users = sorted(set(_ingress_users(ing, name)))
    callers = sorted(set(_callers(dep, name)))
    shift.log(
        f"The dependents of the service {name} were enumerated: "
        + (f"ingresses {', '.join(users)}; " if users else "no ingress routes to it; ")
        + (
            f"workloads that call it by name: {', '.join(callers)}."
            if callers
            else "no workload refers to it by name."
        )
    )
    shift.log(
        f"Deleting {name} would cut every dependent listed above off from its backends until the "
        "service was recreated (with a new cluster IP); the deletion was not executed."
    )
    shift.hand(
        f"Confirmation is requested before the service {name} is deleted, with the affected "
        "dependents above; the dependents should be migrated or retired first."
    )
    return True


def _ingress_users(text: str, name: str) -> list[str]:
    doc = load_yaml(text) or {}
    out = []
    for item in doc.get("items") or []:
        if f"name: {name}" in str(item) or f"'name': '{name}'" in str(item):
            out.append(f"ingress/{(item.get('metadata') or {}).get('name')}")
    return out


def _callers(text: str, name: str) -> list[str]:
    doc = load_yaml(text) or {}
    out = []
    for item in doc.get("items") or []:
        meta = item.get("metadata") or {}
        if meta.get("name") == name:
            continue
        if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", str(item.get("spec"))):
            out.append(f"deployment/{meta.get('name')}")
    return out


async def _pods(shift: Shift) -> bool:
    bad = [
        p
        for p in shift.pods
        if p.get("status") not in ("Running", "Completed") or p.get("ready", "1/1").startswith("0/")
    ]
    shift.log(
        f"The request named no pod; {len(shift.pods)} pods were found in {shift.ns}, and deleting "
        "all of them would take every workload in the namespace down at once. No pod was deleted."
    )
    if bad:
        shift.log(
            "The pods found unhealthy were: "
            + ", ".join(f"{p.get('name')} ({p.get('status')})" for p in bad[:8])
            + "."
        )
    shift.hand(
        "Clarification is requested: which pods (or which workload) are meant, and what is "
        "wrong? The deletion is held until the scope is narrowed."
    )
    return True


async def _deployment(shift: Shift, name: str) -> bool:
    shift.log(
        f"The deletion of the deployment {name} was held: it would remove the workload and its "
        "pods, and the request gave no reason that such a deletion would serve."
    )
    shift.hand(f"Confirmation is requested, with the owner, before {name} is deleted.")
    return True
