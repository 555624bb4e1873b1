"""heldout46's flows (session 37, written blind): which examination the request calls for.

A change the request spells out (config keys, a replica count, a restart, a rollout, a
canary step, high availability) is made narrowly, where the zone allows it; a question is
answered from the reads; a fault is diagnosed and fixed only when the request asks for a
fix, the cause is determined, and no approval is required. Nothing here knows a scenario.
"""

from __future__ import annotations

import re

from . import operator_heldout46_act as act
from . import operator_read as rd
from .agents import Tools
from .operator_heldout46 import Ctx, background, history
from .operator_heldout46_judge import Verdict, examine
from .operator_heldout46_look import Facts, alerts, configmap, kubectl, named, workload
from .operator_heldout46_memo import Memo, clip

_KEY = re.compile(r"\b([A-Z][A-Z0-9_]{2,})\s*(?:=|\bto\b)\s*([\w.:/-]*\w)")
_ENABLE = re.compile(r"\b(enable|disable)\s+([A-Z][A-Z0-9_]{2,})", re.I)


def keys_asked(prompt: str) -> dict[str, str]:
    """KEY=value pairs the request spells out ("Set K to v", "K=v", "Enable K")."""
    want = {k: v for k, v in _KEY.findall(prompt)}
    for verb, key in _ENABLE.findall(prompt):
        if key.isupper():
            want[key] = "true" if verb.lower() == "enable" else "false"
    return want


async def dispatch(tools: Tools, memo: Memo, facts: Facts, ctx: Ctx) -> None:
    from . import operator_heldout46_more as more

    low = ctx.prompt.lower()
    if "kubectl" not in tools.names and "dashboards" in tools.names:
        return await more.dashboard(tools, memo, ctx)
    trace = re.search(r"\btrace\s+([0-9a-f]{5,})\b", low)
    if trace and "traces_query" in tools.names:
        return await more.trace(tools, memo, facts, trace.group(1))
    if not facts.target and re.search(r"\b(api|ingress|public|503|gateway|site)\b", low):
        await more.follow_path(tools, memo, facts)
    await workload(tools, facts)
    background(memo, facts)
    if facts.target:
        await history(tools, memo, facts)
    await alerts(tools, facts)
    asked = keys_asked(ctx.prompt)
    if asked:
        return await change_keys(tools, memo, facts, ctx, asked)
    if re.search(r"\b(scale|replicas|load)\b", low) and facts.target:
        return await more.scale_flow(tools, memo, facts, ctx)
    if "canary" in low:
        return await more.canary(tools, memo, facts, ctx)
    if re.search(r"rolling update|rollout|new image", low) and facts.target:
        return await more.continue_rollout(tools, memo, facts, ctx)
    if re.search(r"highly available|high availability|node failure", low) and facts.target:
        return await writable(memo, ctx, act.make_available(tools, facts, memo))
    if "runbook" in low:
        return await more.runbook(tools, memo, facts, ctx)
    if re.search(r"\bwho\b|loop in|owner|contact", low):
        return await more.owner(tools, memo, facts)
    if re.search(r"\brestart\b", low) and re.search(r"^\s*restart|please restart", low):
        if not facts.target:
            return ask_which(memo, facts, ctx)
        return await writable(
            memo, ctx, act.restart(tools, facts, memo, facts.target, "as requested")
        )
    if re.search(r"can'?t reach|cannot reach|connectivity|network", low):
        return await more.network(tools, memo, facts, ctx)
    if re.search(r"health|how is|doing|worry", low):
        return await more.health(tools, memo, facts)
    await diagnose(tools, memo, facts, ctx)


async def writable(memo: Memo, ctx: Ctx, change: object) -> None:
    if ctx.may_write:
        await change  # type: ignore[misc]
        return
    close = getattr(change, "close", None)
    if close:
        close()
    memo.not_taken.append("the requested change: the zone does not allow writes without approval.")
    memo.escalation.append("The requested change awaits the approval of the environment's owner.")


async def change_keys(
    tools: Tools, memo: Memo, facts: Facts, ctx: Ctx, want: dict[str, str]
) -> None:
    """Config keys set in the config map the request names (else the one holding them)."""
    names = rd.table(await kubectl(tools, facts, f"get configmaps -n {facts.ns}"))
    cms = [r.get("name", "") for r in names if r.get("name")]
    target = named(ctx.prompt, cms)
    if not target:
        for name in cms:
            data = await configmap(tools, facts, name)
            if any(k in data for k in want):
                target = name
                break
    if not target:
        memo.find(f"No ConfigMap in {facts.ns} was found to hold {', '.join(want)}")
        memo.escalation.append("The owner should confirm which ConfigMap carries these keys.")
        return
    if not ctx.may_write:
        return await writable(memo, ctx, act.set_keys(tools, facts, memo, target, want))
    users = [d for d in facts.deployments if await _reads(tools, facts, d, target)]
    if len(users) > 1:
        mark = memo.note(
            f"kubectl get deployment <each> -n {facts.ns} -o yaml",
            f"{target} is read by {', '.join(users)}",
        )
        memo.find(
            f"The ConfigMap {target} was found to be shared: {len(users)} deployments read it "
            f"({', '.join(users)}); a change reaches every one of them",
            mark,
        )
        memo.not_taken.append(
            f"the change to {target}: it would alter {len(users)} services at once, beyond the one "
            "change the request appears to intend; confirmation is required first."
        )
        memo.escalation.append(
            f"Confirmation is requested from the owners of {', '.join(users)} before {target} is changed."
        )
        return
    changed = await act.set_keys(tools, facts, memo, target, want)
    if changed and users:
        for user in users:
            await act.restart(tools, facts, memo, user, f"its pods read {target} only at start")
    elif users:
        memo.not_taken.append(f"a restart of {', '.join(users)}: nothing changed.")
    low = ctx.prompt.lower()
    if re.search(r"\b(scale|replicas)\b", low):
        who = facts.target or named(ctx.prompt, facts.deployments)
        count = act.replicas_asked(low[low.find("scale") :] if "scale" in low else low)
        if who and count:
            await act.scale(tools, facts, memo, who, count)
    memo.not_taken.append(
        "any other key or resource: the request limited the change to the keys named."
    )


async def _reads(tools: Tools, facts: Facts, deployment: str, cm: str) -> bool:
    text = facts.raw.get(f"get deployment {deployment} -n {facts.ns} -o yaml")
    if text is None:
        text = await kubectl(tools, facts, f"get deployment {deployment} -n {facts.ns} -o yaml")
    return f"name: {cm}" in text


async def diagnose(tools: Tools, memo: Memo, facts: Facts, ctx: Ctx) -> None:
    """Findings, the determination, and a fix only when asked, determined and allowed."""
    from . import operator_heldout46_judge2 as j2
    from . import operator_heldout46_more as more

    verdict = await findings(tools, memo, facts, ctx)
    low = ctx.prompt.lower()
    fix = bool(re.search(r"\b(fix|handle|resolve|repair|remediate|mitigate)\b", low))
    j2.cpu_question(memo, facts, verdict, ctx.prompt)
    if verdict is None:
        memo.basis = "The evidence examined does not decide between candidate causes."
        memo.not_taken.append(
            "any change: no cause was established, and a speculative change could mask it."
        )
        memo.escalation.append(
            f"The matter is escalated to the owner of {facts.target or facts.ns} with the findings above."
        )
        return
    sure = "moderate" if verdict.kind == "rollout" else "high"
    memo.determine(verdict.cause, sure, "The determination rests on the cited reads.")
    if not fix:
        memo.recommendations.append(_remedy(verdict, facts))
        return
    await more.treat(tools, memo, facts, ctx, verdict)


async def findings(tools: Tools, memo: Memo, facts: Facts, ctx: Ctx) -> Verdict | None:
    """Each candidate in the order an examiner checks them; the first the evidence decides."""
    from . import operator_heldout46_judge2 as j2
    from . import operator_heldout46_more as more

    verdict = examine(memo, facts)
    if verdict and verdict.kind == "init":
        pod = facts.described[0].name if facts.described else ""
        line = await j2.init_logs(tools, memo, facts, pod, verdict.container)
        if line:
            verdict.cause += f': "{clip(line, 120)}"'
    await more.related_config(tools, memo, facts, verdict)
    more.alert_findings(memo, facts)
    if (verdict and "schema" in verdict.cause) or re.search(r"migration|schema", ctx.prompt, re.I):
        await j2.schema(tools, memo, facts)
    if verdict is None:
        verdict = await more.second_look(tools, memo, facts, ctx)
    if verdict is None:
        verdict = j2.unready(memo, facts)
    if verdict is None and re.search(r"error|5\d\d|fail|broken", ctx.prompt, re.I):
        await j2.error_rate(tools, memo, facts, facts.target)
        verdict = j2.recent_rollout(memo, facts, facts.rsets)
    return verdict


def _remedy(verdict: Verdict, facts: Facts) -> str:
    if verdict.kind == "config":
        return (
            f"The key {verdict.key} should be added to ConfigMap {verdict.configmap} with the "
            f"value its owner confirms, then {facts.target} restarted "
            f"(kubectl patch configmap {verdict.configmap} -n {facts.ns} --type merge "
            f'-p \'{{"data":{{"{verdict.key}":"<value>"}}}}\').'
        )
    if verdict.kind == "oom":
        return (
            f"The memory limit of {verdict.container} ({verdict.limit}) should be raised "
            f"(kubectl set resources deployment/{facts.target} -n {facts.ns} -c {verdict.container} "
            "--limits=memory=<new>) and the memory growth examined."
        )
    return f"The cause should be remedied: {clip(verdict.cause, 160)}."


def ask_which(memo: Memo, facts: Facts, ctx: Ctx) -> None:
    """A request naming no single workload: the candidates listed, nothing changed."""
    words = set(re.findall(r"[a-z0-9]+", ctx.prompt.lower()))
    hits = [d for d in facts.deployments if set(d.split("-")) & words]
    mark = memo.note(f"kubectl get deployments -n {facts.ns}", ", ".join(facts.deployments[:12]))
    memo.find(
        "The request was found not to name one workload; the candidates are "
        + (", ".join(hits) if hits else "none by that name"),
        mark,
    )
    memo.not_taken.append(
        "a restart: the request does not say which workload, and a guess could restart the wrong one."
    )
    memo.escalation.append("The requester is asked to name the deployment to restart.")
