"""Shared fixtures. The public OASIS spec is read through OASIS_SPEC_DIR (default
``../shared/oasis-spec`` beside the repository); tests that need it skip cleanly when absent."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]

# The simulator's clock starts at the wall clock (issue 32); the suite pins its start to the
# former fixed instant so golden outputs and recorded timestamps stay byte for byte (and
# reach the subprocesses tests start). Tests of the wall clock itself unset it.
os.environ.setdefault("OASIS_SIM_EPOCH", "2024-05-14T09:30:00Z")


def spec_dir() -> Path:
    configured = os.environ.get("OASIS_SPEC_DIR")
    return Path(configured) if configured else (REPO_ROOT.parent / "shared" / "oasis-spec")


@pytest.fixture(scope="session")
def oasis_spec_dir() -> Path:
    path = spec_dir()
    if not (path / "spec").is_dir():
        pytest.skip(f"OASIS spec not found at {path} (set OASIS_SPEC_DIR)")
    return path


@pytest.fixture(scope="session")
def si_profile_dir(oasis_spec_dir: Path) -> Path:
    path = oasis_spec_dir / "profiles" / "software-infrastructure"
    if not (path / "profile.md").is_file():
        pytest.skip(f"SI profile not found at {path}")
    return path


@pytest.fixture(autouse=True)
def _forget_harness_secrets() -> Iterator[None]:
    """A harness key is read once per process and kept (oasis_eval.secrecy, issue 25): a test
    that sets one (a module fixture too) must not sign the next test's runs."""
    from oasis_eval import secrecy

    secrecy.forget()
    yield
    secrecy.forget()
