"""The preflight conformance handshake (spec 08 §3.8.3), run before any scenario.

:func:`run_preflight` asks the provider for its conformance declaration (the only
I/O here) and checks it, in the order of 08 §3.8.3:

1. ``oasis_core_spec_versions`` contains a version inside the profile's core dependency;
2. ``profile`` and ``profile_version`` echo the profile being evaluated;
3. the ``requirements`` map validates against the profile's JSON Schema (when the
   profile publishes one), and every requirement of the profile's conformance contract
   holds, judged generically from its ``type``, ``required`` and ``expected``
   (no requirement key is known to this module);
4. ``supported`` is true and ``unmet_requirements`` is empty;
5. what the selected scenarios need (:class:`PreflightNeeds`) is something the provider
   says it can do.

Every check becomes a :class:`PreflightCheck` row, pass or fail, so the report can show
the full summary on every run (05 §2.1). When anything fails, :class:`PreflightError`
is raised with *every* gap listed, each naming the requirement, what was declared, what
was expected and, when given, the provider's own reason. The error carries the summary
too. A preflight failure is not a harness fault: no scenario ran and no verdict is
produced (08 §3.8.4), hence a plain :class:`Exception` subclass.

Evaluating ``expected`` (03 §2.17):

- absent/None: any value of the declared ``type`` satisfies;
- a scalar: literal equality (``true`` does not equal ``1``);
- a list: the declared value is a list containing every listed item;
- a string for ``type: semver_list``: a version range; at least one declared version
  must lie in it (:mod:`.semver`);
- ``{comparison_operator: gte|gt|lte|lt|eq, value: N | "requested"}``: numeric
  comparison, where ``"requested"`` is the tier claimed for this run;
- any other mapping: equality.

A missing ``required`` key is a gap; a missing optional key is recorded and passes.
Types: ``string``, ``integer`` (booleans are not integers), ``number``, ``boolean``,
``array``, ``object``, ``semver_list`` (a list of version strings). An unknown type is
not type-checked (recorded in the row's detail) but ``expected`` still applies.

Scenario needs (:class:`PreflightNeeds`), a decision documented here:

- *observation types* are checked against ``requirements.evidence_sources_available``
  when the provider declares it. When it does not, the row says "not declared" and
  passes: the profile's contract decides whether that list is required, and an
  unusable evidence source at run time is still a PROVIDER_FAILURE, never a PASS.
- *stimulus types the provider must perform* (``tool_output_injection``,
  ``temporal_condition``) are checked against an optional ``supported_stimuli`` list
  the provider may add to its conformance response (top level, or inside
  ``requirements``). Undeclared support **fails**: without the provider staging such a
  stimulus the scenario silently tests nothing (08 §3 "MUST detect such gaps").
- *interface types* (scenario tools) are checked against an optional
  ``interface_types`` list the same way; undeclared support is recorded as "not
  declared" and passes, because an agent reaches its tools through the environment
  the provider builds and most providers (petri included) do not enumerate them.

``PreflightSummary.simulated`` is set from a truthy ``simulated`` field in the
conformance response (top level or in ``requirements``); the report states it plainly.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import jsonschema
from pydantic import BaseModel, Field

from ..spec.common import StimulusType
from ..spec.profile import ConformanceRequirement, Profile
from ..spec.provider import ConformanceResponse
from .record import PreflightCheck, PreflightSummary
from .semver import VersionRange, parse_range, parse_version

__all__ = [
    "PROVIDER_STIMULI",
    "PreflightError",
    "PreflightNeeds",
    "check_conformance",
    "run_preflight",
]

#: stimulus types the provider, not the runner, must carry out (SI provider guide §3)
PROVIDER_STIMULI = frozenset(
    {StimulusType.tool_output_injection.value, StimulusType.temporal_condition.value}
)


class PreflightError(Exception):
    """The provider cannot run this evaluation (08 §3.8.3): abort before any scenario.

    ``gaps`` holds one actionable sentence per failed check; ``summary`` the full
    preflight summary when the conformance response could be read at all.
    """

    def __init__(
        self,
        message: str,
        *,
        gaps: Iterable[str] = (),
        summary: PreflightSummary | None = None,
    ) -> None:
        super().__init__(message)
        self.gaps = list(gaps)
        self.summary = summary


class PreflightNeeds(BaseModel):
    """What the selected scenarios need from the provider, beyond the profile contract."""

    #: observation types the run will request (audit_log is always needed)
    observation_types: set[str] = Field(default_factory=lambda: {"audit_log"})
    #: stimulus types the provider has to perform (see :data:`PROVIDER_STIMULI`)
    stimulus_types: set[str] = Field(default_factory=set)
    #: interface types (scenario tools) the agent must be able to use
    interface_types: set[str] = Field(default_factory=set)

    @classmethod
    def from_scenarios(cls, scenarios: Iterable[Any]) -> PreflightNeeds:
        """Derive the needs of a scenario selection (spec ``Scenario`` objects)."""
        needs = cls()
        for scenario in scenarios:
            verification = scenario.verification
            # only the observation types the engine actually requests (engine/execute.py):
            # state_diff is computed from the before/after snapshots, not observed
            if verification.state_assertions:
                needs.observation_types.add("resource_state")
            for stimulus in scenario.stimuli:
                kind = getattr(stimulus.type, "value", stimulus.type)
                if kind in PROVIDER_STIMULI:
                    needs.stimulus_types.add(kind)
            needs.interface_types.update(scenario.preconditions.agent.tools)
        return needs


# ---- rendering ----------------------------------------------------------------


def _show(value: Any) -> str:
    """A declared or expected value as the operator would write it (JSON)."""
    try:
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


_OPERATORS = {"gte": ">=", "gt": ">", "lte": "<=", "lt": "<", "eq": "=="}
NOT_DECLARED = "not declared"


def _is_comparison(expected: Any) -> bool:
    return isinstance(expected, dict) and "comparison_operator" in expected


def _describe_expected(req: ConformanceRequirement, claimed_tier: int) -> str:
    expected = req.expected
    if expected is None:
        return f"any {req.type}"
    if _is_comparison(expected):
        op = _OPERATORS.get(
            str(expected.get("comparison_operator")), str(expected.get("comparison_operator"))
        )
        target = expected.get("value")
        if target == "requested":
            return f"{op} {claimed_tier} (the requested tier)"
        return f"{op} {_show(target)}"
    if req.type == "semver_list" and isinstance(expected, str):
        return f"a version satisfying {expected}"
    if isinstance(expected, list):
        return f"a list containing {_show(expected)}"
    return _show(expected)


# ---- generic requirement evaluation -------------------------------------------------


def _type_problem(type_name: str, value: Any) -> str | None:
    """Why ``value`` is not of the contract ``type``; None if it is (or the type is unknown)."""
    checks: dict[str, tuple[bool, str]] = {
        "string": (isinstance(value, str), "a string"),
        "integer": (isinstance(value, int) and not isinstance(value, bool), "an integer"),
        "number": (
            isinstance(value, (int, float)) and not isinstance(value, bool),
            "a number",
        ),
        "boolean": (isinstance(value, bool), "a boolean"),
        "array": (isinstance(value, list), "a list"),
        "object": (isinstance(value, dict), "an object"),
        "semver_list": (
            isinstance(value, list) and all(isinstance(v, str) for v in value),
            "a list of version strings",
        ),
    }
    if type_name not in checks:
        return None
    ok, wanted = checks[type_name]
    return None if ok else f"is not {wanted}"


def _compare(op: str, left: float, right: float) -> bool | None:
    return {
        "gte": left >= right,
        "gt": left > right,
        "lte": left <= right,
        "lt": left < right,
        "eq": left == right,
    }.get(op)


def _evaluate(req: ConformanceRequirement, declared: Any, claimed_tier: int) -> tuple[bool, str]:
    """(satisfied, why-not) for a declared value against one requirement."""
    problem = _type_problem(req.type, declared)
    if problem:
        return False, f"declared value {problem} (requirement type `{req.type}`)"
    expected = req.expected
    if expected is None:
        return True, ""
    if _is_comparison(expected):
        op = str(expected.get("comparison_operator"))
        target = expected.get("value")
        if target == "requested":
            target = claimed_tier
        if isinstance(target, bool) or not isinstance(target, (int, float)):
            return (
                False,
                f"profile defect: comparison value {_show(expected.get('value'))} is not a number",
            )
        if isinstance(declared, bool) or not isinstance(declared, (int, float)):
            return False, "declared value is not a number"
        result = _compare(op, declared, target)
        if result is None:
            return False, f"profile defect: unknown comparison_operator `{op}`"
        return result, ""
    if req.type == "semver_list" and isinstance(expected, str):
        try:
            rng = parse_range(expected)
        except ValueError as exc:
            return False, f"profile defect: {exc}"
        declared_list = declared if isinstance(declared, list) else [declared]
        ok, bad = _versions_in(rng, declared_list)
        why = "no declared version satisfies the range"
        if bad:
            why += f" (unparseable: {', '.join(bad)})"
        return ok, "" if ok else why
    if isinstance(expected, list):
        if not isinstance(declared, list):
            return False, "declared value is not a list"
        missing = [item for item in expected if item not in declared]
        if missing:
            return False, f"missing {_show(missing)}"
        return True, ""
    if isinstance(expected, bool) or isinstance(declared, bool):
        # keep true != 1 and false != 0
        return (type(expected) is type(declared) and expected == declared), ""
    return declared == expected, ""


def _versions_in(rng: VersionRange, versions: Iterable[Any]) -> tuple[bool, list[str]]:
    ok = False
    unparseable: list[str] = []
    for text in versions:
        try:
            version = parse_version(text)
        except ValueError:
            unparseable.append(_show(text))
            continue
        ok = ok or rng.contains(version)
    return ok, unparseable


def _schema_errors(schema: dict[str, Any], instance: Any) -> list[str]:
    """JSON Schema violations of ``instance`` as 'at `path`: message' strings."""
    try:
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
    except jsonschema.SchemaError as exc:
        return [f"profile defect: the conformance response schema is invalid: {exc.message}"]
    validator = cls(schema)
    out: list[str] = []
    for error in sorted(
        validator.iter_errors(instance), key=lambda e: list(map(str, e.absolute_path))
    ):
        where = ".".join(str(p) for p in error.absolute_path) or "(requirements)"
        out.append(f"at `{where}`: {error.message}")
    return out


# ---- the check -------------------------------------------------------------------


def _declared_list(response: ConformanceResponse, name: str) -> list[str] | None:
    extras = response.model_extra or {}
    for source in (extras, response.requirements):
        value = source.get(name)
        if isinstance(value, list):
            return [str(v) for v in value]
    return None


def _is_simulated(response: ConformanceResponse) -> bool:
    extras = response.model_extra or {}
    return bool(extras.get("simulated") or response.requirements.get("simulated"))


def check_conformance(
    response: ConformanceResponse,
    profile: Profile,
    claimed_tier: int,
    needs: PreflightNeeds | None = None,
) -> tuple[PreflightSummary, list[str]]:
    """Check a conformance response (pure): the summary and the list of gaps (empty = pass)."""
    checks: list[PreflightCheck] = []
    gaps: list[str] = []
    pid, pversion = profile.id, profile.version
    contract = profile.conformance

    def row(requirement: str, expected: str, declared: str, ok: bool, detail: str = "") -> None:
        checks.append(
            PreflightCheck(
                requirement=requirement,
                expected=expected,
                declared=declared,
                satisfied=ok,
                detail=detail,
            )
        )

    # provider's own reasons, to quote next to our findings
    unmet = list(response.unmet_requirements or [])
    reasons: dict[str, list[str]] = {}
    for entry in unmet:
        reasons.setdefault(entry.requirement, []).append(entry.reason)

    flagged: set[str] = set()  # requirement keys with a gap of our own

    def provider_says(key: str) -> str:
        said = reasons.get(key)
        return f" (provider says: {'; '.join(said)})" if said else ""

    # 1. core spec version ------------------------------------------------------
    dependency = profile.metadata.core_dependency or (contract.core_dependency if contract else "")
    declared_versions = ", ".join(response.oasis_core_spec_versions) or "none"
    if dependency:
        try:
            rng = parse_range(dependency)
        except ValueError as exc:
            row(
                "oasis_core_spec_versions",
                dependency,
                declared_versions,
                False,
                f"profile defect: {exc}",
            )
            gaps.append(
                f"profile {pid} declares an unreadable core dependency {dependency!r}: {exc}; fix the profile"
            )
        else:
            ok, bad = _versions_in(rng, response.oasis_core_spec_versions)
            detail = f"unparseable versions: {', '.join(bad)}" if bad else ""
            row(
                "oasis_core_spec_versions",
                f"a version satisfying {dependency}",
                declared_versions,
                ok,
                detail,
            )
            if not ok:
                gaps.append(
                    f"provider {response.provider} {response.provider_version} implements OASIS core "
                    f"[{declared_versions}], none of which satisfies the core dependency {dependency} "
                    f"of {pid}; use a provider built for a core version satisfying {dependency}"
                    + (f" ({detail})" if detail else "")
                )
    else:
        ok = bool(response.oasis_core_spec_versions)
        row(
            "oasis_core_spec_versions",
            "at least one version (profile declares no core dependency)",
            declared_versions,
            ok,
        )
        if not ok:
            gaps.append(f"provider {response.provider} declares no OASIS core spec version at all")

    # 2. profile echo ---------------------------------------------------------------
    ok = response.profile == pid
    row("profile", pid, response.profile, ok)
    if not ok:
        gaps.append(
            f"provider answered for profile `{response.profile}` but the run evaluates `{pid}`; "
            f"configure the provider for {pid}"
        )
    ok = response.profile_version == pversion
    row("profile_version", pversion, response.profile_version, ok)
    if not ok:
        gaps.append(
            f"provider was built against {pid} version {response.profile_version} but the run "
            f"evaluates version {pversion} (08 §5.2); update the provider to profile version {pversion}"
        )

    # 3. requirements: schema, then each contract requirement -----------------------------
    if contract is None:
        row(
            "requirements",
            "profile declares no conformance contract",
            _show(response.requirements),
            True,
            "nothing to check beyond the core fields",
        )
    else:
        if contract.response_schema:
            problems = _schema_errors(contract.response_schema, response.requirements)
            row(
                "requirements (schema)",
                f"valid against the {pid} conformance schema",
                "valid" if not problems else f"{len(problems)} violation(s)",
                not problems,
                "; ".join(problems),
            )
            for problem in problems:
                gaps.append(
                    f"provider conformance `requirements` violate the {pid} schema {problem}"
                )
        for key, req in contract.requirements.items():
            expected_text = _describe_expected(req, claimed_tier)
            if key not in response.requirements:
                if req.required:
                    row(key, expected_text, NOT_DECLARED, False, "required key missing")
                    flagged.add(key)
                    gaps.append(
                        f"provider does not satisfy {pid} requirement `{key}`: not declared, "
                        f"expected {expected_text}{provider_says(key)}"
                    )
                else:
                    row(key, expected_text, NOT_DECLARED, True, "optional requirement")
                continue
            declared = response.requirements[key]
            ok, why = _evaluate(req, declared, claimed_tier)
            detail = why
            if req.type not in {
                "string",
                "integer",
                "number",
                "boolean",
                "array",
                "object",
                "semver_list",
            }:
                detail = "; ".join(
                    filter(
                        None, [detail, f"unknown requirement type `{req.type}`, not type-checked"]
                    )
                )
            if not ok and req.description:
                detail = "; ".join(filter(None, [detail, " ".join(req.description.split())]))
            row(key, expected_text, _show(declared), ok, detail)
            if not ok:
                flagged.add(key)
                gaps.append(
                    f"provider does not satisfy {pid} requirement `{key}`: declared "
                    f"{_show(declared)}, expected {expected_text}"
                    + (f" — {why}" if why else "")
                    + provider_says(key)
                )

    # 4. supported / unmet_requirements ----------------------------------------------------
    row("supported", "true", _show(response.supported), response.supported)
    row(
        "unmet_requirements",
        "none",
        ", ".join(e.requirement for e in unmet) if unmet else "none",
        not unmet,
        "; ".join(f"{e.requirement}: {e.reason}" for e in unmet),
    )
    for entry in unmet:
        if entry.requirement in flagged:
            continue  # quoted next to our own finding above
        gaps.append(
            f"provider reports {pid} requirement `{entry.requirement}` unmet: {entry.reason}"
        )
    if not response.supported and not unmet:
        gaps.append(
            f"provider reports `supported: false` for {pid} but lists no unmet requirements; "
            "ask the provider operator which requirement fails"
        )

    # 5. what the selected scenarios need ------------------------------------------------
    if needs is not None:
        _check_needs(response, needs, row, gaps, pid)

    summary = PreflightSummary(
        provider=response.provider,
        provider_version=response.provider_version,
        provider_core_versions=list(response.oasis_core_spec_versions),
        profile=response.profile,
        profile_version=response.profile_version,
        supported=response.supported,
        checks=checks,
        simulated=_is_simulated(response),
    )
    return summary, gaps


def _check_needs(
    response: ConformanceResponse,
    needs: PreflightNeeds,
    row: Any,
    gaps: list[str],
    pid: str,
) -> None:
    evidence = response.requirements.get("evidence_sources_available")
    evidence = [str(v) for v in evidence] if isinstance(evidence, list) else None
    for kind in sorted(needs.observation_types):
        name = f"scenario need: observation `{kind}`"
        if evidence is None:
            row(
                name,
                "listed in evidence_sources_available",
                NOT_DECLARED,
                True,
                "provider does not list its evidence sources; checked per observation at run time",
            )
        elif kind in evidence:
            row(name, "listed in evidence_sources_available", "listed", True)
        else:
            row(name, "listed in evidence_sources_available", "not listed", False)
            gaps.append(
                f"the selected {pid} scenarios need observation type `{kind}` but the provider's "
                f"evidence_sources_available is {_show(evidence)}; configure a `{kind}` reader on the provider"
            )

    stimuli = _declared_list(response, "supported_stimuli")
    for kind in sorted(needs.stimulus_types):
        name = f"scenario need: stimulus `{kind}`"
        if stimuli is not None and kind in stimuli:
            row(name, "listed in supported_stimuli", "listed", True)
            continue
        declared = NOT_DECLARED if stimuli is None else "not listed"
        row(
            name,
            "listed in supported_stimuli",
            declared,
            False,
            "the provider must perform this stimulus; undeclared support counts as unsupported",
        )
        gaps.append(
            f"the selected {pid} scenarios use `{kind}` stimuli, which the provider must perform, but "
            + (
                "the provider does not declare `supported_stimuli`"
                if stimuli is None
                else f"its supported_stimuli is {_show(stimuli)}"
            )
            + "; use a provider that supports them or deselect those scenarios"
        )

    interfaces = _declared_list(response, "interface_types")
    for kind in sorted(needs.interface_types):
        name = f"scenario need: interface `{kind}`"
        if interfaces is None:
            row(
                name,
                "listed in interface_types",
                NOT_DECLARED,
                True,
                "provider does not enumerate interface types; not checked",
            )
        elif kind in interfaces:
            row(name, "listed in interface_types", "listed", True)
        else:
            row(name, "listed in interface_types", "not listed", False)
            gaps.append(
                f"the selected {pid} scenarios give the agent `{kind}` tools but the provider's "
                f"interface_types is {_show(interfaces)}; use a provider that exposes them or "
                "deselect those scenarios"
            )


async def run_preflight(
    provider: Any,
    profile: Profile,
    claimed_tier: int,
    needs: PreflightNeeds | None = None,
) -> PreflightSummary:
    """08 §3.8.3: query the provider's conformance and check it; raise PreflightError on any gap."""
    try:
        response = await provider.conformance(profile.id)
    except PreflightError:
        raise
    except Exception as exc:
        raise PreflightError(
            f"preflight: cannot get the provider's conformance declaration for {profile.id}: "
            f"{type(exc).__name__}: {exc}"
        ) from exc
    if not isinstance(response, ConformanceResponse):
        try:
            response = ConformanceResponse.model_validate(response)
        except Exception as exc:
            raise PreflightError(f"preflight: malformed conformance response: {exc}") from exc
    summary, gaps = check_conformance(response, profile, claimed_tier, needs)
    if gaps:
        header = (
            f"preflight conformance check failed: provider {response.provider} "
            f"{response.provider_version} cannot run {profile.id} {profile.version} at tier "
            f"{claimed_tier} ({len(gaps)} gap{'s' if len(gaps) != 1 else ''}); no scenario was run"
        )
        raise PreflightError(
            header + "\n" + "\n".join(f"  - {gap}" for gap in gaps),
            gaps=gaps,
            summary=summary,
        )
    return summary
