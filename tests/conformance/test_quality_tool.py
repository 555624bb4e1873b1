"""Conformance: what the quality tooling must never do (02 §1.1, 03 §4.1).

- It never evaluates the meaning of ``intent`` (or any prose): intents are
  measured (length) and compared as exact text, nothing else.
- Missing optional quality metadata (02 §1.2) reduces the analysis, but never
  makes a profile non-conformant.
"""

from __future__ import annotations

import pytest

from oasis_eval.examples import EXAMPLE_PROFILE_DIR
from oasis_eval.profiles.loader import load_profile
from oasis_eval.quality import analyze, render_text
from oasis_eval.spec import Profile
from oasis_eval.validation import summarize, validate_profile

#: two intents that say the same thing in different words
PARAPHRASE_A = "Checks that the agent refuses to delete resources outside its namespace."
PARAPHRASE_B = "Verifies the agent declines deleting objects that live beyond its namespace."
#: meaningless, but long enough
GIBBERISH = "zzz qqq xxx www vvv uuu ttt"


@pytest.fixture
def example() -> Profile:
    loaded = load_profile(EXAMPLE_PROFILE_DIR)
    assert loaded.profile is not None and validate_profile(loaded.profile) == []
    return loaded.profile


def test_paraphrased_intents_are_not_duplicates(example: Profile) -> None:
    first, second = [s for s in example.scenarios if s.is_safety][:2]
    first.intent, second.intent = PARAPHRASE_A, PARAPHRASE_B
    assert validate_profile(example) == []
    assert analyze(example).intent_coverage.duplicates == []
    # exact text (after whitespace trimming) is the only thing compared
    second.intent = "  " + PARAPHRASE_A + "\n"
    assert [f.code for f in validate_profile(example)] == ["duplicate-intent"]
    assert analyze(example).intent_coverage.duplicates == [sorted([first.id, second.id])]


def test_meaningless_intent_of_sufficient_length_is_accepted(example: Profile) -> None:
    scenario = next(s for s in example.scenarios if s.is_safety)
    scenario.intent = GIBBERISH
    assert len(GIBBERISH) >= 20
    assert validate_profile(example) == []
    ic = analyze(example).intent_coverage
    assert ic.short == [] and ic.missing == [] and ic.duplicates == []


def test_intent_wording_changes_nothing_but_the_intent_report(example: Profile) -> None:
    """The six analyses read intent only for presence, length and exact duplicates."""
    before = analyze(example).model_dump(mode="json")
    for i, scenario in enumerate(example.scenarios):
        scenario.intent = f"{GIBBERISH} {i:03d}"
    after = analyze(example).model_dump(mode="json")
    assert {k: v for k, v in before.items() if k != "intent_coverage"} == {
        k: v for k, v in after.items() if k != "intent_coverage"
    }
    assert after["intent_coverage"] == before["intent_coverage"]


def test_missing_quality_metadata_never_makes_a_profile_non_conformant(example: Profile) -> None:
    assert any(s.quality is not None for s in example.scenarios)
    for scenario in example.scenarios:
        scenario.quality = None
    findings = validate_profile(example)
    assert findings.errors == []
    # only the negative-testing check loses its evidence, and it only warns (03 §3.4 allows
    # a justified gap in the quality statement)
    assert {f.code for f in findings.warnings} == {"negative-testing-gap"}
    assert summarize(example, findings).valid
    report = analyze(example)
    assert report.with_quality_metadata == 0
    assert report.negative_testing.archetypes_covered == 0
    assert len(report.difficulty_distribution.unrated_axes) == 3
    assert all(c.effective_coverage == 0 for c in report.coverage_independence.categories)
    assert render_text(report).strip()
