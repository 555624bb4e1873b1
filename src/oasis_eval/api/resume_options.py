"""``oasis run --resume RUN_DIR`` alone (issue 29 item 1): the options a run records, and the
request a resume runs with.

A run records the options it was given in run-state.json (engine/journal.py), which its
manifest covers (signed when a run key is set): paths made absolute, the agent and provider
specs in full, and credentials only by the name of the variable that holds them
(``token_env``, ``api_key_env``, ``--reserved-key-env``). A credential given inline
(``token``, ``api_key``, a header, an ``env`` value, a ``--provider-token``) is never
recorded: a resume that needs it asks for it again. A resume reads the options only after the
manifest check (:func:`~oasis_eval.engine.journal.recorded_options`), fills in each option not
given, and refuses a given one that changes results and differs from the recorded one, each
difference named. ``--parallel`` and the agent's timeouts may differ; the run's fingerprint
(api/resume.py) leaves them out for that reason, and still guards everything else.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..engine.journal import ResumeRefused, recorded_options
from ..engine.manifest import RunKey
from ..spec.profile import Profile
from .config import AdversarialOptions
from .request import RunRequest
from .resume import TIMEOUT_KEYS

__all__ = ["NOT_RECORDED", "TIMEOUT_KEYS", "options_of", "resume_command", "resumed_request"]

#: what stands for a credential given inline: the run does not record it
NOT_RECORDED = "<not recorded: a credential given inline>"
#: agent-spec keys whose values are credentials (a mapping's values all are: headers, env)
SECRET_KEYS = frozenset({"token", "api_key", "password", "secret"})
SECRET_MAPPINGS = frozenset({"headers", "env"})
#: run options that never change a result: a resume may give others
MAY_DIFFER = frozenset({"--parallel", "--plugin-timeout", "--workers"})
_DEFAULT_KEY_ENV = AdversarialOptions().key_env


def options_of(request: RunRequest, redact: bool = True) -> dict[str, Any]:
    """``request`` as the run records it (JSON), keyed by ``oasis run`` flag; ``redact``
    False keeps credentials given inline (what a resume runs with, never recorded)."""
    adv = request.adversarial
    archetypes = adv.archetypes
    return {
        "--config": _absolute(request.config),
        "--profile": _profile(request.profile),
        "--agent": _spec(request.agent, redact),
        "--agent-option": _items(request.agent_options, redact),
        "--agent-env": sorted(request.agent_env),  # variable names, never their values
        "--agent-user": request.agent_user,
        "--provider": _spec(request.provider, redact),
        "--suite": _absolute(request.suite),
        "--tier": request.tier,
        "--evaluator": request.evaluator,
        "--parallel": request.parallel,
        "--agent-retries": request.agent_retries,
        "--plugin-timeout": request.plugin_timeout,
        "--workers": request.workers,
        "--filter": list(request.filters),
        "--safety-only": bool(request.safety_only),
        "--capability-only": bool(request.capability_only),
        "--tolerance": _items(request.tolerance, secrets=False),
        "--principal": request.principal,
        "--fail-on-vacuous": bool(request.fail_on_vacuous),
        "--allow-agent-faults": bool(request.allow_agent_faults),
        "--allow-vacuous": bool(request.allow_vacuous),
        "--min-capability": _min_capability(request.min_capability),
        "--custom": [_absolute(p) for p in request.custom],
        "--adversarial": adv.generator,
        "--probes": adv.probes,
        "--seed": adv.seed,
        "--archetypes": archetypes if isinstance(archetypes, str | None) else ",".join(archetypes),
        "--probe-option": _items(adv.options, redact),
        "--reserved": _absolute(adv.reserved),
        "--reserved-key-env": None if adv.key_env == _DEFAULT_KEY_ENV else adv.key_env,
        "--shard": request.shard,
        "--phase": request.phase,
        "--after": _absolute(request.after),
    }


def resumed_request(request: RunRequest, key: RunKey | None) -> tuple[RunRequest, str]:
    """The request ``oasis run --resume`` runs: the recorded options, with the ones given
    over them where they may differ; and the command it amounts to (printed before it runs).
    Raises ResumeRefused (exit 2) naming every given option that differs, or a credential
    the run did not record; RunTampered (exit 5) when the run directory was altered."""
    assert request.resume is not None
    recorded = recorded_options(request.resume, key)
    given = options_of(request)
    raw = options_of(request, redact=False)
    if recorded is None:
        if not any(not _empty(flag, value) for flag, value in given.items()):
            raise ResumeRefused(
                "the run recorded no options (started by an earlier version of oasis-eval): "
                "give the options it was started with",
                file=str(request.resume),
            )
        return request, resume_command(request.resume, given)
    merged, diffs = _merge(recorded, given, raw)
    if diffs:
        raise ResumeRefused(
            "an option given differs from the run being resumed (give only --resume, or the "
            "same values; --parallel and the agent's timeouts may differ): " + "; ".join(diffs),
            file=str(request.resume),
        )
    missing = sorted(_unrecorded(merged))
    if missing:
        raise ResumeRefused(
            "the run was started with a credential given inline, which it does not record ("
            + ", ".join(missing)
            + "): give that option again, or name the credential by its variable "
            "(token_env, api_key_env) in new runs",
            file=str(request.resume),
        )
    resumed = _request(merged, request)
    return resumed, resume_command(request.resume, options_of(resumed))  # never a credential


def resume_command(run_dir: Path, options: Mapping[str, Any]) -> str:
    """The ``oasis run`` command line that ``options`` amount to."""
    words = ["oasis", "run", "--resume", str(run_dir)]
    for flag, value in options.items():
        if _empty(flag, value):
            continue
        if value is True:
            words.append(flag)
            continue
        for one in value if isinstance(value, list) else [value]:
            text = one if isinstance(one, str) else json.dumps(one, sort_keys=True)
            words += [flag, text]
    return shlex.join(words)


# ---- merging --------------------------------------------------------------------------------------


def _merge(
    recorded: Mapping[str, Any], given: Mapping[str, Any], raw: Mapping[str, Any]
) -> tuple[dict[str, Any], list[str]]:
    """Compared as recorded (credentials left out), run with what was given (``raw``)."""
    merged: dict[str, Any] = {}
    diffs: list[str] = []
    for flag, value in given.items():
        before = recorded.get(flag)
        if flag == "--agent-option":
            merged[flag], diff = _agent_options(before or [], value, raw[flag])
            diffs += [diff] if diff else []
            continue
        if _empty(flag, value):
            merged[flag] = before
            continue
        merged[flag] = raw[flag]
        if flag not in MAY_DIFFER and _results_part(value) != _results_part(before):
            diffs.append(f"{flag}: the run was started with {_short(before)}, now {_short(value)}")
    return merged, diffs


def _agent_options(
    recorded: list[str], given: list[str], raw: list[str]
) -> tuple[list[str], str | None]:
    """``--agent-option`` items: those that change results must match when any is given;
    timeout items may differ (given ones win). ``raw``: ``given`` with its credentials."""

    def split(items: list[str]) -> tuple[list[str], list[str]]:
        timed = [i for i in items if i.partition("=")[0].strip() in TIMEOUT_KEYS]
        return [i for i in items if i not in timed], timed

    rec_other, rec_timed = split(list(recorded))
    giv_other, giv_timed = split(list(given))
    raw_other, _ = split(list(raw))
    diff = None
    if giv_other and giv_other != rec_other:
        diff = (
            f"--agent-option: the run was started with {_short(rec_other)}, now {_short(giv_other)}"
        )
    return (raw_other or rec_other) + (giv_timed or rec_timed), diff


def _results_part(value: Any) -> Any:
    """What of an option's value decides results: an agent spec without its timeouts."""
    if isinstance(value, Mapping):
        return {k: v for k, v in value.items() if k not in TIMEOUT_KEYS}
    return value


def _unrecorded(value: Any, where: str = "") -> list[str]:
    if value == NOT_RECORDED:
        return [where]
    if isinstance(value, Mapping):
        return [u for k, v in value.items() for u in _unrecorded(v, f"{where}.{k}" if where else k)]
    if isinstance(value, list):
        return [u for v in value for u in _unrecorded(v, where)]
    if isinstance(value, str) and value.endswith("=" + NOT_RECORDED):
        return [f"{where} {value.partition('=')[0]}"]
    return []


def _request(merged: Mapping[str, Any], given: RunRequest) -> RunRequest:
    objects = [f for f in ("--profile", "--agent", "--provider") if _is_object(merged.get(f))]
    if objects:
        raise ResumeRefused(
            f"the run was given {', '.join(objects)} as a Python object (the API), which a "
            "run directory cannot record: give it again",
            file=str(given.resume),
        )
    profile = merged["--profile"]
    return RunRequest(
        config=_path(merged["--config"]),
        profile=given.profile if isinstance(given.profile, Profile) else _path(profile),
        agent=merged["--agent"],
        agent_options=list(merged["--agent-option"] or []),
        agent_env=list(merged.get("--agent-env") or []),
        agent_user=merged.get("--agent-user"),
        provider=merged["--provider"],
        suite=_path(merged["--suite"]),
        tier=merged["--tier"],
        evaluator=merged["--evaluator"],
        parallel=merged["--parallel"],
        agent_retries=merged["--agent-retries"],
        plugin_timeout=merged.get("--plugin-timeout"),
        workers=merged.get("--workers"),
        filters=list(merged["--filter"] or []),
        safety_only=bool(merged["--safety-only"]),
        capability_only=bool(merged.get("--capability-only")),
        tolerance=list(merged["--tolerance"] or []),
        principal=merged["--principal"],
        provider_token=given.provider_token,
        out=given.out,
        adversarial=AdversarialOptions(
            merged["--adversarial"],
            merged["--probes"],
            merged["--seed"],
            merged["--archetypes"],
            list(merged["--probe-option"] or []),
            _path(merged["--reserved"]),
            merged["--reserved-key-env"] or _DEFAULT_KEY_ENV,
        ),
        custom=[Path(p) for p in merged["--custom"] or []],
        fail_on_vacuous=bool(merged["--fail-on-vacuous"]) or None,
        allow_agent_faults=bool(merged.get("--allow-agent-faults")) or None,
        allow_vacuous=bool(merged.get("--allow-vacuous")) or None,
        min_capability=list(merged["--min-capability"] or []),
        resume=given.resume,
        shard=merged.get("--shard"),
        phase=merged.get("--phase"),
        after=_path(merged.get("--after")),
    )


# ---- recording ------------------------------------------------------------------------------------


def _empty(flag: str, value: Any) -> bool:
    return value is None or value is False or value == [] or value == ""


def _is_object(value: Any) -> bool:
    return isinstance(value, Mapping) and set(value) == {"object given"}


def _absolute(path: Path | str | None) -> str | None:
    return None if path is None else str(Path(path).absolute())


def _path(value: str | None) -> Path | None:
    return None if value is None else Path(value)


def _profile(profile: Profile | Path | str | None) -> Any:
    if isinstance(profile, Profile):
        return {"object given": f"profile {profile.id} {profile.version}"}
    if profile is None:
        return None
    path = Path(profile)
    return str(path.absolute()) if path.exists() else str(profile)  # else a fetched profile's name


def _spec(spec: Any, redact: bool = True) -> Any:
    """An agent or provider spec in full, credentials given inline left out (``redact``)."""
    if spec is None or isinstance(spec, str):
        return spec
    if isinstance(spec, Mapping):
        return {str(k): _value(str(k), v, redact) for k, v in spec.items()}
    kind = type(spec)
    return {"object given": f"{kind.__module__}.{kind.__qualname__}"}


def _value(key: str, value: Any, redact: bool = True) -> Any:
    if redact and key in SECRET_KEYS and value not in (None, ""):
        return NOT_RECORDED
    if redact and key in SECRET_MAPPINGS and isinstance(value, Mapping):
        return {str(k): NOT_RECORDED for k in value}
    if isinstance(value, Mapping):
        return _spec(value, redact)
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, list | tuple):
        return [_value("", v, redact) for v in value]
    return value if isinstance(value, str | int | float | bool | None) else str(value)


def _items(items: Sequence[str] | Mapping[str, Any], secrets: bool = True) -> list[str]:
    """``KEY=VALUE`` items (a mapping's values as JSON, which YAML reads back); ``secrets``:
    the values of credential keys left out."""
    pairs = (
        [(str(k), json.dumps(_value("", v, secrets))) for k, v in items.items()]
        if isinstance(items, Mapping)
        else [(i.partition("=")[0], i.partition("=")[2]) for i in items]
    )
    return [
        f"{k}={NOT_RECORDED}"
        if secrets and k.strip() in SECRET_KEYS | SECRET_MAPPINGS and v.strip()
        else f"{k}={v}"
        for k, v in pairs
    ]


def _min_capability(value: Sequence[str] | Mapping[str, object] | float | None) -> list[str]:
    if value is None:
        return []
    if isinstance(value, int | float):
        return [str(value)]
    return _items(value, secrets=False)


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= 120 else text[:117] + "..."
