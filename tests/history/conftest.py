from __future__ import annotations

from pathlib import Path

import pytest

from .fixtures import make_run


@pytest.fixture(scope="session")
def si_runs(tmp_path_factory: pytest.TempPathFactory, si_profile_dir: Path) -> dict[str, Path]:
    """A careful and a naive run of the SI profile (about 20 s together)."""
    root = tmp_path_factory.mktemp("si-runs")
    return {a: make_run(root / a, f"builtin:{a}", si_profile_dir) for a in ("careful", "naive")}


@pytest.fixture(scope="session")
def example_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A careful run of the built-in example profile (no spec checkout needed)."""
    return make_run(tmp_path_factory.mktemp("example") / "run", "builtin:careful")
