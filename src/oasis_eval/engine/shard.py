"""Sharded runs (issue 30 item 4): ``oasis run --shard I/N`` runs a deterministic slice of a
phase, ``oasis merge`` judges the union as one run would.

The slice is a pure function of the selected scenarios: each phase's scenarios are dealt,
heaviest first, to the least loaded shard, the weight being a cost estimated from the
scenario's own features (its state, stimuli, assertions and checks; never a past timing),
ties broken by scenario id. Every machine computes the same slices from the same profile
and selection. Phase 2 (capability) is a second stage: it starts only from a merged Phase 1
PASS (``--phase capability --after MERGED``), as spec 01 §3 runs capability only after the
safety gate passed. A shard's run directory is partial (it says so and claims nothing);
only the merge of every shard is the run.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field

from ..diagnostics import UnusableInput
from ..spec.scenario import Scenario

__all__ = [
    "PHASES",
    "ShardError",
    "ShardRecord",
    "ShardSpec",
    "estimated_cost",
    "parse_shard",
    "shard_slices",
]

#: the phases a shard runs: Phase 1 (safety) first; Phase 2 (capability) after its merge
PHASES = ("safety", "capability")


class ShardError(UnusableInput):
    """A shard option or a set of shards that cannot be merged: a usage error (exit 2)."""


class ShardRecord(BaseModel):
    """What a shard's run records (``run.json`` inputs.shard), so a merge can check that the
    shards partition one selection exactly."""

    index: int
    count: int
    phase: str = "safety"
    #: every scenario the run selected (both phases), by id: the same in every shard
    selected: list[str] = Field(default_factory=list)
    #: whether that selection is only part of the profile (filters, suite, --safety-only)
    partial: bool = False
    #: this shard's slice of the phase's scenarios, by id
    scenarios: list[str] = Field(default_factory=list)
    #: the merged Phase 1 run a capability shard started from (its run id)
    after: str | None = None


@dataclass
class ShardSpec:
    """``--shard I/N`` as the engine runs it. ``carried``: for a capability shard, the merged
    Phase 1 run's results (engine/journal.py::Finished items), settled without running again."""

    index: int
    count: int
    phase: str = "safety"
    after: str | None = None
    carried: Mapping[str, Any] = field(default_factory=dict)
    #: the agent, version and configuration the merged Phase 1 run judged
    expected: Mapping[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return f"{self.index}/{self.count}"


_SHARD = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


def parse_shard(text: str) -> tuple[int, int]:
    """``I/N`` with 1 <= I <= N, else ShardError naming the option."""
    found = _SHARD.match(text)
    if found is None:
        raise ShardError(f"--shard {text!r}: give I/N, e.g. 2/4 (the 2nd of 4 shards)")
    index, count = int(found.group(1)), int(found.group(2))
    if count < 1 or not 1 <= index <= count:
        raise ShardError(f"--shard {text!r}: I must be between 1 and N, and N at least 1")
    return index, count


def estimated_cost(scenario: Scenario) -> int:
    """A scenario's cost from its own features: each resource to provision, stimulus, assertion
    and verification check adds work to a run. A fixed base covers the per-scenario overhead."""
    verification = scenario.verification
    checks = (
        len(verification.state_assertions)
        + len(verification.api_audit)
        + len(verification.negative_verification)
        + len(verification.value_containment)
        + (1 if verification.state_diff else 0)
    )
    return (
        4
        + 2 * len(scenario.preconditions.environment.state)
        + 2 * len(scenario.stimuli)
        + len(scenario.all_assertion_entries())
        + checks
    )


def shard_slices(scenarios: list[Scenario], count: int) -> list[list[str]]:
    """``count`` slices of ``scenarios`` (ids, each sorted): heaviest first to the least loaded
    shard (the lowest index on a tie). Deterministic: the same scenarios give the same slices
    on every machine, whatever their order."""
    loads = [0] * count
    slices: list[list[str]] = [[] for _ in range(count)]
    for scenario in sorted(scenarios, key=lambda s: (-estimated_cost(s), s.id)):
        target = min(range(count), key=lambda i: (loads[i], i))
        loads[target] += estimated_cost(scenario)
        slices[target].append(scenario.id)
    return [sorted(s) for s in slices]


def shard_scenarios(selected: list[Scenario], spec: ShardSpec) -> list[Scenario]:
    """The scenarios shard ``spec`` runs of ``selected``: its slice of the phase's scenarios,
    and for a capability shard every selected safety scenario too (carried, not run again).
    ShardError when its slice is empty (more shards than scenarios)."""
    in_phase = [s for s in selected if s.is_safety is (spec.phase == "safety")]
    mine = set(shard_slices(in_phase, spec.count)[spec.index - 1])
    if not mine:
        raise ShardError(
            f"--shard {spec.label}: the {spec.phase} phase has {len(in_phase)} selected "
            f"scenario(s), too few for {spec.count} shards; use fewer shards"
        )
    carried = spec.phase == "capability"
    return [s for s in selected if s.id in mine or (carried and s.is_safety)]


def shard_record(selected: list[Scenario], spec: ShardSpec, partial: bool) -> ShardRecord:
    in_phase = [s for s in selected if s.is_safety is (spec.phase == "safety")]
    return ShardRecord(
        index=spec.index,
        count=spec.count,
        phase=spec.phase,
        selected=sorted(s.id for s in selected),
        partial=partial,
        scenarios=shard_slices(in_phase, spec.count)[spec.index - 1],
        after=spec.after,
    )


def shard_reason(spec: ShardRecord) -> str:
    """The incomplete reason every shard records: alone it is not the run, and claims nothing."""
    return (
        f"shard {spec.index}/{spec.count} of the {spec.phase} phase: a partial run that makes "
        "no conformance claim alone; `oasis merge` every shard for the run's verdict"
    )


def check_after(shard: ShardSpec, agent: str, version: str, config: Mapping[str, Any]) -> None:
    """A capability shard runs the agent the merged Phase 1 run judged, in its configuration;
    ShardError (exit 2, before any scenario) otherwise."""
    if not shard.expected:
        return
    actual = {"agent": agent, "agent_version": version, "agent_configuration": dict(config)}
    differ = sorted(k for k in actual if actual[k] != shard.expected.get(k))
    if differ:
        raise ShardError(
            "--after: the merged Phase 1 run judged another agent or configuration ("
            + "; ".join(f"{k}: {shard.expected.get(k)!r}, now {actual[k]!r}" for k in differ)
            + ")"
        )


def carried_for(shard: ShardSpec, runnable: list[Scenario]) -> dict[str, Any]:
    """The Phase 1 results a capability shard settles instead of running: every runnable
    safety scenario must have one (ShardError otherwise), since Phase 1 is never run twice."""
    if shard.phase != "capability":
        return {}
    missing = sorted(s.id for s in runnable if s.is_safety and s.id not in shard.carried)
    if missing:
        raise ShardError(
            "--after: the merged Phase 1 run has no result for the safety scenario(s) "
            + ", ".join(missing)
            + " (it was run with another selection or tier)"
        )
    return dict(shard.carried)
