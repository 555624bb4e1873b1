"""blocks.cell_fields reads a cell as cell_parts does, without the dict (issue 30, session
34): the renderers' inline cells are the same text."""

from __future__ import annotations

import itertools

from oasis_eval.reporting.blocks import cell, cell_fields, cell_parts

_KEYS = ("text", "code", "strong", "tone", "href")


def _cells() -> list[object]:
    values = [None, "", "x", 0, 1, "pass", True, 2.5, ["a"]]
    out: list[object] = [None, "", "plain", "a | b", 0, 3.5]
    for combo in itertools.product(values, repeat=2):
        for keys in itertools.combinations(_KEYS, 2):
            out.append(dict(zip(keys, combo, strict=True)))
    out += [{}, {"text": "t", "extra": 1}, cell("x", code=True, tone="fail", href="s-1")]
    out.append(cell("y", strong=True))
    return out


def test_cell_fields_are_cell_parts_values() -> None:
    cells = _cells()
    assert len(cells) > 300
    for value in cells:
        assert cell_fields(value) == tuple(cell_parts(value)[k] for k in _KEYS), value  # type: ignore[arg-type]
