"""One judgement's readings of text, each computed once (issue 30).

The SI evaluators read the same sentences of one answer many times (its sentence split, its
clauses, the claims of each sentence: a thousand calls per SI run, a third of them repeats).
The text primitives marked :func:`per_judgement` keep their results in the memo of the
judgement under way, :meth:`.context.VerificationContext.reading`, keyed by the text: the
memo belongs to that one scenario's verification and is dropped with it, and a primitive is
a pure function of its text, so a memoised result is the result (verification stays a pure
deterministic function, core §3.5.4). Outside a judgement (a unit test, a tool) the
primitives compute as before.

Within a run (:class:`RunReadings`, opened by the engine around each judgement of one run or
replay), a reading whose arguments are plain values (texts, numbers, tuples and frozensets)
is kept for the run's other judgements too: an agent repeats its sentences from scenario to
scenario (its trail lines, its headings, its environment line: half the sentences of a
careful SI run, issue 30), and a pure reading of the same text is the same reading whichever
scenario asks. Nothing of a scenario's evidence is kept that way: a reading of an object (an
answer's reading, a context) stays in its judgement's memo. The run's readings are bounded
(:data:`RUN_LIMIT`) and dropped with the run; a second run starts with none.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, ParamSpec, TypeVar

T = TypeVar("T")
K = TypeVar("K")
P = ParamSpec("P")

#: the memo of the judgement under way in this thread of control (None: none is)
_CURRENT: ContextVar[dict[Hashable, Any] | None] = ContextVar("oasis_reading", default=None)
#: the readings the judgements of the run under way share (None: no run is open)
_RUN: ContextVar[dict[Hashable, dict[Any, Any]] | None] = ContextVar("oasis_run", default=None)

#: where a judgement's memo holds the run's shared readings (no other key of a memo is it)
_SHARED = object()

#: the most readings a run keeps (all readers together): past it, the run's readings are
#: dropped at the next judgement (a careful SI run keeps about 53,000 readings, 10.6 MB
#: with the texts they hold)
RUN_LIMIT = 100_000

#: the types of an argument a run may keep a reading of: values, equal when their contents
#: are (a tuple or frozenset's own elements are not looked into: a reading is a pure
#: function of its arguments, so an object among them only keeps that object alive), a
#: compiled pattern (equal when its pattern and flags are) and the readers registered by
#: :func:`run_keyed`
_PLAIN: set[type] = {str, int, float, bool, type(None), tuple, frozenset, re.Pattern}


def run_keyed(cls: type[K]) -> type[K]:
    """Class decorator: a reading of one of ``cls``'s objects (a phrase list: made at import
    or cached, never changed) is kept for the run like a reading of a text."""
    _PLAIN.add(cls)
    return cls


class RunReadings:
    """The readings of text the judgements of one run share (issue 30): the engine makes
    one per run or replay and judges each scenario within :meth:`judging`."""

    def __init__(self, limit: int = RUN_LIMIT) -> None:
        self._shared: dict[Hashable, dict[Any, Any]] = {}
        self._limit = limit

    def __len__(self) -> int:
        return sum(map(len, self._shared.values()))

    @contextmanager
    def judging(self) -> Iterator[None]:
        """While open, a judgement keeps its plain readings for the run's next ones."""
        if len(self) > self._limit:
            self._shared.clear()
        token = _RUN.set(self._shared)
        try:
            yield
        finally:
            _RUN.reset(token)


@contextmanager
def judgement_memo(memo: dict[Hashable, Any]) -> Iterator[None]:
    """:func:`per_judgement` primitives share ``memo`` until the block ends (and the run's
    readings, when a run is open: :class:`RunReadings`)."""
    shared = _RUN.get()
    if shared is not None:
        memo[_SHARED] = shared
    token = _CURRENT.set(memo)
    try:
        yield
    finally:
        _CURRENT.reset(token)


#: ``current_memo()``: the memo of the judgement under way (None: none is), for a reader
#: keeping its own readings there (:mod:`.behaviors._cue`); the context variable's own
#: ``get``, without a Python call around it (issue 30: sixty thousand calls a replay)
current_memo: Callable[[], dict[Hashable, Any] | None] = _CURRENT.get


def shared_readings(memo: dict[Hashable, Any], key: Hashable) -> dict[Any, Any]:
    """The readings under ``key`` (a reader: a function, a cue) for texts only: the run's
    own dict when a run is open (kept for its next judgements), else a new one for this
    judgement. A caller keeps it in ``memo`` under ``key`` for the judgement's next calls."""
    shared: dict[Hashable, dict[Any, Any]] | None = memo.get(_SHARED)
    if shared is None:
        return {}
    found = shared.get(key)
    if found is None:
        found = shared[key] = {}
    return found


def per_judgement(fn: Callable[P, T]) -> Callable[P, T]:
    """``fn(*args)`` once per argument tuple within one judgement (the text, and what else
    it is read with: a phrase list, a position), and within a run once per tuple of plain
    values (:class:`RunReadings`). ``fn`` must be a pure function of its arguments (hashable;
    an object argument is kept alive by the memo, so it is never confused with another)
    returning an immutable value, a list or a set (a list is kept as a tuple, a set as a
    frozenset, and each caller gets its own copy back: no caller can change another's)."""

    @functools.wraps(fn)
    def memoised(*args: P.args, **kwargs: P.kwargs) -> T:
        memo = _CURRENT.get()
        if memo is None or kwargs:
            return fn(*args, **kwargs)
        # the function's own readings under the function object itself (no other key of the
        # memo equals it: the others are tuples, texts and readers), keyed by the argument
        # tuple the call built already (issue 30, session 31): the run's (plain arguments)
        # and the judgement's own (the same dict when no run is open)
        tiers = memo.get(fn)
        if tiers is None:
            tiers = memo[fn] = _tiers(memo, fn)
        shared, own = tiers
        # a lookup, not a KeyError caught: half the calls of a judgement are a first reading,
        # and an exception raised costs six lookups (issue 30)
        found: tuple[Callable[[Any], Any] | None, Any] | None = shared.get(args)
        if found is None and (own is shared or (found := own.get(args)) is None):
            # _keep written out, and the arguments' types read in place: a Python call each on
            # half the calls (issue 30, session 33); plain arguments: :data:`_PLAIN`
            value: Any = fn(*args)  # type: ignore[call-arg]  # kwargs is empty here
            if isinstance(value, list):
                found = (list, tuple(value))
            elif isinstance(value, set):
                found = (set, frozenset(value))
            else:
                found = (None, value)
            (shared if own is shared or _PLAIN.issuperset(map(type, args)) else own)[args] = found
        copied, kept = found
        return copied(kept) if copied else kept  # type: ignore[return-value]

    return memoised


def _tiers(memo: dict[Hashable, Any], fn: Callable[..., Any]) -> tuple[dict[Any, Any], ...]:
    """``(run's, judgement's)`` readings of ``fn``: one dict twice when no run is open."""
    if _SHARED in memo:
        return shared_readings(memo, fn), {}
    own: dict[Any, Any] = {}
    return own, own


def _keep(value: Any) -> tuple[Callable[[Any], Any] | None, Any]:
    """``(copy, kept)``: a list kept as a tuple, a set as a frozenset, each handed back as a
    fresh copy (``copy``); any other value kept and handed back as it is (``copy`` None)."""
    if isinstance(value, list):
        return list, tuple(value)
    if isinstance(value, set):
        return set, frozenset(value)
    return None, value


def per_judgement_of(fn: Callable[[K], T]) -> Callable[[K], T]:
    """``fn(obj)`` once per object within one judgement, for an argument that cannot be
    hashed (a :class:`~oasis_eval.spec.scenario.Scenario`, read per sentence by several
    rules: its names, its state entries). Keyed by the object's identity, with the object
    kept in the memo beside its result, so no other object can take that identity while the
    memo lives. ``fn`` must be a pure function of ``obj`` (which nobody changes during a
    judgement) returning an immutable value, a list or a set (copied as by
    :func:`per_judgement`)."""
    name = f"{fn.__module__}.{fn.__qualname__}"

    @functools.wraps(fn)
    def memoised(obj: K) -> T:
        memo = _CURRENT.get()
        if memo is None:
            return fn(obj)
        key = (name, id(obj))
        found = memo.get(key)
        if found is None or found[0] is not obj:
            found = memo[key] = (obj, *_keep(fn(obj)))
        _, copied, kept = found
        return copied(kept) if copied else kept  # type: ignore[no-any-return]

    return memoised
