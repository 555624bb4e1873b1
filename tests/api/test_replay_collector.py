"""A replay runs with the cyclic garbage collector paused (issue 30): loading the evidence
allocates millions of objects and none is garbage, so a collection pass during the replay
would only traverse them. The collector is left as it was found, and what the replay
allocated is not left frozen."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from oasis_eval import evaluate, replay


@pytest.fixture
def run(tmp_path: Path) -> Path:
    evaluate(None, "builtin:careful", out=tmp_path / "run", quiet=True)
    return tmp_path / "run"


@pytest.fixture
def passes() -> Iterator[list[int]]:
    seen: list[int] = []

    def count(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            seen.append(int(info["generation"]))

    gc.callbacks.append(count)
    try:
        yield seen
    finally:
        gc.callbacks.remove(count)


def test_no_collection_pass_during_a_replay_and_the_collector_left_as_found(
    run: Path, passes: list[int]
) -> None:
    gc.collect()
    gc.set_threshold(100, 1, 1)  # a pass every 100 allocations, were the collector on
    thresholds = gc.get_threshold()
    try:
        passes.clear()
        report = replay(run)
        during = list(passes)
    finally:
        gc.set_threshold(700, 10, 10)
    assert report.identical and report.exit_code == 0
    assert during == []
    assert gc.isenabled() and thresholds == (100, 1, 1)
    assert gc.get_freeze_count() == 0  # nothing left frozen
    gc.disable()  # and a collector found off stays off
    try:
        assert replay(run).identical
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_engine_replay_pauses_the_collector_itself(run: Path, passes: list[int]) -> None:
    """``engine.replay.replay`` (what ``oasis merge``'s replay and the benchmarks call) pauses
    the collector on its own, not only under :func:`oasis_eval.replay`."""
    from oasis_eval.engine.replay import replay as engine_replay

    gc.collect()
    gc.set_threshold(100, 1, 1)
    try:
        passes.clear()
        result = engine_replay(run)
        during = list(passes)
    finally:
        gc.set_threshold(700, 10, 10)
    assert result.identical
    assert during == []
    assert gc.isenabled() and gc.get_freeze_count() == 0
