"""The HTML report's blocks written in Python are the bytes the Jinja macro wrote (issue 30).

``legacy_blocks.html.j2`` is the recursive macro ``report.html.j2`` used until the block
writer (``reporting/html_blocks.py``) replaced it; both render here, in the report's own
Jinja environment (autoescape, control characters shown), over every fixture record's view
and a view of every block kind with hostile, missing and ``None`` values."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from oasis_eval.reporting import html
from oasis_eval.reporting.view import build_view

from .conftest import RECORDS

_LEGACY = (
    (Path(__file__).with_name("legacy_blocks.html.j2"))
    .read_text(encoding="utf-8")
    .removesuffix("\n")
)
_HOSTILE = '<script>&"\x1b[31m\u202e|`_*'


def _legacy(view: Any) -> str:
    html._inline_of.cache_clear()
    return html._environment().from_string(_LEGACY).render(view=view)


def _written(view: Any) -> str:
    html._inline_of.cache_clear()
    return str(html._environment().globals["blocks"](view))


def _every_kind() -> dict[str, Any]:
    cells: list[Any] = [
        _HOSTILE,
        {"text": _HOSTILE, "code": True, "strong": True, "tone": "fail", "href": "a<b"},
        {"text": "t", "code": False, "strong": False, "tone": None},
        "",
    ]
    leaf = [
        {"kind": "para", "text": cells[1], "strong": True},
        {"kind": "para", "text": _HOSTILE},
        {"kind": "para"},
        {"kind": "callout", "tone": "warn", "title": _HOSTILE, "items": cells, "banner": True},
        {"kind": "callout", "tone": None, "title": None, "items": []},
        {"kind": "kv", "rows": [(_HOSTILE, cells[1]), ("k", "v")]},
        {"kind": "table", "columns": [_HOSTILE, "b"], "rows": [cells[:2], cells[2:]]},
        {"kind": "table", "columns": ["a"], "rows": [], "empty": _HOSTILE},
        {"kind": "table", "columns": ["a"]},
        {"kind": "list", "items": cells},
        {"kind": "list", "items": []},
        {"kind": "svg", "markup": "<svg><text>x</text></svg>", "alt": _HOSTILE},
        {"kind": "toc", "entries": [["a", _HOSTILE, [["b", "c<"]]], ["d", "e", []]]},
        {"kind": "code", "lines": [_HOSTILE, "two\tlines"]},
        {"kind": "code", "lines": []},
        {"kind": "unknown"},
    ]
    sections = [
        {"kind": "section", "id": "s<1", "title": _HOSTILE, "blocks": leaf, "note": _HOSTILE},
        {"kind": "section", "id": "s2", "title": "t", "blocks": leaf, "separate": True},
        {"kind": "section", "id": "s3", "title": "t", "blocks": leaf, "collapsed": True, "note": "n"},
        {"kind": "section", "id": "s4", "title": None, "blocks": leaf, "collapsed": True},
        {"kind": "section", "id": "s5", "title": "t", "blocks": leaf, "collapsed": True, "lead": leaf[:3], "note": "<n>"},
        {"kind": "section", "id": "s6", "title": "t", "blocks": leaf, "collapsed": True, "lead": leaf[:1]},
        {"kind": "section", "title": "no id", "lead": leaf[:2], "blocks": [
            {"kind": "section", "id": f"deep{d}", "title": "d", "blocks": leaf[:1]} for d in range(7)
        ]},
    ]  # fmt: skip
    nested = sections[-1]
    for d in range(6):  # depth past h6
        nested = {"kind": "section", "id": f"n{d}", "title": "n", "blocks": [nested]}
    return {"header": leaf, "sections": [*sections, nested]}


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_a_record_s_blocks_are_the_macro_s_bytes(name: str) -> None:
    view = build_view(RECORDS[name]())
    assert _written(view) == _legacy(view)


def test_every_block_kind_and_value_is_the_macro_s_bytes() -> None:
    view = _every_kind()
    written = _written(view)
    assert "&lt;script&gt;" in written and "\\x1b" in written  # escaped, controls shown
    assert written == _legacy(view)
