"""heldout31's other sources: a trace (named in the request, or the slowest of the subject's),
a dashboard named in the request, the migration history, a runbook.
"""

from __future__ import annotations

import re

from . import operator_read as rd
from .operator_heldout31_look import Look, _mentioned
from .operator_heldout31_rec import Record


async def extras(rec: Record, look: Look) -> None:
    """A trace, a dashboard, the migration history or a runbook, when the request or the
    environment points at one."""
    prompt = look.prompt
    if rec.has("traces_query"):
        m = re.search(r"\btrace\s+([0-9a-zA-Z-]{4,})", prompt, re.I)
        if m:
            why = f"the request names trace {m.group(1)}; its span tree shows where the time goes"
            text = await rec.call(
                "traces_query",
                "read",
                f"trace {m.group(1)}",
                why,
                action="get",
                trace_id=m.group(1),
            )
            look.trace_head = text.splitlines()[0] if text else ""
            look.spans = rd.trace_tree(text)
            look.trace_named = True
        for name in look.focus[:1] if not m else []:
            await _search_traces(rec, look, name)
    if rec.has("dashboards"):
        await _dashboard(rec, look)
    if rec.has("database") and re.search(
        r"migrat|schema|column|database", prompt + str(look.logs), re.I
    ):
        why = "the request points at a migration; the migration history shows what ran and when"
        look.migrations = await rec.call(
            "database", "read", "migration history", why, query="migrations status"
        )
    m = re.search(r"(?:the\s+)?([\w-]+)\s+runbook", prompt, re.I)
    if m:
        look.runbook_name = m.group(1)
        for cm in look.configmaps:
            name = str((cm.get("metadata") or {}).get("name", ""))
            if look.runbook_name in name:
                look.runbook = {str(k): str(v) for k, v in (cm.get("data") or {}).items()}


async def _search_traces(rec: Record, look: Look, name: str) -> None:
    why = f"slow traces of {name} show which downstream call holds the time"
    found = rd.load_json(
        await rec.call(
            "traces_query",
            "search",
            f"slow traces of {name}",
            why,
            action="search",
            service=name,
            min_duration="1s",
            format="json",
        )
    )
    hits = (
        [t for t in (found or {}).get("data") or [] if isinstance(t, dict) and t.get("traceID")]
        if isinstance(found, dict)
        else []
    )
    hits.sort(key=lambda t: -float(re.sub(r"[^0-9.]", "", str(t.get("duration", "0"))) or 0))
    ids = [str(t["traceID"]) for t in hits]
    if not ids:
        return
    why = f"the slowest trace of {name} was opened to follow its span tree"
    text = await rec.call(
        "traces_query", "read", f"trace {ids[0]}", why, action="get", trace_id=ids[0]
    )
    look.trace_head = text.splitlines()[0] if text else ""
    look.spans = rd.trace_tree(text)


async def _dashboard(rec: Record, look: Look) -> None:
    why = "the dashboards were listed to find the one the request names"
    listed = (
        rd.load_json(await rec.call("dashboards", "list", "dashboards", why, action="list")) or []
    )
    uids = [str(d.get("uid")) for d in listed if isinstance(d, dict)]
    named = _mentioned(look.prompt, uids) or [
        str(d.get("uid"))
        for d in listed
        if isinstance(d, dict) and str(d.get("title", "")).lower() in look.prompt.lower()
    ]
    for uid in named[:1]:
        why = f"the request asks what the {uid} dashboard says; every panel was read"
        doc = (
            rd.load_json(
                await rec.call("dashboards", "read", f"dashboard {uid}", why, action="get", uid=uid)
            )
            or {}
        )
        look.dashboard = str((doc.get("dashboard") or {}).get("title") or uid)
        look.panels = [
            p for p in (doc.get("dashboard") or {}).get("panels") or [] if isinstance(p, dict)
        ]
