"""``oasis profile fetch`` treats its source as untrusted (issue 26 item 5): what it unpacks is
bounded in size and file count, and the whole fetch has a wall-clock deadline. No network: the
http source is a loopback server in this process."""

from __future__ import annotations

import io
import socket
import tarfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from oasis_eval.api.profile_fetch import FetchError, Limits, fetch_profile
from oasis_eval.profiles.cache import CACHE_ENV

from ..support import run_cli

NAME = "software-infrastructure"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(path))
    return path


def _bomb(path: Path, size: int) -> Path:
    """A small .tar.gz holding one file of ``size`` zero bytes (it compresses ~1000:1)."""

    class Zeros:
        left = size

        def read(self, n: int = -1) -> bytes:
            n = self.left if n < 0 else min(n, self.left)
            self.left -= n
            return bytes(n)

    with tarfile.open(path, "w:gz", compresslevel=1) as tar:
        info = tarfile.TarInfo(f"profiles/{NAME}/big.bin")
        info.size = size
        tar.addfile(info, Zeros())  # type: ignore[arg-type]
    return path


def test_an_archive_unpacking_past_the_size_bound_installs_nothing(
    cache: Path, tmp_path: Path
) -> None:
    archive = _bomb(tmp_path / "bomb.tar.gz", 64 * 1024 * 1024)
    assert archive.stat().st_size < 1024 * 1024  # a small archive ...
    limits = Limits(max_bytes=16 * 1024 * 1024)  # ... over a (lowered) bound
    with pytest.raises(FetchError, match="unpacks to more than 16 MiB"):
        fetch_profile(NAME, str(archive), limits=limits)
    assert not (cache / NAME).exists()
    assert [p for p in cache.rglob("*") if p.is_file()] == []  # nothing extracted, nothing left


def test_an_archive_with_too_many_files_installs_nothing(cache: Path, tmp_path: Path) -> None:
    archive = tmp_path / "many.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for i in range(60):
            info = tarfile.TarInfo(f"profiles/{NAME}/f{i}.txt")
            tar.addfile(info, io.BytesIO())
    with pytest.raises(FetchError, match="more than 50 files"):
        fetch_profile(NAME, str(archive), limits=Limits(max_files=50))
    assert not (cache / NAME).exists()


def test_the_cli_bounds_default_and_options(cache: Path, tmp_path: Path, capsys) -> None:
    archive = _bomb(tmp_path / "bomb.tar.gz", 3 * 1024 * 1024)
    code, _, err = run_cli(capsys, "profile", "fetch", "--from", archive, "--max-size", "2")
    assert code == 2 and "unpacks to more than 2 MiB" in err
    assert Limits().max_bytes == 200 * 1024 * 1024 and Limits().max_files == 20_000


@pytest.fixture
def trickle() -> Iterator[str]:
    """An http server on loopback answering every request with one byte every 50 ms: each read
    is quick, only a deadline on the whole download ends it."""
    server = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve(conn: socket.socket) -> None:
        with conn:
            conn.recv(65536)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n")
            while not stop.is_set():
                try:
                    conn.sendall(b"\x1f")
                except OSError:
                    return
                stop.wait(0.05)

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=serve, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    host, port = server.getsockname()
    yield f"http://{host}:{port}/oasis-spec.tar.gz"
    stop.set()
    server.close()


def test_a_trickling_http_source_ends_at_the_deadline(cache: Path, trickle: str, capsys) -> None:
    started = time.monotonic()
    with pytest.raises(FetchError, match=r"did not finish within the fetch deadline of 0\.5 s"):
        fetch_profile(NAME, trickle, limits=Limits(deadline=0.5))
    assert time.monotonic() - started < 10
    code, _, err = run_cli(capsys, "profile", "fetch", "--from", trickle, "--deadline", "0.4")
    assert code == 2 and "deadline of 0.4 s" in err and trickle in err
    assert not (cache / NAME).exists()
