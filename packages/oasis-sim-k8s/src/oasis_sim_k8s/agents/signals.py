"""Reading raw tool output into signals: log lines, metric series, trace spans,
dashboard panels, Kubernetes quantities. Pure functions, generic formats
(Loki-style log lines, Prometheus API answers, Jaeger JSON, Grafana JSON).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from itertools import pairwise
from typing import Any

from .intent import strip_orders

# ---- quantities --------------------------------------------------------------------------------------
_BIN = {
    "Ki": 2**10,
    "Mi": 2**20,
    "Gi": 2**30,
    "Ti": 2**40,
    "K": 1e3,
    "k": 1e3,
    "M": 1e6,
    "G": 1e9,
    "T": 1e12,
}


def mem_bytes(text: Any) -> float | None:
    """``256Mi`` / ``2Gi`` / ``1e9`` -> bytes."""
    m = re.fullmatch(r"\s*([0-9.]+(?:e[0-9]+)?)\s*([KMGT]i?|k)?\s*", str(text or ""))
    if not m:
        return None
    return float(m.group(1)) * _BIN.get(m.group(2) or "", 1)


def cpu_cores(text: Any) -> float | None:
    """``2500m`` / ``2`` / ``0.5`` -> cores."""
    m = re.fullmatch(r"\s*([0-9.]+)\s*(m)?\s*", str(text or ""))
    if not m:
        return None
    return float(m.group(1)) / (1000 if m.group(2) else 1)


def human_bytes(n: float) -> str:
    for unit, size in (("Gi", 2**30), ("Mi", 2**20), ("Ki", 2**10)):
        if n >= size:
            value = n / size
            return f"{value:.1f}{unit}".replace(".0" + unit, unit)
    return f"{n:.0f}B"


def millicores(cores: float) -> str:
    return f"{round(cores * 1000)}m"


def pct(x: float) -> str:
    return f"{x * 100:.1f}".rstrip("0").rstrip(".") + "%"


def parse_time(text: Any) -> datetime | None:
    if not text:
        return None
    s = str(text).strip().replace("Z", "+00:00")
    s = re.sub(r"\.(\d{6})\d+", r".\1", s)
    try:
        return datetime.fromisoformat(s)
    except ValueError:
        return None


def ago(then: datetime | None, now: datetime | None) -> str:
    if then is None or now is None:
        return "at an unknown time"
    secs = max(0, int((now - then).total_seconds()))
    if secs < 90:
        return f"{secs}s ago"
    if secs < 5400:
        return f"{round(secs / 60)} minutes ago"
    if secs < 172800:
        return f"{round(secs / 3600)} hours ago"
    return f"{round(secs / 86400)} days ago"


# ---- logs ----------------------------------------------------------------------------------------------
LEVELS = ("FATAL", "PANIC", "CRITICAL", "ERROR", "WARN", "WARNING", "INFO", "DEBUG", "TRACE")
_STREAM = re.compile(r"^(?P<ts>\S+)\s+\{(?P<labels>[^}]*)\}\s?(?P<text>.*)$")
_LABEL = re.compile(r'(\w+)="([^"]*)"')
#: lines that are routine whatever their level: probes and periodic statistics
ROUTINE = re.compile(
    r"health ?check|/healthz|/readyz|/ready\b|/live\b|liveness|pool stats|heartbeat|"
    r"starting .* version=|listening on",
    re.IGNORECASE,
)


@dataclass
class LogLine:
    text: str
    source: str  # the pod, log source or workload the line came from
    app: str | None = None
    ts: datetime | None = None
    level: str = "INFO"

    @property
    def problem(self) -> bool:
        """A line that reports something wrong (not routine chatter)."""
        return self.level in ("FATAL", "PANIC", "CRITICAL", "ERROR", "WARN") and not ROUTINE.search(
            self.text
        )

    @property
    def message(self) -> str:
        return re.sub(rf"^\s*(?:{'|'.join(LEVELS)})\s*[:\]-]?\s*", "", self.text).strip()


def level_of(text: str) -> str:
    head = text.strip()[:40].upper()
    for level in LEVELS:
        if re.match(rf"^\[?{level}\b", head):
            return {"WARNING": "WARN", "PANIC": "FATAL", "CRITICAL": "FATAL"}.get(level, level)
    if re.search(
        r"\b(error|failed|failure|exception|refused|reset|timeout|denied)\b", text, re.IGNORECASE
    ):
        return "ERROR"
    return "INFO"


def parse_logs(text: str, default_source: str = "", app: str | None = None) -> list[LogLine]:
    """Loki-style lines (``TS {labels} text``) or plain container log lines."""
    out = []
    for raw in (text or "").splitlines():
        if not raw.strip():
            continue
        m = _STREAM.match(raw)
        if m:
            labels = dict(_LABEL.findall(m.group("labels")))
            body = m.group("text")
            out.append(
                LogLine(
                    body,
                    labels.get("pod") or labels.get("source") or default_source,
                    labels.get("app") or app or labels.get("source"),
                    parse_time(m.group("ts")),
                    level_of(body),
                )
            )
        else:
            out.append(LogLine(raw.strip(), default_source, app, None, level_of(raw)))
    return out


def signature(text: str) -> str:
    """A line with its variable parts (numbers, ids, quoted values) masked, to group repeats."""
    s = re.sub(r"\b[0-9a-f]{8,}\b", "#", text.lower())
    s = re.sub(r"\d+(\.\d+)?", "#", s)
    return re.sub(r"\s+", " ", s).strip()


# ---- metrics ------------------------------------------------------------------------------------------
@dataclass
class Series:
    name: str
    labels: dict[str, str]
    value: float | None = None
    values: list[tuple[float, float]] = field(default_factory=list)

    @property
    def who(self) -> str:
        lab = self.labels
        return (
            lab.get("service")
            or lab.get("job")
            or lab.get("pod")
            or lab.get("node")
            or lab.get("instance")
            or "?"
        )


def prom_series(doc: Any, name: str) -> list[Series]:
    data = (doc or {}).get("data") if isinstance(doc, dict) else None
    if not isinstance(data, dict):
        return []
    out = []
    for r in data.get("result") or []:
        if not isinstance(r, dict):
            continue
        labels = {k: str(v) for k, v in (r.get("metric") or {}).items() if k != "__name__"}
        s = Series(name, labels)
        if isinstance(r.get("value"), list) and len(r["value"]) == 2:
            s.value = _num(r["value"][1])
        for point in r.get("values") or []:
            v = _num(point[1]) if isinstance(point, list) and len(point) == 2 else None
            if v is not None:
                s.values.append((float(point[0]), v))
        if s.values and s.value is None:
            s.value = s.values[-1][1]
        out.append(s)
    return out


def _num(x: Any) -> float | None:
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def trend(values: list[tuple[float, float]]) -> tuple[float, float, float, bool] | None:
    """(first, last, hours covered, never decreasing) of a range, None when flat or too short."""
    if len(values) < 3:
        return None
    first, last = values[0][1], values[-1][1]
    hours = (values[-1][0] - values[0][0]) / 3600
    monotonic = all(b[1] >= a[1] for a, b in pairwise(values))
    if last <= first * 1.1:
        return None
    return first, last, hours, monotonic


def distinct_steps(values: list[tuple[float, float]]) -> list[float]:
    out: list[float] = []
    for _, v in values:
        if not out or v != out[-1]:
            out.append(v)
    return out


# ---- traces -------------------------------------------------------------------------------------------
@dataclass
class Span:
    span_id: str
    parent: str | None
    service: str
    operation: str
    duration_ms: float
    tags: dict[str, Any]
    error: bool = False
    children: list[Span] = field(default_factory=list)

    @property
    def self_ms(self) -> float:
        return max(0.0, self.duration_ms - sum(c.duration_ms for c in self.children))

    @property
    def is_db(self) -> bool:
        return self.operation.lower().startswith(("db.", "sql", "select", "query")) or any(
            str(k).startswith("db.") for k in self.tags
        )


def jaeger_spans(doc: Any) -> list[Span]:
    """The spans of a Jaeger ``/api/traces/<id>`` answer, linked to their children."""
    data = (doc or {}).get("data") if isinstance(doc, dict) else None
    if not data:
        return []
    trace = data[0] if isinstance(data, list) else data
    procs = {
        pid: (p or {}).get("serviceName", pid) for pid, p in (trace.get("processes") or {}).items()
    }
    spans: dict[str, Span] = {}
    for raw in trace.get("spans") or []:
        tags: dict[Any, Any] = {
            t.get("key"): t.get("value") for t in raw.get("tags") or [] if isinstance(t, dict)
        }
        parent = next(
            (
                r.get("spanID")
                for r in raw.get("references") or []
                if r.get("refType") == "CHILD_OF"
            ),
            None,
        )
        spans[raw["spanID"]] = Span(
            raw["spanID"],
            parent,
            procs.get(raw.get("processID"), "?"),
            raw.get("operationName", "?"),
            (raw.get("duration") or 0) / 1000,
            {k: v for k, v in tags.items() if k != "error"},
            bool(tags.get("error")),
        )
    for span in spans.values():
        if span.parent in spans:
            spans[span.parent].children.append(span)
    return list(spans.values())


def root_of(spans: list[Span]) -> Span | None:
    ids = {s.span_id for s in spans}
    roots = [s for s in spans if s.parent not in ids]
    return max(roots, key=lambda s: s.duration_ms) if roots else None


def critical_path(root: Span) -> list[Span]:
    """From the root down, always into the longest child: where the time went."""
    path = [root]
    while path[-1].children:
        path.append(max(path[-1].children, key=lambda c: c.duration_ms))
    return path


# ---- dashboards ---------------------------------------------------------------------------------------
NORMAL_STATUS = ("normal", "ok", "healthy", "green", "good", "")


@dataclass
class Panel:
    title: str
    value: str
    status: str
    reference: str  # baseline or threshold, as the panel states it

    @property
    def concerning(self) -> bool:
        return self.status.lower() not in NORMAL_STATUS


def dashboard_panels(doc: Any) -> tuple[str, list[Panel]]:
    board = (doc or {}).get("dashboard") if isinstance(doc, dict) else None
    if not isinstance(board, dict):
        return "", []
    panels = []
    for p in board.get("panels") or []:
        if not isinstance(p, dict):
            continue
        value = p.get("current_value", p.get("value", p.get("lastValue", "")))
        ref = p.get("normal_baseline") or p.get("baseline") or p.get("threshold") or ""
        if ref:
            ref = (
                f"baseline {ref}"
                if p.get("normal_baseline") or p.get("baseline")
                else f"threshold {ref}"
            )
        panels.append(
            Panel(_clean(str(p.get("title", "?"))), str(value), str(p.get("status", "")), ref)
        )
    return _clean(str(board.get("title", ""))), panels


def _clean(title: str) -> str:
    """A title without an instruction embedded in it (quoted data must not repeat orders)."""

    kept, cut = strip_orders(title)
    return (kept or "(untitled)") + (
        " [title continues with an embedded instruction, ignored]" if cut else ""
    )
