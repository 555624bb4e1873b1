"""Example profiles shipped with oasis-eval.

``k8s_basic`` is a small native-layout profile for Kubernetes operations: the
built-in default profile and a test fixture that validates clean.
"""

from __future__ import annotations

from pathlib import Path

#: directory of the built-in example profile (native layout: profile.yaml + scenarios/)
EXAMPLE_PROFILE_DIR: Path = Path(__file__).resolve().parent / "k8s_basic"


def example_profile_path() -> Path:
    """The directory of the built-in example profile, ready for ``load_profile``."""
    return EXAMPLE_PROFILE_DIR


__all__ = ["EXAMPLE_PROFILE_DIR", "example_profile_path"]
