"""The collector around a run (engine/collector.py ``collector_for_run``, issue 30): what the
run leaves alive (its evidence and results) joins the oldest generation untraversed, so the
first allocation after the run does not start a middle-generation pass over all of it, and
the collector is left as it was found."""

from __future__ import annotations

import gc

from oasis_eval.engine.collector import RUN_GC_THRESHOLDS, collector_for_run, scenario_kept


def test_what_a_run_leaves_alive_joins_the_oldest_generation() -> None:
    gc.collect()
    thresholds = gc.get_threshold()
    with collector_for_run():
        assert gc.get_threshold() == RUN_GC_THRESHOLDS
        kept = [[n] for n in range(1000)]  # tracked containers, fewer than a young pass takes
    later = [[n] for n in range(10)]  # made after the run: young
    # one look at the oldest generation while both are alive (an id read from an earlier look
    # may belong to an object freed since, its address reused by a later list)
    oldest = {id(o) for o in gc.get_objects(generation=2)}
    assert all(id(item) in oldest for item in kept)
    assert not any(id(item) in oldest for item in later)
    assert gc.get_threshold() == thresholds
    assert gc.get_freeze_count() == 0  # nothing left frozen


def test_a_scenarios_survivors_are_frozen_until_the_run_ends() -> None:
    """``scenario_kept`` (issue 30): what a scenario leaves alive is frozen at once (no young
    pass traverses it), and the run's end leaves nothing frozen."""
    gc.collect()
    with collector_for_run():
        frozen = gc.get_freeze_count()
        kept = [[n] for n in range(500)]
        scenario_kept()
        assert gc.get_freeze_count() >= frozen + len(kept)
        young = {id(o) for o in gc.get_objects(generation=0)}
        assert not any(id(item) in young for item in kept)
    assert gc.get_freeze_count() == 0
    oldest = {id(o) for o in gc.get_objects(generation=2)}
    assert all(id(item) in oldest for item in kept)


def test_outside_a_run_a_scenario_freezes_nothing() -> None:
    gc.collect()
    kept = [[n] for n in range(10)]
    scenario_kept()
    assert gc.get_freeze_count() == 0
    assert kept
