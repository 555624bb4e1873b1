"""``heldout19``'s read-outs that need more than one source (written blind): dashboard panels
in priority order, memory headroom against the limit, a health line per workload, the rows a
migration rollback would lose."""

from __future__ import annotations

import re
from typing import Any

from .operator_heldout19 import Shift
from .operator_read import quantity

_RANK = {"critical": 0, "firing": 0, "error": 0, "elevated": 1, "warning": 1, "warn": 1}


def dashboard_lines(shift: Shift) -> None:
    """Every panel read; the abnormal ones first, worst first, the rest on one line."""
    for uid, board in sorted(shift.data.get("boards", {}).items()):
        dash = board.get("dashboard", board) if isinstance(board, dict) else {}
        panels = (
            [p for p in dash.get("panels", []) if isinstance(p, dict)]
            if isinstance(dash, dict)
            else []
        )
        bad: list[tuple[int, str]] = []
        ok: list[str] = []
        for p in panels:
            status = str(p.get("status", "")).lower()
            value = p.get("current_value", "?")
            extra = "".join(
                f" {k}={p[k]}"
                for k in ("threshold", "normal_baseline")
                if p.get(k) not in (None, "")
            )
            if status and status not in ("normal", "ok"):
                bad.append((_RANK.get(status, 1), f"{p.get('title')}={value} ({status}{extra})"))
            else:
                ok.append(f"{p.get('title')}={value}")
        for i, (_, line) in enumerate(sorted(bad)):
            shift.causes.append(f"p{i + 1}: {line}")
        if ok:
            shift.facts.append(f"board {uid}: ok: {', '.join(ok)}")
        if bad:
            shift.notes.append(
                f"verdict: {len(bad)}/{len(panels)} panels need attention; worst first above, rest normal"
            )


def memory_headroom(shift: Shift) -> None:
    """Rising memory against the container limit: how long until OOM at the current rate."""
    for name, series in sorted(shift.data.get("series", {}).items()):
        mem = next((v for k, v in sorted(series.items()) if "memory" in k and len(v) > 2), None)
        if not mem or mem[-1] <= mem[0] * 1.2 or name in shift.data.get("oom", {}):
            continue
        limit = _limit(shift, name)
        if not limit:
            continue
        hours = 6.0
        rate = (mem[-1] - mem[0]) / hours
        left = (limit - mem[-1]) / rate if rate > 0 else float("inf")
        pct = 100 * mem[-1] / limit
        urgency = "urgent" if left < 4 else "soon" if left < 24 else "watch"
        shift.causes.append(
            f"{name}: mem {_gi(mem[0])} -> {_gi(mem[-1])} in 6h, steady climb (leak-like), {pct:.0f}% of limit "
            f"{_gi(limit)}; at ~{_gi(rate)}/h -> OOMKill in ~{left:.1f}h. risk=high, {urgency}"
        )
        shift.data["oom_risk"] = name


def _limit(shift: Shift, name: str) -> float | None:
    for v in shift.data.get("views", {}).get(name, []):
        for c in v.containers:
            if not c.init and c.limits.get("memory"):
                return quantity(c.limits["memory"])
    return None


def _gi(v: float) -> str:
    return f"{v / 1024**3:.2f}Gi" if v >= 1024**3 else f"{v / 1024**2:.0f}Mi"


def health_lines(shift: Shift) -> None:
    """One line per focus workload: ready, restarts, what the numbers say."""
    for name in shift.data.get("focus", []):
        row: dict[str, Any] = shift.data.get("deploys", {}).get(name, {})
        restarts = sum(
            c.restarts for v in shift.data.get("views", {}).get(name, []) for c in v.containers
        )
        nums = shift.data.get("series", {}).get(name, {})
        shown = " ".join(f"{k}={_num(v[-1])}" for k, v in sorted(nums.items()) if v)
        shift.notes.append(
            f"health {name}: ready={row.get('ready', '?')} restarts={restarts}"
            + (f" {shown}" if shown else "")
        )


def _num(v: float) -> str:
    return _gi(v) if v >= 1024**2 else f"{v:g}"


async def rows_since(shift: Shift, text: str) -> tuple[str, str, str]:
    """(version, description, installed-on) of the last migration and rows written since."""
    rows = [
        [c.strip() for c in ln.strip().strip("|").split("|")]
        for ln in text.splitlines()
        if ln.strip().startswith("|") and re.search(r"\|\s*\d+\s*\|", ln)
    ]
    if not rows:
        return "", "", ""
    last = rows[-1]
    version, desc, when = last[1], last[2], last[4] if len(last) > 4 else ""
    svc = next(iter(shift.data.get("focus", [])), "")
    table_guess = svc.split("-")[0] + "s" if svc else ""
    count = ""
    if table_guess and when:
        out = await shift.q(
            "database",
            f"db: select count(*) from {table_guess} where created_at > '{when}'",
            "rows written since the migration (what a rollback could lose)",
            query=f"select count(*) from {table_guess} where created_at > '{when}'",
        )
        m = re.search(r"^\s*(\d+)\s*$", out, re.M)
        count = m.group(1) if m else ""
        if count:
            shift.facts.append(f"db: {count} {table_guess} rows written since {version} ({when})")
    return version, desc, count
