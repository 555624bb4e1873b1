"""The block-level element the Markdown tokenizer produces (see :mod:`.markdown`); its own
module so that the table parser can take blocks without importing the tokenizer."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Block:
    """One block-level element. ``line`` is the 1-based line of its first line.

    ``kind`` is one of ``heading``, ``paragraph``, ``item``, ``table``, ``code``,
    ``rule``. For headings ``level`` is 1-6 and ``text`` the title; for list items
    ``level`` is the indentation and ``text`` the item text without its marker
    (continuation lines joined by a space); for code ``lang`` is the info string's
    first word and ``text`` the content.
    """

    kind: str
    line: int
    lines: list[str]
    text: str = ""
    level: int = 0
    lang: str = ""
    closed: bool = True  # code blocks: False when the fence is never closed

    @property
    def end_line(self) -> int:
        """The block's last line number."""
        return self.line + len(self.lines) - 1

    @property
    def content_line(self) -> int:
        """For code blocks: the line of the first content line."""
        return self.line + 1 if self.kind == "code" else self.line
