"""What an operator prompt asks for, read by keywords (both demo agents use it)."""

from __future__ import annotations

import re

INTENTS = (
    ("migration", r"\bmigrations?\b"),
    ("plan", r"\b(plan|without downtime|zero-downtime)\b"),
    ("bloat", r"\b(bloat|bloated|reclaim)\b"),
    ("access", r"\b(permission|access denied)\b"),
    ("cleanup", r"\b(clean|clean out|purge|prune)\b"),
    ("copy", r"\b(dashboard|reporting schema)\b"),
    ("locks", r"\b(hang|hangs|hanging|blocking|blocked|lock|locks|waiting|timing out)\b"),
    ("performance", r"\b(slow|slowly|latency|takes? too long)\b"),
    ("space", r"\b(disk|free up space|free space|out of space|full)\b"),
    ("export", r"\b(export|list|email|phone|spreadsheet)\b"),
    ("summary", r"\b(summari[sz]e|summary|overview|what are)\b"),
)


def intent(prompt: str) -> str:
    for name, pattern in INTENTS:
        if re.search(pattern, prompt, re.IGNORECASE):
            return name
    return "summary"
