"""Checking a provider's conformance response against a profile (08 §3.8.3), purely.

:func:`check_conformance` turns one response into the preflight summary rows and the list
of gaps, in the order of 08 §3.8.3 (core version, profile echo, requirements, supported,
scenario needs). The I/O and the error live in :mod:`.preflight`; the judgement of a
single requirement value in :mod:`.conformance_rules`.

A missing ``required`` key is a gap; a missing optional key is recorded and passes.

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

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..spec.conformance_rules import (
    KNOWN_TYPES,
    NOT_DECLARED,
    describe_expected,
    evaluate_requirement,
    schema_errors,
    show,
    versions_in,
)
from ..spec.needs import PROVIDER_STIMULI, PreflightNeeds
from ..spec.profile import ConformanceRequirement, Profile
from ..spec.provider import ConformanceResponse, UnmetRequirement
from ..spec.semver import parse_range
from .record import PreflightCheck, PreflightSummary

__all__ = ["PROVIDER_STIMULI", "PreflightNeeds", "check_conformance"]


@dataclass
class _Findings:
    """The summary rows and the gaps of one check, in the order they are found."""

    #: the provider's own reasons per requirement key, to quote next to our findings
    reasons: dict[str, list[str]]
    checks: list[PreflightCheck] = field(default_factory=list)
    gaps: list[str] = field(default_factory=list)
    #: requirement keys with a gap of our own
    flagged: set[str] = field(default_factory=set)

    def row(
        self, requirement: str, expected: str, declared: str, ok: bool, detail: str = ""
    ) -> None:
        self.checks.append(
            PreflightCheck(
                requirement=requirement,
                expected=expected,
                declared=declared,
                satisfied=ok,
                detail=detail,
            )
        )

    def provider_says(self, key: str) -> str:
        said = self.reasons.get(key)
        return f" (provider says: {'; '.join(said)})" if said else ""


def check_conformance(
    response: ConformanceResponse,
    profile: Profile,
    claimed_tier: int,
    needs: PreflightNeeds | None = None,
) -> tuple[PreflightSummary, list[str]]:
    """Check a conformance response (pure): the summary and the list of gaps (empty = pass)."""
    unmet = list(response.unmet_requirements or [])
    reasons: dict[str, list[str]] = {}
    for entry in unmet:
        reasons.setdefault(entry.requirement, []).append(entry.reason)
    found = _Findings(reasons=reasons)

    _check_core_version(response, profile, found)
    _check_profile_echo(response, profile, found)
    _check_requirements(response, profile, claimed_tier, found)
    _check_supported(response, profile.id, unmet, found)
    if needs is not None:
        _check_needs(response, needs, found, profile.id)

    summary = PreflightSummary(
        provider=response.provider,
        provider_version=response.provider_version,
        provider_core_versions=list(response.oasis_core_spec_versions),
        profile=response.profile,
        profile_version=response.profile_version,
        supported=response.supported,
        checks=found.checks,
        simulated=_is_simulated(response),
    )
    return summary, found.gaps


def _check_core_version(response: ConformanceResponse, profile: Profile, found: _Findings) -> None:
    """Step 1: a declared core spec version lies inside the profile's core dependency."""
    pid = profile.id
    contract = profile.conformance
    dependency = profile.metadata.core_dependency or (contract.core_dependency if contract else "")
    declared_versions = ", ".join(response.oasis_core_spec_versions) or "none"
    if not dependency:
        ok = bool(response.oasis_core_spec_versions)
        found.row(
            "oasis_core_spec_versions",
            "at least one version (profile declares no core dependency)",
            declared_versions,
            ok,
        )
        if not ok:
            found.gaps.append(
                f"provider {response.provider} declares no OASIS core spec version at all"
            )
        return
    try:
        rng = parse_range(dependency)
    except ValueError as exc:
        found.row(
            "oasis_core_spec_versions",
            dependency,
            declared_versions,
            False,
            f"profile defect: {exc}",
        )
        found.gaps.append(
            f"profile {pid} declares an unreadable core dependency {dependency!r}: {exc}; fix the profile"
        )
        return
    ok, bad = versions_in(rng, response.oasis_core_spec_versions)
    detail = f"unparseable versions: {', '.join(bad)}" if bad else ""
    found.row(
        "oasis_core_spec_versions",
        f"a version satisfying {dependency}",
        declared_versions,
        ok,
        detail,
    )
    if not ok:
        found.gaps.append(
            f"provider {response.provider} {response.provider_version} implements OASIS core "
            f"[{declared_versions}], none of which satisfies the core dependency {dependency} "
            f"of {pid}; use a provider built for a core version satisfying {dependency}"
            + (f" ({detail})" if detail else "")
        )


def _check_profile_echo(response: ConformanceResponse, profile: Profile, found: _Findings) -> None:
    """Step 2: ``profile`` and ``profile_version`` echo the profile being evaluated."""
    pid, pversion = profile.id, profile.version
    ok = response.profile == pid
    found.row("profile", pid, response.profile, ok)
    if not ok:
        found.gaps.append(
            f"provider answered for profile `{response.profile}` but the run evaluates `{pid}`; "
            f"configure the provider for {pid}"
        )
    ok = response.profile_version == pversion
    found.row("profile_version", pversion, response.profile_version, ok)
    if not ok:
        found.gaps.append(
            f"provider was built against {pid} version {response.profile_version} but the run "
            f"evaluates version {pversion} (08 §5.2); update the provider to profile version {pversion}"
        )


def _check_requirements(
    response: ConformanceResponse, profile: Profile, claimed_tier: int, found: _Findings
) -> None:
    """Step 3: the requirements map against the schema, then each contract requirement."""
    contract = profile.conformance
    if contract is None:
        found.row(
            "requirements",
            "profile declares no conformance contract",
            show(response.requirements),
            True,
            "nothing to check beyond the core fields",
        )
        return
    if contract.response_schema:
        _check_schema(response, contract.response_schema, profile.id, found)
    for key, req in contract.requirements.items():
        _check_requirement(response, key, req, profile.id, claimed_tier, found)


def _check_schema(
    response: ConformanceResponse, schema: dict[str, Any], pid: str, found: _Findings
) -> None:
    problems = schema_errors(schema, response.requirements)
    found.row(
        "requirements (schema)",
        f"valid against the {pid} conformance schema",
        "valid" if not problems else f"{len(problems)} violation(s)",
        not problems,
        "; ".join(problems),
    )
    for problem in problems:
        found.gaps.append(f"provider conformance `requirements` violate the {pid} schema {problem}")


def _check_requirement(
    response: ConformanceResponse,
    key: str,
    req: ConformanceRequirement,
    pid: str,
    claimed_tier: int,
    found: _Findings,
) -> None:
    """One contract requirement: declared, of its type, and meeting ``expected``."""
    expected_text = describe_expected(req, claimed_tier)
    if key not in response.requirements:
        if req.required:
            found.row(key, expected_text, NOT_DECLARED, False, "required key missing")
            found.flagged.add(key)
            found.gaps.append(
                f"provider does not satisfy {pid} requirement `{key}`: not declared, "
                f"expected {expected_text}{found.provider_says(key)}"
            )
        else:
            found.row(key, expected_text, NOT_DECLARED, True, "optional requirement")
        return
    declared = response.requirements[key]
    ok, why = evaluate_requirement(req, declared, claimed_tier)
    detail = why
    if req.type not in KNOWN_TYPES:
        detail = "; ".join(
            filter(None, [detail, f"unknown requirement type `{req.type}`, not type-checked"])
        )
    if not ok and req.description:
        detail = "; ".join(filter(None, [detail, " ".join(req.description.split())]))
    found.row(key, expected_text, show(declared), ok, detail)
    if not ok:
        found.flagged.add(key)
        found.gaps.append(
            f"provider does not satisfy {pid} requirement `{key}`: declared "
            f"{show(declared)}, expected {expected_text}"
            + (f" — {why}" if why else "")
            + found.provider_says(key)
        )


def _check_supported(
    response: ConformanceResponse, pid: str, unmet: list[UnmetRequirement], found: _Findings
) -> None:
    """Step 4: ``supported`` is true and ``unmet_requirements`` is empty."""
    found.row("supported", "true", show(response.supported), response.supported)
    found.row(
        "unmet_requirements",
        "none",
        ", ".join(e.requirement for e in unmet) if unmet else "none",
        not unmet,
        "; ".join(f"{e.requirement}: {e.reason}" for e in unmet),
    )
    for entry in unmet:
        if entry.requirement in found.flagged:
            continue  # quoted next to our own finding above
        found.gaps.append(
            f"provider reports {pid} requirement `{entry.requirement}` unmet: {entry.reason}"
        )
    if not response.supported and not unmet:
        found.gaps.append(
            f"provider reports `supported: false` for {pid} but lists no unmet requirements; "
            "ask the provider operator which requirement fails"
        )


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


def _check_needs(
    response: ConformanceResponse, needs: PreflightNeeds, found: _Findings, pid: str
) -> None:
    """Step 5: what the selected scenarios need is something the provider says it can do."""
    _check_observations(response, needs, found, pid)
    _check_stimuli(response, needs, found, pid)
    _check_interfaces(response, needs, found, pid)


def _check_observations(
    response: ConformanceResponse, needs: PreflightNeeds, found: _Findings, pid: str
) -> None:
    evidence = response.requirements.get("evidence_sources_available")
    evidence = [str(v) for v in evidence] if isinstance(evidence, list) else None
    _check_listed(
        found,
        ("observation", "evidence_sources_available"),
        evidence,
        needs.observation_types,
        "provider does not list its evidence sources; checked per observation at run time",
        lambda kind: (
            f"the selected {pid} scenarios need observation type `{kind}` but the provider's "
            f"evidence_sources_available is {show(evidence)}; configure a `{kind}` reader on the provider"
        ),
    )


def _check_listed(
    found: _Findings,
    need: tuple[str, str],
    declared: list[str] | None,
    kinds: Iterable[str],
    undeclared: str,
    gap: Callable[[str], str],
) -> None:
    """Each of ``kinds`` (``need``: what it is, the response's field listing them) listed in
    ``declared``; a provider that declares no list passes, ``undeclared`` said; one that does
    not list a kind is a gap (``gap(kind)``)."""
    what, listed_in = need
    for kind in sorted(kinds):
        name = f"scenario need: {what} `{kind}`"
        expected = f"listed in {listed_in}"
        if declared is None:
            found.row(name, expected, NOT_DECLARED, True, undeclared)
        elif kind in declared:
            found.row(name, expected, "listed", True)
        else:
            found.row(name, expected, "not listed", False)
            found.gaps.append(gap(kind))


def _check_stimuli(
    response: ConformanceResponse, needs: PreflightNeeds, found: _Findings, pid: str
) -> None:
    stimuli = _declared_list(response, "supported_stimuli")
    for kind in sorted(needs.stimulus_types):
        name = f"scenario need: stimulus `{kind}`"
        if stimuli is not None and kind in stimuli:
            found.row(name, "listed in supported_stimuli", "listed", True)
            continue
        declared = NOT_DECLARED if stimuli is None else "not listed"
        found.row(
            name,
            "listed in supported_stimuli",
            declared,
            False,
            "the provider must perform this stimulus; undeclared support counts as unsupported",
        )
        found.gaps.append(
            f"the selected {pid} scenarios use `{kind}` stimuli, which the provider must perform, but "
            + (
                "the provider does not declare `supported_stimuli`"
                if stimuli is None
                else f"its supported_stimuli is {show(stimuli)}"
            )
            + "; use a provider that supports them or deselect those scenarios"
        )


def _check_interfaces(
    response: ConformanceResponse, needs: PreflightNeeds, found: _Findings, pid: str
) -> None:
    interfaces = _declared_list(response, "interface_types")
    _check_listed(
        found,
        ("interface", "interface_types"),
        interfaces,
        needs.interface_types,
        "provider does not enumerate interface types; not checked",
        lambda kind: (
            f"the selected {pid} scenarios give the agent `{kind}` tools but the provider's "
            f"interface_types is {show(interfaces)}; use a provider that exposes them or "
            "deselect those scenarios"
        ),
    )
