"""An embedded SQLite index of the run directories under a root, so a viewer lists thousands
of runs without reading them again (issue 19 item 2).

Each run directory found under the root (recursively; hidden directories, symbolic links and
the inside of a run directory are not walked) is one row summarising its verdict (05 §1:
agent, profile, safety, counts, capability scores, timestamp, vacuous PASS count). A row is
re-read only when the run's *signature* changed: the modification times and sizes of the run
directory and of its run record, verdict and manifest (every rewrite of a run directory —
``oasis report`` too — rewrites its manifest, last). Runs that disappeared are dropped. A
directory that looks like a run but cannot be read is listed with the reason.

The index lives in ``ROOT/.oasis-index.sqlite``, or under the user's cache directory when the
root is not writable or is itself a run directory. It is a cache: deleting it loses nothing.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..diagnostics import UnusableInput
from ..engine.manifest import MANIFEST
from ..engine.policies import overall, policy_failures
from ..engine.record import RunRecord
from ..engine.rundir import RECORD, VERDICT_JSON, read_run_file
from ..files import GZIP_SUFFIX
from ..spec.common import VerdictStatus
from .runs import is_run_dir, load_run_verdict

INDEX_NAME = ".oasis-index.sqlite"
#: bump when the table changes: an index of another schema is rebuilt
SCHEMA = "3"
UNREADABLE = "UNREADABLE"
_SIGNED = (RECORD, RECORD + GZIP_SUFFIX, VERDICT_JSON, VERDICT_JSON + GZIP_SUFFIX, MANIFEST)
_COLUMNS = (
    "path",
    "signature",
    "agent",
    "agent_version",
    "profile",
    "profile_version",
    "safety",
    "passed",
    "failed",
    "provider_failure",
    "not_applicable",
    "vacuous",
    "tier",
    "overall",
    "dimensions",
    "categories",
    "timestamp",
    "aborted",
    "gate",
    "error",
)
_CREATE = f"""
CREATE TABLE IF NOT EXISTS runs ({", ".join(_COLUMNS)}, PRIMARY KEY (path));
CREATE INDEX IF NOT EXISTS runs_by_time ON runs (timestamp DESC, path);
"""


@dataclass
class IndexedRun:
    """One run as the index holds it; ``path`` is relative to the root, ``/``-separated."""

    path: str
    agent: str = ""
    agent_version: str = ""
    profile: str = ""
    profile_version: str = ""
    safety: str = UNREADABLE
    passed: int = 0
    failed: int = 0
    provider_failure: int = 0
    not_applicable: int = 0
    vacuous: int = 0
    #: the capability tier of the scores (core §4.3), None without capability scores
    tier: int | None = None
    overall: float | None = None
    dimensions: dict[str, float] = field(default_factory=dict)
    categories: dict[str, float] = field(default_factory=dict)
    timestamp: str = ""
    aborted: bool = False
    #: the failed gate policies of a safety PASS, one per line (issue 26); "" when none failed
    gate: str = ""
    error: str = ""
    #: what the run's manifest proves (set when listed, :mod:`.checked`; never stored)
    integrity: str = ""
    integrity_note: str = ""


@dataclass
class RefreshStats:
    added: int = 0
    updated: int = 0
    removed: int = 0
    unchanged: int = 0

    @property
    def total(self) -> int:
        return self.added + self.updated + self.unchanged


def discover(root: Path) -> dict[str, str]:
    """Every run directory under ``root`` (itself included): relative path -> signature."""
    found: dict[str, str] = {}
    stack = [root]
    while stack:
        directory = stack.pop()
        try:
            entries = {e.name: e for e in os.scandir(directory)}
        except OSError:
            continue  # unreadable or vanished meanwhile: not listed
        if RECORD in entries or RECORD + GZIP_SUFFIX in entries:
            rel = directory.relative_to(root).as_posix()
            found[rel] = _signature(directory, entries)
            continue
        for name, entry in sorted(entries.items()):
            if not name.startswith(".") and entry.is_dir(follow_symlinks=False):
                stack.append(Path(entry.path))
    return found


def _signature(directory: Path, entries: dict[str, os.DirEntry[str]]) -> str:
    parts = []
    try:
        parts.append(str(directory.stat().st_mtime_ns))
        for name in _SIGNED:
            if name in entries:
                st = entries[name].stat(follow_symlinks=False)
                parts.append(f"{name}:{st.st_mtime_ns}:{st.st_size}")
    except OSError:
        parts.append("unreadable")
    return "|".join(parts)


def summarise(root: Path, rel: str, gate: bool = True) -> IndexedRun:
    """The index row of the run at ``root/rel``, read from its verdict; for a PASS, also the
    gates it failed, read from its record (``gate``: False leaves them to the caller)."""
    run = IndexedRun(path=rel)
    try:
        verdict = load_run_verdict(root / rel)
    except (UnusableInput, OSError) as exc:
        run.error = str(exc)
        return run
    meta, details = verdict.metadata, verdict.safety_details
    run.agent, run.agent_version = meta.agent, meta.agent_version
    run.profile, run.profile_version = meta.domain_profile, meta.domain_profile_version
    run.safety = verdict.safety_label
    run.passed, run.failed = details.passed, details.failed
    run.provider_failure, run.not_applicable = details.provider_failure, details.not_applicable
    run.vacuous = details.vacuous_passes.count if details.vacuous_passes else 0
    run.overall = overall(verdict)
    if verdict.capability is not None:
        run.tier = verdict.capability.tier
        dims = verdict.capability.core_dimensions.model_dump()
        run.dimensions = {k: float(v) for k, v in dims.items() if v is not None}
        run.categories = {
            k: c.score for k, c in sorted(verdict.capability.domain_categories.items())
        }
    run.timestamp, run.aborted = meta.timestamp, meta.aborted
    problem = _out_of_range(run)
    if problem:  # a verdict no run writes: listed as unreadable, never a failed page or index
        return IndexedRun(path=rel, error=f"verdict.json: {problem}")
    if gate and verdict.safety is VerdictStatus.PASS:
        run.gate = failed_gates(root / rel)
    return run


def failed_gates(run_dir: Path) -> str:
    """The failed gates of a PASS run, from its record (the inputs and scenario results the
    gates read); a record that cannot be read leaves the gate unknown, never passed."""
    try:
        record = RunRecord.model_validate_json(read_run_file(run_dir, RECORD))
    except (OSError, ValueError):
        return "unknown: run.json cannot be read"
    return "\n".join(policy_failures(record.verdict, record.inputs, record.scenarios))


#: the largest count or tier a row holds (SQLite integers are 64-bit; no run comes near)
MAX_COUNT = 2**53


def _out_of_range(run: IndexedRun) -> str:
    """The first count or score of ``run`` outside what any run can record, or ""."""
    counts = {
        "passed": run.passed,
        "failed": run.failed,
        "provider_failure": run.provider_failure,
        "not_applicable": run.not_applicable,
        "vacuous": run.vacuous,
        "tier": run.tier or 0,
    }
    for name, value in counts.items():
        if not 0 <= value < MAX_COUNT:
            return f"{name} {value if abs(value) < 10**20 else 'of ' + str(len(str(value))) + ' digits'} is out of range"
    scores = {"overall": run.overall, **run.dimensions, **run.categories}
    for name, score in scores.items():
        if score is not None and not (math.isfinite(score) and -1e9 < score < 1e9):
            return f"score {name} {score!r} is out of range"
    return ""


def default_index_path(root: Path) -> Path:
    """``ROOT/.oasis-index.sqlite`` when the root is writable and not itself a run directory
    (a file added there would break the run's manifest) and that name is not a symbolic link,
    else a file in the cache dir."""
    own = root / INDEX_NAME
    # a link planted in its place would have the index written wherever it leads
    if os.access(root, os.W_OK) and not is_run_dir(root) and not own.is_symlink():
        return own
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "oasis-eval"
    cache.mkdir(parents=True, exist_ok=True)
    key = hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:16]
    return cache / f"index-{key}.sqlite"


class RunIndex:
    """The runs under ``root``, kept in SQLite; :meth:`refresh` brings it up to date."""

    def __init__(self, root: Path, db_path: Path | None = None) -> None:
        if not root.is_dir():
            raise UnusableInput("not a directory (expected a directory of runs)", file=str(root))
        self.root = root.resolve()
        self.db_path = db_path or default_index_path(self.root)
        self._lock = threading.Lock()
        self._open()

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.db_path, timeout=30)

    def _open(self) -> None:
        try:
            self._create()
        except sqlite3.DatabaseError:  # a damaged or foreign file: the index is only a cache
            self.db_path.unlink(missing_ok=True)
            self._create()

    def _create(self) -> None:
        with self._connect() as db:
            db.execute(
                "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
            )
            row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            columns = tuple(c[1] for c in db.execute("PRAGMA table_info(runs)"))
            if row is None or row[0] != SCHEMA or columns not in ((), _COLUMNS):
                # another layout: dropped, then rebuilt from the runs
                db.execute("DROP TABLE IF EXISTS runs")
                db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (SCHEMA,))
            db.executescript(_CREATE)
        db.close()

    def refresh(self) -> RefreshStats:
        """Re-read the runs whose signature changed, add new ones, drop vanished ones."""
        with self._lock:
            found = discover(self.root)
            stats = RefreshStats()
            db = self._connect()
            try:
                with db:
                    known = dict(db.execute("SELECT path, signature FROM runs").fetchall())
                    gone = sorted(known.keys() - found.keys())
                    db.executemany("DELETE FROM runs WHERE path = ?", [(p,) for p in gone])
                    rows = []
                    marks = ", ".join("?" * len(_COLUMNS))
                    for rel, signature in sorted(found.items()):
                        if known.get(rel) == signature:
                            stats.unchanged += 1
                            continue
                        stats.added += rel not in known
                        stats.updated += rel in known
                        rows.append(_row(summarise(self.root, rel), signature))
                    for row in rows:  # one row at a time: a row SQLite refuses is only that run's
                        try:
                            db.execute(f"INSERT OR REPLACE INTO runs VALUES ({marks})", row)
                        except (sqlite3.Error, OverflowError, ValueError) as exc:
                            damaged = IndexedRun(path=row[0], error=f"cannot be indexed: {exc}")
                            db.execute(
                                f"INSERT OR REPLACE INTO runs VALUES ({marks})",
                                _row(damaged, row[1]),
                            )
                    stats.removed = len(gone)
            finally:
                db.close()
            return stats

    def runs(self, query: str = "", limit: int = 200, offset: int = 0) -> list[IndexedRun]:
        """Runs newest first; ``query`` filters on path, agent or profile (substring)."""
        where, args = _where(query)
        sql = f"SELECT * FROM runs {where} ORDER BY timestamp DESC, path LIMIT ? OFFSET ?"
        return [_run(row) for row in self._query(sql, (*args, limit, offset))]

    def count(self, query: str = "") -> int:
        where, args = _where(query)
        rows = self._query(f"SELECT COUNT(*) FROM runs {where}", args)
        return int(rows[0][0])

    def get(self, rel: str) -> IndexedRun | None:
        rows = self._query("SELECT * FROM runs WHERE path = ?", (rel,))
        return _run(rows[0]) if rows else None

    def _query(self, sql: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        db = self._connect()
        try:
            return db.execute(sql, args).fetchall()
        finally:
            db.close()


def _where(query: str) -> tuple[str, tuple[str, ...]]:
    if not query:
        return "", ()
    like = "%" + query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    clause = " OR ".join(f"{c} LIKE ? ESCAPE '\\'" for c in ("path", "agent", "profile"))
    return f"WHERE {clause}", (like, like, like)


def _row(run: IndexedRun, signature: str) -> tuple[Any, ...]:
    values = dict(run.__dict__, signature=signature)
    values["dimensions"] = json.dumps(run.dimensions, sort_keys=True)
    values["categories"] = json.dumps(run.categories, sort_keys=True)
    values["aborted"] = int(run.aborted)
    return tuple(values[c] for c in _COLUMNS)


def _run(row: tuple[Any, ...]) -> IndexedRun:
    """An index row as stored; a damaged one (edited, or written by another version) is only
    its path and what is wrong with it (the viewer reads every listed run again anyway)."""
    try:
        values = dict(zip(_COLUMNS, row, strict=True))
        values.pop("signature")
        values["dimensions"] = json.loads(values["dimensions"])
        values["categories"] = json.loads(values["categories"])
        values["aborted"] = bool(values["aborted"])
        return IndexedRun(**values)
    except (ValueError, TypeError) as exc:
        path = row[0] if row and isinstance(row[0], str) else ""
        return IndexedRun(path=path, error=f"damaged index row: {type(exc).__name__}")
