"""Each scenario's evidence is serialised and compressed once per run (issue 30): the
journal's bytes (engine/journal.py) are the ones the finished run directory holds
(engine/rundir.py::write_run), for that very evidence object only."""

from __future__ import annotations

from pathlib import Path

import pytest

from oasis_eval import evaluate, replay
from oasis_eval.engine import journal, rundir
from oasis_eval.engine.record import RunRecord
from oasis_eval.engine.rundir import EVIDENCE, evidence_bytes, evidence_name, load_run
from oasis_eval.evaluation.evidence import ScenarioEvidence


def test_a_run_compresses_each_evidence_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[str] = []

    def counted(evidence: ScenarioEvidence) -> bytes:
        made.append(evidence.scenario_id)
        return evidence_bytes(evidence)

    monkeypatch.setattr(journal, "evidence_bytes", counted)
    monkeypatch.setattr(rundir, "evidence_bytes", counted)
    evaluate(None, "builtin:careful", out=tmp_path / "run", quiet=True)
    files = sorted(p.name for p in (tmp_path / "run" / EVIDENCE).iterdir())
    assert files and sorted(evidence_name(s) for s in made) == files  # once each
    assert replay(tmp_path / "run").identical


def test_stored_bytes_are_used_for_the_same_evidence_only(tmp_path: Path) -> None:
    evaluate(None, "builtin:careful", out=tmp_path / "run", quiet=True)
    record, _, evidence = load_run(tmp_path / "run")
    first, second = sorted(evidence)[:2]
    other = evidence[first].model_copy(update={"fault": "changed after it was stored"})
    stored = {first: (evidence[first], b"journal bytes", None), second: (other, b"stale", None)}
    rundir.write_run(tmp_path / "out", RunRecord.model_validate(record), evidence, {}, None, stored)
    out = tmp_path / "out" / EVIDENCE
    assert (out / evidence_name(first)).read_bytes() == b"journal bytes"
    assert (out / evidence_name(second)).read_bytes() == evidence_bytes(evidence[second])


def test_a_run_writes_its_manifest_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The finished run's manifest is written once, last, over the reports too: each write
    reads and hashes every file of the run (issue 30, session 15)."""
    from oasis_eval.api import compose

    written: list[Path] = []
    real = compose.write_manifest

    def counted(run_dir: Path, key: object, known: object = None) -> object:
        written.append(run_dir)
        return real(run_dir, key, known)  # type: ignore[arg-type]

    monkeypatch.setattr(compose, "write_manifest", counted)
    monkeypatch.setattr(rundir, "write_manifest", counted)
    evaluate(None, "builtin:careful", out=tmp_path / "run", quiet=True)
    assert len(written) == 1
    assert replay(tmp_path / "run").identical  # the one manifest covers every file
