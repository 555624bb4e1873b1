"""The one composition of a run, shared by ``oasis run`` and :func:`oasis_eval.evaluate`.

:func:`prepare` turns a :class:`RunRequest` (the options as given) into a :class:`RunPlan`
(profile, agent, provider, inputs, selection), checking every input before anything runs;
:func:`check_before` checks the run key and output paths; :func:`run_plan` evaluates and
closes the adapters; :func:`write_run_dir` writes the run directory, the reports and the
manifest and moves them into place. Nothing here prints or exits: callers say what they
want said through the callbacks they pass.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
from pydantic import ValidationError

from ..contract import Agent, AgentFault, Provider
from ..diagnostics import UnusableInput
from ..engine.containment import describe, passes_through
from ..engine.journal import RunJournal, interruption
from ..engine.manifest import RunKey, load_run_key, write_manifest
from ..engine.phase_runner import Progress
from ..engine.policies import PolicyError
from ..engine.policies import parse_min_capability as policy_thresholds
from ..engine.record import RunInputs
from ..engine.redaction import Redactor
from ..engine.refusals import ConfigurationError, PreflightError
from ..engine.rundir import recorded_run_id, redacted_profile, write_run
from ..engine.runner import RunOutcome, evaluate
from ..engine.selection import Selection
from ..engine.shard import PHASES, ShardError, ShardSpec, parse_shard
from ..examples import EXAMPLE_PROFILE_DIR
from ..files import one_sync
from ..profiles.cache import resolve_profile
from ..spec.profile import Profile
from .config import (
    DEFAULT_AGENT,
    RunConfig,
    add_custom,
    adversarial_config,
    gate_loaded,
    load_for_run,
    load_run_config,
    make_agent,
    make_provider,
    spec_of,
    suite_ids,
    tolerances,
    with_agent_options,
    with_process_options,
    withhold_secrets,
)
from .config_compat import copy_outputs, select_ids, with_timeout
from .errors import OptionError
from .inputs import check_judging_inputs, check_output, check_patterns
from .publish import absolute, publish, staging_for
from .request import RunRequest
from .resume import journal_for, run_fingerprint
from .resume_options import options_of

if TYPE_CHECKING:
    from ..adversarial.phase import AdversarialConfig

#: where run directories are created (``<timestamp>-<run id>``) when neither ``out`` nor the
#: run config's ``output.dir`` names the run directory
DEFAULT_BASE = "oasis-runs"

Warn = Callable[[str], None]


@dataclass
class RunPlan:
    """Everything a run needs, checked: what :func:`run_plan` evaluates."""

    profile: Profile
    gaps: list[str]
    inputs: RunInputs
    selection: Selection
    agent: Agent
    provider: Provider
    out: Path | None
    base: Path
    adversarial: AdversarialConfig | None = None
    #: the profile's directory or file, when it came from one (``out`` must lie outside it)
    profile_path: Path | None = None
    #: what the run is started with (api/resume.py): recorded, and compared on resume
    fingerprint: dict[str, Any] = field(default_factory=dict)
    #: the interrupted run to carry on with (``--resume``)
    resume: Path | None = None
    #: the run config's output.path / output.evidence_dir: copies written after the run
    copies: tuple[Path | None, Path | None] = (None, None)
    #: the options as the run records them for a resume (api/resume_options.py)
    options: dict[str, Any] = field(default_factory=dict)


def prepare(request: RunRequest) -> RunPlan:
    """Load and check every input of ``request``, in the order ``oasis run`` always has
    (its first error is the one reported); the provider is built before the agent, so a
    runner token leaves the environment before any agent code is loaded."""
    asked = request.adversarial
    withhold_secrets(
        asked.key_env, request.provider_token, asked.options if asked.generator else None
    )
    cfg = load_run_config(request.config) if request.config else RunConfig()
    given = request.profile
    if isinstance(given, Profile):
        profile_path: Path | None = None
        profile, gaps = given, gate_loaded(given)
    else:
        profile_path = Path(given) if given else None
        profile_path = profile_path or (Path(cfg.profile) if cfg.profile else EXAMPLE_PROFILE_DIR)
        profile_path = resolve_profile(profile_path)  # a path, else a fetched profile's name
        profile, gaps = load_for_run(profile_path)
    profile, custom_ids = add_custom(profile, request.custom)
    adversarial = adversarial_config(profile, request.adversarial)
    inputs = _inputs(cfg, request)
    check_judging_inputs(inputs, profile)
    check_patterns(list(request.filters))
    agent_spec = with_agent_options(request.agent or cfg.agent, request.agent_options)
    agent_spec = with_process_options(agent_spec, request.agent_env, request.agent_user)
    if cfg.agent_timeout is not None:
        agent_spec = with_timeout(
            spec_of(DEFAULT_AGENT if agent_spec is None else agent_spec),
            cfg.agent_timeout,
            cfg.notes,
        )
    selection = Selection(
        patterns=[*cfg.filters, *request.filters],
        safety_only=request.safety_only or cfg.safety_only,
        capability_only=request.capability_only,
    )
    suite_path = request.suite or (Path(cfg.suite) if cfg.suite else None)
    if suite_path is not None:
        selection.ids = suite_ids(suite_path, profile)
    if cfg.scenarios is not None:
        known = [s.id for s in profile.scenarios]
        selection.ids = select_ids(cfg.scenarios, known, selection.ids, cfg.notes)
    warnings = [*cfg.warnings, *cfg.notes.lines]
    gaps = [*(f"run config: {w}" for w in warnings), *gaps]
    inputs.filters, inputs.safety_only = selection.patterns, selection.safety_only
    inputs.capability_only = selection.capability_only
    inputs.custom_scenarios = custom_ids
    selection.shard = _shard(request, profile, inputs)
    token = request.provider_token
    provider_spec = request.provider or cfg.provider
    fingerprint = run_fingerprint(
        profile, agent_spec, provider_spec, inputs, selection, request.adversarial
    )
    provider = make_provider(
        provider_spec, {"token": token} if token else cfg.provider_auth
    )  # before the agent: the token leaves os.environ first
    agent = make_agent(agent_spec)
    gaps = [*gaps, *agent_warnings(agent)]  # e.g. no PID namespace: the run says so
    return RunPlan(
        profile=profile,
        gaps=gaps,
        inputs=inputs,
        selection=selection,
        agent=agent,
        provider=provider,
        # --out and the run config's output.dir are one thing: the run directory (issue 18)
        out=request.out or (Path(cfg.output) if cfg.output else None),
        base=Path(DEFAULT_BASE),
        adversarial=adversarial,
        profile_path=profile_path,
        fingerprint=fingerprint,
        resume=request.resume,
        copies=(absolute(_given(cfg.verdict_copy)), absolute(_given(cfg.evidence_copy))),
        options=options_of(request),
    )


def agent_warnings(agent: Agent) -> list[str]:
    """What the run says about how its agent runs (e.g. no PID namespace, issue 25)."""
    from ..adapters.agents import agent_warnings as warnings_of  # lazy: pulls httpx

    return warnings_of(agent)


def _shard(request: RunRequest, profile: Profile, inputs: RunInputs) -> ShardSpec | None:
    """``--shard I/N`` with ``--phase`` and ``--after`` (engine/shard.py), checked."""
    if request.shard is None:
        if request.phase is not None or request.after is not None:
            raise OptionError("goes with --shard I/N", "--phase" if request.phase else "--after")
        return None
    try:
        index, count = parse_shard(request.shard)
    except ShardError as exc:
        raise OptionError(str(exc), "--shard") from None
    phase = request.phase or PHASES[0]
    if phase not in PHASES:
        raise OptionError(f"{phase!r}: give safety or capability", "--phase")
    if request.adversarial.generator or request.adversarial.reserved:
        raise OptionError("a shard runs no adversarial phase: run the probes apart", "--shard")
    if phase == PHASES[0]:
        if request.after is not None:
            raise OptionError("goes with --phase capability", "--after")
        return ShardSpec(index, count)
    if request.after is None:
        raise OptionError("--phase capability needs --after MERGED_DIR", "--after")
    from .merge import phase1_after  # lazy: only a capability shard reads a merged run

    profile_json = redacted_profile(profile, Redactor())
    return phase1_after(request.after, index, count, profile_json, inputs)


def _given(path: str | None) -> Path | None:
    return Path(path) if path else None


def _inputs(cfg: RunConfig, request: RunRequest) -> RunInputs:
    """The run config's evaluation inputs with the request's overrides."""
    try:
        inputs = RunInputs(**cfg.inputs)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        where = ".".join(str(p) for p in err["loc"])
        raise UnusableInput(
            f"run config: '{where}': {err['msg']}", file=str(request.config)
        ) from None
    overrides = {
        "claimed_tier": request.tier,
        "evaluator": request.evaluator,
        "parallel": request.parallel,
        "workers": request.workers,
        "agent_retries": request.agent_retries,
        "plugin_timeout": request.plugin_timeout,
        "agent_principal": request.principal,
    }
    for key, value in overrides.items():
        if value is not None:
            setattr(inputs, key, value)
    inputs.tolerance_overrides.update(tolerances(request.tolerance))
    _policies(inputs, request)
    if request.parallel is None and "parallel" not in cfg.inputs:
        inputs.parallel = 4
    return inputs


def _policies(inputs: RunInputs, request: RunRequest) -> None:
    """The gate policies: the request's over the run config's (engine/policies.py)."""
    if request.fail_on_vacuous is not None:
        inputs.fail_on_vacuous = inputs.fail_on_vacuous or request.fail_on_vacuous
    if request.allow_agent_faults is not None:
        inputs.allow_agent_faults = inputs.allow_agent_faults or request.allow_agent_faults
    if request.allow_vacuous is not None:
        inputs.allow_vacuous = inputs.allow_vacuous or request.allow_vacuous
    try:
        merged = policy_thresholds(inputs.min_capability)
        wanted = request.min_capability
        if isinstance(wanted, (int, float)):
            wanted = [str(wanted)]
        if wanted:
            merged.update(policy_thresholds(wanted))
    except PolicyError as exc:
        raise OptionError(str(exc), PolicyError.option) from None
    inputs.min_capability = dict(sorted(merged.items()))


@dataclass
class OutputTarget:
    """Where the run will be written, fixed before it starts (:func:`check_before`)."""

    out: Path | None
    base: Path
    run_key: RunKey | None
    #: the run id ``out`` held before the run (an earlier run it will replace), if any
    found: str | None
    #: writes the run directory as the run goes (engine/journal.py)
    journal: RunJournal | None = None


def check_before(plan: RunPlan) -> OutputTarget:
    """The run key and the output paths, checked before the run: a bad key or path must not
    cost a finished run. Paths are made absolute now (an in-process agent may chdir)."""
    run_key = load_run_key(signing=True)
    out, base = absolute(plan.out), absolute(plan.base)
    assert base is not None  # absolute() keeps a path a path
    resume = absolute(plan.resume)
    if resume is not None:
        if out is not None and out != resume:
            raise OptionError(f"{plan.out}: --resume writes the run it resumes", "--out")
        out, found = resume, recorded_run_id(resume)
    else:
        check_output(out, base, plan.profile_path)
        found = recorded_run_id(out)
    journal = journal_for(plan.fingerprint, out, base, run_key, found, resume, plan.options)
    return OutputTarget(out=out, base=base, run_key=run_key, found=found, journal=journal)


async def run_plan(
    plan: RunPlan,
    progress: Progress | None,
    warn: Warn,
    on_refused: Callable[[Exception], None] | None = None,
    journal: RunJournal | None = None,
) -> RunOutcome:
    """Evaluate ``plan`` and close its adapters whatever happens. What
    :func:`oasis_eval.engine.runner.evaluate` raises before any scenario runs (PreflightError,
    AgentFault, ConfigurationError) goes to ``on_refused`` first, before the adapters close,
    then propagates unless ``on_refused`` raised something else. Anything else that stops
    the run (Ctrl-C, SIGTERM, a harness crash) marks its ``journal`` interrupted."""
    for text in agent_warnings(plan.agent):
        warn(f"warning: {text}")
    try:
        return await evaluate(
            plan.profile,
            plan.agent,
            plan.provider,
            plan.inputs,
            plan.selection,
            progress,
            adversarial=plan.adversarial,
            journal=journal,
        )
    except (PreflightError, AgentFault, ConfigurationError) as exc:
        if on_refused is not None:
            on_refused(exc)
        raise
    except BaseException as exc:
        if journal is not None:
            journal.interrupted(interruption(exc))
        raise
    finally:
        with anyio.CancelScope(shield=True):
            for name, closable in (("agent", plan.agent), ("provider", plan.provider)):
                await _close(name, closable, warn)


async def _close(name: str, closable: Agent | Provider, warn: Warn) -> None:
    """Close an adapter; what its code raises is reported, never turned into an exit code."""
    try:
        await closable.aclose()
    except BaseException as exc:
        if passes_through(exc):
            raise
        warn(f"warning: closing the {name} failed: {describe(exc)}")


def write_run_dir(
    plan: RunPlan, outcome: RunOutcome, target: OutputTarget
) -> tuple[Path, str | None]:
    """Write the run directory, reports and manifest (last: it covers every file), apart,
    and move them into place whole; (the run directory, a warning when it moved)."""
    # lazy: adversarial.phase_output pulls the generators and httpx (~85 ms), reporting jinja2 (~50 ms)
    from ..adversarial.phase_output import write_adversarial
    from ..reporting import write_reports

    record = outcome.record
    record.warnings.extend(plan.gaps)
    stamp = record.verdict.metadata.timestamp.replace(":", "")
    run_dir = target.out or target.base / f"{stamp}-{record.run_id}"
    found, moved = target.found, None
    journal = target.journal
    if journal is not None and journal.begun:  # the finished run replaces its journal whole
        if journal.run_dir != run_dir:
            moved = (
                f"{run_dir} changed before the run started (something other than this run "
                f"wrote there); the run was written to {journal.run_dir} instead"
            )
        run_dir, found = journal.run_dir, journal.run_id
    # written apart, moved in whole: nothing planted during the run is in it
    staging = staging_for(run_dir)
    with one_sync(staging):  # every file on disk before the rename publishes them (issue 30)
        digests = write_run(
            staging,
            record,
            outcome.evidence,
            redacted_profile(plan.profile, Redactor()),
            stored=journal.stored if journal is not None else None,
            manifest=False,  # written once, last, over the reports too (below)
        )
        write_adversarial(staging, outcome.adversarial)
        write_reports(record, staging)
        write_manifest(staging, target.run_key, digests)  # the journal's evidence digests
    where, warning = publish(staging, run_dir, record.run_id, found)
    if journal is not None:
        journal.release()
    copied = copy_outputs(where, *plan.copies)
    return where, "; ".join(w for w in (warning or moved, copied) if w) or None
