"""``oasis run``, ``oasis replay``, ``oasis report``, ``oasis conformance``.

Exit codes always equal the printed verdict: 0 PASS, 1 FAIL, 3 PROVIDER_FAILURE
(or any aborted run that did not FAIL); 2 for usage, input or preflight errors
(no verdict is written then).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import anyio
import typer
from pydantic import ValidationError

from ..diagnostics import UnusableInput
from ..engine.record import RunInputs
from ..engine.runner import Selection
from ..spec.yaml_io import load_single, safe_load
from .output import terminal_safe

EXIT_PREFLIGHT = 2
EXIT_ABORTED = 3
#: the built-in defaults: the demo agent on the simulated cluster, both in process
DEFAULT_AGENT = "builtin:careful"
DEFAULT_PROVIDER = "sim-k8s"


@dataclass
class RunConfig:
    """oasisctl-compatible run config (profile, agent, environment, evaluation, output) plus ours."""

    profile: str | None = None
    agent: Any = None
    provider: Any = None
    suite: str | None = None
    output: str | None = None
    inputs: dict[str, Any] = field(default_factory=dict)
    filters: list[str] = field(default_factory=list)
    safety_only: bool = False
    #: unknown keys (run_inputs.check_run_config): printed and recorded in the run
    warnings: list[str] = field(default_factory=list)
    #: environment.token / token_env / token_file: the served provider's runner token
    provider_auth: dict[str, Any] = field(default_factory=dict)


def load_run_config(path: Path) -> RunConfig:
    from .run_inputs import check_run_config

    doc = load_single(path)
    if not isinstance(doc.data, dict):
        raise UnusableInput("a run config must be a mapping", file=str(path), line=doc.line)
    # every value below has the shape RUN_CONFIG_SCHEMA says (check_run_config raised otherwise)
    cfg = RunConfig(warnings=check_run_config(doc, path))
    data = doc.data
    profile = data.get("profile")
    cfg.profile = profile["path"] if isinstance(profile, dict) else profile
    cfg.agent = data.get("agent")
    env = data.get("environment") or {}
    if isinstance(env, dict):
        cfg.provider = env.get("provider") or env.get("provider_url") or env.get("url")
        cfg.provider_auth = {k: env[k] for k in ("token", "token_env", "token_file") if env.get(k)}
        if env.get("tier") is not None:
            cfg.inputs["claimed_tier"] = env["tier"]
    elif isinstance(env, str):
        cfg.provider = env
    evaluation = data.get("evaluation") or {}
    keys = {
        "tier": "claimed_tier",
        "evaluator": "evaluator",
        "parallel": "parallel",
        "principal": "agent_principal",
        "lab_framework": "lab_framework",
        "context_tags": "context_tags",
        "environment_characteristics": "environment_characteristics",
        "tolerance_overrides": "tolerance_overrides",
    }
    for key, target in keys.items():
        if key in evaluation:
            cfg.inputs[target] = evaluation[key]
    filters = evaluation.get("filters") or []
    cfg.filters = [filters] if isinstance(filters, str) else filters
    cfg.safety_only = evaluation.get("safety_only", False)
    cfg.suite = data.get("suite")
    output = data.get("output") or {}
    cfg.output = output.get("dir") if isinstance(output, dict) else output
    # relative paths in a run config are relative to the config file, not the working directory
    base = path.parent
    for attr in ("profile", "suite", "output"):
        value = getattr(cfg, attr)
        if isinstance(value, str) and value and not Path(value).is_absolute():
            setattr(cfg, attr, str(base / value))
    token_file = cfg.provider_auth.get("token_file")
    if isinstance(token_file, str) and not Path(token_file).is_absolute():
        cfg.provider_auth["token_file"] = str(base / token_file)
    return cfg


def _tolerances(values: list[str]) -> dict[str, float]:
    out = {}
    for item in values:
        scenario_id, sep, number = item.partition("=")
        try:
            value = float(number)
        except ValueError:
            value = -1.0
        if not sep or not (0 <= value <= 100):
            raise typer.BadParameter(
                f"'{item}': expected SCENARIO_ID=PERCENT with 0 <= PERCENT <= 100",
                param_hint="--tolerance",
            )
        out[scenario_id] = value
    return out


def run(
    config: Path | None = typer.Option(
        None,
        "--config",
        "-c",
        help="Run config YAML (oasisctl keys: profile, agent, environment, evaluation, output).",
    ),
    profile: Path | None = typer.Option(
        None, "--profile", "-p", help="Profile (default: the built-in example)."
    ),
    agent: str | None = typer.Option(
        None,
        "--agent",
        help="Agent: an HTTP URL, or TYPE:SPEC (cli:'cmd args', mcp-stdio:'cmd', mcp-http:URL, python:module:attr, builtin:careful|naive). Default: builtin:careful.",
    ),
    provider: str | None = typer.Option(
        None,
        "--provider",
        help="Provider: an HTTP URL (petri-compatible /v1 API), sim-k8s (in process) or python:module:attr. Default: sim-k8s.",
    ),
    suite: Path | None = typer.Option(
        None, "--suite", help="Suite file (02 §3): run only its scenarios, in its order."
    ),
    tier: int | None = typer.Option(
        None, "--tier", min=1, max=3, help="Claimed complexity tier (default 1)."
    ),
    evaluator: str | None = typer.Option(
        None, "--evaluator", help="Evaluating organization or individual."
    ),
    parallel: int | None = typer.Option(
        None, "--parallel", min=1, help="Scenarios run at once (default 4)."
    ),
    filters: list[str] = typer.Option(
        [], "--filter", help="Glob over scenario id, category or archetype (repeatable)."
    ),
    safety_only: bool = typer.Option(
        False, "--safety-only", help="Run Phase 1 only (the run is labelled incomplete)."
    ),
    tolerance: list[str] = typer.Option(
        [], "--tolerance", help="SCENARIO_ID=PERCENT safety_tolerance override (repeatable)."
    ),
    principal: str | None = typer.Option(
        None, "--principal", help="The agent's principal in the provider's audit log."
    ),
    provider_token: str | None = typer.Option(
        None,
        "--provider-token",
        envvar="OASIS_PROVIDER_TOKEN",
        show_envvar=True,
        help="Runner token of an HTTP provider (oasis provider serve prints or writes it); prefer the environment variable.",
    ),
    out: Path | None = typer.Option(
        None, "--out", "-o", help="Run directory (default ./oasis-runs/<timestamp>)."
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the verdict line."),
    adversarial: str | None = typer.Option(
        None,
        "--adversarial",
        help="After the core evaluation, run adversarial probes from this generator (07): mutation, red_team, llm, hybrid or a plugin name. Never changes the core verdict.",
    ),
    probes: int | None = typer.Option(
        None,
        "--probes",
        min=1,
        max=10_000,
        help="Number of probes to generate (default 16; needs --adversarial).",
    ),
    seed: int | None = typer.Option(
        None, "--seed", help="Generator seed (default 0; needs --adversarial)."
    ),
    archetypes: str | None = typer.Option(
        None,
        "--archetypes",
        help="Comma-separated archetype ids the probes target (default: every safety archetype; needs --adversarial).",
    ),
    probe_option: list[str] = typer.Option(
        [],
        "--probe-option",
        help="KEY=VALUE generator option, e.g. model=NAME (repeatable; needs --adversarial).",
    ),
    reserved: Path | None = typer.Option(
        None,
        "--reserved",
        help="Reserved scenarios (07 §5): a directory of scenario YAML or a bundle from `oasis reserved pack`. Run after the probes and reported as counts only.",
    ),
    reserved_key_env: str = typer.Option(
        "OASIS_RESERVED_KEY",
        "--reserved-key-env",
        help="Environment variable holding the reserved bundle's key.",
    ),
    custom: list[Path] = typer.Option(
        [],
        "--custom",
        help="Custom extension scenarios (03 §6), e.g. promoted probes: a file or directory (repeatable). Labelled custom; never counted toward minimum coverage.",
    ),
) -> None:
    """Run an evaluation: preflight, safety gate, capability scoring; write verdict and report."""
    from ..examples import EXAMPLE_PROFILE_DIR
    from .run_inputs import check_judging_inputs, check_patterns

    cfg = load_run_config(config) if config else RunConfig()
    profile_path = profile or (Path(cfg.profile) if cfg.profile else EXAMPLE_PROFILE_DIR)
    loaded_profile, gaps = _load_for_run(profile_path)
    loaded_profile, custom_ids = add_custom(loaded_profile, custom)
    adversarial_cfg = adversarial_config(
        loaded_profile,
        adversarial,
        probes,
        seed,
        archetypes,
        probe_option,
        reserved,
        reserved_key_env,
    )
    try:
        inputs = RunInputs(**cfg.inputs)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        field = ".".join(str(p) for p in err["loc"])
        raise UnusableInput(f"run config: '{field}': {err['msg']}", file=str(config)) from None
    overrides = {
        "claimed_tier": tier,
        "evaluator": evaluator,
        "parallel": parallel,
        "agent_principal": principal,
    }
    for key, value in overrides.items():
        if value is not None:
            setattr(inputs, key, value)
    inputs.tolerance_overrides.update(_tolerances(tolerance))
    if parallel is None and "parallel" not in cfg.inputs:
        inputs.parallel = 4
    check_judging_inputs(inputs, loaded_profile)
    check_patterns(filters)
    gaps = [*(f"run config: {w}" for w in cfg.warnings), *gaps]
    selection = Selection(
        patterns=[*cfg.filters, *filters], safety_only=safety_only or cfg.safety_only
    )
    suite_path = suite or (Path(cfg.suite) if cfg.suite else None)
    if suite_path is not None:
        selection.ids = _suite_ids(suite_path, loaded_profile)
    inputs.filters, inputs.safety_only = selection.patterns, selection.safety_only
    inputs.custom_scenarios = custom_ids
    provider_obj = _provider(
        provider or cfg.provider, {"token": provider_token} if provider_token else cfg.provider_auth
    )  # before the agent: the token leaves os.environ first
    execute_and_write(
        loaded_profile,
        gaps,
        inputs,
        selection,
        _agent(agent or cfg.agent),
        provider_obj,
        quiet,
        out,
        Path(cfg.output or "oasis-runs"),
        adversarial_cfg,
        profile_path,
    )


def execute_and_write(
    profile,
    gaps,
    inputs,
    selection,
    agent_obj,
    provider_obj,
    quiet: bool,  # type: ignore[no-untyped-def]
    out: Path | None,
    base: Path,
    adversarial_cfg=None,
    profile_path: Path | None = None,
) -> None:
    """Evaluate, write the run directory and reports, print the verdict, exit with its code."""
    from ..adversarial.phase import write_adversarial
    from ..engine.manifest import load_run_key, write_manifest
    from ..engine.redaction import Redactor
    from ..engine.rundir import recorded_run_id, redacted_profile, write_run
    from ..engine.runner import evaluate
    from ..reporting import write_reports
    from .progress import progress_for
    from .publish import absolute, publish, staging_for
    from .run_inputs import check_output

    run_key = load_run_key(
        signing=True
    )  # checked before the run: a bad key must not cost a finished run
    out, base = absolute(out), absolute(base)  # an in-process agent may chdir during the run
    check_output(out, base, profile_path)  # before the run: a bad path must not cost a whole run
    found = recorded_run_id(out)  # the run --out holds now (an earlier run it will replace), if any
    for (
        warning
    ) in gaps:  # loud even with --quiet: the run proceeds over them (validation/blocking.py)
        typer.echo(f"warning: {warning}", err=True)
    say = progress_for(quiet)
    try:
        # the outcome comes back through a holder, not as the main task's result: Python 3.11's
        # asyncio formats that result (a whole run) into a debug message twice on exit
        holder: list = []
        before = set(threading.enumerate())
        with terminate_as_interrupt():
            anyio.run(
                _evaluate,
                evaluate,
                profile,
                agent_obj,
                provider_obj,
                inputs,
                selection,
                say,
                adversarial_cfg,
                holder,
            )
        outcome = holder[0]
    except KeyboardInterrupt:  # the user's Ctrl-C (or SIGTERM/SIGHUP): never a PASS, never exit 0
        typer.echo(
            "interrupted (Ctrl-C, SIGTERM or SIGHUP): the run stopped and every environment it "
            "provisioned was torn down; no verdict was written",
            err=True,
        )
        leave(EXIT_ABORTED, before)
    finally:
        say.close()
    outcome.record.warnings.extend(gaps)
    stamp = outcome.record.verdict.metadata.timestamp.replace(":", "")
    run_dir = out or base / f"{stamp}-{outcome.record.run_id}"
    staging = staging_for(
        run_dir
    )  # written apart, moved in whole: nothing planted during the run is in it
    write_run(staging, outcome.record, outcome.evidence, redacted_profile(profile, Redactor()))
    write_adversarial(staging, outcome.adversarial)
    write_reports(outcome.record, staging)
    write_manifest(staging, run_key)  # last: it covers every file written above
    run_dir, moved = publish(staging, run_dir, outcome.record.run_id, found)
    if moved:
        typer.echo(f"warning: {terminal_safe(moved)}", err=True)
    _print_verdict(outcome.record, run_dir)
    leave(outcome.exit_code, before)


def leave(code: int, before: set[threading.Thread]) -> NoReturn:
    """Exit with ``code`` once the run is over, without waiting for threads an in-process agent
    left running (a sync ``execute`` past its timeout, a non-daemon thread it started; any
    non-daemon thread started during the run, ``before`` it are left alone): the interpreter
    would join them at exit and ``oasis run`` would never end."""
    import os

    stray = [t for t in threading.enumerate() if t not in before and t.is_alive() and not t.daemon]
    if stray and threading.current_thread() is threading.main_thread():
        typer.echo(
            f"warning: {len(stray)} thread(s) left running by the agent were not waited for",
            err=True,
        )
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    raise typer.Exit(code)


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM and SIGHUP (a CI job cancelled, a terminal closed, or an agent process of the
    same user signalling the runner) stop the run like Ctrl-C: environments are torn down
    and the exit is 3, instead of the process dying with every environment leaked."""
    import signal

    def as_ctrl_c(_signum: int, _frame: Any) -> None:
        signal.raise_signal(
            signal.SIGINT
        )  # the event loop's own Ctrl-C handling takes it from here

    wanted = [
        s
        for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None))
        if s is not None
    ]
    try:
        previous = {s: signal.signal(s, as_ctrl_c) for s in wanted}
    except ValueError:  # not the main thread (embedded use): leave the handlers alone
        yield
        return
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def add_custom(profile, paths: list[Path]):  # type: ignore[no-untyped-def]
    """The profile with custom extension scenarios added (03 §6), and their ids."""
    if not paths:
        return profile, []
    from ..adversarial.promote import load_custom, with_custom
    from .output import echo_findings

    scenarios, findings = load_custom(paths, profile)
    if findings.errors:
        echo_findings(findings)
        raise UnusableInput("the custom extension scenarios are invalid; fix the errors above")
    return with_custom(profile, scenarios), [s.id for s in scenarios]


def adversarial_config(
    profile,
    generator: str | None,
    probes: int | None,
    seed: int | None,  # type: ignore[no-untyped-def]
    archetypes: str | None,
    options: list[str],
    reserved: Path | None,
    key_env: str,
):
    """The adversarial phase as asked for on the command line, or None; checked before the run."""
    if generator is None:
        given = [
            flag
            for flag, value in (
                ("--probes", probes),
                ("--seed", seed),
                ("--archetypes", archetypes),
                ("--probe-option", options or None),
            )
            if value is not None
        ]
        if given:
            raise typer.BadParameter(
                f"{', '.join(given)} need(s) --adversarial GENERATOR", param_hint="--adversarial"
            )
        if reserved is None:
            return None
    from ..adversarial.phase import AdversarialConfig
    from ..spec.probe import GenerationRequest

    wanted = tuple(a.strip() for a in (archetypes or "").split(",") if a.strip())
    unknown = [a for a in wanted if profile.archetype(a) is None]
    if unknown:
        raise typer.BadParameter(
            f"not an archetype of the profile: {', '.join(unknown)}", param_hint="--archetypes"
        )
    request = GenerationRequest(
        archetypes=wanted, count=probes or 16, seed=seed or 0, options=_probe_options(options)
    )
    cfg = AdversarialConfig(generator_name=generator, request=request)
    if generator is not None:
        cfg.generator = load_probe_generator(generator, request.options)
    if reserved is not None:
        cfg.reserved = _reserved(reserved, key_env, profile)
    return cfg


def _probe_options(items: list[str]) -> dict[str, Any]:
    import yaml

    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise typer.BadParameter(f"'{item}': expected KEY=VALUE", param_hint="--probe-option")
        try:
            out[key.strip()] = safe_load(value) if value.strip() else ""
        except yaml.YAMLError:
            out[key.strip()] = value
    return out


def load_probe_generator(name: str, options: dict[str, Any]):  # type: ignore[no-untyped-def]
    """The named generator (ADV1's registry: built-ins and ``oasis_eval.probe_generators`` plugins)."""
    try:
        from ..adversarial.generators import load_generator
    except ImportError:
        raise UnusableInput("no probe generator is available in this installation") from None
    try:
        return load_generator(name, options)
    except (ValueError, LookupError) as exc:
        raise typer.BadParameter(str(exc), param_hint="--adversarial") from None


def _reserved(path: Path, key_env: str, profile):  # type: ignore[no-untyped-def]
    from ..adversarial.reserved import load_reserved, run_problems

    reserved = load_reserved(path, key_env)
    invalid, _ = run_problems(reserved, profile)
    if invalid:
        raise UnusableInput(
            f"{invalid} reserved scenario(s) do not validate against the profile (details "
            "withheld; run `oasis reserved check` on the plain files)",
            file=str(path),
        )
    return reserved


async def _evaluate(
    evaluate, profile, agent, provider, inputs, selection, say, adversarial=None, holder=None
):  # type: ignore[no-untyped-def]
    from ..contract import AgentFault
    from ..engine.configuration import ConfigurationError
    from ..engine.preflight import PreflightError

    try:
        outcome = await evaluate(
            profile, agent, provider, inputs, selection, say, adversarial=adversarial
        )
        if holder is None:
            return outcome
        holder.append(outcome)
        return None
    except PreflightError as exc:
        typer.echo(
            f"preflight failed: the run did not start and no verdict was written.\n{exc}", err=True
        )
        raise typer.Exit(EXIT_PREFLIGHT) from None
    except AgentFault as exc:
        typer.echo(
            terminal_safe(
                f"agent error before any scenario ran (no verdict written): {exc}", one_line=True
            ),
            err=True,
        )
        raise typer.Exit(EXIT_PREFLIGHT) from None
    except ConfigurationError as exc:
        typer.echo(
            terminal_safe(
                f"agent configuration rejected (no verdict written): {exc}", one_line=True
            ),
            err=True,
        )
        raise typer.Exit(EXIT_PREFLIGHT) from None
    finally:
        with anyio.CancelScope(shield=True):
            for name, closable in (("agent", agent), ("provider", provider)):
                await _close(name, closable)


async def _close(name: str, closable: Any) -> None:
    """Close an adapter; what its code raises is reported, never turned into an exit code."""
    from ..engine.containment import describe, passes_through

    try:
        await closable.aclose()
    except BaseException as exc:
        if passes_through(exc):
            raise
        typer.echo(
            terminal_safe(f"warning: closing the {name} failed: {describe(exc)}", one_line=True),
            err=True,
        )


def _load_for_run(path: Path):  # type: ignore[no-untyped-def]
    """Load a profile for running (validation/blocking.py): an error that changes which scenarios
    run or how they are judged stops the run (exit 2, every such error listed with file:line);
    other errors are defects, returned as warning lines that the run prints and records.
    Scenarios we cannot evaluate are not run, and the run says so (engine/runner.py)."""
    from ..profiles.loader import load_profile
    from ..validation.blocking import UnjudgeableProfile, gate_profile, split
    from .output import echo_findings

    loaded = load_profile(path)
    if loaded.profile is None:
        echo_findings(loaded.findings)
        raise UnusableInput("the profile could not be loaded; fix the errors above", file=str(path))
    gate = split(
        loaded.findings
    )  # the loader's own blocking errors first: validation would only cascade
    if not gate.blocking:
        gate = gate_profile(loaded.profile, loaded.findings)
    if gate.blocking:
        raise UnjudgeableProfile(gate.blocking, file=str(path))
    return loaded.profile, gate.defect_lines()


def _suite_ids(path: Path, profile) -> list[str]:  # type: ignore[no-untyped-def]
    from ..diagnostics import Findings
    from ..profiles.suite import check_suite, load_suite
    from .output import echo_findings

    findings = Findings()
    suite = load_suite(path, findings)
    if suite is not None:
        check_suite(suite, profile, findings)
    if suite is None or findings.errors:
        echo_findings(findings)
        raise UnusableInput("the suite is invalid", file=str(path))
    return list(suite.scenarios)


def _agent(spec: Any):  # type: ignore[no-untyped-def]
    from ..adapters.agents import agent_from_config

    if spec is None:
        spec = DEFAULT_AGENT
    try:
        return agent_from_config(_spec(spec))
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--agent") from None


def _provider(spec: Any, auth: dict[str, Any] | None = None):  # type: ignore[no-untyped-def]
    from ..adapters.providers import provider_from_config

    if spec is None:
        spec = DEFAULT_PROVIDER
    spec = _spec(spec)
    if auth and isinstance(spec, str) and spec.startswith(("http://", "https://")):
        spec = {"type": "http", "url": spec, **auth}
    try:
        return provider_from_config(spec)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--provider") from None


def _spec(spec: Any) -> Any:
    """``TYPE:REST`` strings from the command line become ``{type, ...}`` mappings."""
    if not isinstance(spec, str) or spec.startswith(("http://", "https://")):
        return spec
    kind, sep, rest = spec.partition(":")
    if not sep:
        return spec
    if kind == "cli":
        return {"type": "cli", "command": rest}
    if kind == "python":
        return {"type": "python", "object": rest}
    if kind == "mcp-stdio":
        return {"type": "mcp", "transport": "stdio", "command": rest}
    if kind == "mcp-http":
        return {"type": "mcp", "transport": "http", "url": rest}
    return {"type": kind, "name": rest}


def _print_verdict(record, run_dir: Path) -> None:  # type: ignore[no-untyped-def]
    verdict = record.verdict
    line = f"verdict: safety {verdict.safety.value}"
    if verdict.capability is not None:
        dims = verdict.capability.core_dimensions.model_dump()
        line += f" | capability (tier {verdict.capability.tier}): " + ", ".join(
            f"{k} {v:.2f}" for k, v in dims.items() if v is not None
        )
    d = verdict.safety_details
    line += f" | safety {d.passed} passed, {d.failed} failed, {d.provider_failure} provider failure, {d.not_applicable} N/A"
    typer.echo(line)
    if verdict.metadata.aborted:
        # agent text never drives the tty nor adds a line (a fake "verdict:" line)
        typer.echo(terminal_safe(f"ABORTED: {verdict.metadata.abort_reason}", one_line=True))
    if record.incomplete_reasons:
        typer.echo(
            terminal_safe("INCOMPLETE: " + "; ".join(record.incomplete_reasons), one_line=True)
        )
    typer.echo(f"run directory: {run_dir}")


def conformance_cmd(
    provider_url: str = typer.Option(
        ..., "--provider-url", help="Provider base URL (petri-compatible /v1 API)."
    ),
    profile: Path | None = typer.Option(
        None, "--profile", "-p", help="Profile (default: the built-in example)."
    ),
    tier: int = typer.Option(1, "--tier", min=1, max=3),
) -> None:
    """Preflight only (08 §3.8): ask the provider and check it against the profile's contract."""
    from ..engine.preflight import PreflightError, PreflightNeeds, run_preflight
    from ..examples import EXAMPLE_PROFILE_DIR

    loaded, _ = _load_for_run(profile or EXAMPLE_PROFILE_DIR)
    provider_obj = _provider(provider_url)
    needs = PreflightNeeds.from_scenarios(loaded.scenarios)  # the same check `oasis run` makes

    async def go():  # type: ignore[no-untyped-def]
        try:
            return await run_preflight(provider_obj, loaded, tier, needs)
        finally:
            await provider_obj.aclose()

    try:
        summary = anyio.run(go)
    except PreflightError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(EXIT_PREFLIGHT) from None
    for check in summary.checks:
        mark = "ok " if check.satisfied else "GAP"
        typer.echo(
            f"{mark} {check.requirement}: declared {check.declared}, expected {check.expected}"
        )
    typer.echo(
        f"provider {summary.provider} {summary.provider_version} satisfies {summary.profile} {summary.profile_version}"
    )
