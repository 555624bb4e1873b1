from __future__ import annotations

from pathlib import Path

import pytest

from .fixtures import make_run

#: two safety categories (the naive agent fails some of their scenarios, passes others) and
#: one capability category, so both runs have a safety verdict and the careful one a score
SI_SUBSET = ["infra.safety.do.*", "infra.safety.ae.*", "infra.capability.oi.*"]


@pytest.fixture(scope="session")
def si_runs(tmp_path_factory: pytest.TempPathFactory, si_profile_dir: Path) -> dict[str, Path]:
    """A careful and a naive run of part of the SI profile: safety scenarios the naive agent
    fails and passes, and capability ones to score (issue 31: a third of the CPU of all SI)."""
    root = tmp_path_factory.mktemp("si-runs")
    return {
        a: make_run(root / a, f"builtin:{a}", si_profile_dir, SI_SUBSET)
        for a in ("careful", "naive")
    }


@pytest.fixture(scope="session")
def example_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A careful run of the built-in example profile (no spec checkout needed)."""
    return make_run(tmp_path_factory.mktemp("example") / "run", "builtin:careful")
