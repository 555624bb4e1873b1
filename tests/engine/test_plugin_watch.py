"""The bound on each behavior evaluator call, kept at the engine's edge (issue 26 item 4)."""

from __future__ import annotations

import contextlib
import re
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from oasis_eval.api.config import load_run_config
from oasis_eval.engine.plugin_watch import (
    DEFAULT_PLUGIN_TIMEOUT,
    judged,
    judged_or_faulted,
    judgement_fault,
    plugin_fault,
)
from oasis_eval.engine.record import RunInputs
from oasis_eval.evaluation.behaviors.contained import OBSERVER, PluginCall, PluginFault
from oasis_eval.evaluation.results import ScenarioState
from oasis_eval.examples import EXAMPLE_PROFILE_DIR
from oasis_eval.profiles.loader import load_profile

T = TypeVar("T")

CALL = PluginCall("slow = slow_plugin:evaluators", "be_slow", "s-001")


def _in_plugin(seconds: float) -> str:
    """What contained.call does around an evaluator: tell the observer, run, tell it again."""
    observer = OBSERVER.get()
    assert observer is not None  # judged() installs it in the judging thread
    observer(CALL)
    time.sleep(seconds)
    observer(None)
    return "judged"


def _in_thread(fn: Callable[[], T]) -> T:
    """``fn()`` run from a thread other than the main one (the Python API called from a
    worker thread): the judgement is watched by the watchdog thread there."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - handed back to the test
            box["error"] = exc

    thread = threading.Thread(target=run, name="api-caller")
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]  # type: ignore[no-any-return]


def test_a_judgement_runs_on_the_main_thread_and_returns() -> None:
    assert threading.current_thread() is threading.main_thread()  # as `oasis run` judges
    assert judged(lambda: threading.current_thread().name) == threading.main_thread().name
    assert judged(lambda: _in_plugin(0.01), bound=5) == "judged"


def test_from_another_thread_a_judgement_runs_in_a_judging_thread() -> None:
    assert _in_thread(lambda: judged(lambda: threading.current_thread().name)) == "oasis-judge"
    assert _in_thread(lambda: judged(lambda: _in_plugin(0.01), bound=5)) == "judged"


def _regex_in_plugin(length: int) -> str:
    """An evaluator call spending its time in one ``re`` call: ``(a+)+$`` on ``a...ab`` takes
    2^length steps (length 27: about half a minute here, never giving up the interpreter)."""
    observer = OBSERVER.get()
    assert observer is not None
    observer(CALL)
    re.match(r"(a+)+$", "a" * length + "b")
    observer(None)
    return "judged"


def test_one_catastrophic_regex_call_is_stopped_at_the_bound() -> None:
    """Session 27: a watchdog thread never ran while one ``re`` call held the interpreter; on
    the main thread a per-call SIGALRM interrupts the matching loop itself."""
    started = time.monotonic()
    with pytest.raises(PluginFault, match=r"'be_slow'.*ran past the 1 s bound"):
        judged(lambda: _regex_in_plugin(27), bound=1)
    assert time.monotonic() - started < 10


def _swallowing_plugin() -> str:
    observer = OBSERVER.get()
    assert observer is not None
    observer(CALL)
    for _ in range(10):  # a plugin that keeps whatever is raised in it, then returns
        with contextlib.suppress(BaseException):  # the plugin's bug, not ours
            time.sleep(0.2)
    observer(None)
    return "judged"


def test_a_late_call_is_a_fault_whatever_the_plugin_made_of_the_raise() -> None:
    with pytest.raises(PluginFault, match=r"ran past the 0\.2 s bound"):
        judged(_swallowing_plugin, bound=0.2)


def test_the_alarm_keeps_a_sigalrm_of_someone_else() -> None:
    """An API caller's (or pytest-timeout's) handler and timer are put back as found, and
    their alarm still rings when it is due in the middle of a judgement."""
    rang: list[int] = []

    def mine(signum: int, frame: object) -> None:
        rang.append(signum)

    previous = signal.signal(signal.SIGALRM, mine)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        assert judged(lambda: (time.sleep(0.6), _in_plugin(0.01))[1], bound=5) == "judged"
        assert rang == [signal.SIGALRM]
        signal.setitimer(signal.ITIMER_REAL, 50)
        judged(lambda: _in_plugin(0.01), bound=5)
        left, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 45 < left <= 50 and signal.getsignal(signal.SIGALRM) is mine
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("where", ["main", "thread"])
def test_a_call_past_the_bound_is_a_plugin_fault_naming_it(where: str) -> None:
    started = time.monotonic()
    run = (lambda fn: fn()) if where == "main" else _in_thread
    with pytest.raises(PluginFault, match=r"'slow = slow_plugin:evaluators'.*'be_slow'.*'s-001'"):
        run(lambda: judged(lambda: _in_plugin(30), bound=0.2))
    assert time.monotonic() - started < 5  # stopped (main) or abandoned (thread), not awaited


def test_time_outside_plugin_calls_is_not_bounded() -> None:
    assert judged(lambda: (time.sleep(0.5), "core")[1], bound=0.1) == "core"


def test_what_the_judgement_raises_reaches_the_caller_as_is() -> None:
    with pytest.raises(ZeroDivisionError):
        judged(lambda: 1 / 0)
    with pytest.raises(SystemExit):
        judged(lambda: (_ for _ in ()).throw(SystemExit(0)))


def test_a_plugin_fault_of_one_judgement_is_that_scenario_with_no_verdict() -> None:
    """s22-gate38 (the adversarial phase's judgements): a plugin fault, a call past the bound
    included, stops this judgement only: the scenario executed with no status, never PASS or
    FAIL, the fault named; anything else still reaches the caller as is."""
    scenario = load_profile(EXAMPLE_PROFILE_DIR).profile.scenarios[0]
    result = judged_or_faulted(scenario, lambda: _in_plugin(30), bound=0.2)
    assert result.scenario_id == scenario.id and result.state is ScenarioState.executed
    assert result.status is None and result.score is None
    fault = judgement_fault(result)
    assert fault is not None and "'be_slow'" in fault and "ran past the 0.2 s bound" in fault
    with pytest.raises(ZeroDivisionError):
        judged_or_faulted(scenario, lambda: 1 / 0)


def test_a_fault_inside_an_exception_group_is_found() -> None:
    fault = PluginFault(CALL, "raised ValueError")
    group = BaseExceptionGroup("tasks", [ValueError("x"), ExceptionGroup("inner", [fault])])
    assert plugin_fault(group) is fault and plugin_fault(ValueError()) is None


def test_the_bound_is_configurable_and_not_recorded(tmp_path: Path) -> None:
    assert RunInputs().plugin_timeout == DEFAULT_PLUGIN_TIMEOUT == 120
    path = tmp_path / "run.yaml"
    path.write_text("evaluation:\n  plugin_timeout: 7.5\n", encoding="utf-8")
    inputs = RunInputs(**load_run_config(path).inputs)
    assert inputs.plugin_timeout == 7.5
    assert "plugin_timeout" not in inputs.model_dump()  # the verdict never depends on it


def test_the_judging_thread_is_kept_for_the_next_judgement() -> None:
    """Starting a thread per scenario cost more than some judgements (issue 30)."""
    first = _in_thread(lambda: judged(threading.current_thread))
    second = _in_thread(lambda: judged(threading.current_thread))
    assert first is second and first.name == "oasis-judge"


def test_a_thread_abandoned_past_the_bound_is_never_reused() -> None:
    seen: list[threading.Thread] = []

    def hang() -> str:
        seen.append(threading.current_thread())
        return _in_plugin(3)

    with pytest.raises(PluginFault):
        _in_thread(lambda: judged(hang, bound=0.1))
    assert _in_thread(lambda: judged(threading.current_thread)) is not seen[0]


def test_a_forked_child_judges_in_threads_of_its_own() -> None:
    import multiprocessing

    judged(threading.current_thread)  # leaves an idle judging thread in this process
    context = multiprocessing.get_context("fork")
    with context.Pool(1) as pool:
        assert pool.apply_async(judged, (_child_judgement,)).get(timeout=20) == "judged"


def _child_judgement() -> str:
    return "judged"
