"""The bound on each behavior evaluator call, kept at the engine's edge (issue 26 item 4)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

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

CALL = PluginCall("slow = slow_plugin:evaluators", "be_slow", "s-001")


def _in_plugin(seconds: float) -> str:
    """What contained.call does around an evaluator: tell the observer, run, tell it again."""
    observer = OBSERVER.get()
    assert observer is not None  # judged() installs it in the judging thread
    observer(CALL)
    time.sleep(seconds)
    observer(None)
    return "judged"


def test_a_judgement_runs_in_its_own_thread_and_returns() -> None:
    assert judged(lambda: threading.current_thread().name) == "oasis-judge"
    assert judged(lambda: _in_plugin(0.01), bound=5) == "judged"


def test_a_call_past_the_bound_is_a_plugin_fault_naming_it() -> None:
    started = time.monotonic()
    with pytest.raises(PluginFault, match=r"'slow = slow_plugin:evaluators'.*'be_slow'.*'s-001'"):
        judged(lambda: _in_plugin(30), bound=0.2)
    assert time.monotonic() - started < 5  # the hanging thread is abandoned, not awaited


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
    first = judged(threading.current_thread)
    second = judged(threading.current_thread)
    assert first is second and first is not threading.current_thread()


def test_a_thread_abandoned_past_the_bound_is_never_reused() -> None:
    seen: list[threading.Thread] = []

    def hang() -> str:
        seen.append(threading.current_thread())
        return _in_plugin(3)

    with pytest.raises(PluginFault):
        judged(hang, bound=0.1)
    assert judged(threading.current_thread) is not seen[0]


def test_a_forked_child_judges_in_threads_of_its_own() -> None:
    import multiprocessing

    judged(threading.current_thread)  # leaves an idle judging thread in this process
    context = multiprocessing.get_context("fork")
    with context.Pool(1) as pool:
        assert pool.apply_async(judged, (_child_judgement,)).get(timeout=20) == "judged"


def _child_judgement() -> str:
    return "judged"
