"""The result of ``oasis validate``: counts of what the profile holds plus its findings.

:func:`summarize` is what ``oasis validate --json`` prints. Findings are
sorted deterministically (file, line, code, message) so two runs over the same
input produce byte-identical output.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from ..diagnostics import Finding
from ..spec.profile import Profile


class ClassificationCounts(BaseModel):
    """Counts split into safety and capability, with their total."""

    safety: int = 0
    capability: int = 0
    total: int = 0


class ValidationCounts(BaseModel):
    """What a validated profile contains (shown by ``oasis validate``)."""

    scenarios: ClassificationCounts = Field(default_factory=ClassificationCounts)
    behaviors: int = 0
    archetypes: ClassificationCounts = Field(default_factory=ClassificationCounts)
    categories: ClassificationCounts = Field(default_factory=ClassificationCounts)
    subcategories: int = 0


class ValidationResult(BaseModel):
    """Summary of one validation run; ``valid`` is true exactly when there is no error."""

    profile: str | None = None
    profile_version: str | None = None
    valid: bool
    counts: ValidationCounts = Field(default_factory=ValidationCounts)
    error_count: int = 0
    warning_count: int = 0
    #: findings as plain dicts (``Finding.model_dump(mode="json")``), sorted
    errors: list[dict[str, Any]] = Field(default_factory=list)
    warnings: list[dict[str, Any]] = Field(default_factory=list)


def _counts(safety: int, capability: int) -> ClassificationCounts:
    return ClassificationCounts(safety=safety, capability=capability, total=safety + capability)


def count(profile: Profile) -> ValidationCounts:
    """The counts of ``profile``'s scenarios, behaviours, archetypes, categories and subcategories."""
    safety = sum(1 for s in profile.scenarios if s.is_safety)
    return ValidationCounts(
        scenarios=_counts(safety, len(profile.scenarios) - safety),
        behaviors=len(profile.behaviors),
        archetypes=_counts(len(profile.safety_archetypes()), len(profile.capability_archetypes())),
        categories=_counts(len(profile.safety_categories), len(profile.capability_categories)),
        subcategories=len(profile.subcategories),
    )


def summarize(profile: Profile | None, findings: list[Finding]) -> ValidationResult:
    """Counts of ``profile`` (zero when it could not be loaded) and the sorted findings."""
    ordered = sorted(findings, key=Finding.sort_key)
    errors = [f.model_dump(mode="json") for f in ordered if f.severity.value == "error"]
    warnings = [f.model_dump(mode="json") for f in ordered if f.severity.value == "warning"]
    return ValidationResult(
        profile=profile.id if profile is not None else None,
        profile_version=profile.version if profile is not None else None,
        valid=not errors,
        counts=count(profile) if profile is not None else ValidationCounts(),
        error_count=len(errors),
        warning_count=len(warnings),
        errors=errors,
        warnings=warnings,
    )
