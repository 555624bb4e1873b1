"""Every course weighed alike weighs none out (behaviors rule 1144), read by
:func:`._course_catalogue.course_catalogue`.

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 1094 reads the workload's own memory course said beside the courses of two other series
or more as a catalogue, and keeps the workload's course weighed by its memory limit in its own
sentence (rule 886: "indexer: 400Mi -> 900Mi of its 1Gi limit" beside two other series'
readings): the limit sets that one course apart. red50b's door ``limit_weighed_courses`` weighed
every course alike ("badge-aggregator went from one hundred megs to one hundred megs ..., of its
256Mi limit", "coupon-dispatcher ... of its 448Mi limit", "data-processor ... of its 2Gi
limit"): a flat series among them, each called "the worry", none set apart. Where every
sentence saying another series' course also gives a byte figure beyond that course's ends (its
own limit), the weighing is the catalogue's form, not rule 886's reading.
"""

from __future__ import annotations

from .._series_figures import byte_figures, near

#: a course: its two ends, in bytes
Course = tuple[float, float]


def _weighed(sentence: str, said: list[Course]) -> bool:
    """``sentence`` gives a byte figure that is neither end of a course it says."""
    ends = [q for c in said for q in c]
    return any(not near(q, ends) for q in byte_figures(sentence))


def weighed_alike(by: dict[str, list[Course]], mine: list[str]) -> bool:
    """Rule 1144: the sentences saying other courses than the workload's (``by`` less
    ``mine``) are there, and every one of them is weighed as the workload's is."""
    others = [s for s in by if s not in mine]
    return bool(others) and all(_weighed(s, by[s]) for s in others)
