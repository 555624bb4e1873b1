"""The run's journal: a run directory from the first scenario on, so that an interrupted run
keeps what finished and can be resumed (issue 17 item 3).

Layout while the run runs (the finished run directory, engine/rundir.py, replaces it whole)::

    RUN_DIR/
      run-state.json   running | interrupted; the run id and start; everything the run was
                       started with (what a resume must match); the agent identity; how many
                       records the log held then; sealed: its digest, signed when a run key
                       is set (engine/journal_log.py)
      journal.log      each finished scenario one record appended: its result (with its tier
                       evidence, fault) and its evidence, exactly as the finished run stores
                       it; chained and signed record by record (engine/journal_log.py)

A scenario has finished exactly when its record is whole in the log: one ``write`` and one
flush a scenario (issue 30: no file created per scenario). A process killed mid-append leaves
a torn last record, which a resume drops (the scenario runs again); a whole record that does
not check out, a record missing, a run state that does not match its seal, or any other file
is tampering, refused. The directory holds no verdict until the run finishes: an interrupted
run never reads PASS. A journal of the earlier layout (version 2: ``results/``, ``evidence/``
and a manifest) is refused with what to do: this version does not resume it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from ..diagnostics import UnusableInput
from ..evaluation.evidence import ScenarioEvidence
from ..evaluation.results import ScenarioResult, ScenarioState
from ..evaluation.stored_evidence import evidence_from_json
from ..exit_codes import EXIT_ABORTED, EXIT_TAMPERED
from ..files import RUN_FILE_LIMIT, gunzip_bytes, sync_directory, write_atomic
from ..spec.common import VerdictStatus
from .journal_log import (
    INTERRUPTED,
    LOG,
    LogCheck,
    LogRecord,
    append_record,
    check_journal,
    encode_record,
    evidence_entry,
    interrupted_message,
    interruption,
    journal_state,
    seal,
    seed,
)
from .manifest import RunKey
from .replay import Rejudge, kept_problems
from .rundir import RECORD, STATE, StoredEvidence, evidence_bytes, recorded_run_id

__all__ = [
    "Finished",
    "ResumeRefused",
    "RunInterrupted",
    "RunJournal",
    "RunTampered",
    "interrupted_message",
    "interruption",
    "journal_state",
    "recorded_options",
    "resume_journal",
]

#: version 2 records the run's options (a resume by directory alone, issue 29 item 1);
#: version 3 keeps the finished scenarios in one appended log (issue 30, session 17)
FORMAT, VERSION = "oasis-eval run journal", 3
RUNNING = "running"


class ResumeRefused(UnusableInput):
    """``--resume`` of a directory that cannot be resumed with these inputs (exit 2)."""


class RunTampered(UnusableInput):
    """The journal does not match its manifest: refused as tampering (exit 5, as replay)."""

    exit_code = EXIT_TAMPERED


class RunInterrupted(UnusableInput):
    """A run directory read back (report, replay) holds an interrupted run: no verdict (exit 3)."""

    exit_code = EXIT_ABORTED


class Finished(BaseModel):
    """One finished scenario as the journal keeps it: what the phase needs to carry on."""

    scenario_id: str
    result: ScenarioResult
    #: the tier evidence the provider gave at provisioning (the phase keeps the first)
    tier_evidence: Any = None
    #: the harness fault that aborts the run, when the scenario had one
    fault: str | None = None
    #: not stored in the result file: its own ``evidence/`` file
    evidence: ScenarioEvidence | None = None


class RunJournal:
    """Writes the run directory as the run goes. A new run's journal is written at
    ``run_dir`` from :meth:`begin` on; ``found`` is the run id ``run_dir`` held before the run
    (an earlier run it replaces, as for api/publish.py). :func:`resume_journal` carries on
    with an interrupted one."""

    def __init__(
        self,
        run_dir: Path,
        run_id: str,
        started: str,
        fingerprint: dict[str, Any],
        key: RunKey | None,
        found: str | None = None,
    ) -> None:
        self.run_dir, self.run_id, self.started = run_dir, run_id, started
        self.fingerprint, self.key, self.found = fingerprint, key, found
        #: the options the run was started with, secrets excluded (api/resume.py): what
        #: ``oasis run --resume RUN_DIR`` alone resumes with
        self.options: dict[str, Any] | None = None
        #: scenario id -> what finished before (a resume); these are not run again
        self.prior: dict[str, Finished] = {}
        #: seconds the earlier parts of the run took (a resume continues the duration)
        self.elapsed_before = 0.0
        self.identity: dict[str, Any] | None = None
        self.resumed = False
        self.begun = False
        #: the scenarios the log holds, the chain of its last record, where it ends
        self._ids: list[str] = []
        self._chain = seed(run_id, started)
        self._end = 0
        #: files a crash left behind (a run state's temporary file): removed when the run carries on
        self._leftover: list[str] = []
        #: scenario id -> (evidence, its stored bytes, their digest or None) the log holds: the
        #: finished run writes these bytes (rundir.write_run), its manifest lists the digest
        self.stored: dict[str, StoredEvidence] = {}
        self._clock = time.monotonic()
        #: the directory's lock, held while this process runs the run (released at exit)
        self._lock: int | None = None
        #: the log, open for appending while this process runs the run
        self._log: int | None = None

    # ---- the runner's calls -------------------------------------------------------------------

    def begin(self, identity: dict[str, Any], rejudge: Rejudge | None = None) -> None:
        """Before the first scenario, after preflight and the agent's identity: create the
        directory (or, resuming, check the identity is the one recorded and re-judge what the
        interrupted run kept with ``rejudge``) and record the state."""
        if self.resumed:
            diffs = differences(self.identity or {}, identity)
            if diffs:
                self.release()
                raise ResumeRefused(
                    "the agent or provider differs from the run being resumed: " + "; ".join(diffs),
                    file=str(self.run_dir),
                )
            renewed: dict[str, ScenarioResult] = {}
            problems = (
                kept_problems(self.prior, rejudge, renewed) if rejudge is not None else []
            )  # as replay
            if problems:
                self.release()
                raise RunTampered(
                    "refused to resume: a kept result is not the one its kept evidence gives "
                    "(tampered with; `oasis replay` would say the same): " + "; ".join(problems),
                    file=str(self.run_dir),
                )
            for sid, got in renewed.items():  # a plugin's fault judged again (the plugin fixed)
                lost = got.fault if got.status is VerdictStatus.PROVIDER_FAILURE else None
                fault = self.prior[sid].fault or lost  # it aborts the run, as in the run
                self.prior[sid] = self.prior[sid].model_copy(update={"result": got, "fault": fault})
        else:
            self.run_dir = claim(self.run_dir, self.run_id, self.found)
            self._lock = hold(self.run_dir)
        self.identity = identity
        self._clock = time.monotonic()
        self._state(RUNNING, None)  # first: a directory with a state is a run to resume
        self._log = _open_log(self.run_dir, self._end if self.resumed else None)
        for rel in self._leftover:  # after the state: the run carries on
            with contextlib.suppress(OSError):
                (self.run_dir / rel).unlink()
        self.begun = True

    def finished(self, item: Finished) -> None:
        """A scenario finished: its result and evidence, one record appended to the log and
        flushed, the one sync of a scenario (issue 30); no file is created."""
        data = entry = None
        if item.evidence is not None:
            data = evidence_bytes(item.evidence)
            entry = evidence_entry(data)  # the record's digest, and the manifest's (issue 30)
            self.stored[item.scenario_id] = (item.evidence, data, entry)
        result = item.model_dump_json(exclude={"evidence"}).encode("utf-8")
        record, chain = encode_record(item.scenario_id, result, data, self._chain, self.key, entry)
        if self._log is None:
            raise RuntimeError("the journal's log is not open (not begun, or an append failed)")
        try:
            append_record(self._log, record)
        except BaseException:  # a full disk: never a record after a part of one
            self._cut_off()
            raise
        self._chain, self._end = chain, self._end + len(record)
        self._ids.append(item.scenario_id)

    def _cut_off(self) -> None:
        """An append failed: cut the log back to its last whole record and append nothing
        more (another scenario finishing meanwhile is not kept: the run is going down)."""
        fd, self._log = self._log, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, self._end)
            with contextlib.suppress(OSError):
                os.close(fd)

    def interrupted(self, reason: str) -> None:
        """The run stops before it finished (Ctrl-C, SIGTERM, a crash of the harness): say so
        in the state. Never raises: the run is already going down."""
        if self.begun:
            with contextlib.suppress(OSError):
                self._state(INTERRUPTED, reason)
        self.release()

    def abandon(self, reason: str) -> None:
        """The run stopped with no verdict (the agent never worked, issue 26): a directory this
        run created holding nothing finished is removed; anything else is left interrupted."""
        if self.begun and not self.resumed and not self.finished_ids:
            self.release()
            shutil.rmtree(self.run_dir, ignore_errors=True)
            self.begun = False
            return
        self.interrupted(reason)

    def release(self) -> None:
        """Close the log and let go of the directory's lock (the run is written, or stopped)."""
        for fd in (self._log, self._lock):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._log = self._lock = None

    @property
    def finished_ids(self) -> list[str]:
        """The scenarios finished so far (before a resume too), sorted."""
        return sorted(self._ids)

    def elapsed(self) -> float:
        return self.elapsed_before + (time.monotonic() - self._clock)

    # ---- writing ------------------------------------------------------------------------------

    def _state(self, status: str, reason: str | None) -> None:
        state = {
            "format": FORMAT,
            "version": VERSION,
            "status": status,
            "reason": reason,
            "run_id": self.run_id,
            "started": self.started,
            "elapsed": round(self.elapsed(), 3),
            "fingerprint": self.fingerprint,
            "identity": self.identity,
            "options": self.options,
            # the log held at least these records: fewer on resume means some were removed
            "records": len(self._ids),
            "chain": self._chain,
        }
        write_atomic(self.run_dir / STATE, seal(state, self.key))


def _open_log(run_dir: Path, end: int | None) -> int:
    """The log opened for appending: created (``end`` None: a new run, the file must not
    exist; its directory entry flushed once) or an interrupted run's, a torn last record cut
    off at ``end`` (created when a kill came before it was: no record). Not inherited by any
    process the run starts (an agent's)."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
    flags |= getattr(os, "O_BINARY", 0) | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(run_dir / LOG, flags | (os.O_EXCL if end is None else 0), 0o644)
    try:
        if hasattr(os, "fchmod"):  # as files.write_atomic: whatever the umask
            os.fchmod(fd, 0o644)
        if end is None:
            sync_directory(run_dir)
        elif os.fstat(fd).st_size != end:
            os.ftruncate(fd, end)  # the torn tail: that scenario runs again
            os.fsync(fd)
    except BaseException:
        os.close(fd)
        raise
    return fd


def claim(target: Path, run_id: str, found: str | None) -> Path:
    """Create the run directory: ``target`` when it is new or empty, or when it holds the
    earlier run seen before the run (``found``: replaced); otherwise (something appeared
    there meanwhile) ``<target>-<run id>``, leaving the other alone (api/publish.py)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if found is not None and not target.is_symlink() and recorded_run_id(target) == found:
        aside = Path(tempfile.mkdtemp(prefix=f".{target.name}.replaced-", dir=target.parent))
        os.rename(target, aside / "run")
        shutil.rmtree(aside, ignore_errors=True)
    try:
        target.mkdir()
        return target
    except FileExistsError:
        if target.is_dir() and not target.is_symlink() and not any(target.iterdir()):
            return target
    fallback = target.with_name(f"{target.name}-{run_id}")
    fallback.mkdir()
    return fallback


def hold(run_dir: Path) -> int | None:
    """Lock ``run_dir`` for this process (an advisory ``flock``, released when the process
    ends, however it ends): a resume while the run still runs elsewhere is refused."""
    try:
        import fcntl
    except ImportError:  # not POSIX: no lock, as before
        return None
    fd = os.open(run_dir, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise ResumeRefused(
            "the run is still running (another process holds its directory): wait for it, "
            "or stop it and resume",
            file=str(run_dir),
        ) from None
    return fd


# ---- resuming ---------------------------------------------------------------------------------------


def resume_journal(run_dir: Path, fingerprint: dict[str, Any], key: RunKey | None) -> RunJournal:
    """The journal of the interrupted run in ``run_dir``, to carry on with. Refused: a
    directory that is not an interrupted run, a journal that does not check out (tampering),
    or inputs that differ from those it was started with (each difference named)."""
    state = _interrupted_state(run_dir)
    lock = hold(run_dir)  # before anything is checked: not while it still runs
    try:
        journal = _resumed(run_dir, state, fingerprint, key)
    except BaseException:
        if lock is not None:
            os.close(lock)
        raise
    journal._lock = lock
    return journal


def _resumed(
    run_dir: Path, state: dict[str, Any], fingerprint: dict[str, Any], key: RunKey | None
) -> RunJournal:
    _check_version(run_dir, state)
    check = _checked(run_dir, state, key)
    diffs = differences(state.get("fingerprint") or {}, fingerprint)
    if diffs:
        raise ResumeRefused(
            "the inputs differ from those the run was started with (resume with the same "
            "profile, agent, provider and options): " + "; ".join(diffs),
            file=str(run_dir),
        )
    journal = RunJournal(run_dir, str(state["run_id"]), str(state["started"]), fingerprint, key)
    journal.resumed = True
    journal.identity = state.get("identity")
    journal.elapsed_before = float(state.get("elapsed") or 0.0)
    journal.prior = _finished(run_dir, check.records)
    journal._ids = [record.scenario_id for record in check.records]
    journal._chain = check.records[-1].chain if check.records else journal._chain
    journal._end, journal._leftover = check.end, check.leftover
    for record in check.records:  # the finished run stores these very bytes
        item = journal.prior[record.scenario_id]
        if item.evidence is not None and record.evidence is not None:
            journal.stored[record.scenario_id] = (item.evidence, record.evidence, None)
    return journal


def _check_version(run_dir: Path, state: dict[str, Any]) -> None:
    """Refuse a journal this version does not write, saying what to do instead."""
    ours = state.get("format") == FORMAT and state.get("version") == VERSION
    if "format" not in state or (
        ours and not all(isinstance(state.get(k), str) for k in ("run_id", "started"))
    ):  # written atomically: never half written by a crash
        raise RunTampered(
            "refused to resume: run-state.json is unreadable or not a run state (tampered with)",
            file=str(run_dir),
        )
    if ours:
        return
    if state.get("format") == FORMAT and state.get("version") == 2:
        raise ResumeRefused(
            "the run was interrupted under an earlier oasis-eval, whose journal (results/, "
            f"evidence/ and a manifest) this version does not resume (it writes {LOG}): "
            "resume it with the oasis-eval that started it, or run it again into another "
            "directory (--out), or remove this one and run it again",
            file=str(run_dir),
        )
    raise ResumeRefused(
        f"run-state.json is not a version {VERSION} {FORMAT} (written by another version "
        "of oasis-eval): this run cannot be resumed here",
        file=str(run_dir),
    )


def _interrupted_state(run_dir: Path) -> dict[str, Any]:
    state = journal_state(run_dir)
    if state is None:
        raise ResumeRefused(
            "the run has finished (it has a verdict): there is nothing to resume"
            if (run_dir / RECORD).is_file()
            else "not an interrupted run directory (no run-state.json)",
            file=str(run_dir),
        )
    return state


def recorded_options(run_dir: Path, key: RunKey | None) -> dict[str, Any] | None:
    """The options the interrupted run in ``run_dir`` recorded (api/resume.py), read only
    once its seal (signed when a run key is set) proves run-state.json is the one the run
    wrote; None when the run recorded none. Refused as :func:`resume_journal` refuses: not an
    interrupted run, an earlier journal, tampered with, signed without key."""
    state = _interrupted_state(run_dir)
    _check_version(run_dir, state)
    _checked(run_dir, state, key)
    options = state.get("options")  # the very mapping the seal was checked over
    return options if isinstance(options, dict) else None


def _checked(run_dir: Path, state: dict[str, Any], key: RunKey | None) -> LogCheck:
    """Refuse a journal that does not check out (engine/journal_log.py: the state against its
    seal, the log record by record, nothing else in the directory) or one signed when no key
    is configured. The log as read (a torn tail left out) and the files a crash left."""
    found = check_journal(run_dir, state, key)
    if found.problems:
        raise RunTampered(
            "refused to resume: the run directory does not check out (tampered with): "
            + "; ".join(found.problems),
            file=str(run_dir),
        )
    if found.unverified is not None and key is None:
        raise ResumeRefused(
            f"the run's journal is signed ({found.unverified}) and no run key is configured: "
            "set the key the run was started with to resume it",
            file=str(run_dir),
        )
    return found


def _finished(run_dir: Path, records: list[LogRecord]) -> dict[str, Finished]:
    """The finished scenarios the log holds, with their evidence."""
    out: dict[str, Finished] = {}
    for number, record in enumerate(records, 1):
        where = f"{LOG}: record {number} (scenario {record.scenario_id!r})"
        try:
            item = Finished.model_validate_json(record.result)
            if record.evidence is not None:
                item.evidence = evidence_from_json(
                    gunzip_bytes(record.evidence, where, RUN_FILE_LIMIT)
                )
        except (OSError, ValueError, ValidationError) as exc:
            raise RunTampered(
                f"{where} is unreadable: {str(exc)[:300]}", file=str(run_dir)
            ) from None
        if item.scenario_id != record.scenario_id or (
            item.evidence is None and item.result.state is ScenarioState.executed
        ):
            raise RunTampered(f"{where} does not hold what the run wrote there", file=str(run_dir))
        out[item.scenario_id] = item
    return out


def differences(recorded: Any, current: Any, name: str = "") -> list[str]:
    """What differs between two fingerprints, one line per field (dotted names)."""
    if isinstance(recorded, dict) and isinstance(current, dict):
        out: list[str] = []
        for key in sorted(set(recorded) | set(current)):
            out += differences(
                recorded.get(key), current.get(key), f"{name}.{key}" if name else key
            )
        return out
    if recorded == current:
        return []
    if any(isinstance(v, str) and v.startswith("sha256:") for v in (recorded, current)):
        return [f"{name} differs from the one the run was started with"]
    return [f"{name}: the run was started with {_short(recorded)}, now {_short(current)}"]


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= 120 else text[:117] + "..."
