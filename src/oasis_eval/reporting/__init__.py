"""Reports of an evaluation run (spec 05): verdict files, Markdown, HTML and JUnit.

Every renderer is a pure function of a :class:`~oasis_eval.engine.record.RunRecord`
(the verdict of 05 §1 plus the report content of 05 §2), so the same record
always gives the same bytes. Markdown and HTML are two layouts of one view
(:func:`build_view`) and cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from ..engine.record import RunRecord
from ..engine.verdict_io import (
    VerdictFileError,
    load_verdict,
    validate_verdict_data,
    verdict_data,
    verdict_json,
    verdict_yaml,
)
from .html import render_html, render_view_html
from .junit import render_junit
from .markdown import render_markdown, render_view_markdown
from .summary import render_summary
from .view import View, build_view

#: the formats that are layouts of the one report view (:func:`build_view`)
_VIEW_LAYOUTS: dict[str, Callable[[View], str]] = {
    "md": render_view_markdown,
    "html": render_view_html,
}
#: format key -> (file name in the run directory, renderer)
REPORT_FORMATS: dict[str, tuple[str, Callable[[RunRecord], str]]] = {
    "md": ("report.md", render_markdown),
    "html": ("report.html", render_html),
    "junit": ("junit.xml", render_junit),
    "summary": ("summary.md", render_summary),
    "yaml": ("verdict.yaml", lambda record: verdict_yaml(record.verdict)),
    "json": ("verdict.json", lambda record: verdict_json(record.verdict)),
}


def write_reports(
    record: RunRecord, run_dir: str | Path, formats: Iterable[str] = ("md", "html", "junit")
) -> dict[str, Path]:
    """Render ``record`` in each of ``formats`` into ``run_dir``; return format -> path.

    Formats: ``md`` (report.md), ``html`` (report.html), ``junit`` (junit.xml),
    ``summary`` (summary.md, the short CI summary),
    ``yaml`` (verdict.yaml), ``json`` (verdict.json). Unknown formats raise
    ``ValueError`` before anything is written.
    """
    wanted = list(dict.fromkeys(formats))
    unknown = [f for f in wanted if f not in REPORT_FORMATS]
    if unknown:
        raise ValueError(
            f"unknown report format(s): {', '.join(unknown)} (known: {', '.join(REPORT_FORMATS)})"
        )
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    written = {}
    for fmt, text in rendered(record, wanted):
        path = run_dir / REPORT_FORMATS[fmt][0]
        path.write_text(text, encoding="utf-8", newline="\n")
        written[fmt] = path
    return written


def rendered(record: RunRecord, formats: Iterable[str]) -> Iterator[tuple[str, str]]:
    """``(format, text)`` of ``record`` in each of ``formats`` (:data:`REPORT_FORMATS` keys),
    one after the other; Markdown and HTML lay out one view, built once (issue 30: writing a
    run's reports and checking a replayed run's both render the two)."""
    views: list[View] = []
    for fmt in formats:
        if fmt in _VIEW_LAYOUTS:
            views = views or [build_view(record)]
            yield fmt, _VIEW_LAYOUTS[fmt](views[0])
        else:
            yield fmt, REPORT_FORMATS[fmt][1](record)


__all__ = [
    "REPORT_FORMATS",
    "VerdictFileError",
    "build_view",
    "load_verdict",
    "render_html",
    "render_junit",
    "render_markdown",
    "render_summary",
    "rendered",
    "validate_verdict_data",
    "verdict_data",
    "verdict_json",
    "verdict_yaml",
    "write_reports",
]
