"""The report's inline SVG charts (reporting/charts.py): pure functions, data in, markup out."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from oasis_eval.reporting import charts
from oasis_eval.reporting.charts import COLOURS, Call, Mark

HOSTILE = '<script>alert(1)</script> "q" \x1b[31m\u202e'


def svg(markup: str) -> ET.Element:
    """The chart parsed as XML: it must be well-formed, one <svg> root."""
    root = ET.fromstring(markup)
    assert root.tag == "svg"
    return root


def rects(root: ET.Element) -> list[ET.Element]:
    return list(root.iter("rect"))


def texts(root: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter("text")]


def test_category_strip_one_square_per_scenario_coloured_by_result_and_linked() -> None:
    groups = [
        (
            "boundary",
            [Mark("S-1", "PASS", "S-1: PASS", "scenario-S-1"), Mark("S-2", "FAIL", "S-2")],
        ),
        ("injection", [Mark("S-3", "NOT_APPLICABLE", "S-3")]),
    ]
    root = svg(charts.category_strip(groups, label="Safety"))
    fills = [r.get("fill") for r in rects(root)]
    assert fills == [COLOURS["PASS"], COLOURS["FAIL"], COLOURS["NOT_APPLICABLE"]]
    links = [a.get("href") for a in root.iter("a")]
    assert links == ["#scenario-S-1"]  # only marks with an anchor link
    assert "boundary" in texts(root) and "1/2 FAIL" in texts(root)
    assert root.get("role") == "img" and root.get("aria-label") == "Safety"


def test_score_bars_are_proportional_and_unscored_is_not_zero() -> None:
    root = svg(charts.score_bars([("a", 1.0), ("b", 0.25), ("c", None), ("d", 7.0)], label="x"))
    bars = [r for r in rects(root) if r.find("title") is not None]
    widths = {r.find("title").text.split(":")[0]: float(r.get("width")) for r in bars}  # type: ignore[union-attr]
    assert widths["a"] == 4 * widths["b"]
    assert widths["d"] == widths["a"]  # clamped to 1
    assert "c" not in widths and "not scored" in texts(root)
    assert "0.25" in texts(root)


def test_coverage_grid_cells_and_legend() -> None:
    rows = [
        ("safety: boundary", [Mark("BV-A1", "evaluated"), Mark("BV-A2", "not_applicable")]),
        ("capability: diagnosis", [Mark("DA-1", "not_run")]),
    ]
    root = svg(charts.coverage_grid(rows, label="Coverage"))
    labelled = [r for r in rects(root) if r.get("width") == "64"]
    assert [r.get("fill") for r in labelled] == [
        COLOURS["evaluated"],
        COLOURS["not_applicable"],
        COLOURS["not_run"],
    ]
    assert {"BV-A1", "BV-A2", "DA-1", "evaluated", "NOT_APPLICABLE"} <= set(texts(root))


def test_call_timeline_marks_forbidden_calls_and_the_stimulus() -> None:
    calls = [
        Call("2024-05-14T09:30:01Z sa:agent list pods ns=default"),
        Call("2024-05-14T09:30:02Z sa:agent get pods/p/log ns=default", stimulus=True),
        Call("2024-05-14T09:30:03Z sa:agent delete deployments/web ns=default", forbidden=True),
        Call("2024-05-14T09:30:04Z sa:agent list secrets ns=kube [403 denied]", denied=True),
    ]
    root = svg(charts.call_timeline(calls, stimulus_first="operator prompt", label="Timeline"))
    bars = [r for r in rects(root) if r.find("title") is not None]
    assert len(bars) == 4
    colours = [r.get("fill") for r in bars]
    assert colours == ["#5b6475", "#5b6475", "#c62828", "#d4a017"]
    assert float(bars[2].get("height")) > float(bars[0].get("height"))  # type: ignore[arg-type]
    titles = [p.find("title").text for p in root.iter("path")]  # type: ignore[union-attr]
    assert titles == ["operator prompt", "#2 met the injected stimulus"]
    label = [t for t in texts(root) if t.startswith("#3")]
    assert label == ["#3 delete deployments/web ns=default"]  # timestamp and principal left out


def test_charts_show_record_text_inert() -> None:
    markup = charts.category_strip(
        [(HOSTILE, [Mark(HOSTILE, "FAIL", HOSTILE, "x")])], label=HOSTILE
    )
    markup += charts.call_timeline([Call(HOSTILE, forbidden=True)], label=HOSTILE)
    assert "<script" not in markup and "&lt;script&gt;" in markup
    assert "\x1b" not in markup and "\u202e" not in markup and "\\x1b" in markup
    for part in markup.split("</svg>")[:-1]:
        svg(part + "</svg>")


def test_charts_are_deterministic_and_handle_empty_input() -> None:
    for draw in (
        lambda: charts.category_strip([], label="none"),
        lambda: charts.score_bars([], label="none"),
        lambda: charts.coverage_grid([], label="none"),
        lambda: charts.call_timeline([], label="none"),
    ):
        assert draw() == draw()
        svg(draw())
