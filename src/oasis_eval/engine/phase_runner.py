"""Running one phase's scenarios concurrently (04 §3 steps 4-9), with progress events.

``parallel`` scenarios run at once, each in its own environment; the first harness
fault aborts the phase (results that finished before it are kept). Each scenario is
captured (:mod:`.execute`) and then judged (:mod:`..evaluation.judge`). A plugin fault
while judging stops that scenario's judgement only: the phase carries on and names it in
``judgement_faults`` (the runner decides the run, engine/runner.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

import anyio
from anyio.abc import TaskGroup

from ..contract import Agent, Provider
from ..evaluation.behaviors.plugins import profile_namespaces
from ..evaluation.evidence import ScenarioEvidence
from ..evaluation.judge import base_result
from ..evaluation.reading import RunReadings
from ..evaluation.results import ScenarioResult, ScenarioState
from ..spec.common import ConfigValue, VerdictStatus
from ..spec.profile import Profile
from ..spec.scenario import Scenario
from .attempts import capture_with_retries
from .collector import scenario_kept
from .execute import ScenarioCapture
from .journal import Finished, RunJournal
from .plugin_watch import judgement_fault, plugin_fault
from .record import RunInputs
from .redaction import Redactor
from .replay import judge_in_run
from .workers import replicable, run_in_workers, worker_count

__all__ = ["PhaseResults", "PhaseRunner", "Progress", "ProgressEvent", "Refused"]


@dataclass(frozen=True)
class Refused:
    """A scenario whose agent never worked at all (AgentUnusable): the run stops, no verdict."""

    reason: str


def _ends_run(outcome: Finished | Refused) -> bool:
    """Whether a scenario's outcome ends the run: a refusal or a harness fault (core §3.7)."""
    return isinstance(outcome, Refused) or outcome.fault is not None


class ProgressEvent(str):
    """A progress line (it *is* the text) with its structure attached, so a terminal display
    can draw per-phase bars while plain logs just print the line."""

    kind: str  # info | phase | scenario | abort
    phase: str | None
    total: int
    scenario_id: str | None
    outcome: str | None
    #: why a scenario did not pass (ScenarioResult.reason), "" otherwise
    reason: str

    def __new__(
        cls,
        text: str,
        kind: str = "info",
        phase: str | None = None,
        total: int = 0,
        scenario_id: str | None = None,
        outcome: str | None = None,
        reason: str = "",
    ) -> ProgressEvent:
        event = super().__new__(cls, text)
        event.kind, event.phase, event.total = kind, phase, total
        event.scenario_id, event.outcome, event.reason = scenario_id, outcome, reason
        return event


Progress = Callable[[str], None]


@dataclass
class PhaseResults:
    """What one phase produced; ``abort`` is set by the first harness fault."""

    results: dict[str, ScenarioResult] = field(default_factory=dict)
    evidence: dict[str, ScenarioEvidence] = field(default_factory=dict)
    abort: str | None = None
    #: the agent never worked at all (AgentUnusable): the run stops with no verdict (exit 2)
    refused: str | None = None
    tier_evidence: object = None
    #: each scenario's tier evidence; the phase keeps the first in scenario order, so a
    #: parallel run records what a serial one does (whichever capture finishes first is luck)
    tier_candidates: dict[str, object] = field(default_factory=dict)
    #: scenarios whose judgement a plugin faulted: {scenario id: the fault}, no verdict each
    judgement_faults: dict[str, str] = field(default_factory=dict)


class PhaseRunner:
    """Runs the scenarios of a phase for one agent, provider and configuration."""

    def __init__(
        self,
        profile: Profile,
        agent: Agent,
        provider: Provider,
        inputs: RunInputs,
        config: dict[str, ConfigValue],
        redactor: Redactor,
        say: Progress,
        journal: RunJournal | None = None,
    ) -> None:
        self.profile, self.agent, self.provider = profile, agent, provider
        self.inputs, self.config, self.redactor, self.say = inputs, config, redactor, say
        #: writes each finished scenario as it finishes; holds those finished before a resume
        self.journal = journal
        #: a capability shard's Phase 1 results, from the merged Phase 1 run (engine/shard.py)
        self.carried: dict[str, Finished] = {}

    @cached_property
    def namespaces(self) -> tuple[str, ...]:
        """Where the profile's behaviors find evaluators, looked up once for every judgement
        of the run (issue 30), not once per scenario."""
        return profile_namespaces(self.profile)

    @cached_property
    def readings(self) -> RunReadings:
        """The run's shared readings of text (:class:`~..evaluation.reading.RunReadings`):
        the agent's sentences repeated from scenario to scenario are read once (issue 30)."""
        return RunReadings()

    async def phase(self, name: str, scenarios: list[Scenario]) -> PhaseResults:
        phase = PhaseResults()
        if not scenarios:
            return phase
        self.say(
            ProgressEvent(
                f"phase {name}: {len(scenarios)} scenario(s)", "phase", name, len(scenarios)
            )
        )
        try:
            async with anyio.create_task_group() as group:
                pending = [s for s in scenarios if not self._kept(s, phase, group.cancel_scope)]
                self._start(pending, phase, group)
        except BaseExceptionGroup as group:  # a plugin's fault ends the run as itself (exit 4)
            fault = plugin_fault(group)
            if fault is None:
                raise
            raise fault from None
        phase.tier_evidence = next(
            (phase.tier_candidates[s.id] for s in scenarios if s.id in phase.tier_candidates), None
        )
        return phase

    def _start(self, pending: list[Scenario], phase: PhaseResults, group: TaskGroup) -> None:
        """Run ``pending`` in worker processes where the agent and the provider may be copied
        (engine/workers.py), else as tasks of this event loop."""
        if phase.abort is not None or not pending:
            return
        parallel = max(1, self.inputs.parallel)
        count = worker_count(self.inputs.workers, parallel, len(pending))
        if count > 1 and replicable(self.agent, self.provider):
            scope = group.cancel_scope
            group.start_soon(
                run_in_workers,
                pending,
                count,
                parallel,
                self._run,
                _ends_run,
                lambda scenario, outcome: self._arrived(scenario, outcome, phase, scope),
            )
            return
        limiter = anyio.CapacityLimiter(parallel)
        for scenario in pending:
            group.start_soon(self._one, scenario, phase, limiter, group.cancel_scope)

    def _kept(self, scenario: Scenario, phase: PhaseResults, scope: anyio.CancelScope) -> bool:
        """Settle a scenario this run does not run again: finished before the interruption
        (the journal), or judged in the merged Phase 1 run a shard starts from."""
        prior = self.journal.prior.get(scenario.id) if self.journal is not None else None
        if prior is not None:
            self._settle(prior, scenario, phase, scope, " (finished before the interruption)")
            return True
        carried = self.carried.get(scenario.id)
        if carried is not None:
            self._settle(carried, scenario, phase, scope, " (from the merged Phase 1 run)")
            return True
        return False

    async def _one(
        self,
        scenario: Scenario,
        phase: PhaseResults,
        limiter: anyio.CapacityLimiter,
        scope: anyio.CancelScope,
    ) -> None:
        async with limiter:
            if phase.abort is not None or phase.refused is not None:
                return
            capture = await self._capture(scenario)
        self._arrived(scenario, self._judged(scenario, capture), phase, scope)

    async def _run(self, scenario: Scenario) -> Finished | Refused:
        """One scenario captured and judged: what a worker process hands back."""
        return self._judged(scenario, await self._capture(scenario))

    async def _capture(self, scenario: Scenario) -> ScenarioCapture:
        return await capture_with_retries(
            scenario,
            self.profile,
            self.agent,
            self.provider,
            self.inputs.agent_principal,
            self.inputs.claimed_tier,
            self.redactor,
            self.inputs.agent_retries,
        )

    def _judged(self, scenario: Scenario, capture: ScenarioCapture) -> Finished | Refused:
        if capture.refused is not None:  # the agent never worked: no result, no verdict
            return Refused(capture.refused)
        custom = scenario.id in self.inputs.custom_scenarios
        evidence = None
        if capture.skipped is not None:
            result = base_result(scenario, ScenarioState.skipped, custom)
            result.skip_reason = capture.skipped
        else:
            result = judge_in_run(
                scenario,
                capture.evidence,
                self.profile,
                self.inputs,
                self.config,
                custom,
                self.namespaces,
                self.readings,
            )
            evidence = capture.evidence
        fault = (
            capture.evidence.fault
            or (result.fault if result.status is VerdictStatus.PROVIDER_FAILURE else None)
            or capture.late_fault
        )
        return Finished(
            scenario_id=scenario.id,
            result=result,
            tier_evidence=capture.evidence.provision.get("tier_evidence"),
            fault=fault,
            evidence=evidence,
        )

    def _arrived(
        self,
        scenario: Scenario,
        outcome: Finished | Refused,
        phase: PhaseResults,
        scope: anyio.CancelScope,
    ) -> None:
        """A scenario this run ran is finished: journal it, then settle it in its phase."""
        if isinstance(outcome, Refused):
            if phase.refused is None:
                phase.refused = outcome.reason
                self.say(ProgressEvent(f"  stopping the run: {outcome.reason}", "abort"))
            scope.cancel()
            return
        if self.journal is not None:  # written as it finishes, before anyone is told
            self.journal.finished(outcome)
        self._settle(outcome, scenario, phase, scope)
        scenario_kept()  # its survivors frozen, not traversed by the collector (issue 30)

    def _settle(
        self,
        item: Finished,
        scenario: Scenario,
        phase: PhaseResults,
        scope: anyio.CancelScope,
        note: str = "",
    ) -> None:
        """Record a finished scenario in its phase, say so, and abort on a harness fault."""
        result = item.result
        if item.tier_evidence is not None:
            phase.tier_candidates[scenario.id] = item.tier_evidence
        if item.evidence is not None:
            phase.evidence[scenario.id] = item.evidence
        phase.results[scenario.id] = result
        label = (
            result.label  # "PASS (agent fault)" for a PASS the agent faulted in (issue 26)
            if result.status
            else (f"{result.score:.2f}" if result.score is not None else result.state.value)
        )
        reason = result.reason()
        self.say(
            ProgressEvent(
                f"  {scenario.id}: {label}" + (f" ({reason})" if reason else "") + note,
                "scenario",
                scenario.classification.value,
                scenario_id=scenario.id,
                outcome=label,
                reason=reason,
            )
        )
        faulted = judgement_fault(result)
        if faulted is not None:  # this judgement only: the phase's other scenarios carry on
            phase.judgement_faults[scenario.id] = faulted
            self.say(ProgressEvent(f"  {scenario.id}: no verdict, {faulted}", "abort"))
        fault = item.fault
        if fault is not None and phase.abort is None:
            phase.abort = f"{scenario.id}: {fault}"
            self.say(ProgressEvent(f"  aborting the run: {phase.abort}", "abort"))
            scope.cancel()
