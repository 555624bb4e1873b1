"""The run directory's files (issue 19 item 3): evidence stored gzip-compressed per file,
deterministically and atomically, read transparently; older uncompressed runs still read."""

from __future__ import annotations

import errno
import gzip
import json
import os
from pathlib import Path

import pytest

import oasis_eval
from oasis_eval.api.replay import replay
from oasis_eval.diagnostics import UnusableInput
from oasis_eval.engine.manifest import write_manifest
from oasis_eval.engine.rundir import evidence_bytes, evidence_files, load_run, read_run_file
from oasis_eval.evaluation.stored_evidence import evidence_from_json
from oasis_eval.files import gunzip_bytes, write_atomic


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("rundir") / "run"
    return oasis_eval.evaluate(agent="builtin:naive", out=out, quiet=True).run_dir


def test_evidence_is_gzip_with_no_name_or_time_and_replays_byte_identically(
    run_dir: Path,
) -> None:
    files = evidence_files(run_dir / "evidence")
    assert files and all(p.name.endswith(".json.gz") for p in files)
    for path in files:
        data = path.read_bytes()
        assert data[:3] == b"\x1f\x8b\x08" and data[3] == 0  # gzip, no FNAME: nothing but data
        assert data[4:8] == b"\0\0\0\0"  # mtime 0: the same evidence, the same bytes
        evidence = evidence_from_json(gzip.decompress(data))
        assert evidence_bytes(evidence) == data  # re-stored, identical
        name = path.name.removesuffix(".gz")
        assert read_run_file(run_dir, f"evidence/{name}") == gzip.decompress(data)
    report = replay(run_dir)
    assert report.identical and report.exit_code == 1  # naive FAILs, and replay says so


def test_a_run_directory_with_uncompressed_evidence_still_reads(
    run_dir: Path, tmp_path: Path
) -> None:
    import shutil

    old = tmp_path / "old"
    shutil.copytree(run_dir, old)
    for path in evidence_files(old / "evidence"):  # as runs before issue 19 wrote them
        path.with_name(path.name.removesuffix(".gz")).write_bytes(
            gzip.decompress(path.read_bytes())
        )
        path.unlink()
    write_manifest(old, None)
    assert replay(old).identical
    assert load_run(old)[2].keys() == load_run(run_dir)[2].keys()
    name = evidence_files(old / "evidence")[0].name
    assert read_run_file(old, f"evidence/{name}") == (old / "evidence" / name).read_bytes()


def test_a_run_directory_with_whole_evidence_still_replays(run_dir: Path, tmp_path: Path) -> None:
    """Evidence as runs before the stored form wrote it (whole, JSON at indent 1; main
    05231f8) replays to the same verdict, and reads back as the same evidence."""
    import shutil

    old = tmp_path / "whole"
    shutil.copytree(run_dir, old)
    for path in evidence_files(old / "evidence"):
        whole = evidence_from_json(gzip.decompress(path.read_bytes())).model_dump_json(indent=1)
        write_atomic(path, gzip.compress(whole.encode("utf-8"), mtime=0))
    write_manifest(old, None)
    assert load_run(old)[2] == load_run(run_dir)[2]
    report = replay(old)
    assert report.identical and report.exit_code == 1 and not report.problems


def test_both_forms_of_one_scenarios_evidence_are_tampering(run_dir: Path, tmp_path: Path) -> None:
    import shutil

    dup = tmp_path / "dup"
    shutil.copytree(run_dir, dup)
    packed = evidence_files(dup / "evidence")[0]
    packed.with_name(packed.name.removesuffix(".gz")).write_bytes(
        gzip.decompress(packed.read_bytes())
    )
    write_manifest(dup, None)
    report = replay(dup)
    assert report.exit_code == 5 and any("2 files hold the evidence" in p for p in report.problems)


def test_a_broken_gzip_file_is_a_clear_error_naming_it(run_dir: Path, tmp_path: Path) -> None:
    import shutil

    broken = tmp_path / "broken"
    shutil.copytree(run_dir, broken)
    victim = evidence_files(broken / "evidence")[0]
    victim.write_bytes(victim.read_bytes()[:40])  # cut short
    write_manifest(broken, None)
    with pytest.raises(UnusableInput, match=f"{victim.name}: not a complete gzip stream"):
        load_run(broken)


@pytest.mark.parametrize("inflater", ["isal", "zlib"])
def test_the_inflater_checks_every_stream_as_zlib_does(
    inflater: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Evidence is inflated by ISA-L where the wheel imports, by zlib otherwise (issue 30):
    either reads any gzip writer's stream and refuses a damaged one (its CRC-32, its length,
    its body, anything after it) as an error naming the file, never as other bytes."""
    import sys
    import zlib

    if inflater == "zlib":
        monkeypatch.setitem(sys.modules, "isal", None)  # the import fails: zlib's fallback
    data = json.dumps({"entries": [{"verb": "get", "n": n} for n in range(3000)]}).encode()
    packed = gzip.compress(data, compresslevel=6, mtime=0)
    assert gunzip_bytes(packed, "e.json.gz") == data
    assert gunzip_bytes(zlib.compress(data, wbits=31), "e.json.gz") == data
    for at in (-8, -2, len(packed) // 2):  # CRC-32, length, deflate body
        damaged = bytearray(packed)
        damaged[at] ^= 0xFF
        with pytest.raises(OSError, match=r"e\.json\.gz|not a"):
            gunzip_bytes(bytes(damaged), "e.json.gz")
    for tail in (b"junk", packed):  # trailing bytes, a second member
        with pytest.raises(OSError, match="not a complete gzip stream"):
            gunzip_bytes(packed + tail, "e.json.gz")
    with pytest.raises(OSError, match="not a complete gzip stream"):
        gunzip_bytes(packed[:-4], "e.json.gz")


def test_decompression_is_bounded() -> None:
    # 4 MiB of zeros in a few KiB: a hostile file is packed as tightly as gzip allows
    bomb = gzip.compress(b"\0" * (4 << 20), compresslevel=9, mtime=0)
    assert len(bomb) < 16 << 10
    with pytest.raises(OSError, match="expands beyond") as caught:
        gunzip_bytes(bomb, "bomb.json.gz", limit=1 << 20)
    assert caught.value.errno == errno.EFBIG
    assert gunzip_bytes(bomb, "bomb.json.gz", limit=8 << 20) == b"\0" * (4 << 20)
    with pytest.raises(OSError, match="not a gzip stream"):
        gunzip_bytes(b"{}", "plain.json.gz")


def test_evidence_is_compressed_by_isal_and_read_by_any_gzip_reader() -> None:
    # issue 30: ISA-L's deflate writes evidence (five times zlib's speed); what it writes is
    # plain gzip, read back by the standard library and by the run's own bounded reader
    from isal import igzip

    from oasis_eval.files import ISAL_LEVEL, gzip_bytes

    for data in (b"", b"{}", json.dumps({"entries": [{"verb": "get"}] * 2000}).encode()):
        packed = gzip_bytes(data)
        assert packed == igzip.compress(data, compresslevel=ISAL_LEVEL, mtime=0)
        assert packed == gzip_bytes(data)  # the same bytes every time
        assert gzip.decompress(packed) == data == gunzip_bytes(packed, "e.json.gz")
    assert len(gzip_bytes(b"x" * 100_000)) < 1_000


def test_an_atomic_write_that_fails_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "run.json"
    write_atomic(target, b'{"old": 1}')
    assert oct(target.stat().st_mode & 0o777) == "0o644"

    def fail(_src: object, _dst: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError):
        write_atomic(target, b'{"new": 2}')
    assert json.loads(target.read_bytes()) == {"old": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["run.json"]


def test_an_atomic_write_makes_a_missing_directory_and_leaves_no_temporary(tmp_path: Path) -> None:
    """The temporary file is opened first and the directory made only when it is missing
    (issue 30: no ``mkdir`` on every write); a file in the directory's place is an error."""
    target = tmp_path / "a" / "b" / "run.json"
    write_atomic(target, b"{}")
    assert target.read_bytes() == b"{}"
    assert oct(target.stat().st_mode & 0o777) == "0o644"
    assert [p.name for p in target.parent.iterdir()] == ["run.json"]
    (tmp_path / "file").write_text("x")
    with pytest.raises(OSError):
        write_atomic(tmp_path / "file" / "run.json", b"{}")
