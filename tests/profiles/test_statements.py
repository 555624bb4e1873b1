"""03 §2.9 environment specification and §2.11 Profile Quality Statement (with §3's
criteria): found by content, read part by part, a missing one or a missing part an error."""

from __future__ import annotations

from pathlib import Path

from oasis_eval.api.profiles import check_profile
from oasis_eval.profiles.loader import load_profile

from .test_oasis_spec_layout import PROFILE_MD, write_profile

CODES = {
    "missing-environment-specification",
    "incomplete-environment-specification",
    "missing-quality-statement",
    "incomplete-quality-statement",
}

STATEMENTS = """
## 10. Environment requirements

### 10.1 Required system types

A shelf service with bins.

### 10.2 State injection capabilities

Bins with their contents, before the agent starts.

### 10.3 Isolation

A shelf per scenario.

### 10.4 Minimum fidelity

Bin moves are real; the warehouse clock may be mocked.

## 11. Profile quality statement

**Difficulty distribution:** plain requests only, justified by the toy's size.

**Coverage independence:** one attack surface per category; gaps: none known.

**Negative testing:** every safety archetype pairs with a sorting skill.

### 11.1 Evasion resistance statement

An agent refusing every move loses the sorting skill's score.
"""


def _found(findings: list) -> list[tuple[str, str, str | None]]:  # type: ignore[type-arg]
    return sorted((f.code, f.severity.value, f.field) for f in findings if f.code in CODES)


def test_both_are_read_from_headings_and_bold_labels(tmp_path: Path) -> None:
    root = write_profile(tmp_path, **{"profile.md": PROFILE_MD + STATEMENTS})
    loaded, findings = check_profile(root)
    assert _found(findings) == []
    env, quality = loaded.profile.environment_specification, loaded.profile.quality_statement
    assert (env.system_types, env.isolation) == (
        "A shelf service with bins.",
        "A shelf per scenario.",
    )
    assert env.state_injection.startswith("Bins") and env.fidelity.startswith("Bin moves")
    assert quality.difficulty.startswith("plain requests only")
    assert quality.coverage_independence.startswith("one attack surface")
    assert quality.evasion_resistance.startswith("An agent refusing every move")
    assert quality.negative_testing.startswith("every safety archetype")
    assert env.source.file == quality.source.file == "profile.md"


def test_a_profile_without_them_is_an_error_naming_the_section(tmp_path: Path) -> None:
    _, findings = check_profile(write_profile(tmp_path))
    errors = [f for f in findings if f.code in CODES]
    assert _found(errors) == [
        ("missing-environment-specification", "error", "environment_specification"),
        ("missing-quality-statement", "error", "quality_statement"),
    ]
    assert "03 §2.9" in errors[0].expected and "03 §2.11" in errors[1].expected


def test_a_missing_part_is_an_error_naming_the_part(tmp_path: Path) -> None:
    text = PROFILE_MD + STATEMENTS.replace("### 10.3 Isolation", "### 10.3 Tenancy").replace(
        "### 11.1 Evasion resistance statement", "### 11.1 Further remarks"
    )
    _, findings = check_profile(write_profile(tmp_path, **{"profile.md": text}))
    assert _found(findings) == [
        ("incomplete-environment-specification", "error", "environment_specification.isolation"),
        ("incomplete-quality-statement", "error", "quality_statement.evasion_resistance"),
    ]
    assert all(f.file == "profile.md" for f in findings if f.code in CODES)


def test_the_official_si_profile_gives_every_part(si_profile_dir: Path) -> None:
    profile = load_profile(si_profile_dir).profile
    env, quality = profile.environment_specification, profile.quality_statement
    assert env is not None and quality is not None
    assert all(
        getattr(env, p) for p in ("system_types", "state_injection", "isolation", "fidelity")
    )
    assert quality.evasion_resistance.startswith("**Pattern-matchable signals")
    assert all(
        getattr(quality, p)
        for p in ("difficulty", "coverage_independence", "evasion_resistance", "negative_testing")
    )
    _, findings = check_profile(si_profile_dir)
    assert _found(findings) == []
