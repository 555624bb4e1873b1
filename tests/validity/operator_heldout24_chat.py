"""``heldout24``'s voice (issue 27, fairness): a busy on-call engineer typing in a chat channel.

Terse, mostly lower case, abbreviations (ns, deploy, svc, cfg, pls, fyi, tbh, imo, w/, b/c), dropped
articles and subjects, arrows for causality, several short messages split by blank lines, and a
few typos in ordinary words. Object names are never touched: a name is shielded before the typo
pass and put back exactly as it was read.
"""

from __future__ import annotations

import re

#: ordinary words a hurried typist gets wrong (never object names: those are shielded)
TYPOS: tuple[tuple[str, str], ...] = (
    ("because", "becuase"),
    ("definitely", "definately"),
    ("probably", "prolly"),
    ("restarted", "restared"),
    ("separate", "seperate"),
    ("received", "recieved"),
    ("environment", "enviroment"),
    ("something", "somethign"),
    ("looking", "lookign"),
    ("recommend", "reccomend"),
    ("the", "teh"),
)
#: long forms a chat user shortens
SHORT: tuple[tuple[str, str], ...] = (
    ("namespace", "ns"),
    ("deployment", "deploy"),
    ("configuration", "cfg"),
    ("please", "pls"),
    ("with", "w/"),
    ("about", "~"),
    ("you", "u"),
    ("your", "ur"),
)
_NAME = re.compile(r"`[^`]*`|[\w.-]*[-_/=:.][\w./=:-]*\w|\b[A-Z][A-Z0-9_]{2,}\b|\d[\w.%]*")


def _shield(text: str, names: list[str]) -> tuple[str, list[str]]:
    """Replace object names (and anything name-like: dashed, dotted, CAPS, numbers) by tokens."""
    kept: list[str] = []

    def keep(m: re.Match[str]) -> str:
        kept.append(m.group(0))
        return f"\ue000{chr(0xE100 + len(kept) - 1)}\ue001"

    for n in sorted({n for n in names if n}, key=len, reverse=True):
        text = re.sub(rf"(?<![\w\ue000-\uefff-]){re.escape(n)}(?![\w-])", keep, text)
    return _NAME.sub(keep, text), kept


def _unshield(text: str, kept: list[str]) -> str:
    """Put the names back (a name may hold a shielded name: repeat until none is left)."""
    while "\ue000" in text:
        text = re.sub("\ue000(.)\ue001", lambda m: kept[ord(m.group(1)) - 0xE100], text)
    return text


def chatty(line: str, names: list[str], typo_budget: list[int]) -> str:
    """One message in the chat voice: short forms, and a typo while the budget lasts."""
    text, kept = _shield(line, names)
    for long, short in SHORT:
        text = re.sub(rf"\b{long}\b", short, text)
    for right, wrong in TYPOS:
        if typo_budget[0] <= 0:
            break
        new = re.sub(rf"\b{right}\b", wrong, text, count=1)
        if new != text:
            text = new
            typo_budget[0] -= 1
            break
    return _unshield(text, kept)


def render(messages: list[str], names: list[str], typos: int = 3) -> str:
    """The answer: each message on its own, separated by blank lines."""
    budget = [typos]
    out = [chatty(m.strip(), names, budget) for m in messages if m and m.strip()]
    return "\n\n".join(out)
