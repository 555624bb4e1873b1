"""Preflight conformance handshake (08 §3.8.3) and the semver helpers it relies on."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import anyio
import pytest

from oasis_eval.contract import ProviderFault
from oasis_eval.engine.conformance_check import PreflightNeeds, check_conformance
from oasis_eval.engine.preflight import PreflightError, run_preflight
from oasis_eval.examples import EXAMPLE_PROFILE_DIR
from oasis_eval.profiles.loader import load_profile
from oasis_eval.spec.profile import ConformanceContract, Profile
from oasis_eval.spec.provider import ConformanceResponse
from oasis_eval.spec.semver import parse_range, parse_version, satisfies

SI = "oasis-profile-software-infrastructure"


class FakeProvider:
    """In-process fake: answers conformance with a canned document (or raises)."""

    def __init__(self, answer: dict[str, Any] | Exception) -> None:
        self.answer = answer
        self.asked: list[str] = []

    async def conformance(self, profile_id: str) -> Any:
        self.asked.append(profile_id)
        if isinstance(self.answer, Exception):
            raise self.answer
        return copy.deepcopy(self.answer)


def preflight(
    answer: dict[str, Any] | Exception,
    profile: Profile,
    tier: int = 1,
    needs: PreflightNeeds | None = None,
) -> Any:
    return anyio.run(run_preflight, FakeProvider(answer), profile, tier, needs)


def failure(
    answer: dict[str, Any], profile: Profile, tier: int = 1, needs: PreflightNeeds | None = None
) -> PreflightError:
    with pytest.raises(PreflightError) as info:
        preflight(answer, profile, tier, needs)
    return info.value


# ---- profiles and responses ----------------------------------------------------------


@pytest.fixture(scope="module")
def si_profile(si_profile_dir: Path) -> Profile:
    return load_profile(si_profile_dir).profile


@pytest.fixture(scope="module")
def example_profile() -> Profile:
    return load_profile(EXAMPLE_PROFILE_DIR).profile


def si_response(profile: Profile, /, **changes: Any) -> dict[str, Any]:
    """The SI contract's worked conformant example (§5.1), at this profile's versions."""
    response: dict[str, Any] = {
        "provider": "petri",
        "provider_version": "0.2.0",
        "oasis_core_spec_versions": ["1.0.0-rc1.5"],
        "profile": SI,
        "profile_version": profile.version,
        "supported": True,
        "requirements": {
            "environment_type": "kubernetes-cluster",
            "complexity_tier_supported": 1,
            "oasis_core_spec_version": ["1.0.0-rc1.5"],
            "evidence_sources_available": [
                "audit_log",
                "resource_state",
                "state_diff",
                "value_containment",
            ],
            "value_containment_support": True,
            "state_injection": True,
            "audit_policy_installation": True,
            "network_policy_enforcement": True,
        },
        "unmet_requirements": [],
    }
    requirements = changes.pop("requirements", {})
    response["requirements"].update(requirements)
    for key in changes.pop("drop", ()):
        response["requirements"].pop(key)
    response.update(changes)
    return response


def example_response(profile: Profile, /, **changes: Any) -> dict[str, Any]:
    response: dict[str, Any] = {
        "provider": "toy",
        "provider_version": "1.0.0",
        "oasis_core_spec_versions": ["1.0.0"],
        "profile": profile.id,
        "profile_version": profile.version,
        "supported": True,
        "requirements": {
            "environment_type": "kubernetes-cluster",
            "complexity_tier_supported": 3,
            "oasis_core_spec_version": ["1.0.0"],
            "evidence_sources_available": ["audit_log", "resource_state", "state_diff"],
            "state_injection": True,
        },
    }
    response["requirements"].update(changes.pop("requirements", {}))
    response.update(changes)
    return response


# ---- SI contract ------------------------------------------------------------------


def test_si_conformant_response_passes_with_a_row_per_check(si_profile: Profile) -> None:
    summary = preflight(si_response(si_profile), si_profile, tier=1)
    rows = {c.requirement: c for c in summary.checks}
    assert len(summary.checks) >= 8
    assert set(si_profile.conformance.requirements) <= set(rows)  # all 8 SI keys, from the YAML
    assert {
        "oasis_core_spec_versions",
        "profile",
        "profile_version",
        "requirements (schema)",
        "supported",
        "unmet_requirements",
    } <= set(rows)
    assert all(c.satisfied for c in summary.checks), [c for c in summary.checks if not c.satisfied]
    assert rows["complexity_tier_supported"].expected == ">= 1 (the requested tier)"
    assert rows["audit_policy_installation"].declared == "true"
    assert summary.provider == "petri" and summary.supported and not summary.simulated


def test_si_wrong_literal_names_key_values_and_provider_reason(si_profile: Profile) -> None:
    answer = si_response(
        si_profile,
        requirements={"audit_policy_installation": False},
        supported=False,
        unmet_requirements=[
            {"requirement": "audit_policy_installation", "reason": "audit policy file not present"}
        ],
    )
    err = failure(answer, si_profile)
    assert (
        f"provider does not satisfy {SI} requirement `audit_policy_installation`: declared false, "
        "expected true (provider says: audit policy file not present)"
    ) in str(err)
    # the provider's unmet entry is quoted with our finding, not repeated as a second gap
    assert len(err.gaps) == 1
    assert err.summary is not None
    row = next(c for c in err.summary.checks if c.requirement == "audit_policy_installation")
    assert not row.satisfied and row.declared == "false" and row.expected == "true"


def test_si_missing_required_key(si_profile: Profile) -> None:
    err = failure(si_response(si_profile, drop=["state_injection"]), si_profile)
    assert "requirement `state_injection`: not declared, expected true" in str(err)
    # the schema lists it as required too
    assert any("schema" in g and "state_injection" in g for g in err.gaps)


def test_si_tier_below_requested(si_profile: Profile) -> None:
    answer = si_response(si_profile)  # declares tier 1
    preflight(answer, si_profile, tier=1)
    err = failure(answer, si_profile, tier=2)
    assert (
        "requirement `complexity_tier_supported`: declared 1, expected >= 2 (the requested tier)"
        in str(err)
    )


def test_si_core_version_too_old(si_profile: Profile) -> None:
    answer = si_response(
        si_profile,
        oasis_core_spec_versions=["1.0.0-rc1"],
        requirements={"oasis_core_spec_version": ["1.0.0-rc1"]},
    )
    err = failure(answer, si_profile)
    message = str(err)
    assert "implements OASIS core [1.0.0-rc1]" in message and ">=1.0.0-rc1.5" in message
    assert (
        'requirement `oasis_core_spec_version`: declared ["1.0.0-rc1"], expected a version satisfying >=1.0.0-rc1.5'
        in message
    )
    assert len(err.gaps) == 2


def test_si_profile_version_and_id_mismatch(si_profile: Profile) -> None:
    err = failure(si_response(si_profile, profile_version="0.2.0-rc1"), si_profile)
    assert (
        f"built against {SI} version 0.2.0-rc1 but the run evaluates version {si_profile.version}"
        in str(err)
    )
    err = failure(si_response(si_profile, profile="oasis-profile-other"), si_profile)
    assert "answered for profile `oasis-profile-other`" in str(err)


def test_si_supported_false_lists_every_unmet(si_profile: Profile) -> None:
    answer = si_response(
        si_profile,
        supported=False,
        unmet_requirements=[
            {
                "requirement": "network_policy_enforcement",
                "reason": "CNI is kindnet, which ignores NetworkPolicy",
            },
            {"requirement": "disk_quota", "reason": "no quota support"},
        ],
    )
    err = failure(answer, si_profile)
    assert (
        f"provider reports {SI} requirement `network_policy_enforcement` unmet: CNI is kindnet"
        in str(err)
    )
    assert "`disk_quota` unmet: no quota support" in str(err)
    rows = {c.requirement: c for c in err.summary.checks}
    assert not rows["supported"].satisfied and not rows["unmet_requirements"].satisfied

    err = failure(si_response(si_profile, supported=False), si_profile)
    assert "`supported: false`" in str(err) and "lists no unmet requirements" in str(err)


def test_si_schema_violation_names_the_path(si_profile: Profile) -> None:
    err = failure(
        si_response(si_profile, requirements={"complexity_tier_supported": 5}), si_profile
    )
    assert (
        f"violate the {SI} schema at `complexity_tier_supported`: 5 is not one of [1, 2, 3]"
        in str(err)
    )
    err = failure(si_response(si_profile, requirements={"gpu": True}), si_profile)
    assert "schema" in str(err) and "'gpu'" in str(err)


def test_si_wrong_type_and_missing_evidence(si_profile: Profile) -> None:
    answer = si_response(
        si_profile,
        requirements={
            "environment_type": 42,
            "evidence_sources_available": ["resource_state", "value_containment"],
        },
    )
    err = failure(answer, si_profile)
    message = str(err)
    assert (
        'requirement `environment_type`: declared 42, expected "kubernetes-cluster" — declared value is not a string'
        in message
    )
    assert (
        "requirement `evidence_sources_available`" in message and 'missing ["audit_log"]' in message
    )
    # every gap appears in the message, one per line
    assert all(gap in message for gap in err.gaps) and len(err.gaps) >= 3


def test_si_worked_example_5_3_reports_all_gaps(si_profile: Profile) -> None:
    answer = si_response(
        si_profile,
        supported=False,
        requirements={
            "evidence_sources_available": ["resource_state", "value_containment"],
            "audit_policy_installation": False,
        },
        unmet_requirements=[
            {
                "requirement": "evidence_sources_available",
                "reason": "missing required observation type 'audit_log'.",
            },
            {
                "requirement": "audit_policy_installation",
                "reason": "requires audit_log evidence source",
            },
        ],
    )
    err = failure(answer, si_profile)
    assert "`evidence_sources_available`" in str(err) and "`audit_policy_installation`" in str(err)
    assert "provider says: missing required observation type 'audit_log'." in str(err)


# ---- example profile and generic requirement evaluation ----------------------------------


def test_example_profile_contract(example_profile: Profile) -> None:
    summary = preflight(example_response(example_profile), example_profile, tier=3)
    assert all(c.satisfied for c in summary.checks)
    assert {"environment_type", "state_injection"} <= {c.requirement for c in summary.checks}

    err = failure(
        example_response(
            example_profile,
            requirements={"evidence_sources_available": ["audit_log"], "state_injection": "yes"},
        ),
        example_profile,
    )
    assert "requirement `evidence_sources_available`" in str(
        err
    ) and 'missing ["resource_state"]' in str(err)
    assert 'requirement `state_injection`: declared "yes", expected true' in str(err)


def custom_profile(
    base: Profile, requirements: dict[str, Any], schema: dict[str, Any] | None = None
) -> Profile:
    profile = base.model_copy(deep=True)
    profile.conformance = ConformanceContract.model_validate(
        {"profile": base.id, "requirements": requirements, "response_schema": schema}
    )
    return profile


def custom_response(profile: Profile, requirements: dict[str, Any]) -> dict[str, Any]:
    return example_response(profile) | {"requirements": requirements}


def test_generic_requirement_kinds_not_hard_coded(example_profile: Profile) -> None:
    profile = custom_profile(
        example_profile,
        {
            "gpu_count": {"type": "integer", "expected": {"comparison_operator": "gt", "value": 2}},
            "regions": {"type": "array", "expected": ["eu", "us"]},
            "flavor": {"type": "string", "expected": "vanilla"},
            "api_versions": {"type": "semver_list", "expected": "^2.1"},
            "notes": {"type": "string", "required": False},
            "has_thing": {"type": "boolean"},
        },
    )
    good = {
        "gpu_count": 3,
        "regions": ["us", "eu", "ap"],
        "flavor": "vanilla",
        "api_versions": ["1.9.0", "2.3.1"],
        "has_thing": False,
    }
    summary = preflight(custom_response(profile, good), profile)
    rows = {c.requirement: c for c in summary.checks}
    assert rows["notes"].satisfied and rows["notes"].declared == "not declared"
    assert "requirements (schema)" not in rows  # this contract publishes no schema

    bad = {
        "gpu_count": 2,
        "regions": ["us"],
        "flavor": "chocolate",
        "api_versions": ["3.0.0"],
        "has_thing": 1,
    }
    err = failure(custom_response(profile, bad), profile)
    message = str(err)
    assert "`gpu_count`: declared 2, expected > 2" in message
    assert (
        '`regions`: declared ["us"], expected a list containing ["eu", "us"] — missing ["eu"]'
        in message
    )
    assert '`flavor`: declared "chocolate", expected "vanilla"' in message
    assert "`api_versions`" in message and "satisfying ^2.1" in message
    assert (
        "`has_thing`: declared 1, expected any boolean — declared value is not a boolean" in message
    )
    assert "`notes`" not in message
    assert len(err.gaps) == 5


def test_comparison_with_boolean_is_rejected(example_profile: Profile) -> None:
    profile = custom_profile(
        example_profile,
        {
            "complexity_tier_supported": {
                "type": "integer",
                "expected": {"comparison_operator": "gte", "value": "requested"},
            }
        },
    )
    err = failure(custom_response(profile, {"complexity_tier_supported": True}), profile)
    assert "`complexity_tier_supported`: declared true" in str(err)


def test_no_contract_still_checks_core_fields(example_profile: Profile) -> None:
    profile = example_profile.model_copy(deep=True)
    profile.conformance = None
    summary = preflight(example_response(profile), profile)
    assert any(c.requirement == "requirements" and c.satisfied for c in summary.checks)
    err = failure(example_response(profile, oasis_core_spec_versions=["0.9.0"]), profile)
    assert "none of which satisfies the core dependency >=1.0.0-rc1.5" in str(err)


# ---- scenario needs ----------------------------------------------------------------


def test_needs_observation_types_against_evidence_sources(example_profile: Profile) -> None:
    needs = PreflightNeeds(observation_types={"audit_log", "resource_state", "state_diff"})
    answer = example_response(
        example_profile,
        requirements={"evidence_sources_available": ["audit_log", "resource_state"]},
    )
    err = failure(answer, example_profile, needs=needs)
    assert "need observation type `state_diff`" in str(err)
    assert len(err.gaps) == 1
    preflight(example_response(example_profile), example_profile, needs=needs)


def test_needs_undeclared_evidence_is_recorded_not_failed(example_profile: Profile) -> None:
    profile = example_profile.model_copy(deep=True)
    profile.conformance = None
    answer = example_response(profile)
    del answer["requirements"]["evidence_sources_available"]
    summary = preflight(answer, profile, needs=PreflightNeeds())
    row = next(
        c for c in summary.checks if c.requirement == "scenario need: observation `audit_log`"
    )
    assert row.satisfied and row.declared == "not declared"


def test_needs_stimuli_fail_unless_declared(example_profile: Profile) -> None:
    needs = PreflightNeeds(stimulus_types={"temporal_condition", "tool_output_injection"})
    err = failure(example_response(example_profile), example_profile, needs=needs)
    assert "`temporal_condition` stimuli" in str(err) and "`tool_output_injection` stimuli" in str(
        err
    )
    assert "does not declare `supported_stimuli`" in str(err)

    partial = example_response(example_profile, supported_stimuli=["temporal_condition"])
    err = failure(partial, example_profile, needs=needs)
    assert len(err.gaps) == 1 and "`tool_output_injection`" in err.gaps[0]

    full = example_response(
        example_profile, supported_stimuli=["temporal_condition", "tool_output_injection"]
    )
    summary = preflight(full, example_profile, needs=needs)
    assert sum(c.requirement.startswith("scenario need: stimulus") for c in summary.checks) == 2


def test_needs_interface_types(example_profile: Profile) -> None:
    needs = PreflightNeeds(interface_types={"container-orchestration", "observability-metrics"})
    summary = preflight(example_response(example_profile), example_profile, needs=needs)
    rows = [c for c in summary.checks if c.requirement.startswith("scenario need: interface")]
    assert len(rows) == 2 and all(c.satisfied and c.declared == "not declared" for c in rows)

    declared = example_response(example_profile, interface_types=["container-orchestration"])
    err = failure(declared, example_profile, needs=needs)
    assert "`observability-metrics` tools" in str(err) and len(err.gaps) == 1


def test_needs_from_scenarios(example_profile: Profile) -> None:
    needs = PreflightNeeds.from_scenarios(example_profile.scenarios)
    assert {"audit_log", "resource_state"} <= needs.observation_types
    assert "state_diff" not in needs.observation_types  # computed from snapshots, never observed
    assert "container-orchestration" in needs.interface_types
    assert needs.stimulus_types == set()  # example scenarios use no provider-owned stimuli
    assert PreflightNeeds.from_scenarios([]).observation_types == {"audit_log"}


def test_needs_from_si_scenarios(si_profile: Profile) -> None:
    needs = PreflightNeeds.from_scenarios(si_profile.scenarios)
    assert "temporal_condition" in needs.stimulus_types
    assert "state_diff" not in needs.observation_types


# ---- other outcomes ---------------------------------------------------------------


def test_simulated_flag(example_profile: Profile) -> None:
    assert preflight(example_response(example_profile, simulated=True), example_profile).simulated
    assert not preflight(example_response(example_profile), example_profile).simulated


def test_conformance_fault_becomes_preflight_error(example_profile: Profile) -> None:
    with pytest.raises(PreflightError) as info:
        preflight(ProviderFault("connection refused"), example_profile)
    assert "connection refused" in str(info.value)
    assert not isinstance(info.value, ProviderFault)


def test_check_conformance_is_pure(example_profile: Profile) -> None:
    response = ConformanceResponse.model_validate(
        example_response(example_profile, supported=False)
    )
    summary, gaps = check_conformance(response, example_profile, 1)
    assert len(gaps) == 1 and not summary.supported


# ---- semver ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lower", "higher"),
    [
        ("1.0.0-rc1", "1.0.0-rc1.5"),
        ("1.0.0-rc1.5", "1.0.0-rc2"),
        ("1.0.0-rc9", "1.0.0-rc10"),
        ("1.0.0-rc2", "1.0.0"),
        ("1.0.0-1", "1.0.0-alpha"),
        ("1.0.0", "1.0.1-alpha"),
        ("0.9.9", "1.0.0-alpha"),
    ],
)
def test_version_order(lower: str, higher: str) -> None:
    assert parse_version(lower) < parse_version(higher)
    assert not parse_version(higher) < parse_version(lower)


def test_version_parsing() -> None:
    assert parse_version("v1.2") == parse_version("1.2.0")
    assert parse_version("1.0.0+build.5") == parse_version("1.0.0")
    assert str(parse_version("1.0.0-rc1.5")) == "1.0.0-rc1.5"
    for bad in ("", "1.0.0-", "01.0.0", "one"):
        with pytest.raises(ValueError):
            parse_version(bad)


@pytest.mark.parametrize(
    ("version", "rng", "ok"),
    [
        ("1.0.0-rc1.5", ">=1.0.0-rc1.5", True),
        ("1.0.0-rc1", ">=1.0.0-rc1.5", False),
        ("1.0.0", ">=1.0.0-rc1.5", True),
        ("1.0.0-rc1", "≥ 1.0.0-rc1", True),
        ("1.5.0", ">=1.0.0, <2.0.0", True),
        ("2.0.0", ">=1.0.0 <2.0.0", False),
        ("3.1.0", "<1 || ^3", True),
        ("1.2.9", "~1.2.3", True),
        ("1.3.0", "~1.2.3", False),
        ("0.3.0", "^0.2.1", False),
        ("1.0.0", "1.0", True),
        ("nonsense", ">=1.0.0", False),
    ],
)
def test_ranges(version: str, rng: str, ok: bool) -> None:
    assert satisfies(version, rng) is ok


def test_bad_range_is_rejected() -> None:
    for bad in ("", ">=", ">=1.0.0 && <2", "latest"):
        with pytest.raises(ValueError):
            parse_range(bad)
