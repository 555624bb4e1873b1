"""``heldout19``'s reads: orient, follow the symptom, read the signals (written blind).

Generic: every read is chosen from the prompt, the scope and what earlier reads returned.
The findings go into the shift as short ``key=value`` facts and one-line causes.
"""

from __future__ import annotations

import re

from .operator_heldout19 import Shift
from .operator_heldout19_signals import (
    read_config_refs,
    read_dashboards,
    read_db,
    read_ingress,
    read_metrics,
    read_network,
    read_nodes,
    read_traces,
)
from .operator_read import age_minutes, describe_pods, log_lines, signal_patterns, table

_BAD = ("crashloop", "error", "oomkilled", "pending", "imagepull", "init:", "unknown")


async def look(shift: Shift) -> None:
    """The first look, then the symptom's own sources."""
    for ns in shift.scope:
        await _namespace(shift, ns)
    if any(w in shift.low for w in ("503", "502", "ingress", "public")):
        await read_ingress(shift, shift.ns)
    focus = _focus(shift)
    shift.data["focus"] = focus
    ns = shift.ns
    if shift.has("metrics_query"):
        await read_metrics(shift, ns, focus, first=True)
    for name in focus:
        await _workload(shift, ns, name)
    await read_config_refs(shift, ns)
    await read_network(shift, ns)
    await read_nodes(shift)
    await read_traces(shift)
    await read_dashboards(shift)
    await read_db(shift)


async def _namespace(shift: Shift, ns: str) -> None:
    desc = await shift.k(f"describe namespace {ns}", "who owns the ns, which env")
    for key in ("Labels", "Annotations"):
        for k, v in _pairs(desc, key).items():
            shift.ctx[k] = v
    deps = table(await shift.k(f"get deploy -n {ns} -o wide", "what runs"))
    pods = table(await shift.k(f"get pods -n {ns} -o wide", "which pods are unhappy"))
    events = table(await shift.k(f"get events -n {ns} --sort-by=.lastTimestamp", "what changed"))
    shift.data.setdefault("deploys", {}).update({d["name"]: d for d in deps if d.get("name")})
    shift.data.setdefault("pods", []).extend(pods)
    shift.data.setdefault("events", []).extend(events)


def _pairs(describe: str, key: str) -> dict[str, str]:
    """``Labels:`` / ``Annotations:`` of a describe block."""
    out: dict[str, str] = {}
    inside = False
    for line in describe.splitlines():
        if line.startswith(f"{key}:"):
            inside, line = True, line[len(key) + 1 :]
        elif line[:1].strip():
            inside = False
        item = line.strip()
        if not inside or item in ("", "<none>"):
            continue
        sep = "=" if "=" in item.split(":")[0] else ":"
        k, found, v = item.partition(sep)
        if found:
            out[k.strip()] = v.strip()
    return out


def pods_of(shift: Shift, name: str) -> list[dict[str, str]]:
    """Pods of a deployment (ReplicaSet hash suffix) or the pod of that exact name."""
    pat = re.compile(rf"{re.escape(name)}(-[a-z0-9]+){{1,2}}")
    return [p for p in shift.data.get("pods", []) if pat.fullmatch(p.get("name", ""))]


def _focus(shift: Shift) -> list[str]:
    """Deployments the prompt names; else the unhappy ones; pods named map to their deploy."""
    deploys = sorted(shift.data.get("deploys", {}))
    named = shift.named(deploys)
    for pod in shift.data.get("pods", []):
        pname = pod.get("name", "")
        if pname and pname.lower() in shift.low:
            owner = next((d for d in deploys if pname.startswith(d + "-")), "")
            named += [owner] if owner and owner not in named else []
    for token in sorted(
        set(re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", shift.low)), key=len, reverse=True
    ):
        if len(token) < 3 or any(token in n for n in named):
            continue
        if token in deploys or token in named:
            continue
        bare = [
            p.get("name", "")
            for p in shift.data.get("pods", [])
            if re.fullmatch(
                rf"{re.escape(token)}(-(?=[a-z]*\d)[a-z0-9]{{4,10}}){{1,2}}", p.get("name", "")
            )
            and not any(p.get("name", "").startswith(d + "-") for d in deploys)
        ]
        if bare:
            shift.data.setdefault("bare", {})[token] = bare
            named.append(token)
    if named:
        return sorted(set(named), key=lambda n: (-len(n), n))
    behind = [svc for _, svc, _, ep in shift.data.get("backends", []) if ep in ("<none>", "", "?")]
    if behind:
        return sorted({d for d in deploys if d in behind})
    bad = []
    for d in deploys:
        rows = pods_of(shift, d)
        if any(any(b in r.get("status", "").lower() for b in _BAD) for r in rows):
            bad.append(d)
    return bad[:3]


async def _workload(shift: Shift, ns: str, name: str) -> None:
    """describe, logs (now and the crashed run), init containers, rollout history."""
    described = await shift.k(
        f"describe pods -n {ns} -l app={name}", f"why {name} pods are in that state"
    )
    views = describe_pods(described)
    shift.data.setdefault("mounts", {})[name] = " ".join(
        ln for ln in described.splitlines() if "ConfigMap" in ln or "configmap" in ln.lower()
    )
    shift.data.setdefault("views", {})[name] = views
    for view in views[:1]:
        for c in view.containers:
            if c.init and (c.reason or c.last_reason or "error" in c.state.lower()):
                await _logs(shift, ns, name, container=c.name)
            if c.last_reason == "OOMKilled" or c.reason == "OOMKilled":
                lim = c.limits.get("memory", "?")
                shift.facts.append(f"{name}: last state OOMKilled exit={c.exit_code} limit={lim}")
                shift.data.setdefault("oom", {})[name] = (c.name, lim, c.requests.get("memory"))
        for ev in view.events:
            if "Warning" in ev.split()[:1]:
                _event_fact(shift, name, ev)
    await _logs(shift, ns, name)
    if any(c.restarts for v in views for c in v.containers):
        await _logs(shift, ns, name, previous=True)
    if name in shift.data.get("bare", {}):
        pod = shift.data["bare"][name][0]
        await shift.k(
            f"get pod {pod} -n {ns} -o jsonpath={{.metadata.ownerReferences}}", "owned by anything?"
        )
        shift.facts.append(f"{pod}: bare pod, no controller")
        return
    hist = await shift.k(f"rollout history deploy/{name} -n {ns}", "recent rollouts?")
    revs = [ln.split()[0] for ln in hist.splitlines() if ln[:1].isdigit()]
    shift.data.setdefault("revisions", {})[name] = revs
    if len(revs) > 1:
        await _rollout_diff(shift, ns, name, revs)


def _event_fact(shift: Shift, name: str, event: str) -> None:
    cols = re.split(r"\s{2,}", event.strip())
    msg = cols[-1] if len(cols) >= 5 else event
    m = re.search(r"couldn't find key (\S+) in ConfigMap (\S+)", msg)
    if m:
        cm = m.group(2).split("/")[-1]
        shift.data.setdefault("missing_keys", set()).add((m.group(1), cm))
    if "insufficient" in msg.lower():
        shift.data["unschedulable"] = msg
    fact = f"{name}: event {msg[:140]}"
    if fact not in shift.facts:
        shift.facts.append(fact)


async def _logs(
    shift: Shift, ns: str, name: str, previous: bool = False, container: str = ""
) -> None:
    if not shift.has("logs_query"):
        return
    args: dict[str, object] = {"namespace": ns, "deployment": name, "tail": 200}
    label = f"logs {name}"
    if previous:
        args["previous"] = True
        label += " --previous"
    if container:
        args["container"] = container
        label += f" -c {container}"
    why = "what the crashed run said" if previous else "what it says now"
    text = await shift.q("logs_query", label, why, **args)
    _log_facts(shift, name, container, text)


def _log_facts(shift: Shift, name: str, container: str, text: str) -> None:
    lines = log_lines(text)
    patterns = signal_patterns(lines)
    noise = len(lines) - sum(n for _, _, n in patterns)
    store = shift.data.setdefault("logs", {})
    for level, msg, n in patterns[:4]:
        key = (name, container, msg[:160])
        if key in store:
            continue
        store[key] = (level, n)
        where = f"{name}/{container}" if container else name
        shift.facts.append(f"{where}: {level} x{n} '{msg[:150]}'")
    if patterns and noise > 0:
        shift.data.setdefault("noise", {})[name] = (noise, len(lines))


async def _rollout_diff(shift: Shift, ns: str, name: str, revs: list[str]) -> None:
    """Old and new ReplicaSet of the deployment: images and when the new one came up."""
    rows = table(await shift.k(f"get rs -n {ns} -l app={name} -o wide", "old vs new rs, when"))
    rows = [r for r in rows if r.get("name", "").startswith(name + "-")]
    live = [r for r in rows if r.get("desired", "0") != "0"]
    old = [r for r in rows if r.get("desired", "0") == "0"]
    if not live or not old:
        return
    new_rs, old_rs = live[0], min(old, key=lambda r: age_minutes(r.get("age", "")) or 0)
    shift.data.setdefault("rollout", {})[name] = (
        revs[-2],
        old_rs.get("images", "?"),
        revs[-1],
        new_rs.get("images", "?"),
    )
    shift.data.setdefault("deploy_age", {})[name] = new_rs.get("age", "?")
