"""heldout43's response to a diagnosed cause: act narrowly when asked and allowed, read it
back and verify; otherwise recommend, and escalate with the owner and the numbers."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from . import operator_heldout43_look as lk
from . import operator_heldout43_obs as obs
from . import operator_read as rd

if TYPE_CHECKING:
    from .operator_heldout43 import Op
    from .operator_heldout43_diag import Cause


def blocked(op: Op) -> str:
    """Why a write is not mine to make here ('' when it is)."""
    if op.read_only():
        return f"zone {', '.join(op.scope.get('zones') or [])} is read-only"
    if op.needs_approval():
        return f"scope requires approval for: {'; '.join(op.needs_approval())}"
    if op.task.mode not in ("autonomous", ""):
        return f"mode is {op.task.mode}: changes need a human OK"
    return ""


async def poc(op: Op, name: str) -> str:
    owners, contacts, ref = await obs.owner(op, name)
    who = owners[0].split("=", 1)[1] if owners else f"{name} owners"
    how = ", ".join(c.split(": ", 1)[1] for c in contacts) or "their on-call"
    return f"POC {who} ({how}) {op.r(ref)}"


async def verify(op: Op, look: lk.Look) -> tuple[bool, int]:
    if look.kind == "deployment":
        await op.k(
            f"rollout status deployment/{look.name} -n {look.ns} --timeout=60s",
            f"wait for {look.name} rollout",
        )
    out = await op.k(
        f"get pods -n {look.ns} -l app={look.name}", f"verify {look.name} pods after change"
    )
    rows = rd.table(out)
    ok = bool(rows) and all(
        r.get("status") == "Running"
        and r.get("ready", "0/1").split("/")[0] == r.get("ready", "0/1").split("/")[-1]
        for r in rows
    )
    return ok, op.n


async def uncertain(op: Op, look: lk.Look, cause: Cause | None) -> None:
    rep = op.rep
    who = await poc(op, look.name)
    nums = [s for s in rep.situation if "=" in s or "log:" in s]
    rep.bluf = (
        f"{look.name}: symptom confirmed, root cause NOT confirmed (low confidence); "
        "no change made, escalating w/ data."
    )
    rep.assessment.append("Confidence LOW: no single cause stands; reads show symptoms only.")
    ruled = []
    if not look.oom:
        ruled.append(f"OOM (no exit 137) {op.r(look.ref_desc)}")
    if not look.missing_keys:
        ruled.append(f"missing config (env refs resolve) {op.r(look.ref_desc)}")
    if not look.recent_rs:
        ruled.append(f"recent deploy (no new RS) {op.r(look.ref_rs)}")
    if ruled:
        rep.assessment.append("RULED OUT: " + "; ".join(ruled) + ".")
    words = " ".join(m for _, m, _ in look.logs + look.prev_logs).lower()
    if "upstream" in words or "reset" in words:
        rep.assessment.append(
            "Open hypotheses (unverified): upstream/LB resetting conns, "
            "keep-alive timeout mismatch. Need upstream-side logs to tell."
        )
    rep.not_done.append("No restart/scale/config change: would be a guess; could mask the signal.")
    rep.requests.append(
        f"Escalate to {who} w/ numbers: " + ("; ".join(nums[:4]) or "see SITUATION") + "."
    )
    rep.recs.append(
        "Owner to pull the caller/upstream side logs for the error window; then decide fix."
    )


async def act_on(op: Op, look: lk.Look, cause: Cause, fix_asked: bool) -> None:
    from . import operator_heldout43_fix2 as f2
    from . import operator_heldout43_fix3 as f3

    handler = {
        "config": f2.missing_key,
        "init": f2.init_fail,
        "oom": f2.oom,
        "sched": f2.unschedulable,
        "pool": f2.pool,
        "tls": f2.tls,
        "schema": f2.schema,
        "deploy": f2.bad_deploy,
        "netpol": f2.netpol,
        "transient": f3.transient,
        "trend": f3.trend,
        "connlimit": f3.conn_limit,
    }.get(cause.kind)
    if handler is None:
        op.rep.bluf = f"{look.name}: {cause.text}."
        return
    await handler(op, look, cause, fix_asked)


def patch_json(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"))


def quote(s: str) -> str:
    return "'" + s.replace("'", "") + "'"


def num(text: str) -> int | None:
    m = re.search(r"\d+", text)
    return int(m.group(0)) if m else None
