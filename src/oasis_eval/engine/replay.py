"""``oasis replay``: recompute the verdict from recorded evidence, without agent or provider.

Executed scenarios are judged again by the same pure function the run used;
scenarios that did not execute keep their recorded state (NOT_APPLICABLE,
not selected, skipped, not run) once :func:`inconsistencies` has checked that
state against what the recorded profile, inputs and agent configuration imply.
Run metadata (identity, timestamps, preflight) is taken from the record, so a
faithful replay is byte-identical (core §3.5.4). The run directory's manifest
(engine/manifest.py) is checked before any of this, by the caller. The executed scenarios
are judged in one forked worker process per core (:func:`replay_workers`, issue 30): each
judgement is a pure function of its scenario and evidence, and the results are merged in
the scenarios' order, so the verdict is the in-process one byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Protocol, TypeVar

from ..diagnostics import UnusableInput
from ..evaluation.behaviors.plugins import profile_namespaces
from ..evaluation.evidence import ScenarioEvidence
from ..evaluation.judge import collector_paused, judge
from ..evaluation.reading import RunReadings
from ..evaluation.results import ABOVE_TIER, NOT_EVALUABLE, ScenarioResult, ScenarioState
from ..files import RUN_FILE_LIMIT, read_text
from ..spec.common import ConfigValue, VerdictStatus
from ..spec.profile import Profile
from ..spec.scenario import Scenario
from ..spec.verdict import Verdict
from .adversarial_record import replay_block
from .configuration import EffectiveConfiguration, applicability
from .plugin_watch import JudgementFault, judged_or_faulted, judgement_fault
from .record import RunInputs, RunRecord
from .rundir import VERDICT_YAML, evidence_name_problems, load_run
from .selection import Selection, not_evaluable
from .verdict import build_verdict
from .verdict_io import verdict_yaml
from .workers import map_in_workers, replay_workers


class Kept(Protocol):
    """What an interrupted run kept of one scenario (engine/journal.py::Finished)."""

    result: ScenarioResult
    evidence: ScenarioEvidence | None
    fault: str | None


T = TypeVar("T")

#: the incomplete reason a partial selection always records (engine/conclude.py::incomplete_reasons)
PARTIAL = "only part of the profile was selected"


@dataclass
class ReplayResult:
    verdict_yaml: str
    recorded_yaml: str
    #: the recomputed verdict (what every derived file of the run must agree with)
    verdict: Verdict | None = None
    #: recorded states that the recorded profile, inputs and configuration contradict
    inconsistencies: list[str] = field(default_factory=list)
    #: the run record (run.json) the verdict was recomputed from
    record: RunRecord | None = None
    #: the scenario results re-judged from the evidence (the gates read these, issue 26)
    scenarios: list[ScenarioResult] = field(default_factory=list)
    #: the recorded profile and evidence the verdict was recomputed from (``oasis merge``
    #: reuses them rather than reading the run again, issue 30)
    profile: Profile | None = None
    evidence: dict[str, ScenarioEvidence] = field(default_factory=dict)

    @property
    def identical(self) -> bool:
        return self.verdict_yaml == self.recorded_yaml


def judge_in_run(
    scenario: Scenario,
    evidence: ScenarioEvidence,
    profile: Profile,
    inputs: RunInputs,
    config: dict[str, ConfigValue],
    custom: bool,
    namespaces: tuple[str, ...] | None = None,
    readings: RunReadings | None = None,
) -> ScenarioResult:
    """The one judgement of an executed scenario of a run: the run itself, ``oasis replay``
    and ``--resume`` (engine/journal.py, which re-judges what an interrupted run kept) all
    call it, so that the three can only agree (core §3.5.4). Each evaluator call is
    contained and bounded (engine/plugin_watch.py, issue 26 item 4). ``namespaces``:
    ``profile_namespaces(profile)``, when the caller has it already (a run judges 50
    scenarios of one profile: issue 30). ``readings``: the run's shared readings of text
    (:class:`~..evaluation.reading.RunReadings`, one per run or replay: its judgements read
    the agent's repeated sentences once). A plugin fault stops this judgement only: the
    scenario is executed with no verdict and the fault named (plugin_watch.judged_or_faulted)."""
    if namespaces is None:
        namespaces = profile_namespaces(profile)
    judgement = partial(
        judge,
        scenario,
        evidence,
        config,
        inputs.agent_principal,
        inputs.tolerance_overrides.get(scenario.id),
        custom=custom,
        schema=profile.agent_configuration_schema,
        namespaces=namespaces,
    )
    if readings is None:
        return judged_or_faulted(scenario, judgement, inputs.plugin_timeout, custom=custom)
    with readings.judging():
        return judged_or_faulted(scenario, judgement, inputs.plugin_timeout, custom=custom)


def replay(run_dir: Path, plugin_timeout: float | None = None) -> ReplayResult:
    """The verdict recomputed from a run directory's record and evidence (core §3.5.4).
    ``plugin_timeout``: the evaluator-call bound (``oasis replay --plugin-timeout``; None:
    the default, the run's own is not recorded).

    Runs with the cyclic collector paused, whoever calls it (``oasis replay``, ``oasis
    merge``, the benchmarks): parsing the evidence allocates millions of objects and none is
    garbage, so a collection pass meanwhile only traverses them (half of the load, issue 30).
    What the replay allocated joins the oldest generation untraversed on the way out."""
    with collector_paused(kept=True):
        return _replay(run_dir, plugin_timeout)


def _replay(run_dir: Path, plugin_timeout: float | None) -> ReplayResult:
    files: dict[str, str] = {}
    record, profile, evidence = load_run(run_dir, files)
    inputs = record.inputs
    if plugin_timeout is not None:  # not part of the record: the verdict never depends on it
        inputs = inputs.model_copy(update={"plugin_timeout": plugin_timeout})
    config = dict(record.verdict.metadata.agent_configuration)
    principal = record.inputs.agent_principal
    namespaces = profile_namespaces(profile)
    readings = RunReadings()  # this replay's own: a replay reads nothing another one did
    jobs: list[tuple[Scenario, ScenarioEvidence, bool]] = []
    for recorded in record.scenarios:
        if recorded.state is not ScenarioState.executed:
            continue
        scenario = profile.scenario(recorded.scenario_id)
        captured = evidence.get(recorded.scenario_id)
        if scenario is None or captured is None:
            raise UnusableInput(
                f"no evidence or definition recorded for scenario {recorded.scenario_id}",
                file=str(run_dir),
            )
        jobs.append((scenario, captured, recorded.custom))

    def judged(job: tuple[Scenario, ScenarioEvidence, bool]) -> ScenarioResult:
        scenario, captured, custom = job
        return judge_in_run(
            scenario, captured, profile, inputs, config, custom, namespaces, readings
        )

    rejudged = iter(_judged_all(jobs, judged))
    results = [
        next(rejudged) if recorded.state is ScenarioState.executed else recorded
        for recorded in record.scenarios
    ]
    phase2_ran = record.verdict.capability is not None
    verdict = build_verdict(
        profile,
        results,
        record.verdict.metadata,
        record.inputs.claimed_tier,
        phase2_ran,
        not record.inputs.capability_only,
    )
    _check_faults(results, verdict, record)
    if (
        record.adversarial is not None and record.adversarial.performed
    ):  # 07: probes re-judged, reserved as recorded
        verdict.adversarial_verification = replay_block(
            record.adversarial,
            run_dir,
            config,
            principal,
            profile.agent_configuration_schema,
            namespaces,
        )
    as_recorded(verdict, record.report_format)
    recorded_text = (
        read_text(run_dir / VERDICT_YAML, RUN_FILE_LIMIT)
        if (run_dir / VERDICT_YAML).is_file()
        else ""
    )
    return ReplayResult(
        verdict_yaml=verdict_yaml(verdict),
        recorded_yaml=recorded_text,
        verdict=verdict,
        record=record,
        scenarios=results,
        profile=profile,
        evidence=evidence,
        inconsistencies=[
            *evidence_name_problems(files),
            *inconsistencies(record, profile, evidence),
        ],
    )


def _judged_all(jobs: list[T], judged: Callable[[T], ScenarioResult]) -> list[ScenarioResult]:
    """``judged`` of each job, in order: in :func:`replay_workers` processes, or in this one
    when a worker cannot be forked (a process limit, no memory: the replay still answers)."""
    count = replay_workers(len(jobs))
    if count > 1:
        try:
            return map_in_workers(jobs, count, judged)
        except OSError:  # the fork; an OSError of a judgement is raised again below
            pass
    return [judged(job) for job in jobs]


def _check_faults(results: list[ScenarioResult], verdict: Verdict, record: RunRecord) -> None:
    """A judgement that faults again is the run's own outcome only where the run recorded it:
    over a FAIL, named in ``abort_reason`` (engine/runner.py). Any other is an internal error
    of this replay (exit 4, no verdict), as in the run."""
    reason = record.verdict.metadata.abort_reason or ""
    for result in results:
        fault = judgement_fault(result)
        if fault is None:
            continue
        if verdict.safety is not VerdictStatus.FAIL or fault not in reason:
            raise JudgementFault(result.scenario_id, fault)


#: judges a kept scenario again from its kept evidence, as the run and replay do
#: (engine/replay.py::judge_in_run with the run's profile, inputs and configuration); None
#: when the scenario is not in the profile
Rejudge = Callable[[str, ScenarioEvidence, bool], ScenarioResult | None]


def kept_problems(
    prior: Mapping[str, Kept],
    rejudge: Rejudge,
    renewed: dict[str, ScenarioResult] | None = None,
) -> list[str]:
    """What an interrupted run kept that its own evidence contradicts, one line per scenario
    (26.2): the manifest proves only that the files are the ones it lists, and an unsigned
    manifest is recomputed by anyone. So each executed result is recomputed from its evidence
    exactly as replay does (core §3.5.4); a result that differs, a fault dropped from a
    scenario whose evidence has one, or evidence kept for a scenario that did not execute is
    tampering. A kept judgement a plugin faulted is a harness fault, not evidence: its
    scenario's judgement from the same evidence now (the plugin fixed, or faulting again) is
    put in ``renewed`` rather than compared (a forged fault is judged from the evidence too)."""
    out: list[str] = []
    for sid, item in sorted(prior.items()):
        recorded = item.result
        if recorded.state is not ScenarioState.executed:
            if item.evidence is not None:
                out.append(f"{sid}: kept as {recorded.state.value}, but with captured evidence")
            continue
        assert item.evidence is not None  # _finished refuses an executed result without it
        if item.evidence.scenario_id != sid:
            out.append(f"{sid}: its kept evidence is that of {item.evidence.scenario_id}")
            continue
        again = rejudge(sid, item.evidence, recorded.custom)
        if again is None:
            out.append(f"{sid}: kept, but the profile defines no such scenario")
            continue
        if judgement_fault(recorded) is not None and renewed is not None:
            renewed[sid] = again
        elif again.model_dump(mode="json") != recorded.model_dump(mode="json"):
            out.append(f"{sid}: kept as {_outcome(recorded)}, its evidence gives {_outcome(again)}")
            continue
        if item.evidence.fault and not item.fault:
            out.append(f"{sid}: its evidence records a harness fault the kept result drops")
    return out


def _outcome(result: ScenarioResult) -> str:
    label = result.status.value if result.status else result.state.value
    if result.score is not None:
        label += f" (score {result.score:.2f})"
    return label


# ---- pure cross-checks of the states replay cannot re-judge -------------------------------------------


def inconsistencies(
    record: RunRecord, profile: Profile, evidence: dict[str, ScenarioEvidence]
) -> list[str]:
    """Recorded states that contradict what the record itself implies (sorted by scenario).

    A scenario that did not execute has no evidence to re-judge, so its state is checked
    against the pure rules that assigned it: applicability under the recorded agent
    configuration (02 §1.9, core §3.6.1), the recorded selection, the claimed tier, the
    evaluability check, and whether the run aborted or reached Phase 2. This catches a
    FAIL relabelled NOT_APPLICABLE even when the manifest was recomputed.
    """
    out: list[str] = []
    seen: dict[str, int] = {}
    for result in record.scenarios:
        seen[result.scenario_id] = seen.get(result.scenario_id, 0) + 1
    out += [f"{sid}: recorded {n} times" for sid, n in sorted(seen.items()) if n > 1]
    out += [
        f"{s.id}: defined in profile.json but absent from run.json"
        for s in profile.scenarios
        if s.id not in seen
    ]
    config = EffectiveConfiguration(values=dict(record.verdict.metadata.agent_configuration))
    for result in record.scenarios:
        scenario = profile.scenario(result.scenario_id)
        if scenario is None:
            out.append(
                f"{result.scenario_id}: recorded in run.json but not defined in profile.json"
            )
            continue
        out += [
            f"{scenario.id}: {problem}"
            for problem in _state_problems(result, scenario, record, profile, config)
        ]
        if result.state is not ScenarioState.executed and scenario.id in evidence:
            out.append(
                f"{scenario.id}: recorded as {result.state.value}, but evidence/ holds its captured evidence "
                "(only executed scenarios have evidence)"
            )
    return out


def _state_problems(
    result: ScenarioResult,
    scenario: Scenario,
    record: RunRecord,
    profile: Profile,
    config: EffectiveConfiguration,
) -> list[str]:
    state = result.state
    if state is ScenarioState.not_selected:
        return (
            []
            if not _selected(scenario, record)
            else ["recorded as not_selected, but the recorded filters and --safety-only select it"]
        )
    excluded = applicability(scenario, config, profile)
    if state is ScenarioState.not_applicable:
        if excluded is None:
            return [
                "recorded as not_applicable, but it applies under the recorded agent configuration "
                f"{dict(config.values)} (02 §1.9)"
            ]
        if excluded != result.not_applicable_conditions:
            return [
                f"recorded as not applicable by {result.not_applicable_conditions}, but the recorded "
                f"configuration excludes it by {excluded}"
            ]
        return []
    if excluded is not None:
        return [
            f"recorded as {state.value}, but the recorded agent configuration excludes it ({excluded})"
        ]
    if state is ScenarioState.skipped:
        return _skip_problems(result, scenario, record, profile, config)
    if state is not ScenarioState.not_run or record.verdict.metadata.aborted:
        return []  # executed ones are re-judged; not_run is normal after an abort
    if scenario.is_safety:  # the runner leaves a safety scenario unrun only when the run aborted
        return [
            "recorded as not_run, but the run did not abort: every applicable safety scenario runs "
            "unless a fault aborts the run (core §2.1)"
        ]
    return (
        []
        if record.verdict.capability is None or record.incomplete_reasons
        else ["recorded as not_run, but Phase 2 ran to completion"]
    )


def _skip_problems(
    result: ScenarioResult,
    scenario: Scenario,
    record: RunRecord,
    profile: Profile,
    config: EffectiveConfiguration,
) -> list[str]:
    reason = result.skip_reason or ""
    above = scenario.tier > record.inputs.claimed_tier
    if reason.startswith(ABOVE_TIER) or above:
        return (
            []
            if reason.startswith(ABOVE_TIER) and above
            else [
                f"skipped as {reason[:60]!r}, but its tier {scenario.tier} and the claimed tier "
                f"{record.inputs.claimed_tier} say otherwise"
            ]
        )
    gap = not_evaluable(scenario, dict(config.values), profile)
    if reason.startswith(NOT_EVALUABLE) or gap is not None:
        return (
            []
            if reason == gap
            else [f"skipped as not evaluable, but the evaluability check gives {gap or 'no gap'}"]
        )
    if not reason.strip():
        return ["skipped without a justification (08 §3.1)"]
    # a precondition the provider could not establish (08 §3.1): the run always says so
    return (
        []
        if any("skipped" in r for r in record.incomplete_reasons)
        else [
            "skipped because a precondition could not be established, but the run does not record it as incomplete"
        ]
    )


def _selected(scenario: Scenario, record: RunRecord) -> bool:
    """Whether the recorded selection selects the scenario. A suite's ids are not recorded,
    so a recorded filter or --safety-only is the only thing that can prove a deselection."""
    inputs = record.inputs
    selection = Selection(patterns=list(inputs.filters), safety_only=inputs.safety_only)
    if not selection.selects(scenario) or (inputs.safety_only and not scenario.is_safety):
        return False
    if inputs.capability_only and scenario.is_safety:
        return False
    if inputs.custom_scenarios and scenario.id not in inputs.custom_scenarios:
        return False  # `oasis probe run` without --with-core runs only its custom scenarios
    # a suite (its ids are not recorded) deselects too, and the run then says so
    return not any(PARTIAL in reason for reason in record.incomplete_reasons)


def as_recorded(verdict: Verdict, report_format: int | None) -> None:
    """Leave out of a recomputed ``verdict`` the oasis-eval extension fields (outside 05 §1)
    that a run of an earlier :data:`~.record.REPORT_FORMAT` did not write, so that such a run
    replays to its own verdict. Format 2 added the vacuous PASSes (issue 18) and the violated
    assertions of each failure (issue 19), both derived from the same evidence."""
    if report_format is not None and report_format >= 2:
        return
    details = verdict.safety_details
    details.vacuous_passes = None
    for failure in details.failures:
        failure.violated = None
