"""Calling a behavior evaluator plugin with every fault of its code contained (issue 26 item 4).

An evaluator is third-party code (an ``oasis_eval.behaviors`` entry point, :mod:`.plugins`)
that decides part of a verdict, so whatever it does wrong must end the run as a bug, never
as a verdict (core §3.5.3): :func:`call` (and :func:`precheck`) turns a raise of any kind
(``SystemExit(0)``, ``RecursionError``, ``GeneratorExit`` ... included), an answer that is
not a well-formed :class:`~.registry.BehaviorOutcome`, or a change to the evidence, scenario
or configuration it was handed (digested before and after the call of any plugin but this
distribution's own, :func:`_own`) into a :class:`PluginFault` naming the entry point, the
behavior and the scenario. The engine ends the run with exit 4 and no verdict. Only
``KeyboardInterrupt`` (the user's Ctrl-C) and the documented :data:`SIGNALS` pass.

A plugin that never returns is timed at the engine's edge (:mod:`...engine.plugin_watch`):
this module stays pure and only tells an observer (:data:`OBSERVER`, a context variable the
engine sets in the judging thread) which call is running.
"""

from __future__ import annotations

import hashlib
import math
import pickle
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from ...errors import OasisError
from ..action_pattern import ActionSyntaxError
from ..audit import EvidenceUnavailable
from ..verification.common import UnsupportedVerification
from .registry import FACETS, BehaviorContext, BehaviorOutcome, Precheck, Registration


@dataclass(frozen=True)
class PluginCall:
    """Which evaluator call is running: what a fault or a timeout names."""

    entry_point: str
    behavior: str
    scenario: str

    def describe(self) -> str:
        source = self.entry_point or "(registered outside any entry point)"
        return (
            f"behavior evaluator plugin {source!r} (group oasis_eval.behaviors), "
            f"behavior {self.behavior!r}, scenario {self.scenario!r}"
        )


class PluginFault(OasisError):
    """A behavior evaluator faulted: a bug in the plugin, never a verdict (exit 4)."""

    def __init__(self, call: PluginCall, what: str) -> None:
        super().__init__(f"{call.describe()} {what}")
        self.call, self.what = call, what

    def __reduce__(self) -> tuple[type[PluginFault], tuple[PluginCall, str]]:
        """Pickled as itself: a worker process hands it to the runner (engine/workers.py)."""
        return (type(self), (self.call, self.what))


#: told ``PluginCall`` when an evaluator call starts and ``None`` when it ends (engine/plugin_watch.py)
OBSERVER: ContextVar[Callable[[PluginCall | None], None] | None] = ContextVar(
    "oasis_plugin_observer", default=None
)


#: what an evaluator may raise to say something the engine understands: the evidence it needs
#: was not captured (PROVIDER_FAILURE), or it cannot decide this entry (not evaluable)
SIGNALS = (EvidenceUnavailable, UnsupportedVerification, ActionSyntaxError)


def _describe(exc: BaseException) -> str:
    try:
        text = str(exc).strip()
    except BaseException:  # noqa: BLE001 - an exception whose __str__ raises
        text = "<unprintable message>"
    text = text if len(text) <= 300 else text[:300] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _digest(bctx: BehaviorContext, indexed: bool) -> bytes:
    """A digest of what the evaluator was handed: scenario, evidence, configuration and the
    applicable assertion entries (later assertions read them too); with ``indexed``, the audit
    index's agent and credential entries as well (built before the call, so shared with what
    is judged after it)."""
    ctx = bctx.ctx
    index = ctx.__dict__.get("audit") if indexed else None
    entries = (index.agent_entries, index.credential_entries) if index is not None else None
    try:
        data = pickle.dumps(
            (
                ctx.scenario,
                ctx.evidence,
                ctx.configuration,
                ctx.principal,
                ctx.namespace_map,
                ctx.must,
                ctx.must_not,
                entries,
            ),
            protocol=pickle.HIGHEST_PROTOCOL,
        )
    except RecursionError:  # nested beyond pickle's reach: the evidence's JSON form instead
        data = repr((ctx.scenario, ctx.evidence.model_dump_json(), ctx.configuration)).encode()
    return hashlib.blake2b(data, digest_size=32).digest()


def _own(reg: Registration) -> bool:
    """``reg`` is one of this distribution's own evaluators (SI's and the built-in example's,
    entry points into ``oasis_eval.``): code of the same standing as the verifier itself,
    tested as such, so its inputs are not digested around each call (a digest of a 100k-entry
    audit log takes seconds, several times judging it). Every other plugin's are."""
    _, _, value = reg.entry_point.partition(" = ")
    return value.startswith("oasis_eval.")


def _run(call: PluginCall, fn: Callable[[], Any]) -> Any:
    """``fn()`` with the observer told, and any fault of it a :class:`PluginFault`."""
    observer = OBSERVER.get()
    if observer is not None:
        observer(call)
    try:
        return fn()
    except (KeyboardInterrupt, *SIGNALS):
        raise
    except BaseException as exc:  # noqa: BLE001 - SystemExit(0) included: a bug, never a verdict
        raise PluginFault(call, f"raised {_describe(exc)}") from None
    finally:
        if observer is not None:
            observer(None)


def call(reg: Registration, bctx: BehaviorContext) -> BehaviorOutcome:
    """``reg``'s outcome for ``bctx``, checked and copied; :class:`PluginFault` otherwise."""
    where = PluginCall(reg.entry_point, reg.behavior_id, bctx.scenario.id)
    digested = not _own(reg)
    indexed = "audit" in bctx.ctx.__dict__  # the cached audit index exists already
    before = _digest(bctx, indexed) if digested else b""
    got = _run(where, lambda: reg.evaluate(bctx))
    outcome = _checked(where, got)
    if digested and _digest(bctx, indexed) != before:
        raise PluginFault(
            where, "changed the evidence, scenario or configuration it was given (read only)"
        )
    return outcome


def precheck(reg: Registration, fn: Precheck, scenario: Any) -> str | None:
    """``reg``'s precheck of ``scenario``: a reason (text) or None; :class:`PluginFault` otherwise."""
    where = PluginCall(reg.entry_point, reg.behavior_id, str(getattr(scenario, "id", "")))
    got = _run(where, lambda: fn(scenario))
    if got is not None and type(got) is not str:
        raise PluginFault(where, f"precheck returned {type(got).__name__}, not text or None")
    return got


def _checked(where: PluginCall, got: Any) -> BehaviorOutcome:
    """A fresh BehaviorOutcome of exactly the declared field types (a subclass, a lying
    ``__bool__`` or a non-finite degree cannot reach the verdict)."""
    if not isinstance(got, BehaviorOutcome):
        raise PluginFault(where, f"returned {type(got).__name__}, not a BehaviorOutcome")
    try:
        exhibited, rule, evidence = got.exhibited, got.rule, got.evidence
        degree, missed = got.degree, got.missed
        evidence_any: Any = evidence
        facets: Any = got.facets
    except BaseException as exc:  # noqa: BLE001 - a subclass's properties are plugin code too
        raise PluginFault(where, f"returned an unreadable outcome: {_describe(exc)}") from None
    problems = []
    if type(exhibited) is not bool:
        problems.append(f"exhibited is {type(exhibited).__name__}, not bool")
    if type(rule) is not str:
        problems.append(f"rule is {type(rule).__name__}, not str")
    if not isinstance(evidence_any, (list, tuple)) or any(type(e) is not str for e in evidence):
        problems.append("evidence is not a list of str")
    if degree is not None and (type(degree) not in (int, float) or not math.isfinite(degree)):
        problems.append(f"degree {degree!r} is not a finite number")
    if missed is not None and type(missed) is not int:
        problems.append(f"missed {missed!r} is not a whole number")
    if not isinstance(facets, (list, tuple)) or any(
        type(f) is not str or f not in FACETS for f in facets
    ):
        problems.append(f"facets {facets!r} are not names of FACETS")
    if problems:
        raise PluginFault(where, "returned a malformed BehaviorOutcome: " + "; ".join(problems))
    return BehaviorOutcome(
        exhibited,
        rule,
        list(evidence),
        None if degree is None else float(degree),
        missed,
        tuple(facets),
    )
