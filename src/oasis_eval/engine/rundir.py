"""The run directory: verdict, record, evidence bundle — everything replay needs.

Layout::

    RUN_DIR/
      verdict.yaml, verdict.json   the spec 05 §1 verdict
      run.json                     the run record (report content, scenario results)
      profile.json                 the profile as evaluated (secret values redacted)
      evidence/<scenario-id>.json.gz  transcripts, observations, snapshots (redacted),
                                   gzip with mtime 0 (older runs: ``<scenario-id>.json``)
      report.md, report.html, junit.xml
      manifest.json                SHA-256 of every other file, signed when a run key is set
                                   (engine/manifest.py); always written last

Every file is written atomically (files.write_atomic). While the run runs, the directory is
the run's journal instead (engine/journal.py): ``run-state.json`` and ``journal.log`` (the
result and evidence of each finished scenario), so an interrupted run can be resumed. Read any file of a
run directory, compressed or not, with :func:`read_run_file`.

No file holds a registered containment value or a declared Secret value:
they were replaced by markers at capture (engine/redaction.py).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..diagnostics import UnusableInput
from ..evaluation.evidence import ScenarioEvidence
from ..evaluation.stored_evidence import evidence_from_json, stored_json
from ..files import (
    GZIP_SUFFIX,
    RUN_FILE_LIMIT,
    gzip_bytes,
    read_bytes,
    read_maybe_gzip,
    write_atomic,
)
from ..spec.json_text import indented_json
from ..spec.profile import Profile
from .manifest import RunKey, load_run_key, write_manifest
from .record import RunRecord
from .redaction import Redactor, secret_literals
from .verdict_io import validate_verdict_data, verdict_data, verdict_json, verdict_yaml

VERDICT_YAML, VERDICT_JSON, RECORD, PROFILE, EVIDENCE = (
    "verdict.yaml",
    "verdict.json",
    "run.json",
    "profile.json",
    "evidence",
)
#: the journal of an unfinished run (engine/journal.py): its state; its finished results
#: (the journal of version 2: version 3 appends them to one log, engine/journal_log.py)
STATE, RESULTS = "run-state.json", "results"


#: how evidence files are named: written compressed; older runs hold them uncompressed
EVIDENCE_SUFFIX, PLAIN_SUFFIX = ".json.gz", ".json"

#: a scenario's evidence as the journal keeps it: the evidence, :func:`evidence_bytes` of it
#: and the digest entry of those bytes its record holds (None when not at hand: a resume)
StoredEvidence = tuple[ScenarioEvidence, bytes, dict[str, Any] | None]


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", name)


def evidence_name(scenario_id: str) -> str:
    """The file name a run writes a scenario's evidence to (under ``evidence/``)."""
    return _safe(scenario_id) + EVIDENCE_SUFFIX


def evidence_bytes(evidence: ScenarioEvidence) -> bytes:
    """The stored form of a scenario's evidence (evaluation/stored_evidence.py: each repeated
    part once, compact JSON), gzip-compressed deterministically."""
    return gzip_bytes(stored_json(evidence))


def stored_file(run_dir: Path, rel: str) -> Path | None:
    """The run directory's file ``rel`` as stored: ``rel`` itself, else ``rel + ".gz"``;
    None when neither exists."""
    for candidate in (run_dir / rel, run_dir / (rel + GZIP_SUFFIX)):
        if candidate.is_file():
            return candidate
    return None


def read_run_file(run_dir: Path, rel: str, limit: int = RUN_FILE_LIMIT) -> bytes:
    """The content of the run directory's file ``rel`` (POSIX, relative) as the run wrote it,
    whether it is stored compressed or not: ``rel`` itself (decompressed when it ends in
    ``.gz``), else ``rel + ".gz"`` decompressed. The one reader for every tool that reads run
    directories (report, replay, view, diff): evidence is stored compressed since issue 19.
    :class:`OSError` (filename set) when neither exists or it cannot be read."""
    path = run_dir / rel if rel.endswith(GZIP_SUFFIX) else stored_file(run_dir, rel)
    return read_maybe_gzip(path or run_dir / rel, limit)


def evidence_files(directory: Path) -> list[Path]:
    """The evidence files of an ``evidence/`` directory, compressed or not, sorted by name."""
    if not directory.is_dir():
        return []
    return sorted(
        p
        for p in directory.iterdir()
        if p.name.endswith((EVIDENCE_SUFFIX, PLAIN_SUFFIX)) and not p.name.startswith(".")
    )


def redacted_profile(profile: Profile, redactor: Redactor) -> dict[str, Any]:
    """The profile as JSON with every declared secret value (all forms) replaced by its marker
    (a scoped copy: the short forms it adds are not the run's to apply elsewhere)."""
    redactor = redactor.scoped()
    for scenario in profile.scenarios:
        for _, literal in secret_literals(scenario.preconditions.environment.state):
            redactor.register(literal)
    # behavior_namespaces (issue 14) is written only when set: older run directories stay
    # byte-identical and reload with the default
    skip = None if profile.behavior_namespaces else {"behavior_namespaces"}
    dumped = profile.model_dump(mode="json", exclude_unset=False, exclude=skip)
    redacted: dict[str, Any] = redactor.state(dumped)
    return redacted


def write_run(
    run_dir: Path,
    record: RunRecord,
    evidence: dict[str, ScenarioEvidence],
    profile_json: dict[str, Any],
    run_key: RunKey | None = None,
    stored: Mapping[str, StoredEvidence] | None = None,
    manifest: bool = True,
) -> dict[str, dict[str, Any]]:
    """Write the run record, verdict and evidence, then the manifest over them (signed with
    ``run_key``, or the key configured in the environment). Whoever adds files to the run
    directory afterwards (reports, probe files) writes the manifest again, last; such a caller
    passes ``manifest=False`` and writes it once (issue 30: each write reads and hashes every
    file of the run).
    ``stored``: scenario id -> (evidence, :func:`evidence_bytes` of it, their digest entry)
    already computed (the journal's, engine/journal.py); used for that very evidence object
    only (issue 30). Returns path -> digest entry of the evidence files whose digest the
    journal computed, for the manifest (``write_manifest``'s ``known``: each byte hashed once)."""
    problems = validate_verdict_data(verdict_data(record.verdict))
    if problems:  # our own bug: never write a verdict that breaks the spec 05 §1 structure
        raise RuntimeError("the verdict does not conform to spec 05 §1: " + "; ".join(problems))
    run_dir.mkdir(parents=True, exist_ok=True)
    write_atomic(run_dir / VERDICT_YAML, verdict_yaml(record.verdict).encode("utf-8"))
    write_atomic(run_dir / VERDICT_JSON, verdict_json(record.verdict).encode("utf-8"))
    write_atomic(run_dir / RECORD, record.model_dump_json(indent=2).encode("utf-8"))
    write_atomic(
        run_dir / PROFILE, indented_json(profile_json, indent=1, sort_keys=True).encode("utf-8")
    )
    ev_dir = run_dir / EVIDENCE
    ev_dir.mkdir(exist_ok=True)
    digests: dict[str, dict[str, Any]] = {}
    for scenario_id in sorted(evidence):
        item = evidence[scenario_id]
        name = evidence_name(scenario_id)
        known = (stored or {}).get(scenario_id)
        if known is not None and known[0] is item:
            data = known[1]
            if known[2] is not None:
                digests[f"{EVIDENCE}/{name}"] = known[2]
        else:
            data = evidence_bytes(item)
        write_atomic(ev_dir / name, data)
    if manifest:
        key = run_key if run_key is not None else load_run_key(signing=True)
        write_manifest(run_dir, key, digests)
    return digests


def recorded_run_id(run_dir: Path | None) -> str | None:
    """The run id recorded in ``run_dir/run.json``, or in the state of an unfinished run
    (engine/journal.py); "" when unreadable, None when there is none."""
    if run_dir is None:
        return None
    for name in (RECORD, STATE):
        if (run_dir / name).is_file():
            try:
                data = json.loads(read_bytes(run_dir / name, RUN_FILE_LIMIT))
                return str(data.get("run_id") or "")
            except (OSError, ValueError, AttributeError):
                return ""
    return None


def evidence_name_problems(files: dict[str, str]) -> list[str]:
    """Evidence files not named after the scenario they hold, or two holding one scenario: a
    run writes exactly ``evidence/<scenario id>.json.gz`` (before issue 19: ``.json``) per
    executed scenario, so either means a file was renamed or added (one of two files for a
    scenario would be judged silently). ``files``: evidence file name -> the scenario id it
    holds, as :func:`load_run` read them."""
    out = [
        f"{EVIDENCE}/{name}: holds the evidence of scenario {held!r}, "
        f"but a run writes it to {EVIDENCE}/{evidence_name(held)}"
        for name, held in sorted(files.items())
        if name not in (evidence_name(held), _safe(held) + PLAIN_SUFFIX)
    ]
    held_by: dict[str, list[str]] = {}
    for name, held in sorted(files.items()):
        held_by.setdefault(held, []).append(name)
    out += [
        f"{EVIDENCE}/: {len(names)} files hold the evidence of scenario {held!r} ({', '.join(names)})"
        for held, names in sorted(held_by.items())
        if len(names) > 1
    ]
    return out


def load_run(
    run_dir: Path, files: dict[str, str] | None = None
) -> tuple[RunRecord, Profile, dict[str, ScenarioEvidence]]:
    """Read a run directory back. Missing or corrupt files are :class:`UnusableInput`.
    ``files``, when given, receives evidence file name -> the scenario id it holds (for
    :func:`evidence_name_problems`: a scenario held twice is one entry of the evidence)."""
    if not (run_dir / RECORD).is_file():
        raise UnusableInput("not a run directory (no run.json)", file=str(run_dir))
    try:
        record = RunRecord.model_validate_json(read_bytes(run_dir / RECORD, RUN_FILE_LIMIT))
        profile = Profile.model_validate_json(read_bytes(run_dir / PROFILE, RUN_FILE_LIMIT))
        evidence = {}
        for path in evidence_files(run_dir / EVIDENCE):
            item = evidence_from_json(read_maybe_gzip(path, RUN_FILE_LIMIT))
            evidence[item.scenario_id] = item
            if files is not None:
                files[path.name] = item.scenario_id
    except FileNotFoundError as exc:
        raise UnusableInput(
            f"run directory is incomplete: {exc.filename} is missing", file=str(run_dir)
        ) from None
    except OSError as exc:  # not a regular file, too large, a broken gzip stream
        raise UnusableInput(
            f"run directory holds an unreadable file: {exc.filename}: {exc.strerror or exc}",
            file=str(run_dir),
        ) from None
    except ValueError as exc:
        raise UnusableInput(
            f"run directory holds an unreadable file: {exc}", file=str(run_dir)
        ) from None
    return record, profile, evidence
