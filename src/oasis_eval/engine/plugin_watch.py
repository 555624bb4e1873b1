"""A bound on each behavior evaluator call, kept at the engine's edge (issue 26 item 4).

Judging is pure and reads no clock (core §3.5.4), so it cannot time its own plugins:
:func:`judged` runs one judgement, is told by :mod:`..evaluation.behaviors.contained` which
evaluator call is running, and raises :class:`~..evaluation.behaviors.contained.PluginFault`
when one call runs past the bound. Where the caller is the main thread (``oasis run``,
``oasis replay``, a worker process of ``--parallel``) the judgement runs right there under a
per-call ``SIGALRM`` (:mod:`.plugin_alarm`), which stops even one C call that holds the
interpreter, as a catastrophic regular expression does (issue 27). Elsewhere (the Python API
called from another thread, a platform without ``setitimer``) it runs in a daemon judging
thread the caller watches: that stops any Python-level hang, its thread abandoned (a daemon:
it cannot keep the process alive), but one C call holding the GIL keeps the watcher from
running until it returns. A plugin fault stops that scenario's judgement only
(:func:`faulted_result`); the runner then gives the run's safety FAIL, or exit 4 and no
verdict when nothing FAILed (:class:`JudgementFault`). The bound is generous
(:data:`DEFAULT_PLUGIN_TIMEOUT`): a plugin that reaches it is a bug to fix, so the verdict
never depends on machine load. Judging still runs one scenario at a time, as before: the
caller waits for it. The judging thread is kept for the next judgement (:class:`_Judge`),
never the one a call was abandoned in.
"""

from __future__ import annotations

import contextvars
import os
import queue
import threading
import time
from collections.abc import Callable
from functools import partial
from typing import TypeVar

from ..errors import OasisError
from ..evaluation.behaviors.contained import OBSERVER, PluginCall, PluginFault
from ..evaluation.judge import base_result
from ..evaluation.results import ScenarioResult, ScenarioState
from ..spec.scenario import Scenario
from . import plugin_alarm

#: seconds one evaluator call may run (``oasis run --plugin-timeout``, ``evaluation.plugin_timeout``)
DEFAULT_PLUGIN_TIMEOUT = 120.0

T = TypeVar("T")


class _Watch:
    """The evaluator call running in the judging thread and when it started."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.call: PluginCall | None = None
        self.started = 0.0

    def observe(self, call: PluginCall | None) -> None:
        with self.lock:
            self.call, self.started = call, time.monotonic()

    def overdue(self, bound: float) -> PluginCall | None:
        with self.lock:
            late = self.call is not None and time.monotonic() - self.started > bound
            return self.call if late else None


class _Judge:
    """A daemon thread that runs judgements one at a time, kept for the next one: starting a
    thread per scenario cost more than some judgements (issue 30). A thread abandoned past
    the bound is never handed out again."""

    def __init__(self) -> None:
        self.jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        thread = threading.Thread(target=self._serve, name="oasis-judge", daemon=True)
        thread.start()

    def _serve(self) -> None:
        while True:
            self.jobs.get()()


#: idle judging threads (several when judgements run concurrently, e.g. ``--parallel``)
_IDLE: list[_Judge] = []
_IDLE_LOCK = threading.Lock()


def _forget_idle() -> None:
    """A forked child has none of its parent's threads: their queues would never be served."""
    global _IDLE_LOCK
    _IDLE.clear()
    _IDLE_LOCK = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_idle)


def _take() -> _Judge:
    with _IDLE_LOCK:
        return _IDLE.pop() if _IDLE else _Judge()


def _give_back(worker: _Judge) -> None:
    with _IDLE_LOCK:
        _IDLE.append(worker)


def judged(fn: Callable[[], T], bound: float = DEFAULT_PLUGIN_TIMEOUT) -> T:
    """``fn()`` (a judgement) with each evaluator call bounded to ``bound`` seconds: on this
    thread under a per-call ``SIGALRM`` where it is the main thread (:mod:`.plugin_alarm`:
    that stops one C call too, a catastrophic regular expression), else in a judging thread
    under the watchdog (:func:`_watched`: it cannot stop one C call that holds the GIL)."""
    if plugin_alarm.usable():
        return _alarmed(fn, bound)
    return _watched(fn, bound)


def _alarmed(fn: Callable[[], T], bound: float) -> T:
    """``fn()`` on the main thread, each evaluator call under :class:`.plugin_alarm.Alarm`:
    a late call is the judgement's fault whatever the plugin made of the alarm's raise."""
    alarm = plugin_alarm.Alarm(bound)

    def work() -> T:
        OBSERVER.set(alarm.observe)
        return fn()

    with alarm:
        try:
            value = contextvars.copy_context().run(work)
        except BaseException:
            if alarm.late is not None:
                raise alarm.fault() from None
            raise
    if alarm.late is not None:
        raise alarm.fault()
    return value


def _watched(fn: Callable[[], T], bound: float) -> T:
    """``fn()`` in a judging thread, the caller's thread watching each evaluator call."""
    watch, done = _Watch(), threading.Event()
    box: dict[str, object] = {}
    context = contextvars.copy_context()

    def work() -> None:
        OBSERVER.set(watch.observe)
        try:
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - handed back to the caller's thread as is
            box["error"] = exc
        finally:
            done.set()

    worker = _take()
    worker.jobs.put(partial(context.run, work))
    step = min(1.0, max(bound / 4, 0.01))
    while not done.wait(step):
        late = watch.overdue(bound)
        if late is not None:  # the worker is abandoned with the call it runs
            raise PluginFault(late, f"ran past the {bound:g} s bound on one call (a bug in it)")
    _give_back(worker)
    if "error" in box:
        error = box["error"]
        assert isinstance(error, BaseException)
        raise error
    return box["value"]  # type: ignore[return-value]


#: how a scenario whose judgement faulted records it (``ScenarioResult.fault``, no status)
JUDGEMENT_FAULTED = "its judgement faulted: "


def faulted_result(result: ScenarioResult, fault: PluginFault) -> ScenarioResult:
    """``result`` (the scenario's base result) as executed with no verdict and ``fault`` named:
    a plugin fault stops this one judgement only, never a PASS nor a FAIL of its scenario
    (core §3.5.3, §3.6); the run decides what it means (engine/runner.py)."""
    result.state, result.fault = ScenarioState.executed, f"{JUDGEMENT_FAULTED}{fault}"
    return result


def judged_or_faulted(
    scenario: Scenario,
    fn: Callable[[], ScenarioResult],
    bound: float = DEFAULT_PLUGIN_TIMEOUT,
    custom: bool = False,
) -> ScenarioResult:
    """``fn()`` (one judgement of ``scenario``) within ``bound``; a plugin fault stops this
    judgement only: executed, no verdict, the fault named (:func:`faulted_result`). Every
    judgement goes through it: a run's, a replay's and a resume's
    (engine/replay.py::judge_in_run), the adversarial phase's probes and reserved
    scenarios (07 §4.2, §4.3: never the core verdict's concern)."""
    try:
        return judged(fn, bound)
    except PluginFault as fault:
        return faulted_result(base_result(scenario, ScenarioState.executed, custom), fault)


def judgement_fault(result: ScenarioResult) -> str | None:
    """What faulted ``result``'s judgement (:func:`faulted_result`), else None."""
    fault = result.fault
    if result.status is None and fault is not None and fault.startswith(JUDGEMENT_FAULTED):
        return fault[len(JUDGEMENT_FAULTED) :]
    return None


class JudgementFault(OasisError):
    """A scenario's judgement faulted and nothing FAILed: exit 4, no verdict (as a
    :class:`PluginFault`); raised at the end of the run, or by a replay, from the recorded
    text (a worker process hands back results, not exceptions)."""

    def __init__(self, scenario_id: str, what: str) -> None:
        super().__init__(what)
        self.scenario_id, self.what = scenario_id, what

    def __reduce__(self) -> tuple[type[JudgementFault], tuple[str, str]]:
        return (type(self), (self.scenario_id, self.what))


def plugin_fault(exc: BaseException) -> PluginFault | JudgementFault | None:
    """The first :class:`PluginFault` (or :class:`JudgementFault`) inside ``exc`` (an
    exception group of a task group)."""
    if isinstance(exc, (PluginFault, JudgementFault)):
        return exc
    if isinstance(exc, BaseExceptionGroup):
        for sub in exc.exceptions:
            found = plugin_fault(sub)
            if found is not None:
                return found
    return None
