"""A course said for every memory series read is a catalogue (behaviors rule 1094; issue 27,
round 50b: ``memory_before_each_course_50b``, ``memory_subject_course_50b``).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 32 reads trends restated for four series or more as a catalogue, a series counted by its
Prometheus-style name. A course said by its owner's name or by "it" ("coupon-dispatcher went
from 209Mi to 332Mi", "It went from five hundred megs to one point six gigs") names no metric,
so every memory series a namespace-wide read served, each said as a course, counted as none:
the workload's own course among them was its growth (oi.metric-interpretation 0.5). The series
are told apart by their values instead: a course (rule 701's :func:`courses`, any notation,
rule 1082's words included) whose two ends are values one served series gave (rule 703's
record of what the reads served, within :data:`NEAR`) is said of that series. Where the answer
says the workload's own course and the courses of two other series or more (distinct by their
values: a Deployment's pods serving one course are one series), it restates what was read and
singles none out. One other series' course beside the workload's is read as before (rule 94:
"audit-forwarder's memory rises too"), and so is the workload's course weighed by its memory
limit in its own sentence ("indexer: 400Mi -> 900Mi of its 1Gi limit": rule 886's reading of a
line that weighs the series).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .. import findings
from .._series_figures import byte_figures, courses, lent_rows, near
from ..registry import BehaviorContext

#: other series' courses, beside the workload's own, that make the courses a catalogue
OTHER_COURSES = 2
#: what a course needs (rule 701's ``from ... to ...`` or an arrow): a cheap look first
_COURSE_WORD = re.compile(r"\bfrom\b|->|\u2192|=>", re.IGNORECASE)


def _of(course: tuple[float, float], values: list[float]) -> bool:
    """Both ends of ``course`` are values of one series (:func:`.._series_figures.near`)."""
    return all(near(q, values) for q in course)


def _key(values: list[float]) -> tuple[int, int]:
    """A series told by its course (its first and last value, rounded to a mebibyte)."""
    return round(values[0] / 2**20), round(values[-1] / 2**20)


def course_catalogue(bctx: BehaviorContext, names: Iterable[str], kept: list[str]) -> list[str]:
    """The series whose courses the answer says, when the workload's own is among them with
    :data:`OTHER_COURSES` others or more (else []): rule 1094."""
    keep = set(names)
    own = [
        [v for _, v in pts] for obj, _, pts in findings.memory_series(bctx.scenario) if obj in keep
    ]
    if not own:
        return []
    by = {s: said for s in kept if _COURSE_WORD.search(s) and (said := courses(s))}
    if sum(map(len, by.values())) <= OTHER_COURSES:
        return []  # too few courses said to hold the workload's and two others'
    mine = [s for s, said in by.items() if any(_of(c, v) for c in said for v in own)]
    limits = [size for o, (size, _) in findings.memory_limits(bctx.scenario).items() if o in keep]
    if not mine or any(near(q, limits) for s in mine for q in byte_figures(s)):
        return []  # no course of its own, or its own weighed by its limit (rule 886's reading)
    rows = [values for _, values in lent_rows(bctx, sorted(keep)) if values]
    others = {_key(v) for said in by.values() for c in said for v in rows if _of(c, v)}
    if len(others) < OTHER_COURSES:
        return []
    return ["the workload's own", *(f"{a}Mi -> {b}Mi" for a, b in sorted(others))]
