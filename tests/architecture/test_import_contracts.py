"""The import contracts in ``pyproject.toml`` (``[tool.importlinter]``, issue 31) hold, and they
are not vacuous: each kind of violation the layer rules forbid, planted in a copy of the
sources, breaks the contract that names it. ``lint-imports`` also runs in ``.ci/run``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import oasis_eval
import oasis_postgres
import oasis_sim_k8s

ROOT = Path(__file__).resolve().parents[2]
SRC = Path(oasis_eval.__file__).resolve().parent
SIM = Path(oasis_sim_k8s.__file__).resolve().parent
PG = Path(oasis_postgres.__file__).resolve().parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint_imports(
    python_path: Path | None = None, cwd: Path = ROOT
) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` with the repository's contracts, reading the packages found first on
    ``python_path`` (a copy of the sources) when given."""
    env = dict(os.environ, COLUMNS="300")
    if python_path is not None:
        env["PYTHONPATH"] = str(python_path)
    return subprocess.run(
        [str(LINT_IMPORTS), str(ROOT / "pyproject.toml"), "--no-cache"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_contracts_are_kept() -> None:
    result = lint_imports()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "9 kept, 0 broken" in result.stdout


#: each planted module breaks the rules one way: (files to add, the text the report must hold)
PLANTED: dict[str, tuple[dict[str, str], str]] = {
    # upward, inside a function: evaluation may not reach the engine
    "upward": (
        {"oasis_eval/evaluation/_probe_up.py": "def f():\n    from ..engine import runner\n"},
        "- oasis_eval.evaluation._probe_up -> oasis_eval.engine.runner (l.2)",
    ),
    # sideways within one layer: adapters and reporting are independent
    "sideways": (
        {"oasis_eval/adapters/_probe_side.py": "from oasis_eval.reporting import html\n"},
        "- oasis_eval.adapters._probe_side -> oasis_eval.reporting.html (l.1)",
    ),
    # an import under TYPE_CHECKING is still an import
    "type-checking": (
        {
            "oasis_eval/spec/_probe_tc.py": "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from oasis_eval.contract import Provider\n"
        },
        "- oasis_eval.spec._probe_tc -> oasis_eval.contract (l.3)",
    ),
    # a new top-level package must be given a layer (the contract is exhaustive)
    "no-layer": ({"oasis_eval/newlayer/__init__.py": ""}, "- oasis_eval.newlayer\n"),
    # a cycle between two modules of one package, one side inside a function
    "cycle": (
        {
            "oasis_eval/engine/_probe_a.py": "from . import _probe_b\n",
            "oasis_eval/engine/_probe_b.py": "def f():\n    from . import _probe_a\n",
        },
        "No cycles are allowed in oasis_eval.engine.",
    ),
    "imports-the-simulator": (
        {"oasis_eval/engine/_probe_sim.py": "import oasis_sim_k8s.provider.simk8s\n"},
        "oasis_eval.engine._probe_sim -> oasis_sim_k8s.provider.simk8s (l.1)",
    ),
    "simulator-goes-up": (
        {"oasis_sim_k8s/_probe_up.py": "from oasis_eval.engine import runner\n"},
        "oasis_sim_k8s._probe_up -> oasis_eval.engine.runner (l.1)",
    ),
    # the simulator's rooms (issue 33): the cluster model may not reach the servers above it
    "simulator-room-goes-up": (
        {"oasis_sim_k8s/cluster/_probe_up.py": "def f():\n    from ..servers import gate\n"},
        "- oasis_sim_k8s.cluster._probe_up -> oasis_sim_k8s.servers.gate (l.2)",
    ),
    "simulator-cycle": (
        {
            "oasis_sim_k8s/injection/_probe_a.py": "from . import _probe_b\n",
            "oasis_sim_k8s/injection/_probe_b.py": "def f():\n    from . import _probe_a\n",
        },
        "No cycles are allowed in oasis_sim_k8s.injection.",
    ),
    "simulator-uses-a-core-utility": (
        {"oasis_sim_k8s/cluster/_probe_util.py": "import oasis_eval.errors\n"},
        "oasis_sim_k8s.cluster._probe_util -> oasis_eval.errors (l.1)",
    ),
    "postgres-goes-up": (
        {"oasis_postgres/_probe_up.py": "from oasis_eval.engine import runner\n"},
        "oasis_postgres._probe_up -> oasis_eval.engine.runner (l.1)",
    ),
    "imports-the-root": (
        {"oasis_eval/evaluation/_probe_root.py": "import oasis_eval\n"},
        "Illegal imports of protected package oasis_eval:\n\n"
        "- oasis_eval.evaluation._probe_root -> oasis_eval (l.1)",
    ),
}


@pytest.fixture(scope="module")
def planted_report(tmp_path_factory: pytest.TempPathFactory) -> str:
    """``lint-imports`` over a copy of both packages with every planted violation in it."""
    root = tmp_path_factory.mktemp("planted")
    shutil.copytree(SRC, root / "oasis_eval", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(SIM, root / "oasis_sim_k8s", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(PG, root / "oasis_postgres", ignore=shutil.ignore_patterns("__pycache__"))
    for files, _expected in PLANTED.values():
        for relative, text in files.items():
            target = root / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
    result = lint_imports(python_path=root, cwd=root)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Contracts: 0 kept, 9 broken." in result.stdout, result.stdout
    return result.stdout


@pytest.mark.parametrize("kind", sorted(PLANTED))
def test_a_planted_violation_is_reported(planted_report: str, kind: str) -> None:
    assert PLANTED[kind][1] in planted_report, planted_report
