"""Worker processes for ``--parallel`` (engine/workers.py, issue 30): the verdict of a run
shared among forked workers is the serial run's, the first harness fault still ends the run
(core §3.7), a refusal, a plugin fault and a cancellation end it as in one process, no worker
outlives the run, and an agent or provider that does not say it may be copied never is."""

from __future__ import annotations

import os
import pickle
import socket
from typing import Any

import anyio
import pytest

from oasis_eval.adapters.agents import FunctionAgent
from oasis_eval.contract import AgentResponse, AgentUnusable
from oasis_eval.engine import workers
from oasis_eval.engine.record import RunInputs
from oasis_eval.engine.redaction import Redactor
from oasis_eval.engine.runner import evaluate
from oasis_eval.engine.selection import Selection
from oasis_eval.evaluation.behaviors.contained import PluginCall, PluginFault
from oasis_eval.evaluation.results import ScenarioState
from oasis_eval.examples import EXAMPLE_PROFILE_DIR
from oasis_eval.profiles.loader import load_profile
from oasis_eval.spec.common import VerdictStatus
from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.agents import BuiltinAgent
from oasis_sim_k8s.provider.faults import Faults

pytestmark = pytest.mark.skipif(
    not workers.replicable(), reason="worker processes need fork (Linux)"
)

KEY = b"w" * 32


@pytest.fixture(scope="module")
def profile():  # type: ignore[no-untyped-def]
    return load_profile(EXAMPLE_PROFILE_DIR).profile


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The pids of the workers forked in this process, each reaped by the run."""
    forked: list[int] = []
    fork = workers._fork

    def counted(*args: Any) -> Any:
        pid, reader = fork(*args)
        forked.append(pid)
        return pid, reader

    monkeypatch.setattr(workers, "_fork", counted)
    return forked


def run(profile, agent, provider=None, parallel=1, workers=0):  # type: ignore[no-untyped-def]
    provider = provider or SimK8sProvider()
    inputs = RunInputs(evaluator="test-lab", parallel=parallel, workers=workers)

    async def go() -> Any:
        try:
            return await evaluate(
                profile, agent, provider, inputs, Selection(), None, Redactor(key=KEY)
            )
        finally:
            await provider.aclose()

    return anyio.run(go)


def comparable(outcome):  # type: ignore[no-untyped-def]
    data = outcome.record.verdict.model_dump(mode="json")
    data["metadata"].pop("timestamp")
    data["metadata"].pop("duration")
    # observation windows and the agent's seconds are wall-clock: they differ between runs
    scenarios = [
        r.model_dump(mode="json", exclude={"observations", "agent_seconds"})
        for r in outcome.record.scenarios
    ]
    return data, scenarios


def assert_reaped(forked: list[int]) -> None:
    for pid in forked:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


@pytest.mark.parametrize("name", ["careful", "naive"])
def test_a_run_in_workers_gives_the_serial_verdict(profile, forks, name):  # type: ignore[no-untyped-def]
    serial = run(profile, BuiltinAgent(name), parallel=1)
    assert forks == []  # --parallel 1: nothing to share
    shared = run(profile, BuiltinAgent(name), parallel=8, workers=2)
    # one copy beside the runner per phase; the naive agent's Phase 1 FAILs: no Phase 2
    assert len(forks) == (2 if name == "careful" else 1)
    assert_reaped(forks)
    assert comparable(shared) == comparable(serial)
    assert shared.exit_code == serial.exit_code
    assert sorted(shared.evidence) == sorted(serial.evidence)
    assert shared.record.verdict.model_dump_json(exclude={"metadata"}) == (
        serial.record.verdict.model_dump_json(exclude={"metadata"})
    )


def test_a_provider_fault_in_a_worker_ends_the_run(profile, forks):  # type: ignore[no-untyped-def]
    provider = SimK8sProvider(faults=Faults(observe_error=True))
    outcome = run(profile, BuiltinAgent("careful"), provider, parallel=4, workers=2)
    assert len(forks) == 1  # Phase 1 only
    assert_reaped(forks)
    assert outcome.exit_code == 3
    assert outcome.record.verdict.safety is VerdictStatus.PROVIDER_FAILURE
    states = [r.state for r in outcome.record.scenarios]
    assert ScenarioState.not_run in states  # cut short: what had not finished never ran
    # Phase 2 never ran after a Phase 1 that did not PASS
    assert all(
        r.state is ScenarioState.not_run
        for r in outcome.record.scenarios
        if "capab" in r.scenario_id
    )


def test_an_agent_that_never_worked_stops_the_run_from_a_worker(profile, forks):  # type: ignore[no-untyped-def]
    async def refuse(task: Any) -> AgentResponse:
        raise AgentUnusable("the model endpoint refused the key")

    agent = FunctionAgent("refused", "1.0.0", {}, refuse, replicable=True)
    with pytest.raises(AgentUnusable, match="refused the key"):
        run(profile, agent, parallel=4, workers=2)
    assert len(forks) == 1
    assert_reaped(forks)


def test_cancelling_the_run_ends_every_worker(profile, forks):  # type: ignore[no-untyped-def]
    told, tell = socket.socketpair()  # inherited by the forked workers

    async def slow(task: Any) -> AgentResponse:
        tell.send(b"started")  # from a worker process: the run is mid-scenario
        await anyio.sleep(30)
        return AgentResponse(final_answer="late")

    agent = FunctionAgent("slow", "1.0.0", {}, slow, replicable=True, timeout=60)

    async def go() -> None:
        provider = SimK8sProvider()
        inputs = RunInputs(evaluator="test-lab", parallel=4, workers=2)
        async with anyio.create_task_group() as group:

            async def ctrl_c_once_started() -> None:  # as Ctrl-C: the run's scope is cancelled
                with anyio.fail_after(60):  # a hang guard
                    await anyio.wait_readable(told)
                group.cancel_scope.cancel()

            group.start_soon(ctrl_c_once_started)
            await evaluate(profile, agent, provider, inputs, Selection(), None, Redactor(key=KEY))
        await provider.aclose()

    try:
        anyio.run(go)
    finally:
        told.close()
        tell.close()
    assert len(forks) == 1
    assert_reaped(forks)


def test_an_agent_that_does_not_say_it_may_be_copied_runs_in_process(profile, forks):  # type: ignore[no-untyped-def]
    seen: list[int] = []

    async def answer(task: Any) -> AgentResponse:
        seen.append(os.getpid())  # only visible here if it ran in this process
        return AgentResponse(final_answer="Nothing to do.")

    outcome = run(profile, FunctionAgent("plain", "1.0.0", {}, answer), parallel=8, workers=2)
    assert forks == [] and set(seen) == {os.getpid()}
    assert outcome.record.verdict is not None


def test_a_provider_serving_agents_on_a_listener_is_not_copied() -> None:
    provider = SimK8sProvider()
    assert workers.replicable(provider, BuiltinAgent("careful"))
    assert not workers.replicable(SimK8sProvider(mcp=True))
    assert not workers.replicable(SimK8sProvider(faults=Faults(provision_error_rate=0.5)))
    assert not workers.replicable(object())  # says nothing: never copied


def test_worker_count_follows_cores_parallel_and_scenarios() -> None:
    assert workers.worker_count(0, 16, 50) == min(workers.cores(), 16)
    assert workers.worker_count(3, 16, 50) == 3
    assert workers.worker_count(3, 2, 50) == 2
    assert workers.worker_count(3, 16, 1) == 1
    assert workers._slots(16, 3) == [6, 5, 5] and sum(workers._slots(5, 2)) == 5


def test_a_plugin_fault_crosses_from_a_worker_as_itself() -> None:
    fault = PluginFault(PluginCall("ep", "B1", "s1"), "ran past the bound")
    back = pickle.loads(pickle.dumps(fault))
    assert type(back) is PluginFault and str(back) == str(fault) and back.call == fault.call
    assert workers._portable(fault) is fault
    lost = workers._portable(_Unpicklable("x"))
    assert isinstance(lost, workers.WorkerLost) and "_Unpicklable" in str(lost)


class _Unpicklable(Exception):
    def __init__(self, a: str, b: str = "") -> None:  # pickling loses b: not itself again
        super().__init__(a + b)
        self.lock = __import__("threading").Lock()


def test_the_worker_count_is_never_part_of_the_record() -> None:
    """The verdict never depends on it: a run resumed or replayed with another is the same."""
    assert "workers" not in RunInputs(workers=3).model_dump(mode="json")
    with pytest.raises(ValueError):
        RunInputs(workers=-1)
    # opt-in: by default every scenario runs in the runner's process (copies pay off only on
    # idle cores)
    assert RunInputs().workers == 1


def test_the_api_and_the_cli_refuse_a_negative_worker_count(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import oasis_eval
    from oasis_eval.api import OptionError

    with pytest.raises(OptionError) as refused:
        oasis_eval.evaluate(workers=-1, out=tmp_path / "run", quiet=True)
    assert refused.value.option == "--workers"
    assert not (tmp_path / "run").exists()
    from typer.testing import CliRunner

    from oasis_eval.cli.main import app

    result = CliRunner().invoke(app, ["run", "--workers", "-1", "--out", str(tmp_path / "cli")])
    assert result.exit_code == 2 and not (tmp_path / "cli").exists()


def test_frames_are_taken_whole_however_the_pipe_cuts_them() -> None:
    data = workers._frame(("result", 0, "a" * 70_000)) + workers._frame(("done", None))
    buffer, found = bytearray(), []
    for cut in range(0, len(data), 4096):  # as a pipe hands them over, in pieces
        buffer += data[cut : cut + 4096]
        found += workers._frames(buffer)
    assert found == [("result", 0, "a" * 70_000), ("done", None)] and buffer == bytearray()


class _SeesCollector:
    """Unpickles to whether the cyclic collector was on while it was being unpickled."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (_collector_on, ())


def _collector_on() -> bool:
    import gc

    return gc.isenabled()


def test_frames_are_unpickled_with_the_collector_paused_and_left_as_found() -> None:
    """A frame is a scenario's evidence, none of it garbage: no collection pass runs while it
    is unpickled (issue 30), and the collector is on again afterwards, as it was."""
    import gc

    buffer = bytearray(workers._frame(("result", 0, _SeesCollector())))
    assert gc.isenabled()
    assert workers._frames(buffer) == [("result", 0, False)] and gc.isenabled()
    gc.disable()
    try:
        buffer += workers._frame(("done", None))
        assert workers._frames(buffer) == [("done", None)] and not gc.isenabled()
    finally:
        gc.enable()


def test_a_counter_lock_never_released_is_a_lost_worker_not_a_hang(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A copy killed while it held the scenario counter would leave the lock held: the next
    take waits a bounded time and ends the run as an internal error (exit 4)."""

    async def work(item: int) -> int:
        return item

    plan = workers._Plan([1, 2], work, lambda _: False)
    assert plan.take() == 0
    monkeypatch.setattr(workers, "TAKE_TIMEOUT", 0.05)
    import threading

    held = threading.Event()
    # held by another thread and never released, as a copy killed inside its take leaves it
    threading.Thread(
        target=lambda: (plan.next.get_lock().acquire(), held.set()), daemon=True
    ).start()
    assert held.wait(5)
    with pytest.raises(workers.WorkerLost):
        plan.take()
