"""The finished run's manifest lists each evidence file with the digest its journal record
already holds (issue 30, session 37: each byte hashed once), never a digest of other bytes:
the manifest is the one a full scan gives, and a file changed after it was written is
still caught by the next check (which always hashes the files)."""

from __future__ import annotations

from pathlib import Path

import pytest

from oasis_eval import evaluate, replay
from oasis_eval.engine import manifest
from oasis_eval.engine.journal_log import evidence_entry
from oasis_eval.engine.manifest import (
    Integrity,
    file_entry,
    listed_files,
    scan,
    verify_manifest,
    write_manifest,
)
from oasis_eval.engine.rundir import EVIDENCE


def test_a_run_hashes_no_evidence_file_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hashed: list[str] = []
    real = manifest._sha256

    def counted(path: Path) -> str:
        hashed.append(path.parent.name + "/" + path.name)
        return real(path)

    monkeypatch.setattr(manifest, "_sha256", counted)
    evaluate(None, "builtin:careful", out=tmp_path / "run", quiet=True)
    monkeypatch.setattr(manifest, "_sha256", real)
    run = tmp_path / "run"
    evidence = sorted(f"{EVIDENCE}/{p.name}" for p in (run / EVIDENCE).iterdir())
    assert evidence and not [h for h in hashed if h.startswith(EVIDENCE + "/")]
    assert hashed  # the reports and the run's other files are hashed as before
    assert listed_files(run) == scan(run)[0]  # the very manifest a full scan gives
    assert verify_manifest(run, None).integrity is Integrity.unsigned
    assert replay(run).identical


def test_evidence_entry_is_the_manifests_file_entry() -> None:
    for data in (b"", b"x", bytes(range(256)) * 300):
        assert evidence_entry(data) == file_entry(data)


def _run_dir(tmp_path: Path) -> Path:
    run = tmp_path / "run"
    (run / EVIDENCE).mkdir(parents=True)
    (run / EVIDENCE / "a.json.gz").write_bytes(b"written bytes")
    (run / "run.json").write_bytes(b"{}")
    return run


def test_known_digests_equal_a_full_scan(tmp_path: Path) -> None:
    run = _run_dir(tmp_path)
    known = {f"{EVIDENCE}/a.json.gz": file_entry(b"written bytes")}
    assert scan(run, known) == scan(run)


def test_a_known_entry_of_another_size_is_not_used(tmp_path: Path) -> None:
    run = _run_dir(tmp_path)
    known = {f"{EVIDENCE}/a.json.gz": file_entry(b"other")}
    assert scan(run, known) == scan(run)
    write_manifest(run, None, known)
    assert verify_manifest(run, None).integrity is Integrity.unsigned


def test_a_file_changed_after_it_was_written_is_caught(tmp_path: Path) -> None:
    """The known digest is of the bytes written; the file changed since (same size): the
    manifest vouches for what was written, and the next check finds the change."""
    run = _run_dir(tmp_path)
    known = {f"{EVIDENCE}/a.json.gz": file_entry(b"written bytes")}
    (run / EVIDENCE / "a.json.gz").write_bytes(b"WRITTEN BYTES")
    write_manifest(run, None, known)
    check = verify_manifest(run, None)
    assert check.integrity is Integrity.tampered
    assert check.modified == [f"{EVIDENCE}/a.json.gz"]
