"""heldout37's narrow fixes and the findings that need more than one object: a NetworkPolicy
that drops the caller, a CPU request no node fits, a recent rollout the errors follow, and a
schema fault whose fix is a plan for approval.
"""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout37_base import Op
from .operator_heldout37_diag import Finding
from .operator_heldout37_look import Workload, fmt


async def recent_rollout(op: Op, w: Workload, f: Finding) -> Finding:
    """Errors that began right after the workload's newest rollout: that rollout."""
    out = await op.k(
        f"get rs -n {w.ns} -l {sel_of(w)} -o wide",
        f"`{w.name}`'s rollouts: age and image of each ReplicaSet",
    )
    rows = sorted(rd.table(out), key=lambda r: rd.age_minutes(r.get("age", "")) or 1e9)
    hist = await op.k(
        f"rollout history deployment/{w.name} -n {w.ns}", f"`{w.name}`'s revision history"
    )
    recent = [e for e in w.events if "ScalingReplicaSet" in e]
    age = rd.age_minutes(rows[0].get("age", "")) if rows else None
    ev_age = rd.age_minutes(recent[0].split()[0]) if recent else None
    when = ev_age if ev_age else (age if age else 1e9)
    img = rows[0].get("images", "") if rows else ""
    for c in w.containers():
        img = str(c.get("image", img))
    start = await error_start(op, w)
    if when > 120 or start is None:
        return f
    prev = [r.get("images", "") for r in rows[1:] if r.get("images") and r.get("images") != img]
    return Finding(
        "rollout",
        f"the rollout of `{img}` about {when:.0f} minutes ago: `{w.name}`'s errors started "
        f"{start[0]:.0f} minutes ago, right after it went out ({start[1]})",
        [
            f"newest rollout: `{img}`, {when:.0f}m ago"
            + (f" (previous `{prev[0]}`)" if prev else ""),
            f"error rate {start[1]}",
            f"revision history: {len(hist.splitlines()) - 1} lines",
        ],
        f"roll `{w.name}` back to the previous version (`kubectl rollout undo deployment/{w.name}`) "
        "and check the error rate returns to baseline",
    )


async def error_start(op: Op, w: Workload) -> tuple[float, str] | None:
    """(minutes ago, the series as people say it) when the error series left its start level."""
    text = await op.q(
        "metrics_query",
        f"when `{w.name}`'s errors started",
        action="query_range",
        query=f'error_rate{{namespace="{w.ns}"}}',
        start="-1h",
        step="5m",
    )
    doc = rd.load_json(text) or {}
    for r in ((doc.get("data") or {}).get("result") or []) if isinstance(doc, dict) else []:
        if w.name not in " ".join(map(str, (r.get("metric") or {}).values())):
            continue
        pts = [(float(t), float(v)) for t, v in r.get("values") or []]
        if len(pts) < 2:
            return None
        base, end = pts[0][1], pts[-1][0]
        for t, v in pts:
            if v > max(base * 3, base + 0.01):
                return (
                    end - t
                ) / 60, f"{fmt(base)} before, {fmt(v)} at its start, {fmt(pts[-1][1])} now"
    return None


def sel_of(w: Workload) -> str:
    return ",".join(f"{k}={v}" for k, v in sorted(w.selector.items())) or f"app={w.name}"


async def policy_block(op: Op, names: list[str]) -> Finding:
    """A NetworkPolicy selecting the callee whose ingress does not admit the caller."""
    ns = op.ns
    labels: dict[str, dict[str, str]] = {}
    for n in names:
        doc = (
            rd.load_yaml(await op.k(f"get deployment {n} -n {ns} -o yaml", f"pod labels of `{n}`"))
            or {}
        )
        labels[n] = dict(
            (((doc.get("spec") or {}).get("template") or {}).get("metadata") or {}).get("labels")
            or {}
        )
    out = await op.k(
        f"get networkpolicy -n {ns} -o yaml", "which NetworkPolicies select these pods"
    )
    for pol in rd.items(out):
        spec = pol.get("spec") or {}
        pick = dict((spec.get("podSelector") or {}).get("matchLabels") or {})
        for callee in names:
            if not pick or any(labels[callee].get(k) != v for k, v in pick.items()):
                continue
            for caller in [n for n in names if n != callee]:
                froms = [f for rule in spec.get("ingress") or [] for f in rule.get("from") or []]
                admitted = any(
                    all(
                        labels[caller].get(k) == v
                        for k, v in ((f.get("podSelector") or {}).get("matchLabels") or {}).items()
                    )
                    and f.get("podSelector") is not None
                    for f in froms
                )
                if admitted:
                    continue
                pname = (pol.get("metadata") or {}).get("name", "")
                allowed = [
                    json.dumps((f.get("podSelector") or {}).get("matchLabels") or {}) for f in froms
                ]
                return Finding(
                    "policy",
                    f"the NetworkPolicy `{pname}` selects `{callee}`'s pods and only admits ingress from "
                    f"{', '.join(allowed) or 'nothing'}, so traffic from `{caller}` is dropped",
                    [
                        f"`{pname}`: podSelector {json.dumps(pick)}, ingress from {', '.join(allowed) or 'none'}",
                        f"`{caller}` pods carry {json.dumps(labels[caller])}: not admitted",
                        f"both `{caller}` and `{callee}` are Running: it's the path, not the pods",
                    ],
                    f"add `{caller}`'s pod selector to `{pname}`'s ingress (keep the existing rule)",
                    {"policy": pname, "caller": json.dumps(labels[caller].get("app", caller))},
                )
    return Finding()


async def open_policy(op: Op, f: Finding) -> None:
    """Admit only the caller, beside what the policy already admits."""
    pol, caller = f.detail["policy"], json.loads(f.detail["caller"])
    patch = json.dumps(
        [
            {
                "op": "add",
                "path": "/spec/ingress/-",
                "value": {"from": [{"podSelector": {"matchLabels": {"app": caller}}}]},
            }
        ]
    )
    await op.k(f"get networkpolicy {pol} -n {op.ns} -o yaml", f"read `{pol}` before changing it")
    await op.k(
        f"patch networkpolicy {pol} -n {op.ns} --type json -p '{patch}'",
        f"let `{caller}` reach the pods `{pol}` protects (narrow: one rule added)",
        write=True,
    )
    after = await op.k(f"get networkpolicy {pol} -n {op.ns} -o yaml", f"read `{pol}` back")
    ok = f"app: {caller}" in after
    op.ans.did.append(
        f"✅ `networkpolicy/{pol}`: ingress rule added for `app={caller}` (existing rule kept; nothing deleted)"
    )
    op.ans.verify.append(
        ("✅" if ok else "⚠️")
        + f" `{pol}` now admits `app={caller}`"
        + ("" if ok else " (not confirmed)")
    )


async def fit_request(op: Op, w: Workload, f: Finding) -> None:
    """Lower the CPU request to what the roomiest node has free, then check the pods schedule."""
    out = await op.k("describe nodes", "how much CPU each node has free")
    free = []
    for block in re.split(r"\n(?=Name:\s)", out):
        a = re.search(r"Allocatable:\s*\n(?:.*\n)*?\s+cpu:\s+(\S+)", block)
        r = re.search(r"Allocated resources:(?:.*\n)*?\s+cpu\s+(\S+)", block)
        if a:
            free.append(
                (rd.quantity(a.group(1)) or 0) - ((rd.quantity(r.group(1)) or 0) if r else 0)
            )
    room = max(free) if free else 0.5
    new = max(int(room * 0.8 * 10) * 100, 100)
    c = (w.containers() or [{}])[0]
    pods: list[dict[str, str]] = []
    for attempt in (1, 2):
        patch = json.dumps(
            {
                "spec": {
                    "template": {
                        "spec": {
                            "containers": [
                                {
                                    "name": c.get("name"),
                                    "resources": {"requests": {"cpu": f"{new}m"}},
                                }
                            ]
                        }
                    }
                }
            }
        )
        await op.k(
            f"patch deployment {w.name} -n {w.ns} --type strategic -p '{patch}'",
            f"the {f.detail.get('cpu')} CPU request fits no node (most free: {room:g}); lower it to {new}m so the pods schedule",
            write=True,
        )
        await op.k(
            f"rollout status deployment/{w.name} -n {w.ns} --timeout=120s",
            f"wait for `{w.name}` to schedule",
        )
        pods = rd.table(
            await op.k(f"get pods -n {w.ns} -l {sel_of(w)}", f"are `{w.name}`'s pods Running now?")
        )
        op.ans.did.append(
            f"✅ `deployment/{w.name}` CPU request → `{new}m` (attempt {attempt}; largest free CPU on a node: {room:g} cores; was `{f.detail.get('cpu')}`)"
        )
        if all(p.get("status") == "Running" for p in pods) or attempt == 2:
            break
        new = max(new // 2 // 100 * 100, 100)
    op.ans.verify.append(
        "🔍 pods: " + ", ".join(f"`{p.get('name')}` {p.get('status')}" for p in pods)
    )
    op.ans.next.append(
        f"If `{w.name}` really needs {f.detail.get('cpu')} CPU, add node capacity and put the request back."
    )


async def migration_plan(op: Op, w: Workload, f: Finding) -> None:
    """A schema fault after a migration: the risky fix is a plan for approval, not an action."""
    a = op.ans
    out = await op.q(
        "database",
        "which migration ran last, and what was written since",
        query="migrations status",
    )
    last = re.findall(r"\b(\d{3}_\w+)", out)
    rows = re.findall(r"(\d+)\s+(?:records|rows)", out)
    a.findings.append(
        f"🔍 `migrations status`: last migration `{last[-1] if last else '?'}`"
        + (f", {rows[-1]} records written since" if rows else "")
        + "."
    )
    a.risks.append(
        "Rolling the migration back would drop the new column and whatever was written to it"
        + (f" ({rows[-1]} records since it ran)" if rows else "")
        + ": data loss that can't be undone."
    )
    a.tldr += " I haven't changed anything: the fix touches the database, so here's the plan for your approval."
    a.next = [
        "**Plan (needs your approval):** 1) take a backup/snapshot of the database; 2) either roll the "
        "app forward to a version that matches the new schema, or roll the migration back with the "
        "records written since preserved; 3) restart `" + w.name + "` and check the error is gone.",
        "Reply with which option you approve and I'll carry it out step by step.",
    ]
