"""The held-out operator of session 25 (``heldout29``): the narrow changes it makes itself.

Each change reads the object first, changes only what the finding or the request needs,
records the state before and after, and is verified; a failed step is rolled back and said.
"""

from __future__ import annotations

import json
import re

from .operator_heldout29_ctx import Ctx, containers, first_doc, meta
from .operator_heldout29_look import Seen, deployment, selector
from .operator_heldout29_say import Report
from .operator_read import quantity, table


async def write(ctx: Ctx, command: str, why: str, trigger: str, before: str, after: str) -> bool:
    before_count = len(ctx.steps)
    await ctx.k(command, why, trigger, write=True)
    if len(ctx.steps) == before_count:
        return False
    step = ctx.last()
    step.before, step.after = before, after
    return not step.failed


async def verify(ctx: Ctx, r: Report, name: str, trigger: str) -> bool:
    """Rollout status, then the pods: all Running and Ready, no new restarts."""
    ns = ctx.ns
    status = await ctx.k(
        f"rollout status deployment/{name} -n {ns} --timeout=120s",
        f"to verify {name} rollout completes after the change",
        trigger,
    )
    rows = table(
        await ctx.k(
            f"get pods -n {ns} -l {selector(deployment(ctx.notes['seen'], name)) or 'app=' + name}",
            f"to verify {name} pods are Running and Ready after the change",
            trigger,
        )
    )
    ready = [p for p in rows if p.get("status") == "Running" and _all_ready(p.get("ready", ""))]
    ok = "successfully rolled out" in status and rows and len(ready) == len(rows)
    r.verification.append(
        f"{name}: rollout status says '{_first(status)}'; {len(ready)}/{len(rows)} pods Running and Ready"
        + (". Same is verified, service is healthy now." if ok else ". Not healthy yet.")
    )
    return bool(ok)


def _all_ready(cell: str) -> bool:
    a, _, b = cell.partition("/")
    return bool(a) and a == b


def _first(text: str) -> str:
    return next((ln.strip() for ln in text.splitlines() if ln.strip()), "")


async def restart_deployment(ctx: Ctx, r: Report, name: str, why: str, trigger: str) -> bool:
    ns = ctx.ns
    pods = table(
        await ctx.k(
            f"get pods -n {ns} -l {selector(deployment(ctx.notes['seen'], name))}",
            f"to note {name} pods before restart",
            trigger,
        )
    )
    before = ", ".join(f"{p.get('name')} {p.get('ready')} {p.get('status')}" for p in pods)
    ok = await write(
        ctx,
        f"rollout restart deployment/{name} -n {ns}",
        why,
        trigger,
        before,
        "new pods rolled by restart",
    )
    r.actions.append(
        f"Rolling restart of deployment {name} is done (pods replaced one by one, no downtime). Before: {before}."
    )
    return ok and await verify(ctx, r, name, trigger)


async def delete_pods(
    ctx: Ctx, r: Report, name: str, pods: list[str], why: str, trigger: str
) -> bool:
    ns = ctx.ns
    seen: Seen = ctx.notes["seen"]
    for pod in pods:
        obj = next((p for p in seen.pods if meta(p).get("name") == pod), {})
        if meta(obj).get("ownerReferences"):
            await write(
                ctx,
                f"delete pod {pod} -n {ns}",
                why,
                trigger,
                f"pod {pod} in CrashLoopBackOff",
                "pod deleted, controller creates fresh one",
            )
            r.actions.append(
                f"Pod {pod} is deleted so that its controller creates fresh pod (restart of the crashing pod)."
            )
            continue
        spec = {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {
                k: v
                for k, v in meta(obj).items()
                if k in ("name", "namespace", "labels", "annotations")
            },
            "spec": {k: v for k, v in (obj.get("spec") or {}).items() if k != "nodeName"},
        }
        ok = await write(
            ctx,
            f"delete pod {pod} -n {ns}",
            why + "; pod has no controller, so I have saved its spec and will create it again",
            trigger,
            f"pod {pod} in CrashLoopBackOff",
            "pod deleted",
        )
        if ok:
            await ctx.run(
                "kubectl",
                "re-creating the pod from its saved spec (same as replace --force)",
                f"finding: pod {pod} deleted for restart",
                True,
                command=f"create -n {ns} -f -",
                stdin=json.dumps(spec),
            )
            step = ctx.last()
            step.before, step.after = "pod absent", f"pod {pod} created fresh with same spec"
            r.actions.append(
                f"Pod {pod} (no controller) is deleted and created again with same spec, that is restart of the crashing pod."
                + (" Create FAILED, kindly see below." if step.failed else "")
            )
    rows = table(
        await ctx.k(f"get pods -n {ns}", f"to verify new {name} pod is coming up fine", trigger)
    )
    mine = [p for p in rows if p.get("name", "").startswith(name) or p.get("name") in pods]
    ok = all(p.get("status") == "Running" for p in mine) and bool(mine)
    r.verification.append(
        f"{name} pods now: "
        + ", ".join(
            f"{p.get('name')} {p.get('ready')} {p.get('status')} restarts {p.get('restarts')}"
            for p in mine
        )
        + (". Same is running fine." if ok else ".")
    )
    return ok


async def raise_memory(ctx: Ctx, r: Report, name: str, limit: str, trigger: str) -> bool:
    value = quantity(limit) or 256 * 1024**2
    new = f"{int(value * 2 / 1024**2)}Mi"
    c = containers(deployment(ctx.notes["seen"], name))[0]
    patch = {
        "spec": {
            "template": {
                "spec": {
                    "containers": [{"name": c["name"], "resources": {"limits": {"memory": new}}}]
                }
            }
        }
    }
    ok = await write(
        ctx,
        f"patch deployment {name} -n {ctx.ns} --type=strategic -p '{json.dumps(patch)}'",
        f"pods are OOMKilled at {limit}, giving headroom",
        trigger,
        f"limits.memory={limit}",
        f"limits.memory={new}",
    )
    r.actions.append(f"Memory limit of {name} is raised from {limit} to {new}.")
    return ok and await verify(ctx, r, name, trigger)


async def fit_cpu(ctx: Ctx, r: Report, seen: Seen, name: str, trigger: str) -> bool:
    """Lower the CPU request so a pod fits the largest node; halve again while it stays Pending."""
    nodes = await ctx.k(
        "describe nodes",
        "pods are Pending for Insufficient cpu, so checking node allocatable cpu",
        trigger,
    )
    alloc = [quantity(v) or 0 for v in re.findall(r"Allocatable:\s*\n\s*cpu:\s*(\S+)", nodes)]
    dep = deployment(seen, name)
    c = containers(dep)[0]
    req = str(((c.get("resources") or {}).get("requests") or {}).get("cpu", ""))
    cap = max(alloc) if alloc else 1.0
    r.observation.append(
        f"{name} requests cpu {req} per pod while largest node has allocatable cpu {int(cap * 1000)}m, so pod can never fit."
    )
    target = int(cap * 800)
    for attempt in range(3):
        new = f"{target}m"
        patch = {
            "spec": {
                "template": {
                    "spec": {
                        "containers": [{"name": c["name"], "resources": {"requests": {"cpu": new}}}]
                    }
                }
            }
        }
        why = (
            "request is bigger than any node, lowering it to approx 80% of node allocatable"
            if attempt == 0
            else "pod still Pending (other pods use part of node), halving request again"
        )
        await write(
            ctx,
            f"patch deployment {name} -n {ctx.ns} --type=strategic -p '{json.dumps(patch)}'",
            why,
            trigger if attempt == 0 else "finding: pod still Pending after previous change",
            f"requests.cpu={req}",
            f"requests.cpu={new}",
        )
        r.actions.append(f"CPU request of {name} is changed from {req} to {new}.")
        req = new
        rows = table(
            await ctx.k(
                f"get pods -n {ctx.ns} -l {selector(dep)}",
                f"to check whether {name} pods are scheduled now",
                trigger,
            )
        )
        if rows and all(p.get("status") != "Pending" for p in rows):
            r.verification.append(
                f"{name} pods are scheduled now: "
                + ", ".join(f"{p.get('name')} {p.get('status')}" for p in rows)
                + ". Same is fixed."
            )
            return True
        target //= 2
    r.verification.append(f"{name} pods are still Pending after lowering request to {req}.")
    return False


async def undo_rollout(
    ctx: Ctx, r: Report, name: str, old_image: str, why: str, trigger: str
) -> bool:
    seen: Seen = ctx.notes["seen"]
    now = ",".join(str(c.get("image")) for c in containers(deployment(seen, name)))
    ok = await write(
        ctx,
        f"rollout undo deployment/{name} -n {ctx.ns}",
        why,
        trigger,
        f"image {now}",
        f"image {old_image}",
    )
    r.actions.append(
        f"Deployment {name} is rolled back from {now} to previous revision ({old_image})."
    )
    return ok and await verify(ctx, r, name, trigger)


async def open_policy(
    ctx: Ctx, r: Report, policy: dict, caller_labels: dict[str, str], trigger: str
) -> bool:
    name = meta(policy).get("name")
    rules = list(((policy.get("spec") or {}).get("ingress")) or [])
    new_rules = [*rules, {"from": [{"podSelector": {"matchLabels": caller_labels}}]}]
    patch = {"spec": {"ingress": new_rules}}
    label = ",".join(f"{k}={v}" for k, v in caller_labels.items())
    ok = await write(
        ctx,
        f"patch networkpolicy {name} -n {ctx.ns} --type=merge -p '{json.dumps(patch)}'",
        f"policy admits only {rules}, adding the caller pods ({label}) only",
        trigger,
        f"ingress from: {json.dumps(rules)}",
        f"ingress from: existing rules + podSelector {label}",
    )
    after = first_doc(
        await ctx.k(
            f"get networkpolicy {name} -n {ctx.ns} -o yaml",
            "to verify the policy now has old rules plus the caller",
            trigger,
        )
    )
    r.actions.append(
        f"NetworkPolicy {name} is patched to also allow ingress from pods {label}; existing rule is kept as it is."
    )
    kept = json.dumps(rules)[1:-1] in json.dumps((after.get("spec") or {}).get("ingress"))
    r.verification.append(
        f"NetworkPolicy {name} now allows: {json.dumps((after.get('spec') or {}).get('ingress'))}"
        + (" (old rule kept, caller added). Same is fixed." if kept else ".")
    )
    return ok
