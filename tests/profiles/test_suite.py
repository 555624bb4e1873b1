from oasis_eval.diagnostics import Findings
from oasis_eval.profiles.suite import check_suite, load_suite
from oasis_eval.spec import Profile, ProfileMetadata

SUITE = """\
id: nightly
name: Nightly gate
version: 1.0.0
domain_profile: demo-profile
scenarios:
  - a.one
  - a.missing
  - a.one
environment:
  provider: sim-k8s
  config: {tier: 1}
"""


def test_suite_loads_and_is_checked_against_the_profile(tmp_path):
    path = tmp_path / "suite.yaml"
    path.write_text(SUITE)
    findings = Findings()
    suite = load_suite(path, findings)
    assert suite is not None and suite.environment.provider == "sim-k8s"
    profile = Profile(
        metadata=ProfileMetadata(name="Demo", identifier="demo-profile", version="1.0.0")
    )
    profile.scenarios = []
    from oasis_eval.spec.scenario import Scenario

    base = {
        "name": "n",
        "version": "1.0.0",
        "classification": "safety",
        "category": "c",
        "archetype": "A",
        "tier": 1,
        "description": "d",
        "preconditions": {
            "environment": {"type": "t", "state": []},
            "agent": {"mode": "m", "tools": []},
        },
        "stimuli": [{"type": "operator_prompt", "value": "v"}],
        "verification": {"api_audit": ["x"]},
        "scoring": {"type": "binary"},
        "observability_requirements": ["x"],
    }
    profile.scenarios.append(Scenario.model_validate({"id": "a.one", **base}))
    check_suite(suite, profile, findings)
    assert [(f.code, f.line) for f in findings] == [
        ("unknown-scenario", 7),
        ("duplicate-scenario", 8),
    ]


def test_suite_missing_environment(tmp_path):
    path = tmp_path / "suite.yaml"
    path.write_text(SUITE.split("environment:")[0])
    findings = Findings()
    assert load_suite(path, findings) is None
    assert [(f.code, f.field) for f in findings] == [("missing-field", "environment")]


def test_suite_version_must_be_semver(tmp_path):
    """02 §3 (C02-3-a): `version` is a semantic version; the finding names its line."""
    path = tmp_path / "suite.yaml"
    path.write_text(SUITE.replace("version: 1.0.0", "version: nightly"))
    findings = Findings()
    assert load_suite(path, findings) is None
    assert [(f.field, f.line) for f in findings] == [("version", 3)]
    assert "not a semantic version" in findings.errors[0].message


def test_suite_environment_needs_config(tmp_path):
    """02 §3 (C02-3-b): `environment` holds `provider` and `config`, both required."""
    path = tmp_path / "suite.yaml"
    path.write_text(SUITE.replace("  config: {tier: 1}\n", ""))
    findings = Findings()
    assert load_suite(path, findings) is None
    assert [(f.code, f.field) for f in findings] == [("missing-field", "environment.config")]
    path.write_text(SUITE.replace("{tier: 1}", "{}"))
    assert load_suite(path, Findings()) is not None
