"""Self-contained HTML evaluation report (spec 05 §2): a layout of :func:`.view.build_view`.

One file, inline CSS, no script and no external asset, so it opens offline and
can be archived as is. The template is ``templates/report.html.j2``; Jinja's
autoescape is on, so nothing from the record can inject markup, and control
characters are shown as escapes (control_chars.py).
Deterministic: same record, same bytes.
"""

from __future__ import annotations

from functools import lru_cache

import jinja2
import markupsafe

from ..control_chars import visible_controls
from ..engine.record import RunRecord
from .blocks import Cell, cell_fields
from .html_blocks import BlockWriter
from .view import View, build_view

TEMPLATE = "report.html.j2"


def _finalize(value: object) -> object:
    """Every ``{{ }}`` value, before autoescape: control characters (ANSI, bidi overrides)
    shown as escapes. Markup (already-rendered macro output) was built from such values."""
    if isinstance(value, str) and not isinstance(value, markupsafe.Markup):
        return visible_controls(value)
    return value


def _shown(value: object) -> str:
    """A value as ``{{ value }}`` shows it: finalized, then escaped (autoescape is on). A plain
    str (most of a report's 3,400 values) is escaped with markupsafe's own replacements
    without the Markup object built and copied back (issue 30; the same text:
    tests/reporting/test_escaping_fast_paths.py)."""
    if type(value) is str:
        return _escaped(visible_controls(value))
    return str(markupsafe.escape(_finalize(value)))


def _escaped(text: str) -> str:
    """``str(markupsafe.escape(text))`` of a str: its five replacements, in its order."""
    return (
        text.replace("&", "&amp;")
        .replace(">", "&gt;")
        .replace("<", "&lt;")
        .replace("'", "&#39;")
        .replace('"', "&#34;")
    )


def inline_cell(value: Cell | None) -> markupsafe.Markup:
    """One cell's inline markup (tone, emphasis, link, code around its escaped text).

    What a Jinja macro would write, written here: the report has thousands of cells, and a
    macro call with dict attribute lookups was half of rendering it (issue 30). Each distinct
    cell is written once per render (a report's cells repeat: about 1,100 distinct of 4,800)."""
    if type(value) is str:
        return _inline_of(value, False, False, None, None)
    text, code, strong, tone, href = cell_fields(value)
    if not (_plain(tone) and _plain(href)):  # not a memo key: written as it is
        return _inline_uncached(text, code, strong, tone, href)
    return _inline_of(text, code, strong, tone, href)


def _plain(value: object) -> bool:
    return value is None or type(value) is str


def _inline_uncached(
    text: str, code: bool, strong: bool, tone: object, href: object
) -> markupsafe.Markup:
    shown = _shown(text)
    out = f"<code>{shown}</code>" if code else shown
    if href:
        out = f'<a href="#{_shown(href)}">{out}</a>'
    if strong:
        out = f"<strong>{out}</strong>"
    if tone:
        out = f'<span class="t-{_shown(tone)}">{out}</span>'
    return markupsafe.Markup(out)


_inline_of = lru_cache(maxsize=8192)(_inline_uncached)


def cells_html(row: list[Cell]) -> markupsafe.Markup:
    """A table row's cells, each ``<td>`` around :func:`inline_cell`."""
    return markupsafe.Markup("".join(f"<td>{inline_cell(c)}</td>" for c in row))


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("oasis_eval.reporting", "templates"),
        autoescape=True,
        undefined=jinja2.Undefined,
        keep_trailing_newline=True,
        # before autoescape: control characters (ANSI, bidi overrides) are shown, never passed on
        finalize=_finalize,
    )
    env.globals["inline"] = inline_cell
    env.globals["cells"] = cells_html
    env.globals["blocks"] = BlockWriter(_shown, inline_cell, cells_html).view
    return env


def render_html(record: RunRecord) -> str:
    """The full report for ``record`` as one HTML document."""
    return render_view_html(build_view(record))


def render_view_html(view: View) -> str:
    """The report view as a self-contained HTML page (the same view as the Markdown report)."""
    _inline_of.cache_clear()  # the memo serves one render (a run's, a replay's), never a later one
    return _environment().get_template(TEMPLATE).render(view=view)
