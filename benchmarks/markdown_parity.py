"""The spec's markdown read two ways (docs/design.md, issue 33): oasis-eval's line-preserving
reader (``profiles/oasis_spec/markdown.py``) and markdown-it-py (CommonMark + GFM tables).
Over every ``.md`` file of the spec (``OASIS_SPEC_DIR``, default ``../shared/oasis-spec``)
it compares what profile loading reads: headings (level, title, line), fenced code
(language, first line, content) and pipe tables (line, header, each row's line and cells),
and times both.

``.venv/bin/python -m benchmarks.markdown_parity``
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

from oasis_eval.profiles.oasis_spec.markdown import strip_inline, tables, tokenize

ROOT = Path(__file__).resolve().parents[1]
MD = MarkdownIt("commonmark").enable("table")


def ours(text: str) -> dict[str, list[Any]]:
    """What the reader of oasis-eval sees."""
    blocks = tokenize(text)
    return {
        "headings": [
            (b.level, strip_inline(b.text), b.line) for b in blocks if b.kind == "heading"
        ],
        "code": [(b.lang, b.line, b.text.rstrip("\n")) for b in blocks if b.kind == "code"],
        "tables": [
            (
                t.line,
                [strip_inline(h) for h in t.header],
                [(r.line, [strip_inline(v) for v in r.values]) for r in t.rows],
            )
            for t in tables(blocks)
        ],
    }


def _inline_text(token: Any) -> str:
    return strip_inline(token.content)


def _line(token: Any) -> int:
    """The 1-based first line of a block token (markdown-it-py's ``map`` is 0-based)."""
    return int(token.map[0]) + 1 if token.map else 0


def theirs(text: str) -> dict[str, list[Any]]:
    """What markdown-it-py sees."""
    tokens = MD.parse(text)
    out: dict[str, list[Any]] = {"headings": [], "code": [], "tables": []}
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.type == "heading_open":
            out["headings"].append((int(tok.tag[1]), _inline_text(tokens[i + 1]), _line(tok)))
        elif tok.type == "fence":
            lang = tok.info.split()[0] if tok.info.strip() else ""
            out["code"].append((lang, _line(tok), tok.content.rstrip("\n")))
        elif tok.type == "table_open":
            header: list[str] = []
            rows: list[tuple[int, list[str]]] = []
            line, in_head, row_line = _line(tok), True, 0
            cells: list[str] = []
            j = i + 1
            while tokens[j].type != "table_close":
                t = tokens[j]
                if t.type == "tbody_open":
                    in_head = False
                elif t.type == "tr_open":
                    cells, row_line = [], _line(t)
                elif t.type == "inline":
                    cells.append(_inline_text(t))
                elif t.type == "tr_close":
                    if in_head:
                        header = cells
                    else:
                        rows.append((row_line, cells))
                j += 1
            out["tables"].append((line, header, rows))
            i = j
        i += 1
    return out


def main() -> int:
    """Compare on every spec file; print the differences' counts and both timings."""
    spec = Path(os.environ.get("OASIS_SPEC_DIR", ROOT.parent / "shared" / "oasis-spec"))
    files = sorted(spec.rglob("*.md"))
    if not files:
        print(f"no markdown under {spec}", file=sys.stderr)
        return 2
    texts = [f.read_text(encoding="utf-8") for f in files]
    totals: dict[str, list[int]] = {k: [0, 0] for k in ("headings", "code", "tables", "rows")}
    examples: list[str] = []
    for path, text in zip(files, texts):
        a, b = ours(text), theirs(text)
        for kind in ("headings", "code", "tables"):
            totals[kind][0] += len(a[kind])
            same = [x for x in a[kind] if x in b[kind]]
            totals[kind][1] += len(same)
            for x in a[kind]:
                if x not in b[kind] and len(examples) < 8:
                    examples.append(f"{path.relative_to(spec)}: {kind} {str(x)[:160]}")
        ours_rows = {(r[0], tuple(r[1])) for t in a["tables"] for r in t[2]}
        their_rows = {(r[0], tuple(r[1])) for t in b["tables"] for r in t[2]}
        totals["rows"][0] += len(ours_rows)
        totals["rows"][1] += len(ours_rows & their_rows)
    for name, fn in (("oasis-eval reader", ours), ("markdown-it-py", theirs)):
        start = time.perf_counter()
        for _ in range(5):
            for text in texts:
                fn(text)
        print(f"{name}: {1000 * (time.perf_counter() - start) / 5:.1f} ms for {len(files)} files")
    for kind, (total, alike) in totals.items():
        print(f"{kind}: {alike}/{total} read alike")
    for line in examples:
        print("differs:", line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
