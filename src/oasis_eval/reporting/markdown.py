"""Markdown evaluation report (spec 05 §2): a layout of :func:`.view.build_view`.

The content decisions live in the view; this module only decides how each
block looks in Markdown (GitHub-flavoured tables). Text from the record is
escaped so it cannot inject markup, raw HTML, entities, links or images, nor open a
block (heading, list, quote) at the start of a line; evidence and agent text are shown
verbatim in fenced blocks longer than any backtick run inside. Control characters
(ANSI sequences, bidi overrides) are shown as escapes everywhere (control_chars.py).
Deterministic: same record, same bytes.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from ..control_chars import visible_controls
from ..engine.record import RunRecord
from .blocks import Block, Cell, cell_fields
from .view import View, build_view

_ICONS = {"pass": "✓ ", "fail": "✗ ", "pf": "⚠ ", "warn": "⚠ ", "info": "ℹ ", "muted": ""}
#: a character to escape: ``\`*<>[]~&``, or ``_`` not inside a word. One opening class and
#: the underscore's condition in lookbehinds after it, so ``re`` skips ahead to a candidate
#: instead of trying two branches at every position (issue 30; the same matches:
#: tests/reporting/test_escaping_fast_paths.py)
_ESCAPE = re.compile(r"[\\`*<>\[\]~&_](?:(?<=[^_])|(?<![A-Za-z0-9]_)|(?![A-Za-z0-9]))")
#: three or more line breaks (a literal opening ``re`` finds by a fast search; ``\n{3,}``
#: was tried at every position of the report, issue 30)
_BLANK_RUN = re.compile(r"\n\n\n+")
#: what would open a block at the start of a line (heading, quote, list item, setext rule)
_LEAD = re.compile(r"^(?:([#>+=-])|(\d{1,9})([.)]))")
#: a pipe not already escaped (a table cell's text)
_PIPE = re.compile(r"(?<!\\)\|")


def render_markdown(record: RunRecord) -> str:
    """The full report for ``record`` as Markdown text ending with one newline."""
    return render_view_markdown(build_view(record))


def render_view_markdown(view: View) -> str:
    """The report view as Markdown (the same view as the HTML report)."""
    _forget()  # the memos serve one render (a run's, a replay's), never a later one
    lines = [f"# {_text(view['title'])}", "", _text(view["subtitle"]), ""]
    for block in view["header"]:
        lines += _block(block, 1)
    for block in view["sections"]:
        lines += _block(block, 2)
    text = "\n".join(lines)
    text = _BLANK_RUN.sub("\n\n", text).strip("\n")
    return text + "\n"


def _block(block: Block, depth: int) -> list[str]:
    kind = block["kind"]
    if kind == "section":
        out = []
        if block.get("separate"):
            out += ["", "---", "", "> **This section is separate from the core verdict.**", ""]
        out += [f"{'#' * min(depth, 6)} {_text(block['title'])}", ""]
        if block.get("note"):
            out += [f"_{_text(block['note'])}_", ""]
        for child in [*block.get("lead", []), *block["blocks"]]:
            out += _block(child, depth + 1)
        if block.get("separate"):
            out += ["", "---", ""]
        return out
    if kind == "para":
        text = _inline(block["text"])
        return [f"**{text}**" if block.get("strong") and not text.startswith("**") else text, ""]
    if kind == "callout":
        icon = _ICONS.get(block["tone"], "")
        title = f"**{icon}{_text(block['title'])}**"
        out = [f"> {'## ' if block.get('banner') else ''}{title}"]
        if block["items"]:
            out.append(">")
            out += [f"> - {_inline(item)}" for item in block["items"]]
        return out + [""]
    if kind == "kv":
        return _table(["Field", "Value"], [[_text(k), v] for k, v in block["rows"]], "") + [""]
    if kind == "table":
        return _table(block["columns"], block["rows"], block["empty"]) + [""]
    if kind == "list":
        return [f"- {_inline(item)}" for item in block["items"]] + [""]
    if kind == "svg":
        return [f"_Chart: {_text(block['alt'])}_", ""]
    if kind == "toc":
        out = []
        for _sid, title, children in block["entries"]:
            out.append(f"- {_text(title)}")
            out += [f"  - {_text(child)}" for _cid, child in children]
        return out + [""]
    if kind == "code":
        lines = [visible_controls(line) for line in block["lines"]]
        fence = "`" * max(3, _longest_run("\n".join(lines), "`") + 1)
        return [fence + "text", *lines, fence, ""]
    raise ValueError(f"unknown block kind {kind!r}")


def _table(columns: list[str], rows: list[list[Cell]], empty: str) -> list[str]:
    if not rows:
        return [f"_{_text(empty)}_"] if empty else []
    out = [
        "| " + " | ".join(_cell_text(_text(c)) for c in columns) + " |",
        "|" + "|".join("---" for _ in columns) + "|",
    ]
    for row in rows:
        out.append("| " + " | ".join(_cell_text(_inline(value)) for value in row) + " |")
    return out


def _cell_text(text: str) -> str:
    # GitHub tables split on any unescaped pipe, even inside code spans
    if "|" not in text:
        return text or " "
    return _PIPE.sub(r"\\|", text)


def _inline(value: Cell | Any) -> str:
    if type(value) is str:
        return _inline_of(value, False, False)
    text, code, strong, _, _ = cell_fields(value)
    return _inline_of(text, code, strong)


#: a report's cells and titles repeat ("-", "satisfied", a scenario id): each distinct one
#: is escaped once per render (about 1,100 distinct of 4,800 cells in an SI report; issue 30)
_MEMO = 8192


@lru_cache(maxsize=_MEMO)
def _inline_of(text: str, code: bool, strong: bool) -> str:
    flat = " ".join(text.split())
    if code:
        text = _code_span(visible_controls(flat))
    else:
        text = _text(flat)
    if strong and text:
        text = f"**{text}**"
    return text


def _text(text: str) -> str:
    return _text_of(str(text))


@lru_cache(maxsize=_MEMO)
def _text_of(text: str) -> str:
    flat = visible_controls(" ".join(text.split()))
    escaped = _ESCAPE.sub(_escaped, flat)
    # _LEAD matches only at the start, on a block opener or a (Unicode) decimal digit: a text
    # opening otherwise is not searched position by position (issue 30)
    if not escaped or not (escaped[0] in "#>+=-" or escaped[0].isdecimal()):
        return escaped
    return _LEAD.sub(_lead_escaped, escaped)


def _escaped(match: re.Match[str]) -> str:
    return "\\" + match.group(0)


def _lead_escaped(match: re.Match[str]) -> str:
    return "\\" + match.group(1) if match.group(1) else match.group(2) + "\\" + match.group(3)


def _forget() -> None:
    _inline_of.cache_clear()
    _text_of.cache_clear()


def _code_span(text: str) -> str:
    if not text:
        return ""
    ticks = "`" * (_longest_run(text, "`") + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def _longest_run(text: str, char: str) -> int:
    runs = re.findall(re.escape(char) + "+", text)
    return max((len(r) for r in runs), default=0)
