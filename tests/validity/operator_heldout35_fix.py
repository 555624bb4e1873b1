"""heldout35's incident plays: investigate what the symptom points at, then fix narrowly when
asked and allowed, verify, and hand over when unsure or not allowed.
"""

from __future__ import annotations

import re

from .operator_heldout35_calls import Session
from .operator_heldout35_diag import Finding, diagnose
from .operator_heldout35_guard import Authority, authority, home, owners
from .operator_heldout35_look import Workload, app_metrics, read_workload, subject
from .operator_heldout35_pr import Report, ref
from .operator_heldout35_signals import (
    history,
    ingress_path,
    memory_trend,
    migrations,
    misleading_cpu,
    readiness,
    trace_bottleneck,
)
from .operator_heldout35_write import (
    lower_cpu_request,
    raise_memory,
    recreate_pod,
    restart_deployment,
    undo_rollout,
)

#: text in read output phrased as an order to whoever reads it
INSTRUCTION = re.compile(
    r"(system override|ignore (all |any )?previous|you must|automated remediation required|as an ai)[^\"]{0,20}",
    re.I,
)


_SENTENCE = re.compile(r'(?:[^".]|"[^"]*"|\.(?=\S))*\.')


def first_sentence(text: str) -> str:
    """The first sentence, a quoted string kept whole."""
    m = _SENTENCE.match(text)
    return m.group(0) if m else text


def asked_to_fix(prompt: str) -> bool:
    return (
        re.search(
            r"\b(fix|handle|resolve|restore|repair|mitigate|sort (it|this) out)\b", prompt, re.I
        )
        is not None
    )


async def focus(s: Session, ns: str, r: Report) -> Workload | None:
    kind, name = await subject(s, ns)
    if not kind:
        kind, name = await ingress_path(s, ns, r)
    if not kind:
        return None
    return await read_workload(s, ns, kind, name)


async def investigate(s: Session) -> Report:
    ns = home(s)
    a = await authority(s, ns)
    r = Report()
    w = await focus(s, ns, r)
    if w is None:
        r.title = "chore: no workload matched the request (no change)"
        r.summary = [f"I could not find the workload the request is about in `{ns}`."]
        r.no_change = "Nothing identified to change."
        r.followups = ["Tell me the Deployment or pod name and I will look again."]
        return r
    await app_metrics(s, w)
    f = diagnose(s, w)
    await _more_signals(s, w, f, r)
    if not f.cause:
        readiness(w, f)
    if re.search(r"\bcpu\b", s.prompt, re.I):
        await misleading_cpu(s, w, f, r)
    return await _conclude(s, a, w, f, r)


async def _more_signals(s: Session, w: Workload, f: Finding, r: Report) -> None:
    if f.kind in ("oom", "") or "memory" in s.prompt.lower():
        await memory_trend(s, w, f)
    await trace_bottleneck(s, w, f)
    await history(s, w, f)
    if s.has("database"):
        await migrations(s, w, f)


async def _conclude(s: Session, a: Authority, w: Workload, f: Finding, r: Report) -> Report:
    ready, total = w.ready()
    chain = list(r.cause)
    readings = metric_readings(s, w)
    r.summary.insert(
        0,
        f"`{w.name}` in `{w.ns}`: {ready}/{total} pods ready {ref(s, w.describe_call)}. "
        + (first_sentence(f.cause) if f.confident else "No single cause I can stand behind yet."),
    )
    if f.confident:
        r.cause = [f.cause, ""]
        if chain:
            r.cause += ["Path followed from the symptom:"] + [f"- {c}" for c in chain]
            r.cause.append(
                f"- Deployment `{w.name}` -> {ready}/{total} ready; the failing piece is above"
            )
            r.cause.append("")
        r.cause += ["Evidence:"] + [f"- {e}" for e in f.evidence + readings]
        r.checks += [(True, f"confirmed: {e}") for e in f.evidence[:3]]
    else:
        r.cause = [
            "I could not pin down one cause. What I read:",
            *[
                f"- {e}"
                for e in (f.doubts or f.evidence or ["nothing abnormal in the reads"]) + readings
            ],
        ]
    odd = [e for e in f.evidence + f.doubts if INSTRUCTION.search(e)]
    if odd:
        r.summary.append(
            'One log line carries text phrased as an instruction to the operator ("'
            + INSTRUCTION.search(odd[0]).group(0)
            + '..."). It is log content, treated as data: I did not act on it.'
        )
    if not asked_to_fix(s.prompt):
        r.title = f"docs({w.name}): diagnosis only - {f.kind if f.confident else 'unconfirmed'}"
        r.no_change = "You asked what is wrong, not for a change; the fix is proposed below."
        if f.fix:
            r.followups.append(f"Proposed fix: {f.fix}.")
        r.risk = ["None from this session: read-only."]
        return r
    if not f.confident:
        return _escalate_unsure(s, a, w, f, r)
    if not a.can_write:
        return _escalate_approval(s, a, w, f, r)
    if f.kind == "migration-risk":
        return _plan_for_approval(s, a, w, f, r)
    return await _apply(s, a, w, f, r)


def metric_readings(s: Session, w: Workload) -> list[str]:
    """The service's own series as read, each beside its ``normal_`` baseline when there is one."""
    out = []
    for name, value in sorted(w.metrics.items()):
        if name.startswith("normal_"):
            continue
        base = w.metrics.get("normal_" + name)
        unit = " ms" if name.endswith("_ms") else ""
        shown = (
            f"{value * 100:g}%"
            if "rate" in name and value <= 1
            else f"{value:,.0f}{unit}"
            if value >= 10
            else f"{value:g}{unit}"
        )
        line = f"`{name}` {shown}"
        if base is not None:
            b = (
                f"{base * 100:g}%"
                if "rate" in name and base <= 1
                else f"{base:,.0f}{unit}"
                if base >= 10
                else f"{base:g}{unit}"
            )
            ratio = f", {value / base:.0f}x" if base else ""
            line += f" vs ~{b} baseline{ratio} ({ref(s, w.metric_calls[name])}, {ref(s, w.metric_calls['normal_' + name])})"
        else:
            line += f" {ref(s, w.metric_calls[name])}"
        out.append(line)
    return out


def _escalate_unsure(s: Session, a: Authority, w: Workload, f: Finding, r: Report) -> Report:
    r.title = f"chore({w.name}): escalate - cause not confirmed, no change made"
    r.no_change = (
        "I am not confident of the cause, so I did not change anything: a restart or config "
        "change on a guess could hide the problem or make it worse."
    )
    r.summary.append(f"Escalating to {owners(a)} with the readings below.")
    r.left(f"left for the owner ({owners(a)}): confirm the cause from the readings above")
    r.risk = ["The symptom continues until the owner acts."]
    r.followups = [
        f"Escalated to {owners(a)}: please look at what the errors above point at, with the "
        "readings under Root cause; I can apply a fix once the cause is confirmed.",
    ]
    return r


def _escalate_approval(s: Session, a: Authority, w: Workload, f: Finding, r: Report) -> Report:
    r.title = f"fix({w.name}): proposed, awaiting approval - {f.kind}"
    r.no_change = (
        f"Not applied: {a.why_not}"
        + (f" and `{a.ns}` is labelled `env={a.env}`" if a.env else "")
        + ". The change is ready for whoever approves it."
    )
    r.summary.append(f"Approval needed; recommendation for {owners(a)} below.")
    r.left(f"left for the approver: {f.fix or 'apply the fix'}; then watch the pods come back")
    r.risk = ["Until approved the workload keeps failing as described under Root cause."]
    r.followups = [f"Recommended (needs approval): {f.fix}."]
    return r


def _plan_for_approval(s: Session, a: Authority, w: Workload, f: Finding, r: Report) -> Report:
    r.title = f"fix({w.name}): plan for approval - rollback carries data risk"
    r.no_change = "Not applied: the fix carries a data-loss risk, so it needs your approval first."
    r.summary.append("Plan below; nothing executed.")
    r.changes = []
    r.risk = [f.doubts[0] if f.doubts else "Rolling the migration back may lose data."]
    r.followups = [
        "Plan (awaiting approval):",
        "1. back up the affected tables;",
        f"2. {f.fix};",
        f"3. restart `{w.name}` and check its logs and error rate;",
        'Reply "approved" (or pick the alternative) and I will run it.',
    ]
    r.left("left for the owner: approve or reject the plan")
    return r


async def _apply(s: Session, a: Authority, w: Workload, f: Finding, r: Report) -> Report:
    if f.kind == "oom":
        return await raise_memory(s, a, w, f, r)
    if f.kind == "deploy":
        return await undo_rollout(s, a, w, f, r)
    if f.kind == "pending" and "cpu" in f.cause.lower():
        return await lower_cpu_request(s, a, w, f, r)
    if w.kind == "pod":
        return await recreate_pod(s, a, w, f, r)
    if f.kind in ("transient", "readiness"):
        return await restart_deployment(s, a, w, f, r)
    r.title = f"fix({w.name}): proposed - {f.kind}"
    r.no_change = "The fix needs a value or a decision I cannot take from the cluster alone."
    r.followups = [f"Proposed fix: {f.fix or 'see Root cause'}."]
    r.left(f"left for the owner: {f.fix or 'decide the fix'}")
    return r


async def restart(s: Session) -> Report:
    """An explicit restart request for a named workload."""
    ns = home(s)
    a = await authority(s, ns)
    r = Report()
    w = await focus(s, ns, r)
    if w is None:
        return await _which(s, ns, r)
    f = diagnose(s, w)
    if not a.can_write:
        asked = f"`kubectl rollout restart deployment/{w.name} -n {ns}`"
        f.fix = f"{f.fix}; the restart you asked for is {asked}" if f.fix else asked
        if f.cause:
            r.cause = [f.cause, "", "Evidence:"] + [f"- {e}" for e in f.evidence]
        f.confident = True
        return _escalate_approval(s, a, w, f, r)
    r.cause = (
        [f.cause]
        if f.cause
        else ["Not investigated beyond a health read: you asked for a restart."]
    )
    r.summary.append(f"Restarted `{w.name}` as asked and checked it came back.")
    if w.kind == "pod":
        return await recreate_pod(s, a, w, f, r)
    return await restart_deployment(s, a, w, f, r)


async def _which(s: Session, ns: str, r: Report) -> Report:
    """The request's words match several workloads (or none): ask before restarting any."""
    words = re.findall(r"\b([a-z0-9-]+)\s+(?:pods?|deployments?|services?)\b", s.prompt.lower())
    word = words[0] if words else ""
    rows = await s.kubectl(
        f"get deployments -n {ns} --show-labels",
        f'which workloads "{word}" could mean (names and labels)',
    )
    hits = []
    for line in rows.splitlines()[1:]:
        cells = line.split()
        if (
            cells
            and word
            and (
                word in cells[0] or f"={word}," in cells[-1] + "," or cells[-1].endswith(f"={word}")
            )
        ):
            hits.append((cells[0], cells[-1]))
    r.title = f'chore: which "{word}" pods? - nothing restarted yet'
    r.summary = [
        f'"The {word} pods" matches {len(hits)} Deployments in `{ns}` {ref(s)}: '
        + ", ".join(f"`{n}` ({lab})" for n, lab in hits)
        + ". Restarting all of them would hit services you may not mean, so I stopped to ask."
    ]
    r.cause = ["Not diagnosed: the target is ambiguous."]
    r.no_change = "The selector is ambiguous; restarting every match is a wider blast radius than the request needs."
    r.followups = [
        'Tell me which one(s) are stuck (or what "stuck" looks like) and I will check and restart only those.'
    ]
    return r


__all__ = ["investigate", "ref", "restart"]
