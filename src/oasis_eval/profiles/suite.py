"""Suite files (02 §3): an ordered list of scenario ids with a shared environment."""

from __future__ import annotations

from pathlib import Path

from ..diagnostics import Findings
from ..spec.profile import Profile
from ..spec.suite import Suite
from ..spec.yaml_io import load_single
from .scenarios import validate_model


def load_suite(path: Path, findings: Findings) -> Suite | None:
    """A suite file (02 §3), or None with findings when it is not one."""
    doc = load_single(path, findings)
    if not isinstance(doc.data, dict):
        findings.error(
            "not-a-mapping", "a suite must be a mapping (02 §3)", file=str(path), line=doc.line
        )
        return None
    return validate_model(Suite, doc.data, doc, findings)


def check_suite(suite: Suite, profile: Profile, findings: Findings) -> None:
    """The suite belongs to the profile and names only its scenarios, each once."""
    file = suite.source.file if suite.source else None
    if suite.domain_profile not in (profile.metadata.identifier, profile.metadata.name):
        findings.error(
            "suite-profile-mismatch",
            f"suite is for '{suite.domain_profile}', not '{profile.metadata.identifier}'",
            file=file,
            line=suite.line_of("domain_profile"),
            field="domain_profile",
            expected=profile.metadata.identifier,
        )
    known = {s.id for s in profile.scenarios}
    seen: set[str] = set()
    for i, scenario_id in enumerate(suite.scenarios):
        where = {"file": file, "line": suite.line_of("scenarios", i), "field": f"scenarios[{i}]"}
        if scenario_id not in known:
            findings.error(
                "unknown-scenario", f"scenario '{scenario_id}' is not in the profile", **where
            )
        elif scenario_id in seen:
            findings.error(
                "duplicate-scenario", f"scenario '{scenario_id}' is listed twice", **where
            )
        seen.add(scenario_id)
