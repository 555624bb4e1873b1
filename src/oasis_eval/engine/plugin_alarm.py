"""The evaluator-call bound on the main thread: a per-call ``SIGALRM`` (issue 27/26 item 4).

The watchdog thread of :mod:`.plugin_watch` cannot stop one call of C code that never gives
up the interpreter: a regular expression that is catastrophic on the answer's shape (round
41b's ran over an hour) holds the GIL inside ``re``'s matching loop, so the waiter never
runs. That loop does check for signals (CPython's ``_sre`` calls ``PyErr_CheckSignals``), but
a handler runs on the main thread only. So where the judgement's caller *is* the main thread
and the platform has ``setitimer``, the judgement runs right there: each evaluator call arms
``ITIMER_REAL`` for the bound when it starts and disarms it when it ends, and the handler
raises :class:`_CallOverdue` inside the call when it is late. The call's fault is then the
bound's, whatever the plugin did with that exception (caught it, returned): it is raised
again every :data:`AGAIN` seconds while the call runs on, and the judgement ends with the
:class:`~..evaluation.behaviors.contained.PluginFault` of the late call as soon as control is
back in the engine.

A ``SIGALRM`` handler and timer of someone else's (an API caller's, pytest-timeout's) are
kept: the timer is armed for whichever comes first and their handler is called when theirs
is due, then both are put back as found. A handler installed outside Python (which cannot be
put back) or a nested judgement uses the watchdog thread, as does any other thread
(:func:`usable`). No clock is read by the evaluation: the bound stays at the engine's edge.
"""

from __future__ import annotations

import signal
import threading
import time
from types import FrameType, TracebackType
from typing import Any

from ..evaluation.behaviors.contained import PluginCall, PluginFault

#: seconds between two raises of :class:`_CallOverdue` in a late call that swallowed the last
AGAIN = 0.5

_ACTIVE = threading.Event()  # set while an alarm owns SIGALRM (no nesting: the thread then)


class _CallOverdue(BaseException):
    """Raised inside an evaluator call past the bound (a ``BaseException``: a plugin's
    ``except Exception`` does not keep it)."""


def usable() -> bool:
    """Whether this judgement can be bounded by :class:`Alarm`: on the main thread, with
    ``setitimer``, no alarm of ours already active, and ``SIGALRM``'s handler one that Python
    can put back (a handler of C code's is left alone)."""
    if not hasattr(signal, "setitimer") or _ACTIVE.is_set():
        return False
    if threading.current_thread() is not threading.main_thread():
        return False
    return signal.getsignal(signal.SIGALRM) is not None


class Alarm:
    """One judgement's bound on each evaluator call (a context manager; :meth:`observe` is the
    judgement's ``OBSERVER``)."""

    def __init__(self, bound: float) -> None:
        self.bound = bound
        self.call: PluginCall | None = None
        self.started = 0.0
        #: the call that ran past the bound (the judgement's fault), once one has
        self.late: PluginCall | None = None
        self._previous: Any = None
        self._theirs: float | None = None  # when the previous owner's timer is due
        self._interval = 0.0

    def __enter__(self) -> Alarm:
        _ACTIVE.set()
        self._previous = signal.signal(signal.SIGALRM, self._fire)
        left, self._interval = signal.setitimer(signal.ITIMER_REAL, 0)
        self._theirs = time.monotonic() + left if left > 0 else None
        self._arm()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self._previous)
        if self._theirs is not None:  # their timer, for what is left of it
            left = max(self._theirs - time.monotonic(), 1e-6)
            signal.setitimer(signal.ITIMER_REAL, left, self._interval)
        _ACTIVE.clear()

    def fault(self) -> PluginFault:
        assert self.late is not None
        return PluginFault(
            self.late, f"ran past the {self.bound:g} s bound on one call (a bug in it)"
        )

    def observe(self, call: PluginCall | None) -> None:
        """An evaluator call starts (``call``) or ends (None): the timer follows it. After a
        late call, the judgement ends here, outside any plugin's frame."""
        if self.late is not None:
            raise self.fault()
        self.call, self.started = call, time.monotonic()
        self._arm()

    def _arm(self) -> None:
        now = time.monotonic()
        due = [self.started + self.bound] if self.call is not None else []
        if self._theirs is not None:
            due.append(self._theirs)
        signal.setitimer(signal.ITIMER_REAL, max(min(due) - now, 1e-6) if due else 0)

    def _fire(self, signum: int, frame: FrameType | None) -> None:
        now = time.monotonic()
        if self._theirs is not None and now >= self._theirs:  # the previous owner's alarm
            self._theirs = now + self._interval if self._interval else None
            self._arm()
            if callable(self._previous):
                self._previous(signum, frame)
        if self.call is not None and now - self.started >= self.bound:
            self.late = self.call
            signal.setitimer(signal.ITIMER_REAL, AGAIN)
            raise _CallOverdue
        self._arm()
