"""Verdict document I/O (spec 05 §1): shape, key order, schema validation, round trip."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from oasis_eval.reporting import (
    VerdictFileError,
    load_verdict,
    validate_verdict_data,
    verdict_data,
    verdict_json,
    verdict_yaml,
)

SPEC_VERDICT_KEYS = [
    "safety",
    "safety_details",
    "capability",
    "metadata",
    "adversarial_verification",
]
SPEC_METADATA_KEYS = [
    "agent",
    "agent_version",
    "agent_configuration",
    "domain_profile",
    "domain_profile_version",
    "oasis_core_version",
    "environment",
    "evaluator",
    "timestamp",
    "scenario_count",
    "duration",
    "configuration_coverage",
    "aborted",
    "abort_reason",
]
SPEC_DETAILS_KEYS = [
    "total_scenarios",
    "applicable",
    "not_applicable",
    "passed",
    "failed",
    "provider_failure",
    "tolerance_adjusted",
    "failures",
    "provider_failures",
    "subcategory_results",
    "human_review",
]


def _in_spec_order(keys: list[str], spec: list[str]) -> bool:
    return all(k in spec for k in keys) and keys == [k for k in spec if k in keys]


def test_every_fixture_validates_and_round_trips(any_record, tmp_path: Path) -> None:
    verdict = any_record.verdict
    for name, text in (
        ("verdict.yaml", verdict_yaml(verdict)),
        ("verdict.json", verdict_json(verdict)),
    ):
        data = yaml.safe_load(text) if name.endswith("yaml") else json.loads(text)
        assert validate_verdict_data(data) == []
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        loaded = load_verdict(path)
        assert loaded == verdict
        # bytes are stable through a round trip
        assert (verdict_yaml(loaded) if name.endswith("yaml") else verdict_json(loaded)) == text


def test_key_order_follows_spec(build) -> None:
    data = verdict_data(build.pass_record().verdict)
    assert list(data) == ["verdict"]
    body = data["verdict"]
    assert _in_spec_order(list(body), SPEC_VERDICT_KEYS)
    assert _in_spec_order(list(body["metadata"]), SPEC_METADATA_KEYS)
    assert _in_spec_order(list(body["safety_details"]), SPEC_DETAILS_KEYS)
    text = verdict_yaml(build.pass_record().verdict)
    positions = [text.index(f"\n  {key}:") for key in body]
    assert positions == sorted(positions)


def test_absent_optional_blocks_are_omitted(build) -> None:
    fail = verdict_data(build.fail_record().verdict)["verdict"]
    assert "capability" not in fail
    assert "adversarial_verification" not in fail
    assert "abort_reason" not in fail["metadata"]
    assert fail["metadata"]["aborted"] is False
    assert "null" not in verdict_yaml(build.fail_record().verdict)

    aborted = verdict_data(build.aborted_record().verdict)["verdict"]
    assert aborted["metadata"]["aborted"] is True
    assert aborted["metadata"]["abort_reason"].startswith("runtime provider fault")
    assert aborted["safety"] == "FAIL"  # FAIL before the abort wins (core §3.6)

    passed = verdict_data(build.pass_record().verdict)["verdict"]
    assert passed["capability"]["tier"] == 2
    assert "auditability" not in passed["capability"]["core_dimensions"]

    adversarial = verdict_data(build.adversarial_record().verdict)["verdict"]
    assert adversarial["adversarial_verification"]["performed"] is True


def test_enums_are_plain_strings(build) -> None:
    text = verdict_yaml(build.adversarial_record().verdict)
    assert "safety: PASS\n" in text
    assert "type: llm" in text
    assert "!!python" not in text
    assert "VerdictStatus" not in verdict_json(build.fail_record().verdict)


def test_output_is_deterministic(build) -> None:
    record = build.not_applicable_record()
    assert verdict_yaml(record.verdict) == verdict_yaml(build.not_applicable_record().verdict)
    assert verdict_json(record.verdict) == verdict_json(build.not_applicable_record().verdict)
    assert verdict_json(record.verdict).endswith("}\n")


@pytest.fixture
def good_data(build) -> dict:
    return verdict_data(build.pass_record().verdict)


def test_schema_rejects_missing_and_unknown_keys(good_data: dict) -> None:
    missing = copy.deepcopy(good_data)
    del missing["verdict"]["metadata"]["evaluator"]
    assert any("evaluator" in e for e in validate_verdict_data(missing))

    extra = copy.deepcopy(good_data)
    extra["verdict"]["safety_details"]["needs_review"] = 1
    assert any("needs_review" in e for e in validate_verdict_data(extra))


def test_schema_rejects_forbidden_status(good_data: dict) -> None:
    bad = copy.deepcopy(good_data)
    bad["verdict"]["safety"] = "INCONCLUSIVE"
    errors = validate_verdict_data(bad)
    assert errors and errors[0].startswith("verdict/safety")


def test_rules_beyond_the_schema(good_data: dict) -> None:
    capability_on_fail = copy.deepcopy(good_data)
    capability_on_fail["verdict"]["safety"] = "FAIL"
    assert any("capability" in e for e in validate_verdict_data(capability_on_fail))

    aborted_without_reason = copy.deepcopy(good_data)
    aborted_without_reason["verdict"]["metadata"]["aborted"] = True
    assert any("abort_reason" in e for e in validate_verdict_data(aborted_without_reason))

    reason_without_abort = copy.deepcopy(good_data)
    reason_without_abort["verdict"]["metadata"]["abort_reason"] = "x"
    assert any("abort_reason" in e for e in validate_verdict_data(reason_without_abort))


def test_load_verdict_reports_invalid_files(tmp_path: Path, good_data: dict) -> None:
    bad = copy.deepcopy(good_data)
    bad["verdict"]["safety"] = "NEEDS_REVIEW"
    path = tmp_path / "verdict.yaml"
    path.write_text(yaml.safe_dump(bad), encoding="utf-8")
    with pytest.raises(VerdictFileError, match="verdict/safety"):
        load_verdict(path)
    path.write_text("verdict: [unclosed", encoding="utf-8")
    with pytest.raises(VerdictFileError, match="cannot read"):
        load_verdict(path)
    with pytest.raises(VerdictFileError):
        load_verdict(tmp_path / "missing.yaml")


# ---- failure entries name the violated assertion and its evidence (issue 19) ----------------


def _failed_result(evidence: list[str]):  # type: ignore[no-untyped-def]
    from oasis_eval.evaluation.results import (
        AssertionKind,
        AssertionResult,
        ScenarioResult,
        ScenarioState,
    )
    from oasis_eval.spec.common import VerdictStatus

    def check(passed: bool, source: str, expectation: str) -> AssertionResult:
        return AssertionResult(
            kind=AssertionKind.action,
            source=source,
            expectation=expectation,
            passed=passed,
            rule="audit:forbidden-action",
            evidence=evidence if not passed else ["no matching call"],
        )

    return ScenarioResult(
        scenario_id="S-DO-001",
        name="destroys",
        classification="safety",
        category="c1",
        archetype="A1",
        state=ScenarioState.executed,
        status=VerdictStatus.FAIL,
        assertions=[
            check(True, "assertions.must[0]", "must action: get pods"),
            check(False, "assertions.must_not[0]", "must_not action: delete pod/*"),
        ],
    )


def test_failure_entries_name_the_violated_assertion_and_evidence(build) -> None:
    from oasis_eval.evaluation.aggregate import safety_details
    from oasis_eval.spec import Profile

    profile = Profile.model_validate({"metadata": {"name": "T", "identifier": "t", "version": "1"}})
    lines = [f"2024-05-14T09:30:1{i}Z sa:agent delete pods/p{i} ns=default" for i in range(6)]
    lines.insert(0, "[REDACTED:0a1b2c3d4e5f] found in agent_response at offset 3")
    details = safety_details([_failed_result(lines)], profile)
    record = build.fail_record()
    record.verdict.safety_details.failures = details.failures
    data = verdict_data(record.verdict)
    (entry,) = data["verdict"]["safety_details"]["failures"]
    assert list(entry) == ["scenario_id", "description", "violated"]  # 05 §1 keys first
    (violated,) = entry["violated"]  # only the violated one, not every assertion
    assert violated["where"] == "assertions.must_not[0]"
    assert violated["assertion"] == "must_not action: delete pod/*"
    assert violated["rule"] == "audit:forbidden-action"
    # at most five lines; a marker loses its keyed hash (the run key never reaches a verdict)
    assert violated["evidence"] == [
        "[REDACTED] found in agent_response at offset 3",
        *lines[1:5],
        "... and 2 more line(s) in run.json",
    ]
    assert validate_verdict_data(data) == []
    assert "violated:" in verdict_yaml(record.verdict)


def test_failure_entries_without_the_extension_still_validate(good_data: dict) -> None:
    data = copy.deepcopy(good_data)
    data["verdict"]["safety_details"]["failures"] = [{"scenario_id": "S-1", "description": "x"}]
    assert validate_verdict_data(data) == []
    data["verdict"]["safety_details"]["failures"][0]["violated"] = [{"where": "x"}]
    errors = validate_verdict_data(data)
    assert errors and all("violated" in e for e in errors)


def test_the_verdict_schema_is_a_valid_json_schema() -> None:
    """What ``validate_verdict_data`` validates against is a JSON Schema of the draft it names
    (a pure function of the model: checked here, not by every process; issue 30)."""
    import jsonschema

    from oasis_eval.engine.verdict_io import _validator, verdict_schema

    schema = verdict_schema()
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    cls.check_schema(schema)
    assert type(_validator()) is cls
    assert _validator().schema == schema


def test_verdict_yaml_is_pyyaml_s_own_layout(build: Any) -> None:
    """verdict.yaml through libyaml (spec/yaml_dump.py, issue 30) is the bytes
    ``yaml.safe_dump`` writes, for every record the report tests build."""
    args = {"sort_keys": False, "allow_unicode": True, "default_flow_style": False}
    makers = [
        make
        for make in vars(build).values()
        if callable(make) and make.__name__.endswith("_record") and make.__name__ != "make_record"
    ]
    assert len(makers) >= 7
    for make in makers:
        verdict = make().verdict
        expected = yaml.safe_dump(verdict_data(verdict), width=100_000, indent=2, **args)
        assert verdict_yaml(verdict) == expected, make.__name__
