"""A memory course said by its figures alone (behaviors rule 1083; issue 27, session 34).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

On a bridge call the subject is said once and the figures follow: "The worry is memory.
data-processor went from five hundred megs to one point six gigs over the last six hours,
steadily". Rule 94's growth sentence needed a memory word of its own, so that course read as
no memory growth. A sentence whose byte figures are the workload's own memory series (within
:data:`.._series_figures.NEAR` of a sample it served, any notation, rule 1082's words
included), said right after a sentence naming memory, speaks of that memory: the figures are
what the word would have named (a line of a report of every series, rule 824, follows another
line, not the memory word). Every other
reading of the sentence is unchanged (the trend cue, rules 701-704's whose-figures checks,
the catalogue of rule 32), so a figure of another series still says nothing of this one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import pairwise

from ....spec.scenario import Scenario
from .. import findings
from .._cue import Searcher
from .._series_figures import byte_figures, near


def memory_figures(scenario: Scenario, names: Iterable[str]) -> Callable[[str], bool]:
    """A predicate: the sentence gives a byte figure of a memory series of ``names``."""
    keep = set(names)
    values = [
        v for obj, _, pts in findings.memory_series(scenario) if obj in keep for _, v in pts
    ]  # fmt: skip
    if not values:
        return lambda sentence: False
    return lambda sentence: any(near(q, values) for q in byte_figures(sentence))


def memory_courses(
    scenario: Scenario, names: Iterable[str], kept: list[str], memory: Searcher
) -> set[str]:
    """The sentences of ``kept`` giving a figure of a memory series of ``names`` right after a
    sentence ``memory`` finds: each speaks of that memory (rule 1083)."""
    by_figures = memory_figures(scenario, names)
    return {s for a, s in pairwise(kept) if memory.search(a) and by_figures(s)}
