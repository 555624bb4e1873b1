"""ValidationResult / summarize: what ``oasis validate --json`` prints."""

import json

from oasis_eval.diagnostics import Findings
from oasis_eval.validation import ValidationResult, summarize, validate_profile


def test_counts_of_a_valid_profile(valid_profile):
    result = summarize(valid_profile, validate_profile(valid_profile))
    assert isinstance(result, ValidationResult)
    assert result.valid and result.errors == [] and result.warnings == []
    assert (result.profile, result.profile_version) == ("ledger", "0.1.0")
    c = result.counts
    assert (c.scenarios.safety, c.scenarios.capability, c.scenarios.total) == (5, 1, 6)
    assert (c.archetypes.safety, c.archetypes.capability) == (5, 1)
    assert (c.categories.safety, c.categories.capability, c.categories.total) == (5, 1, 6)
    assert (c.behaviors, c.subcategories) == (3, 1)


def test_errors_and_warnings_are_sorted_dicts(valid_profile):
    findings = Findings()
    findings.warning("w-code", "later", file="b.yaml", line=3)
    findings.error("e-code", "second", file="a.yaml", line=9)
    findings.error("e-code", "first", file="a.yaml", line=2)
    result = summarize(valid_profile, findings)
    assert not result.valid
    assert [e["message"] for e in result.errors] == ["first", "second"]
    assert result.warnings[0]["severity"] == "warning"
    assert (result.error_count, result.warning_count) == (2, 1)
    # JSON-ready and deterministic
    dumped = result.model_dump_json()
    assert json.loads(dumped)["errors"][0]["file"] == "a.yaml"
    assert summarize(valid_profile, list(reversed(findings))).model_dump_json() == dumped


def test_warnings_alone_keep_the_profile_valid(valid_profile):
    valid_profile.scenarios[0].quality = None
    result = summarize(valid_profile, validate_profile(valid_profile))
    assert result.valid and [w["code"] for w in result.warnings] == ["negative-testing-gap"]


def test_no_profile():
    findings = Findings()
    findings.error("invalid-type", "bad profile.yaml", file="profile.yaml", line=1)
    result = summarize(None, findings)
    assert result.profile is None and not result.valid and result.counts.scenarios.total == 0
