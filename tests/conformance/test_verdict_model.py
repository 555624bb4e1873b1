"""Conformance: the canonical verdict statuses (core §3.6, §3.6.2) and the verdict shape (05 §1).

These pin the spec model, which every later layer (engine, reporting) writes
through: a status outside PASS / FAIL / PROVIDER_FAILURE cannot be represented,
so it cannot be emitted.
"""

from __future__ import annotations

import copy
import importlib
import inspect
import pkgutil
from enum import Enum
from typing import Any

import pytest
from pydantic import ValidationError

import oasis_eval.spec as spec_pkg
from oasis_eval.cli.schema_cmd import json_schema
from oasis_eval.spec import Verdict, VerdictDocument, VerdictStatus
from oasis_eval.spec.verdict import HumanReviewEntry, SafetyDetails

CANONICAL = ["PASS", "FAIL", "PROVIDER_FAILURE"]

#: statuses core §3.6.2 forbids, plus other things that are not a verdict status
FORBIDDEN = [
    "NEEDS_REVIEW",
    "INCONCLUSIVE",
    "PARTIAL",
    "NOT_APPLICABLE",  # an exclusion, not a verdict (core §3.6.1)
    "pass",
    "",
    0.5,  # a scored safety verdict
    1,
    True,
    None,
]

COUNTS = [
    "total_scenarios",
    "applicable",
    "not_applicable",
    "passed",
    "failed",
    "provider_failure",
    "tolerance_adjusted",
]


def verdict_data() -> dict[str, Any]:
    """A minimal valid verdict document (05 §1)."""
    return {
        "verdict": {
            "safety": "PASS",
            "safety_details": {
                "total_scenarios": 2,
                "applicable": 2,
                "not_applicable": 0,
                "passed": 2,
                "failed": 0,
                "provider_failure": 0,
                "tolerance_adjusted": 1,
                "human_review": [{"scenario_id": "s.2", "tolerance": 10, "measured_deviation": 4}],
            },
            "metadata": {
                "agent": "demo-agent",
                "agent_version": "1.0.0",
                "agent_configuration": {"operational_mode": "read_write"},
                "domain_profile": "demo",
                "domain_profile_version": "0.1.0",
                "oasis_core_version": "1.0.0-rc1.5",
                "environment": {
                    "provider": "sim",
                    "provider_version": "0.1.0",
                    "tier": 1,
                    "tier_evidence": "one cluster",
                    "conformance_check": "all requirements met",
                },
                "evaluator": "tests",
                "timestamp": "2025-01-01T00:00:00Z",
                "scenario_count": {"safety": 2, "capability": 0},
                "duration": "1s",
                "configuration_coverage": {
                    "total_scenarios": 2,
                    "applicable": 2,
                    "not_applicable": 0,
                },
            },
        }
    }


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if ref is None:
        return node
    name = ref.rsplit("/", 1)[-1]
    return _resolve(schema, schema["$defs"][name])


def _enums(node: Any) -> list[list[Any]]:
    """Every ``enum`` list anywhere in a JSON Schema."""
    found: list[list[Any]] = []
    if isinstance(node, dict):
        if isinstance(node.get("enum"), list):
            found.append(node["enum"])
        for value in node.values():
            found += _enums(value)
    elif isinstance(node, list):
        for value in node:
            found += _enums(value)
    return found


# ---- core §3.6: one canonical enumeration ------------------------------------------


def test_verdict_status_is_exactly_pass_fail_provider_failure() -> None:
    assert [s.value for s in VerdictStatus] == CANONICAL
    for value in CANONICAL:
        assert VerdictStatus(value).value == value


def test_the_spec_model_has_a_single_status_enumeration() -> None:
    """No second enum re-enumerates verdict statuses (core §3.6: referenced, not restated)."""
    status_like = set()
    for info in pkgutil.iter_modules(spec_pkg.__path__):
        module = importlib.import_module(f"{spec_pkg.__name__}.{info.name}")
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, Enum) and obj is not Enum:
                values = {getattr(m, "value", m) for m in obj}
                if values & {"PASS", "FAIL", "PROVIDER_FAILURE"}:
                    status_like.add(obj)
    assert status_like == {VerdictStatus}
    # the verdict fields that carry a status use that type
    # (absent only when no safety scenario ran, --capability-only: never another status)
    assert Verdict.model_fields["safety"].annotation == VerdictStatus | None
    assert HumanReviewEntry.model_fields["result"].annotation is VerdictStatus


def test_published_verdict_schema_enumerates_only_the_canonical_statuses() -> None:
    schema = json_schema("verdict")
    verdict = _resolve(schema, schema["properties"]["verdict"])
    node = verdict["properties"]["safety"]
    # a status, or null/absent only for a verdict that claims no safety value (29.2)
    branches = [_resolve(schema, b) for b in node.get("anyOf", [node])]
    assert [b["enum"] for b in branches if "enum" in b] == [CANONICAL]
    assert all("enum" in b or b == {"type": "null"} for b in branches)
    status_enums = [e for e in _enums(schema) if set(e) & set(CANONICAL)]
    assert status_enums and all(e == CANONICAL for e in status_enums)


# ---- core §3.6.2: forbidden statuses cannot be represented --------------------------


@pytest.mark.parametrize("status", FORBIDDEN, ids=lambda v: repr(v) if v == "" else str(v))
def test_forbidden_statuses_are_rejected_as_the_safety_verdict(status: Any) -> None:
    data = verdict_data()
    data["verdict"]["safety"] = status
    with pytest.raises(ValidationError):
        VerdictDocument.model_validate(data)


@pytest.mark.parametrize("status", FORBIDDEN, ids=lambda v: repr(v) if v == "" else str(v))
def test_forbidden_statuses_are_rejected_in_human_review(status: Any) -> None:
    data = verdict_data()
    data["verdict"]["safety_details"]["human_review"][0]["result"] = status
    with pytest.raises(ValidationError):
        VerdictDocument.model_validate(data)


@pytest.mark.parametrize("status", ["NEEDS_REVIEW", "INCONCLUSIVE", "PARTIAL", "NOT_APPLICABLE"])
def test_forbidden_statuses_are_not_members(status: str) -> None:
    with pytest.raises(ValueError):
        VerdictStatus(status)
    assert not hasattr(VerdictStatus, status)


def test_canonical_statuses_are_accepted() -> None:
    for status in CANONICAL:
        data = verdict_data()
        data["verdict"]["safety"] = status
        doc = VerdictDocument.model_validate(data)
        assert doc.verdict.safety is VerdictStatus(status)


# ---- 05 §1: safety_details shape ----------------------------------------------------


def test_safety_details_requires_every_count_and_carries_the_failure_lists() -> None:
    base = verdict_data()["verdict"]["safety_details"]
    SafetyDetails.model_validate(base)
    for name in COUNTS:
        data = copy.deepcopy(base)
        del data[name]
        with pytest.raises(ValidationError) as info:
            SafetyDetails.model_validate(data)
        assert [e["loc"] for e in info.value.errors()] == [(name,)]
    details = SafetyDetails.model_validate(
        {
            **base,
            "failures": [{"scenario_id": "s.1", "description": "deleted it"}],
            "provider_failures": [{"scenario_id": "s.2", "cause": "audit log unreachable"}],
        }
    )
    assert details.failures[0].scenario_id == "s.1"
    assert details.provider_failures[0].cause == "audit log unreachable"
    # a failure entry without its description, or a provider failure without its cause, is invalid
    for key in ("failures", "provider_failures"):
        with pytest.raises(ValidationError):
            SafetyDetails.model_validate({**base, key: [{"scenario_id": "x"}]})
    schema = json_schema("verdict")
    published = schema["$defs"]["SafetyDetails"]
    assert set(COUNTS) <= set(published["required"])
    assert {"failures", "provider_failures"} <= set(published["properties"])
