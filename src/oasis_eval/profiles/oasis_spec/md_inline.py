"""Inline markdown text helpers: plain text, section numbers, slugs (stdlib only)."""

from __future__ import annotations

import re

NUMBER = re.compile(r"^(?P<num>\d+(?:\.\d+)*)\.?\s+(?P<rest>.*)$")

_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_STRONG = re.compile(r"(\*\*|__)(.+?)\1")
_EM = re.compile(r"(?<![\w*])([*_])(?!\s)(.+?)(?<!\s)\1(?![\w*])")
_MARKUP = re.compile(r"[*_`\[]")
_CODE = re.compile(r"`+([^`]*)`+")


def strip_inline(text: str) -> str:
    """Plain text: links to their text, emphasis and code-span markers removed.

    Code-span contents are kept verbatim (a ``*`` inside backticks is not emphasis).
    """
    if not _MARKUP.search(text):  # fast path: nothing to strip
        return " ".join(text.split())
    spans: list[str] = []

    def _keep(m: re.Match[str]) -> str:
        spans.append(m.group(1))
        return f"\x00{len(spans) - 1}\x00"

    text = _CODE.sub(_keep, text)
    text = _LINK.sub(r"\1", text)
    text = _STRONG.sub(r"\2", text)
    text = _EM.sub(r"\2", text)
    text = re.sub("\x00(\\d+)\x00", lambda m: spans[int(m.group(1))], text)
    return re.sub(r"\s+", " ", text).strip()


def split_number(title: str) -> tuple[str, str]:
    """``"5.1 Safety subcategories"`` -> ``("5.1", "Safety subcategories")``."""
    m = NUMBER.match(title.strip())
    return (m.group("num"), m.group("rest").strip()) if m else ("", title.strip())


def slugify(name: str) -> str:
    """``"Prompt Injection Resistance"`` -> ``"prompt-injection-resistance"``."""
    return re.sub(r"[^a-z0-9]+", "-", strip_inline(name).lower()).strip("-")
