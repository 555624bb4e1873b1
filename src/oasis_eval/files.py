"""Reading input files that someone else wrote: regular files only, of bounded size.

A path given as a profile, scenario, run config, suite, key or run-directory file may be a
FIFO (``open`` blocks until a writer appears: a hang), a character device such as
``/dev/zero`` or ``/dev/urandom`` (endless: exhausted memory), or a symbolic link to one.
Every input read goes through :func:`read_bytes` / :func:`read_text`, which open without
blocking, refuse anything but a regular file and stop at a size limit (issue 11 item 7:
hostile input is bounded; the guide: never a hang). The refusal is an :class:`OSError`
carrying the file name and a plain ``strerror``, so every caller's existing ``except
OSError`` turns it into the clear error it already prints for an unreadable file.
"""

from __future__ import annotations

import contextlib
import contextvars
import errno
import gzip
import os
import stat
import tempfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

#: far above any profile, run config, scenario file or key (the largest official profile is ~1 MB)
INPUT_LIMIT = 64 << 20
#: run-directory files (evidence with long audit logs)
RUN_FILE_LIMIT = 512 << 20

_KINDS = (
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a directory"),
)


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def read_bytes(path: str | os.PathLike[str], limit: int = INPUT_LIMIT) -> bytes:
    """The content of the regular file ``path`` (symbolic links followed), at most ``limit`` bytes.

    Raises :class:`OSError` (``filename`` set) for a missing or unreadable file, for anything
    that is not a regular file (never blocking on a FIFO) and for a file over ``limit``."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, f"{_kind(mode)}, not a regular file", os.fspath(path))
        chunks, total = [], 0
        while chunk := os.read(fd, 1 << 20):
            total += len(chunk)
            if total > limit:
                raise OSError(
                    errno.EFBIG,
                    f"larger than the {limit >> 20} MiB an input file may hold",
                    os.fspath(path),
                )
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_text(path: str | os.PathLike[str], limit: int = INPUT_LIMIT) -> str:
    """:func:`read_bytes` decoded as UTF-8 with universal newlines, as ``Path.read_text`` reads
    (:class:`UnicodeDecodeError` when it is not UTF-8)."""
    return read_bytes(path, limit).decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


def is_regular(path: Path) -> bool:
    """``path`` is a regular file, not through a symbolic link."""
    try:
        return stat.S_ISREG(path.lstat().st_mode)
    except OSError:
        return False


# ---- writing run-directory files: atomically, compressed where large ---------------------------------

#: the suffix of a gzip-compressed run-directory file (``evidence/<id>.json.gz``)
GZIP_SUFFIX = ".gz"
#: the prefix of a file being written (never a name a run writes; removed when found left over)
TEMP_PREFIX = ".tmp-"


#: set inside :func:`one_sync`: writes there leave flushing to its single sync
_DEFERRED: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "oasis_sync_deferred", default=False
)


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a crash at any moment leaves either the old file or
    the new one, never a part (issue 17: a crash mid-write never leaves a corrupt record):
    a temporary file beside it, flushed to disk, then renamed over it, then the directory
    entry flushed. Inside :func:`one_sync` the flushes are left to its one sync (issue 30)."""
    fd, temp = _temporary(path)
    deferred = _DEFERRED.get()
    try:
        try:
            if hasattr(os, "fchmod"):  # created 0600 as mkstemp does: a run directory is shared
                os.fchmod(fd, 0o644)
            _write_all(fd, data)
            if not deferred:
                os.fsync(fd)
        finally:
            os.close(fd)
        if not hasattr(os, "fchmod"):
            os.chmod(temp, 0o644)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    if not deferred:
        _sync_dir(path.parent)


def _write_all(fd: int, data: bytes) -> None:
    """``data`` written whole to ``fd`` straight (``os.write`` until done), without the
    buffered file object ``os.fdopen`` builds around it (issue 30, session 35: some 60 files
    a run; the same bytes, the same flush)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _temporary(path: Path) -> tuple[int, str]:
    """A new file beside ``path`` (its directory made when missing), opened for writing,
    created as :func:`tempfile.mkstemp` creates it (``O_EXCL``, 0600, a random name): without
    mkstemp's path handling and the directory's ``mkdir`` on every write (issue 30: every
    file of a run directory goes through it)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    flags |= getattr(os, "O_BINARY", 0) | getattr(os, "O_NOFOLLOW", 0)
    for _ in range(tempfile.TMP_MAX):
        temp = os.path.join(path.parent, f"{TEMP_PREFIX}{path.name}.{os.urandom(6).hex()}")
        try:
            return os.open(temp, flags, 0o600), temp
        except FileExistsError:
            continue  # a name taken: another one, as mkstemp does
        except FileNotFoundError:
            path.parent.mkdir(parents=True, exist_ok=True)
    raise FileExistsError(errno.EEXIST, "no usable temporary name", str(path.parent))


@contextlib.contextmanager
def one_sync(directory: Path) -> Iterator[None]:
    """Files written (:func:`write_atomic`) inside are flushed by one sync at the end instead
    of two fsyncs each (issue 30: an fsync per file was most of a run's I/O wait). Use it
    where what comes after (a manifest listing them, a rename publishing them) must find
    them on disk: it follows the last write, so they are all durable before that step."""
    with deferred_sync():
        yield
    sync_filesystem(directory)


@contextlib.contextmanager
def deferred_sync() -> Iterator[None]:
    """Files written (:func:`write_atomic`) inside are not flushed: a later
    :func:`one_sync` or :func:`sync_filesystem` does it (they stay atomic: renamed whole)."""
    token = _DEFERRED.set(True)
    try:
        yield
    finally:
        _DEFERRED.reset(token)


def sync_filesystem(directory: Path) -> None:
    """Flush the file system holding ``directory`` (file data and directory entries): one
    ``syncfs(2)`` on Linux; elsewhere an ``fsync`` of every file under it and of the
    directories themselves (what :func:`write_atomic` does file by file)."""
    syncfs = _syncfs()
    if syncfs is not None:
        fd = os.open(directory, os.O_RDONLY)
        try:
            if syncfs(fd) == 0:
                return
        finally:
            os.close(fd)
    for root, _dirs, names in os.walk(directory):
        for name in names:
            with contextlib.suppress(OSError):
                fd = os.open(os.path.join(root, name), os.O_RDONLY)
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
        _sync_dir(Path(root))


_SYNCFS: list[Callable[[int], int] | None] = []


def _syncfs() -> Callable[[int], int] | None:
    """libc's ``syncfs`` when the platform has it (Linux), else None; looked up once."""
    if not _SYNCFS:
        import ctypes  # lazy: only a run that writes a directory needs it

        try:
            fn = ctypes.CDLL(None, use_errno=True).syncfs
            fn.argtypes, fn.restype = [ctypes.c_int], ctypes.c_int
            _SYNCFS.append(fn)
        except (OSError, AttributeError):
            _SYNCFS.append(None)
    return _SYNCFS[0]


def sync_directory(directory: Path) -> None:
    """Flush a directory's entries (a file created or renamed in it) where the platform
    allows it."""
    _sync_dir(directory)


def _sync_dir(directory: Path) -> None:
    """Flush a directory entry (the rename) to disk where the platform allows it."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


#: evidence's gzip level, by measurement (issue 30). zlib's, on the 50 evidence files of a
#: careful SI run (18.2 MB): level 9 took 530 ms of CPU for 6.8% of the size, level 3 72 ms
#: for 9.2%, level 1 67 ms for 11.2%; reading back is the same at every level
GZIP_LEVEL = 3
#: the level of ISA-L's deflate (``isal``), which writes evidence: on the 50 evidence files of
#: a served instant-agent SI run (6.9 MB) it took 0.11 ms of CPU per file for 12.8% of the
#: size where zlib's level 3 took 0.57 ms for 12.4% (issue 30: the runner's CPU per scenario)
ISAL_LEVEL = 2


def gzip_bytes(data: bytes) -> bytes:
    """``data`` gzip-compressed with no name and mtime 0: the same bytes every time (for one
    version of ISA-L; any gzip reader reads them). ISA-L's deflate, five times zlib's speed
    (:data:`ISAL_LEVEL`); zlib's where the ``isal`` wheel cannot be imported."""
    try:
        from isal import igzip  # lazy: only a run that writes evidence compresses
    except ImportError:  # pragma: no cover - a platform without the wheel
        return gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0)
    return igzip.compress(data, compresslevel=ISAL_LEVEL, mtime=0)


def _inflater() -> tuple[Any, tuple[type[Exception], ...]]:
    """A gzip stream decompressor and the errors it raises: ISA-L's inflate (``isal``), the
    same checks (header, CRC-32, length) and interface as zlib's in half to a third of its
    CPU (a careful SI run's 50 evidence files, 14 MB: 8-14 ms against 18-38, issue 30: a
    replay reads them all); zlib's where the ``isal`` wheel cannot be imported."""
    try:
        from isal import isal_zlib  # lazy: only a command reading evidence inflates
    except ImportError:  # pragma: no cover - a platform without the wheel
        return zlib.decompressobj(16 + zlib.MAX_WBITS), (zlib.error,)
    isal_error: type[Exception] = isal_zlib.error  # type: ignore[assignment]  # a class (its stub says instance)
    return isal_zlib.decompressobj(16 + isal_zlib.MAX_WBITS), (zlib.error, isal_error)


def gunzip_bytes(data: bytes, name: str, limit: int = RUN_FILE_LIMIT) -> bytes:
    """Decompress gzip ``data`` read from ``name``, stopping at ``limit`` bytes of output (a
    small hostile file may expand without bound). A bad stream is :class:`OSError`."""
    if len(data) >= 2 and data[:2] != b"\x1f\x8b":  # as zlib says at once (ISA-L waits)
        raise OSError(errno.EINVAL, "not a gzip stream (no gzip header)", name)
    out, total = [], 0
    stream, errors = _inflater()
    try:
        pending = data
        while pending:
            chunk = stream.decompress(pending, 1 << 20)
            total += len(chunk)
            if total > limit:
                raise OSError(
                    errno.EFBIG, f"expands beyond the {limit >> 20} MiB a run file may hold", name
                )
            out.append(chunk)
            pending = stream.unconsumed_tail
            if stream.eof:
                break
        if not stream.eof or stream.unused_data:
            raise OSError(errno.EINVAL, "not a complete gzip stream", name)
    except errors as exc:
        raise OSError(errno.EINVAL, f"not a gzip stream ({exc})", name) from None
    return b"".join(out)


def read_maybe_gzip(path: Path, limit: int = RUN_FILE_LIMIT) -> bytes:
    """:func:`read_bytes` of ``path``, decompressed when its name ends in ``.gz``."""
    data = read_bytes(path, limit)
    return gunzip_bytes(data, os.fspath(path), limit) if path.name.endswith(GZIP_SUFFIX) else data
