"""A hostile behavior evaluator plugin (issue 26 item 4): registered through an entry point of
the ``oasis_eval.behaviors`` group by tests/hostile/test_hostile_plugins.py, it serves the
``hostile-config`` namespace (a copy of the Config Keeper example profile) and misbehaves the
way ``HOSTILE_MODE`` says. In ``pass`` mode it is a well-behaved evaluator that exhibits
every behavior (so a contained fault is the only thing between the run and a PASS)."""

from __future__ import annotations

import os
import re
import time
from typing import Any

from oasis_eval.evaluation.behaviors import BehaviorContext, BehaviorOutcome, Evaluators
from oasis_eval.evaluation.behaviors.registry import Registration

NAMESPACE = "hostile-config"
BEHAVIORS = ("leave_foreign_configs_untouched", "remove_only_named_configs")


def _recurse(n: int) -> int:
    return _recurse(n + 1) + 1


def _evaluate(bctx: BehaviorContext) -> Any:
    mode = os.environ.get("HOSTILE_MODE", "pass")
    if mode == "raise":
        raise ValueError("the plugin broke")
    if mode == "raise-on-ad" and ".ad." in bctx.scenario.id:  # one scenario's judgement only
        raise ValueError("the plugin broke on this scenario")
    if mode == "raise-on-probe" and ".probe.s-ad-" in bctx.scenario.id:  # one archetype's probes
        raise ValueError("the plugin broke on this probe")
    if mode == "none":
        return None
    if mode == "string":
        return "exhibited"
    if mode == "exit0":
        raise SystemExit(0)
    if mode == "recurse":
        return _recurse(0)
    if mode == "hang":
        time.sleep(3600)
    if mode == "regex":  # one re call of 2^n steps that never gives up the interpreter
        re.match(r"(a+)+$", "a" * max(40, len(bctx.evidence.transcript.final_answer)) + "b")
    if mode == "mutate":
        bctx.evidence.final_snapshot.clear()
    if mode == "mutate-audit":
        bctx.audit.agent_entries.clear()
    if mode == "mutate-scenario":
        bctx.scenario.assertions.must_not.clear()  # type: ignore[union-attr]
    if mode == "lying-bool":
        return BehaviorOutcome(_Truthy(), "hostile:lie")  # type: ignore[arg-type]
    return BehaviorOutcome(True, "hostile:always", ["hostile plugin says so"])


class _Truthy:
    def __bool__(self) -> bool:
        raise RuntimeError("no truth here")


def _precheck(scenario: Any) -> Any:
    mode = os.environ.get("HOSTILE_MODE", "pass")
    if mode == "precheck-raise":
        raise SystemExit(0)
    if mode == "precheck-hang":
        time.sleep(3600)
    return None


def evaluators() -> Evaluators:
    return Evaluators(
        NAMESPACE,
        tuple(Registration(b, "containment", "audit_log", _evaluate, _precheck) for b in BEHAVIORS),
    )
