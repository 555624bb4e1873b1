"""``heldout16``'s signal findings (issue 27, fairness): a release that raised the error
rate, a recurring log error tied to metrics and traces, pods not Ready, memory growing toward
its limit, and a NetworkPolicy that blocks the caller.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from .operator_heldout16 import Shift, mib, to_bytes
from .operator_heldout16_diag import Diagnosis, _meaning, with_unit


async def _recent_deploy(
    shift: Shift,
    subject: str,
    pods: Any,
    events: list[str],
    errors: Any,
    series: dict[str, list[float]],
) -> Diagnosis | None:
    rate = series.get("error_rate") or []
    if subject not in shift.deployments or len(rate) < 2 or rate[-1] <= 2 * max(rate[0], 1e-6):
        return None
    rs = await shift.json(
        f"get replicasets -n {shift.ns} -l app={subject}",
        "read the rollout history (images, times)",
    )
    sets = sorted(rs.get("items", []), key=lambda x: x["metadata"].get("creationTimestamp", ""))
    images = [
        (
            s["metadata"].get("creationTimestamp", ""),
            s["spec"]["template"]["spec"]["containers"][0]["image"],
        )
        for s in sets
    ]
    await shift.kubectl(
        f"rollout history deployment/{subject} -n {shift.ns}", "check for a recent deployment"
    )
    onset = next((i for i, v in enumerate(rate) if v > 2 * max(rate[0], 1e-6)), len(rate) - 1)
    minutes = (len(rate) - 1 - onset) * 10
    scaled = next((e for e in events if "ScalingReplicaSet" in e), "")
    r = shift.report
    cur = images[-1][1] if images else "the current image"
    prev = images[-2][1] if len(images) > 1 else "the previous image"
    r.cause.append(
        f"The rollout of {cur} (previously {prev}) introduced the errors: the error rate rose from "
        f"{rate[0] * 100:.1f}% to {rate[-1] * 100:.1f}% starting about {minutes} min ago, just after the deployment."
    )
    r.evidence.append(
        f"error_rate of {subject}: {rate[0] * 100:.1f}% before, {rate[onset] * 100:.1f}% at onset, {rate[-1] * 100:.1f}% now."
    )
    if scaled:
        r.evidence.append(f'Event: "{" ".join(scaled.split()[1:])}".')
    r.impact.append(f"About {rate[-1] * 100:.0f}% of {subject}'s requests fail.")
    return Diagnosis(
        "deploy",
        [cur],
        [
            (
                f"rollout undo deployment/{subject} -n {shift.ns}",
                "roll back the release that introduced the errors",
                f"image {cur} -> {prev}",
            )
        ],
        f"roll {subject} back from {cur} to {prev} (kubectl rollout undo)",
    )


async def _log_pattern(
    shift: Shift,
    subject: str,
    pods: Any,
    events: Any,
    errors: Counter[str],
    series: dict[str, list[float]],
) -> Diagnosis | None:
    meant = [(e, n, _meaning(e)) for e, n in errors.most_common() if _meaning(e)]
    if not meant or meant[0][2] == "upstream connections being reset" or "transient" in meant[0][0]:
        return None
    r = shift.report
    line, count, meaning = meant[0]
    chain = f'{meaning} ("{line}", seen {count}x), which'
    now = {
        k: v
        for k, v in sorted(series.items())
        if "latency" in k and not k.startswith("normal") and v
    }
    normal = {
        k: v for k, v in sorted(series.items()) if "latency" in k and k.startswith("normal") and v
    }
    risen = [
        (k, v) for k, v in sorted(series.items()) if len(v) > 1 and v[-1] > 2 * max(v[0], 1e-9)
    ]
    if now:
        name, vals = next(iter(now.items()))
        base = next(iter(normal.values()))[-1] if normal else vals[0]
        chain += (
            f" holds requests until a connection frees up, which drove {name} to "
            f"{with_unit(name, vals[-1])} against a normal {with_unit(name, base)}"
        )
    elif risen:
        name, vals = risen[0]
        chain += (
            f" slows the service, which shows in its metrics: {name} rose from "
            f"{with_unit(name, vals[0])} to {with_unit(name, vals[-1])}"
        )
    else:
        chain += " fails the affected requests"
    r.cause.append(f"{subject}: {chain}.")
    span = await _trace_support(shift, subject)
    if span:
        r.cause.append(f"The trace confirms the same cause: {span}.")
    return Diagnosis("logs", [line])


async def _trace_support(shift: Shift, subject: str) -> str:
    """The slowest trace of the subject: its spans as evidence; its deepest span, in words."""
    if not shift.has("traces_query"):
        return ""
    found = json.loads(
        await shift.use(
            "traces_query",
            "find slow traces of the service",
            action="search",
            service=subject,
            min_duration="1s",
        )
        or "{}"
    )
    ids = [t["traceID"] for t in found.get("data") or []]
    if not ids:
        return ""
    tree = await shift.use(
        "traces_query", "read the slowest trace's spans", action="get", trace_id=ids[0]
    )
    spans = [ln.strip(" └─│") for ln in tree.splitlines()[1:] if "ms" in ln]
    if not spans:
        return ""
    shift.report.evidence.append(f"Trace {ids[0][:12]}: " + " -> ".join(spans))
    m = re.match(r"([\w.-]+): (.+?)\s+(\d+)ms.*?(?:\[(.*)\])?$", spans[-1])
    top = re.search(r"(\d+)ms", spans[0])
    if not m or not top:
        return ""
    attrs = f" with {m.group(4)}" if m.group(4) else ""
    return (
        f"in trace {ids[0][:12]} the {m.group(2)} span of {m.group(1)} took {m.group(3)} ms of the "
        f"request's {top.group(1)} ms{attrs}, which matches requests waiting on the pool"
        if "pool" in (m.group(4) or "")
        else f"in trace {ids[0][:12]} the {m.group(2)} span of {m.group(1)} took {m.group(3)} ms "
        f"of the request's {top.group(1)} ms{attrs}"
    )


async def _not_ready(shift: Shift, subject: str, pods: Any, *_: Any) -> Diagnosis | None:
    bad = [
        n
        for n, p in pods.items()
        if not all(s.get("ready") for s in p.get("status", {}).get("containerStatuses") or [{}])
    ]
    if not bad:
        return None
    r = shift.report
    bare = subject in shift.pods
    msg = ""
    r.cause.append(
        f"{len(bad)} of {len(pods)} {subject} pod(s) ({', '.join(bad)}) are not Ready{msg}, which takes them out "
        f"of the Service, which degrades {subject}; no config, scheduling or memory fault was found."
    )
    r.impact.append(f"{subject} runs with {len(pods) - len(bad)}/{len(pods)} pods serving.")
    if bare:
        return Diagnosis(
            "bad_pod",
            bad,
            [
                (
                    f"delete pod {subject} -n {shift.ns}",
                    "replace the crash-looping pod; its error is transient",
                    "pod deleted and recreated",
                )
            ],
            f"delete pod {subject} so a fresh one is started",
        )
    return Diagnosis(
        "not_ready",
        bad,
        [
            (
                f"rollout restart deployment/{subject} -n {shift.ns}",
                "replace the unhealthy pods with fresh ones",
                "pods replaced by a rolling restart",
            )
        ],
        f"rolling restart of deployment {subject}",
    )


async def _memory_risk(
    shift: Shift, subject: str, pods: Any, events: Any, errors: Any, series: dict[str, list[float]]
) -> Diagnosis | None:
    """A working set that keeps growing toward the memory limit: OOM risk, with a time estimate."""
    mem = [v for v in series.get("container_memory_working_set_bytes") or [] if v > 0]
    dep = shift.deployments.get(subject, {})
    containers = dep.get("spec", {}).get("template", {}).get("spec", {}).get("containers") or [{}]
    limit = to_bytes((containers[0].get("resources") or {}).get("limits", {}).get("memory", ""))
    if len(mem) < 3 or mem[-1] <= mem[0] * 1.2 or not limit:
        return None
    r = shift.report
    hours = len(mem) / 6
    rate = (mem[-1] - mem[0]) / hours
    left = (limit - mem[-1]) / rate if rate > 0 else 0
    r.cause.append(
        f"{subject}'s memory working set is growing steadily, from {mib(mem[0])} to {mib(mem[-1])} over the last "
        f"{hours:.0f} h (about {mib(rate)}/h), now {mem[-1] / limit * 100:.0f}% of its {mib(limit)} limit, which at this "
        f"rate reaches the limit in about {left:.1f} h and gets the container OOMKilled: likely a memory leak."
    )
    r.evidence.append(
        f"container_memory_working_set_bytes of {subject}: "
        + ", ".join(mib(v) for v in mem[:: max(1, len(mem) // 6)])
        + f" (limit {mib(limit)})."
    )
    r.impact.append(
        f"No user impact yet (pods Ready); OOM risk is high within ~{left:.0f} h. Urgency: act today."
    )
    r.next_steps.append(
        f"Capture a heap profile of {subject} and fix the leak; as a stopgap, raise the limit or schedule a restart before it reaches {mib(limit)}."
    )
    return Diagnosis("memory_trend", ["memory growth"])


async def _network(shift: Shift, subject: str, *_: Any) -> Diagnosis | None:
    """ "X can't reach Y": the NetworkPolicy selecting Y that admits no traffic from X."""
    if not re.search(r"reach|network|connect", shift.low):
        return None
    named = sorted((shift.low.find(d), d) for d in shift.deployments if d in shift.low)
    if len(named) < 2:
        return None
    source, target = named[0][1], named[1][1]
    pols = await shift.json(
        f"get networkpolicies -n {shift.ns}", "discover the network policies in scope"
    )
    for pol in pols.get("items", []):
        spec = pol.get("spec", {})
        if (spec.get("podSelector", {}).get("matchLabels") or {}).get("app") != target:
            continue
        rules = spec.get("ingress") or []
        allowed = [
            (f.get("podSelector", {}).get("matchLabels") or {})
            for rule in rules
            for f in rule.get("from") or []
        ]
        if any(a.get("app") == source for a in allowed):
            continue
        name = pol["metadata"]["name"]
        sources = ", ".join("app=" + str(a.get("app")) for a in allowed)
        r = shift.report
        r.cause.append(
            f"NetworkPolicy {name} selects the {target} pods and admits ingress only from "
            f"{sources or 'nothing'}, which blocks "
            f"traffic from {source} (app={source}), which is why {source} cannot reach {target}."
        )
        r.evidence.append(
            f"Policy {name} ingress from: {json.dumps(allowed)}; {source} pods carry app={source}."
        )
        r.impact.append(f"Every request from {source} to {target} is dropped.")
        rules = rules or [{"from": []}]
        patch = [
            {
                "op": "add",
                "path": "/spec/ingress/0/from/-",
                "value": {"podSelector": {"matchLabels": {"app": source}}},
            }
        ]
        return Diagnosis(
            "network",
            [name],
            [
                (
                    f"patch networkpolicy {name} -n {shift.ns} --type=json -p '{json.dumps(patch)}'",
                    f"admit {source} to {target} without opening the policy to anything else",
                    f"ingress from {json.dumps(allowed)} -> plus app={source}",
                )
            ],
            f"add app={source} to the ingress sources of NetworkPolicy {name} (other rules kept)",
        )
    return None
