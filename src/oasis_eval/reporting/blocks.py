"""The report's intermediate document model: plain dicts and lists.

The view (:mod:`.view`) decides *what* a report says (spec 05 §2) and emits it
as a small tree of blocks; the Markdown and HTML renderers only decide *how*
each block kind looks. Both renderers walk the same tree, so their content
cannot drift apart.

Block kinds (every block is a ``dict`` with a ``kind`` key):

``section``  ``id``, ``title``, ``blocks``; ``separate`` marks a section that
             must stand visually apart (the adversarial block, 07 §6.1); ``collapsed``
             folds ``blocks`` away in HTML (``<details>``) under the title and ``note``,
             ``lead`` blocks stay shown above the fold
``svg``      ``markup`` (an inline chart from :mod:`.charts`), ``alt``: its text (Markdown
             shows only the text)
``toc``      ``entries``: ``[id, title, [[id, title], ...]]``: sections and sub-sections
``para``     ``text`` (a cell), ``strong``
``callout``  ``tone``, ``title``, ``items`` (cells): a prominent notice
``kv``       ``rows``: ``[key, cell]`` pairs
``table``    ``columns``, ``rows`` (lists of cells), ``empty`` (text shown when no rows)
``list``     ``items`` (cells)
``code``     ``lines``: preformatted text, shown verbatim

A *cell* is either a plain string or a dict ``{"text", "code", "strong", "tone", "href"}``;
``href`` is an in-page anchor (HTML links it, Markdown shows the text only).
Tones: ``pass``, ``fail``, ``pf`` (provider failure), ``warn``, ``info``, ``muted``.
"""

from __future__ import annotations

import re
from typing import Any

Block = dict[str, Any]
Cell = str | dict[str, Any]

STATUS_TONES = {"PASS": "pass", "FAIL": "fail", "PROVIDER_FAILURE": "pf"}


def cell(
    text: Any,
    *,
    code: bool = False,
    strong: bool = False,
    tone: str | None = None,
    href: str | None = None,
) -> Cell:
    """A table/list cell; plain strings stay plain so the tree remains small."""
    text = "" if text is None else str(text)
    if not (code or strong or tone or href):
        return text
    out: dict[str, Any] = {"text": text, "code": code, "strong": strong, "tone": tone}
    if href:
        out["href"] = href
    return out


def anchor(sid: str) -> str:
    """A section id safe as an HTML id and URL fragment: other characters become ``-``."""
    return re.sub(r"[^A-Za-z0-9._-]", "-", sid)


def scenario_anchor(scenario_id: str) -> str:
    """The id of a scenario's detail entry (05 §2.6), the target of every link to it."""
    return anchor(f"scenario-{scenario_id}")


def status_cell(status: str | None) -> Cell:
    """A verdict status (core §3.6) shown with its tone; ``-`` when there is none."""
    if not status:
        return cell("-", tone="muted")
    return cell(status, strong=True, tone=STATUS_TONES.get(status))


def code(text: Any) -> Cell:
    """A cell rendered as code."""
    return cell(text, code=True)


def section(
    sid: str,
    title: str,
    blocks: list[Block],
    *,
    separate: bool = False,
    collapsed: bool = False,
    note: str = "",
    lead: list[Block] | None = None,
) -> Block:
    """A titled report section; ``separate`` starts it on its own page/rule; ``collapsed``
    folds ``blocks`` under the title and ``note`` (``lead`` stays shown)."""
    return {
        "kind": "section",
        "id": anchor(sid),
        "title": title,
        "blocks": blocks,
        "separate": separate,
        "collapsed": collapsed,
        "note": note,
        "lead": list(lead or []),
    }


def svg(markup: str, alt: str) -> Block:
    """An inline chart (markup from :mod:`.charts`) with its text alternative."""
    return {"kind": "svg", "markup": markup, "alt": alt}


def toc(entries: list[tuple[str, str, list[tuple[str, str]]]]) -> Block:
    """A table of contents: ``(section id, title, [(sub-section id, title)])`` in order."""
    return {
        "kind": "toc",
        "entries": [[sid, title, [list(c) for c in children]] for sid, title, children in entries],
    }


def para(text: Cell, *, strong: bool = False) -> Block:
    """A paragraph block."""
    return {"kind": "para", "text": text, "strong": strong}


def callout(tone: str, title: str, items: list[Cell] | None = None) -> Block:
    """A highlighted note with a tone (info, warn, ...) and optional bullet items."""
    return {"kind": "callout", "tone": tone, "title": title, "items": list(items or [])}


def kv(rows: list[tuple[str, Cell]]) -> Block:
    """A two-column key/value block."""
    return {"kind": "kv", "rows": [[key, value] for key, value in rows]}


def table(columns: list[str], rows: list[list[Cell]], empty: str = "None.") -> Block:
    """A table; ``empty`` is shown instead when there are no rows."""
    return {"kind": "table", "columns": list(columns), "rows": rows, "empty": empty}


def bullets(items: list[Cell]) -> Block:
    """A bullet-list block."""
    return {"kind": "list", "items": list(items)}


def code_block(lines: list[str]) -> Block:
    """A preformatted block of lines."""
    return {"kind": "code", "lines": list(lines)}


def cell_parts(value: Cell | None) -> dict[str, Any]:
    """Normalise a cell to its dict form."""
    if isinstance(value, dict):
        return {
            "text": str(value.get("text", "")),
            "code": bool(value.get("code")),
            "strong": bool(value.get("strong")),
            "tone": value.get("tone"),
            "href": value.get("href"),
        }
    return {
        "text": "" if value is None else str(value),
        "code": False,
        "strong": False,
        "tone": None,
        "href": None,
    }


def cell_fields(value: Cell | None) -> tuple[str, bool, bool, Any, Any]:
    """``(text, code, strong, tone, href)`` of :func:`cell_parts`, without the dict: the
    renderers read a report's ~1,800 non-plain cells twice a run (issue 30, session 34)."""
    if isinstance(value, dict):
        get = value.get
        return (
            str(get("text", "")),
            bool(get("code")),
            bool(get("strong")),
            get("tone"),
            get("href"),
        )
    return ("" if value is None else str(value), False, False, None, None)


# ---- value formatting shared by the view modules ------------------------------------


def one_line(text: Any, limit: int | None = None) -> str:
    """Collapse whitespace; cut at ``limit`` characters with an ellipsis."""
    flat = " ".join(str(text or "").split())
    if limit is not None and len(flat) > limit:
        return flat[: limit - 1].rstrip() + "…"
    return flat


def fmt_num(value: float | int | None, digits: int = 2) -> str:
    """Numbers without float noise: ``5`` not ``5.0``, ``0.83`` not ``0.8333333``."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) or float(value).is_integer():
        return str(int(value))
    text = f"{value:.{digits}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def fmt_pct(value: float | None) -> str:
    """A percentage for the report, "-" when not measured."""
    return "-" if value is None else f"{fmt_num(value)}%"


def fmt_score(value: float | None) -> str:
    """A score with two decimals, "-" when there is none."""
    return "-" if value is None else f"{value:.2f}"


def fmt_value(value: Any) -> str:
    """A configuration / condition value as a short literal."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(fmt_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {fmt_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, float):
        return fmt_num(value, digits=4)
    return str(value)


def fmt_conditions(conditions: dict[str, Any]) -> str:
    """Recorded conditions as ``key = value`` pairs, or a note that there are none."""
    if not conditions:
        return "(no condition recorded)"
    return "; ".join(f"{key} = {fmt_value(value)}" for key, value in conditions.items())


def yes_no(flag: bool) -> str:
    """ "yes" or "no"."""
    return "yes" if flag else "no"


def plural(count: int, word: str, many: str | None = None) -> str:
    """``count`` with ``word`` in the singular or plural (``many``, else ``word`` + "s")."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


#: agent-written text longer than this is cut in the report (the evidence file keeps it all)
AGENT_TEXT_LIMIT = 4000


def clip(text: str, limit: int = AGENT_TEXT_LIMIT) -> tuple[str, int | None]:
    """``text`` cut to at most ``limit`` characters, preferably at a line break.

    Returns the (possibly) shortened text and the original length when it was
    cut, ``None`` otherwise. Deterministic: depends on the text only.
    """
    if len(text) <= limit:
        return text, None
    head = text[:limit]
    newline = head.rfind("\n")
    if newline >= limit * 0.8:  # a line break near the end: cut there, not mid-line
        head = head[:newline]
    return head.rstrip(), len(text)
