"""``oasis run`` inputs checked before anything runs: the run config schema, output paths.

A bad value is found before the agent or provider is contacted, named by file, line and
key with what was expected (exit 2), never an internal error at the end of a run (issue 11
item 7). The run config keys are oasisctl's (profile, agent, environment, evaluation,
output) plus ours (suite); an unknown key is a warning, and oasisctl's own example config
loads as it is (its keys are translated or reported by :mod:`.config_compat`). :data:`RUN_CONFIG_SCHEMA` is the JSON Schema (draft 2020-12) they are checked
against; the agent and provider sections are checked in depth by their adapters.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import jsonschema

from ..diagnostics import Finding, Findings, UnusableInput
from ..engine.rundir import STATE
from ..spec.yaml_io import YamlDocument, dotted

_TEXT = {"type": "string", "minLength": 1}
_TEXTS = {"type": "array", "items": _TEXT}
_DURATION = {
    "description": "seconds, or a duration such as 90s, 5m, 1h30m",
    "oneOf": [
        {"type": "number", "exclusiveMinimum": 0},
        {"type": "string", "pattern": r"^(\d+(\.\d+)?(ms|h|m|s))+$"},
    ],
}
_TIER = {
    "type": "integer",
    "minimum": 1,
    "maximum": 3,
    "description": "a complexity tier: 1, 2 or 3",
}
_PROVIDER_MAP = {
    "type": "object",
    "description": "a provider mapping with a 'type' (http, python, sim-k8s or a plugin)",
    "properties": {
        "type": _TEXT,
        "url": {"type": "string", "pattern": "^https?://", "description": "an http(s) URL"},
        "token": _TEXT,
        "token_env": _TEXT,
        "timeout": _DURATION,
        "retries": {"type": "integer", "minimum": 0, "description": "a whole number >= 0"},
        "retry_cap": {"type": "number", "minimum": 0, "description": "seconds >= 0"},
        "retry_base_wait": {"type": "number", "minimum": 0, "description": "seconds >= 0"},
        "teardown_polls": {"type": "integer", "minimum": 1, "description": "a whole number >= 1"},
        "teardown_poll_cap": {"type": "number", "minimum": 0, "description": "seconds >= 0"},
        "object": {
            "type": "string",
            "pattern": "^[\\w.]+:[\\w.]+$",
            "description": "package.module:attr",
        },
        "options": {"type": "object"},
        "threaded": {"type": "boolean"},
    },
}

#: the run config (``oasis run --config``); see docs/running.md, "Options and the run config"
RUN_CONFIG_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "oasis run --config",
    "type": "object",
    "description": "a mapping with the keys profile, agent, environment, evaluation, suite, output",
    "properties": {
        "profile": {
            "description": "a profile path, or {path: PATH}",
            "oneOf": [
                _TEXT,
                {"type": "object", "properties": {"path": _TEXT}, "required": ["path"]},
            ],
        },
        "agent": {
            "description": "an http(s) URL, TYPE:SPEC, or an agent mapping with a 'type'",
            "oneOf": [
                _TEXT,
                {
                    "type": "object",
                    "properties": {
                        "type": _TEXT,
                        "timeout": _DURATION,
                        "timeout_seconds": _DURATION,
                    },
                },
            ],
        },
        "environment": {
            "description": "a provider URL or name, or {provider, tier}",
            "oneOf": [
                _TEXT,
                {
                    "type": "object",
                    "properties": {
                        "provider": {
                            "description": "a provider URL or name, or a provider mapping",
                            "oneOf": [_TEXT, _PROVIDER_MAP],
                        },
                        "provider_url": _TEXT,
                        "url": _TEXT,
                        "tier": _TIER,
                        "token": _TEXT,
                        "token_env": _TEXT,
                        "token_file": _TEXT,
                    },
                },
            ],
        },
        "evaluation": {
            "type": "object",
            "description": "a mapping of evaluation settings",
            "properties": {
                "tier": _TIER,
                "evaluator": _TEXT,
                "parallel": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "a whole number of scenarios >= 1",
                },
                "agent_retries": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "a whole number >= 0: faulted attempts with no agent call "
                    "run again in a fresh environment (default 1)",
                },
                "plugin_timeout": {
                    "type": "number",
                    "exclusiveMinimum": 0,
                    "description": "seconds > 0 one behavior evaluator call may run "
                    "(default 120; past it the run ends as an internal error)",
                },
                "principal": _TEXT,
                "lab_framework": _TEXT,
                "context_tags": _TEXTS,
                "environment_characteristics": _TEXTS,
                "tolerance_overrides": {
                    "type": "object",
                    "description": "SCENARIO_ID: PERCENT (0-100)",
                    "additionalProperties": {
                        "type": "number",
                        "minimum": 0,
                        "maximum": 100,
                        "description": "a percentage from 0 to 100",
                    },
                },
                "filters": {
                    "description": "a glob or a list of globs over scenario id, category or archetype",
                    "oneOf": [_TEXT, _TEXTS],
                },
                "safety_only": {"type": "boolean", "description": "true or false"},
                "fail_on_vacuous": {
                    "type": "boolean",
                    "description": "true: a vacuous safety PASS fails the gate (exit 6)",
                },
                "allow_agent_faults": {
                    "type": "boolean",
                    "description": "true: a safety scenario that ended in an agent fault "
                    "does not fail the gate",
                },
                "allow_vacuous": {
                    "type": "boolean",
                    "description": "true: a run whose every safety PASS is vacuous does not "
                    "fail the gate",
                },
                "min_capability": {
                    "description": "a score (overall) or {DIMENSION|overall: SCORE}, 0 to 1",
                    "oneOf": [
                        {"type": "number", "minimum": 0, "maximum": 1},
                        {
                            "type": "object",
                            "additionalProperties": {"type": "number", "minimum": 0, "maximum": 1},
                        },
                    ],
                },
                "timeout": {
                    **_DURATION,
                    "description": "the agent's execute timeout: seconds, or a duration such as 5m",
                },
                "scenarios": {
                    "description": "a scenario id or a list of them (oasisctl): run only these",
                    "oneOf": [_TEXT, _TEXTS],
                },
            },
        },
        "suite": {**_TEXT, "description": "a suite file path"},
        "output": {
            "description": "a directory, or {dir: DIR} (oasisctl's format/path/evidence_dir warn)",
            "oneOf": [
                _TEXT,
                {
                    "type": "object",
                    "properties": {
                        "dir": _TEXT,
                        "format": {"enum": ["yaml", "json"], "description": "yaml or json"},
                        "path": _TEXT,
                        "evidence_dir": _TEXT,
                    },
                },
            ],
        },
    },
}

#: mappings whose keys belong to someone else (adapters, plugins): never warned about
_OPEN = {("agent",), ("environment", "provider", "options"), ("evaluation", "tolerance_overrides")}


def check_run_config(doc: YamlDocument, path: Path) -> list[str]:
    """Validate a run config document; :class:`UnusableInput` listing every bad value, else the
    warnings (unknown keys)."""
    validator = jsonschema.Draft202012Validator(RUN_CONFIG_SCHEMA)
    errors = Findings()
    found = [leaf for error in validator.iter_errors(doc.data) for leaf in _leaves(error)]
    for error in sorted(found, key=lambda e: [str(p) for p in e.absolute_path]):
        where = tuple(error.absolute_path)
        errors.error(
            "run-config",
            _message(error),
            file=str(path),
            line=_line(doc, where),
            field=dotted(where) or None,
            expected=_expected(error),
        )
    if errors:
        lines = "\n".join(f"  {f.render()}" for f in errors)
        raise UnusableInput(
            f"the run config is invalid ({len(errors)} error(s)); nothing was run:\n{lines}",
            file=str(path),
        )
    warnings: list[Finding] = []
    _unknown(doc.data, RUN_CONFIG_SCHEMA, (), doc, path, warnings)
    return [f.render() for f in warnings]


def _leaves(error: jsonschema.ValidationError) -> list[jsonschema.ValidationError]:
    """A ``oneOf`` failure is reported inside the one branch of the value's type (``retries:
    lots`` rather than "the environment is not valid"), when exactly one branch fits."""
    if error.validator not in ("oneOf", "anyOf") or not error.context:
        return [error]
    branches: dict[Any, list[jsonschema.ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    fitting = [
        subs
        for subs in branches.values()
        if not any(s.validator == "type" and not s.relative_path for s in subs)
    ]
    if len(fitting) != 1:
        return [error]
    return [leaf for sub in fitting[0] for leaf in _leaves(sub)]


def _message(error: jsonschema.ValidationError) -> str:
    shown = repr(error.instance)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    if error.validator in ("oneOf", "anyOf", "type", "pattern", "minLength"):
        return f"got {shown}"
    if error.validator == "required":
        return error.message
    return f"got {shown}: {error.message}"


def _expected(error: jsonschema.ValidationError) -> str | None:
    """The nearest ``description`` on the schema path of the error (a property's meaning)."""
    node: Any = RUN_CONFIG_SCHEMA
    found = node.get("description")
    for part in error.absolute_schema_path:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            break
        if isinstance(node, dict) and "description" in node:
            found = node["description"]
    if error.validator == "type" and not isinstance(error.validator_value, list):
        kind = str(error.validator_value)
        return ("an " if kind[0] in "aeiou" else "a ") + kind + (f": {found}" if found else "")
    return found


def _line(doc: YamlDocument, where: tuple[Any, ...]) -> int | None:
    for cut in range(len(where), -1, -1):
        if where[:cut] in doc.locations:
            return doc.locations[where[:cut]]
    return doc.line


def _unknown(
    data: Any,
    schema: dict[str, Any],
    where: tuple[Any, ...],
    doc: YamlDocument,
    path: Path,
    out: list[Finding],
) -> None:
    if not isinstance(data, dict) or where in _OPEN:
        return
    schema = next((s for s in schema.get("oneOf", []) if s.get("type") == "object"), schema)
    known = schema.get("properties")
    if known is None:
        return
    for key in data:
        if key in known:
            _unknown(data[key], known[key], (*where, key), doc, path, out)
            continue
        out.append(
            Finding(
                severity="warning",
                code="unknown-run-config-key",
                file=str(path),
                line=_line(doc, (*where, key)),
                field=dotted((*where, key)),
                message=f"unknown key '{key}' is ignored",
                expected="one of: " + ", ".join(known),
            )
        )


# ---- output paths ----------------------------------------------------------------------------

RUN_MARKERS = ("run.json", "verdict.yaml")


def _holds_runs_hint(path: Path) -> str:
    """A hint for a directory that holds run directories: ``--out`` and ``output.dir`` once
    differed (``output.dir`` was their parent); both now name the run directory itself."""
    try:
        children = sorted(c for c in path.iterdir() if c.is_dir())[:50]
    except OSError:
        return ""
    if not any((c / m).is_file() for c in children for m in RUN_MARKERS):
        return ""
    return (
        "; it holds run directories: --out and the run config's output.dir name the run "
        "directory itself, not the directory runs are created under (give a new directory "
        "such as DIR/my-run, or omit both for ./oasis-runs/<timestamp>-<run id>)"
    )


def check_output(out: Path | None, base: Path, profile_path: Path | None = None) -> None:
    """The run directory (``--out``) or the directory runs are created under can be written,
    and ``--out`` lies outside the profile directory: checked before the run, so a bad path
    never costs a whole run (:class:`UnusableInput`)."""
    if out is not None:
        if profile_path is not None:
            _outside_profile(out, profile_path)
        if out.exists():
            if not out.is_dir():
                raise UnusableInput(
                    "--out exists and is not a directory (expected a new or empty "
                    "directory, or an earlier run directory)",
                    file=str(out),
                )
            if (out / STATE).is_file() and not (out / RUN_MARKERS[0]).is_file():
                raise UnusableInput(
                    "--out holds an unfinished run (interrupted, or still running; "
                    "engine/journal.py): carry on with an interrupted one with `oasis run "
                    f"--resume {out}` (it records its options), or remove it",
                    file=str(out),
                )
            if any(out.iterdir()) and not any((out / m).is_file() for m in RUN_MARKERS):
                raise UnusableInput(
                    "--out is a non-empty directory that is not a run directory; "
                    "refusing to mix a run into it (expected a new or empty directory)"
                    + _holds_runs_hint(out),
                    file=str(out),
                )
        _writable(out, "--out")
    else:
        if base.exists() and not base.is_dir():
            raise UnusableInput("the output base exists and is not a directory", file=str(base))
        _writable(base, "output directory")


def _outside_profile(out: Path, profile_path: Path) -> None:
    """``--out`` never lies inside the profile directory: the run's YAML files (verdict, failed
    probes) would be read back as scenarios by the next load of a broadly globbing profile."""
    root = (profile_path if profile_path.is_dir() else profile_path.parent).resolve()
    target = out.resolve()
    if target == root or target.is_relative_to(root):
        raise UnusableInput(
            f"--out lies inside the profile directory {root}: the run's files would be "
            "read back as part of the profile (expected a directory outside it)",
            file=str(out),
        )


def _writable(path: Path, what: str) -> None:
    probe = path
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        raise UnusableInput(f"{what}: '{probe}' is a file, not a directory", file=str(path))
    if not os.access(probe, os.W_OK | os.X_OK):
        raise UnusableInput(f"{what}: '{probe}' is not writable", file=str(path))


def check_judging_inputs(inputs: Any, profile: Any) -> None:
    """Inputs that change how scenarios are judged, checked against the profile before the run:
    an empty principal would attribute no audit entry to the agent, a tolerance override for
    an id the profile lacks (a typo) would silently not apply (:class:`UnusableInput`)."""
    principal = str(inputs.agent_principal or "")
    if not principal.strip() or not principal.isprintable():
        raise UnusableInput(
            f"--principal / evaluation.principal: {principal!r} is empty or holds control "
            "characters (expected the agent's principal in the provider's audit log, "
            "e.g. 'oasis-agent')"
        )
    odd = sorted(
        sid for sid, value in inputs.tolerance_overrides.items() if not math.isfinite(value)
    )
    if odd:  # NaN passes every range check of the schema, and compares false with everything
        raise UnusableInput(
            f"--tolerance / evaluation.tolerance_overrides: {', '.join(map(repr, odd))}: not a "
            "number (expected a percentage from 0 to 100)"
        )
    known = {s.id for s in profile.scenarios}
    unknown = sorted(set(inputs.tolerance_overrides) - known)
    if unknown:
        raise UnusableInput(
            f"--tolerance / evaluation.tolerance_overrides: no scenario {', '.join(map(repr, unknown))} "
            f"in profile {profile.metadata.identifier} (expected a scenario id of the profile)"
        )


def check_patterns(patterns: list[str]) -> None:
    """``--filter`` globs: an empty pattern is a usage error (matching nothing is the engine's)."""
    for pattern in patterns:
        if not pattern.strip():
            raise UnusableInput(
                "--filter: an empty pattern (expected a glob over scenario id, "
                "category or archetype, e.g. 'k8s.safety.*')"
            )
