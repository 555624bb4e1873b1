"""Agent configuration (04 §1, §3 step 2; 02 §1.9-1.10; 03 §2.16; 05 §2.1, §3.1).

- the reported configuration is validated, the schema's defaults are applied to
  unreported dimensions, and the effective configuration (with what was defaulted)
  is recorded in the verdict metadata and the report;
- a scenario without ``applicability`` applies to every configuration; one whose
  condition does not match is NOT_APPLICABLE with exactly the failing conditions;
- conditional assertions follow the reported configuration;
- a profile without an agent configuration schema (the SI profile) still runs: the
  configuration is recorded as reported, with a warning, and the profile version is
  the one profile.md declares.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from oasis_eval.engine.configuration import applicability, effective_configuration
from oasis_eval.engine.record import RunInputs
from oasis_eval.engine.redaction import Redactor
from oasis_eval.engine.runner import evaluate
from oasis_eval.engine.selection import Selection
from oasis_eval.evaluation.results import ScenarioState
from oasis_eval.examples import EXAMPLE_PROFILE_DIR
from oasis_eval.profiles.loader import load_profile
from oasis_eval.reporting import render_markdown
from oasis_eval.spec.provider import ConformanceResponse

BV = "k8s.safety.bv.cross-namespace-delete-001"
ZONE = "k8s.safety.bv.protected-zone-delete-001"
WO = "k8s.capability.wo.in-scope-delete-001"
SI_SCENARIO = "infra.safety.ae.social-engineering-urgency-001"


def fakes() -> Any:
    name = "oasis_eval_tests_engine_fakes"
    if name not in sys.modules:
        path = Path(__file__).resolve().parents[1] / "engine" / "fakes.py"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


@pytest.fixture(scope="module")
def profile():  # type: ignore[no-untyped-def]
    return load_profile(EXAMPLE_PROFILE_DIR).profile


def run(profile, configuration, selection=None, provider=None):  # type: ignore[no-untyped-def]
    f = fakes()
    provider = provider or f.FakeProvider(profile)
    agent = f.ScriptedAgent(provider, f.reader, configuration=configuration)
    return anyio.run(
        evaluate,
        profile,
        agent,
        provider,
        RunInputs(claimed_tier=1),
        selection,
        None,
        Redactor(key=b"g" * 32),
    )


def test_defaults_fill_unreported_dimensions_and_are_recorded(profile) -> None:
    dim = profile.agent_configuration_schema.dimension("operational_mode")
    assert dim.default == "read_write"
    outcome = run(profile, {}, Selection(patterns=[BV]))
    meta = outcome.record.verdict.metadata
    assert meta.agent_configuration == {"operational_mode": "read_write"}
    assert outcome.record.defaulted_configuration == ["operational_mode"]
    report = render_markdown(outcome.record)
    assert "profile default (not reported by the agent)" in report
    reported = run(profile, {"operational_mode": "read_only"}, Selection(patterns=[BV]))
    assert reported.record.verdict.metadata.agent_configuration == {"operational_mode": "read_only"}
    assert reported.record.defaulted_configuration == []


def test_a_scenario_without_applicability_applies_to_every_configuration(profile) -> None:
    unconditional = [s for s in profile.scenarios if not s.applicability]
    assert unconditional
    for values in (
        {},
        {"operational_mode": "read_only"},
        {"operational_mode": "read_write"},
        {"operational_mode": "read_only", "zone_model": False},
    ):
        config = effective_configuration(values, profile)
        assert all(applicability(s, config, profile) is None for s in unconditional)


def test_only_the_failing_conditions_exclude_a_scenario(profile) -> None:
    zone = profile.scenario(ZONE)
    assert zone.applicability == {"operational_mode": "read_write", "zone_model": True}
    read_only = effective_configuration(
        {"operational_mode": "read_only", "zone_model": True}, profile
    )
    assert applicability(zone, read_only, profile) == {"operational_mode": "read_write"}
    assert (
        applicability(
            zone,
            effective_configuration(
                {"operational_mode": "read_write", "zone_model": True}, profile
            ),
            profile,
        )
        is None
    )
    outcome = run(profile, {"operational_mode": "read_only"}, Selection(patterns=[WO, ZONE]))
    results = {r.scenario_id: r for r in outcome.record.scenarios}
    assert results[WO].state is ScenarioState.not_applicable
    assert results[WO].not_applicable_conditions == {"operational_mode": "read_write"}
    # zone_model is unreported and has no default: that condition fails too
    assert results[ZONE].not_applicable_conditions == {
        "operational_mode": "read_write",
        "zone_model": True,
    }


@pytest.mark.parametrize("mode, index", [("read_write", 0), ("read_only", 1)])
def test_conditional_assertions_follow_the_reported_configuration(profile, mode, index) -> None:
    outcome = run(profile, {"operational_mode": mode}, Selection(patterns=[BV]))
    (result,) = [r for r in outcome.record.scenarios if r.scenario_id == BV]
    sources = {a.source for a in result.assertions}
    assert f"assertions.conditional[{index}].must[0]" in sources
    assert f"assertions.conditional[{1 - index}].must[0]" not in sources
    assert {"assertions.must[0]", "assertions.must_not[0]"} <= sources  # top level always applies


def test_a_profile_without_a_configuration_schema_runs_with_a_warning(si_profile_dir: Path) -> None:
    from oasis_eval.cli.run_cmd import _load_for_run

    si, defects = _load_for_run(si_profile_dir)
    assert si.agent_configuration_schema is None
    assert any("agent configuration schema" in d for d in defects)
    f = fakes()

    class SiProvider(f.FakeProvider):  # type: ignore[misc,name-defined]
        async def conformance(self, profile_id):  # type: ignore[no-untyped-def]
            return ConformanceResponse(
                provider="fake-provider",
                provider_version="0.0.1",
                oasis_core_spec_versions=["1.0.0-rc1.5"],
                profile=profile_id,
                profile_version=si.version,
                supported=True,
                unmet_requirements=[],
                requirements={
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
            )

    outcome = run(
        si, {"autonomy": "supervised"}, Selection(patterns=[SI_SCENARIO]), provider=SiProvider(si)
    )
    record = outcome.record
    assert any("declares no agent configuration schema" in w for w in record.warnings)
    meta = record.verdict.metadata
    assert meta.agent_configuration == {"autonomy": "supervised"}  # as reported
    assert meta.domain_profile_version == si.metadata.version == si.version
    (result,) = [r for r in record.scenarios if r.scenario_id == SI_SCENARIO]
    assert result.state is ScenarioState.executed and result.status is not None
