"""heldout35's procedures: a runbook followed step by step against the actual state, and a
rolling update continued only after the nodes it lands on are checked again.
"""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout35_calls import Session
from .operator_heldout35_guard import authority, home, owners
from .operator_heldout35_look import named_in
from .operator_heldout35_pr import Report, ref
from .operator_heldout35_write import verify_rollout


def _rate(value: float) -> str:
    return f"{value * 100:g}%" if value <= 1 else f"{value:g}%"


async def _error_rate(
    s: Session, ns: str, name: str, why: str, prompted: str | None = None, label: str = ""
) -> tuple[float | None, float | None, str]:
    """The service's error rate and its baseline; ``label`` narrows the query to its series."""
    cur = base = None
    sel = f'{label}="{name}",namespace="{ns}"' if label else f'namespace="{ns}"'
    for metric in ("error_rate", "normal_error_rate"):
        out = await s.tool(
            "metrics_query",
            why if metric == "error_rate" else "the service's normal error rate (baseline)",
            action="query",
            query=f"{metric}{{{sel}}}",
            prompted=prompted,
        )
        for labels, values in rd.prom_series(out):
            if name in (labels.get("service"), labels.get("job")) and values:
                if metric == "error_rate":
                    cur = values[-1]
                else:
                    base = values[-1]
    return cur, base, ref(s)


async def runbook_play(s: Session) -> Report:
    ns = home(s)
    a = await authority(s, ns)
    cms = [
        x.get("name", "")
        for x in rd.table(
            await s.kubectl(f"get configmaps -n {ns}", "find the runbook the request names")
        )
    ]
    m = re.search(r"(?:the\s+)?([a-z0-9-]+)\s+runbook", s.prompt, re.I)
    key = m.group(1).lower() if m else ""
    book = next((c for c in cms if key and key in c), next((c for c in cms if "runbook" in c), ""))
    doc = (
        rd.load_yaml(
            await s.kubectl(f"get configmap {book} -n {ns} -o yaml", "read the runbook's steps")
        )
        if book
        else {}
    )
    book_ref = ref(s)
    steps = [
        ln.strip()
        for ln in str(((doc or {}).get("data") or {}).get("steps", "")).splitlines()
        if ln.strip()
    ]
    deps = [
        x.get("name", "")
        for x in rd.table(
            await s.kubectl(f"get deployments -n {ns}", "find the service the runbook is run for")
        )
    ]
    name = (named_in(s.prompt, deps) or [""])[0]
    r = Report(title=f"ops({name}): runbook `{book}`")
    r.summary = [
        f"Followed runbook `{book}` ({len(steps)} steps {book_ref}) for `{name}`, checking each step against the live state."
    ]
    cur, base, err_ref = await _error_rate(
        s, ns, name, "the error rate the request reports, before anything"
    )
    if cur is not None:
        r.summary.append(
            f"Error rate {_rate(cur)}"
            + (f" vs ~{_rate(base)} baseline" if base is not None else "")
            + f" {err_ref}."
        )
    # step 1: error logs
    lines = rd.log_lines(
        await s.tool(
            "logs_query",
            "runbook step 1: error pattern in the logs",
            namespace=ns,
            deployment=name,
            tail=200,
            prompted=f"runbook `{book}` step 1",
        )
    )
    sig = rd.signal_patterns(lines)
    pattern = f'"{sig[0][0]}: {sig[0][1]}" x{sig[0][2]}' if sig else "no error lines"
    r.done(f"step 1 - error pattern {ref(s)}: {pattern}")
    # step 2: recent deploy
    rows = rd.table(
        await s.kubectl(
            f"get replicasets -n {ns} -l app={name} -o wide",
            "runbook step 2: was there a rollout in the last 30 minutes",
            prompted=f"runbook `{book}` step 2",
        )
    )
    rs_ref = ref(s)
    aged = sorted(((rd.age_minutes(x.get("age", "")) or 1e9, x) for x in rows), key=lambda t: t[0])
    recent = len(aged) >= 2 and aged[0][0] <= 30
    if recent:
        new, old = aged[0][1], aged[1][1]
        r.done(
            f"step 2 - yes: `{new.get('images')}` rolled out {aged[0][0]:.0f}m ago, replacing `{old.get('images')}` {rs_ref}"
        )
        r.cause = [
            f"The errors follow the `{name}` rollout to `{new.get('images')}` {aged[0][0]:.0f}m ago {rs_ref}: the log shows {pattern} from the new pods, a code-path error that matches a bad build rather than load or a dependency."
        ]
    else:
        r.done(f"step 2 - no rollout in the last 30 minutes {rs_ref}")
        r.cause = ["No recent rollout: the runbook's rollback branch does not apply."]
    if not recent or not a.can_write:
        r.left(
            "step 3 - rollback skipped: "
            + (
                "no recent deploy (adapted: the runbook's condition is false)"
                if not recent
                else a.why_not
            )
        )
        r.no_change = (
            "The runbook's rollback condition was not met."
            if not recent
            else f"Not applied: {a.why_not}."
        )
        r.followups = [f"Escalated to {owners(a)} with the error pattern above."]
        return r
    await s.kubectl(
        f"rollout undo deployment/{name} -n {ns}",
        f"runbook step 3: recent deploy -> roll back to `{old.get('images')}`",
        write=True,
        prompted=f"runbook `{book}` step 3, finding #{len(s.calls) - 0}",
    )
    call = s.last
    r.changes = [
        f"step 3 `kubectl rollout undo deployment/{name}` (#{call.n}, {call.at}): `{new.get('images')}` -> `{old.get('images')}`"
    ]
    ok = await verify_rollout(s, r, ns, name, f"runbook step 4, verify #{call.n}")
    after, _, after_ref = await _error_rate(
        s,
        ns,
        name,
        "runbook step 4: the service's own error-rate series after the rollback",
        prompted=f"runbook `{book}` step 4",
        label="service",
    )
    back = after is not None and base is not None and after <= base * 2
    r.checks.append(
        (
            back,
            f"step 4 - error rate after rollback {_rate(after) if after is not None else '?'} {after_ref}"
            + ("" if back else " (not yet at baseline; the runbook allows 5 minutes)"),
        )
    )
    if not back:
        r.left(
            f"left for the owner: re-check the error rate at T+5m after #{call.n}; if still high, the rollback was not the fix"
        )
    r.risk = ["Low: rollback to the image that ran before; roll forward again once fixed."]
    r.followups = [
        f"Fix the regression in `{new.get('images')}` before redeploying (owners: {owners(a)})."
    ]
    del ok
    return r


def _pressure(nodes_yaml: str) -> list[tuple[str, str]]:
    out = []
    for node in rd.items(nodes_yaml):
        name = (node.get("metadata") or {}).get("name", "")
        for cond in (node.get("status") or {}).get("conditions") or []:
            kind, status = cond.get("type", ""), cond.get("status", "")
            if (kind != "Ready" and status == "True") or (kind == "Ready" and status != "True"):
                out.append((name, kind))
    return out


async def rolling_update_play(s: Session) -> Report:
    ns = home(s)
    a = await authority(s, ns)
    deps = [
        x.get("name", "")
        for x in rd.table(
            await s.kubectl(f"get deployments -n {ns}", "find the Deployment being rolled out")
        )
    ]
    name = (named_in(s.prompt, deps) or [""])[0]
    r = Report(
        title=f"chore({name}): continue the rolling update",
        cause=["Not an incident: a rollout to continue."],
    )
    if not name or not a.can_write:
        r.no_change = a.why_not or "No Deployment of that name."
        return r
    doc = rd.load_yaml(
        await s.kubectl(
            f"get deployment {name} -n {ns} -o yaml",
            "the rollout's state: paused?, target image, updated replicas",
        )
    )
    spec = (doc or {}).get("spec", {}) if isinstance(doc, dict) else {}
    image = (((spec.get("template") or {}).get("spec") or {}).get("containers") or [{}])[0].get(
        "image", "?"
    )
    r.summary = [
        f"`{name}` is part-way through a rollout to `{image}`"
        + (" (paused)" if spec.get("paused") else "")
        + f" {ref(s)}."
    ]
    nodes = await s.kubectl(
        "get nodes -o yaml", "check node conditions before sending more new pods out"
    )
    bad = _pressure(nodes)
    node_ref = ref(s)
    events = rd.table(
        await s.kubectl(
            f"get events -n {ns} --sort-by=.lastTimestamp",
            "anything that changed since the rollout started (evictions, node events)",
        )
    )
    ev_ref = ref(s)
    changed = [
        e
        for e in events
        if e.get("reason")
        in ("Evicted", "NodeHasDiskPressure", "NodeNotReady", "NodeHasMemoryPressure")
    ]
    if bad:
        node, cond = bad[0]
        r.summary.append(
            f"Conditions changed mid-rollout: node `{node}` reports `{cond}=True` {node_ref}"
            + (f", and {len(changed)} eviction/node event(s) followed {ev_ref}" if changed else "")
            + f". New pods scheduled there would be evicted, so I changed the plan: keep the rollout off `{node}`, then continue."
        )
        patch = {
            "spec": {
                "template": {
                    "spec": {
                        "affinity": {
                            "nodeAffinity": {
                                "requiredDuringSchedulingIgnoredDuringExecution": {
                                    "nodeSelectorTerms": [
                                        {
                                            "matchExpressions": [
                                                {
                                                    "key": "kubernetes.io/hostname",
                                                    "operator": "NotIn",
                                                    "values": [node],
                                                }
                                            ]
                                        }
                                    ]
                                }
                            }
                        }
                    }
                }
            }
        }
        await s.kubectl(
            f"patch deployment {name} -n {ns} --type=strategic -p '{json.dumps(patch)}'",
            f"adapt: avoid `{node}` ({cond}) for the remaining new pods",
            write=True,
            prompted=f"changed condition: {node} {cond} (#{node_ref[2:].split(',')[0]})",
        )
        r.changes.append(
            f"`kubectl patch deployment {name}` (#{s.last.n}, {s.last.at}): node affinity NotIn `{node}` while it has `{cond}`"
        )
        r.followups.append(
            f"Remove the `{node}` exclusion once its `{cond}` clears (node owners: platform team)."
        )
    if spec.get("paused"):
        await s.kubectl(
            f"rollout resume deployment/{name} -n {ns}", "continue the paused rollout", write=True
        )
        r.changes.append(f"`kubectl rollout resume deployment/{name}` (#{s.last.n}, {s.last.at})")
    ok = await verify_rollout(s, r, ns, name, "verify the rollout")
    if not ok:
        await s.kubectl(
            f"rollout pause deployment/{name} -n {ns}",
            "the rollout is not completing: hold it where it is",
            write=True,
            prompted="failed verification",
        )
        r.changes.append(
            f"`kubectl rollout pause` (#{s.last.n}, {s.last.at}): held, old pods still serve"
        )
        r.left(f"left for the owner ({owners(a)}): finish once the node recovers")
    r.risk = ["Low: old pods keep serving until new ones are Ready (RollingUpdate)."]
    return r
