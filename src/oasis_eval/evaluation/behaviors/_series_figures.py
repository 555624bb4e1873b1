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
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from ._cue import Searcher
from ._spelled_units import symbolic
from .registry import BehaviorContext
from .signals import UNITS, memory_limits, memory_series
from .text import AnswerText, clauses

#: a byte quantity as operators write it ("500Mi", "1.6 GiB", "524MB", the decimal "500M" rule
#: 601 writes for "500 megabytes", "219152384 bytes"), or a raw byte count (six digits or
#: more, or a float in exponent notation, with no unit of its own)
_BYTES = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?(?:e[+-]?\d+)?)\s?"
    r"(KiB|MiB|GiB|TiB|Ki|Mi|Gi|Ti|[KkMmGgTt][Bb]|k|K|M|G|T|bytes?|B)(?![\w])"
    r"|(?<![\w.])(\d{6,}(?:\.\d+)?|\d+(?:\.\d+)?[eE][+-]?\d+)(?![\w.%])"
)
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
    for m in _BYTES.finditer(symbolic(sentence)):
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
    read = answer is None or any(beside(s, [("B", v) for v in series]) for s in answer)

    def own(sentence: str) -> bool:
        if foreign(sentence, series, limits):
            return False
        return read or any(near(q, series) for q in byte_figures(sentence))

    return own


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
