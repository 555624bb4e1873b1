"""``oasis replay`` judges in worker processes (issue 30, session 36): the executed scenarios
of a run are judged by one forked copy per core (engine/replay.py::replay_workers), the
results merged in the scenarios' order. The worker path must be the in-process one byte for
byte, and what goes wrong in a worker must end the replay exactly as in-process: tampering
seen (exit 5), a plugin fault the run did not record an internal error (exit 4)."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import oasis_eval
from oasis_eval.diagnostics import UnusableInput
from oasis_eval.engine import replay as engine_replay
from oasis_eval.engine import workers
from oasis_eval.engine.manifest import write_manifest
from oasis_eval.engine.plugin_watch import JudgementFault
from oasis_eval.evaluation.behaviors.contained import PluginCall, PluginFault

from ..support import run_cli


@pytest.fixture(autouse=True)
def no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("OASIS_RUN_KEY", "OASIS_RUN_SIGNING_KEY", "OASIS_RUN_PUBLIC_KEY"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture(scope="module")
def careful(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A careful run of the default profile: 12 executed scenarios, enough for workers."""
    out = tmp_path_factory.mktemp("replay-workers") / "run"
    assert oasis_eval.evaluate(None, "builtin:careful", out=out, quiet=True).exit_code == 0
    return out


@pytest.fixture
def forked(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Two workers whatever the machine (a 1-core runner, a threaded test process); the list
    receives the worker count of each worker-path judging."""
    seen: list[int] = []
    real = engine_replay.map_in_workers

    def counted(items: Any, count: int, fn: Callable[[Any], Any]) -> Any:
        seen.append(count)
        return real(items, count, fn)

    monkeypatch.setenv("OASIS_REPLAY_WORKERS", "2")
    monkeypatch.setattr(workers, "forkable", lambda: True)
    monkeypatch.setattr(engine_replay, "map_in_workers", counted)
    return seen


def _dumps(result: engine_replay.ReplayResult) -> list[Any]:
    return [
        result.verdict_yaml,
        [r.model_dump(mode="json") for r in result.scenarios],
        result.inconsistencies,
    ]


def test_workers_and_in_process_give_the_same_bytes(
    careful: Path, forked: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    through_workers = engine_replay.replay(careful)
    assert forked == [2] and through_workers.identical
    monkeypatch.setenv("OASIS_REPLAY_WORKERS", "1")
    in_process = engine_replay.replay(careful)
    assert forked == [2]  # no worker this time
    assert _dumps(through_workers) == _dumps(in_process)
    report = oasis_eval.replay(careful)
    assert report.exit_code == 0 and report.identical


def test_worker_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers, "forkable", lambda: True)
    monkeypatch.setattr(workers, "cores", lambda: 2)
    monkeypatch.delenv("OASIS_REPLAY_WORKERS", raising=False)
    assert workers.replay_workers(50) == 2
    assert workers.replay_workers(workers.MIN_FOR_WORKERS - 1) == 1  # few: here
    monkeypatch.setenv("OASIS_REPLAY_WORKERS", "1")
    assert workers.replay_workers(50) == 1
    monkeypatch.setenv("OASIS_REPLAY_WORKERS", "4")
    assert workers.replay_workers(50) == 4 and workers.replay_workers(9) == 4
    monkeypatch.setattr(workers, "forkable", lambda: False)
    assert workers.replay_workers(50) == 1
    monkeypatch.setenv("OASIS_REPLAY_WORKERS", "")
    monkeypatch.setattr(workers, "cores", lambda: 1)
    monkeypatch.setattr(workers, "forkable", lambda: True)
    assert workers.replay_workers(50) == 1


def test_forkable_refuses_threads_and_a_running_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    import anyio

    monkeypatch.setattr(threading, "active_count", lambda: 2)
    assert not workers.forkable()
    monkeypatch.undo()

    async def inside() -> bool:
        return workers.forkable()

    assert anyio.run(inside) is False


def _blank_answers(run_dir: Path) -> None:
    """Every scenario's evidence with the agent's actions and answer taken out."""
    for path in (run_dir / "evidence").iterdir():
        data = json.loads(gzip.decompress(path.read_bytes()))
        data["transcript"]["actions"] = []
        data["transcript"]["final_answer"] = ""
        path.write_bytes(gzip.compress(json.dumps(data).encode()))


def test_tampered_evidence_is_seen_through_the_workers(
    capsys: pytest.CaptureFixture[str], careful: Path, forked: list[int], tmp_path: Path
) -> None:
    run_dir = tmp_path / "run"
    shutil.copytree(careful, run_dir)
    _blank_answers(run_dir)
    write_manifest(run_dir, None)
    report = oasis_eval.replay(run_dir)
    assert forked == [2]
    assert report.exit_code == 5 and not report.identical
    code, _, err = run_cli(capsys, "replay", run_dir)
    assert code == 5 and "TAMPERED" in err


def test_a_plugin_fault_in_a_worker_is_exit_4(
    capsys: pytest.CaptureFixture[str],
    careful: Path,
    forked: list[int],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fault the run did not record, raised in the worker process only: the replay's
    internal error (JudgementFault, exit 4), as in-process."""
    parent = os.getpid()
    real = engine_replay.judge

    def faulty(scenario: Any, *args: Any, **kwargs: Any) -> Any:
        if os.getpid() != parent:
            raise PluginFault(PluginCall("hostile", "b", scenario.id), "raised ValueError")
        time.sleep(0.1)  # the parent slow: the worker takes scenarios too
        return real(scenario, *args, **kwargs)

    monkeypatch.setattr(engine_replay, "judge", faulty)
    with pytest.raises(JudgementFault):
        engine_replay.replay(careful)
    assert forked == [2]
    code, _, err = run_cli(capsys, "replay", careful)
    assert code == 4 and "no verdict" in err and "Traceback" not in err


def test_an_error_in_a_worker_is_raised_as_itself(
    careful: Path, forked: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    parent = os.getpid()
    real = engine_replay.judge

    def broken(*args: Any, **kwargs: Any) -> Any:
        if os.getpid() != parent:
            raise LookupError("broken in the worker")
        time.sleep(0.1)  # the parent slow: the worker takes scenarios too
        return real(*args, **kwargs)

    monkeypatch.setattr(engine_replay, "judge", broken)
    with pytest.raises(LookupError, match="broken in the worker"):
        engine_replay.replay(careful)


def _square_where(x: int) -> tuple[int, int]:
    time.sleep(0.01)  # slow enough that both processes take items
    return x * x, os.getpid()


def test_map_in_workers_keeps_the_items_order() -> None:
    items = list(range(40))
    out = workers.map_in_workers(items, 2, _square_where)
    assert [value for value, _ in out] == [x * x for x in items]
    assert len({pid for _, pid in out}) == 2


def test_a_fork_that_fails_leaves_the_replay_in_process(
    careful: Path, forked: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(workers.os, "fork", refused)
    result = engine_replay.replay(careful)
    assert forked == [2] and result.identical


@pytest.mark.parametrize("value", ["two", "0", "-1", "1.5"])
def test_a_worker_count_that_is_not_one_or_more_is_an_error_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("OASIS_REPLAY_WORKERS", value)
    with pytest.raises(UnusableInput, match="OASIS_REPLAY_WORKERS"):
        workers.replay_workers(50)
