"""The cyclic garbage collector around a run (issue 30): tuned thresholds, what was alive
before the run frozen, and each scenario's survivors frozen as it finishes (split out of
:mod:`.execute` in session 36, which had grown past 500 lines)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["RUN_GC_THRESHOLDS", "collector_for_run", "scenario_kept"]

#: collector thresholds during a run: young collections every 10k allocations instead of 700,
#: the middle generation 5x less often (a run allocates millions of short-lived containers)
RUN_GC_THRESHOLDS = (10_000, 50, 10)


@contextmanager
def collector_for_run() -> Iterator[None]:
    """The garbage collector tuned for one run, restored afterwards.

    What was alive before the run (imported modules, the loaded profile) is frozen: none
    of it becomes garbage of the run, yet every full collection would traverse all of it.
    Objects the run creates are collected as usual, in fewer, larger passes. What the run
    leaves alive (its evidence and results, handed to the caller) joins the oldest
    generation untraversed, as a replay's does (``judge.collector_paused``): with the
    thresholds restored, the first young pass after the run would otherwise take the middle
    generation along, a pass over all of it (issue 30: 70-210 ms after an SI run in the
    benchmarks); a later full collection still finds any garbage among it.
    """
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(*RUN_GC_THRESHOLDS)
    _RUNS[0] += 1
    try:
        yield
    finally:
        _RUNS[0] -= 1
        gc.freeze()  # the run's survivors too, then everything to the oldest generation
        gc.set_threshold(*thresholds)
        gc.unfreeze()


#: how many :func:`collector_for_run` are open (a scenario's survivors are frozen only inside)
_RUNS = [0]


def scenario_kept() -> None:
    """A scenario finished inside a run: what it leaves alive (its evidence and result, which
    the journal and the phase keep to the run's end) is frozen now, as :func:`collector_for_run`
    freezes the run's survivors at its end, instead of a young pass traversing it first and a
    middle pass again (issue 30: 24 young passes a served SI run, 0.3-0.4 ms a scenario; freezing
    also resets the young count, so a run whose scenarios each leave fewer than 10,000 objects
    makes none). Cyclic garbage frozen with it is kept until the run's end, then collected as
    the run's survivors are. Outside a run: nothing (nothing would unfreeze it)."""
    if _RUNS[0]:
        gc.freeze()
