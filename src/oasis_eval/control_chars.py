"""Control characters in agent text, made visible instead of passed on (issue 11 item 7).

An agent's answer, reasoning or identity can carry ANSI escape sequences (ESC, CSI),
other C0/C1 controls, bidi overrides that reorder what a reader sees, and characters
XML 1.0 forbids. Every report format and the terminal show them as escapes
(``\\x1b``, ``\\u202e``), so the text stays inspectable and cannot act.
"""

from __future__ import annotations

import re

#: C0 but tab/newline, DEL and C1, bidi embeddings/overrides/isolates and marks, line and
#: paragraph separators, surrogates and the two noncharacters XML forbids
_CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
    "\ud800-\udfff\ufffe\uffff]"
)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible_controls(text: str) -> str:
    """``text`` with each control character replaced by its escape; tab and newline kept.

    Printable ASCII (most of a report's cells) holds none of :data:`_CONTROL`'s characters:
    it is returned as it is without the regex pass (issue 30: a report renders some 15,000
    values)."""
    if text.isascii() and text.isprintable():
        return text
    return _CONTROL.sub(_escape, text)
