"""Shared pieces of the benchmarks: result rows, timing, the profile, the agents, one run."""

from __future__ import annotations

import gc
import os
import resource
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]

#: the agent configuration every benchmark agent reports (the same as the ``careful`` demo agent,
#: so the instant agent and the careful agent see the same applicable scenarios)
AGENT_CONFIGURATION: dict[str, Any] = {"operational_mode": "read_write", "zone_model": True}


# ---- the profile -------------------------------------------------------------------------


def spec_dir() -> Path:
    """``$OASIS_SPEC_DIR``, default ``../shared/oasis-spec`` beside the repository (as the tests)."""
    configured = os.environ.get("OASIS_SPEC_DIR")
    return Path(configured) if configured else (REPO_ROOT.parent / "shared" / "oasis-spec")


def si_profile_dir() -> Path:
    return spec_dir() / "profiles" / "software-infrastructure"


def si_profile_present() -> bool:
    return (si_profile_dir() / "profile.md").is_file()


def load_si_profile() -> Any:
    from oasis_eval.profiles.loader import load_profile

    return load_profile(si_profile_dir()).profile


# ---- result rows ---------------------------------------------------------------------------

_OPS: dict[str, Callable[[float, float], bool]] = {
    "<": lambda v, t: v < t,
    "<=": lambda v, t: v <= t,
    ">": lambda v, t: v > t,
    ">=": lambda v, t: v >= t,
}


@dataclass
class Row:
    """One measurement: ``value`` is the median of ``samples``; ``met`` compares it with the
    target (None for an informational row, which has no target)."""

    name: str
    samples: list[float]
    unit: str
    op: str | None = None
    threshold: float | None = None
    description: str = ""
    detail: dict[str, Any] = field(default_factory=dict)

    @property
    def value(self) -> float:
        return statistics.median(self.samples)

    @property
    def met(self) -> bool | None:
        if self.op is None or self.threshold is None:
            return None
        return _OPS[self.op](self.value, self.threshold)

    def to_json(self) -> dict[str, Any]:
        target = (
            None if self.op is None else f"{self.op} {_fmt(self.threshold)} {self.unit}".strip()
        )
        out: dict[str, Any] = {
            "name": self.name,
            "value": _round(self.value),
            "unit": self.unit,
            "target": target,
            "met": self.met,
            "min": _round(min(self.samples)),
            "max": _round(max(self.samples)),
            "runs": len(self.samples),
        }
        if self.description:
            out["description"] = self.description
        if self.detail:
            out["detail"] = self.detail
        return out


def _round(value: float) -> float:
    return float(f"{value:.4g}") if value else 0.0


def _fmt(value: float | None) -> str:
    return "" if value is None else f"{value:g}"


# ---- timing --------------------------------------------------------------------------------


def cpu_seconds() -> float:
    """CPU seconds of this process (every thread) and of its children that ended and were
    waited for: ``oasis replay`` judges in forked worker processes (engine/replay.py), whose
    CPU is the replay's too (issue 30, session 36)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    """(seconds, result) of one call. A full collection first, so garbage left by an earlier
    sample is not charged to this one."""
    gc.collect()
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def samples(fn: Callable[[], Any], repeat: int, warmup: int = 1) -> tuple[list[float], Any]:
    """Seconds of ``repeat`` calls after ``warmup`` untimed ones, and the last result."""
    result = None
    for _ in range(warmup):
        result = fn()
    times = []
    for _ in range(max(1, repeat)):
        seconds, result = timed(fn)
        times.append(seconds)
    return times, result


# ---- agents --------------------------------------------------------------------------------


def instant_agent() -> Any:
    """Answers at once, with no tool call: what is left is engine + provider overhead."""
    from oasis_eval.adapters.agents import FunctionAgent
    from oasis_eval.contract import AgentResponse

    async def answer(task: Any) -> AgentResponse:
        return AgentResponse(final_answer="Nothing to do.", model="bench-instant")

    # it keeps nothing between calls: a copy in a worker process answers alike (--workers)
    return FunctionAgent("bench-instant", "1.0.0", AGENT_CONFIGURATION, answer, replicable=True)


def latency_agent(seconds: float) -> Any:
    """Takes ``seconds`` to answer (an async sleep: the event loop stays free) and calls no tool."""
    import anyio

    from oasis_eval.adapters.agents import FunctionAgent
    from oasis_eval.contract import AgentResponse

    async def answer(task: Any) -> AgentResponse:
        await anyio.sleep(seconds)
        return AgentResponse(final_answer="Nothing to do.", model="bench-latency")

    return FunctionAgent(  # as the instant agent, a copy in a worker process answers alike
        f"bench-latency-{int(seconds * 1000)}ms",
        "1.0.0",
        AGENT_CONFIGURATION,
        answer,
        replicable=True,
    )


def careful_agent() -> Any:
    from oasis_sim_k8s.agents import BuiltinAgent

    return BuiltinAgent("careful")


AGENTS: dict[str, Callable[[], Any]] = {"instant": instant_agent, "careful": careful_agent}


# ---- one evaluation ------------------------------------------------------------------------


def run_evaluation(
    profile: Any, agent: Any, parallel: int = 1, redactor: Any = None, workers: int = 1
) -> Any:
    """One full evaluation of ``profile`` on a fresh in-process SimK8sProvider; the RunOutcome.
    ``workers`` as ``oasis run --workers`` (1, its default: none; 0: one per core)."""
    import anyio

    from oasis_eval.engine.record import RunInputs
    from oasis_eval.engine.runner import evaluate
    from oasis_eval.engine.selection import Selection
    from oasis_sim_k8s import SimK8sProvider

    provider = SimK8sProvider()
    inputs = RunInputs(
        evaluator="oasis-eval benchmarks", claimed_tier=1, parallel=parallel, workers=workers
    )

    outcome: list[Any] = []

    async def go() -> None:
        try:
            outcome.append(
                await evaluate(profile, agent, provider, inputs, Selection(), None, redactor)
            )
        finally:
            await provider.aclose()

    # the outcome is not the main task's result: on Python 3.11 asyncio.Runner's SIGINT check
    # formats that task (result included) into an error message twice, a full repr of the
    # whole run (0.3 s and more per call) that no engine work is behind
    anyio.run(go)
    return outcome[0]


def executed_count(outcome: Any) -> int:
    from oasis_eval.evaluation.results import ScenarioState

    return sum(1 for r in outcome.record.scenarios if r.state is ScenarioState.executed)


def outcome_summary(outcome: Any) -> dict[str, Any]:
    from collections import Counter

    states = Counter(r.state.value for r in outcome.record.scenarios)
    return {
        "scenarios": len(outcome.record.scenarios),
        "executed": states.get("executed", 0),
        "states": dict(sorted(states.items())),
        "safety": outcome.record.verdict.safety.value,
    }
