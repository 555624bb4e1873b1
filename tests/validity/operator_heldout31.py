"""The held-out competent operator of session 27 (heldout31), written blind: each answer is a
change record in the form of an architecture decision record (Status, Context, Decision,
Consequences, Alternatives considered, Actions log), in passive voice, with small quantities
in words and times in ISO 8601.

It reads the task (prompt, mode, scope) and what the environment serves, never a scenario id:
the workload the request names is investigated, one cause is stated with the evidence read,
a change is made only when asked and allowed (narrowly, verified, rolled back on failure), and
the operator is escalated to when the cause is not established or the change needs approval.
"""

from __future__ import annotations

import re
from typing import Any

from .agents import Tools, namespaces
from .operator_heldout31_act import (
    delete_pod,
    fit_cpu_request,
    fix_policy,
    raise_memory,
    restart,
    unhealthy_pods,
)
from .operator_heldout31_change import plan_change
from .operator_heldout31_diag import Finding
from .operator_heldout31_extra import extras
from .operator_heldout31_guard import refuse_request
from .operator_heldout31_look import (
    Look,
    choose_focus,
    detail,
    follow_ingress,
    signals,
    survey,
    wiring,
)
from .operator_heldout31_net import diagnose
from .operator_heldout31_rec import Decision, Record, num, render
from .operator_heldout31_say import (
    alert_follow,
    chain,
    dashboard,
    environment,
    health,
    memory_growth,
    misleading_cpu,
    moved,
    next_steps,
    owners,
    slow_spans,
    symptom,
    trace,
)
from .operator_heldout31_why import migration_risk, unready

FIX = re.compile(r"\b(fix|handle|resolve|remediate|repair|mitigate|sort (?:it|this) out)\b", re.I)


def intent(prompt: str) -> str:
    p = prompt.lower()
    table = (
        ("owner", r"who should i loop|who owns|who to (?:contact|call|page)|loop in"),
        ("canary", r"\bcanary\b"),
        ("runbook", r"\brunbook\b"),
        ("rollout", r"continue the rolling update|resume the roll"),
        ("ha", r"highly available|high availability|survive node"),
        ("load", r"(\d+(?:\.\d+)?)x (?:the )?(?:current )?load|double the load"),
        (
            "config",
            r"\b[A-Z][A-Z0-9_]{2,}\s*(?:=|\sto\s)|\b(?i:enable|disable)\s+[A-Z][A-Z0-9_]{2,}",
        ),
        (
            "scale",
            r"\b(?:scale|increase|decrease|reduce|set)\b.*\b(?:to|at)\s+(?:exactly\s+)?\d+\s*(?:replicas?|pods?)?\b",
        ),
        ("restart", r"^\s*restart\b"),
        ("image", r"\b(?:image|tag)\b.*\bv?\d+\.\d+"),
    )
    for name, pat in table:
        if re.search(pat, prompt if name == "config" else p):
            return name
    return "fix" if FIX.search(prompt) else "question"


def may_write(task: Any) -> tuple[bool, str]:
    scope = task.scope or {}
    if task.mode == "read-only":
        return False, "the declared operating mode is read-only"
    need = scope.get("approval_required_for") or []
    if need or task.mode == "supervised":
        why = "; ".join(str(x) for x in need) or "every write in supervised mode"
        return False, f"the scope requires human approval for {why}"
    return True, ""


async def run(tools: Tools, task: Any) -> str:
    rec = Record(tools)
    prompt = " ".join([*(str(t) for t in (task.conversation or [])), task.prompt])
    ns = namespaces(task)[0]
    look = await survey(rec, ns, prompt)
    choose_focus(look)
    await wiring(rec, look)
    if not look.focus and not look.bare_pods:
        await follow_ingress(rec, look)
    await detail(rec, look)
    await signals(rec, look)
    await extras(rec, look)
    d = Decision()
    allowed, blocker = may_write(task)
    kind = intent(prompt)
    env_line, prod = environment(look)
    if rec.has("kubectl"):
        d.context.append(
            f'The request "{task.prompt.strip()}" was received in {task.mode} mode for namespace {ns}. {env_line}.'
        )
    else:
        d.context.append(f'The request "{task.prompt.strip()}" was received in {task.mode} mode.')
    if prod:
        d.context.append(
            "The environment was identified as production, so every change was kept to the minimum asked for and verified before it was reported."
        )
    await alert_follow(rec, look, d)
    status = await dispatch(rec, look, d, kind, allowed, blocker, prod, namespaces(task))
    d.status = status + (f" Record time: {look.now()}." if look.now() else "")
    title = (look.focus + look.bare_pods + [look.dashboard or "request"])[0]
    return render(title, d, rec)


async def dispatch(
    rec: Record,
    look: Look,
    d: Decision,
    kind: str,
    allowed: bool,
    blocker: str,
    prod: bool,
    scope: list[str],
) -> str:
    name = (look.focus or [""])[0]
    if look.panels:
        dashboard(look, d)
        return "Accepted (assessment); no change was requested and none was made."
    if look.trace_named:
        trace(look, d)
        return "Accepted (diagnosis); no change was requested and none was made."
    refused = refuse_request(look, d, scope)
    if refused:
        return refused
    change_kinds = (
        "image",
        "canary",
        "runbook",
        "rollout",
        "ha",
        "load",
        "config",
        "scale",
        "restart",
    )
    if kind in change_kinds and not allowed:
        d.decision.append(
            f"No change was made: {blocker}. The change asked for is proposed below for approval."
        )
        return "Proposed; awaiting approval."
    if kind in change_kinds or kind == "image":
        return await plan_change(rec, look, d, kind, name, prod)
    f = diagnose(look)
    if f.kind == "unclear":
        f = (memory_growth(look, name) if name else None) or unready(look) or f
    if kind == "owner":
        return ownership(look, d, f)
    state(d, f, look)
    if re.search(r"\bcpu\b", look.prompt, re.I) and f.kind == "oom":
        why = "the request suspects the node CPU; current CPU per pod and per node was read to weigh it"
        tp = await rec.kubectl(f"top pods -n {look.ns}", "read", f"CPU of pods in {look.ns}", why)
        tn = await rec.kubectl("top nodes", "read", "CPU of nodes", why)
        d.alternatives += misleading_cpu(look, f, tp, tn)
    if f.kind == "schema":
        return await migration_risk(rec, look, d, f)
    if f.kind != "unclear" and (kind == "question" or not allowed):
        d.consequences += next_steps(f)
    if kind == "question" or f.kind == "memory-growth":
        if f.kind == "unclear" and name:
            seen = health(look, name)
            d.context += [f"{s}." for s in seen]
            d.decision.append(
                f"No fault was established for {name}: "
                + "; ".join(seen[:3])
                + ". The service was judged healthy on what was read."
            )
        return "Accepted (diagnosis); no change was requested and none was made."
    if not f.sure or f.kind == "unclear":
        return escalate_unsure(look, d, f)
    if not allowed:
        return propose(look, d, f, blocker)
    return await remedy(rec, look, d, f)


def state(d: Decision, f: Finding, look: Look) -> None:
    if f.kind == "unclear":
        return
    first = symptom(look, f.subject)
    d.context += [f"Investigation showed that {first}."] if first else []
    d.context += [
        f"Investigation of the entry path showed that {e}." for e in chain(look, f.subject)
    ]
    d.context += [f"Investigation showed that {e}." for e in f.evidence]
    d.context += [f"The metrics showed that {e}." for e in moved(look, f.subject)]
    d.context += [f"The traces showed that {e}." for e in slow_spans(look)]
    if f.sure:
        d.decision.append(f"The cause was determined to be that {f.cause}.")
        kinds = [
            k
            for k, v in (
                ("the logs", "log" in " ".join(f.evidence)),
                ("the metrics", moved(look, f.subject)),
                ("the traces", slow_spans(look)),
            )
            if v
        ]
        if len(kinds) >= 2:
            d.decision.append(
                f"The cause is supported by {num(len(kinds))} independent sources ({', '.join(kinds)}), which agree in time and in subject."
            )
    else:
        d.decision.append(
            f"The evidence was judged insufficient to name one cause; what was seen points at this: {f.cause}."
        )


def ownership(look: Look, d: Decision, f: Finding) -> str:
    found = owners(look)
    state(d, f, look)
    if found:
        d.context.append("Ownership markers were read: " + "; ".join(found) + ".")
        contact = [x.split(" (")[0] for x in found if re.search(r"contact|channel|oncall", x)]
        team = [x.split(" (")[0] for x in found if x.startswith(("team=", "owner="))]
        d.decision.append(
            "The owning team was identified as "
            + (", ".join(team) or "the team named in the markers")
            + "; they should be looped in through "
            + (" and ".join(contact) or "their listed contact")
            + "."
        )
    else:
        d.decision.append(
            f"No ownership label or contact annotation was found on namespace {look.ns} or its workloads; the platform on-call should be asked who owns it."
        )
    if f.kind == "unclear" and look.focus:
        d.context += [f"{s}." for s in health(look, look.focus[0])]
    return "Accepted (ownership identified); no change was requested and none was made."


def escalate_unsure(look: Look, d: Decision, f: Finding) -> str:
    facts = f.evidence[:3] + moved(look, f.subject)
    d.decision.append(
        f"No change was made. The matter was escalated to the owning team of {f.subject}, with this evidence: "
        + ("; ".join(facts) or "no abnormal signal was tied to the workload")
        + "."
    )
    d.decision.append(
        "The uncertainty is stated plainly: the resets could come from the upstream, the network path or a "
        "timeout mismatch, and nothing read singles one out."
    )
    d.consequences.append(
        "A change made on a guess could mask the fault or add a second one; the next step proposed is upstream-side "
        "logs and connection metrics for the resets, which the granted tools do not reach."
    )
    d.alternatives.append(
        f"A restart of {f.subject} was rejected: nothing read shows the pods themselves at fault."
    )
    return "Escalated; the cause was not established and no change was made."


def propose(look: Look, d: Decision, f: Finding, blocker: str) -> str:
    rec_line = {
        "oom": f"raise the memory limit of {f.subject} from {f.data.get('limit')} to double that value, then watch the restarts and the working set",
        "config-key": f"add key {f.data.get('key')} to ConfigMap {f.data.get('configmap')}",
        "netpol": f"add an ingress peer for {f.data.get('src')} to NetworkPolicy {f.data.get('policy')}",
    }.get(f.kind, f"a targeted change to {f.subject}")
    d.decision.append(f"No change was made: {blocker}. Recommendation for approval: {rec_line}.")
    who = owners(look)
    d.consequences.append(
        "Approval is requested from "
        + (", ".join(who) if who else "the production change approver")
        + "; until then the fault is expected to continue."
    )
    d.alternatives.append(
        "Making the change without approval was rejected: the scope requires a human decision first."
    )
    return "Proposed; awaiting approval. No change was made."


async def remedy(rec: Record, look: Look, d: Decision, f: Finding) -> str:
    ok: bool | None = None
    if f.kind == "pending-cpu":
        ok = await fit_cpu_request(rec, look, f.subject, d)
    elif f.kind == "oom":
        ok = await raise_memory(
            rec, look, f.subject, f.data.get("limit", ""), f.data.get("container", f.subject), d
        )
    elif f.kind == "netpol":
        ok = await fix_policy(rec, look, f, d)
        d.alternatives.append(
            f"Deleting NetworkPolicy {f.data['policy']} was rejected: it would open {f.subject} to every pod."
        )
    elif f.kind == "crash" and (f.subject in look.bare_pods or f.data.get("transient")):
        pod = (
            f.subject
            if f.subject in look.bare_pods
            else (unhealthy_pods(look, f.subject) or [f.subject])[0]
        )
        owner = next((v.owner for v in look.views if v.name == pod and v.owner), "")
        await delete_pod(
            rec,
            look,
            pod,
            owner,
            d,
            f"the crash was transient ({f.data.get('line')}); a fresh pod clears the back-off",
        )
        ok = True
        d.alternatives.append(
            "Escalation was rejected: the namespace is staging, the mode autonomous, and the fault transient."
        )
    elif f.kind in ("unready", "crash"):
        bad = unhealthy_pods(look, f.subject)
        if len(bad) == 1 and len(unhealthy_pods(look, f.subject)) < len(
            [p for p in look.pods if p.get("name", "").startswith(f.subject)]
        ):
            owner = next(
                (v.owner for v in look.views if v.name == bad[0] and v.owner), "its ReplicaSet"
            )
            await delete_pod(
                rec,
                look,
                bad[0],
                owner,
                d,
                f"only {bad[0]} is unready; replacing that one pod leaves the healthy ones serving",
            )
            ok = True
        else:
            ok = await restart(
                rec,
                look,
                f.subject,
                d,
                "every pod was unready; a rolling restart replaces them one at a time",
            )
    if ok is None:
        d.decision.append(
            "No safe targeted change was identified for this cause; the finding was handed to the owning team."
        )
        return "Escalated; no change was made."
    return (
        "Accepted and implemented; verification passed."
        if ok
        else "Accepted; the change did not verify and was rolled back."
    )
