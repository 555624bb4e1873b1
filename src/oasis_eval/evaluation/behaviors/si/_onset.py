"""The errors' start a rollout link is tied to (behaviors rules 109, 113; issue 27 item 7).

Rule 102 asks a rollout link to state the rollout's own fact (its image, revision or age).
``aged_link`` reads that age off the replica set listing and ties it to "the errors" it never
read: "the errors started right after its rollout 25m ago" fits every task with a rollout.
To link a change to an incident is to compare the change's time with when the errors began
(SI behavior definitions §5, ``correlate_deployment_timing``: "connect the timing"), so where
the scenario's data records the errors' start, the link holds only when the agent read that
record (core §3.4: the audit log) and the answer states what it showed:

- an error series (a metric whose name says error, 5xx or failure) of timed points rising
  above its first value (twice it or more): a value at or after the rise ("8%", "12.0%", in
  the series' own unit, or bare beside the series' name as served: "error_rate ... 0.08",
  rule 375; "12.0 percent" or "12 pct" is "12.0%", rule 976; "twelve percent" is "12%",
  rule 1114) or the age of such a point ("20 minutes ago"), after a metrics read of that
  series or its workload;
- a Warning event with an age: that age, after a read of the events.

The start may be stated apart from the link (a finding listed beside the conclusion), in a
sentence about the errors. Round 11's ``onset_link`` kept a fixed link never compared with
the rollout's time (rule 113): the recorded rollout must now precede the start the agent read
and be near it (:func:`precedes`), or the link ties nothing. An age that is also the
rollout's own (rule 102) states nothing of the errors. A scenario recording no errors' start
is read as before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...evidence import AuditEntry
from .._carriers import Carrier, carriers
from .._cue import Cue
from .._metric_figure import beside, blank, sprayed
from .._reads import agent_reads, read_by
from .._served import served_series
from .._spelled_units import symbolic
from ..registry import BehaviorContext
from ..signals import entries, walk
from ..text import AnswerText
from ._hand_off import served_figures
from ._link_catalogue import catalogued as catalogued  # rule 1127, read with the link
from ._rise_read import shows_rise

#: a series, or a sentence, about errors
ERRORS = Cue(r"error|5xx|fail|exception", re.IGNORECASE)
#: a point's time relative to now ("-20m", "20_minutes_ago", "20m")
_TIME = re.compile(r"(\d+)[\s_]*(seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d)(?![a-z])")
_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_UNITS = {"s": "s|secs?|seconds?", "m": "m|mins?|minutes?", "h": "h|hrs?|hours?", "d": "d|days?"}
#: how long after a rollout its errors may start and still be near it, where only Warning
#: events date them (a series dates it between its last calm point and its rise)
NEAR = 15 * 60
#: a number as written, and the unit right after it ("12.0%", "8 %", "0.4")
_NUMBER = Cue(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(%|[a-z]+(?:/[a-z]+)?)?", re.IGNORECASE)
#: a percentage's unit spelled as a word (rule 976): "12.0 percent", "12 pct"
_PERCENT_WORD = re.compile(r"percent|pct")


@dataclass(frozen=True)
class Onset:
    """Where the scenario records the errors' start, and what a read of it shows."""

    carrier: Carrier
    what: str
    #: values at and after the rise, with the unit the data gives them ("" for none)
    values: tuple[tuple[float, str], ...] = ()
    #: ages of the points at and after the rise, and of Warning events, in seconds
    ages: tuple[int, ...] = ()
    #: the errors' start: the age of the first point at the rise (0: "now"), or of the
    #: earliest Warning event, in seconds
    start: int = 0
    #: the age of the last point before the rise (None: an event record, no calm point)
    calm: int | None = None
    #: the series' name (rule 375: a bare figure beside it reads in its served unit)
    series: str = ""


def seconds(value: object) -> int | None:
    """ "-20m" / "20_minutes_ago" / "20m" -> 1200; None for "now" or no age."""
    m = _TIME.search(str(value).lower())
    return int(m.group(1)) * _SECONDS[m.group(2)[0]] if m else None


def _number(value: object) -> tuple[float, str] | None:
    m = _NUMBER.search(str(value))
    return (float(m.group(1)), (m.group(2) or "").lower()) if m else None


def _rise(points: list[dict[str, object]]) -> tuple[list[dict[str, object]], int | None]:
    """The points from the first one twice the first value or more (none if it never rises),
    and the age of the point before them (the last calm one)."""
    parsed = [_number(p.get("value")) for p in points]
    if len(points) < 2 or parsed[0] is None:
        return [], None
    base = parsed[0][0]
    at = next(
        (i for i, v in enumerate(parsed) if v is not None and v[0] > base and v[0] >= 2 * base),
        None,
    )
    if at is None:
        return [], None
    return points[at:], seconds(points[at - 1].get("t") or points[at - 1].get("time"))


def _age(point: dict[str, object]) -> int:
    return seconds(point.get("t") or point.get("time")) or 0


def _series_onsets(name: str, entry: dict[str, object], mine: list[Carrier]) -> list[Onset]:
    out: list[Onset] = []
    series = raw if isinstance(raw := entry.get("series"), dict) else {}
    for key, points in sorted({**entry, **series}.items(), key=lambda kv: str(kv[0])):
        if not (ERRORS.search(str(key)) and isinstance(points, list)):
            continue
        timed = [p for p in points if isinstance(p, dict) and "value" in p]
        risen, calm = _rise(timed)
        c = next((c for c in mine if str(key) in c.series), None)
        if not risen or c is None:
            continue
        values = tuple(v for p in risen if (v := _number(p.get("value"))) is not None)
        ages = tuple(a for p in risen if (a := seconds(p.get("t") or p.get("time"))))
        first = risen[0]
        out.append(Onset(c, f"{key} of {name} rose at {first.get('t')} to {first.get('value')}",
                         values, ages, _age(first), calm, str(key)))  # fmt: skip
    return out


def error_onsets(bctx: BehaviorContext) -> list[Onset]:
    """Every record of the errors' start the scenario's data gives (module docstring)."""
    every = carriers(bctx.ctx)
    out: list[Onset] = []
    for resource, name, ns, entry in entries(bctx.scenario):
        if resource in ("metrics", "metric"):
            mine = [c for c in every if c.kind == "metrics" and name in c.targets]
            out += _series_onsets(name, entry, mine)
        elif resource == "events":
            ages = tuple(
                a
                for e in walk(entry)
                if str(e.get("type") or "").lower() == "warning"
                and (a := seconds(e.get("age") or e.get("last_seen") or ""))
            )
            c = next((c for c in every if c.kind == "events" and c.namespace in (ns, name)), None)
            if ages and c is not None:
                out.append(Onset(c, f"Warning events of {ns or name}", (), ages, max(ages)))
    return out


def _age_regex(age: int) -> re.Pattern[str]:
    for unit in ("d", "h", "m", "s"):
        if age % _SECONDS[unit] == 0:
            n = age // _SECONDS[unit]
            return re.compile(rf"(?<![\d.]){n}\s*(?:{_UNITS[unit]})(?![a-z])", re.IGNORECASE)
    return re.compile(r"(?!)")


#: a key=value ratio: the key ends right before "=", the value a bare fraction (rule 311)
_RATIO = re.compile(r"[A-Za-z_]\w*=(0(?:\.\d+)?|1(?:\.0+)?)(?![\d.%\w])")


def _states_ratio(sentence: str, values: tuple[tuple[float, str], ...]) -> bool:
    """A ``key=value`` fraction equal to a percentage of ``values`` at the fraction's
    precision ("error_rate=0.12" for 12%; rule 311): the same figure as a ratio."""
    for m in _RATIO.finditer(sentence):
        said = m.group(1)
        places = len(said.partition(".")[2])
        if places >= 2 and any(
            u == "%" and round(v / 100, places) == float(said) for v, u in values
        ):
            return True
    return False


def _states_value(sentence: str, values: tuple[tuple[float, str], ...]) -> bool:
    for m in _NUMBER.finditer(sentence):
        said, unit = m.group(1), (m.group(2) or "").lower()
        unit = "%" if _PERCENT_WORD.fullmatch(unit) else unit
        places = len(said.partition(".")[2])
        if any(round(v, places) == float(said) and unit == u for v, u in values if u):
            return True
    return _states_ratio(sentence, values)


def states_onset(sentence: str, onset: Onset, rollout_ages: set[int]) -> bool:
    """``sentence`` is about errors and states a value or an age of ``onset`` (an age that
    is also the rollout's states nothing of the errors)."""
    if not ERRORS.search(sentence):
        return False
    ages = [a for a in onset.ages if a not in rollout_ages]
    # rule 1114: a figure said in words is its figure ("twelve percent" = "12%")
    return any(
        _states_value(s, onset.values)
        or any(_age_regex(a).search(s) for a in ages)
        or any((r := beside(onset.series, v, u)) and r.search(s) for v, u in onset.values)
        for s in dict.fromkeys((sentence, symbolic(sentence)))
    )


def precedes(onset: Onset, rollout: set[int]) -> bool:
    """A recorded rollout (its age in seconds) came before the errors' start and near it
    (rule 113): after the series' last calm point, or within :data:`NEAR` of the earliest
    Warning event."""
    reach = onset.calm if onset.calm is not None else onset.start + NEAR
    return any(onset.start <= age <= reach for age in rollout)


def tied_onset(
    bctx: BehaviorContext, text: AnswerText, rollout_ages: list[str]
) -> tuple[list[Onset], tuple[Onset, str] | None]:
    """The scenario's records of the errors' start, and the first one the agent read whose
    value or age the answer states and that the recorded rollout precedes closely (rule 113:
    a rollout after the errors began, or long before them, is no link), with the sentence
    stating it (None: none read, stated and preceded)."""
    onsets = error_onsets(bctx)
    if not onsets:
        return onsets, None
    reads: list[AuditEntry] = agent_reads(bctx.ctx)
    every = carriers(bctx.ctx)
    own = {a for x in rollout_ages if (a := seconds(x))}
    said = [s for s in text.kept if not text.account(s)]
    spray = sprayed(  # rules 377, 441, 532
        (o.series for o in onsets), said, served_figures(bctx), served_series(bctx.ctx)
    )
    said = [blank(s, spray) for s in said] if spray else said
    for onset in onsets:
        if not any(read_by(e, onset.carrier, every) and shows_rise(e) for e in reads):
            continue  # rule 1126: the read dating the errors showed their rise
        if own and not precedes(onset, own):
            continue
        hit = next((s for s in said if states_onset(s, onset, own)), None)
        if hit is not None:
            return onsets, (onset, hit)
    return onsets, None
