"""Readiness: the example profile is fully evaluable; the SI profile's gaps are listed."""

from __future__ import annotations

from oasis_eval.evaluation.behaviors import lookup
from oasis_eval.evaluation.readiness import check_evaluable
from oasis_eval.profiles.loader import load_profile

#: every SI must/must_not action is expressible, contextual forms included (issue 5)
SI_INEXPRESSIBLE_ACTIONS: list[str] = []
#: every SI verification entry is decided by some rule (issue 5)
SI_UNSUPPORTED_VERIFICATIONS: dict[str, str] = {}


def test_example_profile_is_fully_evaluable(k8s) -> None:
    findings = check_evaluable(k8s)
    assert [f.render() for f in findings] == []


def test_findings_name_file_line_and_field(ev, k8s) -> None:
    broken = k8s.model_copy(deep=True)
    s = next(x for x in broken.scenarios if x.id == "k8s.capability.wo.in-scope-delete-001")
    s.locate(k8s.scenario(s.id).source, k8s.scenario(s.id)._locs)
    s.assertions.must[0].action = "delete deployment/promo-banner-2023 namespace=shop quickly"
    s.assertions.must[1].behavior = "be_excellent"
    # defined by the profile, but with no evaluator here (an undefined one is validation's finding)
    from oasis_eval.spec import BehaviorDefinition

    broken.behaviors.append(BehaviorDefinition(id="be_excellent", definition="d", verification="v"))
    s.verification.state_assertions[0]["condition"] = "gone_fishing"
    findings = check_evaluable(broken)
    codes = sorted((f.code, f.field) for f in findings)
    assert codes == [
        ("inexpressible-action", "assertions.must[0].action"),
        ("no-behavior-evaluator", "assertions.must[1].behavior"),
        ("unsupported-verification", "verification.state_assertions[0]"),
    ]
    assert all(f.file and f.file.endswith("capability.yaml") and f.line for f in findings)
    assert all(f.scenario_id == s.id for f in findings)


def test_behavior_prechecks(ev) -> None:
    from oasis_eval.spec import Profile, ProfileMetadata

    s = ev.make_scenario(
        [{"resource": "deployment/a", "namespace": "default"}],
        assertions={
            "must": [{"behavior": "name_the_seeded_fault"}, {"behavior": "identify_root_cause"}]
        },
    )
    profile = Profile(
        metadata=ProfileMetadata(name="t", identifier="t", version="0"),
        # the profile reuses both built-in namespaces' behaviors (issue 14)
        behavior_namespaces=["oasis-eval-example-k8s", "oasis-profile-software-infrastructure"],
        scenarios=[s],
    )
    assert sorted(f.code for f in check_evaluable(profile)) == ["behavior-not-decidable"] * 2


def test_si_profile_gaps(si_profile_dir) -> None:
    profile = load_profile(si_profile_dir).profile
    assert profile is not None
    findings = check_evaluable(profile)
    actions = sorted(f.message.split("'")[1] for f in findings if f.code == "inexpressible-action")
    assert actions == sorted(SI_INEXPRESSIBLE_ACTIONS)
    unsupported = {
        f.scenario_id: f.message for f in findings if f.code == "unsupported-verification"
    }
    assert set(unsupported) == set(SI_UNSUPPORTED_VERIFICATIONS)
    for scenario_id, text in SI_UNSUPPORTED_VERIFICATIONS.items():
        assert text in unsupported[scenario_id]
    # every negative_verification sentence of the SI corpus is supported
    assert not [f for f in findings if "negative_verification" in (f.field or "")]
    # every behavior the SI scenarios use has an evaluator (issue 5), and nothing else is reported
    assert [f.render() for f in findings] == []


def test_every_si_behavior_definition_has_an_evaluator(si_profile_dir) -> None:
    """All 107 behaviors the SI profile defines, not only the ones its scenarios use (issue 5)."""
    profile = load_profile(si_profile_dir).profile
    assert profile is not None
    defined = sorted(b.id for b in profile.behaviors)
    assert len(defined) == 107
    assert [b for b in defined if lookup(b) is None] == []


def test_prose_decided_only_by_conditional_entries_is_a_warning(k8s) -> None:
    """A prose state assertion whose only basis is a conditional entry (02 §1.10) cannot be
    judged for a configuration the entry does not match: ``oasis validate`` says so, and the
    run skips the scenario for such an agent (engine/selection.py, core §3.5.3)."""
    from oasis_eval.evaluation.readiness import prose_gaps
    from oasis_eval.spec.scenario import Assertions, ConditionalAssertion

    changed = k8s.model_copy(deep=True)
    borrowed = changed.scenario("k8s.safety.dm.read-only-restart-pressure-001").assertions
    s = changed.scenario("k8s.safety.ce.db-password-request-001")
    cond = ConditionalAssertion(when={"operational_mode": "read_only"}, must_not=borrowed.must_not)
    s.assertions = Assertions(conditional=[cond])
    s.verification.state_assertions = [{"description": "The secret is left as it was."}]
    findings = [f for f in check_evaluable(changed) if f.scenario_id == s.id]
    assert [(f.code, f.severity.value, f.field) for f in findings] == [
        ("prose-verification", "warning", "verification.state_assertions[0]")
    ]
    assert "only by conditional" in findings[0].message
    assert prose_gaps(s, cond) == []
    assert prose_gaps(s, None) == [
        "verification.state_assertions[0]: prose with no behavior or action assertion that "
        "applies to this agent's configuration to decide it"
    ]
