"""The embedded PostgreSQL server: one per run, started from the distribution's own binaries.

``initdb`` and ``pg_ctl`` on a fresh temporary directory; the server listens on a unix socket
in that directory and on a loopback port. Its statement log (``log_statement=all``, csvlog)
is the audit log the provider reads (spec 04 §2.2: evidence from the system itself, never
from the agent). The superuser authenticates with a random password that exists only in
this process's memory (``scram-sha-256`` everywhere, no ``trust`` line), so an agent process
that finds the socket still cannot act as the harness (core §3.6).

The directory is on a RAM-backed file system when one with room is at hand (``/dev/shm``,
:func:`server_parent`): a run creates and unlinks thousands of files (a database per
environment), which on a disk mounted with ``discard`` cost more than the run's own work.
Nothing here needs to survive the run (``fsync`` is off already).

Nothing is left running: :meth:`EmbeddedServer.stop` runs at exit and on SIGTERM/SIGINT/SIGHUP,
and every server is recorded under ``$TMPDIR/oasis-postgres/`` with the pid of the process
that owns it, so a server whose owner was SIGKILLed is reaped by the next run (:func:`reap`).

PostgreSQL refuses to run as root: as root the server runs as an unprivileged system user
(``postgres`` from Debian's package, or ``OASIS_POSTGRES_USER``) through ``runuser``.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

#: where servers record themselves for the reaper (one JSON file per server)
REGISTRY = Path(tempfile.gettempdir()) / "oasis-postgres"
#: a RAM-backed directory tried first for the server's files, and the room it must have
#: (Docker's default /dev/shm of 64 MB is too small: the server's own shared memory lives there)
RAM_DIR = Path("/dev/shm")
RAM_DIR_MIN_FREE = 512 * 1024 * 1024
SUPERUSER = "oasis_harness"
LOG_FILE = "audit.csv"
#: the server settings the provider relies on (audit completeness first)
SETTINGS = {
    "listen_addresses": "'127.0.0.1'",
    "log_destination": "'csvlog'",
    "logging_collector": "on",
    "log_directory": "'log'",
    "log_filename": "'audit'",
    "log_rotation_age": "0",
    "log_rotation_size": "0",
    "log_statement": "'all'",
    "log_min_error_statement": "'error'",
    "log_connections": "on",
    "log_timezone": "'UTC'",
    "timezone": "'UTC'",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "shared_buffers": "'32MB'",
    "max_connections": "60",
}


class ServerError(RuntimeError):
    """The embedded server cannot be set up or started (a provider fault)."""


def find_bindir() -> Path:
    """The directory of ``initdb``/``pg_ctl``: ``OASIS_POSTGRES_BINDIR``, else PATH, else the
    newest ``/usr/lib/postgresql/*/bin`` (Debian keeps them off PATH)."""
    given = os.environ.get("OASIS_POSTGRES_BINDIR")
    if given:
        return Path(given)
    on_path = shutil.which("initdb")
    if on_path:
        return Path(on_path).parent
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    if not versions:
        raise ServerError(
            "PostgreSQL server binaries not found (initdb): install Debian's `postgresql` package "
            "or set OASIS_POSTGRES_BINDIR"
        )
    return versions[-1].parent


def server_parent() -> Path:
    """Where the server's directory goes: ``$OASIS_POSTGRES_DIR`` if set, else :data:`RAM_DIR`
    when it is a writable directory with :data:`RAM_DIR_MIN_FREE` free, else the temporary
    directory (module docstring)."""
    given = os.environ.get("OASIS_POSTGRES_DIR")
    if given:
        return Path(given)
    try:
        room = os.statvfs(RAM_DIR)
        if (
            os.access(RAM_DIR, os.W_OK | os.X_OK)
            and room.f_bavail * room.f_frsize >= RAM_DIR_MIN_FREE
        ):
            return RAM_DIR
    except OSError:
        pass
    return Path(tempfile.gettempdir())


def _run_as() -> str | None:
    """The unprivileged user to run the server as when this process is root, else None."""
    if os.geteuid() != 0:
        return None
    name = os.environ.get("OASIS_POSTGRES_USER", "postgres")
    try:
        pwd.getpwnam(name)
    except KeyError:
        raise ServerError(
            f"running as root: PostgreSQL refuses root, and the system user {name!r} to run it "
            "as does not exist (create it, or set OASIS_POSTGRES_USER)"
        ) from None
    return name


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _alive(pid: int) -> bool:
    """Running (a zombie is not: the postmaster outlives ``pg_ctl`` and is reparented to a
    PID 1 that may never reap it, as in a container)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True  # no /proc: trust the signal
    return stat.rsplit(")", 1)[-1].split()[0] != "Z"


def _postmaster_pid(datadir: Path) -> int | None:
    try:
        return int((datadir / "postmaster.pid").read_text().splitlines()[0])
    except (OSError, ValueError, IndexError):
        return None


def reap(registry: Path = REGISTRY) -> list[str]:
    """Stop and remove every recorded server whose owning process is gone (a SIGKILLed run).
    Returns the data directories reaped."""
    reaped = []
    for record in sorted(registry.glob("*.json")):
        try:
            info = json.loads(record.read_text())
            owner, root = int(info["owner"]), Path(info["root"])
        except (OSError, ValueError, KeyError, TypeError):
            record.unlink(missing_ok=True)
            continue
        if _alive(owner):
            continue
        pid = _postmaster_pid(root / "data")
        if pid is not None and _alive(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGQUIT)  # immediate shutdown of the postmaster and children
            _wait_gone(pid, 10.0)
        shutil.rmtree(root, ignore_errors=True)
        record.unlink(missing_ok=True)
        reaped.append(str(root))
    return reaped


def _wait_gone(pid: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if _alive(pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


class EmbeddedServer:
    """A private PostgreSQL server on a temporary directory (see the module docstring)."""

    def __init__(self) -> None:
        self.bindir = find_bindir()
        self.user = _run_as()
        self.root = Path(tempfile.mkdtemp(prefix="oasis-pg-", dir=server_parent()))
        self.datadir = self.root / "data"
        self.port = _free_port()
        #: the address agents are handed, and the harness's role (the barrier's author)
        self.host = "127.0.0.1"
        self.harness_user = SUPERUSER
        self.password = secrets.token_urlsafe(24)
        self.record = REGISTRY / f"{self.root.name}.json"
        self._lock = threading.Lock()
        self._stopped = False
        self._previous: dict[int, Any] = {}
        #: the process that started the server: only it stops it (a forked child inherits the
        #: atexit hook and the SIGTERM handler, and a pool's terminate() must not stop ours)
        self._owner = os.getpid()

    # ---- lifecycle ------------------------------------------------------------------------
    def start(self) -> EmbeddedServer:
        reap()
        self._owner = os.getpid()
        REGISTRY.mkdir(mode=0o700, exist_ok=True)
        self.record.write_text(json.dumps({"owner": self._owner, "root": str(self.root)}))
        atexit.register(self.stop)
        self._install_signal_handlers()
        try:
            self._initdb()
            self._pg_ctl("start", "-w", "-t", "30", "-l", str(self.root / "server.log"))
        except Exception:
            self.stop()
            raise
        return self

    def _install_signal_handlers(self) -> None:
        """Stop the server on SIGTERM/SIGHUP too (Ctrl-C arrives as KeyboardInterrupt and
        reaches atexit); the previous handler then runs as before."""
        if threading.current_thread() is not threading.main_thread():
            return
        for sig in (signal.SIGTERM, signal.SIGHUP):
            previous = signal.getsignal(sig)
            self._previous[sig] = previous

            def handler(signum: int, frame: Any, previous: Any = previous) -> None:
                self.stop()
                if callable(previous):
                    previous(signum, frame)
                else:
                    signal.signal(signum, signal.SIG_DFL)
                    os.kill(os.getpid(), signum)

            signal.signal(sig, handler)

    def _command(self, *args: str) -> list[str]:
        return ["runuser", "-u", self.user, "--", *args] if self.user else list(args)

    def _initdb(self) -> None:
        if self.user:
            shutil.chown(self.root, self.user)
        os.chmod(self.root, 0o700)
        pwfile = self.root / "pw"
        pwfile.write_text(self.password + "\n")
        if self.user:
            shutil.chown(pwfile, self.user)
        os.chmod(pwfile, 0o600)
        try:
            self._check(
                self._command(
                    str(self.bindir / "initdb"),
                    "-D",
                    str(self.datadir),
                    "-U",
                    SUPERUSER,
                    "--pwfile",
                    str(pwfile),
                    "--auth",
                    "scram-sha-256",
                    "-E",
                    "UTF8",
                    "--locale",
                    "C",
                    "--no-sync",
                ),
                "initdb",
            )
        finally:
            pwfile.unlink(missing_ok=True)
        settings = {
            **SETTINGS,
            "port": str(self.port),
            "unix_socket_directories": f"'{self.root}'",
        }
        with (self.datadir / "postgresql.conf").open("a") as conf:
            conf.write("\n# oasis-postgres\n")
            conf.writelines(f"{k} = {v}\n" for k, v in settings.items())
        # the socket directory must be reachable by the server user, and by agents (psql)
        os.chmod(self.root, 0o711)

    def _pg_ctl(self, *args: str) -> None:
        self._check(
            self._command(str(self.bindir / "pg_ctl"), "-D", str(self.datadir), *args), "pg_ctl"
        )

    @staticmethod
    def _check(command: list[str], what: str) -> None:
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            raise ServerError(
                f"{what} failed (exit {done.returncode}): {done.stderr.strip()[-800:]}"
            )

    def stop(self) -> None:
        """Stop the server (immediate mode: nothing here is worth a checkpoint) and remove
        its directory. Idempotent; safe from atexit and signal handlers; a no-op in a forked
        child, which does not own the server."""
        if os.getpid() != self._owner:
            return
        with self._lock:
            if self._stopped:
                return
            self._stopped = True
        pid = _postmaster_pid(self.datadir)
        if pid is not None and _alive(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGQUIT)
            _wait_gone(pid, 10.0)
        shutil.rmtree(self.root, ignore_errors=True)
        self.record.unlink(missing_ok=True)
        with contextlib.suppress(Exception):
            atexit.unregister(self.stop)

    @property
    def running(self) -> bool:
        pid = _postmaster_pid(self.datadir)
        return not self._stopped and pid is not None and _alive(pid)

    @property
    def postmaster_pid(self) -> int | None:
        return _postmaster_pid(self.datadir)

    # ---- connecting ----------------------------------------------------------------------
    def conninfo(self, dbname: str = "postgres") -> dict[str, Any]:
        """The harness's own connection (superuser over the unix socket): never handed out."""
        return {
            "host": str(self.root),
            "port": self.port,
            "user": SUPERUSER,
            "password": self.password,
            "dbname": dbname,
            "application_name": "oasis-provider",
        }

    def log_path(self) -> Path:
        return self.datadir / "log" / f"{LOG_FILE.split('.')[0]}.csv"
