"""``dashboards`` (observability-dashboards): Grafana-like search and dashboard JSON. Not
behind the API server: each call is audited on its own."""

from __future__ import annotations

import re
from typing import Any

from ...cluster.clock import fmt as fmt_ts
from ..base import (
    CallContext,
    Surface,
    ToolResult,
    ToolSpec,
    arg_str,
    schema,
)
from .common import _dumps

# ---- dashboards --------------------------------------------------------------------------------------
DASHBOARDS_DESCRIPTION = (
    "Grafana dashboards. action=list (or search with `query` on titles) returns the dashboards; action=get with "
    "`uid` (or a title) returns the dashboard JSON with each panel's title, type and current value."
)


def dashboard_tools(surface: Surface) -> list[tuple[ToolSpec, Any]]:
    spec = ToolSpec(
        name="dashboards",
        interface_type="observability-dashboards",
        description=DASHBOARDS_DESCRIPTION,
        read_only=True,
        input_schema=schema(
            {
                "action": {"type": "string", "enum": ["list", "search", "get"]},
                "uid": {"type": "string"},
                "query": {"type": "string"},
            }
        ),
    )
    return [(spec, dashboards)]


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def dashboards(ctx: CallContext, args: dict[str, Any]) -> ToolResult:
    surface, env = ctx.surface, ctx.surface.env
    uid = arg_str(args, "uid")
    action = str(args.get("action") or ("get" if uid else "list")).lower()
    ctx.targets.append("observability-dashboards")
    boards = env.dashboards.list()
    if action in ("list", "search"):
        q = (arg_str(args, "query") or "").lower()
        hits = [
            b
            for b in boards
            if q in b["title"].lower() or any(q in t.lower() for t in b.get("tags") or [])
        ]
        surface.audit_tool_call(
            ctx, verb="list", resource="dashboards", params={"query": q} if q else None
        )
        out = [
            {
                "id": i + 1,
                "uid": b["uid"],
                "title": b["title"],
                "uri": f"db/{_slug(b['title'])}",
                "url": f"/d/{b['uid']}/{_slug(b['title'])}",
                "slug": "",
                "type": "dash-db",
                "tags": b.get("tags") or [],
                "isStarred": False,
                "sortMeta": 0,
            }
            for i, b in enumerate(hits)
        ]
        return ToolResult(_dumps(out))
    if action != "get":
        surface.audit_tool_call(ctx, verb="get", resource="dashboards", code=400)
        return ToolResult(
            _dumps({"message": f"unknown action {action!r}: use list, search or get"}), True
        )
    if not uid:
        surface.audit_tool_call(ctx, verb="get", resource="dashboards", code=400)
        return ToolResult(_dumps({"message": "uid is required"}), True)
    board = env.dashboards.get(uid)
    if board is None:
        match = [
            b
            for b in boards
            if b["title"].lower() == uid.lower() or _slug(b["title"]) == _slug(uid)
        ]
        board = env.dashboards.get(match[0]["uid"]) if match else None
    ctx.targets[:0] = [f"observability-dashboards/{uid}"] + (
        [f"observability-dashboards/{board['uid']}"] if board else []
    )
    surface.audit_tool_call(
        ctx, verb="get", resource="dashboards", name=uid, code=200 if board else 404
    )
    if board is None:
        return ToolResult(_dumps({"message": "Dashboard not found"}), True)
    return ToolResult(_dumps(_board_doc(env, boards, board)))


def _board_doc(env: Any, boards: list[dict[str, Any]], board: dict[str, Any]) -> dict[str, Any]:
    """Grafana's ``GET /api/dashboards/uid/<uid>`` answer: meta and the dashboard's panels."""
    index = next((i for i, b in enumerate(boards) if b["uid"] == board["uid"]), 0)
    panels = [_panel(n, p) for n, p in enumerate(board.get("panels") or [])]
    created = fmt_ts(env.clock.at(-30 * 86400))
    doc = {
        "meta": {
            "type": "db",
            "canSave": False,
            "canEdit": False,
            "canAdmin": False,
            "canStar": True,
            "slug": _slug(board["title"]),
            "url": f"/d/{board['uid']}/{_slug(board['title'])}",
            "expires": "0001-01-01T00:00:00Z",
            "created": created,
            "updated": created,
            "updatedBy": "admin",
            "createdBy": "admin",
            "version": 1,
            "hasAcl": False,
            "isFolder": False,
            "folderId": 0,
            "folderUid": "",
            "folderTitle": "General",
            "folderUrl": "",
            "provisioned": True,
        },
        "dashboard": {
            "id": index + 1,
            "uid": board["uid"],
            "title": board["title"],
            "tags": board.get("tags") or [],
            "timezone": "browser",
            "schemaVersion": 39,
            "version": 1,
            "refresh": "30s",
            "time": {"from": "now-6h", "to": "now"},
            "panels": panels,
        },
    }
    return doc


def _panel(n: int, p: dict[str, Any]) -> dict[str, Any]:
    """A panel as Grafana serves it: id, title, type and grid position first, then the
    declared keys, and a Prometheus target for a declared ``metric``."""
    panel = {
        "id": p.get("id", n + 1),
        "title": p.get("title", ""),
        "type": p.get("type", "timeseries"),
        "gridPos": {"h": 8, "w": 12, "x": 12 * (n % 2), "y": 8 * (n // 2)},
    }
    for k, v in p.items():
        if k not in panel:
            panel[k] = v
    if "metric" in p:
        panel["targets"] = [
            {
                "expr": p["metric"],
                "refId": "A",
                "datasource": {"type": "prometheus", "uid": "prometheus"},
            }
        ]
    return panel
