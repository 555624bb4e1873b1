"""The run's journal: a run directory from the first scenario on, so that an interrupted run
keeps what finished and can be resumed (issue 17 item 3).

Layout while the run runs (the finished run directory, engine/rundir.py, replaces it whole)::

    RUN_DIR/
      run-state.json          running | interrupted; the run id and start; everything the run
                              was started with (what a resume must match); the agent identity
      results/<id>.json       each finished scenario's result (with its tier evidence, fault)
      evidence/<id>.json.gz   its evidence, exactly as the finished run stores it
      manifest.json           SHA-256 of exactly these files, signed when a run key is set

Each file is written atomically (files.write_atomic) and the manifest after each scenario, so
a scenario has finished exactly when its result is listed. A crash between a file and the
manifest leaves a file that is not listed: a resume discards it and runs the scenario again.
A listed file that changed, a listed one missing or any other file is tampering, refused.
The directory holds no verdict until the run finishes: an interrupted run never reads PASS.
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

import anyio
from pydantic import BaseModel, ValidationError

from ..diagnostics import UnusableInput
from ..evaluation.evidence import ScenarioEvidence
from ..evaluation.results import ScenarioResult, ScenarioState
from ..evaluation.stored_evidence import evidence_from_json
from ..files import (
    RUN_FILE_LIMIT,
    TEMP_PREFIX,
    deferred_sync,
    one_sync,
    read_bytes,
    read_maybe_gzip,
    write_atomic,
)
from .manifest import (
    Integrity,
    RunKey,
    file_entry,
    listed_files,
    verify_manifest,
    write_manifest_of,
)
from .replay import Rejudge, kept_problems
from .rundir import (
    EVIDENCE,
    RECORD,
    RESULTS,
    STATE,
    _safe,
    evidence_bytes,
    evidence_name,
    recorded_run_id,
)

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

#: version 2 records the run's options (a resume by directory alone, issue 29 item 1)
FORMAT, VERSION = "oasis-eval run journal", 2
RUNNING, INTERRUPTED = "running", "interrupted"


class ResumeRefused(UnusableInput):
    """``--resume`` of a directory that cannot be resumed with these inputs (exit 2)."""


class RunTampered(UnusableInput):
    """The journal does not match its manifest: refused as tampering (exit 5, as replay)."""

    exit_code = 5


class RunInterrupted(UnusableInput):
    """A run directory read back (report, replay) holds an interrupted run: no verdict (exit 3)."""

    exit_code = 3


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
        self._files: dict[str, dict[str, Any]] = {}
        #: scenario id -> (the evidence this process finished, its stored bytes): the
        #: finished run writes the same bytes again (rundir.write_run), not recomputed
        self.stored: dict[str, tuple[ScenarioEvidence, bytes]] = {}
        self._clock = time.monotonic()
        #: the directory's lock, held while this process runs the run (released at exit)
        self._lock: int | None = None

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
            problems = (
                kept_problems(self.prior, rejudge) if rejudge is not None else []
            )  # as replay
            if problems:
                self.release()
                raise RunTampered(
                    "refused to resume: a kept result is not the one its kept evidence gives "
                    "(tampered with; `oasis replay` would say the same): " + "; ".join(problems),
                    file=str(self.run_dir),
                )
        else:
            self.run_dir = claim(self.run_dir, self.run_id, self.found)
            self._lock = hold(self.run_dir)
        self.identity = identity
        self._clock = time.monotonic()
        self._state(RUNNING, None)
        self.begun = True

    def finished(self, item: Finished) -> None:
        """A scenario finished: its evidence, its result, then the manifest listing both.
        One sync per scenario (issue 30): both files are on disk before the manifest lists
        them; the manifest itself is flushed by the next scenario's sync or the finished run
        (a manifest lost to a power cut only means the scenario runs again on resume)."""
        with one_sync(self.run_dir):
            if item.evidence is not None:
                data = evidence_bytes(item.evidence)
                self.stored[item.scenario_id] = (item.evidence, data)
                self._write(f"{EVIDENCE}/{evidence_name(item.scenario_id)}", data)
            stored = item.model_dump_json(indent=1, exclude={"evidence"}).encode("utf-8")
            self._write(f"{RESULTS}/{_safe(item.scenario_id)}.json", stored)
        with deferred_sync():
            self._manifest()

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
        """Let go of the directory's lock (the run is written, or stopped)."""
        if self._lock is not None:
            with contextlib.suppress(OSError):
                os.close(self._lock)
            self._lock = None

    @property
    def finished_ids(self) -> list[str]:
        """The result files of the scenarios finished so far (before a resume too)."""
        return sorted(rel for rel in self._files if rel.startswith(f"{RESULTS}/"))

    def elapsed(self) -> float:
        return self.elapsed_before + (time.monotonic() - self._clock)

    # ---- writing ------------------------------------------------------------------------------

    def _write(self, rel: str, data: bytes) -> None:
        write_atomic(self.run_dir / rel, data)
        self._files[rel] = file_entry(data)

    def _manifest(self) -> None:
        write_manifest_of(self.run_dir, self._files, self.key)

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
        }
        self._write(STATE, (json.dumps(state, indent=1, sort_keys=True) + "\n").encode("utf-8"))
        self._manifest()


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
    directory that is not an interrupted run, a manifest it does not match (tampering), or
    inputs that differ from those it was started with (each difference named)."""
    state = _interrupted_state(run_dir)
    lock = hold(run_dir)  # before anything is checked or discarded: not while it still runs
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
    _verify(run_dir, key)
    if state.get("format") != FORMAT or state.get("version") != VERSION:
        raise ResumeRefused(
            f"run-state.json is not a version {VERSION} {FORMAT} (written by another version "
            "of oasis-eval, or unreadable): this run cannot be resumed here",
            file=str(run_dir),
        )
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
    journal._files = listed_files(run_dir)
    journal.prior = _finished(run_dir, journal._files)
    return journal


def _verify(run_dir: Path, key: RunKey | None) -> None:
    """The journal matches its manifest; files a crash left unlisted are discarded."""
    for rel in _checked(run_dir, key):  # written, never listed: the scenario runs again
        with contextlib.suppress(OSError):
            (run_dir / rel).unlink()


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
    once its manifest (signed when a run key is set) proves run-state.json is the one the
    run wrote; None when the run recorded none (an earlier version). Refused as
    :func:`resume_journal` refuses: not an interrupted run, tampered with, signed without key."""
    _interrupted_state(run_dir)
    _checked(run_dir, key)
    options = _interrupted_state(run_dir).get("options")  # read again: as the manifest proved it
    return options if isinstance(options, dict) else None


def _checked(run_dir: Path, key: RunKey | None) -> list[str]:
    """Refuse a journal that does not match its manifest; the files a crash left unlisted."""
    check = verify_manifest(run_dir, key)
    if check.integrity is Integrity.unverified:
        raise ResumeRefused(
            f"the run's manifest is signed ({check.signed_by}) and no run key is configured: "
            "set the key the run was started with to resume it",
            file=str(run_dir),
        )
    leftover = [rel for rel in check.added if _leftover(rel)]
    other = [rel for rel in check.added if rel not in leftover]
    if (
        check.integrity is Integrity.no_manifest
        or check.modified
        or check.missing
        or other
        or check.problems
    ):
        lines = (
            check.lines()
            if check.integrity is not Integrity.no_manifest
            else ["manifest.json is missing"]
        )
        lines = [line for line in lines if line.removeprefix("added: ") not in leftover]
        raise RunTampered(
            "refused to resume: the run directory does not match its manifest "
            "(tampered with): " + "; ".join(lines),
            file=str(run_dir),
        )
    return leftover


def _leftover(rel: str) -> bool:
    parts = rel.split("/")
    name = parts[-1]
    if name.startswith(TEMP_PREFIX):
        return len(parts) == 1 or (len(parts) == 2 and parts[0] in (RESULTS, EVIDENCE))
    return len(parts) == 2 and parts[0] in (RESULTS, EVIDENCE)


def _finished(run_dir: Path, files: dict[str, dict[str, Any]]) -> dict[str, Finished]:
    """The finished scenarios the manifest lists, with their evidence."""
    out: dict[str, Finished] = {}
    for rel in sorted(files):
        if not rel.startswith(f"{RESULTS}/"):
            continue
        try:
            item = Finished.model_validate_json(read_bytes(run_dir / rel, RUN_FILE_LIMIT))
            ev_rel = f"{EVIDENCE}/{evidence_name(item.scenario_id)}"
            if ev_rel in files:
                item.evidence = evidence_from_json(
                    read_maybe_gzip(run_dir / ev_rel, RUN_FILE_LIMIT)
                )
        except (OSError, ValueError, ValidationError) as exc:
            raise RunTampered(f"{rel} is unreadable: {str(exc)[:300]}", file=str(run_dir)) from None
        if rel != f"{RESULTS}/{_safe(item.scenario_id)}.json" or (
            item.evidence is None and item.result.state is ScenarioState.executed
        ):
            raise RunTampered(
                f"{rel} does not hold what the run wrote there (scenario {item.scenario_id!r})",
                file=str(run_dir),
            )
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


# ---- readers ----------------------------------------------------------------------------------------


def journal_state(run_dir: Path) -> dict[str, Any] | None:
    """The state of the unfinished run in ``run_dir``; None when it is not one (finished,
    or not a run directory). An unreadable state reads as an interrupted run."""
    if not (run_dir / STATE).is_file() or (run_dir / RECORD).is_file():
        return None
    try:
        state = json.loads(read_bytes(run_dir / STATE, RUN_FILE_LIMIT))
    except (OSError, ValueError):
        return {"status": INTERRUPTED, "reason": "run-state.json is unreadable"}
    return state if isinstance(state, dict) else {"status": INTERRUPTED}


def interrupted_message(run_dir: Path) -> str | None:
    """What to tell someone reading ``run_dir`` (report, replay, diff) when it holds an
    unfinished run: interrupted, how much finished, how to resume. None for any other."""
    state = journal_state(run_dir)
    if state is None:
        return None
    done = len(list((run_dir / RESULTS).glob("*.json"))) if (run_dir / RESULTS).is_dir() else 0
    how = (
        f"interrupted ({state.get('reason')})"
        if state.get("status") == INTERRUPTED
        else "stopped without finishing (the process was killed, or is still running)"
    )
    return (
        f"the run was {how} after {done} scenario(s) finished: it has no verdict. "
        f"Resume it with `oasis run --resume {run_dir}` (it records its options)."
    )


def interruption(exc: BaseException) -> str:
    """Why the run stopped, for its state: the user's interrupt, or the harness failing."""
    if isinstance(exc, KeyboardInterrupt | anyio.get_cancelled_exc_class()):
        return "Ctrl-C, SIGTERM or SIGHUP"
    return f"the harness failed: {type(exc).__name__}: {str(exc)[:200]}"
