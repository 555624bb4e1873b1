"""``evaluate()``: ``oasis run`` from Python, through the same composition (api/compose.py)."""

from __future__ import annotations

import asyncio
import sys
import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypedDict, Unpack

import anyio

from ..control_chars import visible_controls
from ..engine.phase_runner import Progress
from ..engine.runner import RunOutcome
from ..spec.profile import Profile
from .compose import RunRequest, check_before, prepare, run_plan, write_run_dir
from .config import DEFAULT_AGENT, DEFAULT_PROVIDER, AdversarialOptions
from .errors import EventLoopError, OptionError
from .results import EvaluationResult, result_of

__all__ = ["OPTIONS", "RunOptions", "evaluate", "evaluate_async"]

#: the keyword options of :func:`evaluate` beyond its named parameters, with their meaning
OPTIONS: dict[str, str] = {
    "config": "a run config file (oasis run --config); its values apply unless given here",
    "agent_options": "agent options, {key: value} or ['KEY=VALUE', ...] (oasis run --agent-option)",
    "agent_env": "variable names passed to a subprocess agent (oasis run --agent-env)",
    "agent_user": "the user a subprocess agent runs as, the runner being root (--agent-user)",
    "suite": "a suite file (02 §3): run only its scenarios, in its order",
    "filters": "a glob or list of globs over scenario id, category or archetype",
    "safety_only": "run Phase 1 only (the run is labelled incomplete)",
    "capability_only": "run capability scenarios only: the verdict claims no safety value (incomplete)",
    "tolerance_overrides": "{scenario_id: percent} safety_tolerance overrides",
    "evaluator": "the evaluating organization or individual",
    "principal": "the agent's principal in the provider's audit log",
    "provider_token": "the runner token of an HTTP provider",
    "adversarial": "a probe generator (mutation, red_team, llm, hybrid or a plugin)",
    "probes": "number of probes to generate (default 16; needs adversarial)",
    "seed": "generator seed (default 0; needs adversarial)",
    "archetypes": "archetype ids the probes target (a list or a comma-separated string)",
    "probe_options": "generator options, {key: value} or ['KEY=VALUE', ...]",
    "reserved": "reserved scenarios (07 §5): a directory or a bundle",
    "reserved_key_env": "the environment variable holding the reserved bundle's key",
    "custom": "custom extension scenario files or directories (03 §6)",
    "agent_retries": "faulted attempts without any agent call run again, fresh (default 1)",
    "plugin_timeout": "seconds one behavior evaluator call may run (default 120; past it: exit 4)",
    "workers": "worker processes sharing the parallel scenarios (default 1: none; 0: one per core)",
    "fail_on_vacuous": "gate policy: a vacuous safety PASS makes exit_code 6 (verdict unchanged)",
    "allow_agent_faults": "opt out of the default gate: a safety scenario ended in an agent fault (exit 6)",
    "allow_vacuous": "opt out of the default gate: every safety PASS vacuous (exit 6)",
    "min_capability": "gate policy: a score (overall), {dimension: score} or ['reasoning=0.8', ...]",
    "shard": "'I/N': run shard I of N of a phase (oasis run --shard); merge the shards with merge_shards",
    "phase": "the phase a shard runs: safety (default) or capability (needs after)",
    "after": "the merged Phase 1 run directory a capability shard starts from (oasis run --after)",
    "resume": "an interrupted run directory to carry on with (oasis run --resume): give the same inputs",
    "quiet": "print no progress (default: one line per event on stderr)",
    "progress": "a callable given each progress line instead of printing it",
}


class RunOptions(TypedDict, total=False):
    """The keyword options of :func:`evaluate` beyond its named parameters, typed: a type
    checker flags a misspelled or mistyped option (issue 31); :data:`OPTIONS` says what each
    one means, and an unknown one is still a ``TypeError`` at run time. None means "not
    given" for every one of them."""

    config: str | Path | None
    agent_options: Mapping[str, Any] | Sequence[str] | None
    agent_env: str | Sequence[str] | None
    agent_user: str | None
    suite: str | Path | None
    filters: str | Sequence[str] | None
    safety_only: bool | None
    capability_only: bool | None
    tolerance_overrides: Mapping[str, object] | Sequence[str] | None
    evaluator: str | None
    principal: str | None
    provider_token: str | None
    adversarial: str | None
    probes: int | None
    seed: int | None
    archetypes: str | Sequence[str] | None
    probe_options: Mapping[str, Any] | Sequence[str] | None
    reserved: str | Path | None
    reserved_key_env: str | None
    custom: str | Path | Sequence[str | Path] | None
    agent_retries: int | None
    plugin_timeout: float | None
    workers: int | None
    fail_on_vacuous: bool | None
    allow_agent_faults: bool | None
    allow_vacuous: bool | None
    min_capability: float | Mapping[str, object] | Sequence[str] | None
    shard: str | None
    phase: str | None
    after: str | Path | None
    resume: str | Path | None
    quiet: bool | None
    progress: Callable[[str], None] | None


def evaluate(
    profile: Profile | str | Path | None = None,
    agent: Any = DEFAULT_AGENT,
    provider: Any = DEFAULT_PROVIDER,
    *,
    tier: int = 1,
    parallel: int = 4,
    out: str | Path | None = None,
    **options: Unpack[RunOptions],
) -> EvaluationResult:
    """Run an OASIS evaluation and write its run directory, exactly as ``oasis run`` does.

    Args:
        profile: a loaded Profile (:func:`load_profile`), a profile path, or None for the
            built-in example profile.
        agent: what ``oasis run --agent`` accepts (``"builtin:careful"``, ``"http://…"``,
            ``"cli:'cmd args'"``, ``"python:module:attr"``, ``"mcp-http:URL"``,
            ``"mcp-stdio:'cmd'"``), a run-config ``agent:`` mapping, or an object with
            ``identify()`` and ``execute(task)`` (sync or async; see :class:`Agent`).
        provider: what ``oasis run --provider`` accepts (``"sim-k8s"``, ``"http://…"``,
            ``"python:module:attr"``), a ``{type: ...}`` mapping, or a :class:`Provider`.
        tier: the claimed complexity tier, 1 to 3.
        parallel: scenarios run at once.
        out: the run directory; None writes ``./oasis-runs/<timestamp>-<run id>``.
        **options: the other run options of ``oasis run``, typed by :class:`RunOptions`
            (what each means: :data:`OPTIONS`): config, agent_options, agent_env, agent_user, suite, filters,
            safety_only, capability_only, tolerance_overrides, evaluator, principal, provider_token,
            adversarial, probes, seed, archetypes, probe_options, reserved,
            reserved_key_env, custom, agent_retries, plugin_timeout, workers, fail_on_vacuous,
            allow_agent_faults, allow_vacuous, min_capability, shard, phase, after, resume, quiet,
            progress.

    Returns:
        An :class:`EvaluationResult`: ``.safety`` ("PASS", "FAIL" or "PROVIDER_FAILURE"),
        ``.verdict``, ``.scenarios``, ``.run_dir``, ``.exit_code``.

    Raises:
        TypeError: an unknown option.
        OptionError: a bad option value (e.g. an unknown agent type).
        UnusableInput: an input that cannot be used (profile, suite, config, output path);
            ``InvalidInput`` and ``UnjudgeableProfile`` carry the findings.
        PreflightError: the provider cannot run this profile; nothing ran.
        AgentFault: the agent failed before any scenario ran.
        ConfigurationError: the agent's configuration does not fit the profile's schema.
        EventLoopError: called inside a running event loop (await :func:`evaluate_async`).
        KeyboardInterrupt: Ctrl-C during the run: every environment it provisioned is torn
            down; the run directory keeps the scenarios that finished, marked interrupted,
            and ``resume=run_dir`` with the same inputs carries on with it.

    Example:
        >>> import oasis_eval
        >>> result = oasis_eval.evaluate(agent="builtin:careful", provider="sim-k8s")  # doctest: +SKIP
        >>> print(result.safety)  # doctest: +SKIP
        PASS
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        raise EventLoopError(
            "oasis_eval.evaluate() was called inside a running event loop; "
            "use `await oasis_eval.evaluate_async(...)` there"
        )
    request, progress = _request(profile, agent, provider, tier, parallel, out, options)
    # the result comes back through a holder, not as the main task's result: Python 3.11's
    # asyncio formats that result (a whole run) into a debug message twice on exit
    holder: list[EvaluationResult] = []
    anyio.run(_evaluate_into, request, progress, holder)
    return holder[0]


async def evaluate_async(
    profile: Profile | str | Path | None = None,
    agent: Any = DEFAULT_AGENT,
    provider: Any = DEFAULT_PROVIDER,
    *,
    tier: int = 1,
    parallel: int = 4,
    out: str | Path | None = None,
    **options: Unpack[RunOptions],
) -> EvaluationResult:
    """:func:`evaluate`, awaitable: for callers already inside an event loop (asyncio or trio).

    Args:
        profile: as for :func:`evaluate`.
        agent: as for :func:`evaluate`.
        provider: as for :func:`evaluate`.
        tier: as for :func:`evaluate`.
        parallel: as for :func:`evaluate`.
        out: as for :func:`evaluate`.
        **options: as for :func:`evaluate`.

    Returns:
        An :class:`EvaluationResult`.

    Raises:
        TypeError: an unknown option; otherwise as :func:`evaluate`.

    Example:
        >>> result = await oasis_eval.evaluate_async(agent="builtin:naive")  # doctest: +SKIP
        >>> result.safety, result.exit_code  # doctest: +SKIP
        ('FAIL', 1)
    """
    request, progress = _request(profile, agent, provider, tier, parallel, out, options)
    return await _evaluate(request, progress)


async def _evaluate_into(
    request: RunRequest, progress: Progress | None, holder: list[EvaluationResult]
) -> None:
    holder.append(await _evaluate(request, progress))


async def _evaluate(request: RunRequest, progress: Progress | None) -> EvaluationResult:
    plan = prepare(request)
    target = check_before(plan)
    outcome: RunOutcome = await run_plan(plan, progress, _warn, journal=target.journal)
    run_dir, moved = write_run_dir(plan, outcome, target)
    return result_of(outcome.record, run_dir, [moved] if moved else None)


def _warn(text: str) -> None:
    warnings.warn(text, RuntimeWarning, stacklevel=2)


def _print_progress(message: str) -> None:
    # one event, one line: agent text can neither drive the terminal nor fake a line
    shown = visible_controls(str(message)).replace("\n", "\\n").replace("\t", "\\t")
    print(shown, file=sys.stderr, flush=True)


def _request(
    profile: Profile | str | Path | None,
    agent: Any,
    provider: Any,
    tier: int,
    parallel: int,
    out: str | Path | None,
    options: RunOptions,
) -> tuple[RunRequest, Progress | None]:
    """The run request of the API's arguments (the same one ``oasis run`` builds)."""
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise TypeError(
            f"evaluate() got unknown option(s): {', '.join(map(repr, unknown))} "
            f"(known: {', '.join(OPTIONS)})"
        )
    _whole(tier, "--tier", 1, 3)
    _whole(parallel, "--parallel", 1, None)
    if options.get("agent_retries") is not None:
        _whole(options["agent_retries"], "--agent-retries", 0, None)
    if options.get("workers") is not None:
        _whole(options["workers"], "--workers", 0, None)
    if isinstance(profile, Mapping):  # a run config's {path: PATH}
        profile = profile.get("path")
    filters = options.get("filters") or ()
    request = RunRequest(
        config=_path(options.get("config")),
        profile=profile if isinstance(profile, Profile) else _path(profile),
        agent=agent,
        agent_options=options.get("agent_options") or (),
        agent_env=_names(options.get("agent_env")),
        agent_user=options.get("agent_user"),
        provider=provider,
        suite=_path(options.get("suite")),
        tier=tier,
        evaluator=options.get("evaluator"),
        parallel=parallel,
        filters=[filters] if isinstance(filters, str) else list(filters),
        safety_only=bool(options.get("safety_only", False)),
        capability_only=bool(options.get("capability_only", False)),
        tolerance=options.get("tolerance_overrides") or {},
        principal=options.get("principal"),
        provider_token=options.get("provider_token"),
        out=_path(out),
        adversarial=AdversarialOptions(
            generator=options.get("adversarial"),
            probes=options.get("probes"),
            seed=options.get("seed"),
            archetypes=options.get("archetypes"),
            options=options.get("probe_options") or (),
            reserved=_path(options.get("reserved")),
            key_env=options.get("reserved_key_env") or "OASIS_RESERVED_KEY",
        ),
        custom=[Path(p) for p in _paths(options.get("custom"))],
        fail_on_vacuous=options.get("fail_on_vacuous"),
        allow_agent_faults=options.get("allow_agent_faults"),
        allow_vacuous=options.get("allow_vacuous"),
        agent_retries=options.get("agent_retries"),
        plugin_timeout=options.get("plugin_timeout"),
        workers=options.get("workers"),
        min_capability=options.get("min_capability"),
        resume=_path(options.get("resume")),
        shard=options.get("shard"),
        phase=options.get("phase"),
        after=_path(options.get("after")),
    )
    progress: Callable[[str], None] | None = options.get("progress")
    if progress is None and not options.get("quiet", False):
        progress = _print_progress
    return request, progress


def _names(value: str | Sequence[str] | None) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else [str(v) for v in value]


def _whole(value: object, option: str, low: int, high: int | None) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise OptionError(f"{value!r}: expected a whole number >= {low}", option)
    if high is not None and value > high:
        raise OptionError(f"{value!r}: expected {low} to {high}", option)


def _path(value: str | Path | None) -> Path | None:
    return None if value is None or value == "" else Path(value)


def _paths(value: str | Path | Sequence[str | Path] | None) -> list[str | Path]:
    if value is None:
        return []
    if isinstance(value, str | Path):
        return [value]
    return list(value)
