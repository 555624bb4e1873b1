"""03 §2.17.1 and core §5, as `oasis validate profile` sees them (issue: conformance rows).

A profile's MUSTs that used to warn are errors: each key's meaning, failure mode and
verification method, a worked conformant and a worked non-conformant response, the
conformance schema, the minimum coverage of every complexity tier. Errors a run records
(they change no scenario or judgement, `validation.blocking.DEFECTS`), never a refusal; the
official SI profile gives none of them.
"""

from __future__ import annotations

from pathlib import Path

from oasis_eval.api.profiles import check_profile
from oasis_eval.diagnostics import Finding, Severity
from oasis_eval.validation.blocking import DEFECTS, split

from .test_oasis_spec_layout import CONTRACT_MD, PROFILE_MD, write_profile

NEW_ERRORS = {
    "incomplete-requirement",
    "missing-worked-example",
    "missing-conformance-schema",
    "missing-coverage",
    "incomplete-metadata",
    "missing-category-description",
}

KEY_FIELDS = """\
The number of bins the provider can stage.

**Type:** integer
**Valid values:** `1`, `2`, `3`

**Failure modes the runner catches.** A provider staging fewer bins than it declares fails
provisioning on the first scenario, a PROVIDER_FAILURE that aborts the run.

**Verification method.** The runner compares the declared count at preflight.
"""

NOT_CONFORMANT = """\
## 6. Non-conformant example

```json
{"profile": "toy-bins", "profile_version": "1.2.3", "supported": false,
 "requirements": {"bin_count": 1},
 "unmet_requirements": [{"requirement": "bin_count", "reason": "1 bin, 2 required"}]}
```
"""

COMPLETE_MD = (
    CONTRACT_MD.replace("The number of bins the provider can stage.\n", KEY_FIELDS)
    + "\n"
    + NOT_CONFORMANT
)


def _new(findings: list[Finding]) -> list[tuple[str, str, str | None, str | None]]:
    return sorted(
        (f.code, f.severity.value, f.file, f.field) for f in findings if f.code in NEW_ERRORS
    )


def test_a_complete_contract_reads_each_keys_fields_from_its_section(tmp_path: Path) -> None:
    loaded, findings = check_profile(
        write_profile(tmp_path, **{"provider-conformance.md": COMPLETE_MD})
    )
    assert _new(findings) == []
    contract = loaded.profile.conformance
    req = contract.requirements["bin_count"]
    assert req.failure_mode.startswith("A provider staging fewer bins")
    assert req.failure_mode.endswith("aborts the run.")  # continuation lines joined
    assert req.verification == "The runner compares the declared count at preflight."
    assert req.valid_values == "`1`, `2`, `3`"
    assert req.description == "Bins the provider can stage."  # the YAML's own wins
    assert [e.get("supported", True) for e in contract.examples] == [True, False]


def test_a_key_without_failure_mode_or_verification_is_an_error(tmp_path: Path) -> None:
    text = COMPLETE_MD.replace("**Verification method.**", "Also:").replace(
        "**Failure modes the runner catches.**", "Then:"
    )
    _, findings = check_profile(write_profile(tmp_path, **{"provider-conformance.md": text}))
    found = [f for f in findings if f.code == "incomplete-requirement"]
    assert sorted((f.severity.value, f.file, f.field) for f in found) == [
        (
            "error",
            "provider-conformance-requirements.yaml",
            "conformance.requirements.bin_count.failure_mode",
        ),
        (
            "error",
            "provider-conformance-requirements.yaml",
            "conformance.requirements.bin_count.verification",
        ),
    ]
    assert all("'bin_count' section of provider-conformance.md" in f.expected for f in found)


def test_a_contract_without_a_non_conformant_example_is_an_error(tmp_path: Path) -> None:
    text = COMPLETE_MD.replace(NOT_CONFORMANT, "")
    _, findings = check_profile(write_profile(tmp_path, **{"provider-conformance.md": text}))
    (err,) = [f for f in findings if f.code in NEW_ERRORS]
    assert (err.code, err.severity, err.file) == (
        "missing-worked-example",
        Severity.error,
        "provider-conformance.md",
    )
    assert "non-conformant" in err.message and "unmet_requirements" in (err.expected or "")


def test_a_contract_without_its_schema_is_an_error(tmp_path: Path) -> None:
    start = COMPLETE_MD.index("## 4. Conformance schema")
    end = COMPLETE_MD.index("## 5. Example")
    text = COMPLETE_MD[:start] + COMPLETE_MD[end:]
    _, findings = check_profile(write_profile(tmp_path, **{"provider-conformance.md": text}))
    assert _new(findings) == [
        ("missing-conformance-schema", "error", "provider-conformance.md", None)
    ]


def test_a_tier_without_minimum_coverage_is_an_error(tmp_path: Path) -> None:
    text = PROFILE_MD.replace("- All capability categories: ≥1 archetype per category\n", "", 1)
    _, findings = check_profile(
        write_profile(tmp_path, **{"profile.md": text, "provider-conformance.md": COMPLETE_MD})
    )
    (err,) = [f for f in findings if f.code in NEW_ERRORS]
    assert (err.code, err.severity, err.file) == ("missing-coverage", Severity.error, "profile.md")
    assert "tier 1" in err.message and "capability" in err.message


def test_the_new_errors_are_defects_a_run_records_never_a_refusal(tmp_path: Path) -> None:
    text = CONTRACT_MD  # no failure mode, verification or non-conformant example
    _, findings = check_profile(write_profile(tmp_path, **{"provider-conformance.md": text}))
    gate = split(findings)
    assert not [f.code for f in gate.blocking if f.code in NEW_ERRORS]
    assert {f.code for f in gate.defects} >= {"incomplete-requirement", "missing-worked-example"}
    assert set(DEFECTS) >= NEW_ERRORS


def test_the_official_si_profile_meets_every_new_rule(si_profile_dir: Path) -> None:
    loaded, findings = check_profile(si_profile_dir)
    assert _new(findings) == []
    contract = loaded.profile.conformance
    assert all(r.failure_mode and r.verification for r in contract.requirements.values())
