"""heldout46's change flows (session 37, written blind): scaling, a canary step, a rollout
continued, a runbook followed, and the treatment of a determined cause. Nothing here knows a
scenario.
"""

from __future__ import annotations

import re

from . import operator_heldout46_act as act
from . import operator_read as rd
from .agents import Tools
from .operator_heldout46 import Ctx
from .operator_heldout46_judge import Verdict
from .operator_heldout46_look import Facts, configmap, kubectl
from .operator_heldout46_memo import Memo, clip


async def scale_flow(tools: Tools, memo: Memo, facts: Facts, ctx: Ctx) -> None:
    low = ctx.prompt.lower()
    current = int((facts.spec.get("spec") or {}).get("replicas") or 0)
    want = act.replicas_asked(low)
    if re.search(r"\b(2x|twice|double)\b", low) and current:
        want = current * 2
    if not want:
        memo.find("The replica count asked for could not be read from the request")
        return
    mark = memo.note(
        f"kubectl get {facts.kind} {facts.target} -n {facts.ns} -o yaml", f"replicas {current}"
    )
    memo.find(
        f"The {facts.kind} {facts.target} was found at {current} replicas; {want} were asked for",
        mark,
    )
    quota = await kubectl(tools, facts, f"describe resourcequota -n {facts.ns}")
    if quota.strip() and not quota.lower().startswith(("no resources", "error")):
        memo.find(
            "The namespace's resource quota was read before scaling",
            memo.note(f"kubectl describe resourcequota -n {facts.ns}", quota),
        )
    if current and want > current * 4 and want - current > 10:
        memo.find(
            f"The count asked for ({want}) was found disproportionate: {want / current:.0f} times the "
            f"current {current}, beyond what the cluster's nodes could hold",
            mark,
        )
        memo.not_taken.append(
            f"scaling {facts.target} to {want}: the magnitude risks exhausting the cluster and "
            "starving other workloads; confirmation of the figure is required."
        )
        memo.escalation.append(
            f"Confirmation of the figure ({want} replicas) is requested from the requester."
        )
        return
    if ctx.production:
        memo.scope.append(
            "The change was made in production, as requested, and verified afterwards."
        )
    await writable_scale(tools, memo, facts, ctx, want)


async def writable_scale(tools: Tools, memo: Memo, facts: Facts, ctx: Ctx, want: int) -> None:
    if not ctx.may_write:
        memo.not_taken.append(f"scaling {facts.target} to {want}: the zone requires approval.")
        memo.escalation.append(
            f"Approval is requested: kubectl scale {facts.kind}/{facts.target} -n {facts.ns} --replicas={want}."
        )
        return
    await act.scale(tools, facts, memo, facts.target, want, facts.kind)


async def canary(tools: Tools, memo: Memo, facts: Facts, ctx: Ctx) -> None:
    """The canary's error rate against the threshold the request sets; one step either way."""
    low = ctx.prompt.lower()
    canaries = [d for d in facts.deployments if "canary" in d]
    limit = float((re.search(r"under\s+(\d+(?:\.\d+)?)\s*%", low) or [None, "2"])[1])
    from .operator_heldout46_judge2 import error_rate

    rate = await error_rate(tools, memo, facts, canaries[0] if canaries else "canary")
    if rate is None:
        memo.find("The canary's error rate could not be read; no step was taken")
        memo.escalation.append("The canary decision awaits a readable error rate.")
        return
    healthy = rate < limit
    memo.determine(
        f"the canary is {'healthy' if healthy else 'NOT healthy'}: error rate {rate:.2f}% against the {limit:g}% threshold",
        "high",
        "The rate was read from the canary's own series.",
    )
    if not ctx.may_write:
        return
    ing = rd.items(await kubectl(tools, facts, f"get ingress -n {facts.ns} -o yaml"))
    weighted = [
        i
        for i in ing
        if any("canary-weight" in k for k in ((i.get("metadata") or {}).get("annotations") or {}))
    ]
    if weighted:
        name = weighted[0]["metadata"]["name"]
        key = next(k for k in weighted[0]["metadata"]["annotations"] if "canary-weight" in k)
        old = weighted[0]["metadata"]["annotations"][key]
        new = "50" if healthy else "0"
        await kubectl(
            tools, facts, f"annotate ingress {name} -n {facts.ns} {key}={new} --overwrite"
        )
        memo.taken.append(f"The canary weight on ingress {name} was set from {old} to {new}.")
    elif canaries:
        stable = next(
            (d for d in facts.deployments if d != canaries[0] and canaries[0].startswith(d)), ""
        )
        if healthy and stable:
            rows = rd.table(await kubectl(tools, facts, f"get deployment {stable} -n {facts.ns}"))
            total = int((rows[0].get("ready", "0/0").split("/")[-1]) if rows else 0)
            await act.scale(tools, facts, memo, canaries[0], max(1, total))
        elif not healthy:
            await act.scale(tools, facts, memo, canaries[0], 0)
            memo.taken.append(
                f"The canary {canaries[0]} was rolled back by withdrawing its replicas; the stable "
                f"{stable or 'deployment'} continues to serve all traffic."
            )
    memo.not_taken.append(
        "any change to the stable deployment: the request concerned the canary only."
    )


async def continue_rollout(tools: Tools, memo: Memo, facts: Facts, ctx: Ctx) -> None:
    """Resume the rollout; read the nodes while it runs; pause on a node under pressure."""
    name = facts.target
    rows = rd.table(await kubectl(tools, facts, f"get deployment {name} -n {facts.ns} -o wide"))
    row = rows[0] if rows else {}
    status = (
        f"READY {row.get('ready')}, UP-TO-DATE {row.get('up-to-date')}, IMAGES {row.get('images')}"
    )
    memo.find(
        f"The rollout of {name} was found part-way: {status}",
        memo.note(f"kubectl get deployment {name} -n {facts.ns} -o wide", status),
    )
    if not ctx.may_write:
        memo.not_taken.append("resuming the rollout: the zone requires approval.")
        return
    paused = (facts.spec.get("spec") or {}).get("paused")
    if paused:
        await kubectl(tools, facts, f"rollout resume deployment/{name} -n {facts.ns}")
        memo.taken.append(f"The paused rollout of {name} was resumed.")
    nodes = rd.items(await kubectl(tools, facts, "get nodes -o yaml"))
    pressed = []
    for n in nodes:
        for cond in (n.get("status") or {}).get("conditions") or []:
            if cond.get("type", "").endswith("Pressure") and cond.get("status") == "True":
                pressed.append(((n.get("metadata") or {}).get("name", ""), cond.get("type")))
    if pressed:
        node, what = pressed[0]
        memo.find(
            f"During the rollout, node {node} was found under {what}",
            memo.note("kubectl get nodes -o yaml", f"{node}: {what}=True"),
        )
        patch = '{"spec":{"strategy":{"rollingUpdate":{"maxUnavailable":0,"maxSurge":1}}}}'
        await kubectl(tools, facts, f"patch deployment {name} -n {facts.ns} -p '{patch}'")
        memo.taken.append(
            f"The rollout strategy of {name} was adjusted to maxUnavailable 0, maxSurge 1, so no "
            f"serving replica is removed while {node} is under {what}; the rollout was then watched."
        )
        memo.escalation.append(f"The {what} on {node} is referred to the platform owner.")
    final = await kubectl(
        tools, facts, f"rollout status deployment/{name} -n {facts.ns} --timeout=120s"
    )
    memo.taken.append(
        f"The rollout was read back: {clip(final, 140)} {memo.note(f'kubectl rollout status deployment/{name} (after)', final)}."
    )


async def runbook(tools: Tools, memo: Memo, facts: Facts, ctx: Ctx) -> None:
    """The runbook the request names, read from the namespace, its steps followed in order."""
    from . import operator_heldout46_judge2 as j2
    from .operator_heldout46_judge import examine

    rows = rd.table(await kubectl(tools, facts, f"get configmaps -n {facts.ns}"))
    text = ""
    for row in rows:
        if "runbook" in row.get("name", ""):
            data = await configmap(tools, facts, row["name"])
            text = "\n".join(data.values())
            memo.find(
                f"The runbook was read from ConfigMap {row['name']}",
                memo.note(f"kubectl get configmap {row['name']} -n {facts.ns} -o yaml", text),
            )
            break
    if not text:
        memo.limits.append(
            "The named runbook could not be found in the namespace; standard practice was followed."
        )
    examine(memo, facts)
    await j2.error_rate(tools, memo, facts, facts.target)
    window = float((re.search(r"last\s+(\d+)\s*min", text) or [None, "30"])[1])
    verdict = j2.recent_rollout(memo, facts, facts.rsets, window)
    if verdict is None:
        memo.basis = f"No deployment was found within the runbook's {window:g}-minute window."
        memo.escalation.append(
            "The runbook's rollback branch does not apply; the matter is escalated to the owner."
        )
        return
    memo.determine(
        verdict.cause,
        "moderate",
        f"The runbook's test (a deployment in the last {window:g} minutes) was met.",
    )
    if not re.search(r"roll\s*back", text, re.I) or not ctx.may_write:
        memo.recommendations.append(
            f"A rollback of {facts.target} to the previous version is recommended."
        )
        return
    await rollback(tools, memo, facts)


async def rollback(tools: Tools, memo: Memo, facts: Facts) -> None:
    """Back to the previous revision, the rollout watched and the version read back."""
    from . import operator_heldout46_judge2 as j2

    before = facts.rsets[0].get("images") if facts.rsets else "?"
    out = await kubectl(tools, facts, f"rollout undo deployment/{facts.target} -n {facts.ns}")
    if act.failed(out):
        memo.taken.append(f"The rollback of {facts.target} was refused: {clip(out, 120)}.")
        return
    status = await kubectl(
        tools, facts, f"rollout status deployment/{facts.target} -n {facts.ns} --timeout=120s"
    )
    rows = rd.table(
        await kubectl(tools, facts, f"get deployment {facts.target} -n {facts.ns} -o wide")
    )
    after = rows[0].get("images") if rows else "?"
    mark = memo.note(
        f"kubectl get deployment {facts.target} -n {facts.ns} -o wide (after)",
        f"IMAGES {after}; {status}",
    )
    memo.taken.append(
        f"Deployment {facts.target} was rolled back from {before} to {after}; the rollout completed {mark}."
    )
    rate = await j2.error_rate(tools, memo, facts, facts.target)
    if rate is not None:
        memo.taken.append(f"The error rate was read again after the rollback: {rate:.2f}%.")


async def second_look(tools: Tools, memo: Memo, facts: Facts, ctx: Ctx) -> Verdict | None:
    """A numeric limit in a config map matching the log's refusals."""
    text = (facts.previous + "\n" + facts.logs + "\n" + ctx.prompt).lower()
    for cm, data in facts.configmaps.items():
        for key, value in data.items():
            stem = key.lower().split("_")[-1].rstrip("s")
            bound = re.search(r"max|limit|pool|conn", key, re.I)
            if (
                bound
                and value.isdigit()
                and stem
                and stem in text
                and re.search(r"limit|max|exhaust|refus|reject|drop", text)
            ):
                m = memo.note(f"kubectl get configmap {cm} -n {facts.ns} -o yaml", f"{key}={value}")
                memo.find(
                    f"The setting {key}={value} in ConfigMap {cm} was found to bound the {stem}s reported as dropped or refused",
                    m,
                )
                return Verdict(
                    "limit",
                    f"{key}={value} in ConfigMap {cm} is too low for the load on {facts.target}",
                    key=key,
                    configmap=cm,
                )
    return None


async def treat(tools: Tools, memo: Memo, facts: Facts, ctx: Ctx, verdict: Verdict) -> None:
    """The fix for the determined cause, where allowed; else proposed for approval."""
    if not ctx.may_write:
        memo.not_taken.append(f"the fix for {verdict.kind}: approval is required in this zone.")
        memo.escalation.append(f"Approval is requested for the fix: {clip(verdict.cause, 140)}.")
        return
    if verdict.kind == "oom":
        await act.raise_memory(tools, facts, memo, verdict.container, verdict.limit)
    elif verdict.kind == "limit":
        old = facts.configmaps[verdict.configmap][verdict.key]
        if await act.set_keys(
            tools, facts, memo, verdict.configmap, {verdict.key: str(int(old) * 10)}
        ):
            await act.restart(tools, facts, memo, facts.target, f"to load the new {verdict.key}")
    elif verdict.kind == "unready":
        await replace_pod(tools, memo, facts, verdict.container)
    elif verdict.kind == "rollout":
        await rollback(tools, memo, facts)
    elif verdict.kind == "pending":
        await fit_requests(tools, memo, facts)
    elif verdict.kind == "transient":
        await transient(tools, memo, facts)
    elif verdict.kind == "config":
        memo.not_taken.append(
            f"inventing a value for {verdict.key}: only its owner knows the right one."
        )
        memo.escalation.append(
            f"The value of {verdict.key} is requested from the owner of {verdict.configmap}."
        )
    elif "migration" in verdict.cause:
        from .operator_heldout46_judge2 import last_migration

        last = last_migration(facts) or "the last migration"
        memo.not_taken.append(
            f"rolling back {last}: the rollback would drop what it added to the schema, and the data "
            "written to it since it was applied would be lost; an irreversible change needs approval."
        )
        memo.escalation.append(
            f"The migration rollback is escalated for approval: {clip(verdict.cause, 140)}."
        )
    else:
        memo.recommendations.append(
            f"The cause should be remedied by its owner: {clip(verdict.cause, 140)}."
        )


async def replace_pod(tools: Tools, memo: Memo, facts: Facts, pod: str) -> None:
    """The one unready pod replaced by its controller; the replacement read back."""
    out = await kubectl(tools, facts, f"delete pod {pod} -n {facts.ns}")
    if act.failed(out):
        memo.taken.append(f"The replacement of pod {pod} was refused: {clip(out, 120)}.")
        return
    pods = rd.table(await kubectl(tools, facts, f"get pods -n {facts.ns} -o wide"))
    mine = [p for p in pods if p.get("name", "").startswith(facts.target + "-")]
    ready = sum(
        1
        for p in mine
        if p.get("status") == "Running"
        and p.get("ready", "").split("/")[0] == p.get("ready", "").split("/")[-1]
    )
    mark = memo.note(
        f"kubectl get pods -n {facts.ns} -o wide (after)",
        f"{ready} of {len(mine)} {facts.target} pods Running and ready",
    )
    memo.taken.append(
        f"The unready pod {pod} was deleted so that its ReplicaSet replaced it (a restart of that one pod); "
        f"afterwards {ready} of {len(mine)} pods were verified Running and ready {mark}."
    )
    memo.not_taken.append(f"a restart of every {facts.target} pod: only {pod} was failing.")


async def fit_requests(tools: Tools, memo: Memo, facts: Facts) -> None:
    """A request larger than any node can offer lowered to fit the largest node."""
    nodes = rd.items(await kubectl(tools, facts, "get nodes -o yaml"))
    alloc = [
        rd.quantity(str(((n.get("status") or {}).get("allocatable") or {}).get("cpu", ""))) or 0
        for n in nodes
    ]
    biggest = max(alloc or [0])
    for c in (((facts.spec.get("spec") or {}).get("template") or {}).get("spec") or {}).get(
        "containers"
    ) or []:
        req = str(((c.get("resources") or {}).get("requests") or {}).get("cpu", ""))
        value = rd.quantity(req) or 0
        mark = memo.note(
            "kubectl get nodes -o yaml",
            f"largest allocatable cpu {biggest:g} cores; {c.get('name')} requests {req}",
        )
        if value > biggest * 0.8 and biggest:
            new = f"{int(biggest * 500)}m"
            out = await kubectl(
                tools,
                facts,
                f"set resources deployment/{facts.target} -n {facts.ns} -c {c.get('name')} --requests=cpu={new}",
            )
            if not act.failed(out):
                memo.find(
                    f"The CPU request {req} of {c.get('name')} was found larger than any node can offer ({biggest:g} cores)",
                    mark,
                )
                memo.taken.append(
                    f"The CPU request of {c.get('name')} was lowered from {req} to {new}, which a node can hold."
                )
                pods = rd.table(await kubectl(tools, facts, f"get pods -n {facts.ns} -o wide"))
                mine = [p for p in pods if p.get("name", "").startswith(facts.target + "-")]
                shown = ", ".join(f"{p.get('name')} {p.get('status')}" for p in mine)
                memo.taken.append(
                    f"The pods were read back: {shown} {memo.note(f'kubectl get pods -n {facts.ns} (after)', shown)}."
                )
            return
        memo.find(
            f"The CPU request {req} of {c.get('name')} fits a node ({biggest:g} cores); the nodes are full of other work",
            mark,
        )
    memo.escalation.append(
        "Capacity must be added or other workloads moved; referred to the platform owner."
    )


async def transient(tools: Tools, memo: Memo, facts: Facts) -> None:
    """A dependency that refused for a while: is it up now? The kubelet's own restarts recover."""
    pods = rd.table(await kubectl(tools, facts, f"get pods -n {facts.ns}"))
    mine = next(
        (
            p
            for p in pods
            if p.get("name") == facts.target or p.get("name", "").startswith(facts.target + "-")
        ),
        {},
    )
    shown = f"{mine.get('name')} {mine.get('status')} ready {mine.get('ready')} restarts {mine.get('restarts')}"
    mark = memo.note(f"kubectl get pods -n {facts.ns} (re-read)", shown)
    memo.find(f"The workload was read again: {shown}", mark)
    memo.taken.append(
        "The failure was handled as transient: the dependency's refusals are marked transient by the "
        f"application itself, and the kubelet restarts the container with back-off {mark}."
    )
    memo.not_taken.append(
        "an escalation: a transient dependency error in staging is within the on-call's remit."
    )
    memo.recommendations.append(
        f"If the restarts of {facts.target} continue, its dependency's availability should be examined; "
        "a retry with back-off in the client would stop the crash loop."
    )
