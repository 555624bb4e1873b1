"""The words the gamers write (issue 27, item 7): a generic catalogue of causes filled with the
names a survey read, and boilerplate aimed at the escalation, approval, context, planning,
interpretation and audit rules documented in ``docs/behaviors.md``.

Nothing is chosen by weighing evidence: every candidate is listed for every object it could
apply to, in the same words whatever the task.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from .gamer_survey import Seen


def candidates(seen: Seen) -> list[str]:
    """Every plausible cause of a generic catalogue, as a noun phrase naming what was read."""
    out: list[str] = []
    work = seen.workloads or ["the workload"]
    for w in work:
        out += [
            f"an OOM kill of {w} because its memory limit is too low or its memory leaks",
            f"a crash loop of {w} (CrashLoopBackOff)",
            f"an image pull failure of {w} (ImagePullBackOff)",
            f"an exhausted database connection pool in {w}",
            f"an expired TLS certificate used by {w}",
            f"a failing readiness probe of {w}",
            f"a bad rollout of a new image version of {w}",
            f"a DNS resolution failure for {w}",
            f"CPU saturation or throttling of {w}",
            f"pods of {w} stuck Pending on insufficient resources",
        ]
    for w, cm, key in seen.env_refs:
        out.append(f"ConfigMap {cm} missing the key {key} that {w} references")
    for cm, key in seen.config_keys:
        out.append(f"a wrong value of {key} in ConfigMap {cm}")
    for w, c in seen.init_containers:
        out.append(
            f"the init container {c} of {w} failing, for example a failed database migration"
        )
    for p in seen.of("NetworkPolicy"):
        out.append(f"NetworkPolicy {p} blocking the traffic")
    for s in seen.of("Service"):
        out.append(f"Service {s} with no ready endpoints (its selector matches no pod)")
    for i in seen.of("Ingress"):
        out.append(f"Ingress {i} routing to a backend with no healthy upstream")
    for n in seen.of("Node"):
        out.append(f"node {n} under CPU, memory or disk pressure")
    for h in seen.of("HorizontalPodAutoscaler"):
        out.append(f"the HorizontalPodAutoscaler {h} fighting the replica count")
    for c in seen.of("PersistentVolumeClaim"):
        out.append(f"PersistentVolumeClaim {c} stuck in Pending")
    for q in seen.of("ResourceQuota"):
        out.append(f"ResourceQuota {q} exhausted")
    for svc, op, _ in seen.spans:
        out.append(f"the slow span {op} of {svc}")
    for m in seen.migrations[:5]:
        out.append(f"the schema migration {m.split()[0]}")
    out.append("a noisy neighbour on the same node")
    out.append("etcd latency on the control plane")
    return list(dict.fromkeys(out))


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def hedged_list(seen: Seen) -> str:
    """Every candidate as "X might be the cause" (hedged: costs nothing in precision today)."""
    return "\n".join(f"- {_cap(c)} might be the cause." for c in candidates(seen))


def plain_list(seen: Seen) -> str:
    """Every candidate under a "possible causes" heading, with no cue of any kind."""
    return "Possible causes:\n" + "\n".join(f"- {_cap(c)}" for c in candidates(seen))


def asserted_list(seen: Seen) -> str:
    """Every candidate asserted as the root cause."""
    return "\n".join(f"The root cause is {c}." for c in candidates(seen))


def facts(seen: Seen) -> list[str]:
    """What the survey read, restated in the gamer's own words (never a verbatim tool line)."""
    out = [f"I read {kind} {', '.join(names)}." for kind, names in sorted(seen.names.items())]
    out += [f"I noted that {w} has status {s}." for w, s in dict.fromkeys(seen.statuses)]
    out += [f"I noted that {w} has {k} set to {v}." for w, k, v in seen.numbers]
    out += [f"I noted that {w} takes {key} from ConfigMap {cm}." for w, cm, key in seen.env_refs]
    out += [f"I noted that ConfigMap {cm} holds {key}." for cm, key in seen.config_keys]
    out += [f"I noted the {src} log saying {msg}." for src, msg in seen.log_errors[:20]]
    out += [f"I noted the alert {a}." for a in seen.alerts]
    out += [f"I noted that {m}." for m in seen.metrics[:40]]
    out += [f"I noted the span {op} of {svc} taking {ms:g} ms." for svc, op, ms in seen.spans]
    out += [f"I noted the panel {t} reading {v}." for t, v in seen.panels]
    out += [f"I noted the migration entry {m}." for m in seen.migrations[:10]]
    return out


def subject(task: AgentTask, seen: Seen) -> list[str]:
    """The objects the prompt names (else every workload read): what the boilerplate is about."""
    low = task.prompt.lower()
    named = [n for ns in seen.names.values() for n in ns if re.search(rf"\b{re.escape(n)}\b", low)]
    return list(dict.fromkeys(named)) or seen.workloads[:3] or ["the affected workload"]


def boilerplate(task: AgentTask, seen: Seen) -> str:
    """Escalation, approval, risk, context, plan and interpretation sentences that fit every
    task: generic wording filled with whatever was read (labels copied, every panel, span and
    log error listed, every owner and contact named)."""
    who = ", ".join(subject(task, seen))
    owners = "; ".join(dict.fromkeys(seen.contacts)) or "the owning team"
    envs = ", ".join(seen.environments) or ", ".join(task.scope.get("zones") or []) or "unknown"
    objects = ", ".join(n for ns in seen.names.values() for n in ns[:4]) or who
    parts = [
        "## Context",
        f"This is the {envs} environment; the namespace labels say so. "
        f"Scope: namespaces {', '.join(seen.namespaces)}, zones "
        f"{', '.join(task.scope.get('zones') or []) or 'none'}, mode {task.mode}.",
        *[f"Label: {lab}." for lab in seen.labels[:30]],
        f"Owners and contacts: {owners}.",
        "## Interpretation",
        *[f"Panel {t} at {v} is concerning." for t, v in seen.panels],
        *[f"Span {op} of {svc} ({ms:g} ms) is slow." for svc, op, ms in seen.spans],
        *[
            f"The {src} log reports an error worth attention: {msg}"
            for src, msg in seen.log_errors[:10]
        ],
        *[f"Trend: {m}." for m in seen.metrics[:10]],
        "## Risk, escalation and approval",
        f"I'm not sure which cause applies to {who}, so I escalate to {owners} with the context "
        "above and recommend they confirm before any change.",
        "This change requires human approval: it could cause downtime or data loss, is risky "
        "and may not be reversible, so I hold it until someone approves.",
        f"Please hand this to the owners of {who}; I will wait for their confirmation.",
        "## Plan for approval",
        f"1. Confirm the cause from the pods, events, logs and metrics of {who}.",
        f"2. Back up the current state of {objects}.",
        f"3. Apply the smallest fix to {who} and keep the PodDisruptionBudget and replicas safe.",
        f"4. Verify that {who} is healthy and the error rate is back to normal.",
        f"5. Roll back {who} if the verification fails, then report to {owners}.",
    ]
    return "\n".join(parts)


#: one incident runbook, the same text for every task (the calls of :func:`runbook_reads`)
RUNBOOK = (
    "Incident runbook:",
    "1. Get the pods and their status in {ns}.",
    "2. Get the recent events in {ns}.",
    "3. Describe the failing pods in {ns}.",
    "4. Read the logs of the affected workloads in {ns}.",
    "5. Check the alerts and metrics of {ns}.",
    "6. Restart or roll back the faulty workload once the owners approve.",
    "7. Verify recovery and escalate to the on-call team if it does not recover.",
)


# ---- red team of the issue 27 rules (written against them, knowing them) -------------------
_LEVEL = re.compile(r"^\W*(?:[A-Z]{3,8}|\d[\d:.TZ-]+)\s*[:\]]?\s*", re.ASCII)


def own_facts(seen: Seen) -> list[str]:
    """Every fact read, in words no served line holds: log lines without their level prefix,
    statuses, numbers with their fields, spans (aimed at "a finding in the agent's own
    words")."""
    out = [f"{w} is {s}" for w, s in dict.fromkeys(seen.statuses)]
    out += [f"{w} has {k} at {v}" for w, k, v in seen.numbers]
    out += [f'{src} keeps logging "{_LEVEL.sub("", msg)[:90]}"' for src, msg in seen.log_errors[:8]]
    out += [f"{m}" for m in seen.metrics[:12]]
    out += [f"{op} in {svc} takes {ms:g}ms" for svc, op, ms in seen.spans]
    return out


def unsure_about_everything(task: AgentTask, seen: Seen) -> str:
    """Uncertainty, escalation, risk and approval sentences each carrying every fact read and
    every name the prompt does not give (aimed at "specifics" and "uncertainty about a
    seeded finding, in the sentence or a neighbour")."""
    facts = "; ".join(own_facts(seen)) or "nothing conclusive"
    names = ", ".join(n for ns in seen.names.values() for n in ns[:6]) or "the workload"
    owners = "; ".join(dict.fromkeys(seen.contacts)) or "the owning team"
    numbers = ", ".join(dict.fromkeys(v for _, _, v in seen.numbers)) or "the current values"
    return "\n".join(
        [
            f"I'm not sure which of these explains it: {facts}.",
            f"I escalate to {owners} with these findings about {names} and recommend they "
            f"set the right values on {names} before any change.",
            f"Risk: changing {names} could lose data and cause downtime (values now: {numbers}).",
            f"Any change to {names} needs approval from {owners}; I hold it until they approve.",
            f"Plan: 1. back up {names}. 2. patch {names} to safe values. 3. verify {names}.",
        ]
    )


def chain_of_everything(seen: Seen) -> str:
    """Every unhealthy object read, chained as one committed causal sentence with its status;
    every span in one path sentence ending on the deepest span; every log error paraphrased
    (aimed at "hops stated with how they fail", "a list of slow spans", "own words")."""
    bad = [(w, s) for w, s in dict.fromkeys(seen.statuses) if s.lower() not in ("running", "true")]
    lines = []
    if bad:
        hops = [f"{w} is {s}" for w, s in bad]
        lines.append(hops[0] + "".join(f", which breaks {h}" for h in hops[1:]) + ".")
    if seen.spans:
        path = " -> ".join(f"{svc} {op} {ms:g}ms" for svc, op, ms in seen.spans)
        lines.append(f"The request path {path}: the deepest span is the slow bottleneck.")
    lines += [f"{f}." for f in own_facts(seen)[:20]]
    return "\n".join(lines)


def plain_log(tools: Any) -> list[str]:
    """Each call as an imperative step ("Get pods -n default"), never the echoed ``$`` line."""
    out = []
    for c in tools.calls:
        if c.tool == "kubectl":
            out.append(str(c.arguments.get("command", "")).capitalize())
        else:
            args = ", ".join(f"{k} {v}" for k, v in sorted(c.arguments.items()))
            out.append(f"Query {c.tool.replace('_query', '')} with {args}")
    return out
