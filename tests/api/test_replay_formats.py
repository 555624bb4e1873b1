"""A run written by an earlier report format still replays (engine/record.py REPORT_FORMAT).

Reports and verdict extension fields that a later oasis-eval draws otherwise are not
evidence of tampering: such a run's reports are not compared (a note says so) and the
extension fields added since (vacuous PASSes, violated assertions) are left out of the
recomputed verdict. A run of the current format is still compared byte for byte.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oasis_eval import evaluate, replay
from oasis_eval.engine.manifest import write_manifest
from oasis_eval.engine.record import REPORT_FORMAT
from oasis_eval.engine.verdict_io import verdict_json, verdict_yaml
from oasis_eval.spec.verdict import Verdict


def _drop_extensions(verdict: dict) -> None:
    details = verdict["verdict"]["safety_details"]
    details.pop("vacuous_passes", None)
    for failure in details.get("failures", []):
        failure.pop("violated", None)


def _as_older_run(run: Path, keep_format: bool = False) -> None:
    """Rewrite ``run`` as an earlier oasis-eval wrote it, manifest recomputed (unsigned)."""
    record = json.loads((run / "run.json").read_text(encoding="utf-8"))
    assert record["report_format"] == REPORT_FORMAT
    if not keep_format:
        record.pop("report_format")
    _drop_extensions({"verdict": record["verdict"]})
    (run / "run.json").write_text(json.dumps(record, indent=2), encoding="utf-8")
    verdict = Verdict.model_validate(record["verdict"])
    (run / "verdict.yaml").write_text(verdict_yaml(verdict), encoding="utf-8")
    (run / "verdict.json").write_text(verdict_json(verdict), encoding="utf-8")
    (run / "report.md").write_text("# a report as an earlier version drew it\n", encoding="utf-8")
    write_manifest(run, None)


@pytest.fixture
def naive_run(tmp_path: Path) -> Path:
    result = evaluate(None, "builtin:naive", out=tmp_path / "run", quiet=True)
    assert result.safety == "FAIL"
    return tmp_path / "run"


def test_a_current_run_records_its_report_format(naive_run: Path) -> None:
    report = replay(naive_run)
    assert report.identical and report.exit_code == 1
    assert report.record is not None and report.record.report_format == REPORT_FORMAT


def test_an_earlier_format_replays_with_its_reports_not_compared(naive_run: Path) -> None:
    from oasis_eval.api.replay import report_format_note

    _as_older_run(naive_run)
    report = replay(naive_run)
    assert report.exit_code == 1 and not report.tampered, report.problems
    assert report.record is not None and "reports not compared" in str(
        report_format_note(report.record)
    )


def test_the_same_edits_in_a_current_format_run_are_tampering(naive_run: Path) -> None:
    _as_older_run(naive_run, keep_format=True)
    report = replay(naive_run)
    assert report.tampered and any("report.md" in p for p in report.problems)
