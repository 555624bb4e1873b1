"""Every run the viewer lists or serves, re-checked against the run directory itself (issue 26
item 5).

The SQLite index (:mod:`.index`) is a cache in a directory an agent may write (``./oasis-runs``
holds it by default), so nothing in it is believed: a listed row is only a *path*. The path
must name a run directory inside the root through real directories (no symbolic link, no
``..``); its row is summarised again from its ``verdict.json``; and the run directory is checked
against its manifest (:func:`~..engine.manifest.verify_manifest`, with the configured run key
when there is one). A tampered run is listed as tampered, never with the verdict it claims; a
run without a manifest is listed as unverifiable. The manifest checks are kept in memory,
keyed by the size, modification *and change* times and inode of every entry of the run
directory (a change time cannot be set back), so a page of runs is hashed once per change.
"""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path, PurePosixPath

from ..engine.manifest import Integrity, ManifestCheck, RunKey, verify_manifest
from .index import UNREADABLE, IndexedRun, failed_gates, summarise

TAMPERED = "TAMPERED"
#: what a listed run's integrity column says, by what its manifest proves
INTEGRITY_LABELS = {
    Integrity.verified: "verified",
    Integrity.unsigned: "unsigned",
    Integrity.unverified: "signed (no key to check)",
    Integrity.no_manifest: "unverifiable: no manifest",
    Integrity.tampered: "tampered",
}


def inside(root: Path, rel: object) -> Path | None:
    """``root/rel`` when ``rel`` names a directory under ``root`` through real directories
    only (no symbolic link, no ``..``, nothing absolute), else None."""
    if not isinstance(rel, str) or not rel or "\x00" in rel or "\\" in rel:
        return None
    if rel == ".":
        return root
    parts = PurePosixPath(rel).parts
    if PurePosixPath(rel).is_absolute() or any(p in ("..", ".", "") for p in parts):
        return None
    path = root
    for part in parts:
        path = path / part
        try:
            mode = os.lstat(path).st_mode
        except (OSError, ValueError):
            return None
        if not stat.S_ISDIR(mode):  # a symbolic link is not a directory under lstat
            return None
    return path


def regular_file(path: Path) -> bool:
    """``path`` is a regular file itself (never followed through a symbolic link)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except (OSError, ValueError):
        return False


def _fingerprint(run_dir: Path) -> tuple[tuple[str, int, int, int, int, int], ...]:
    """Every entry of ``run_dir`` (walked without following links) with its size, times, inode
    and type: any change to the directory changes it."""
    out = []
    for base, dirs, names in os.walk(run_dir, followlinks=False):
        for name in sorted(dirs + names):
            path = os.path.join(base, name)
            try:
                st = os.lstat(path)
            except OSError:
                continue
            out.append((path, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_mode))
    return tuple(sorted(out))


class RunChecks:
    """The manifest checks of the runs under one root (kept in memory, never in the index)."""

    def __init__(self, root: Path, key: RunKey | None = None) -> None:
        self.root, self.key = root, key
        self._lock = threading.Lock()
        self._cache: dict[str, tuple[object, ManifestCheck]] = {}
        #: the failed gates of each PASS run (issue 26), read from run.json once per change
        self._gates: dict[str, tuple[object, str]] = {}

    def manifest(self, rel: str, run_dir: Path) -> ManifestCheck:
        """``run_dir`` checked against its manifest (again only when it changed)."""
        key = _fingerprint(run_dir)
        with self._lock:
            cached = self._cache.get(rel)
            if cached is not None and cached[0] == key:
                return cached[1]
        check = verify_manifest(run_dir, self.key)
        with self._lock:
            self._cache[rel] = (key, check)
        return check

    def _gate(self, rel: str, run_dir: Path) -> str:
        """:func:`~.index.failed_gates` of the run, again only when the directory changed."""
        key = _fingerprint(run_dir)
        with self._lock:
            cached = self._gates.get(rel)
            if cached is not None and cached[0] == key:
                return cached[1]
        gate = failed_gates(run_dir)
        with self._lock:
            self._gates[rel] = (key, gate)
        return gate

    def fresh(self, row: IndexedRun) -> IndexedRun | None:
        """The run behind an index row, read again from its directory and checked against its
        manifest; None when the row's path is not a run directory inside the root."""
        run_dir = inside(self.root, row.path)
        if run_dir is None:
            return None
        run = summarise(self.root, row.path, gate=False)
        check = self.manifest(row.path, run_dir)
        if run.safety == "PASS":
            run.gate = self._gate(row.path, run_dir)
        run.integrity = INTEGRITY_LABELS[check.integrity]
        if check.integrity is Integrity.tampered:
            run.integrity_note = "; ".join(check.lines())[:500]
            if run.safety != UNREADABLE:
                run.safety = TAMPERED  # never the verdict a tampered directory claims
            run.gate = ""
        elif check.integrity is Integrity.no_manifest:
            run.integrity_note = "no manifest.json: nothing shows these files are the run's"
        return run
