"""What the agent's audited reads served, carrier by carrier (core §3.4; issue 27 items 2 and
4; behaviors rules 480-482).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

The audit log records requests and status codes, not response bodies; the environment serves
the scenario's state. A value of the state was served to the agent when a successful, in-scope
agent read (:func:`._reads.agent_reads`) reads a carrier holding the entry it sits in
(:func:`._carrier_reads.read_by`): a metrics query of its series, a log read of its pod, a get,
list or describe of its object (a query naming series returns those series of a
``metrics/*`` entry, not its others). The results the agent reports (the transcript's ``actions``)
are its own words and never make a value served: a credit rule asking "did the reads serve
this figure" reads :func:`served_values`, never
:attr:`~..context.VerificationContext.seen_results`.
"""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime
from typing import Any

from ..bodies import query_of
from ..context import VerificationContext
from ..evidence import AuditEntry
from ..state import scenario_resources
from ._carrier_reads import _IDENT, _names_series, _same_ns, read_by
from ._carriers import DATA, Carrier, _is_data, _kind_of, carriers
from ._figure_times import HISTORY, ServedSeries, Span
from ._metric_figure import series_key, served_numbers
from ._reads import _served, agent_reads
from ._seeded import leaves


def stamp(text: object) -> float | None:
    """An RFC 3339 timestamp as seconds since the epoch (None: none)."""
    if not isinstance(text, str) or not text:
        return None
    try:
        when = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp()


def _holds(c: Carrier, resource: str | None, name: str, ns: str | None) -> bool:
    """Carrier ``c`` holds the scenario entry ``resource``/``name`` in ``ns`` (the match of
    :func:`._reads.carrier_facts`)."""
    if c.targets:
        hit = name in c.targets or any(name.startswith(t + "-") for t in c.targets if t)
    else:
        hit = resource == c.resource or (c.kind == "events" and resource == "events")
    return hit and _same_ns(c, ns)


def served_values(ctx: VerificationContext) -> tuple[str, ...] | None:
    """The values of the scenario's state the agent's audited reads served (module
    docstring), in the scenario's order; None when the audit log shows no successful agent
    read in scope at all (the evidence gate answers that, rule 2). Derived once per
    judgement."""
    return ctx.memo("served_values", lambda: _served_values(ctx))


def _served_values(ctx: VerificationContext) -> tuple[str, ...] | None:
    reads = agent_reads(ctx)
    if not reads:
        return None
    every = carriers(ctx)
    by: dict[Carrier, list[AuditEntry]] = {}

    def reads_of(c: Carrier) -> list[AuditEntry]:
        if c not in by:
            by[c] = [e for e in reads if read_by(e, c, every)]
        return by[c]

    out: list[str] = []
    for resource, name, ns, entry in scenario_resources(ctx.scenario):
        held = [c for c in every if _holds(c, resource, name, ns)]
        if resource not in DATA and not _is_data(resource):
            kind, targets = _kind_of(resource, name)
            held.append(Carrier("state", ns, targets, kind))  # its own object, read or listed
        for c in held:
            for e in reads_of(c):
                out += leaves(_served(c, _series_served(e, c, entry)))
    return tuple(dict.fromkeys(out))


def _series_served(read: AuditEntry, c: Carrier, entry: dict[str, Any]) -> dict[str, Any]:
    """What a metrics query returns of a ``metrics/*`` entry: the series it names (each with
    its ``normal_`` baseline); every series when it names none (a label or a namespace
    selects the object's series whole)."""
    if c.kind != "metrics" or c.resource != "metrics":
        return entry
    query = re.sub(r'"[^"]*"', " ", query_of(read))
    idents = _IDENT.findall(query)

    def named(key: str) -> bool:
        series = key.removeprefix("normal_")
        return any(_names_series(i, series) for i in idents)

    fields = [k for k in entry if named(str(k))]
    return {k: entry[k] for k in fields} if fields else entry


def served_series(ctx: VerificationContext) -> dict[str, ServedSeries] | None:
    """Rule 532: each series a ``metrics/*`` entry of the scenario seeds (its ``normal_``
    sibling folded in, :func:`series_key`), with the numbers the audited metrics reads served
    of it (none where no read served it); None when no read was made at all. A figure an
    answer gives of the series is one of these or was never served *for it*: another
    series' number, or a read's count, is no reading of it. Rule 621: each also says when
    (:class:`._figure_times.ServedSeries`)."""
    return ctx.memo("served_series", lambda: _served_series(ctx))


def _served_series(ctx: VerificationContext) -> dict[str, ServedSeries] | None:
    reads = agent_reads(ctx)
    if not reads:
        return None
    every = carriers(ctx)
    clock = _clock(ctx, reads)
    out: dict[str, set[float]] = {}
    spans: dict[str, set[Span]] = {}
    first: dict[str, float] = {}
    for resource, name, ns, entry in scenario_resources(ctx.scenario):
        if resource != "metrics":
            continue
        for key, _ in _series_of(entry):
            out.setdefault(key, set())
        for c in every:
            if c.kind != "metrics" or not _holds(c, resource, name, ns):
                continue
            for e in (e for e in reads if read_by(e, c, every)):
                for key, value in _series_of(_series_served(e, c, entry)):
                    out[key] |= set(served_numbers(leaves(value)))
                    if clock is not None:
                        spans.setdefault(key, set()).update(_spans(value, clock[0]))
                    when = stamp(e.timestamp)
                    if when is not None:
                        first[key] = min(first.get(key, when), when)
    return {
        k: ServedSeries(
            sorted(v),
            sorted(spans.get(k, ())),
            (first[k], clock[1]) if clock is not None and k in first else None,
        )
        for k, v in sorted(out.items())
    }


def _clock(ctx: VerificationContext, reads: list[AuditEntry]) -> tuple[float, float] | None:
    """Rule 621: the scenario's now (the instant its sample ages count back from: the
    provision's clock where it records one, else the agent's first read) and the agent's
    last call, from the served timestamps; None where the audit log dates no call."""
    calls = [w for e in ctx.audit.agent_entries if (w := stamp(e.timestamp)) is not None]
    if not calls:
        return None
    record = ctx.evidence.provision.get("simulated_clock")
    epoch = stamp(record.get("epoch")) if isinstance(record, dict) else None
    starts = [w for e in reads if (w := stamp(e.timestamp)) is not None] or calls
    now = epoch if epoch is not None and epoch <= min(starts) else min(starts)
    return now, max(calls)


def _spans(value: object, now: float) -> list[Span]:
    """Rule 621: when a seeded value is served. A list of ``{t, value}`` samples holds each
    value from its time to the next sample's (the last one on; the first one back to the
    history's start: a range over the history serves it first, and an operator reads that
    point as the range's start, "0.1% six hours ago"); a value with no time of its
    own (a scalar, its ``normal_`` baseline) is served over the whole history: when a baseline
    gave way to the incident's value is the provider's, so either may be said of any past
    time, and neither of a time to come."""
    if not isinstance(value, list):
        return [(now - HISTORY, math.inf, served_numbers(leaves(value)))]
    points = sorted(
        (now - age, served_numbers(leaves(p.get("value"))))
        for p in value
        if isinstance(p, dict) and (age := _age(p.get("t", "now"))) is not None
    )
    ends = [t for t, _ in points[1:]] + [math.inf]
    # the first value back to the history's start: a range's first point is read as its start's
    starts = [min(t, now - HISTORY) if i == 0 else t for i, (t, _) in enumerate(points)]
    return [(t, end, nums) for t, (_, nums), end in zip(starts, points, ends, strict=True)]


_AGE = re.compile(r"^\s*-?\s*(\d+(?:\.\d+)?)\s*[_ ]?([smhd])[a-z]*?(?:[_ ]ago)?\s*$", re.I)


def _age(text: object) -> float | None:
    """A sample's ``t`` as seconds before now ("-30m", "25_minutes_ago", "now")."""
    said = str(text).strip().lower()
    if said in ("now", "0", "just_now"):
        return 0.0
    m = _AGE.match(said)
    return float(m[1]) * {"s": 1, "m": 60, "h": 3600, "d": 86400}[m[2].lower()] if m else None


def _series_of(entry: dict[str, Any]) -> list[tuple[str, object]]:
    """The (series key, value) pairs of a ``metrics/*`` entry: its fields holding a number
    (a ``series:`` mapping's each), a ``normal_`` sibling under its series' key."""
    pairs = [
        (str(k), v)
        for key, value in entry.items()
        for k, v in (
            value.items() if key == "series" and isinstance(value, dict) else [(key, value)]
        )
        if key not in ("resource", "namespace", "labels", "annotations", "zone")
    ]
    return [
        (series_key(k.removeprefix("normal_")), v) for k, v in pairs if served_numbers(leaves(v))
    ]


def served_text(ctx: VerificationContext) -> str:
    """:func:`served_values` as one text, lower case (what a rule searches a figure in)."""
    return "\n".join(served_values(ctx) or ()).lower()


def served_figures(ctx: VerificationContext) -> tuple[float, ...] | None:
    """Every number the audited reads served, sorted (rule 441's check, rule 481); None when
    no read was made at all."""
    values = served_values(ctx)
    if values is None:
        return None
    return ctx.memo(("served_numbers",), lambda: served_numbers(values))
