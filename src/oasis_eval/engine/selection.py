"""Which scenarios a run evaluates, and what becomes of the others (04 §3 steps 1-3).

A :class:`Selection` picks scenarios by suite, glob or ``--safety-only``; anything
deselected makes the run incomplete, never NOT_APPLICABLE. Of the selected scenarios,
:func:`triage` records the ones that are not applicable to the agent's configuration,
above the claimed tier or not yet evaluable by oasis-eval, and returns the rest to run.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from typing import Any

from ..diagnostics import Findings
from ..evaluation.behaviors.plugins import profile_namespaces
from ..evaluation.judge import base_result
from ..evaluation.readiness import check_scenario, prose_gaps
from ..evaluation.results import ABOVE_TIER, NOT_EVALUABLE, ScenarioResult, ScenarioState
from ..spec.needs import PreflightNeeds
from ..spec.profile import Profile
from ..spec.scenario import Scenario
from ..validation.configuration import matches
from .configuration import EffectiveConfiguration, applicability
from .refusals import SelectionError
from .shard import ShardSpec

__all__ = [
    "Selection",
    "SelectionError",
    "needs_for",
    "not_evaluable",
    "select_scenarios",
    "triage",
]


@dataclass
class Selection:
    """Which scenarios run. Anything deselected makes the run incomplete (never NOT_APPLICABLE)."""

    ids: list[str] | None = None  # a suite's ordered ids
    patterns: list[str] = field(default_factory=list)  # globs over id, category or archetype
    safety_only: bool = False
    #: ``--capability-only``: no safety scenario runs and the verdict claims no safety value
    #: (issue 29 item 2); without it a selection with no safety scenario is refused
    capability_only: bool = False
    #: ``--shard I/N`` (engine/shard.py): this run is one slice of a phase, merged later
    shard: ShardSpec | None = None

    def selects(self, scenario: Scenario) -> bool:
        if self.ids is not None and scenario.id not in self.ids:
            return False
        if self.patterns:
            keys = (scenario.id, scenario.category, scenario.archetype)
            return any(fnmatch.fnmatchcase(k, p) for p in self.patterns for k in keys)
        return True

    @property
    def partial(self) -> bool:
        return self.chosen_partial or self.shard is not None

    @property
    def chosen_partial(self) -> bool:
        """Whether the selection, shards aside, is only part of the profile."""
        return (
            self.ids is not None or bool(self.patterns) or self.safety_only or self.capability_only
        )


def needs_for(scenarios: list[Scenario]) -> PreflightNeeds:
    return PreflightNeeds.from_scenarios(scenarios)


def select_scenarios(profile: Profile, selection: Selection) -> list[Scenario]:
    """The selected scenarios by id; SelectionError when the selection leaves none."""
    selected = sorted((s for s in profile.scenarios if selection.selects(s)), key=lambda s: s.id)
    if selection.safety_only and selection.capability_only:
        raise SelectionError("--safety-only and --capability-only exclude each other")
    if selection.safety_only:
        selected = [s for s in selected if s.is_safety]
    if selection.capability_only:
        selected = [s for s in selected if not s.is_safety]
    if not selected:
        raise SelectionError(_nothing_selected(profile, selection))
    if not selection.capability_only and not any(s.is_safety for s in selected):
        raise SelectionError(
            _given(selection) + f" select(s) {len(selected)} scenario(s) of profile {profile.id} "
            f"{profile.version}, none of them a safety scenario: the safety gate would not be "
            "evaluated and nothing could say PASS. Select a safety scenario, or pass "
            "--capability-only to measure capability alone (the verdict then claims no safety "
            "value)"
        )
    return selected


def _given(selection: Selection) -> str:
    what = []
    if selection.patterns:
        what.append("filter(s) " + ", ".join(repr(p) for p in selection.patterns))
    if selection.ids is not None:
        what.append(f"a suite of {len(selection.ids)} id(s)")
    if selection.safety_only:
        what.append("--safety-only")
    if selection.capability_only:
        what.append("--capability-only")
    return " and ".join(what) or "the selection"


def _nothing_selected(profile: Profile, selection: Selection) -> str:
    given = _given(selection)
    return (
        f"{given} select(s) no scenario of profile {profile.id} {profile.version} "
        f"({len(profile.scenarios)} scenario(s); patterns match a scenario id, category or archetype): "
        "nothing would be evaluated"
    )


def triage(
    profile: Profile,
    selected: list[Scenario],
    config: EffectiveConfiguration,
    claimed_tier: int,
    custom: set[str],
) -> tuple[dict[str, ScenarioResult], list[Scenario]]:
    """(results of every scenario that will not run, the selected scenarios that will)."""
    results: dict[str, ScenarioResult] = {}
    chosen = {s.id for s in selected}
    for scenario in profile.scenarios:
        if scenario.id not in chosen:
            results[scenario.id] = base_result(
                scenario, ScenarioState.not_selected, scenario.id in custom
            )
    runnable: list[Scenario] = []
    namespaces = profile_namespaces(profile)  # once, not once per scenario (issue 30)
    for scenario in selected:
        excluded = applicability(scenario, config, profile)
        gap = (
            None
            if excluded is not None
            else not_evaluable(scenario, config.values, profile, namespaces)
        )
        if excluded is not None:
            res = base_result(scenario, ScenarioState.not_applicable, scenario.id in custom)
            res.not_applicable_conditions = excluded
            results[scenario.id] = res
        elif scenario.tier > claimed_tier:
            res = base_result(scenario, ScenarioState.skipped, scenario.id in custom)
            res.skip_reason = (
                f"{ABOVE_TIER}: the scenario requires complexity tier {scenario.tier}; "
                f"this evaluation claims tier {claimed_tier}"
            )
            results[scenario.id] = res
        elif gap is not None:
            res = base_result(scenario, ScenarioState.skipped, scenario.id in custom)
            res.skip_reason = gap
            results[scenario.id] = res
        else:
            runnable.append(scenario)
    return results, runnable


def not_evaluable(
    scenario: Scenario,
    config: dict[str, Any],
    profile: Profile,
    namespaces: tuple[str, ...] | None = None,
) -> str | None:
    """Why oasis-eval cannot judge this scenario yet, or None. Such a scenario is not run:
    its verdict would not be deterministic evidence (core §3.5.3), so it is never guessed.
    ``namespaces``: ``profile_namespaces(profile)``, when the caller has it already."""
    findings = Findings()
    check_scenario(
        scenario, findings, profile_namespaces(profile) if namespaces is None else namespaces
    )
    gaps = [f"{f.field or f.code}: {f.message}" for f in findings.errors]
    conditional = scenario.assertions.conditional if scenario.assertions else []
    hits = [
        i
        for i, c in enumerate(conditional)
        if matches(c.when, config, profile.agent_configuration_schema)
    ]
    if len(hits) > 1:
        gaps.append(
            f"conditional entries {hits} all match the agent configuration (02 §1.10: at most one may)"
        )
    else:
        gaps += prose_gaps(scenario, conditional[hits[0]] if hits else None)
    return f"{NOT_EVALUABLE}: " + "; ".join(gaps) if gaps else None
