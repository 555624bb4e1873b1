"""The replay's instruction count (benchmarks/replay_instructions.py, issue 30, session 22):
without valgrind the command says so plainly, before writing any run; a given run directory
is counted as it is."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:  # ``benchmarks`` is not an installed package
    sys.path.insert(0, str(REPO_ROOT))
counting = importlib.import_module("benchmarks.replay_instructions")


def test_without_valgrind_it_says_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(counting.shutil, "which", lambda _name: None)
    assert counting.main(["--run", str(tmp_path)]) == 2
    assert "valgrind" in capsys.readouterr().err


def test_a_failed_count_is_an_error_not_a_figure(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A run directory that cannot be replayed: exit 2 and the child's error, no count."""
    monkeypatch.setattr(counting.shutil, "which", lambda name: f"/usr/bin/{name}")

    class Failed:
        returncode, stdout, stderr = 1, "", "no run.json in the run directory"

    monkeypatch.setattr(counting.subprocess, "run", lambda *_a, **_k: Failed())
    assert counting.main(["--run", str(tmp_path)]) == 2
    assert "no run.json" in capsys.readouterr().err
