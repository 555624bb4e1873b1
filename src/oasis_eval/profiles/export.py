"""Convert a loaded profile to the native layout (``oasis profile export``).

The export is the user's own copy, generated on their machine. It records the
source profile version and, for a git checkout, the commit it came from
(08 §5.3: copies must say exactly what they were copied from).
"""

from __future__ import annotations

import subprocess
from collections import defaultdict
from pathlib import Path

from ..diagnostics import UnusableInput
from ..spec.profile import Profile
from ..spec.scenario import Scenario
from .native import PROFILE_FILE, dump_profile_yaml, dump_scenarios_yaml


def git_commit(path: Path) -> str | None:
    """The HEAD commit of the git checkout holding ``path``, or None (no git, not a checkout)."""
    try:
        out = subprocess.run(
            ["git", "-C", str(path), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    commit = out.stdout.strip()
    return commit if out.returncode == 0 and len(commit) == 40 else None


def export_native(
    profile: Profile, source_root: Path, dest: Path, force: bool = False
) -> list[Path]:
    """Write ``profile`` to ``dest`` in the native layout; returns the files written."""
    if dest.exists() and any(dest.iterdir()) and not force:
        raise UnusableInput(
            "destination exists and is not empty (use --force to overwrite)", file=str(dest)
        )
    exported = profile.model_copy(deep=True)
    meta = exported.metadata
    meta.source_profile_version = (
        profile.metadata.source_profile_version or profile.metadata.version
    )
    meta.source_commit = profile.metadata.source_commit or git_commit(source_root)
    meta.source_path = profile.metadata.source_path or str(source_root.resolve())
    dest.mkdir(parents=True, exist_ok=True)
    written = [dest / PROFILE_FILE]
    (dest / PROFILE_FILE).write_text(dump_profile_yaml(exported), encoding="utf-8")
    for rel, scenarios in sorted(_group_by_file(profile.scenarios).items()):
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(dump_scenarios_yaml(scenarios), encoding="utf-8")
        written.append(target)
    return written


def _group_by_file(scenarios: list[Scenario]) -> dict[str, list[Scenario]]:
    """Keep the source's file grouping; files outside ``scenarios/`` are placed under it."""
    groups: dict[str, list[Scenario]] = defaultdict(list)
    for scenario in scenarios:
        src = scenario.source.file if scenario.source else f"{scenario.classification.value}.yaml"
        rel = Path(src)
        if rel.is_absolute() or ".." in rel.parts:
            rel = Path(rel.name)
        if rel.parts[:1] != ("scenarios",):
            rel = Path("scenarios") / rel
        groups[rel.as_posix()].append(scenario)
    return groups
