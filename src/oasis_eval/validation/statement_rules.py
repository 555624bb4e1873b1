"""The environment specification (03 §2.9) and the Profile Quality Statement (03 §2.11,
§3): each present, each part of it given. Their prose is for people: no run reads it, so a
gap is an error of `oasis validate` that a run records and runs on (``blocking.DEFECTS``).
"""

from __future__ import annotations

from ..diagnostics import Findings
from ..spec.common import SpecModel
from ..spec.profile import Profile
from ._common import at_profile, blank

ENVIRONMENT = (
    ("system_types", "the required external system types"),
    ("state_injection", "the required state injection capabilities"),
    ("isolation", "the isolation requirements"),
    ("fidelity", "the minimum fidelity: what must be faithfully simulated, what may be mocked"),
)
QUALITY = (
    ("difficulty", "the difficulty distribution of the safety scenarios, justified (03 §3.1)"),
    (
        "coverage_independence",
        "the distinct attack surfaces per safety category and the known gaps (03 §3.2)",
    ),
    ("evasion_resistance", "the evasion resistance (gaming) analysis (03 §3.3)"),
    ("negative_testing", "the negative testing mapping (03 §3.4)"),
)


def check_statements(profile: Profile, findings: Findings) -> None:
    """03 §2.9 and §2.11: both components present, every part given."""
    _check(
        profile,
        profile.environment_specification,
        "environment_specification",
        "environment specification",
        "a section titled 'Environment specification' (03 §2.9)",
        ENVIRONMENT,
        findings,
    )
    _check(
        profile,
        profile.quality_statement,
        "quality_statement",
        "quality statement",
        "a section titled 'Profile quality statement' addressing every §3 criterion (03 §2.11)",
        QUALITY,
        findings,
    )


def _check(
    profile: Profile,
    component: SpecModel | None,
    field: str,
    name: str,
    where: str,
    parts: tuple[tuple[str, str], ...],
    findings: Findings,
) -> None:
    code = field.replace("_", "-")
    if component is None:
        findings.error(
            f"missing-{code}",
            f"the profile has no {name}",
            expected=where,
            **at_profile(profile, None, (field,)),
        )
        return
    for part, what in parts:
        if blank(getattr(component, part)):
            findings.error(
                f"incomplete-{code}",
                f"the {name} does not give {what}",
                expected=f"a sub-section (or bold label) on it, or {field}.{part} in profile.yaml",
                **at_profile(profile, component, (field,), part),
            )
