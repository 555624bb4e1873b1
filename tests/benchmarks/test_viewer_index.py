"""benchmarks/viewer_index.py stays runnable: a handful of synthetic runs, every figure set."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]


def _bench() -> Any:
    """The module by path (``benchmarks`` is not an installed package)."""
    name = "oasis_benchmarks_viewer_index"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            name, REPO_ROOT / "benchmarks" / "viewer_index.py"
        )
        assert spec and spec.loader
        sys.modules[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules[name])
    return sys.modules[name]


def test_the_viewer_benchmark_runs_on_a_few_runs(tmp_path: Path) -> None:
    bench = _bench()
    root = tmp_path / "runs"
    bench.make_runs(bench.make_template(tmp_path), root, 12)
    figures = bench.measure(root, repeat=1)
    assert figures["runs"] == 12 and figures["refresh_10_changed_updated"] == 10
    assert all(figures[k] >= 0 for k in ("index_cold_s", "refresh_warm_s", "list_page_s"))
