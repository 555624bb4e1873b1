"""The run directory: verdict, record, evidence bundle — everything replay needs.

Layout::

    RUN_DIR/
      verdict.yaml, verdict.json   the spec 05 §1 verdict
      run.json                     the run record (report content, scenario results)
      profile.json                 the profile as evaluated (secret values redacted)
      evidence/<scenario-id>.json  transcripts, observations, snapshots (redacted)
      report.md, report.html, junit.xml
      manifest.json                SHA-256 of every other file, signed when a run key is set
                                   (engine/manifest.py); always written last

No file holds a registered containment value or a declared Secret value:
they were replaced by markers at capture (engine/redaction.py).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from ..diagnostics import UnusableInput
from ..evaluation.evidence import ScenarioEvidence
from ..files import RUN_FILE_LIMIT, read_bytes
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


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", name)


def redacted_profile(profile: Profile, redactor: Redactor) -> dict[str, Any]:
    """The profile as JSON with every declared secret value (all forms) replaced by its marker
    (a scoped copy: the short forms it adds are not the run's to apply elsewhere)."""
    redactor = redactor.scoped()
    for scenario in profile.scenarios:
        for _, literal in secret_literals(scenario.preconditions.environment.state):
            redactor.register(literal)
    redacted: dict[str, Any] = redactor.state(profile.model_dump(mode="json", exclude_unset=False))
    return redacted


def write_run(
    run_dir: Path,
    record: RunRecord,
    evidence: dict[str, ScenarioEvidence],
    profile_json: dict[str, Any],
    run_key: RunKey | None = None,
) -> None:
    """Write the run record, verdict and evidence, then the manifest over them (signed with
    ``run_key``, or the key configured in the environment). Whoever adds files to the run
    directory afterwards (reports, probe files) writes the manifest again, last."""
    problems = validate_verdict_data(verdict_data(record.verdict))
    if problems:  # our own bug: never write a verdict that breaks the spec 05 §1 structure
        raise RuntimeError("the verdict does not conform to spec 05 §1: " + "; ".join(problems))
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / VERDICT_YAML).write_text(verdict_yaml(record.verdict), encoding="utf-8")
    (run_dir / VERDICT_JSON).write_text(verdict_json(record.verdict), encoding="utf-8")
    (run_dir / RECORD).write_text(record.model_dump_json(indent=2), encoding="utf-8")
    (run_dir / PROFILE).write_text(
        json.dumps(profile_json, indent=1, sort_keys=True), encoding="utf-8"
    )
    ev_dir = run_dir / EVIDENCE
    ev_dir.mkdir(exist_ok=True)
    for scenario_id in sorted(evidence):
        (ev_dir / f"{_safe(scenario_id)}.json").write_text(
            evidence[scenario_id].model_dump_json(indent=1), encoding="utf-8"
        )
    write_manifest(run_dir, run_key if run_key is not None else load_run_key(signing=True))


def recorded_run_id(run_dir: Path | None) -> str | None:
    """The run id recorded in ``run_dir/run.json`` ("" when unreadable), None when there is none."""
    if run_dir is None or not (run_dir / RECORD).is_file():
        return None
    try:
        return str(json.loads((run_dir / RECORD).read_text(encoding="utf-8")).get("run_id") or "")
    except (OSError, ValueError, AttributeError):
        return ""


def evidence_name_problems(files: dict[str, str]) -> list[str]:
    """Evidence files not named after the scenario they hold, or two holding one scenario: a
    run writes exactly ``evidence/<scenario id>.json`` per executed scenario, so either means a
    file was renamed or added (one of two files for a scenario would be judged silently).
    ``files``: evidence file name -> the scenario id it holds, as :func:`load_run` read them."""
    return [
        f"{EVIDENCE}/{name}: holds the evidence of scenario {held!r}, "
        f"but a run writes it to {EVIDENCE}/{_safe(held)}.json"
        for name, held in sorted(files.items())
        if name != f"{_safe(held)}.json"
    ]


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
        for path in sorted((run_dir / EVIDENCE).glob("*.json")):
            item = ScenarioEvidence.model_validate_json(read_bytes(path, RUN_FILE_LIMIT))
            evidence[item.scenario_id] = item
            if files is not None:
                files[path.name] = item.scenario_id
    except FileNotFoundError as exc:
        raise UnusableInput(
            f"run directory is incomplete: {exc.filename} is missing", file=str(run_dir)
        ) from None
    except ValueError as exc:
        raise UnusableInput(
            f"run directory holds an unreadable file: {exc}", file=str(run_dir)
        ) from None
    return record, profile, evidence
