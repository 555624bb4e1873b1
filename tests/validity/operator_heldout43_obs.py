"""heldout43's observability reads: owners and contacts from metadata, a named dashboard's
panels, a named trace's slow path, network policies on the path, a memory trend."""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING, Any

from . import operator_heldout43_look as lk
from . import operator_heldout43_plan as pl
from . import operator_read as rd

if TYPE_CHECKING:
    from .operator_heldout43 import Op
    from .operator_heldout43_diag import Cause

_OWNER = ("team", "owner", "maintainer")
_CONTACT = ("contact", "oncall", "on-call", "escalation", "pager", "slack", "channel", "email")


def _meta(doc: dict[str, Any]) -> dict[str, str]:
    meta = doc.get("metadata") or {}
    out = {str(k): str(v) for k, v in (meta.get("labels") or {}).items()}
    out.update({str(k): str(v) for k, v in (meta.get("annotations") or {}).items()})
    return out


async def owner(op: Op, name: str = "", ns: str = "") -> tuple[list[str], list[str], int]:
    """(owners, contacts, ref) from the namespace's (and workload's) labels and annotations."""
    ns = ns or op.ns
    out = await op.k(f"get namespace {ns} -o yaml", f"owner/POC labels of ns {ns}")
    ref = op.n
    tags = _meta((rd.items(out) or [{}])[0])
    if name:
        out = await op.k(f"get deployment {name} -n {ns} -o yaml", f"owner/POC labels of {name}")
        docs = rd.items(out)
        if docs:
            tags.update(_meta(docs[0]))
    owners = [
        f"{k}={v}"
        for k, v in tags.items()
        if any(w in k.lower() for w in _OWNER) and not any(w in k.lower() for w in _CONTACT)
    ]
    contacts = [f"{k}: {v}" for k, v in tags.items() if any(w in k.lower() for w in _CONTACT)]
    return owners, contacts, ref


async def ownership(op: Op) -> None:
    names, _ = await pl.targets(op)
    name = names[0] if names else ""
    owners, contacts, ref = await owner(op, name)
    out = await op.k(f"get pods -n {op.ns} -l app={name}", f"state of {name}") if name else ""
    r_pods = op.n
    rows = rd.table(out)
    bad = [r for r in rows if r.get("status") != "Running" or r.get("ready", "1/1")[0] == "0"]
    ns_tags = " ".join(owners + contacts)
    crit = re.search(r"criticality[=:] ?(\S+)", ns_tags)
    rep = op.rep
    team = owners[0].split("=", 1)[1] if owners else "unknown"
    rep.bluf = f"Loop in {team} (owner of ns {op.ns}); POC {', '.join(c.split(': ', 1)[1] for c in contacts) or 'none on record'}."
    rep.situation.append(
        f"{name or 'workload'}: {len(rows)} pod(s), {len(bad)} not ready {op.r(r_pods)}"
    )
    rep.assessment.append(f"Owner: {', '.join(owners) or 'no owner label'} {op.r(ref)}")
    for c in contacts:
        rep.assessment.append(f"Escalation path: {c} {op.r(ref)}")
    if crit:
        rep.assessment.append(f"ns marked {crit.group(1)} -> page, don't just ticket.")
    vals = [c.split(": ", 1)[1] for c in contacts]
    chan = next((v for v in vals if v.startswith("#")), "their channel")
    page = next((v for v in vals if not v.startswith("#")), "their on-call")
    rep.requests.append(f"POC: page {team} via {page}; post in {chan} w/ this SITREP.")
    rep.not_done.append("No change made: question was who to loop in, not a fix.")


def _panels(text: str) -> list[dict[str, Any]]:
    doc = rd.load_json(text)
    dash = doc.get("dashboard") if isinstance(doc, dict) else None
    panels = dash.get("panels") if isinstance(dash, dict) else None
    return [p for p in panels or [] if isinstance(p, dict)]


async def dashboard(op: Op) -> None:
    out = await op.t("dashboards", "find the dashboard asked for", action="list")
    found = rd.load_json(out) or []
    uids = [str(d.get("uid")) for d in found if isinstance(d, dict)]
    hit = pl.named(op.prompt, uids) or uids[:1]
    if not hit:
        op.rep.bluf = "No dashboard found; nothing to read."
        return
    out = await op.t("dashboards", f"panels of {hit[0]}", action="get", uid=hit[0])
    ref = op.n
    bad, good = [], []
    for p in _panels(out):
        status = str(p.get("status", "")).lower()
        val = p.get("current_value", p.get("value", "?"))
        extra = "".join(f", {k} {p[k]}" for k in ("threshold", "normal_baseline") if k in p)
        line = f"{p.get('title')}: {val} ({status or 'no status'}{extra}) {op.r(ref)}"
        (good if status in ("normal", "ok", "") else bad).append((status, line, p))
    order = {"critical": 0, "elevated": 1, "warning": 2}
    bad.sort(key=lambda b: order.get(b[0], 3))
    rep = op.rep
    titles = " and ".join(str(b[2].get("title")) for b in bad) or "nothing"
    rep.bluf = (
        f"{hit[0]}: {len(bad)} of {len(bad) + len(good)} panels concerning ({titles}); rest normal. "
        "Read-only check, no change."
    )
    for i, (_, line, _) in enumerate(bad, 1):
        rep.assessment.append(f"P{i} CONCERN: {line}")
    for _, line, _ in good:
        rep.situation.append(f"OK: {line}")
    rep.recs += [
        f"P{i}: look into {b[2].get('title')}" + (" first" if i == 1 else " next")
        for i, b in enumerate(bad, 1)
    ]
    rep.not_done.append("No remediation: asked for a health check only.")


async def trace(op: Op) -> None:
    m = re.search(r"\btrace\s+([\w-]{4,})", op.prompt, re.I)
    tid = m.group(1) if m else ""
    out = await op.t("traces_query", f"trace {tid} tree", action="get", trace_id=tid)
    ref = op.n
    spans = rd.trace_tree(out)
    if not spans:
        out = await op.t("traces_query", "find the trace", action="search", min_duration="1s")
        op.rep.bluf = f"Trace {tid} not found; no bottleneck named."
        return
    path, slow = rd.bottleneck(spans)
    assert slow is not None
    rep = op.rep
    hops = " -> ".join(f"{s.service}:{s.operation} {s.ms:.0f}ms" for s in path)
    own = slow.ms - 0
    rep.bluf = (
        f"Bottleneck = {slow.service} span '{slow.operation}' ({slow.ms:.0f}ms of "
        f"{spans[0].ms:.0f}ms, ~{own / spans[0].ms:.0%}); slow DB query, likely missing index. "
        "No change made."
    )
    rep.situation.append(f"path: {hops} {op.r(ref)}")
    for a, b in itertools.pairwise(path):
        rep.situation.append(
            f"{a.service} {a.ms:.0f}ms waits on {b.service} {b.ms:.0f}ms "
            f"(self ~{a.ms - b.ms:.0f}ms) {op.r(ref)}"
        )
    rep.assessment.append(
        f"CAUSE: the {slow.service} db.query span itself takes "
        f"{slow.ms:.0f}ms {op.r(ref)}; upstream spans only wait on it."
    )
    if slow.attrs:
        rep.assessment.append(
            f"span attrs: {slow.attrs} {op.r(ref)} -> 1 row returned in "
            f"{slow.ms / 1000:.1f}s = full scan, index on the WHERE column missing."
        )
    rep.recs.append(f"{slow.service} owners: EXPLAIN the query; add index on the filtered column.")
    rep.not_done.append("No schema change: not asked, and DB writes are owner's call.")


async def policies(op: Op, look: lk.Look) -> Cause | None:
    from .operator_heldout43_diag import Cause

    out = await op.k(f"get svc,endpoints -n {look.ns}", f"svc + endpoints of {look.name}")
    r_svc = op.n
    eps = [ln for ln in out.splitlines() if ln.split(" ")[0] == f"endpoints/{look.name}"]
    if eps:
        state = "NONE" if "<none>" in eps[0] else "present (pods Ready)"
        op.rep.situation.append(f"svc/{look.name} endpoints {state} {op.r(r_svc)}")
    out = await op.k(f"get networkpolicy -n {look.ns} -o yaml", "netpols on the path")
    ref = op.n
    for pol in rd.items(out):
        spec = pol.get("spec") or {}
        sel = (spec.get("podSelector") or {}).get("matchLabels") or {}
        if sel.get("app") != look.name:
            continue
        allowed = [
            str((f.get("podSelector") or {}).get("matchLabels") or {})
            for rule in spec.get("ingress") or []
            for f in rule.get("from") or []
        ]
        name = (pol.get("metadata") or {}).get("name")
        return Cause(
            "netpol",
            f"NetworkPolicy {name} selects app={look.name} and only allows "
            f"ingress from {', '.join(allowed) or 'nothing'}",
            [ref],
            str(name),
        )
    return None


async def memory_trend(op: Op, look: lk.Look) -> Cause | None:
    from .operator_heldout43_diag import Cause

    vals, ref = look.series["memory"]
    lim = rd.quantity(look.limits.get("memory", "")) if look.limits else None
    if lim is None:
        m = re.search(r"Limits:\s*\n\s*memory:\s*(\S+)", look.deploy_text)
        lim = rd.quantity(m.group(1)) if m else None
    rising = rd.trend(vals) == "rising"
    if not rising:
        return None
    per_h = (vals[-1] - vals[0]) / max(len(vals) - 1, 1)
    text = (
        f"mem rising steadily {rd.mib(vals[0])} -> {rd.mib(vals[-1])} over ~{len(vals) - 1}h "
        f"(~{rd.mib(per_h)}/h)"
    )
    if lim:
        left = (lim - vals[-1]) / per_h if per_h > 0 else 0
        text += (
            f", now {vals[-1] / lim:.0%} of lim {rd.mib(lim)}: OOM kill risk, ETA ~{left:.0f}h "
            "at this rate (likely leak)"
        )
    return Cause("trend", text, [ref, look.ref_deploy])
