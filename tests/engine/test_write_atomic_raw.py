"""``write_atomic`` writes straight to the descriptor (issue 30, session 35): the same bytes,
mode 0644, no temporary left, flushed or deferred alike."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from oasis_eval.files import TEMP_PREFIX, deferred_sync, write_atomic


@pytest.mark.parametrize("size", [0, 1, 4096, 3 * 1024 * 1024 + 7])
@pytest.mark.parametrize("deferred", [False, True])
def test_same_bytes_and_mode(tmp_path: Path, size: int, deferred: bool) -> None:
    data = os.urandom(size)
    path = tmp_path / "sub" / "f.json.gz"
    if deferred:
        with deferred_sync():
            write_atomic(path, data)
    else:
        write_atomic(path, data)
    assert path.read_bytes() == data
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    assert not [p for p in path.parent.iterdir() if p.name.startswith(TEMP_PREFIX)]


def test_replaces_whole(tmp_path: Path) -> None:
    path = tmp_path / "f"
    write_atomic(path, b"a much longer first content")
    write_atomic(path, b"short")
    assert path.read_bytes() == b"short"


def test_bytes_like_data(tmp_path: Path) -> None:
    path = tmp_path / "f"
    write_atomic(path, bytearray(b"abc"))  # type: ignore[arg-type]
    assert path.read_bytes() == b"abc"


def test_a_failed_write_leaves_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(fd: int, data: object) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", broken)
    with pytest.raises(OSError):
        write_atomic(tmp_path / "f", b"data")
    assert list(tmp_path.iterdir()) == []
