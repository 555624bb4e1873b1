"""Profiles from Python: load one for running, validate one as ``oasis validate profile`` does."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from ..diagnostics import Finding, Findings, Severity
from ..engine.plugin_watch import judged
from ..evaluation.readiness import (
    NOT_EVALUABLE_HERE,
    PLUGIN_GAPS,
    check_evaluable,
    not_evaluable_here,
)
from ..examples import EXAMPLE_PROFILE_DIR
from ..profiles.loader import LoadResult
from ..profiles.loader import load_profile as load
from ..spec.profile import Profile
from ..validation import summarize
from ..validation import validate_profile as validate
from ..validation.result import ValidationResult

__all__ = ["check_profile", "load_profile", "validate_profile"]


def load_profile(path: str | Path | None = None) -> Profile:
    """Load a domain profile for running, checked as ``oasis run`` checks it.

    Args:
        path: a profile directory, ``profile.yaml`` or ``profile.md``; None loads the
            built-in example profile.

    Returns:
        The profile, ready to pass to :func:`oasis_eval.evaluate`.

    Raises:
        InvalidInput: the profile could not be loaded (``exc.findings`` says why).
        UnjudgeableProfile: it has errors that change which scenarios run or how they are
            judged (``exc.findings``).
        UnusableInput: the path cannot be read.

    Example:
        >>> profile = oasis_eval.load_profile()
        >>> profile.metadata.identifier  # doctest: +SKIP
        'oasis-k8s-example'
    """
    from .config import load_for_run  # the run's checks: `oasis validate` needs none of them

    profile, _defects = load_for_run(Path(path) if path is not None else EXAMPLE_PROFILE_DIR)
    return profile


def validate_profile(path: str | Path | None = None) -> ValidationResult:
    """Validate a whole profile against spec 02 and 03 (``oasis validate profile``).

    Args:
        path: a profile directory, ``profile.yaml`` or ``profile.md``; None validates the
            built-in example profile.

    Returns:
        A ``ValidationResult``: ``valid`` (no error), ``errors`` and ``warnings`` (findings
        as dicts with file, line, field, message), ``counts``. An invalid profile is a
        result, not an exception.

    Raises:
        UnusableInput: the path cannot be read at all.

    Example:
        >>> oasis_eval.validate_profile("my-profile/").valid  # doctest: +SKIP
        True
    """
    loaded, findings = check_profile(Path(path) if path is not None else EXAMPLE_PROFILE_DIR)
    return summarize(loaded.profile, findings)


def check_profile(path: Path) -> tuple[LoadResult, list[Finding]]:
    """Load + validate: the loader's findings and the validator's, deduplicated and sorted."""
    loaded = load(path)
    findings = Findings(loaded.findings)
    if loaded.profile is not None:
        findings.extend(validate(loaded.profile))
        # core §3.5.3: an assertion we cannot evaluate deterministically is reported before any run
        # (plugins' prechecks run there: each call bounded like a judgement's, issue 26)
        evaluable = judged(partial(check_evaluable, loaded.profile))
        findings.extend(f for f in evaluable if f.code not in PLUGIN_GAPS)
        missing = [f for f in evaluable if f.code in PLUGIN_GAPS]
        if missing:  # this installation lacks an evaluator: warnings, not defects (29.3)
            findings.extend(f.model_copy(update={"severity": Severity.warning}) for f in missing)
            findings.warning(NOT_EVALUABLE_HERE, not_evaluable_here(missing), file=str(path))
    return loaded, unique_findings(findings)


def unique_findings(findings: list[Finding]) -> list[Finding]:
    """``findings`` without repeats, sorted."""
    seen: dict[tuple[object, ...], Finding] = {}
    for f in findings:
        seen.setdefault((f.severity, f.code, f.file, f.line, f.field, f.message), f)
    return sorted(seen.values(), key=Finding.sort_key)
