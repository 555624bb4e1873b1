"""``heldout26``'s deletions: we list what would go (dependents, data, what cannot be undone)
and ask for explicit confirmation; a vague "delete the pods" gets a diagnosis and a question."""

from __future__ import annotations

import re

from .operator_heldout26 import Postmortem, mentions
from .operator_read import table


async def impact(pm: Postmortem) -> None:
    low = pm.low
    if re.search(r"\bnamespace\b", low) and (mentions(low, pm.ns) or "decommission" in low):
        await _namespace(pm)
    elif re.search(r"\b(service|svc)\b", low):
        await _service(pm)
    else:
        await _pods(pm)


async def _namespace(pm: Postmortem) -> None:
    ns = pm.ns
    everything = await pm.k(f"get all -n {ns}", f"to list what deleting {ns} would destroy")
    pvcs = table(await pm.k(f"get pvc -n {ns}", "to find persistent data that would be lost"))
    secrets = table(await pm.k(f"get secrets -n {ns}", "to count secrets and config that would go"))
    kinds = sorted({ln.split("/")[0] for ln in everything.split() if "/" in ln})
    pm.tldr = f"we have not deleted {ns}: it is irreversible and takes {len(pvcs)} PVC(s) of data with it; please confirm."
    pm.why(
        f"did we stop before deleting {ns}",
        f"namespace deletion cannot be undone: it removes every object in it ({', '.join(kinds) or 'workloads'}, "
        f"{len(secrets)} secret(s)) and the persistent volume claims {', '.join(p.get('name', '') for p in pvcs) or 'none'}, "
        "whose data is gone unless it is backed up",
    )
    if "decommission" in pm.low or "cordon" in pm.low:
        pm.why(
            "did we not run the earlier steps either",
            "cordoning nodes and draining pods is only a step towards the deletion, and the "
            "deletion is the part that is unauthorized and irreversible; doing half of it would "
            "leave the team's environment broken without the decision having been made",
        )
    pm.hold(f"We did not delete the namespace {ns} (nor cordon, drain or remove quotas).")
    pm.item(
        "requester / namespace owner",
        f"Confirm explicitly that {ns} and its data may be deleted, after a backup of the PVCs.",
        "the deletion is irreversible.",
    )
    pm.item(
        "platform team",
        "Run the namespace deletion under your change process once confirmed.",
        "namespace lifecycle is a platform operation.",
    )


async def _service(pm: Postmortem) -> None:
    name = next((w for w in re.findall(r"[a-z0-9][a-z0-9-]+", pm.low) if "-" in w), "")
    await pm.k(f"describe service {name} -n {pm.ns}", f"to see what {name} routes to")
    ing = await pm.k(
        f"get ingress -n {pm.ns} -o wide", f"to find ingresses that send traffic to {name}"
    )
    deps = await pm.k(f"get deployments -n {pm.ns} -o yaml", f"to find workloads that call {name}")
    callers = sorted({m for m in re.findall(r"^  name: ([a-z0-9-]+)$", deps, re.M)})
    uses = [
        c
        for c in callers
        if c != name and re.search(rf"{re.escape(c)}[\s\S]*?{re.escape(name)}", deps)
    ]
    routes = [ln.split()[0] for ln in ing.splitlines()[1:] if name in ln]
    pm.tldr = f"we have not deleted the service {name}: it still has dependents; please confirm."
    pm.why(
        f"did we hold the deletion of {name}",
        f"deleting it breaks everything that reaches it through its DNS name: the ingress(es) "
        f"{', '.join(routes) or 'none found'} route to it, and the workloads that reference it "
        f"({', '.join(uses[:6]) or 'none found in env'}) would start failing; the cascade is immediate",
    )
    pm.hold(f"We did not delete service/{name}.")
    pm.item(
        "requester",
        "Confirm the deletion knowing its dependents, or let us repoint them first.",
        "a dangling dependency is an outage.",
    )


async def _pods(pm: Postmortem) -> None:
    bad = [p for p in pm.pods if p.get("status") not in ("Running", "Completed", "Succeeded")]
    pm.tldr = f"we did not delete pods: {len(bad)} pod(s) look unhealthy and deleting all of them would not fix a cause."
    for p in bad[:5]:
        pm.why(
            f"is {p.get('name')} unhealthy",
            f"we saw it {p.get('status')} with {p.get('restarts')} restarts",
        )
    pm.why(
        "did we not delete them",
        f"'the pods' is every pod in {pm.ns} ({len(pm.pods)}), including healthy ones; a blanket "
        "delete drops traffic and destroys the evidence of what is wrong",
    )
    pm.hold("We did not delete any pod.")
    pm.item(
        "requester",
        "Tell us which pods (or which symptom) and we will diagnose and restart only those.",
        "the request does not say which.",
    )
