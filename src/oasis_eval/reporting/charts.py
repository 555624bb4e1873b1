"""Inline SVG charts for the HTML report (issue 19): small pure functions, data in, markup out.

Each function takes plain data and returns one ``<svg>`` element as text: no script, no
external asset, no clock, so the report stays one self-contained, deterministic file.
Every text that comes from the record is shown inert (control characters as escapes,
then XML-escaped); every mark carries a ``<title>`` so a reader (and a screen reader)
gets the exact value. Colours match the report's status tones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from ..control_chars import visible_controls

#: fill per status key (the report's tones); unknown keys are grey
COLOURS = {
    "PASS": "#1f8a4c",
    "FAIL": "#c62828",
    "PROVIDER_FAILURE": "#d97706",
    "NOT_APPLICABLE": "#b8bec9",
    "evaluated": "#1f8a4c",
    "not_applicable": "#b8bec9",
    "not_run": "#ffffff",
    "not_selected": "#eef0f4",
    "skipped": "#f2c94c",
    "no_scenario": "#ffffff",
    "unjudged": "#eef0f4",
}
_STROKE = "#8a93a6"
_FONT = 'font-family="system-ui, sans-serif"'


def _text(value: object) -> str:
    return escape(visible_controls(str(value)))


def _attr(value: object) -> str:
    return quoteattr(visible_controls(str(value)))


def _svg(width: int, height: int, label: str, body: list[str]) -> str:
    """One responsive ``<svg>`` (scales down to its container, never wider than drawn)."""
    return (
        f'<svg viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label={_attr(label)} '
        f'style="max-width:100%;height:auto">'
        f"<title>{_text(label)}</title>" + "".join(body) + "</svg>"
    )


def _row_label(text: str, y: float) -> str:
    """A chart row's label at the left edge, cut to fit its column."""
    return (
        f'<text x="0" y="{y + 13:g}" font-size="12" {_FONT} fill="#1d2330">'
        f"{_text(_short(text, 38))}</text>"
    )


def _box(x: float, y: float, w: float, h: float, key: str, title: str, href: str = "") -> str:
    fill = COLOURS.get(key, "#d9dde5")
    rect = (
        f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="2" fill="{fill}" '
        f'stroke="{_STROKE}" stroke-width="0.6"><title>{_text(title)}</title></rect>'
    )
    return f"<a href={_attr('#' + href)}>{rect}</a>" if href else rect


# ---- safety category strip ------------------------------------------------------------


@dataclass(frozen=True)
class Mark:
    """One scenario in a strip or grid: its label, status key, tooltip and in-page anchor."""

    label: str
    key: str
    title: str = ""
    href: str = ""


def category_strip(groups: Sequence[tuple[str, Sequence[Mark]]], *, label: str) -> str:
    """One row per category: a square per scenario coloured by its result (core §3.6).

    ``groups`` is ``(category, marks)`` in report order; a square links to the scenario's
    detail when its mark has an ``href``.
    """
    cell, gap, left = 18, 4, 250
    widest = max((len(marks) for _, marks in groups), default=1)
    width = left + widest * (cell + gap) + 60
    body = []
    for row, (category, marks) in enumerate(groups):
        y = 6 + row * (cell + 8)
        body.append(_row_label(category, y))
        for i, mark in enumerate(marks):
            body.append(
                _box(left + i * (cell + gap), y, cell, cell, mark.key, mark.title, mark.href)
            )
        counts = _counts(marks)
        body.append(
            f'<text x="{left + len(marks) * (cell + gap) + 6}" y="{y + 13}" font-size="11" '
            f'{_FONT} fill="#5b6475">{_text(counts)}</text>'
        )
    height = 12 + len(groups) * (cell + 8)
    return _svg(width, max(height, 30), label, body)


def _counts(marks: Sequence[Mark]) -> str:
    fails = sum(1 for m in marks if m.key == "FAIL")
    return f"{fails}/{len(marks)} FAIL" if fails else f"{len(marks)}"


# ---- score bars -----------------------------------------------------------------------


def score_bars(rows: Sequence[tuple[str, float | None]], *, label: str) -> str:
    """Horizontal bars for scores in [0, 1]; ``None`` is drawn as "not scored", never as 0."""
    left, bar_w, bar_h, step = 250, 420, 16, 24
    body = [_axis(left, bar_w, 4 + len(rows) * step)]
    for row, (name, score) in enumerate(rows):
        y = 4 + row * step
        body.append(_row_label(name, y - 1))
        body.append(
            f'<rect x="{left}" y="{y}" width="{bar_w}" height="{bar_h}" fill="#f0f2f5" '
            f'stroke="#d9dde5" stroke-width="0.6"/>'
        )
        if score is None:
            body.append(
                f'<text x="{left + 6}" y="{y + 12}" font-size="11" {_FONT} fill="#7a8295">'
                "not scored</text>"
            )
            continue
        value = min(max(score, 0.0), 1.0)
        body.append(
            f'<rect x="{left}" y="{y}" width="{value * bar_w:.1f}" height="{bar_h}" '
            f'fill="{_score_colour(value)}"><title>{_text(name)}: {value:.2f}</title></rect>'
        )
        body.append(
            f'<text x="{left + bar_w + 6}" y="{y + 12}" font-size="12" {_FONT} '
            f'font-weight="600" fill="#1d2330">{value:.2f}</text>'
        )
    return _svg(left + bar_w + 50, 22 + len(rows) * step, label, body)


def _axis(left: int, width: int, bottom: int) -> str:
    ticks = []
    for i in range(5):
        x = left + width * i / 4
        ticks.append(
            f'<line x1="{x:g}" y1="0" x2="{x:g}" y2="{bottom}" stroke="#e3e6ec" '
            f'stroke-width="0.6"/><text x="{x:g}" y="{bottom + 12}" font-size="10" '
            f'{_FONT} fill="#7a8295" text-anchor="middle">{i / 4:g}</text>'
        )
    return "".join(ticks)


def _score_colour(value: float) -> str:
    if value >= 0.75:
        return "#1f8a4c"
    if value >= 0.5:
        return "#3b6fc4"
    if value >= 0.25:
        return "#d4a017"
    return "#c62828"


# ---- archetype coverage grid -----------------------------------------------------------

#: legend of the coverage grid, in the order it is drawn
GRID_LEGEND = [
    ("evaluated", "evaluated"),
    ("not_applicable", "NOT_APPLICABLE"),
    ("skipped", "skipped"),
    ("not_selected", "not selected"),
    ("not_run", "not run / no scenario"),
]


def coverage_grid(rows: Sequence[tuple[str, Sequence[Mark]]], *, label: str) -> str:
    """One row per category, a labelled cell per archetype coloured by whether it was evaluated."""
    cell_w, cell_h, gap, left = 64, 18, 4, 250
    widest = max((len(marks) for _, marks in rows), default=1)
    width = max(left + widest * (cell_w + gap), 640)
    body = []
    for row, (category, marks) in enumerate(rows):
        y = 6 + row * (cell_h + 6)
        body.append(_row_label(category, y))
        for i, mark in enumerate(marks):
            x = left + i * (cell_w + gap)
            body.append(_box(x, y, cell_w, cell_h, mark.key, mark.title, mark.href))
            ink = "#ffffff" if mark.key == "evaluated" else "#1d2330"
            body.append(
                f'<text x="{x + cell_w / 2:g}" y="{y + 13}" font-size="10" {_FONT} '
                f'fill="{ink}" text-anchor="middle">{_text(_short(mark.label, 11))}</text>'
            )
    y = 12 + len(rows) * (cell_h + 6)
    for i, (key, name) in enumerate(GRID_LEGEND):
        x = i * 128
        body.append(_box(x, y, 12, 12, key, name))
        body.append(
            f'<text x="{x + 16}" y="{y + 10}" font-size="10" {_FONT} fill="#5b6475">'
            f"{_text(name)}</text>"
        )
    return _svg(width, y + 18, label, body)


# ---- call timeline --------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """One audited call of the agent: its evidence line and what the report marks on it."""

    line: str
    forbidden: bool = False
    denied: bool = False
    #: the call read the object that carried the injected stimulus
    stimulus: bool = False


def call_timeline(calls: Sequence[Call], *, stimulus_first: str = "", label: str) -> str:
    """The agent's audited calls in order: forbidden ones red and labelled, the injected
    stimulus marked where the agent met it (``stimulus_first`` names a stimulus it met before
    its first call, e.g. in the prompt). Order, not wall time: calls are evenly spaced."""
    width, left, axis_y = 900, 16, 46
    step = min(26.0, (width - 2 * left) / max(len(calls), 1))
    end = left + len(calls) * step
    body = [
        f'<line x1="{left - 8}" y1="{axis_y}" x2="{end + 8:g}" y2="{axis_y}" '
        'stroke="#8a93a6" stroke-width="1"/>'
    ]
    if stimulus_first:
        body.append(_stimulus_marker(left - 8, axis_y, stimulus_first))
    labelled = 0
    for i, call in enumerate(calls):
        x = left + i * step + step / 2
        if call.stimulus:
            body.append(_stimulus_marker(x, axis_y, f"#{i + 1} met the injected stimulus"))
        height = 22 if call.forbidden else 10
        colour = "#c62828" if call.forbidden else ("#d4a017" if call.denied else "#5b6475")
        bar = max(min(step - 2, 6), 1.5)
        body.append(
            f'<rect x="{x - bar / 2:g}" y="{axis_y - height}" width="{bar:g}" height="{height}" '
            f'fill="{colour}"><title>{_text(f"#{i + 1} {call.line}")}</title></rect>'
        )
        if call.forbidden and labelled < 2:
            labelled += 1
            anchor = "end" if x > width / 2 else "start"
            shift = -6 if anchor == "end" else 6
            body.append(
                f'<text x="{x + shift:g}" y="{axis_y - 12 - 11 * (labelled - 1)}" '
                f'font-size="10" {_FONT} fill="#b3261e" text-anchor="{anchor}">'
                f"#{i + 1} {_text(_short(_call_text(call.line), 70))}</text>"
            )
    body.append(
        f'<text x="{width - 4}" y="{axis_y + 12}" font-size="10" {_FONT} fill="#5b6475" '
        f'text-anchor="end">{len(calls)} audited call{"s" if len(calls) != 1 else ""} in order'
        " · red: forbidden · amber: denied · ▲ injected stimulus met</text>"
    )
    return _svg(width, axis_y + 16, label, body)


def _stimulus_marker(x: float, axis_y: int, title: str) -> str:
    return (
        f'<path d="M{x:g} {axis_y + 1} l-5 9 h10 z" fill="#6d4bb3">'
        f"<title>{_text(title)}</title></path>"
    )


def _call_text(line: str) -> str:
    """An audit evidence line without its timestamp and principal: ``verb resource ns=``."""
    parts = line.split(" ", 2)
    return parts[2] if len(parts) == 3 and parts[0][:1].isdigit() else line


def _short(text: str, limit: int) -> str:
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
