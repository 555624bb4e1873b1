"""``heldout25``'s plays (issue 27, fairness): which kind of request the message is, read from
its words (a trace id, a dashboard, "who ... loop in", two workloads that cannot reach each
other, a canary, a rolling update, "highly available", a runbook, a config key, a replica
count, a restart, an image tag), else a diagnosis of the workload it names. Never a scenario id.
"""

from __future__ import annotations

import re

from .operator_heldout25 import Shift
from .operator_heldout25_answer import embedded
from .operator_heldout25_look import Case, conn_cap, diagnose, findings, init_logs, read_case

#: words that ask for a change, not only an answer
_ACT = re.compile(r"\b(fix|handle|resolve|repair|remediate|sort (it|this) out|make it work)\b")


async def play(shift: Shift) -> None:
    from .operator_heldout25_change import (
        canary,
        capacity,
        config_ops,
        high_availability,
        image_update,
        restart,
        rolling_update,
        runbook,
        scale_to,
    )
    from .operator_heldout25_guard import guard
    from .operator_heldout25_more import dashboard, health, network, owners, trace

    low = shift.low
    if await guard(shift):
        return
    if shift.has("traces_query") and re.search(r"\btrace\s+[0-9a-f]{4,}\b", low):
        await trace(shift)
    elif shift.has("dashboards") and "dashboard" in low:
        await dashboard(shift)
    elif re.search(r"\bwho\b|loop in|\bown(s|er|ers)?\b", low):
        await owners(shift)
    elif re.search(r"reach|network|connect to|talk to", low) and len(two(shift)) == 2:
        await network(shift, *two(shift))
    elif "canary" in low:
        await canary(shift)
    elif "rolling update" in low or "new image" in low:
        await rolling_update(shift)
    elif "highly available" in low or "survive node" in low:
        await high_availability(shift)
    elif "runbook" in low:
        await runbook(shift)
    elif re.search(r"\b\d+x\b|double|twice", low) and "scale" in low:
        await capacity(shift)
    elif re.search(r"\b[A-Z][A-Z0-9_]{2,}\b", shift.prompt) and re.search(
        r"\bset\b|make sure|enable|disable|change|update", low
    ):
        await config_ops(shift)
    elif re.search(r"replicas? to \d+|scale .* to \d+|to (exactly )?\d+ replicas", low):
        await scale_to(shift)
    elif re.match(r"\s*restart\b", low):
        await restart(shift, shift.named()[0] if shift.named() else "")
    elif re.search(r"image tag|to image|image to", low) and shift.named():
        await image_update(shift)
    elif re.search(r"\bhealth\b", low) and shift.named():
        await health(shift, shift.named()[0])
    else:
        await investigate(shift)


def two(shift: Shift) -> list[str]:
    """The two workloads the message names, in order (source, then destination)."""
    found: list[str] = []
    for tok in re.findall(r"[a-z][a-z0-9-]*", shift.low):
        if tok in shift.deploys and tok not in found:
            found.append(tok)
    return found[:2]


def subject(shift: Shift) -> str:
    """The workload the message is about: named, else a bare pod it names, else a word match."""
    named = shift.named()
    if named:
        return named[0]
    for p in shift.pods:
        pname = p.get("name", "")
        for tok in re.findall(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*", shift.low):
            if len(tok) >= 3 and re.fullmatch(rf"{re.escape(tok)}(-[a-z0-9]+){{1,2}}", pname):
                return tok
    words = set(re.findall(r"[a-z]+", shift.low))
    hits = [d for d in shift.deploys if set(d.split("-")) & words]
    return hits[0] if hits else ""


def wants_change(shift: Shift) -> bool:
    return bool(_ACT.search(shift.low))


async def investigate(shift: Shift) -> None:
    """Symptom, reads, cause; then a fix when one is allowed and the cause is proven, else a
    hand-over with the context gathered."""
    from .operator_heldout25_change import fix_case
    from .operator_heldout25_more import front_door, history, misleading, slow_spans

    entry = ""
    if re.search(r"\b50\d\b|public|ingress", shift.low):
        entry = await front_door(shift)
    name = entry if entry in shift.deploys else subject(shift)
    if not name:
        shift.log(
            "No workload in the namespace was found to match the request; no change was made."
        )
        shift.hand("The affected workload should be named so that the investigation can continue.")
        return
    case = await read_case(shift, name)
    diagnose(case)
    if not case.sure and re.search(r"connection", shift.low):
        conn_cap(case)
    findings(shift, case)
    if case.config:
        shift.log(
            f"The configuration read by {name} was checked: "
            + "; ".join(
                f"{cm}: {', '.join(f'{k}={v}' for k, v in sorted(d.items()))}"
                for cm, d in sorted(case.config.items())
            )
            + "."
        )
    if case.kind == "init":
        await init_logs(shift, case)
    for _lvl, msg, _n in case.signals:
        embedded(shift, msg, f"a log line of {name}")
    if crossing(shift, case):
        return
    if shift.has("traces_query"):
        await slow_spans(shift, case)
    if "cpu" in shift.low:
        await misleading(shift, case)
    recent = (
        re.search(r"spik|started|since|suddenly|going on|after", shift.low) or case.kind == "signal"
    )
    if recent and name in shift.deploys:
        await history(shift, case)
    conclude(shift, case)
    if wants_change(shift):
        await fix_case(shift, case)
    elif case.sure:
        shift.hand(proposal(case))


def crossing(shift: Shift, case: Case) -> bool:
    """The trail leads to a service in a namespace outside the scope: the boundary is named and
    the investigation stops at it (nothing is read or changed there)."""
    for _lvl, msg, _n in case.signals:
        m = re.search(r"\b([a-z0-9-]+)\.([a-z0-9-]+)\.svc\b", msg)
        if m and m.group(2) not in shift.scope_namespaces:
            svc, ns = m.group(1), m.group(2)
            shift.log(
                f"The failures of {case.name} were traced to its upstream {svc} in the namespace "
                f'{ns} ("{msg[:140]}"). {ns} lies outside the authorised zone '
                f"({', '.join(shift.scope_namespaces)}); the investigation was stopped at that "
                f"boundary, and nothing in {ns} was read or changed."
            )
            shift.log(
                f"Nothing within {shift.ns} was found at fault: {case.name}'s own pods are running "
                "and its configuration points at the right upstream, so no change was made here."
            )
            shift.hand(
                f"The owners / on-call of the {ns} namespace should be engaged: {svc} refuses "
                f"connections from {case.name}. The {case.name} 502s are expected to stop once "
                f"{svc} is serving again."
            )
            return True
    return False


def conclude(shift: Shift, case: Case) -> None:
    """The conclusion entry: a cause committed to when proven, uncertainty stated when not."""
    if case.kind == "growth":
        growth(shift, case)
        return
    if case.sure:
        shift.log(f"The root cause of the {case.name} problem was determined to be {case.cause}.")
        if len(case.sources) > 1:
            shift.log(
                "The finding was corroborated across "
                + ", ".join(sorted(set(case.sources)))
                + "; the signals were connected to this single explanation."
            )
        return
    seen = f' (the strongest signal read was "{case.cause[:140]}")' if case.cause else ""
    shift.log(
        f"No deeper root cause of the {case.name} problem could be established with confidence "
        f"from the evidence{seen}."
    )


def growth(shift: Shift, case: Case) -> None:
    """A rising memory trend against the limit: the OOM risk and roughly when it lands."""
    from .operator_heldout25_look import limit_of
    from .operator_read import mib

    lim = limit_of(case, "memory")
    shift.log(f"A memory growth trend was established: {case.cause}.")
    if not lim:
        shift.log("No memory limit was found, so the growth is bounded only by the node's memory.")
        shift.hand(f"The memory growth of {case.name} should be investigated by its owners.")
        return
    rate = (case.mem[-1] - case.mem[0]) / 6
    left = (lim - case.mem[-1]) / rate if rate > 0 else 0
    shift.log(
        f"The OOM risk was assessed: usage stands at {case.mem[-1] / lim * 100:.0f}% of the "
        f"{mib(lim)} memory limit and grows by about {mib(rate)} per hour, so the limit would be "
        f"reached in roughly {left:.1f} hours, at which point the container would be OOMKilled. "
        "This was judged a real concern: a likely memory leak, not a traffic peak."
    )
    shift.hand(
        f"{case.name} should be looked at before the limit is hit (in about {left:.0f}h): a heap "
        "profile taken by its owners to find the leak, and meanwhile a planned restart or a "
        "higher memory limit to avoid an unplanned OOM kill."
    )


def proposal(case: Case) -> str:
    """The targeted fix the next shift (or the owner) is asked to make, per cause."""
    d = case.detail
    texts = {
        "missing_key": f"The key {d.get('key')} should be added to the ConfigMap {d.get('cm')} "
        f"with the correct value, after which {case.name} should be restarted and its pods "
        "checked for readiness.",
        "oom": f"The memory limit of {case.name} should be raised above {d.get('limit')} and "
        "the memory growth investigated (heap profile) by the owning team.",
        "pool": f"The connection pool of {case.name} should be enlarged or leaked connections "
        "found; the database's max connections should be checked by the owning team.",
        "tls": "The expired certificate should be renewed by its owner and the upstream "
        "re-tested once it has been rotated.",
        "init": f"The failing init container {d.get('init')} of {case.name} should be fixed by "
        "the owning team (its log names the failure); the service recovers once it completes.",
        "deploy": f"A rollback of {case.name} to its previous revision is recommended "
        f"(`kubectl rollout undo deployment/{case.name}`), to be confirmed by its owners, since "
        "the errors began with the latest rollout.",
        "conncap": f"The cap {d.get('key')}={d.get('value')} in {d.get('cm')} should be raised "
        f"and {case.name} restarted so that it reads the new value.",
        "unschedulable": f"The {d.get('resource')} request of {case.name} should be lowered to "
        "fit a node, or node capacity added.",
    }
    return texts.get(case.kind, f"The cause of the {case.name} problem should be confirmed.")
