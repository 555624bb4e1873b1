"""The journal's log: every finished scenario one record appended to one file (issue 30).

A record is a header line, then the result's and the evidence's bytes, then a newline::

    oasis-journal-record {"chain": ..., "evidence": {"sha256", "size"} | null,
                          "result": {"sha256", "size"}, "scenario_id": ..., "signature": {...}}
    <result JSON><evidence gzip>

``chain`` is SHA-256 over the previous record's chain (the first: a seed naming the run) and
the record's own fields, so a record changed, removed, reordered or inserted breaks the chain
of every record from it on; the signature (the run key, as the manifest's, engine/manifest.py)
covers the chain, so without the key nobody writes a record the run would accept. Unsigned,
the chain detects damage, not forgery: the resume re-judges what it keeps (26.2).

A record is appended with one ``write``: a process killed at any moment leaves whole records
and at most one torn last record, the tail cut short. :func:`read_log` reports the torn tail
apart (dropped by the resume) from a whole record that does not check out (tampering).

``run-state.json`` is sealed the same way (:func:`seal`): its digest and signature are in the
file itself, so rewriting it is one atomic rename, with no manifest to rewrite after it.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio

from ..files import RUN_FILE_LIMIT, TEMP_PREFIX, read_bytes
from .manifest import ED25519, HMAC_SHA256, UNSIGNED, RunKey
from .rundir import RECORD, RESULTS, STATE

__all__ = [
    "INTERRUPTED",
    "LOG",
    "LogCheck",
    "LogRecord",
    "append_record",
    "check_journal",
    "count_records",
    "encode_record",
    "evidence_entry",
    "interrupted_message",
    "interruption",
    "journal_state",
    "read_log",
    "seal",
    "seed",
    "unseal",
]

#: the log's name in the run directory while the run runs
LOG = "journal.log"
#: the state of a run stopped before it finished (engine/journal.py writes it)
INTERRUPTED = "interrupted"
MAGIC = b"oasis-journal-record "
#: the longest header line read: a scenario id, two digests, a signature
HEADER_LIMIT = 1 << 16
_SEED = "oasis-eval run journal log"


@dataclass
class LogRecord:
    """One whole record as read back: its scenario, its bytes, its place in the chain."""

    scenario_id: str
    result: bytes
    evidence: bytes | None
    chain: str


@dataclass
class LogCheck:
    """What :func:`read_log` found: the whole records that check out, then either the end of
    the file, a torn tail (a record cut short: ``torn`` is where it starts) or tampering."""

    records: list[LogRecord] = field(default_factory=list)
    #: the offset after the last whole record (where a resume appends)
    end: int = 0
    torn: bool = False
    problems: list[str] = field(default_factory=list)
    #: "algorithm key id" of a signed log read without a key to check it
    unverified: str | None = None
    #: files a crash left in the run directory (a state's temporary file): removed on resume
    leftover: list[str] = field(default_factory=list)


def _canonical(data: Any) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def _entry(data: bytes | None) -> dict[str, Any] | None:
    if data is None:
        return None
    return {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}


def evidence_entry(data: bytes) -> dict[str, Any]:
    """A record's entry of ``data``: its SHA-256 and size, the very form of a manifest's file
    entry (engine/manifest.py ``file_entry``), so one digest serves both."""
    return {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}


def seed(run_id: str, started: str) -> str:
    """The chain before the first record: the run's own, so no other run's log fits it."""
    return hashlib.sha256(_canonical([_SEED, run_id, started])).hexdigest()


def _chain(previous: str, body: dict[str, Any]) -> str:
    return hashlib.sha256(previous.encode("ascii") + b"\n" + _canonical(body)).hexdigest()


def _signature(payload: bytes, key: RunKey | None) -> dict[str, Any]:
    signer = key if key is not None and key.can_sign else None
    if signer is None:
        return {"algorithm": UNSIGNED, "key_id": None, "value": None}
    return {"algorithm": signer.algorithm, "key_id": signer.key_id, "value": signer.sign(payload)}


def encode_record(
    scenario_id: str,
    result: bytes,
    evidence: bytes | None,
    previous: str,
    key: RunKey | None,
    evidence_entry: dict[str, Any] | None = None,
) -> tuple[bytes, str]:
    """The bytes of one record after the chain ``previous``; the record's chain.
    ``evidence_entry``: :func:`evidence_entry` of these very ``evidence`` bytes, when the
    caller computed it to keep (issue 30: the manifest reuses it, each byte hashed once)."""
    if evidence_entry is None:
        evidence_entry = _entry(evidence)
    body = {"evidence": evidence_entry, "result": _entry(result), "scenario_id": scenario_id}
    chain = _chain(previous, body)
    header = {**body, "chain": chain, "signature": _signature(chain.encode("ascii"), key)}
    return b"".join((MAGIC, _canonical(header), b"\n", result, evidence or b"", b"\n")), chain


def append_record(fd: int, data: bytes) -> None:
    """Append one record with as few ``write`` calls as the kernel allows (one, usually),
    then flush it: the one sync of a finished scenario (issue 30)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
    getattr(os, "fdatasync", os.fsync)(fd)


# ---- reading --------------------------------------------------------------------------------------


def read_log(path: Path, run_seed: str, key: RunKey | None) -> LogCheck:
    """Every whole record of the log at ``path`` after ``run_seed``, checked: digests, chain,
    signature (a signed log needs ``key``; with ``key``, an unsigned one is tampering, as for
    the manifest), no scenario twice. Reading stops at the first record that does not check
    out (``problems``) or at a torn tail (``torn``)."""
    check = LogCheck()
    seen: set[str] = set()
    previous = run_seed
    with path.open("rb") as handle:
        while True:
            line = handle.readline(HEADER_LIMIT + 1)
            if not line:
                return check
            if not line.endswith(b"\n"):
                if len(line) > HEADER_LIMIT:
                    check.problems.append(f"{_where(check)}: a header longer than any record's")
                else:
                    check.torn = True
                return check
            header, problem = _header(line)
            if header is None:
                check.problems.append(f"{_where(check)}: {problem}")
                return check
            sizes = [header["result"]["size"], (header["evidence"] or {}).get("size", 0)]
            payload = handle.read(sizes[0] + sizes[1] + 1)
            if len(payload) < sizes[0] + sizes[1] + 1:
                check.torn = True
                return check
            record = LogRecord(
                header["scenario_id"],
                payload[: sizes[0]],
                payload[sizes[0] : -1] if header["evidence"] is not None else None,
                header["chain"],
            )
            problem = _checked(header, record, payload, previous, key, seen, check)
            if problem:
                check.problems.append(
                    f"{_where(check)} (scenario {record.scenario_id!r}): {problem}"
                )
                return check
            check.records.append(record)
            check.end += len(line) + len(payload)
            seen.add(record.scenario_id)
            previous = record.chain


def _where(check: LogCheck) -> str:
    return f"{LOG}: record {len(check.records) + 1} (byte {check.end})"


def _header(line: bytes) -> tuple[dict[str, Any] | None, str]:
    """The header of a record, checked for shape; None and why when it is not one."""
    if not line.startswith(MAGIC):
        return None, "not a journal record"
    try:
        header = json.loads(line[len(MAGIC) :], object_pairs_hook=_no_duplicates)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        return None, f"an unreadable record header ({str(exc)[:120]})"
    if not (
        isinstance(header, dict)
        and set(header) == {"chain", "evidence", "result", "scenario_id", "signature"}
        and isinstance(header["scenario_id"], str)
        and isinstance(header["chain"], str)
        and isinstance(header["signature"], dict)
        and _sized(header["result"])
        and (header["evidence"] is None or _sized(header["evidence"]))
    ):
        return None, "a record header of another shape"
    if _canonical(header) != line[len(MAGIC) : -1]:
        return None, "a record header not laid out as the run writes it"
    return header, ""


def _sized(entry: Any) -> bool:
    return (
        isinstance(entry, dict)
        and set(entry) == {"sha256", "size"}
        and isinstance(entry["sha256"], str)
        and type(entry["size"]) is int
        and 0 <= entry["size"] <= RUN_FILE_LIMIT
    )


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    if len({k for k, _ in pairs}) != len(pairs):
        raise ValueError("a key appears twice")
    return dict(pairs)


def _checked(
    header: dict[str, Any],
    record: LogRecord,
    payload: bytes,
    previous: str,
    key: RunKey | None,
    seen: set[str],
    check: LogCheck,
) -> str:
    """Why a whole record does not check out ("" when it does)."""
    if payload[-1:] != b"\n":
        return "its bytes do not end where its header says"
    if _entry(record.result) != header["result"] or _entry(record.evidence) != header["evidence"]:
        return "its result or evidence does not match its digest"
    body = {k: header[k] for k in ("evidence", "result", "scenario_id")}
    if _chain(previous, body) != header["chain"]:
        return "out of its place in the chain (a record was removed, reordered or inserted)"
    if record.scenario_id in seen:
        return "a scenario recorded twice"
    problem, signed_by = _signature_problem(header["signature"], header["chain"].encode(), key)
    if signed_by and key is None:
        check.unverified = signed_by
    return problem


def _signature_problem(
    signature: dict[str, Any], payload: bytes, key: RunKey | None
) -> tuple[str, str | None]:
    """Why ``signature`` over ``payload`` is refused ("" when it is not); who signed it.
    As the manifest's (engine/manifest.py): with a key, an unsigned one or another key's is
    tampering; signed and no key configured is for the caller to refuse (no key to check)."""
    algorithm, key_id, value = (signature.get(k) for k in ("algorithm", "key_id", "value"))
    if algorithm == UNSIGNED:
        if key is not None:
            return (
                f"unsigned, but a run key is configured ({key.source}, key id {key.key_id})",
                None,
            )
        return "", None
    if algorithm not in (HMAC_SHA256, ED25519) or not isinstance(value, str):
        return f"a malformed signature (algorithm {algorithm!r})", None
    signed_by = f"{algorithm} key {key_id}"
    if key is None:
        return "", signed_by
    if algorithm != key.algorithm or key_id != key.key_id:
        return f"signed by another key ({signed_by}), not the configured one ({key.key_id})", None
    if not key.verify(payload, value):
        return f"its signature does not verify with the configured key ({key.key_id})", None
    return "", signed_by


def count_records(path: Path) -> int:
    """How many whole records the log at ``path`` holds, by their headers alone: no digest
    checked (for a message, a progress count), a torn or unreadable tail not counted."""
    count = 0
    try:
        with path.open("rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            while line := handle.readline(HEADER_LIMIT + 1):
                header, _ = _header(line) if line.endswith(b"\n") else (None, "")
                if header is None:
                    break
                skip = header["result"]["size"] + (header["evidence"] or {}).get("size", 0) + 1
                if handle.tell() + skip > size:
                    break
                handle.seek(skip, os.SEEK_CUR)
                count += 1
    except OSError:
        pass
    return count


# ---- the sealed run state --------------------------------------------------------------------------


def seal(state: dict[str, Any], key: RunKey | None) -> bytes:
    """``state`` as run-state.json holds it: with its digest and, with a run key, signature."""
    body = {k: v for k, v in state.items() if k != "seal"}
    payload = _canonical(body)
    sealed = {**body, "seal": {"sha256": hashlib.sha256(payload).hexdigest()}}
    sealed["seal"].update(_signature(payload, key))
    return (json.dumps(sealed, indent=1, sort_keys=True) + "\n").encode("utf-8")


def unseal(state: dict[str, Any], key: RunKey | None) -> tuple[str, str | None]:
    """Why a run state read back is refused as tampered ("" when it is not); who signed it."""
    sealed = state.get("seal")
    if not isinstance(sealed, dict):
        return "run-state.json carries no seal (its digest was removed)", None
    payload = _canonical({k: v for k, v in state.items() if k != "seal"})
    if sealed.get("sha256") != hashlib.sha256(payload).hexdigest():
        return "run-state.json does not match its digest", None
    problem, signed_by = _signature_problem(sealed, payload, key)
    return (f"run-state.json: {problem}" if problem else ""), signed_by


# ---- the journal as a whole ------------------------------------------------------------------------


def check_journal(run_dir: Path, state: dict[str, Any], key: RunKey | None) -> LogCheck:
    """The interrupted run's journal checked: the state (read as ``state``) against its seal,
    the log record by record, the state's count of records against the log, nothing else in
    the directory (a state's temporary file a crash left is ``leftover``). What does not
    check out is in ``problems``; a signed journal read with no key, in ``unverified``."""
    problems, leftover = _entries(run_dir)
    problem, signed_by = unseal(state, key)
    problems += [problem] if problem else []
    log = run_dir / LOG
    check = LogCheck()
    if log.is_symlink() or (log.exists() and not log.is_file()):
        problems.append(f"{LOG} is not a regular file")
    elif not problems:
        if log.exists():
            check = read_log(log, seed(str(state.get("run_id")), str(state.get("started"))), key)
            problems += check.problems or _count_problems(state, check)
        elif _count_problems(state, check):  # the state counted records: removed
            problems.append(f"{LOG} is missing")
        # else a kill came between the state and the log's creation: nothing was recorded
    check.problems, check.leftover = problems, leftover
    check.unverified = signed_by or check.unverified
    return check


def _entries(run_dir: Path) -> tuple[list[str], list[str]]:
    """What the directory holds beyond the state and the log, as (tampering, leftovers)."""
    problems, leftover = [], []
    for entry in sorted(os.scandir(run_dir), key=lambda e: e.name):
        if entry.name in (STATE, LOG):
            if entry.is_symlink() or not entry.is_file(follow_symlinks=False):
                problems.append(f"{entry.name} is not a regular file")
        elif entry.name.startswith(f"{TEMP_PREFIX}{STATE}.") and entry.is_file(
            follow_symlinks=False
        ):
            leftover.append(entry.name)
        else:
            problems.append(f"added: {entry.name}")
    return problems, leftover


def _count_problems(state: dict[str, Any], check: LogCheck) -> list[str]:
    """The log holds at least the records the state counted, the last of them the one it
    named: records removed from the end of the log are found as removed from its middle."""
    count, chain = state.get("records"), state.get("chain")
    if type(count) is not int or count < 0 or not isinstance(chain, str):
        return ["run-state.json does not say how many records the log held"]
    held = check.records
    if len(held) < count:
        return [f"{LOG} holds {len(held)} whole record(s), run-state.json counted {count}"]
    named = held[count - 1].chain if count else seed(str(state["run_id"]), str(state["started"]))
    return [] if named == chain else [f"{LOG}'s record {count} is not the one run-state.json named"]


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
    done = (
        count_records(run_dir / LOG)
        if (run_dir / LOG).is_file()
        else len(list((run_dir / RESULTS).glob("*.json")))  # a journal of version 2
    )
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
