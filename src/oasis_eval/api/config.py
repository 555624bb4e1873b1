"""What a run is made of, from the strings of the command line or from objects.

One place turns ``--config`` files, ``builtin:careful``, ``sim-k8s``, ``http://…`` and the
other run options into a profile, an agent, a provider and the run's inputs, for
``oasis run`` and :func:`oasis_eval.evaluate` alike. Nothing here prints: bad values are
:class:`~.errors.OptionError` (the CLI's usage errors) or
:class:`~oasis_eval.diagnostics.UnusableInput` with the findings attached.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from .. import secrecy
from ..adversarial.reserved import ReservedSet, load_reserved, run_problems
from ..contract import Agent, Provider
from ..diagnostics import Finding, Findings, UnjudgeableProfile, UnusableInput
from ..evaluation.readiness import evaluator_gaps, not_evaluable_here, reuse_notes
from ..profiles.loader import load_profile
from ..profiles.suite import check_suite, load_suite
from ..spec.probe import GenerationRequest, ProbeGenerator
from ..spec.profile import Profile
from ..spec.yaml_io import load_single, safe_load
from ..validation.blocking import gate_profile, split
from .config_compat import Notes, agent_section, environment_provider, output_notes
from .errors import InvalidInput, OptionError
from .inputs import check_run_config

if TYPE_CHECKING:
    from ..adversarial.phase import AdversarialConfig

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
    #: unknown keys (inputs.check_run_config): printed and recorded in the run
    warnings: list[str] = field(default_factory=list)
    #: environment.token / token_env / token_file: the served provider's runner token
    provider_auth: dict[str, Any] = field(default_factory=dict)
    #: evaluation.timeout (oasisctl): the agent's execute timeout (config_compat.with_timeout)
    agent_timeout: Any = None
    #: evaluation.scenarios (oasisctl): only these scenario ids run (config_compat.select_ids)
    scenarios: list[str] | None = None
    #: output.path / output.evidence_dir (oasisctl): copies of the verdict and the evidence
    verdict_copy: str | None = None
    evidence_copy: str | None = None
    #: where the warnings about this file's keys are collected (file:line of each key)
    notes: Notes = field(default_factory=lambda: Notes(None, None))


_EVALUATION_KEYS = {
    "tier": "claimed_tier",
    "evaluator": "evaluator",
    "parallel": "parallel",
    "agent_retries": "agent_retries",
    "plugin_timeout": "plugin_timeout",
    "principal": "agent_principal",
    "lab_framework": "lab_framework",
    "context_tags": "context_tags",
    "environment_characteristics": "environment_characteristics",
    "tolerance_overrides": "tolerance_overrides",
    "fail_on_vacuous": "fail_on_vacuous",
    "allow_agent_faults": "allow_agent_faults",
    "allow_vacuous": "allow_vacuous",
    "min_capability": "min_capability",
}


def load_run_config(path: Path) -> RunConfig:
    """Read and check a run config file (``oasis run --config``); relative paths in it are
    relative to the file."""
    doc = load_single(path)
    if not isinstance(doc.data, dict):
        raise UnusableInput("a run config must be a mapping", file=str(path), line=doc.line)
    # every value below has the shape RUN_CONFIG_SCHEMA says (check_run_config raised otherwise)
    notes = Notes(doc, path)
    cfg = RunConfig(warnings=check_run_config(doc, path), notes=notes)
    data = doc.data
    profile = data.get("profile")
    cfg.profile = profile["path"] if isinstance(profile, dict) else profile
    cfg.agent = agent_section(data.get("agent"), notes)
    env = data.get("environment") or {}
    if isinstance(env, dict):
        cfg.provider = environment_provider(env, notes)
        cfg.provider_auth = {k: env[k] for k in ("token", "token_env", "token_file") if env.get(k)}
        if env.get("tier") is not None:
            cfg.inputs["claimed_tier"] = env["tier"]
    elif isinstance(env, str):
        cfg.provider = env
    evaluation = data.get("evaluation") or {}
    for key, target in _EVALUATION_KEYS.items():
        if key in evaluation:
            cfg.inputs[target] = evaluation[key]
    if isinstance(cfg.inputs.get("min_capability"), (int, float)):  # a bare score: overall
        cfg.inputs["min_capability"] = {"overall": cfg.inputs["min_capability"]}
    filters = evaluation.get("filters") or []
    cfg.filters = [filters] if isinstance(filters, str) else filters
    cfg.safety_only = evaluation.get("safety_only", False)
    cfg.agent_timeout = evaluation.get("timeout")
    scenarios = evaluation.get("scenarios")
    if scenarios is not None:
        cfg.scenarios = [scenarios] if isinstance(scenarios, str) else list(scenarios)
    cfg.suite = data.get("suite")
    output = data.get("output") or {}
    # the run directory, as --out (issue 18: one meaning for both)
    cfg.output = output.get("dir") if isinstance(output, dict) else output
    if isinstance(output, dict):
        cfg.verdict_copy, cfg.evidence_copy = output.get("path"), output.get("evidence_dir")
    output_notes(output, notes)
    # relative paths in a run config are relative to the config file, not the working directory
    base = path.parent
    for attr in ("profile", "suite", "output", "verdict_copy", "evidence_copy"):
        value = getattr(cfg, attr)
        if isinstance(value, str) and value and not Path(value).is_absolute():
            setattr(cfg, attr, str(base / value))
    token_file = cfg.provider_auth.get("token_file")
    if isinstance(token_file, str) and not Path(token_file).is_absolute():
        cfg.provider_auth["token_file"] = str(base / token_file)
    return cfg


def tolerances(values: Sequence[str] | Mapping[str, object]) -> dict[str, float]:
    """``SCENARIO_ID=PERCENT`` items (``--tolerance``), or a ``{scenario id: percent}`` mapping
    (the API), as a mapping; a value outside 0..100 (or not a number) is an OptionError."""
    if isinstance(values, Mapping):
        return {
            str(k): _percent(v, f"{k!r}: {v!r}: expected a percentage") for k, v in values.items()
        }
    out = {}
    for item in values:
        scenario_id, sep, number = item.partition("=")
        problem = f"'{item}': expected SCENARIO_ID=PERCENT"
        out[scenario_id] = _percent(number if sep else None, problem)
    return out


def _percent(value: object, problem: str) -> float:
    """``value`` as a percentage with 0 <= PERCENT <= 100 (NaN and booleans are not)."""
    number = -1.0
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        with contextlib.suppress(ValueError):
            number = float(value)
    if not 0 <= number <= 100:
        raise OptionError(f"{problem} with 0 <= PERCENT <= 100", "--tolerance")
    return number


# ---- profile, custom scenarios, suite -------------------------------------------------------


def load_for_run(path: Path) -> tuple[Profile, list[str]]:
    """Load a profile for running (validation/blocking.py): an error that changes which scenarios
    run or how they are judged stops the run (every such error listed with file:line); other
    errors are defects, returned as warning lines that the run prints and records. Scenarios
    we cannot evaluate are not run, and the run says so (engine/selection.py)."""
    loaded = load_profile(path)
    if loaded.profile is None:
        raise InvalidInput(
            "the profile could not be loaded; fix the errors above",
            loaded.findings,
            file=str(path),
        )
    # the loader's own blocking errors first: validation would only cascade
    gate = split(loaded.findings)
    if not gate.blocking:
        gate = gate_profile(loaded.profile, loaded.findings)
    if gate.blocking:
        raise UnjudgeableProfile(gate.blocking, file=str(path))
    _require_evaluators(loaded.profile, str(path))
    return loaded.profile, [*gate.defect_lines(), *reuse_notes(loaded.profile)]


def gate_loaded(profile: Profile) -> list[str]:
    """The defect lines of a profile given as an object; blocking errors raise, as for a path."""
    gate = gate_profile(profile)
    if gate.blocking:
        raise UnjudgeableProfile(gate.blocking)
    _require_evaluators(profile)
    return [*gate.defect_lines(), *reuse_notes(profile)]


class NotEvaluableHere(UnjudgeableProfile):
    """The profile's behaviors lack an evaluator in this installation (issue 29 item 3):
    not a profile defect, but nothing can run (exit 2); the message names the behaviors and
    the plugin guide."""

    def __init__(self, findings: list[Finding], file: str | None = None):
        self.findings = findings
        UnusableInput.__init__(self, not_evaluable_here(findings), file=file)


def _require_evaluators(profile: Profile, file: str | None = None) -> None:
    """Preflight (issue 14): a behavior the profile's scenarios assert with no evaluator in
    its namespaces stops the run before any scenario, naming how to add one."""
    gaps = evaluator_gaps(profile)
    if gaps.errors:  # exit 2 before any scenario, naming the behaviors and the plugin guide
        raise NotEvaluableHere(list(gaps.errors), file=file)


def add_custom(profile: Profile, paths: Sequence[Path]) -> tuple[Profile, list[str]]:
    """The profile with custom extension scenarios added (03 §6), and their ids."""
    if not paths:
        return profile, []
    # lazy: adversarial.promote pulls the generators and httpx (~90 ms)
    from ..adversarial.promote import load_custom, with_custom

    scenarios, findings = load_custom(list(paths), profile)
    if findings.errors:
        raise InvalidInput(
            "the custom extension scenarios are invalid; fix the errors above", findings
        )
    return with_custom(profile, scenarios), [s.id for s in scenarios]


def suite_ids(path: Path, profile: Profile) -> list[str]:
    """The ordered scenario ids of a suite file (02 §3), checked against ``profile``."""
    findings = Findings()
    suite = load_suite(path, findings)
    if suite is not None:
        check_suite(suite, profile, findings)
    if suite is None or findings.errors:
        raise InvalidInput("the suite is invalid", findings, file=str(path))
    return list(suite.scenarios)


# ---- agent and provider ---------------------------------------------------------------------


def withhold_secrets(
    reserved_key_env: str, provider_token: str | None, probe_options: Any = None
) -> None:
    """Take the harness's secrets before any agent is built (issue 25; oasis_eval.secrecy):
    the run keys, the reserved-bundle keys and the provider token leave ``os.environ`` and
    ``/proc/self/environ``. With a probe generator (``probe_options`` not None) its model's
    key variable is declared one (it stays for the generator), so no ``--agent-env`` passes it."""
    from ..engine.manifest import HMAC_ENV, SIGNING_ENV

    secrecy.read_group((HMAC_ENV, SIGNING_ENV))
    secrecy.take([*secrecy.SECRET_NAMES, reserved_key_env])
    if probe_options is not None:
        # lazy: the generators pull httpx (~85 ms)
        from ..adversarial.generators.llm_client import DEFAULT_KEY_ENV

        probe_key = key_values(probe_options, "--probe-option").get("api_key_env")
        secrecy.declare([DEFAULT_KEY_ENV, str(probe_key or DEFAULT_KEY_ENV)])
    if provider_token:
        secrecy.hide_secret(provider_token)


def with_process_options(spec: Any, pass_env: Sequence[str] = (), user: str | None = None) -> Any:
    """``spec`` with ``--agent-env NAME`` (added to its ``pass_env``) and ``--agent-user USER``;
    both are for agents in a subprocess (``cli:``, ``mcp-stdio:``) only."""
    if not pass_env and not user:
        return spec
    base = spec_of(DEFAULT_AGENT if spec is None else spec)
    subprocess_agent = isinstance(base, Mapping) and (
        base.get("type") == "cli"
        or (base.get("type") == "mcp" and base.get("transport", "stdio") == "stdio")
    )
    if not subprocess_agent:
        option = "--agent-env" if pass_env else "--agent-user"
        raise OptionError(
            f"applies to an agent in a subprocess (cli:, mcp-stdio:); the agent is {spec!r}",
            option,
        )
    out = dict(base)
    if pass_env:
        given = out.get("pass_env") or []
        out["pass_env"] = [*(given if isinstance(given, list) else [given]), *pass_env]
    if user:
        out["user"] = user
    return out


def spec_of(spec: Any) -> Any:
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


def with_agent_options(spec: Any, items: Sequence[str] | Mapping[str, Any] = ()) -> Any:
    """``spec`` as a ``{type, ...}`` mapping with ``--agent-option KEY=VALUE`` items merged in
    (values read as YAML; a given option wins over the same key of the spec)."""
    options = key_values(items, "--agent-option", text_keys=IDENTITY_TEXT_KEYS)
    if not options:
        return spec
    if spec is not None and not isinstance(spec, str | Mapping):
        raise OptionError(
            "--agent-option applies to an agent given as TYPE:SPEC, a URL or a mapping",
            "--agent-option",
        )
    base = spec_of(DEFAULT_AGENT if spec is None else spec)
    if isinstance(base, str):  # an http(s) URL
        base = {"type": "http", "url": base}
    return {**base, **options}


def make_agent(spec: Any, options: Sequence[str] | Mapping[str, Any] = ()) -> Agent:
    """An agent from a CLI string, a run-config ``agent:`` mapping, or an object: one with
    ``identify()`` and ``execute(task)`` (sync or async) runs in process like ``python:``.
    ``options``: ``--agent-option`` items (see :func:`with_agent_options`)."""
    spec = with_agent_options(spec, options)
    # lazy: the agent adapters pull httpx (~75 ms) into `import oasis_eval`
    from ..adapters.agents import agent_from_config
    from ..adapters.agents.python import PythonAgent

    if spec is None:
        spec = DEFAULT_AGENT
    if not isinstance(spec, str | Mapping):
        if isinstance(spec, PythonAgent):
            return spec
        try:
            return PythonAgent(spec)
        except TypeError as exc:
            raise OptionError(str(exc), "--agent") from None
    try:
        return agent_from_config(spec_of(spec))
    except ValueError as exc:
        raise OptionError(str(exc), "--agent") from None


def make_provider(spec: Any, auth: Mapping[str, Any] | None = None) -> Provider:
    """A provider from a CLI string, a ``{type: ...}`` mapping, or a
    :class:`~oasis_eval.contract.Provider` object (used as it is)."""
    from ..adapters.providers import provider_from_config  # lazy: pulls httpx (~75 ms)

    if spec is None:
        spec = DEFAULT_PROVIDER
    if not isinstance(spec, str | Mapping):
        missing = [m for m in ("conformance", "provision", "teardown") if not hasattr(spec, m)]
        if missing:
            raise OptionError(
                f"{spec!r} is not a provider (no {', '.join(missing)}; see oasis_eval.Provider)",
                "--provider",
            )
        provider: Provider = spec
        return provider
    spec = spec_of(spec)
    if auth and isinstance(spec, str) and spec.startswith(("http://", "https://")):
        spec = {"type": "http", "url": spec, **auth}
    try:
        built: Provider = provider_from_config(spec)
    except ValueError as exc:
        raise OptionError(str(exc), "--provider") from None
    return built


# ---- the adversarial phase (07) -------------------------------------------------------------


@dataclass
class AdversarialOptions:
    """``--adversarial`` and the options that go with it, as given."""

    generator: str | None = None
    probes: int | None = None
    seed: int | None = None
    archetypes: str | Sequence[str] | None = None
    options: Sequence[str] | Mapping[str, Any] = ()
    reserved: Path | None = None
    key_env: str = "OASIS_RESERVED_KEY"


def adversarial_config(profile: Profile, asked: AdversarialOptions) -> AdversarialConfig | None:
    """The adversarial phase as asked for, or None; checked before the run."""
    if asked.generator is None:
        given = [
            flag
            for flag, value in (
                ("--probes", asked.probes),
                ("--seed", asked.seed),
                ("--archetypes", asked.archetypes),
                ("--probe-option", asked.options or None),
            )
            if value is not None
        ]
        if given:
            raise OptionError(
                f"{', '.join(given)} need(s) --adversarial GENERATOR", "--adversarial"
            )
        if asked.reserved is None:
            return None
    # lazy: adversarial.phase pulls the generators and httpx (~95 ms)
    from ..adversarial.phase import AdversarialConfig

    names = asked.archetypes or ""
    listed = names.split(",") if isinstance(names, str) else list(names)
    wanted = tuple(a.strip() for a in listed if a.strip())
    unknown = [a for a in wanted if profile.archetype(a) is None]
    if unknown:
        raise OptionError(f"not an archetype of the profile: {', '.join(unknown)}", "--archetypes")
    request = GenerationRequest(
        archetypes=wanted,
        count=asked.probes or 16,
        seed=asked.seed or 0,
        options=probe_options(asked.options),
    )
    cfg = AdversarialConfig(generator_name=asked.generator, request=request)
    if asked.generator is not None:
        cfg.generator = load_probe_generator(asked.generator, request.options)
    if asked.reserved is not None:
        cfg.reserved = _reserved(asked.reserved, asked.key_env, profile)
    return cfg


def probe_options(items: Sequence[str] | Mapping[str, Any]) -> dict[str, Any]:
    """``KEY=VALUE`` items (``--probe-option``; values read as YAML), or a mapping as it is."""
    return key_values(items, "--probe-option")


#: ``--agent-option`` keys whose values are text as given, never YAML (``version=1.10``)
IDENTITY_TEXT_KEYS = frozenset({"name", "version", "description"})


def key_values(
    items: Sequence[str] | Mapping[str, Any], option: str, text_keys: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """``KEY=VALUE`` items of ``option`` (values read as YAML, but for ``text_keys``), or a
    mapping as it is."""
    if isinstance(items, Mapping):
        return dict(items)
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"'{item}': expected KEY=VALUE", option)
        if key.strip() in text_keys:
            out[key.strip()] = value
            continue
        try:
            out[key.strip()] = safe_load(value) if value.strip() else ""
        except yaml.YAMLError:
            out[key.strip()] = value
    return out


def load_probe_generator(name: str, options: dict[str, Any]) -> ProbeGenerator:
    """The named generator (ADV1's registry: built-ins and ``oasis_eval.probe_generators`` plugins)."""
    try:
        # lazy: the generators pull httpx (~85 ms); an ImportError is reported below
        from ..adversarial.generators import load_generator
    except ImportError:
        raise UnusableInput("no probe generator is available in this installation") from None
    try:
        return load_generator(name, options)
    except (ValueError, LookupError) as exc:
        raise OptionError(str(exc), "--adversarial") from None


def _reserved(path: Path, key_env: str, profile: Profile) -> ReservedSet:
    reserved = load_reserved(path, key_env)
    invalid, _ = run_problems(reserved, profile)
    if invalid:
        raise UnusableInput(
            f"{invalid} reserved scenario(s) do not validate against the profile (details "
            "withheld; run `oasis reserved check` on the plain files)",
            file=str(path),
        )
    return reserved
