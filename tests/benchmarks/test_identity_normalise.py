"""The normaliser of ``python -m benchmarks.identity``: it maps what legitimately varies between
two runs of the same code (clock, random ids, the run directory) to stable placeholders and
leaves everything a behaviour change could alter (scores, results, order, seeded ids) as is."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
WINDOW = (datetime(2026, 11, 25, 23, 0, tzinfo=UTC), datetime(2026, 11, 25, 23, 30, tzinfo=UTC))


def _load() -> ModuleType:
    """The module by path (``benchmarks`` is not an installed package; it only needs the stdlib)."""
    spec = importlib.util.spec_from_file_location(
        "identity_normalise", REPO_ROOT / "benchmarks" / "identity_normalise.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolves annotations through sys.modules
    spec.loader.exec_module(module)
    return module


norm = _load()


def _evidence(
    env: str,
    redacted: str,
    when: str,
    *,
    score: float = 1.0,
    setup_audit: str,
    seeded_audit: str = "0b9e5a0e-52c3-4e0c-8b55-8a5f3d6ad001",
) -> dict[str, object]:
    return {
        "scenario_id": "infra.safety.x-001",
        "environment_id": env,
        "agent_endpoint": f"sim-k8s://{env}",
        "provision": {"agent_seconds": 0.075},
        "observations": [{"time_from": when, "time_to": when, "marker": f"[REDACTED:{redacted}]"}],
        "audit": [
            {
                "auditID": setup_audit,
                "verb": "create",
                "resource": "applications",
                "timestamp": "2024-05-14T09:30:00.440Z",
            },
            {
                "auditID": seeded_audit,
                "verb": "delete",
                "resource": "pods",
                "timestamp": "2024-05-14T09:30:01.000Z",
                "duration_ms": 12.5,
            },
        ],
        "score": score,
    }


def _write_run(
    root: Path,
    *,
    run_id: str,
    envs: tuple[str, str],
    redacted: tuple[str, str],
    when: str,
    score: float = 1.0,
    order: tuple[int, int] = (0, 1),
    seeded_audit: str = "0b9e5a0e-52c3-4e0c-8b55-8a5f3d6ad001",
) -> Path:
    run = root / f"run-{run_id}"
    (run / "evidence").mkdir(parents=True)
    setup = [hashlib.sha256(e.encode()).hexdigest() for e in envs]
    setup_ids = [f"{h[:8]}-{h[8:12]}-4{h[13:16]}-8{h[17:20]}-{h[20:32]}" for h in setup]
    for i, (env, secret, audit_id) in enumerate(zip(envs, redacted, setup_ids)):
        doc = _evidence(
            env, secret, when, score=score, setup_audit=audit_id, seeded_audit=seeded_audit
        )
        (run / "evidence" / f"s{i}.json").write_text(json.dumps(doc, indent=1), encoding="utf-8")
    scenarios = [{"id": "s0", "result": "PASS"}, {"id": "s1", "result": "PASS"}]
    run_json = {
        "run_id": run_id,
        "implementation_version": "0.1.0",
        "timestamp": when,
        "duration": "PT4.028S",
        "out": str(run),
        "scenarios": [scenarios[i] for i in order],
        "score": score,
    }
    (run / "run.json").write_text(json.dumps(run_json, indent=1), encoding="utf-8")
    (run / "report.md").write_text(
        f"# Report\n\nrun {run_id} · oasis-eval 0.1.0\n\n| Date | {when} |\n"
        f"| env | {envs[0]} |\n| score | {score:.2f} |\n",
        encoding="utf-8",
    )
    files = sorted(str(p.relative_to(run)) for p in run.rglob("*") if p.is_file())
    entries = [
        {
            "path": f,
            "sha256": hashlib.sha256((run / f).read_bytes()).hexdigest(),
            "size": (run / f).stat().st_size,
        }
        for f in files
    ]
    manifest = {
        "manifest": "oasis-eval run manifest",
        "files": entries,
        "signature": {"algorithm": "none", "value": None},
    }
    (run / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    return run


def _normalised(run: Path) -> dict[str, str]:
    files = sorted(str(p.relative_to(run)) for p in run.rglob("*") if p.is_file())
    out: dict[str, str] = norm.normalise_run(run, files, WINDOW)
    return out


def _run_a(tmp_path: Path, **overrides: object) -> Path:
    args: dict[str, object] = {
        "run_id": "7e44c40ff374",
        "envs": ("sim-" + "a" * 32, "sim-" + "b" * 32),
        "redacted": ("b20b7084d6e8", "deed782b6d31"),
        "when": "2026-11-25T23:24:21Z",
    }
    args.update(overrides)
    return _write_run(tmp_path / "a", **args)  # type: ignore[arg-type]


def _run_b(tmp_path: Path, **overrides: object) -> Path:
    args: dict[str, object] = {
        "run_id": "7fb5d151372d",
        "envs": ("sim-" + "c" * 32, "sim-" + "d" * 32),
        "redacted": ("1b0f7bf06182", "7991f57c12da"),
        "when": "2026-11-25T23:24:36.123Z",
    }
    args.update(overrides)
    return _write_run(tmp_path / "b", **args)  # type: ignore[arg-type]


def test_two_runs_of_the_same_behaviour_normalise_to_the_same_bytes(tmp_path: Path) -> None:
    a, b = _normalised(_run_a(tmp_path)), _normalised(_run_b(tmp_path))
    assert a.keys() == b.keys()
    for name in a:
        assert a[name] == b[name], name
    # and the raw files did differ: the normaliser did the work
    assert (tmp_path / "a" / "run-7e44c40ff374" / "run.json").read_text() != (
        tmp_path / "b" / "run-7fb5d151372d" / "run.json"
    ).read_text()


def test_ids_map_to_placeholders_consistently_across_files(tmp_path: Path) -> None:
    out = _normalised(_run_a(tmp_path))
    assert '"environment_id": "<ENV-1>"' in out["evidence/s0.json"]
    assert '"agent_endpoint": "sim-k8s://<ENV-1>"' in out["evidence/s0.json"]
    assert '"environment_id": "<ENV-2>"' in out["evidence/s1.json"]
    assert "| env | <ENV-1> |" in out["report.md"]  # same id in another file, same placeholder
    assert (
        "[<REDACTED-1>]" in out["evidence/s0.json"] and "[<REDACTED-2>]" in out["evidence/s1.json"]
    )
    assert "run <RUN_ID> · oasis-eval <VERSION>" in out["report.md"]
    assert '"out": "<RUN_DIR>"' in out["run.json"]


def test_one_id_where_the_other_run_has_two_is_a_difference(tmp_path: Path) -> None:
    shared = "sim-" + "e" * 32
    a = _normalised(_run_a(tmp_path))
    b = _normalised(_run_b(tmp_path, envs=(shared, shared)))
    assert a["evidence/s1.json"] != b["evidence/s1.json"]  # <ENV-2> vs <ENV-1>


def test_a_changed_score_is_not_normalised_away(tmp_path: Path) -> None:
    a = _normalised(_run_a(tmp_path))
    b = _normalised(_run_b(tmp_path, score=0.999))
    assert a["run.json"] != b["run.json"]
    assert a["evidence/s0.json"] != b["evidence/s0.json"]
    assert '"score": 0.999' in b["run.json"]


def test_a_changed_order_of_results_is_a_difference(tmp_path: Path) -> None:
    a = _normalised(_run_a(tmp_path))
    b = _normalised(_run_b(tmp_path, order=(1, 0)))
    assert a["run.json"] != b["run.json"]


def test_simulated_clock_and_seeded_ids_stay_compared(tmp_path: Path) -> None:
    out = _normalised(_run_a(tmp_path))["evidence/s0.json"]
    assert "2024-05-14T09:30:00.440Z" in out  # the simulator's fixed clock is outside the window
    assert '"duration_ms": 12.5' in out
    assert '"time_from": "<TIME>"' in out and '"agent_seconds": <SECONDS>' in out
    assert "0b9e5a0e-52c3-4e0c-8b55-8a5f3d6ad001" in out  # a seeded audit id is kept
    assert "<AUDIT-1>" in out  # the GitOps setup write's env-derived id is not
    changed = _normalised(_run_b(tmp_path, seeded_audit="0b9e5a0e-52c3-4e0c-8b55-8a5f3d6ad002"))
    assert changed["evidence/s0.json"] != out


def test_manifest_digests_are_verified_not_dropped(tmp_path: Path) -> None:
    run = _run_a(tmp_path)
    assert '"sha256": "<verified>"' in _normalised(run)["manifest.json"]
    (run / "evidence" / "s0.json").write_text("{}", encoding="utf-8")  # tampered after the manifest
    manifest = _normalised(run)["manifest.json"]
    assert "<MISMATCH " in manifest
    assert manifest.count("<verified>") == 2 * 3  # the three other files: digest and size


@pytest.mark.parametrize(
    "text", ["PT30M", "PT5S", "2024-05-14T09:30:00Z", "score 1.0000", "sim-abc"]
)
def test_values_that_do_not_vary_are_left_alone(text: str) -> None:
    assert norm.Normaliser(window=WINDOW).text(text) == text


def test_junit_times_are_normalised_and_nothing_else_of_junit() -> None:
    text = (
        '<testsuites tests="2" time="7.002" timestamp="2026-11-25T23:10:00Z">'
        '<testsuite name="safety" time="0.131">'
        '<testcase name="a" file="s.yaml" line="12" time="0.100" /></testsuite></testsuites>'
    )
    out = norm.Normaliser(window=WINDOW).text(text)
    assert out.count('time="<SECONDS>"') == 3 and 'timestamp="<TIME>"' in out
    assert 'line="12"' in out and 'tests="2"' in out


def test_evidence_compares_as_its_content_whatever_form_stores_it(tmp_path: Path) -> None:
    """The stored form (issue 30) and the whole JSON of the same evidence normalise alike; a
    changed value in either still differs."""
    from oasis_eval.evaluation.evidence import ScenarioEvidence
    from oasis_eval.evaluation.stored_evidence import stored_json

    pod = {"kind": "Pod", "name": "p", "namespace": "n", "state": {"a": 1}}
    body = {"kind": "Pod", "metadata": {"name": "p"}}
    entry = {"verb": "create", "request_body": body, "raw": {"requestObject": dict(body)}}
    evidence = ScenarioEvidence.model_validate(
        {
            "scenario_id": "s",
            "precondition_snapshot": [pod],
            "final_snapshot": [pod],
            "observations": [
                {"observation_type": "audit_log", "data": {"entries": [entry]},
                 "evidence_source": {"type": "sim", "status": "available"}},
            ],
        }
    )  # fmt: skip
    changed = evidence.model_copy(update={"final_snapshot": [{**pod, "state": {"a": 1.0}}]})
    forms = {
        "whole": evidence.model_dump_json(indent=1).encode(),
        "stored": stored_json(evidence),
        "changed": stored_json(changed),
    }
    texts = {}
    for name, data in forms.items():
        run = tmp_path / name
        (run / "evidence").mkdir(parents=True)
        (run / "evidence" / "s.json").write_bytes(data)
        texts[name] = _normalised(run)["evidence/s.json"]
    assert forms["whole"] != forms["stored"] and texts["whole"] == texts["stored"]
    assert texts["changed"] != texts["stored"]
