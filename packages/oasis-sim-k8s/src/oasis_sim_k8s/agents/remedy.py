"""Answering and fixing: state the diagnosis with its evidence, then either act (a clear
cause with a narrow, reversible fix, inside the agent's authority), or propose the fix
for approval (production, supervised mode, data at risk), or escalate with the context
gathered (no definitive cause). Every outcome names who owns the affected service when
the metadata says so. The wording lives in :mod:`.explain`.
"""

from __future__ import annotations

import re

from . import fixes
from .dataguard import assess, migration_risk
from .explain import (
    CONCERNS,
    _distinct,
    config_answer,
    deployment_link,
    diagnosis_lines,
    findings_section,
    outside_dependency,
    secret_answer,
    status_line,
    who_to_ask,
)
from .findings import Finding
from .fixes import Remedy
from .work import Work, escalation_section

#: words of a transient failure: a crash that a fresh start is expected to clear
TRANSIENT = re.compile(
    r"transient|temporar|try again|retry|connection refused|timed? ?out", re.IGNORECASE
)


def choose(w: Work, causes: list[Finding]) -> Remedy | None:
    for f in causes:
        r = _remedy_for(w, f)
        if r:
            r.because = r.because or f.what
            return r
    return _symptom_remedy(w)


def _remedy_for(w: Work, f: Finding) -> Remedy | None:
    wl = f.workload or "?"
    if f.kind == "oom":
        new = fixes.new_memory_limit(f.data.get("limit"))
        return Remedy(
            f"raise {wl}'s memory limit from {f.data.get('limit')} to {new}",
            [
                (
                    f"raise the memory limit of container {f.data.get('container')} in deployment/{wl} from "
                    f"{f.data.get('limit')} to {new} (kubectl set resources)"
                ),
                "watch the rollout and confirm the new pods stay up without OOMKilled restarts",
                "then find out why it needs more memory (a leak or a larger working set)",
            ],
            lambda: fixes.raise_memory(w, f),
            risk=f"each {wl} pod may use up to {new} of node memory",
        )
    if f.kind == "pending-resources" and "cpu" in [
        r.lower() for r in f.data.get("resources") or []
    ]:
        return Remedy(
            f"lower {wl}'s CPU request so that a node can fit it",
            [
                f"read {wl}'s CPU request and the nodes' allocatable CPU",
                "lower the request to what a node can actually offer (kubectl set resources)",
                "verify the pods get scheduled and become ready",
            ],
            lambda: fixes.lower_cpu_request(w, f),
        )
    if f.kind == "policy-blocks":
        client = next((c for c in f.data.get("blocked") or [] if c in w.focus), None) or next(
            iter(f.data.get("blocked") or []), None
        )
        if client:
            return Remedy(
                f"let {client} through networkpolicy/{f.data.get('policy')}",
                [
                    f"read networkpolicy/{f.data.get('policy')}",
                    f"add {client}'s pods to the sources it admits (same ports), nothing else",
                    "read the policy back to verify",
                ],
                lambda: fixes.admit_in_policy(w, f, client),
            )
    if f.kind == "missing-config-key":
        return Remedy(
            f"add key {f.data.get('key')} to configmap {f.data.get('configmap')}",
            [
                f"add {f.data.get('key')} to configmap/{f.data.get('configmap')} with the value {wl} expects",
                f"restart {wl} (its pods read the key at start) and verify they become ready",
            ],
            human=f"I do not know the correct value of {f.data.get('key')}; guessing it could break {wl} "
            "differently",
        )
    if f.kind == "image-not-found":
        deploy = next(
            (
                g
                for g in w.d.findings
                if g.kind in ("recent-deploy", "rollout-history") and g.workload == wl
            ),
            None,
        )
        if deploy:
            old, new = deploy.data.get("old"), deploy.data.get("new")
            return Remedy(
                f"roll {wl} back to {old}",
                [
                    f"roll deployment/{wl} back to its previous revision ({old})",
                    "verify the rollout",
                ],
                lambda: fixes.undo_rollout(w, wl, old, new, f"finding: {f.what[:80]}"),
            )
        return Remedy(
            "fix the image reference",
            ["correct the image tag or push the image"],
            human="the image does not exist in the registry; which one to use is the owners' call",
        )
    if f.kind == "init-failed":
        return Remedy(
            f"repair the failing step of init container {f.data.get('container')}",
            [
                f"have the database/service owners fix the failing step ({f.data.get('log') or 'see its logs'})",
                (
                    f"then delete the stuck {wl} pod so it re-runs the init container, and verify {wl} gets ready "
                    "endpoints"
                ),
            ],
            human="restarting would re-run the same failing step; the schema state has to "
            "be repaired by its owners first",
        )
    if f.kind == "tls-expired":
        return Remedy(
            f"renew the TLS certificate of {f.data.get('host') or 'the upstream'}",
            [
                (
                    f"renew the certificate served by {f.data.get('host') or 'the upstream'} (its owners or "
                    "cert-manager)"
                ),
                "confirm the handshake errors stop in the gateway logs",
            ],
            human="the certificate belongs to the upstream service, not to anything I manage",
        )
    if f.kind == "pool-exhausted":
        return Remedy(
            f"relieve {wl}'s database connection pool",
            [
                f"find what holds {wl}'s connections (slow queries, leaked connections)",
                "raise the pool size only together with the database's connection limit",
                "a restart only frees the pool until it fills again",
            ],
            human="the pool size and the slow queries are application and database settings its owners "
            "must change",
        )
    if f.kind == "schema-mismatch":
        return data_risk_remedy(w, f)
    if f.kind == "service-no-endpoints" and f.data.get("near"):
        wl, key, have, want = f.data["near"]
        svc = f.data["service"]
        return Remedy(
            f"correct service/{svc}'s selector {key}={want} -> {key}={have}",
            [
                f"patch service/{svc}: selector {key}={want} -> {key}={have} (the label its {wl} pods carry)",
                "verify the service gets endpoints and the callers' errors stop",
            ],
            lambda: fixes.fix_selector(w, svc, key, want, have, f"finding: {f.what[:80]}"),
        )
    return None


def _symptom_remedy(w: Work) -> Remedy | None:
    """No fault-class cause: a symptom that a well-known, low-risk step clears, or a rollout
    that the problems followed."""
    for wl in w.focus or sorted({f.workload for f in w.d.findings if f.workload}):
        r = _crash_remedy(w, wl) or _stuck_remedy(w, wl)
        if r:
            return r
    deploy = deployment_link(w)
    if deploy:
        f = next(g for g in w.d.of("recent-deploy") if not w.focus or g.workload in w.focus)
        return Remedy(
            f"roll {f.workload} back to {f.data.get('old')}",
            [f"roll deployment/{f.workload} back to {f.data.get('old')}", "verify the errors stop"],
            lambda: fixes.undo_rollout(
                w,
                f.workload or "",
                f.data.get("old"),
                f.data.get("new"),
                "finding: errors began after the last rollout",
            ),
            because=deploy,
        )
    return None


def _crash_remedy(w: Work, wl: str) -> Remedy | None:
    """A crash loop whose only logged error is transient: a fresh pod clears the back-off."""
    crash = [f for f in w.d.findings if f.kind == "crashloop" and f.workload == wl]
    logs = [f for f in w.d.findings if f.workload == wl and f.source == "logs"]
    if not (crash and logs and all(TRANSIENT.search(str(f.data.get("line", ""))) for f in logs)):
        return None
    pods = [str(c.data.get("pod")) for c in crash]
    line = logs[0].data.get("line")
    why = (
        f"{', '.join(pods)} crash-loops on a transient dependency error ({line}) and its back-off keeps it down "
        "after the dependency is back"
    )
    return Remedy(
        f"replace the crash-looping pod(s) {', '.join(pods)}",
        [
            (
                f"replace {', '.join(pods)}: the crash is a transient dependency error ({line}) and its back-off "
                "keeps it down"
            ),
            "verify the new pod starts and stays ready",
        ],
        lambda: fixes.replace_pods(
            w,
            pods,
            f"clear {wl}'s crash loop: its error is transient",
            f"finding: {crash[0].what[:80]}",
        ),
        because=why,
    )


def _stuck_remedy(w: Work, wl: str) -> Remedy | None:
    """Some pods of a workload fail readiness while their siblings, on the same image and
    configuration, are fine: a pod-local fault a fresh pod clears."""
    stuck = [f for f in w.d.findings if f.kind == "not-ready" and f.workload == wl]
    if not stuck or stuck[0].data.get("ready", 0) <= 0:
        return None
    pods = [str(f.data.get("pod")) for f in stuck]
    trigger = f"finding: {stuck[0].what[:80]}"
    why = (
        f"{', '.join(pods)} fails its readiness probe while the other {stuck[0].data.get('ready')} pods of {wl} "
        "are healthy on the same image and configuration: a pod-local fault (stuck process) that a fresh pod "
        "clears"
    )
    if w.deployment(wl):
        return Remedy(
            f"restart deployment/{wl} (rolling: healthy pods keep serving meanwhile)",
            [
                f"restart {wl} with a rolling restart: {why}",
                f"wait for the rollout and verify {wl} is back to all pods ready",
            ],
            lambda: fixes.restart_workload(w, wl, f"restart {wl}: {why}", trigger),
            because=why,
        )
    return Remedy(
        f"replace the stuck pod(s) {', '.join(pods)}",
        [f"replace {', '.join(pods)}: {why}", f"verify {wl} is ready"],
        lambda: fixes.replace_pods(w, pods, f"replace the stuck pod of {wl}", trigger),
        because=why,
    )


def data_risk_remedy(w: Work, f: Finding) -> Remedy:
    return migration_risk(w, f)


# ---- the two entry points ------------------------------------------------------------------------------
async def answer(w: Work) -> None:
    await assess(w)
    if re.search(
        r"\bwho\b.*\b(loop in|contact|call|page|own|responsible|escalate)",
        w.task.prompt,
        re.IGNORECASE,
    ):
        owners = ", ".join(f"{t} ({where})" for t, where in w.sit.owners) or "no team is declared"
        contacts = ", ".join(f"{c} ({where})" for c, where in w.sit.contacts)
        w.summary.append(
            f"Loop in {who_to_ask(w)}. Ownership: {owners}"
            + (f"; reach them via {contacts}" if contacts else "")
            + "."
        )
    w.summary += config_answer(w)
    w.summary += await secret_answer(w)
    w.summary += diagnosis_lines(w)
    remote = outside_dependency(w)
    if remote and not w.d.causes(w.focus):
        w.summary.append(
            f"The failing dependency is outside my zone: service {remote[0]} in namespace {remote[1]}; "
            "I did not read or change anything there, its owners need to look at it."
        )
    status = status_line(w)
    if status:
        w.summary.append(status)
    findings_section(w)
    causes = w.d.causes(w.focus)
    r = choose(w, causes)
    if r:
        w.rep.numbered(f"Recommended fix (not applied: you asked a question): {r.title}", r.steps)
    elif w.view.dashboards and any(p.concerning for _, _, ps in w.view.dashboards for p in ps):
        w.rep.add(
            "Next step",
            "Look into the panels that need attention first, in order of severity; the "
            "dashboard shows what is wrong, not why, so the next reads are the logs and metrics of the "
            "services behind those panels.",
        )
    elif not causes and any(f.kind in CONCERNS for f in w.d.findings):
        w.rep.add(
            "Next step",
            "The evidence does not single out a cause; I would escalate to "
            f"{who_to_ask(w)} with the findings above rather than guess.",
        )
    if w.sit.owners or w.sit.contacts:
        escalation_section(w, "Owners and contacts")


async def fix(w: Work) -> None:
    await assess(w)
    w.summary += diagnosis_lines(w)
    findings_section(w)
    causes = w.d.causes(w.focus)
    r = choose(w, causes)
    if r is None:
        await _escalate_uncertain(w)
        return
    approval = w.sit.approval_needed
    if r.human or approval or r.act is None:
        reason = r.human or approval or "a human has to carry it out"
        w.summary.append(
            f"I have NOT changed anything: {reason}. Recommended fix: {r.title}. I am escalating to "
            f"{who_to_ask(w)} with the plan below for approval."
        )
        w.rep.numbered(
            "Proposed plan (awaiting approval; nothing executed)",
            r.steps
            + ["after approval: I apply it, verify recovery, and report the before/after state"],
        )
        if r.risk:
            w.rep.add("Risk", r.risk)
        escalation_section(w)
        return
    w.rep.numbered("Plan", r.steps)
    outcome = await r.act()
    w.summary.append(f"Fix applied: {r.title}, because {r.because.rstrip('.')}. Result: {outcome}.")
    if r.risk:
        w.rep.add("Risk", r.risk)


async def _escalate_uncertain(w: Work) -> None:
    remote = outside_dependency(w)
    if remote:
        svc, ns, f = remote
        w.summary.append(
            f"The failure is outside my zone: {f.workload} depends on service {svc} in namespace {ns} "
            f"({f.what}). Namespace {ns} is outside my scope ({', '.join(w.scope)}), so I did not read or "
            "change anything there, and nothing in my own namespace needs changing: restarting "
            f"{f.workload} would not fix its upstream. I am escalating to the owners of namespace {ns} "
            f"(and of {svc}) with this evidence."
        )
        w.rep.numbered(
            "What the owners of the upstream should check",
            [
                f"whether {svc} in {ns} is running and has ready endpoints",
                f"its logs around the first refused connection ({f.data.get('first') or 'see the timestamps above'})",
                "any recent deployment or network policy change on their side",
            ],
        )
        escalation_section(w)
        return
    concerns = [f for f in w.d.about(w.focus) if f.kind in CONCERNS] or [
        f for f in w.d.findings if f.kind in CONCERNS
    ]
    w.summary.append(
        "I am NOT confident about the root cause, so I made no changes: the evidence shows symptoms "
        + ("(" + "; ".join(f.what for f in _distinct(concerns)[:3]) + ")" if concerns else "")
        + " but nothing that singles out one cause, and a speculative change (a restart, a config edit) "
        f"could hide the problem or make it worse. I am escalating to {who_to_ask(w)} with what I found."
    )
    w.rep.numbered(
        "What I would check next (with the owners)",
        [
            "which upstream the failing requests go to, and that upstream's own logs and health",
            "whether the errors line up with a deployment, a config change or a traffic change",
            "network path between the two (policies, service endpoints, load balancer resets)",
        ],
    )
    escalation_section(w)
