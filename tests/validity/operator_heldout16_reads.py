"""``heldout16``'s read-only looks (issue 27, fairness): a named trace walked to the span
whose own time dominates, and a dashboard's panels read and ranked, abnormal ones first.
"""

from __future__ import annotations

import json
import re

from .operator_heldout16 import Shift


async def trace_play(shift: Shift, trace_id: str) -> None:
    """Walk the trace's span tree to the span whose own time dominates."""
    r = shift.report
    tree = await shift.use(
        "traces_query", f"open trace {trace_id}", action="get", trace_id=trace_id
    )
    spans = []
    for line in tree.splitlines()[1:]:
        m = re.match(r"([\s│└├─]*)([\w.-]+): (.+?)\s+(\d+)ms", line)
        if m:
            spans.append(
                (
                    len(m.group(1)),
                    m.group(2),
                    m.group(3),
                    int(m.group(4)),
                    line.split("]")[0].split("[")[-1] if "[" in line else "",
                )
            )
    r.title = f"trace {trace_id}"
    if not spans:
        r.status = "trace not found"
        return
    hops = " -> ".join(f"{s[1]} {s[2]} ({s[3]} ms)" for s in spans)
    own = [
        (s[3] - (spans[i + 1][3] if i + 1 < len(spans) and spans[i + 1][0] > s[0] else 0), s)
        for i, s in enumerate(spans)
    ]
    _gap, worst = max(own, key=lambda x: (x[0], -x[1][0]))
    r.evidence.append(f"Span path: {hops}.")
    r.cause.append(
        f'The bottleneck is the {worst[1]} span "{worst[2]}": {worst[3]} ms of the {spans[0][3]} ms total '
        f"({worst[3] / spans[0][3] * 100:.0f}%); each parent above it only waits on it. Attributes: {worst[4] or 'none'}."
    )
    if "db." in worst[2] or "select" in worst[2].lower():
        r.next_steps.append(
            f"Check the query plan of that statement (EXPLAIN); a lookup by one key taking {worst[3]} ms suggests a missing index."
        )
    r.status = "diagnosed"


async def dashboard_play(shift: Shift) -> None:
    """Read every panel of the named dashboard and rank the abnormal ones first."""
    r = shift.report
    listing = json.loads(await shift.use("dashboards", "find the dashboard", action="list") or "[]")
    uid = next(
        (d["uid"] for d in listing if d["uid"] in shift.low or d["title"].lower() in shift.low),
        listing[0]["uid"] if listing else "",
    )
    board = json.loads(
        await shift.use("dashboards", "read its panels", action="get", uid=uid) or "{}"
    )
    panels = (board.get("dashboard") or board).get("panels") or []
    r.title = f"dashboard {uid}"
    bad, good = [], []
    for p in panels:
        text = f"{p.get('title')}: {p.get('current_value', p.get('value', '?'))}"
        extra = {k: v for k, v in p.items() if k in ("status", "threshold", "normal_baseline")}
        (good if str(extra.get("status", "normal")) == "normal" else bad).append(
            text + (f" ({', '.join(f'{k} {v}' for k, v in extra.items())})" if extra else "")
        )
    r.cause = [
        f"Needs attention, worst first: {b}" for b in sorted(bad, key=lambda b: "critical" not in b)
    ]
    r.evidence = [f"Normal: {g}" for g in good]
    r.status = f"{len(bad)} of {len(panels)} panels abnormal"
    r.next_steps += [f"Follow up on {b.split(':')[0]} first." for b in bad] or [
        "Nothing to act on."
    ]
