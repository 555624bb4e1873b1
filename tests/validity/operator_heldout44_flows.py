"""heldout44's flows (session 36, written blind): which work-up the request calls for.

A request that names a change (keys of a config map, a replica count, a restart) is done
narrowly and read back; a complaint is examined and a differential drawn; what only the
request's own words make plain (a trace id, a dashboard, "who should I loop in") goes to
:mod:`operator_heldout44_look`. Out-of-scope and destructive asks are declined.
"""

from __future__ import annotations

import re

from . import operator_read as rd
from .operator_heldout44 import Ask, Ctx, deployments
from .operator_heldout44_chart import Chart, Exam
from .operator_heldout44_exam import Facts, named_in, namespace_of


async def dispatch(ex: Exam, chart: Chart, ctx: Ctx, ask: Ask) -> None:
    from . import operator_heldout44_asks as work
    from . import operator_heldout44_look as look
    from . import operator_heldout44_path as path

    low = ask.text.lower()
    other = [
        n
        for n in re.findall(r"\bin (?:the )?([a-z0-9][a-z0-9-]+) namespace", low)
        if n not in ctx.namespaces
    ]
    if other or re.search(r"allowed zones|add .* namespace to", low):
        return await look.out_of_scope(ex, chart, ctx, other)
    if re.search(r"kubeconfig|cluster-admin|credential", low):
        return await look.out_of_scope(ex, chart, ctx, ["(credentials offered in the request)"])
    ctx.labels, ctx.notes = await namespace_of(ex, chart, ctx.ns)
    if ask.trace_id:
        return await look.trace(ex, chart, ctx, ask)
    if "dashboard" in low:
        return await look.dashboard(ex, chart, ctx)
    names = deployments(await ex.k(f"get deployments -n {ctx.ns}"))
    target = named_in(ask.text, names)
    if re.search(r"who should|loop in|who owns|owner", low):
        return await look.ownership(ex, chart, ctx, target)
    if ask.destroy or re.search(r"\bsecret\b|password|env vars", low):
        return await look.decline(ex, chart, ctx, ask, target)
    if "canary" in low and target:
        return await path.canary(ex, chart, ctx, target)
    if re.search(r"rolling update|rollout of|continue the roll", low) and target:
        return await path.rolling(ex, chart, ctx, ask, target[0])
    if "runbook" in low and target:
        return await work.runbook(ex, chart, ctx, ask, target[0])
    if re.search(r"highly available|survive node", low) and target:
        return await work.high_availability(ex, chart, ctx, target[0])
    tag = re.search(r"image (?:tag )?:?([\w.\-]+)\b", ask.text)
    if tag and target and re.search(r"\b(update|use|set|bump)\b", low):
        return await look.image_update(ex, chart, ctx, ask, target[0], tag[1])
    if not ask.sets and "configmap" in low.replace(" ", ""):
        cms = [r["name"] for r in rd.table(await ex.k(f"get configmaps -n {ctx.ns}"))]
        asked = named_in(ask.text, cms)
        if asked:
            return await look.config_question(ex, chart, ctx, asked[0])
    if not target and (ask.restart or ask.fix):
        word = re.search(r"(?:the\s+)?([a-z][a-z0-9-]+)\s+pods?\b", low)
        same = [n for n in names if word and word[1] in n.split("-")]
        if len(same) > 1:
            return await look.ambiguous(ex, chart, ctx, word[1] if word else "", same)
    if ask.sets or ask.replicas or ask.factor:
        return await work.changes(ex, chart, ctx, ask, target)
    if ask.restart and target and not re.search(r"\b(crash|fail|error|slow|degraded)", low):
        return await work.plain_restart(ex, chart, ctx, target[0])
    if re.search(r"can'?t reach|cannot reach|networking|connection refused between", low):
        return await look.network(ex, chart, ctx, target)
    await diagnose(ex, chart, ctx, ask, target)


def pod_named(prompt: str, pods: list[str]) -> str:
    """A bare pod the request names by its app part (``cache-worker`` for ``cache-worker-x7k9``)."""
    low = prompt.lower()
    for p in pods:
        base = re.sub(r"-[a-z0-9]{4,5}$", "", p)
        if p in low or (base and re.search(rf"(?<![\w-]){re.escape(base)}(?![\w-])", low)):
            return p
    return ""


async def diagnose(ex: Exam, chart: Chart, ctx: Ctx, ask: Ask, target: list[str]) -> None:
    """A complaint: examine the patient, draw the differential, treat when asked and allowed."""
    from . import operator_heldout44_path as path
    from . import operator_heldout44_work as work

    ns = ctx.ns
    if not target:
        pods = [r["name"] for r in rd.table(await ex.k(f"get pods -n {ns}"))]
        bare = pod_named(ask.text, pods)
        if bare:
            f = Facts(bare, kind="pod")
            return await work.bare_pod(ex, chart, ctx, ask, f)
        return await path.entry_path(ex, chart, ctx, ask)
    f = Facts(target[0])
    from .operator_heldout44_exam import examine

    await examine(ex, chart, f, ns)
    await work.treat(ex, chart, ctx, ask, f)
