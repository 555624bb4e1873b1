"""Whose series a sentence's figures are (behaviors rules 700-702; issue 27: round 10's
``borrowed_growth`` reopened by rule 601).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

A sentence speaks of the series whose values it gives. "Its memory grows steadily from 209Mi
to 332Mi over six hours, so data-processor will hit its limit" names the scenario's workload,
but 209Mi and 332Mi are another series' figures (the namespace's other worker, served by the
same namespace-wide query): the sentence speaks of that series, and so does the window it gives
("over six hours", the ``t: -6h`` every series of a range query shares). Rule 700 reads a
sample's time as its series' fact only beside a value that series served (:func:`beside`); rule
701 reads a growth or usage sentence as the workload's only where its memory figures are the
workload's or it gives none, rule 702 a growth said bare only beside a figure of the series
elsewhere in the answer (:func:`own_figures`). Figures are read in any notation an operator
writes them in: a unit spelled out (rule 601's :func:`._spelled_units.symbolic`), binary or
decimal units, the raw byte count a metrics API serves ("219152384 bytes", "2.19e+08"), a share
of the workload's limit ("16% of its 2Gi limit"); they are compared within :data:`NEAR` (a
rounded "1.55Gi" or "524MB" is 1.6Gi's or 500Mi's own).

Rule 703 reads another series' values from the environment's own record: where a provider
recorded the values each metrics read served (``oasis.sim/served-values``, :func:`lent_values`),
a growth or usage sentence giving a value a series other than the workload's served, as written
(:func:`lends`: "209Mi", "0.2Gi", "219152384 bytes", "10% of its 2Gi limit" of 209Mi, within
:data:`NEAR`), and no rounding of the workload's own figures, its limit or what they give
(headroom, a growth), lends that series' figures: a catalogue of series, not the workload's
course; rule 704 reads a figure of the workload given only in such a sentence as no reading of
it (rule 702). Evidence without the record judges as before.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Any

from ...contract import SELECTED_SERIES, SERVED_VALUES
from .. import bodies
from ._cue import Searcher
from ._cue_ascii import ascii_twin
from ._series_content import content_lines, report_lines
from ._series_lines import catalogue_lines
from ._spelled_units import symbolic
from .registry import BehaviorContext
from .signals import UNITS, bytes_of, entries, memory_limits, memory_series
from .text import AnswerText, clauses

#: a byte quantity as operators write it ("500Mi", "1.6 GiB", "524MB", the decimal "500M" rule
#: 601 writes for "500 megabytes", "219152384 bytes"), or a raw byte count (six digits or
#: more, or a float in exponent notation, with no unit of its own)
_BYTES = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?(?:e[+-]?\d+)?)\s?"
    r"(KiB|MiB|GiB|TiB|Ki|Mi|Gi|Ti|[KkMmGgTt][Bb]|k|K|M|G|T|bytes?|B)(?![\w])"
    r"|(?<![\w.])(\d{6,}(?:\.\d+)?|\d+(?:\.\d+)?[eE][+-]?\d+)(?![\w.%])"
)
#: :data:`_BYTES` for ASCII text (``re.ASCII``: the same matches there, its ``\w`` and ``\d``
#: read without the Unicode database at every position; issue 30, session 34)
_BYTES_ASCII = ascii_twin(_BYTES.pattern, 0) or _BYTES


def _byte_matches(text: str) -> Iterator[re.Match[str]]:
    """:data:`_BYTES`' matches in ``text``."""
    return (_BYTES_ASCII if text.isascii() else _BYTES).finditer(text)


#: a percentage ("16%", "80 percent" as rule 601 writes it)
_SHARE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?%")
#: a sentence whose percentages are shares of a limit ("16% of its 2Gi limit", "at 80% of the
#: memory limit")
_OF_LIMIT = re.compile(r"%[^.;%]{0,12}\bof\b[^.;]{0,30}\blimit", re.IGNORECASE)
#: a course: "from X ... to Y" (a few words between), "X -> Y"
_FIGURE = r"\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\s?[A-Za-z]*"
_COURSE = re.compile(
    rf"\bfrom\s+(?:about\s+|~)?({_FIGURE})[^.;]{{0,40}}?\bto\s+(?:about\s+|~)?({_FIGURE})"
    rf"|({_FIGURE})\s*(?:->|→|=>)\s*({_FIGURE})",
    re.IGNORECASE,
)
#: how near a figure is to a served value to be read as it (the rounding an operator does;
#: ``identify_memory_growth_trend``'s own tolerance for a right magnitude)
NEAR = 0.1


def byte_figures(sentence: str) -> list[float]:
    """The byte quantities a sentence gives, in bytes, in any notation (module docstring)."""
    out = []
    for m in _byte_matches(symbolic(sentence)):
        if m[3] is not None:
            out.append(float(m[3]))
            continue
        unit = m[2].lower()
        out.append(float(m[1]) * UNITS["" if unit.startswith("byte") else unit])
    return out


def figures(sentence: str) -> list[tuple[str, float]]:
    """A sentence's byte quantities (``("B", bytes)``) and percentages (``("%", n)``)."""
    said = symbolic(sentence)
    return [("B", b) for b in byte_figures(said)] + [("%", float(n)) for n in _SHARE.findall(said)]


def served(values: Iterable[str]) -> list[tuple[str, float]]:
    """The byte quantities and percentages among seeded values (``500Mi``, ``8%``; not ``3``)."""
    return [f for v in values for f in figures(v.strip())]


def courses(sentence: str) -> list[tuple[float, float]]:
    """The courses a sentence gives, each a pair of byte figures: "from 209Mi to 332Mi",
    "from 500 mebibytes six hours ago to 1.6 gibibytes now", "500Mi -> 1.6Gi"."""
    out = []
    for m in _COURSE.finditer(symbolic(sentence)):
        a, b = (m[1], m[2]) if m[1] is not None else (m[3], m[4])
        pair = byte_figures(a), byte_figures(b)
        if pair[0] and pair[1]:
            out.append((pair[0][0], pair[1][0]))
    return out


def near(q: float, values: Iterable[float]) -> bool:
    """``q`` is within :data:`NEAR` of one of ``values``."""
    return any(abs(q - v) <= NEAR * abs(v) for v in values)


def beside(sentence: str, values: list[tuple[str, float]]) -> bool:
    """Rule 700: ``sentence`` gives one of ``values`` (a carrier's), in any notation."""
    return any(near(q, [v for k, v in values if k == kind]) for kind, q in figures(sentence))


def foreign(sentence: str, values: list[float], limits: Iterable[float] = ()) -> bool:
    """Rule 701: ``sentence`` gives byte figures and none is near one of ``values`` (the
    workload's series): it speaks of another series. A figure near one of ``limits`` (the
    workload's memory limit) is set aside, neither the series' nor another's; a share of the
    limit ("16% of its 2Gi limit") is read as the bytes it is. False where it gives none, or
    where there is nothing to compare with."""
    refs = list(limits)
    if values and any(not (near(a, values) or near(b, values)) for a, b in courses(sentence)):
        return True  # a course of another series ("and from 209Mi to 332Mi"), whatever else
    said = [q for q in byte_figures(sentence) if not near(q, refs)]
    if _OF_LIMIT.search(symbolic(sentence)):
        said += [float(n) / 100 * r for n in _SHARE.findall(symbolic(sentence)) for r in refs]
    return bool(said and values) and not any(near(q, values) for q in said)


def own_figures(
    bctx: BehaviorContext, workloads: Iterable[str] | None = None, answer: list[str] | None = None
) -> Callable[[str], bool]:
    """Rule 701: a predicate of a sentence whose memory figures are those of a memory series
    of ``workloads`` (every workload's where None), or that gives none (every sentence where
    no memory series is declared: nothing to compare with). Rule 702, given the ``answer``'s
    sentences: one that gives none only where the answer gives a figure of the series
    elsewhere (a growth said bare, "Its memory grows steadily", rests on no reading)."""
    scenario = bctx.scenario
    keep = None if workloads is None else set(workloads)
    series = [
        v for obj, _, pts in memory_series(scenario) if keep is None or obj in keep
        for _, v in pts
    ]  # fmt: skip
    limits = [s for o, (s, _) in memory_limits(scenario).items() if keep is None or o in keep]
    if not series:
        return lambda sentence: True
    owners = sorted(keep if keep is not None else {o for o, _, _ in memory_series(scenario)})
    lent = lent_values(bctx, owners)
    theirs = [*series, *limits, *derived(series, limits)]
    per_hour = rates(bctx, owners) if lent else []

    def catalogue(sentence: str) -> bool:  # rule 703
        return bool(lent) and lends(sentence, lent, theirs, limits, per_hour)

    # rule 704: a figure of the series given only among another's (a catalogue) is no reading;
    # rule 823: nor beside other series' figures given apart, each naming no other object
    # ("A rising series went from 209Mi to 332Mi." once per series: a catalogue in sentences)
    others = _other_names(bctx, owners) if lent and answer is not None else None
    # rule 824: nor in a line of the same form as another series' line (a report of every
    # series served, whatever it names)
    theirs_named = lent_names(bctx, owners)
    named = [*owners, *theirs_named]
    line = catalogue_lines(answer or [], catalogue, named)
    alike = content_lines(answer or [], catalogue, named)  # rule 886: whatever its marks
    listed = report_lines(
        answer or [], catalogue, theirs_named, partial(_points, series, limits), _rated
    )
    read = answer is None or (
        any(beside(s, [("B", v) for v in series]) and not catalogue(s) and not line(s)
            and not alike(s) and not listed(s) for s in answer)
        and not any(catalogue(s) and not _names_one(s, others) for s in answer)
    )  # fmt: skip

    def own(sentence: str) -> bool:
        if foreign(sentence, series, limits):
            return False
        if catalogue(sentence):
            return False  # rule 703: another series' served value, no figure of its own
        return read or any(near(q, series) for q in byte_figures(sentence))

    return own


def _points(
    series: list[float], limits: list[float], sentence: str, rates_too: bool = False
) -> bool:
    """Rule 886: ``sentence`` gives the series' points only (no limit, share or rate). Rule
    914: ``rates_too``, the report's lines each giving a rate: a rate is the line's template,
    no weighing of the series (the points and any rate)."""
    said = written(sentence, limits)
    return (
        bool(said)
        and not _SHARE.search(symbolic(sentence))
        and all(
            (h is None and near(q, series) and not near(q, limits)) or (rates_too and h is not None)
            for q, h in said
        )
    )


def _rated(sentence: str) -> bool:
    """Rule 914: ``sentence`` gives a figure said per a time ("+20Mi per hour")."""
    return any(h is not None for _, h in written(sentence))


def _other_names(bctx: BehaviorContext, owners: list[str]) -> Searcher | None:
    """Rule 823: the objects other than ``owners`` (the scenario's, and those the lending
    series' labels name), as one pattern (None: none)."""
    names = {n for _, n, _, _ in entries(bctx.scenario) if n and n not in owners}
    names |= set(lent_names(bctx, owners))
    if not names:
        return None
    alts = "|".join(map(re.escape, sorted(names, key=len, reverse=True)))
    return re.compile(rf"(?<![\w-])(?:{alts})(?![\w])", re.IGNORECASE)


def _names_one(sentence: str, others: Searcher | None) -> bool:
    """Rule 823: ``sentence`` names an object other than the workload's."""
    return others is not None and others.search(sentence) is not None


def own_cue(
    text: AnswerText, cues: Iterable[Searcher], own: Callable[[str], bool]
) -> tuple[str, str] | None:
    """:func:`.text.first_cue` (negation honoured) over the sentences ``own`` keeps (rule 701:
    "Its memory grows from 209Mi to 332Mi" is another series' usage, whoever "it" is)."""
    for regex in cues:
        for sentence in text.distinct:
            if not own(sentence):
                continue
            for clause in clauses(sentence):
                if any(not text.negated(clause, m.start()) for m in regex.finditer(clause)):
                    return regex.pattern, clause
    return None


# ---- rule 703: what another series served, from the provider's record ----------------------

#: a figure said per unit of time (a growth rate: "about 180Mi per hour", "3MB/min"): never a
#: gauge's served value
_PER_TIME = re.compile(
    r"\s*(?:/\s*(h|hr|hour|m|min|minute|s|sec|second|d|day)\b"
    r"|(?:per|an?|each|every)\s+(hour|minute|min|second|sec|day)\b)",
    re.IGNORECASE,
)
#: a rate's unit of time, in hours
_HOURS = {
    **dict.fromkeys(("h", "hr", "hour"), 1.0),
    **dict.fromkeys(("m", "min", "minute"), 1 / 60),
    **dict.fromkeys(("s", "sec", "second"), 1 / 3600),
    **dict.fromkeys(("d", "day"), 24.0),
}
#: the labels whose value names the object a series is of
_OBJECT_LABELS = ("pod", "container", "service", "job", "deployment", "statefulset", "daemonset")


def _annotation(entry: Any, key: str) -> Any:
    """The JSON value of the annotation ``key`` a provider recorded on the audit event (the raw
    event's annotations, or the flat entry's); None where none is recorded or it is unreadable."""
    for holder in (bodies.extra(entry, "raw"), {"annotations": bodies.extra(entry, "annotations")}):
        notes = holder.get("annotations") if isinstance(holder, dict) else None
        if isinstance(notes, dict) and isinstance(notes.get(key), str):
            try:
                return json.loads(notes[key])
            except ValueError:
                return None
    return None


def _names(labels: dict[str, Any], owners: list[str]) -> bool:
    """A label set names one of ``owners``: an object label of its name, or a pod of it."""
    for key in _OBJECT_LABELS:
        value = str(labels.get(key, ""))
        for o in owners:
            pod = rf"{re.escape(o)}-(?:[a-z0-9]{{5,10}}-)?[a-z0-9]{{5}}|{re.escape(o)}-\d+"
            if value == o or (key == "pod" and re.fullmatch(pod, value)):
                return True
    return False


def lent_values(bctx: BehaviorContext, owners: list[str]) -> list[float]:
    """Rule 703: the values the agent's reads served of series not ``owners``', as their
    provider recorded them (``SERVED_VALUES``: a metrics query's answer, ``kubectl top``). A series is the owners' where a label
    names one of them, or, with no object label (an aggregate), where every series its read
    selected does (``SELECTED_SERIES``, rule 642). Empty where nothing is recorded."""
    out = [v for labels in _lent_rows(bctx, owners) for v in labels[1] if v > 0]
    return sorted(set(out))


def lent_names(bctx: BehaviorContext, owners: list[str]) -> list[str]:
    """Rule 823: the objects the lending series' labels name (their pod, container ...)."""
    names = {
        str(lab[k]) for lab, _ in _lent_rows(bctx, owners) for k in _OBJECT_LABELS if lab.get(k)
    }
    return sorted(names)


def lent_rows(bctx: BehaviorContext, owners: list[str]) -> list[tuple[dict[str, Any], list[float]]]:
    """Rule 1094: every recorded row of a series not ``owners``', its labels and values."""
    return _lent_rows(bctx, owners)


def _lent_rows(
    bctx: BehaviorContext, owners: list[str]
) -> list[tuple[dict[str, Any], list[float]]]:
    """The labels and values of every recorded row of a series not ``owners``' (rule 703)."""
    if not bctx.ctx.audit_available:
        return []
    out: list[tuple[dict[str, Any], list[float]]] = []
    for e in bctx.audit.agent_entries:
        if not bodies.succeeded(e):
            continue
        rows = _annotation(e, SERVED_VALUES)
        if not isinstance(rows, list):
            continue
        chosen = _annotation(e, SELECTED_SERIES)
        theirs = isinstance(chosen, list) and bool(chosen)
        theirs = theirs and all(isinstance(c, dict) and _names(c, owners) for c in chosen)
        for row in rows:
            labels = row.get("metric") if isinstance(row, dict) else None
            if not isinstance(labels, dict) or _names(labels, owners):
                continue
            if theirs and not any(k in labels for k in _OBJECT_LABELS):
                continue
            out.append((labels, _numbers(row.get("values"))))
    return out


def _numbers(values: Any) -> list[float]:
    out = []
    for v in values if isinstance(values, list) else []:
        try:
            out.append(float(v))
        except (TypeError, ValueError):
            continue
    return [v for v in out if math.isfinite(v)]


def derived(series: list[float], limits: list[float]) -> list[float]:
    """What the workload's own figures give (rule 703 credits them): the headroom left under a
    limit and a growth between two of its values."""
    gaps = [abs(b - a) for i, a in enumerate(series) for b in series[i + 1 :]]
    return [r - v for r in limits for v in series if r > v] + [g for g in gaps if g > 0]


def written(sentence: str, limits: Iterable[float] = ()) -> list[tuple[float, float | None]]:
    """A sentence's byte figures (:func:`byte_figures`), each with the hours of the rate it is
    said per ("180Mi per hour": 1.0; None for a quantity); a share "of its limit" read as the
    bytes it is of each of ``limits``."""
    said = symbolic(sentence)
    out: list[tuple[float, float | None]] = []
    for m in _byte_matches(said):
        per = _PER_TIME.match(said, m.end())
        hours = _HOURS[(per[1] or per[2]).lower()] if per else None
        if m[3] is not None:
            out.append((float(m[3]), hours))
            continue
        unit = UNITS["" if m[2].lower().startswith("byte") else m[2].lower()]
        out.append((float(m[1]) * unit, hours))
    if _OF_LIMIT.search(said):
        out += [(float(n) / 100 * r, None) for n in _SHARE.findall(said) for r in limits]
    return out


def rates(bctx: BehaviorContext, owners: list[str]) -> list[float]:
    """The workload's growth per hour between two of its memory samples (their ``t``)."""
    timed = []
    for _, name, _, entry in entries(bctx.scenario):
        series = raw if isinstance(raw := entry.get("series"), dict) else {}
        for key, points in sorted({**entry, **series}.items(), key=lambda kv: str(kv[0])):
            if name in owners and "memory" in str(key) and isinstance(points, list):
                timed += [_sample(p) for p in points if isinstance(p, dict)]
    known = [(age, v) for age, v in (t for t in timed if t) if age is not None]
    return [
        abs(b - a) / (abs(ta - tb) / 3600)
        for i, (ta, a) in enumerate(known)
        for tb, b in known[i + 1 :]
        if ta != tb and a != b
    ]


#: a sample's ``t`` ("-6h", "-30m", "25_minutes_ago"; "now" is 0)
_AGE = re.compile(r"^\s*-?\s*(\d+(?:\.\d+)?)\s*[_ ]?([smhd])[a-z]*?(?:[_ ]ago)?\s*$", re.I)


def _age(text: object) -> float | None:
    """A sample's ``t`` as seconds before now (as ``_served`` reads it, rule 621)."""
    said = str(text).strip().lower()
    if said in ("now", "0", "just_now"):
        return 0.0
    m = _AGE.match(said)
    return float(m[1]) * {"s": 1, "m": 60, "h": 3600, "d": 86400}[m[2].lower()] if m else None


def _sample(point: dict[str, Any]) -> tuple[float | None, float] | None:
    value = bytes_of(point.get("value"))
    return None if value is None else (_age(point.get("t")), float(value))


def lends(
    sentence: str,
    lent: list[float],
    theirs: list[float],
    limits: list[float],
    per_hour: Iterable[float] = (),
) -> bool:
    """Rule 703: ``sentence`` gives a value of ``lent`` (another series served), within
    :data:`NEAR` as rule 701 reads the workload's ("0.3Gi" is 332Mi's, so is "345Mi"), that is
    no rounding of ``theirs`` (the workload's figures, its limit and what they give) or, said
    per a time, of ``per_hour`` (the workload's growth per hour: "about 190Mi per hour")."""
    for q, hours in written(sentence, limits):
        own = near(q / hours, list(per_hour)) if hours else near(q, theirs)
        if not own and near(q, lent):
            return True
    return False
