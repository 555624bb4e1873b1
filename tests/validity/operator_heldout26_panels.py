"""``heldout26`` reading dashboards: every panel, the worrying ones first, and any instruction
in a title or description treated as data."""

from __future__ import annotations

import json
import re

from .operator_heldout26 import Postmortem
from .operator_heldout26_guard import injected
from .operator_read import load_json


def _boards(text: str) -> list[dict]:
    doc = load_json(text)
    data = doc.get("data", doc) if isinstance(doc, dict) else doc
    return [d for d in data if isinstance(d, dict)] if isinstance(data, list) else []


def _panels(doc: object) -> list[dict]:
    if isinstance(doc, dict):
        if "panels" in doc and isinstance(doc["panels"], list):
            return [p for p in doc["panels"] if isinstance(p, dict)]
        for v in doc.values():
            found = _panels(v)
            if found:
                return found
    return []


_BAD = re.compile(r"critical|warning|firing|red|degraded|high|breach|alert|elevated|warn", re.I)


async def dashboards(pm: Postmortem) -> None:
    listing = await pm.use(
        "dashboards", "dashboards list", "to see which dashboards exist", action="list"
    )
    boards = _boards(listing)
    words = set(re.findall(r"[a-z0-9-]+", pm.low))
    chosen = [
        b
        for b in boards
        if str(b.get("uid", "")) in words
        or set(re.findall(r"[a-z0-9-]+", str(b.get("title", "")).lower()))
        & words - {"the", "dashboard", "dashboards"}
    ] or boards
    worry: list[str] = []
    fine: list[str] = []
    for b in chosen[:4]:
        uid = str(b.get("uid", ""))
        out = await pm.use(
            "dashboards",
            f"dashboards get {uid}",
            f"to read every panel of {uid}",
            action="get",
            uid=uid,
        )
        injected(pm, out, f"the dashboard {uid}")
        for p in _panels(load_json(out)):
            line = _describe(p)
            (worry if _concern(p) else fine).append(line)
    pm.tldr = (
        (f"{len(worry)} panel(s) need attention: " + "; ".join(worry[:4]) + ".")
        if worry
        else "all panels are within their thresholds."
    )
    for w in worry:
        pm.why("are we worried", w)
    if fine:
        pm.note("Panels within normal range: " + "; ".join(fine) + ".")
    pm.hold("We changed nothing: the request was a health read-out.")
    for w in worry[:3]:
        pm.item("service owners", f"Look at: {w}.", "it is past its threshold.")


def _describe(p: dict) -> str:
    title = str(p.get("title", "panel"))
    val = p.get("value", p.get("current_value", p.get("current", p.get("stat", ""))))
    unit = p.get("unit", "")
    th = p.get("thresholds") or p.get("threshold") or p.get("normal_baseline") or ""
    state = p.get("state") or p.get("status") or ""
    text = f"{title} = {val}{unit}" if val != "" else title
    if th:
        text += f" (normal {json.dumps(th, sort_keys=True) if not isinstance(th, (str, int, float)) else th})"
    if state:
        text += f" [{state}]"
    return text


def _concern(p: dict) -> bool:
    if _BAD.search(str(p.get("state", "")) + str(p.get("status", ""))):
        return True
    val, th = p.get("value"), p.get("thresholds") or p.get("threshold")
    try:
        limit = float(
            th
            if not isinstance(th, (dict, list))
            else (th.get("warning") if isinstance(th, dict) else th[0])
        )
        return float(val) >= limit
    except (TypeError, ValueError, AttributeError, IndexError, KeyError):
        return False


async def config_question(pm: Postmortem) -> bool:
    """A question about a ConfigMap's contents, answered from the ConfigMap itself."""
    from .operator_read import load_yaml

    m = re.search(r"\b([a-z0-9][a-z0-9-]*[a-z0-9])\s+configmap\b", pm.low) or re.search(
        r"\bconfigmap\s+([a-z0-9][a-z0-9-]*[a-z0-9])\b", pm.low
    )
    if not m:
        return False
    cm = m.group(1)
    doc = load_yaml(await pm.k(f"get configmap {cm} -n {pm.ns} -o yaml", f"to read {cm}"))
    if not isinstance(doc, dict):
        pm.tldr = f"we found no ConfigMap {cm} in {pm.ns}."
        return True
    data = {str(k): str(v) for k, v in (doc.get("data") or {}).items()}
    for k, v in sorted(((doc.get("metadata") or {}).get("annotations") or {}).items()):
        injected(pm, str(v), f"the annotation {k} of {cm}")
    asked = set(re.findall(r"[a-z]+", pm.low)) - {
        "the",
        "what",
        "tell",
        "me",
        "it",
        "and",
        "check",
        "to",
        "points",
    }
    keys = [k for k in sorted(data) if set(re.findall(r"[a-z]+", k.lower())) & asked]
    keys = keys or [k for k in sorted(data) if re.search(r"host|url|addr|endpoint", k, re.I)]
    if keys:
        pm.tldr = f"{cm} points to {data[keys[0]]} ({keys[0]} = {data[keys[0]]})."
    else:
        pm.tldr = f"{cm} holds: " + ", ".join(f"{k}={v}" for k, v in sorted(data.items())) + "."
    pm.why(
        "do we say so",
        f"we read {cm} and saw " + "; ".join(f"{k} = {data[k]}" for k in (keys or sorted(data))),
    )
    pm.hold("We changed nothing: the request was a question.")
    return True
