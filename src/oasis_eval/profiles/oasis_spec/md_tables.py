"""Markdown pipe tables -> rows keyed by header, with line numbers (stdlib only).

A row whose cell count differs from the header's is not guessed at: it is
returned as a ``(line, message)`` problem so the caller can report it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .md_block import Block
from .md_inline import strip_inline

DELIMITER = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")


@dataclass
class Row:
    """One table row: its line, its cells by column, and its values in order."""

    line: int
    cells: dict[str, str]
    values: list[str]

    def get(self, column: str | None, default: str = "") -> str:
        """The cell of ``column`` (``default`` when the column is absent or None)."""
        return self.cells.get(column, default) if column else default


@dataclass
class Table:
    """A pipe table: header cells, rows keyed by header, and rows that could not be read."""

    line: int
    header: list[str]
    rows: list[Row] = field(default_factory=list)
    #: (line, message) for each line that is not a well-formed row of this table
    problems: list[tuple[int, str]] = field(default_factory=list)

    def column(self, *keywords: str) -> str | None:
        """The first header containing every keyword (case-insensitive, formatting stripped)."""
        for name in self.header:
            low = strip_inline(name).lower()
            if all(k.lower() in low for k in keywords):
                return name
        return None


def split_row(line: str) -> list[str]:
    """Cells of a pipe-table line. ``\\|`` is a literal pipe; outer pipes are optional."""
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    cells, cur, i = [], [], 0
    while i < len(s):
        ch = s[i]
        if ch == "\\" and i + 1 < len(s) and s[i + 1] == "|":
            cur.append("|")
            i += 2
            continue
        if ch == "|":
            cells.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
        i += 1
    cells.append("".join(cur).strip())
    return cells


def parse_table(block: Block) -> Table:
    """Parse a ``table`` block. Rows with the wrong cell count are problems, not rows."""
    header = split_row(block.lines[0])
    table = Table(block.line, header)
    body = block.lines[1:]
    start = block.line + 1
    if body and DELIMITER.match(body[0]) and "-" in body[0]:
        delim = split_row(body[0])
        if len(delim) != len(header):
            table.problems.append(
                (start, f"delimiter row has {len(delim)} cells, header has {len(header)}")
            )
        body, start = body[1:], start + 1
    else:
        table.problems.append((block.line + 1, "missing the |---| delimiter row after the header"))
    for offset, raw in enumerate(body):
        cells = split_row(raw)
        if len(cells) != len(header):
            table.problems.append(
                (
                    start + offset,
                    f"row has {len(cells)} cells, expected {len(header)} ({' | '.join(header)})",
                )
            )
            continue
        table.rows.append(Row(start + offset, dict(zip(header, cells, strict=True)), cells))
    return table


def tables(blocks: list[Block]) -> list[Table]:
    """The tables among ``blocks``, parsed."""
    return [parse_table(b) for b in blocks if b.kind == "table"]
