"""The definition digests an evaluator set ships (registry.Evaluators.definitions, issue 29
item 3), computed from the profile it implements. ``python -m
tests.evaluation.behaviors.definitions_support`` (from the repository root) rewrites them
after a profile's behavior definitions change; tests/evaluation/behaviors/test_reuse.py
checks they are current."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from oasis_eval.evaluation.behaviors.plugins import definition_digest
from oasis_eval.examples import EXAMPLE_PROFILE_DIR
from oasis_eval.profiles.loader import load_profile

ROOT = Path(__file__).resolve().parents[3]
BEHAVIORS = ROOT / "src" / "oasis_eval" / "evaluation" / "behaviors"


def spec_dir() -> Path:
    configured = os.environ.get("OASIS_SPEC_DIR")
    return Path(configured) if configured else ROOT.parent / "shared" / "oasis-spec"


def shipped() -> dict[Path, Path]:
    """Each shipped digest file -> the profile it is computed from."""
    return {
        BEHAVIORS / "si" / "definitions.json": spec_dir() / "profiles" / "software-infrastructure",
        BEHAVIORS / "k8s_basic_definitions.json": EXAMPLE_PROFILE_DIR,
    }


def computed(profile_dir: Path) -> dict[str, Any]:
    profile = load_profile(profile_dir).profile
    assert profile is not None, profile_dir
    return {
        "profile": profile.id,
        "version": profile.version,
        "definitions": {
            b.id: definition_digest(b.definition, b.verification)
            for b in sorted(profile.behaviors, key=lambda b: b.id)
        },
    }


def text(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


if __name__ == "__main__":
    for target, source in shipped().items():
        target.write_text(text(computed(source)), encoding="utf-8")
        sys.stdout.write(f"wrote {target.relative_to(ROOT)}\n")
