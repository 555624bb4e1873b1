"""The native profile layout: one ``profile.yaml`` holding the profile as structured data.

``profile.yaml`` is the :class:`Profile` model dumped to YAML (every field but
``scenarios``), plus two keys of its own:

- ``format: oasis-eval/profile/v1`` — identifies the layout;
- ``scenario_paths`` — glob patterns, relative to the profile directory, of the
  multi-document scenario files (default ``scenarios/**/*.yaml``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from ..diagnostics import Findings, UnusableInput
from ..spec.profile import Profile
from ..spec.yaml_io import load_single
from .paths import CODE, EXPECTED, confined_files, pattern_problem
from .scenarios import load_scenario_file, validate_model

FORMAT = "oasis-eval/profile/v1"
PROFILE_FILE = "profile.yaml"
DEFAULT_SCENARIO_PATHS = ("scenarios/**/*.yaml",)


def load_native_profile(root: Path, findings: Findings) -> Profile | None:
    """Load ``root/profile.yaml`` and its scenario files; ``None`` when profile.yaml is invalid."""
    doc = load_single(root / PROFILE_FILE, findings)
    doc.file = PROFILE_FILE
    data = doc.data
    if not isinstance(data, dict):
        raise UnusableInput(
            "profile.yaml must be a mapping", file=str(root / PROFILE_FILE), line=doc.line
        )
    data = dict(data)
    fmt = data.pop("format", None)
    if fmt is not None and fmt != FORMAT:
        findings.error(
            "unknown-format",
            f"unknown profile format '{fmt}'",
            file=PROFILE_FILE,
            line=doc.locations.get(("format",)),
            field="format",
            expected=FORMAT,
        )
    patterns = data.pop("scenario_paths", list(DEFAULT_SCENARIO_PATHS))
    if "scenarios" in data:
        findings.error(
            "inline-scenarios",
            "scenarios live in scenario files, not in profile.yaml",
            file=PROFILE_FILE,
            line=doc.locations.get(("scenarios",)),
            field="scenarios",
            expected="scenario_paths globs pointing at scenario YAML files",
        )
        data.pop("scenarios")
    profile = validate_model(Profile, data, doc, findings)
    if profile is None:
        return None
    profile.scenarios = load_scenarios(root, _patterns(patterns, doc, findings), findings)
    return profile


def load_scenarios(root: Path, patterns: list[str], findings: Findings) -> list[Any]:
    """Scenarios of the files ``patterns`` match under ``root``; a pattern matching nothing is a warning."""
    files: set[Path] = set()
    for pattern in patterns:
        matched = sorted(root.glob(pattern))
        if not matched:
            findings.warning(
                "no-scenario-files",
                f"scenario pattern '{pattern}' matches no file",
                file=PROFILE_FILE,
                field="scenario_paths",
            )
        files.update(p for p in matched if not p.is_dir())  # FIFOs, devices: confined_files says so
    scenarios = []
    files = set(confined_files(root, sorted(files), findings))
    for path in sorted(files):
        scenarios.extend(
            load_scenario_file(path, findings, display=path.relative_to(root).as_posix())
        )
    return scenarios


def _patterns(value: Any, doc: Any, findings: Findings) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        kept = []
        for i, pattern in enumerate(value):
            problem = pattern_problem(pattern)
            if problem is None:
                kept.append(pattern)
                continue
            findings.error(
                CODE,
                f"scenario_paths: {problem}",
                file=PROFILE_FILE,
                expected=EXPECTED,
                line=doc.locations.get(("scenario_paths", i))
                or doc.locations.get(("scenario_paths",)),
                field=f"scenario_paths[{i}]",
            )
        return kept
    findings.error(
        "invalid-type",
        "scenario_paths must be a list of glob patterns",
        file=PROFILE_FILE,
        line=doc.locations.get(("scenario_paths",)),
        field="scenario_paths",
    )
    return list(DEFAULT_SCENARIO_PATHS)


def dump_profile_yaml(profile: Profile) -> str:
    """Serialize a profile (without scenarios) to native ``profile.yaml`` text."""
    data: dict[str, Any] = {"format": FORMAT}
    # exclude_defaults is lossless (a reload restores every default) and keeps
    # meaningful nulls, e.g. minimum_coverage None = "all archetypes"
    data.update(profile.model_dump(mode="json", exclude={"scenarios"}, exclude_defaults=True))
    # ... but a tier's minimum coverage equal to the model's default is still a statement
    # (core §5: a profile MUST define it per tier; left out, it is `missing-coverage`)
    for tier, dumped in zip(
        profile.complexity_tiers, data.get("complexity_tiers", []), strict=True
    ):
        dumped["minimum_coverage"] = tier.minimum_coverage.model_dump(
            mode="json", exclude={"notes"} if not tier.minimum_coverage.notes else None
        )
    data["scenario_paths"] = list(DEFAULT_SCENARIO_PATHS)
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


def dump_scenarios_yaml(scenarios: list[Any]) -> str:
    """Scenarios as one multi-document YAML text, in the order given."""
    # exclude_unset keeps a loaded scenario exactly as its author wrote it
    docs = [s.model_dump(mode="json", exclude_unset=True) for s in scenarios]
    return yaml.safe_dump_all(
        docs, sort_keys=False, allow_unicode=True, width=100, explicit_start=True
    )
