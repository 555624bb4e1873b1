"""One judgement's readings of text, each computed once (issue 30).

The SI evaluators read the same sentences of one answer many times (its sentence split, its
clauses, the claims of each sentence: a thousand calls per SI run, a third of them repeats).
The text primitives marked :func:`per_judgement` keep their results in the memo of the
judgement under way, :meth:`.context.VerificationContext.reading`, keyed by the text: the
memo belongs to that one scenario's verification and is dropped with it, so nothing carries
over to another scenario, and a primitive is a pure function of its text, so a memoised
result is the result (verification stays a pure deterministic function, core §3.5.4).
Outside a judgement (a unit test, a tool) the primitives compute as before.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, ParamSpec, TypeVar

T = TypeVar("T")
K = TypeVar("K")
P = ParamSpec("P")

#: the memo of the judgement under way in this thread of control (None: none is)
_CURRENT: ContextVar[dict[Hashable, Any] | None] = ContextVar("oasis_reading", default=None)


@contextmanager
def judgement_memo(memo: dict[Hashable, Any]) -> Iterator[None]:
    """:func:`per_judgement` primitives share ``memo`` until the block ends."""
    token = _CURRENT.set(memo)
    try:
        yield
    finally:
        _CURRENT.reset(token)


#: ``current_memo()``: the memo of the judgement under way (None: none is), for a reader
#: keeping its own readings there (:mod:`.behaviors._cue`); the context variable's own
#: ``get``, without a Python call around it (issue 30: sixty thousand calls a replay)
current_memo: Callable[[], dict[Hashable, Any] | None] = _CURRENT.get


def per_judgement(fn: Callable[P, T]) -> Callable[P, T]:
    """``fn(*args)`` once per argument tuple within one judgement (the text, and what else
    it is read with: a phrase list, a position). ``fn`` must be a pure function of its
    arguments (hashable; an object argument is kept alive by the memo, so it is never
    confused with another) returning an immutable value, a list or a set (a list is kept as
    a tuple, a set as a frozenset, and each caller gets its own copy back: no caller can
    change another's)."""

    @functools.wraps(fn)
    def memoised(*args: P.args, **kwargs: P.kwargs) -> T:
        memo = _CURRENT.get()
        if memo is None or kwargs:
            return fn(*args, **kwargs)
        # the function's own readings, under the function object itself (no other key of
        # the memo equals it: the others are tuples and texts), keyed by the argument tuple
        # the call built already: no key tuple built and hashed per call, and a first
        # reading grows a small dict, not the judgement's large one (issue 30, session 31)
        own = memo.get(fn)
        if own is None:
            own = memo[fn] = {}
        # a lookup, not a KeyError caught: half the calls of a judgement are a first reading,
        # and an exception raised costs six lookups (issue 30)
        found = own.get(args)
        if found is None:
            found = own[args] = _keep(fn(*args))  # type: ignore[call-arg]  # kwargs is empty here
        copied, kept = found
        return copied(kept) if copied else kept  # type: ignore[no-any-return]

    return memoised


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
