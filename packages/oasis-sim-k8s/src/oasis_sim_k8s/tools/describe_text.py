"""The text machinery of ``kubectl describe``: a Go-``tabwriter`` emulation (padding 2)
so alignment follows kubectl's, indented sections, maps, selectors and the Events section."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .k8s_cells import expression_text
from .k8s_format import age

Fetch = Callable[..., list[dict[str, Any]]]


def tabwriter(lines: list[str], padding: int = 2) -> str:
    """Go's text/tabwriter (minwidth 0, padding ``padding``, blank padding)."""
    cells = [ln.split("\t") for ln in lines]
    out: list[str] = []
    _fmt(cells, out, padding, 0, len(cells), [])
    return "\n".join(out) + "\n"


def _write(cells: list[list[str]], out: list[str], a: int, b: int, widths: list[int]) -> None:
    for row in cells[a:b]:
        parts = []
        for j, c in enumerate(row):
            parts.append(c.ljust(widths[j]) if j < len(widths) and j < len(row) - 1 else c)
        out.append("".join(parts).rstrip())


def _fmt(
    cells: list[list[str]], out: list[str], padding: int, line0: int, line1: int, widths: list[int]
) -> None:
    """One column block of :func:`tabwriter` (module-level: a closure calling itself is a
    reference cycle that keeps every cell until a collection)."""
    column = len(widths)
    this = line0
    while this < line1:
        if column >= len(cells[this]) - 1:
            this += 1
            continue
        _write(cells, out, line0, this, widths)
        line0 = this
        width = 0
        while this < line1 and column < len(cells[this]) - 1:
            width = max(width, len(cells[this][column]) + padding)
            this += 1
        _fmt(cells, out, padding, line0, this, widths + [width])
        line0 = this
    _write(cells, out, line0, line1, widths)


class W:
    """kubectl's PrefixWriter: ``w(level, "Key:\\tvalue")``."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, level: int, text: str) -> None:
        prefix = "  " * level
        for ln in text.split("\n"):
            self.lines.append(prefix + ln)

    def text(self) -> str:
        return tabwriter(self.lines)


def _map(w: W, level: int, title: str, values: dict[str, Any] | None, sep: str = "=") -> None:
    items = sorted((values or {}).items())
    if not items:
        w(level, f"{title}:\t<none>")
        return
    for n, (k, v) in enumerate(items):
        shown = f"{k}{sep}{v}" if sep == "=" else f"{k}: {v}"
        w(level, f"{title + ':' if n == 0 else ''}\t{shown}")


def _annotations(w: W, level: int, meta: dict[str, Any]) -> None:
    ann = {
        k: v
        for k, v in (meta.get("annotations") or {}).items()
        if k != "kubectl.kubernetes.io/last-applied-configuration"
    }
    _map(w, level, "Annotations", ann, sep=":")


def _head(w: W, meta: dict[str, Any], namespaced: bool = True) -> None:
    """The lines most describers open with: Name, Namespace, Labels, Annotations."""
    w(0, f"Name:\t{meta['name']}")
    if namespaced:
        w(0, f"Namespace:\t{meta.get('namespace')}")
    _map(w, 0, "Labels", meta.get("labels"))
    _annotations(w, 0, meta)


def _selector_text(sel: dict[str, Any] | None) -> str:
    if not sel:
        return "<none>"
    parts = [f"{k}={v}" for k, v in sorted((sel.get("matchLabels") or {}).items())]
    parts += [expression_text(e) or "" for e in sel.get("matchExpressions") or []]
    return ",".join(p for p in parts if p) or "<none>"


def events_section(env: Any, w: W, obj: dict[str, Any], fetch: Fetch) -> None:
    meta = obj["metadata"]
    ns = meta.get("namespace")
    sel = f"involvedObject.name={meta['name']}"
    if ns:
        sel += f",involvedObject.namespace={ns}"
    items = fetch("events", ns or "default" if ns else None, field_selector=sel)
    items = [
        e
        for e in items
        if (e.get("involvedObject") or {}).get("kind") in (obj.get("kind"), None)
        and (
            not meta.get("uid")
            or (e.get("involvedObject") or {}).get("uid") in (None, meta.get("uid"))
        )
    ]
    if not items:
        w(0, "Events:\t<none>")
        return
    items.sort(key=lambda e: e.get("lastTimestamp") or e.get("eventTime") or "")
    w(0, "Events:")
    w(1, "Type\tReason\tAge\tFrom\tMessage")
    w(1, "----\t------\t----\t----\t-------")
    for e in items:
        count = int(e.get("count") or 1)
        first = (
            e.get("firstTimestamp") or e.get("eventTime") or e["metadata"].get("creationTimestamp")
        )
        if count > 1:
            interval = f"{age(env, e.get('lastTimestamp'))} (x{count} over {age(env, first)})"
        else:
            interval = age(env, first)
        source = (e.get("source") or {}).get("component") or e.get("reportingComponent") or ""
        w(
            1,
            f"{e.get('type', 'Normal')}\t{e.get('reason', '')}\t{interval}\t{source}\t{str(e.get('message', '')).strip()}",
        )
