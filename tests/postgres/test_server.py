"""The embedded server leaves nothing behind: stopped and removed at the end, on SIGTERM, and
reaped by the next run after its owner was SIGKILLed (oasis_postgres.server)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

import oasis_postgres.server as server_module
from oasis_postgres.server import REGISTRY, EmbeddedServer, reap, server_parent

STARTER = """
import json, sys, time
from oasis_postgres.server import EmbeddedServer
server = EmbeddedServer().start()
print(json.dumps({"root": str(server.root), "pid": server.postmaster_pid}), flush=True)
time.sleep(600)
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return (
        Path(f"/proc/{pid}").exists()
        and "Z" not in Path(f"/proc/{pid}/stat").read_text().split()[2]
    )


def start_owner() -> tuple[subprocess.Popen[str], Path, int]:
    owner = subprocess.Popen([sys.executable, "-c", STARTER], stdout=subprocess.PIPE, text=True)
    assert owner.stdout is not None
    info = json.loads(owner.stdout.readline())
    return owner, Path(info["root"]), int(info["pid"])


def gone(pid: int, root: Path, seconds: float = 15.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not alive(pid) and not root.exists():
            return True
        time.sleep(0.1)
    return False


def test_stop_leaves_no_process_and_no_directory() -> None:
    server = EmbeddedServer().start()
    pid, root = server.postmaster_pid, server.root
    assert pid is not None and alive(pid) and server.running
    server.stop()
    assert gone(pid, root) and not server.record.exists()
    server.stop()  # idempotent


def test_sigterm_to_the_owner_stops_its_server() -> None:
    owner, root, pid = start_owner()
    owner.send_signal(signal.SIGTERM)
    owner.wait(timeout=30)
    assert gone(pid, root)


def test_a_forked_child_never_stops_its_parents_server() -> None:
    """A fork inherits the atexit hook and the SIGTERM handler: a process pool's terminate()
    (SIGTERM to its workers) once stopped the suite's shared server under another test."""
    import multiprocessing

    server = EmbeddedServer().start()
    _INHERITED.append(server)
    try:
        with multiprocessing.get_context("fork").Pool(1) as pool:
            assert pool.apply(os.getpid) != os.getpid()
            pool.apply(_stop_inherited)  # a child's own call is a no-op too
        # leaving the block terminate()s the worker with SIGTERM
        assert server.running and server.root.exists()
    finally:
        _INHERITED.clear()
        server.stop()
    assert not server.running


#: the server a forked child inherits (a bound method of it does not pickle)
_INHERITED: list[EmbeddedServer] = []


def _stop_inherited() -> None:
    _INHERITED[0].stop()


def test_a_sigkilled_owners_server_is_reaped_by_the_next_run() -> None:
    owner, root, pid = start_owner()
    owner.kill()
    owner.wait(timeout=30)
    assert alive(pid)  # nothing could stop it: its owner died at once
    assert str(root) in reap()
    assert gone(pid, root)
    assert not (REGISTRY / f"{root.name}.json").exists()


def owner_of(record: Path) -> int | None:
    try:
        return int(json.loads(record.read_text())["owner"])
    except (OSError, ValueError, KeyError):
        return None  # being written, or gone


def test_ctrl_c_during_a_run_leaves_no_server(tmp_path: Path) -> None:
    """``oasis run`` interrupted while its server runs: exit 3 (interrupted), nothing left."""
    oasis = Path(sys.executable).parent / "oasis"
    profile = Path(__file__).resolve().parents[2] / "examples" / "database-profile"
    run = subprocess.Popen(
        [
            str(oasis),
            "run",
            "--profile",
            str(profile),
            "--agent",
            "pg:careful",
            "--provider",
            "postgres",
            "-o",
            str(tmp_path / "run"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    record = None
    while record is None and time.monotonic() < deadline and run.poll() is None:
        record = next(
            (r for r in REGISTRY.glob("*.json") if owner_of(r) == run.pid),
            None,
        )
        time.sleep(0.05)
    assert record is not None, "the run never started a server"
    root = Path(json.loads(record.read_text())["root"])
    while not (root / "data" / "postmaster.pid").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    pid = int((root / "data" / "postmaster.pid").read_text().split()[0])
    run.send_signal(signal.SIGINT)
    assert run.wait(timeout=60) == 3
    assert gone(pid, root) and not record.exists()


def test_the_server_lives_on_a_ram_file_system_with_room_else_in_the_temp_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run creates and unlinks a database's files per environment: on a disk mounted with
    ``discard`` that cost more than the run's work; /dev/shm is used when it has room."""
    monkeypatch.delenv("OASIS_POSTGRES_DIR", raising=False)
    monkeypatch.setattr(server_module, "RAM_DIR", tmp_path)
    monkeypatch.setattr(server_module, "RAM_DIR_MIN_FREE", 1)
    assert server_parent() == tmp_path
    monkeypatch.setattr(server_module, "RAM_DIR_MIN_FREE", 1 << 62)  # too little room
    assert server_parent() == Path(tempfile.gettempdir())
    monkeypatch.setattr(server_module, "RAM_DIR", tmp_path / "absent")
    assert server_parent() == Path(tempfile.gettempdir())
    monkeypatch.setenv("OASIS_POSTGRES_DIR", str(tmp_path))
    server = EmbeddedServer()
    try:
        assert server.root.parent == tmp_path
    finally:
        server.stop()
