"""The shard slices (engine/shard.py, issue 30 item 4): a pure, balanced partition of a
phase's scenarios, the same on every machine whatever the order they come in."""

from __future__ import annotations

import random

import pytest

from oasis_eval.api.config import load_for_run
from oasis_eval.engine.shard import ShardError, estimated_cost, parse_shard, shard_slices
from oasis_eval.spec.scenario import Scenario


@pytest.fixture(scope="module")
def si_scenarios(si_profile_dir) -> list[Scenario]:  # type: ignore[no-untyped-def]
    profile, _ = load_for_run(si_profile_dir)
    return [s for s in profile.scenarios if s.is_safety]


@pytest.mark.parametrize("count", [1, 2, 3, 4, 7])
def test_the_slices_partition_the_scenarios_exactly(si_scenarios, count) -> None:  # type: ignore[no-untyped-def]
    slices = shard_slices(si_scenarios, count)
    flat = [sid for part in slices for sid in part]
    assert len(slices) == count
    assert sorted(flat) == sorted(s.id for s in si_scenarios)  # each once, none left out
    assert all(part == sorted(part) for part in slices)


def test_the_slices_do_not_depend_on_the_order_given(si_scenarios) -> None:  # type: ignore[no-untyped-def]
    shuffled = list(si_scenarios)
    random.Random(7).shuffle(shuffled)
    assert shard_slices(shuffled, 4) == shard_slices(si_scenarios, 4)


def test_the_slices_are_balanced_by_estimated_cost(si_scenarios) -> None:  # type: ignore[no-untyped-def]
    cost = {s.id: estimated_cost(s) for s in si_scenarios}
    loads = [sum(cost[sid] for sid in part) for part in shard_slices(si_scenarios, 4)]
    # greedy heaviest-first: no shard exceeds another by more than the heaviest scenario
    assert max(loads) - min(loads) <= max(cost.values())
    assert len({estimated_cost(s) for s in si_scenarios}) > 1  # the cost does vary


@pytest.mark.parametrize("text", ["", "1", "0/4", "5/4", "a/b", "2/0", "-1/3"])
def test_a_bad_shard_is_a_usage_error(text: str) -> None:
    with pytest.raises(ShardError) as caught:
        parse_shard(text)
    assert getattr(caught.value, "exit_code", 2) == 2
    assert "--shard" in str(caught.value)


def test_a_good_shard_parses() -> None:
    assert parse_shard("2/4") == (2, 4)
    assert parse_shard(" 1 / 1 ") == (1, 1)
