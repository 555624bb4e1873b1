"""The held-out operator of session 25 (``heldout29``): the observability reads.

Alerts and the subject's own series over the last hours, the migration status when the message
speaks of one, the dashboard it names, the trace it names (else the slowest of the subject's).
"""

from __future__ import annotations

import re

from .operator_heldout29_ctx import Ctx, mentioned
from .operator_heldout29_look import Seen
from .operator_read import alerts, load_json, prom_series


async def read_signals(ctx: Ctx, seen: Seen, names: list[str], trigger: str) -> None:
    """Metrics (alerts, the subject's own series over 6 hrs), traces, dashboards, migrations."""
    ns = ctx.ns
    if ctx.has("metrics_query"):
        doc = await ctx.run(
            "metrics_query", "to see if any alert is firing", trigger, action="alerts"
        )
        seen.alerts = alerts(doc)
        for name in names:
            listing = await ctx.run(
                "metrics_query",
                f"to know which series {name} has",
                trigger,
                action="series",
                query=f'{{namespace="{ns}", service="{name}"}}',
            )
            metrics = sorted(set(re.findall(r'"__name__": "([a-zA-Z0-9_:]+)"', listing)))
            for metric in metrics:
                out = await ctx.run(
                    "metrics_query",
                    f"to see how {metric} of {name} moved in last 6 hrs",
                    trigger,
                    action="query_range",
                    query=f'{metric}{{namespace="{ns}", service="{name}"}}',
                    start="-6h",
                    step="5m",
                )
                seen.series[f"{name}/{metric}"] = prom_series(out)
    if ctx.has("database") and any(w in ctx.low for w in ("migration", "database", "schema", "db")):
        seen.migrations = await ctx.run(
            "database",
            "message talks about the migration, so checking migration status",
            trigger,
            query="migrations status",
        )
    if ctx.has("dashboards"):
        await _dashboard(ctx, seen, trigger)
    if ctx.has("traces_query"):
        await _trace(ctx, seen, names, trigger)


async def _dashboard(ctx: Ctx, seen: Seen, trigger: str) -> None:
    listing = (
        load_json(
            await ctx.run(
                "dashboards",
                "to find the dashboard the operator asked about",
                trigger,
                action="list",
            )
        )
        or []
    )
    boards = [b for b in listing if isinstance(b, dict)]
    pick = [
        b
        for b in boards
        if mentioned(str(b.get("uid", "")), ctx.prompt)
        or str(b.get("title", "")).lower() in ctx.low
    ]
    pick = pick or [b for b in boards if "batch" not in (b.get("tags") or [])][:1]
    for board in pick[:1]:
        doc = load_json(
            await ctx.run(
                "dashboards",
                f"to read the panels of {board.get('title')}",
                trigger,
                action="get",
                uid=str(board.get("uid")),
            )
        )
        seen.dashboard = doc if isinstance(doc, dict) else {}


async def _trace(ctx: Ctx, seen: Seen, names: list[str], trigger: str) -> None:
    ids = re.findall(r"\btrace\s+([0-9a-f]{5,})", ctx.low)
    trace_id = ids[0] if ids else ""
    if not trace_id:
        for name in names[:1]:
            found = (
                load_json(
                    await ctx.run(
                        "traces_query",
                        f"to find slow requests of {name}",
                        trigger,
                        action="search",
                        service=name,
                        limit=5,
                    )
                )
                or {}
            )
            data = sorted(
                found.get("data") or [],
                key=lambda t: -float(str(t.get("duration", "0")).rstrip("ms") or 0),
            )
            trace_id = str(data[0].get("traceID")) if data else ""
    if trace_id:
        seen.trace = await ctx.run(
            "traces_query",
            "to walk the span tree and see where the time goes",
            trigger,
            action="get",
            trace_id=trace_id,
            format="tree",
        )
