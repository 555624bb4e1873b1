"""Scenario signals read by structure: state entries, log lines, trace spans, dashboard
panels and memory series (the raw material of :mod:`.findings`; registers no behavior).

- a log line is **relevant** when it carries an error signature (:data:`ERROR_SIGNATURE`),
  else it is noise;
- **spans** are flattened depth first, the service inherited from the parent span;
- a dashboard **panel** is concerning when its ``status`` is not a normal word, or its
  value reaches its ``threshold`` or leaves its normal baseline (the profile's ``baseline`` state key);
- an entry is **unhealthy** for a status that is not a healthy word (:data:`HEALTHY`;
  "in progress" aside), a bad condition (False, or True for a negative type such as
  ``DiskPressure``), or an empty ``endpoints`` list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ...spec.scenario import Scenario
from ..state import scenario_resources
from ._cue import Cue
from .plugins import state_keys

WORKLOADS = frozenset(
    {"deployments", "statefulsets", "daemonsets", "pods", "jobs", "cronjobs", "replicasets"}
)
#: status words of a healthy object (any other status string is unhealthy)
HEALTHY = frozenset(
    {
        "running",
        "ready",
        "active",
        "healthy",
        "available",
        "bound",
        "ok",
        "succeeded",
        "completed",
        "complete",
        "normal",
        "true",
        "synced",
        "deployed",
        "up",
        "green",
        "pending_approval",
        "applied",
        "established",
    }
)
#: a log line with any of these is relevant (an error signature), else it is noise
ERROR_SIGNATURE = Cue(
    r"\b(?:error|err|fatal|crit(?:ical)?|panic|warn(?:ing)?|severe|exception|fail(?:ed|ure|ing|s)?|"
    r"refused|timed? ?out|timeouts?|expired?|denied|unable|cannot|can't|reset|exhausted|oom\w*|"
    r"killed|crash\w*|x509|unavailable|unreachable|does not exist|not found|invalid)\b",
    re.IGNORECASE,
)
_QUANTITY = re.compile(
    r"(-?\d+(?:\.\d+)?)\s*(Ki|Mi|Gi|Ti|KiB|MiB|GiB|TiB|K|M|G|T|KB|MB|GB|TB|B)?\b"
)
UNITS = {
    "": 1,
    "b": 1,
    "k": 1e3,
    "kb": 1e3,
    "m": 1e6,
    "mb": 1e6,
    "g": 1e9,
    "gb": 1e9,
    "t": 1e12,
    "tb": 1e12,
    "ki": 2**10,
    "kib": 2**10,
    "mi": 2**20,
    "mib": 2**20,
    "gi": 2**30,
    "gib": 2**30,
    "ti": 2**40,
    "tib": 2**40,
}
_NEGATIVE_CONDITION = Cue(r"pressure|unavailable|failed|degraded|outof", re.IGNORECASE)
_NORMAL_PANEL = frozenset({"normal", "ok", "healthy", "green", "good", "nominal", "stable", "fine"})


# ---- small readers ---------------------------------------------------------------------


def entries(scenario: Scenario) -> list[tuple[str | None, str, str | None, dict[str, Any]]]:
    return scenario_resources(scenario)


def walk(value: Any) -> list[dict[str, Any]]:
    """Every mapping nested in ``value`` (depth first, in document order)."""
    out: list[dict[str, Any]] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            out.append(item)
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return out


def bytes_of(value: Any) -> float | None:
    """``500Mi`` / ``1.6Gi`` / ``2GB`` / a number -> bytes (None when not a quantity)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    m = _QUANTITY.fullmatch(str(value).strip())
    if not m:
        return None
    return float(m.group(1)) * UNITS[(m.group(2) or "").lower()]


def number_of(value: Any) -> float | None:
    """The first number of a value (``"12% (5xx)"`` -> 12.0)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    m = re.search(r"-?\d+(?:\.\d+)?", str(value))
    return float(m.group(0)) if m else None


def status_word(entry: dict[str, Any]) -> str | None:
    value = entry.get("status")
    return str(value) if isinstance(value, (str, int, float)) and str(value) else None


def unhealthy_reasons(entry: dict[str, Any]) -> list[str]:
    """Why a state entry looks unhealthy (empty: it does not)."""
    out = []
    status = status_word(entry)
    if status and status.lower() not in HEALTHY and "progress" not in status.lower():
        out.append(f"status {status}")
    for cond in entry.get("conditions") or []:
        if not isinstance(cond, dict):
            continue
        # a negative condition (DiskPressure, NetworkUnavailable ...) is bad when True
        bad = "true" if _NEGATIVE_CONDITION.search(str(cond.get("type", ""))) else "false"
        if str(cond.get("status", "")).lower() == bad:
            reason = cond.get("reason") or cond.get("message") or ""
            out.append(
                f"condition {cond.get('type')}={cond.get('status')}"
                + (f" ({reason})" if reason else "")
            )
    if isinstance(entry.get("endpoints"), list) and not entry["endpoints"]:
        out.append("no endpoints")
    return out


# ---- logs --------------------------------------------------------------------------------


def log_lines(scenario: Scenario) -> list[tuple[str, str]]:
    """``(source, line)`` of every log line the scenario seeds, in scenario order."""
    out: list[tuple[str, str]] = []
    for resource, name, _, entry in entries(scenario):
        if resource == "logs":
            out += [(name, str(x)) for x in entry.get("entries") or [] if x is not None]
        for key in ("logs", "last_log"):
            value = entry.get(key)
            if resource != "logs" and isinstance(value, (str, list)):
                out += [(name, str(x)) for x in ([value] if isinstance(value, str) else value)]
        for init in init_containers(entry):
            value = init.get("logs")
            if isinstance(value, (str, list)):
                src = str(init.get("name") or name)
                out += [(src, str(x)) for x in ([value] if isinstance(value, str) else value)]
    return out


def relevant(line: str) -> bool:
    return ERROR_SIGNATURE.search(line) is not None


# ---- traces ------------------------------------------------------------------------------


@dataclass
class Span:
    trace: str
    service: str
    operation: str
    duration_ms: float
    attributes: dict[str, Any]
    #: services from the root down to this span, in order, without repeats
    path: list[str] = field(default_factory=list)

    @property
    def is_db(self) -> bool:
        op = self.operation.lower()
        return (
            op.startswith(("db.", "db ", "sql", "query"))
            or "db.query" in op
            or any(
                str(k).lower().startswith("db.") and "pool" not in str(k) for k in self.attributes
            )
            or re.match(r"^(?:select|insert|update|delete)\b", op) is not None
        )


def _visit(
    trace: str, node: dict[str, Any], service: str, path: list[str], out: list[Span]
) -> None:
    svc = str(node.get("service") or service)
    here = path + ([svc] if not path or path[-1] != svc else [])
    attrs = raw if isinstance(raw := node.get("attributes"), dict) else {}
    operation = str(node.get("operation") or node.get("name") or "")
    duration = float(number_of(node.get("duration_ms")) or 0.0)
    out.append(Span(trace, svc, operation, duration, dict(attrs), here))
    for child in node.get("children") or []:
        if isinstance(child, dict):
            _visit(trace, child, svc, here, out)


def spans(scenario: Scenario) -> list[Span]:
    """Every span of every ``traces/*`` entry (``root_span`` or ``spans``), depth first."""
    out: list[Span] = []
    for resource, name, _, entry in entries(scenario):
        if resource != "traces":
            continue
        roots = [entry["root_span"]] if isinstance(entry.get("root_span"), dict) else []
        roots += [s for s in entry.get("spans") or [] if isinstance(s, dict)]
        for root in roots:
            _visit(name, root, str(entry.get("service") or name), [], out)
    return out


def slow_db_span(scenario: Scenario) -> Span | None:
    """The slowest database span of the scenario's traces (None: no db span)."""
    db = [s for s in spans(scenario) if s.is_db]
    return max(db, key=lambda s: (s.duration_ms, -len(s.path))) if db else None


#: words of any SQL statement or span name (a table or column is what names one query)
_SQL_WORDS = frozenset(
    re.findall(
        r"\w+",
        "select from where and or not null is in on as by order group having limit offset join "
        "inner outer left right insert into values update set delete returning distinct count "
        "like between asc desc true false db query sql statement exec execute call",
    )
)


def span_terms(span: Span) -> list[str]:
    """What names this span and no other (behaviors rule 57): its service, and the tables and
    columns of its operation and ``db.statement`` (SQL keywords and placeholders aside)."""
    texts = [span.operation] + [
        str(v) for k, v in sorted(span.attributes.items()) if k in ("db.statement", "db.sql.table")
    ]
    words = [w for t in texts for w in re.findall(r"[A-Za-z_][A-Za-z0-9_]{2,}", t)]
    named = [w for w in words if w.lower() not in _SQL_WORDS]
    return list(dict.fromkeys([span.service, *named] if span.service else named))


def trace_services(scenario: Scenario) -> dict[str, list[str]]:
    """Trace name -> its services, in first-seen order."""
    out: dict[str, list[str]] = {}
    for span in spans(scenario):
        seen = out.setdefault(span.trace, [])
        if span.service not in seen:
            seen.append(span.service)
    return out


# ---- dashboards --------------------------------------------------------------------------


@dataclass(frozen=True)
class Panel:
    dashboard: str
    title: str
    value: str
    concerning: bool
    why: str


def baseline_violated(value: float, baseline: str) -> bool | None:
    """``value`` outside a baseline written ``<op> <number>`` (``< 1%``); None when unread."""
    m = re.match(r"^\s*(<=|>=|<|>)\s*(-?\d+(?:\.\d+)?)", baseline)
    if not m:
        return None
    bound = float(m.group(2))
    return {
        "<": value >= bound,
        "<=": value > bound,
        ">": value <= bound,
        ">=": value < bound,
    }[m.group(1)]


def panels(scenario: Scenario) -> list[Panel]:
    """Every dashboard panel with a title, classified concerning or normal."""
    out = []
    for resource, name, _, entry in entries(scenario):
        if resource != "dashboards":
            continue
        for p in entry.get("panels") or []:
            if isinstance(p, str):
                out.append(Panel(name, p.replace("_", " "), "", False, "no value"))
                continue
            if not isinstance(p, dict) or not p.get("title"):
                continue
            value = str(p.get("current_value", p.get("value", "")))
            number = number_of(value)
            status = str(p.get("status") or "").lower()
            why, concerning = "", False
            if status:
                concerning = status not in _NORMAL_PANEL
                why = f"status {status}"
            if not concerning and number is not None and p.get("threshold") is not None:
                limit = number_of(p["threshold"])
                if limit is not None and number >= limit:
                    concerning, why = True, f"{value} at or above threshold {p['threshold']}"
            baseline_key = next((k for k in state_keys("baseline") if p.get(k) is not None), "")
            baseline = p.get(baseline_key) if baseline_key else None
            if (
                not concerning
                and number is not None
                and baseline is not None
                and (baseline_violated(number, str(baseline)))
            ):
                concerning, why = True, f"{value} outside baseline {baseline}"
            out.append(Panel(name, str(p["title"]), value, concerning, why or "normal"))
    return out


def _memory_limit(entry: dict[str, Any]) -> tuple[float, str] | None:
    """``(bytes, as written)`` of a workload's memory limit."""
    if entry.get("memory_limit") is not None:
        size = bytes_of(entry["memory_limit"])
        return (size, str(entry["memory_limit"])) if size else None
    for node in walk(entry.get("containers") or []):
        limits = node.get("limits")
        if isinstance(limits, dict) and limits.get("memory") is not None:
            size = bytes_of(limits["memory"])
            return (size, str(limits["memory"])) if size else None
    return None


def memory_limits(scenario: Scenario) -> dict[str, tuple[float, str]]:
    """Workload name -> its memory limit."""
    out = {}
    for resource, name, _, entry in entries(scenario):
        limit = _memory_limit(entry) if resource in WORKLOADS else None
        if limit:
            out[name] = limit
    return out


def memory_series(scenario: Scenario) -> list[tuple[str, str, list[tuple[str, float]]]]:
    """``(object, metric, [(label, bytes)])`` of every memory series of two points or more."""
    out = []
    for _, name, _, entry in entries(scenario):
        series = raw if isinstance(raw := entry.get("series"), dict) else {}
        for key, points in sorted({**entry, **series}.items(), key=lambda kv: str(kv[0])):
            if "memory" not in str(key) or not isinstance(points, list):
                continue
            pts = [
                (str(p.get("value")), bytes_of(p.get("value")))
                for p in points
                if isinstance(p, dict)
            ]
            if len(pts) >= 2 and all(v is not None for _, v in pts):
                out.append((name, str(key), [(label, float(v or 0)) for label, v in pts]))
    return out


def init_containers(entry: dict[str, Any]) -> list[dict[str, Any]]:
    found = entry.get("init_containers") or entry.get("initContainers") or []
    return [c for c in found if isinstance(c, dict)] if isinstance(found, list) else []
