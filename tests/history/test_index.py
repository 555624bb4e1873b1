"""The SQLite run index (issue 19 item 2): found recursively, re-read only when changed."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from oasis_eval.diagnostics import UnusableInput
from oasis_eval.history.index import INDEX_NAME, SCHEMA, RunIndex, discover


@pytest.fixture
def root(tmp_path: Path, example_run: Path) -> Path:
    """Two runs, one nested two levels down, plus a hidden and a non-run directory."""
    shutil.copytree(example_run, tmp_path / "one")
    shutil.copytree(example_run, tmp_path / "team" / "nightly" / "two")
    shutil.copytree(example_run, tmp_path / ".trash" / "hidden")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "readme.txt").write_text("not a run", encoding="utf-8")
    return tmp_path


def test_runs_are_found_recursively_and_summarised(root: Path) -> None:
    index = RunIndex(root)
    stats = index.refresh()
    assert (stats.added, stats.unchanged, stats.removed) == (2, 0, 0)
    assert index.db_path == root / INDEX_NAME
    runs = index.runs()
    assert sorted(r.path for r in runs) == ["one", "team/nightly/two"]
    run = index.get("one")
    assert run is not None and not run.error
    assert run.safety == "PASS" and run.agent and run.profile and run.timestamp
    assert run.overall is not None and run.dimensions and run.categories and run.tier == 1
    assert run.passed > 0 and run.vacuous >= 0
    assert index.count("nightly") == 1 and index.count("no-such-agent") == 0
    assert index.count("%") == 0  # LIKE wildcards are matched literally


def test_only_changed_runs_are_read_again(root: Path) -> None:
    index = RunIndex(root)
    index.refresh()
    assert index.refresh().unchanged == 2
    verdict = root / "one" / "verdict.json"
    verdict.write_text(verdict.read_text(encoding="utf-8").replace('"PASS"', '"FAIL"', 1))
    stats = index.refresh()
    assert (stats.updated, stats.unchanged) == (1, 1)
    broken = index.get("one")
    assert broken is not None and broken.safety == "UNREADABLE"
    assert "verdict" in broken.error  # a FAIL with capability scores breaks 05 §1
    shutil.rmtree(root / "team")
    assert index.refresh().removed == 1
    assert [r.path for r in index.runs()] == ["one"]


def test_a_reopened_index_keeps_its_rows(root: Path) -> None:
    RunIndex(root).refresh()
    assert RunIndex(root).refresh().unchanged == 2


def test_symbolic_links_are_not_followed(
    root: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    outside = tmp_path_factory.mktemp("outside")
    shutil.copytree(root / "one", outside / "run")
    os.symlink(outside, root / "link")
    assert sorted(discover(root)) == ["one", "team/nightly/two"]


def test_a_damaged_index_file_is_rebuilt(root: Path) -> None:
    (root / INDEX_NAME).write_bytes(b"this is not a database" * 100)
    index = RunIndex(root)
    assert index.refresh().added == 2
    with sqlite3.connect(root / INDEX_NAME) as db:
        assert db.execute("SELECT COUNT(*) FROM runs").fetchone() == (2,)


def test_a_root_that_is_not_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UnusableInput, match="not a directory"):
        RunIndex(tmp_path / "missing")


def test_a_read_only_root_indexes_into_the_cache(
    root: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    index = RunIndex(root)
    assert index.db_path.parent == cache / "oasis-eval"
    assert index.refresh().added == 2


def test_a_run_directory_as_root_keeps_its_manifest_intact(
    example_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Viewing one run must not add a file to it: its manifest would no longer match."""
    from oasis_eval.engine.manifest import Integrity, verify_manifest

    run = tmp_path / "run"
    shutil.copytree(example_run, run)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    index = RunIndex(run)
    assert index.refresh().added == 1 and [r.path for r in index.runs()] == ["."]
    assert not index.db_path.is_relative_to(run)
    assert verify_manifest(run, None).integrity is Integrity.unsigned


@pytest.mark.parametrize("schema", ["0", SCHEMA])
def test_an_index_of_another_schema_is_rebuilt(root: Path, schema: str) -> None:
    """Another schema version, or this version's number over other columns."""
    with sqlite3.connect(root / INDEX_NAME) as db:
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("INSERT INTO meta VALUES ('schema', ?)", (schema,))
        db.execute("CREATE TABLE runs (path, signature, PRIMARY KEY (path))")
        db.execute("INSERT INTO runs VALUES ('one', 'old')")
    db.close()
    index = RunIndex(root)
    assert index.refresh().added == 2
    assert index.get("one") is not None
