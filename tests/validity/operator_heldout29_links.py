"""The held-out operator of session 25 (``heldout29``): links between findings.

A deploy just before the errors rose is the cause to name (both readings given); the signal
the operator asks about ("the node CPU is pegged, is that the problem?") is read and answered.
"""

from __future__ import annotations

import re

from .operator_heldout29_ctx import REQUEST, Ctx
from .operator_heldout29_diag import Finding
from .operator_heldout29_look import Seen


def deploy_link(findings: list[Finding]) -> list[Finding]:
    """A deploy just before errors rose is the cause to name, with both readings."""
    roll = next((f for f in findings if f.kind == "rollout"), None)
    rise = [
        f
        for f in findings
        if f.workload == (roll.workload if roll else "") and f.kind in ("metric", "error")
    ]
    if (
        not roll
        or not rise
        or any(f.clear and f.kind not in ("rollout", "metric") for f in findings)
    ):
        return []
    return [
        Finding(
            "deploy",
            roll.workload,
            f"{roll.seen}; {rise[0].seen}",
            f"{roll.cause}: {rise[0].seen}, so the new version is the most likely cause",
            fix=roll.fix,
        )
    ]


async def asked_signal(ctx: Ctx, seen: Seen, names: list[str]) -> list[Finding]:
    """The signal the operator asks about ("the node CPU is pegged, is that the problem?")."""
    if not re.search(r"\bcpu\b", ctx.low) or not ctx.has("metrics_query"):
        return []
    from .operator_read import prom_series

    out = await ctx.run(
        "metrics_query",
        "operator asked about node CPU, so reading node CPU utilisation",
        REQUEST,
        action="query",
        query="instance:node_cpu_utilisation:rate5m",
    )
    nodes = [(m.get("instance") or m.get("node", "?"), v[-1]) for m, v in prom_series(out) if v]
    top = await ctx.k(f"top pods -n {ctx.ns}", "to see which pod is using the CPU", REQUEST)
    rows = [ln.split() for ln in top.splitlines()[1:] if ln.strip()]
    rows.sort(
        key=lambda x: (
            -float(x[1].rstrip("m") or 0) if len(x) > 1 and x[1].rstrip("m").isdigit() else 0
        )
    )
    hog = rows[0] if rows else []
    busy = (
        ", ".join(f"{n} {v * 100:.0f}%" if v <= 1 else f"{n} {v:.0f}%" for n, v in nodes) or "n/a"
    )
    text = f"node CPU utilisation: {busy}; top CPU pod in {ctx.ns}: {' '.join(hog[:2]) or 'n/a'}"
    return [Finding("asked-cpu", hog[0] if hog else "", text, "", clear=False)]
