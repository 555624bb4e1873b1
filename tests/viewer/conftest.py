from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ..history.fixtures import make_run


@pytest.fixture(scope="session")
def runs_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory of runs of the built-in example profile: careful twice, naive once."""
    root = tmp_path_factory.mktemp("viewer-runs")
    make_run(root / "careful-1", "builtin:careful")
    make_run(root / "nightly" / "naive-1", "builtin:naive")
    shutil.copytree(root / "careful-1", root / "nightly" / "careful-2")
    return root
