"""The HTML report's block tree (spec 05 §2) written in Python, byte for byte what the
recursive Jinja macro it replaces wrote (issue 30).

The macro called itself once per block with Jinja's attribute lookups on every key: about
two thirds of rendering a report, rendered again by every replay to compare it (core
§3.5.4). Here each block kind is one function; every value goes through :func:`_shown`
(control characters shown as escapes, then escaped: what ``{{ value }}`` does with
autoescape on) or is markup built that way (:func:`.html.inline_cell`). A key a block does
not have shows as nothing, as Jinja's undefined does; a ``None`` it has shows as ``None``.
``tests/reporting/test_html_blocks.py`` compares the two renderings.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import markupsafe

from .blocks import Block, Cell

#: a key the block does not have (Jinja's undefined: shown as "", false in a test)
_MISSING: Any = ""

Shown = Callable[[object], str]
Inline = Callable[[Cell | None], markupsafe.Markup]
Cells = Callable[[list[Cell]], markupsafe.Markup]


class BlockWriter:
    """Writes blocks with the report's own value and cell writers (html.py's, so the
    escaping and the control-character rule live in one place)."""

    def __init__(self, shown: Shown, inline: Inline, cells: Cells) -> None:
        self.shown, self.inline, self.cells = shown, inline, cells
        self._kinds: dict[str, Callable[[Block, int, list[str]], None]] = {
            "section": self._section,
            "para": self._para,
            "callout": self._callout,
            "kv": self._kv,
            "table": self._table,
            "list": self._list,
            "svg": self._svg,
            "toc": self._toc,
            "code": self._code,
        }

    def view(self, view: Any) -> markupsafe.Markup:
        """The header's and the sections' blocks, at depth 2, as one piece of markup."""
        out: list[str] = []
        for b in [*view["header"], *view["sections"]]:
            self.block(b, 2, out)
        return markupsafe.Markup("".join(out))

    def block(self, b: Block, depth: int, out: list[str]) -> None:
        write = self._kinds.get(b.get("kind", _MISSING))
        if write is not None:
            write(b, depth, out)

    def _children(self, b: Block, key: str, depth: int, out: list[str]) -> None:
        for child in b.get(key) or ():
            self.block(child, depth, out)

    def _section(self, b: Block, depth: int, out: list[str]) -> None:
        shown, h = self.shown, min(depth, 6)
        separate, collapsed = b.get("separate"), b.get("collapsed")
        cls = ' class="separate"' if separate else ' class="folded"' if collapsed else ""
        out.append(f'\n<section id="{shown(b.get("id", _MISSING))}"{cls}>')
        if separate:
            out.append(
                '\n<p class="separate-label">This section is separate from the core verdict</p>'
            )
        title, note = shown(b.get("title", _MISSING)), b.get("note")
        if collapsed and b.get("lead"):
            tail = f' <span class="note">{shown(note)}</span>' if note else ""
            out.append(f'\n<h{h} class="entry">{title}{tail}</h{h}>')
            self._children(b, "lead", depth + 1, out)
            out.append("\n<details>\n<summary>Full detail</summary>")
            self._children(b, "blocks", depth + 1, out)
            out.append("\n</details>")
        elif collapsed:
            tail = f'<span class="note">{shown(note)}</span>' if note else ""
            out.append(f"\n<details>\n<summary><h{h}>{title}</h{h}>{tail}</summary>")
            self._children(b, "blocks", depth + 1, out)
            out.append("\n</details>")
        else:
            out.append(f"\n<h{h}>{title}</h{h}>")
            self._children(b, "lead", depth + 1, out)
            self._children(b, "blocks", depth + 1, out)
        out.append("\n</section>")

    def _para(self, b: Block, depth: int, out: list[str]) -> None:
        text = self.inline(b.get("text", _MISSING))
        out.append(f"\n<p><strong>{text}</strong></p>" if b.get("strong") else f"\n<p>{text}</p>")

    def _items(self, items: Any, out: list[str]) -> None:
        out.append("\n<ul>")
        out.extend(f"\n<li>{self.inline(item)}</li>" for item in items or ())
        out.append("\n</ul>")

    def _callout(self, b: Block, depth: int, out: list[str]) -> None:
        banner = " banner" if b.get("banner") else ""
        out.append(f'\n<div class="callout {self.shown(b.get("tone", _MISSING))}{banner}">')
        out.append(f'\n<p class="title">{self.shown(b.get("title", _MISSING))}</p>')
        if b.get("items"):
            self._items(b["items"], out)
        out.append("\n</div>")

    def _kv(self, b: Block, depth: int, out: list[str]) -> None:
        out.append('\n<table class="kv">')
        out.extend(
            f"\n<tr><th>{self.shown(row[0])}</th><td>{self.inline(row[1])}</td></tr>"
            for row in b.get("rows") or ()
        )
        out.append("\n</table>")

    def _table(self, b: Block, depth: int, out: list[str]) -> None:
        rows = b.get("rows")
        if not rows:
            out.append(f'\n<p class="empty">{self.shown(b.get("empty", _MISSING))}</p>')
            return
        heads = "".join(f"<th>{self.shown(c)}</th>" for c in b.get("columns") or ())
        out.append(f"\n<table>\n<thead><tr>{heads}</tr></thead>\n<tbody>")
        out.extend(f"\n<tr>{self.cells(row)}</tr>" for row in rows)
        out.append("\n</tbody>\n</table>")

    def _list(self, b: Block, depth: int, out: list[str]) -> None:
        self._items(b.get("items"), out)

    def _svg(self, b: Block, depth: int, out: list[str]) -> None:
        markup = str(markupsafe.Markup(b.get("markup", _MISSING)))  # the `safe` filter
        alt = self.shown(b.get("alt", _MISSING))
        out.append(f'\n<figure class="chart">{markup}<figcaption>{alt}</figcaption></figure>')

    def _toc(self, b: Block, depth: int, out: list[str]) -> None:
        shown = self.shown
        out.append('\n<nav class="toc"><ol>')
        for e in b.get("entries") or ():
            sub = ""
            if len(e) > 2 and e[2]:
                inner = "".join(
                    f'<li><a href="#{shown(c[0])}">{shown(c[1])}</a></li>' for c in e[2]
                )
                sub = f"<ol>{inner}</ol>"
            out.append(f'\n<li><a href="#{shown(e[0])}">{shown(e[1])}</a>{sub}</li>')
        out.append("\n</ol></nav>")

    def _code(self, b: Block, depth: int, out: list[str]) -> None:
        lines = b.get("lines") or ()
        out.append(f"\n<pre>{self.shown(chr(10).join(map(str, lines)))}</pre>")
