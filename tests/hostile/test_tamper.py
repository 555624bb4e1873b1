"""A tamper corpus against real run directories (issue 11 H6, item 6).

Each run is a real `oasis run` of the built-in example profile with `builtin:naive` (six
safety FAILs). Each case alters a copy the way someone hiding a FAIL would, then replays
it: tampering must exit 5 and name what changed, never PASS or "a determinism bug".
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from oasis_eval.engine.manifest import MANIFEST, load_run_key, write_manifest
from oasis_eval.engine.record import RunRecord
from oasis_eval.evaluation.results import ScenarioState
from oasis_eval.files import gzip_bytes, read_maybe_gzip

from ..support import run_cli

HMAC_SECRET = "tamper-corpus-run-key-0123456789"
FORGER_SECRET = "the-forgers-own-key-0123456789ab"


def _oasis(*args: object) -> int:
    from oasis_eval.cli.main import main

    old, sys.argv = sys.argv, ["oasis", *map(str, args)]
    try:
        main()
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.argv = old
    return 0


def _pems() -> tuple[str, str]:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.generate()
    return (
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        ).decode(),
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode(),
    )


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Three naive runs: unsigned, HMAC-signed, Ed25519-signed (keys from the environment)."""
    base = tmp_path_factory.mktemp("naive-runs")
    private, public = _pems()
    (base / "run-key.pem").write_text(private)
    (base / "run-key.pub").write_text(public)
    out = {}
    for name, env in (
        ("unsigned", {}),
        ("hmac", {"OASIS_RUN_KEY": HMAC_SECRET}),
        ("ed25519", {"OASIS_RUN_SIGNING_KEY": str(base / "run-key.pem")}),
    ):
        with pytest.MonkeyPatch.context() as mp:
            for var in ("OASIS_RUN_KEY", "OASIS_RUN_SIGNING_KEY", "OASIS_RUN_PUBLIC_KEY"):
                mp.delenv(var, raising=False)
            for var, value in env.items():
                mp.setenv(var, value)
            assert _oasis("run", "--agent", "builtin:naive", "--out", base / name, "-q") == 1
        out[name] = base / name
    out["public_key"] = base / "run-key.pub"
    return out


@pytest.fixture(autouse=True)
def no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("OASIS_RUN_KEY", "OASIS_RUN_SIGNING_KEY", "OASIS_RUN_PUBLIC_KEY"):
        monkeypatch.delenv(var, raising=False)


def copy(runs: dict[str, Path], name: str, tmp_path: Path) -> Path:
    target = tmp_path / name
    shutil.copytree(runs[name], target)
    return target


def relabel_fails(run_dir: Path, state: ScenarioState, rewrite_verdict: bool = True) -> list[str]:
    """H6: every FAIL relabelled ``state``, its evidence deleted, the verdict rewritten to match."""
    from oasis_eval.engine.replay import replay

    record = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    hidden = []
    for result in record.scenarios:
        if result.status is not None and result.status.value == "FAIL":
            result.state, result.status, result.assertions = state, None, []
            if state is ScenarioState.skipped:
                result.skip_reason = "a precondition could not be established"
            (run_dir / "evidence" / f"{result.scenario_id}.json.gz").unlink()
            hidden.append(result.scenario_id)
    (run_dir / "run.json").write_text(record.model_dump_json(indent=2))
    if rewrite_verdict:
        (run_dir / "verdict.yaml").write_text(replay(run_dir).verdict_yaml)
    return hidden


def edit_evidence(run_dir: Path) -> str:
    """Empty the audit log of the first FAILed scenario's evidence."""
    path = sorted((run_dir / "evidence").glob("*.json.gz"))[0]
    data = json.loads(read_maybe_gzip(path))
    for observation in data["observations"]:
        if observation["observation_type"] == "audit_log":
            observation["data"]["entries"] = []
    path.write_bytes(gzip_bytes(json.dumps(data, indent=1).encode()))
    return f"evidence/{path.name}"


def replay(capsys: pytest.CaptureFixture[str], run_dir: Path, *extra: object) -> tuple[int, str]:
    code, _, err = run_cli(capsys, "replay", run_dir, *extra)
    assert "determinism bug, please report it" not in err
    return code, err


# ---- honest runs -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["unsigned", "hmac", "ed25519"])
def test_every_run_directory_carries_a_manifest_of_every_file(
    runs: dict[str, Path], name: str
) -> None:
    data = json.loads((runs[name] / MANIFEST).read_text())
    on_disk = sorted(
        p.relative_to(runs[name]).as_posix()
        for p in runs[name].rglob("*")
        if p.is_file() and p.name != MANIFEST
    )
    assert [entry["path"] for entry in data["files"]] == on_disk
    assert {
        "verdict.yaml",
        "run.json",
        "profile.json",
        "report.md",
        "report.html",
        "junit.xml",
    } <= set(on_disk)
    assert (
        data["signature"]["algorithm"]
        == {"unsigned": "none", "hmac": "hmac-sha256", "ed25519": "ed25519"}[name]
    )
    assert HMAC_SECRET not in (runs[name] / MANIFEST).read_text()


def test_honest_runs_replay_identically_with_their_integrity_stated(
    capsys, runs, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    code, err = replay(capsys, runs["unsigned"])
    assert code == 1 and "UNSIGNED run" in err and "identical" in err
    code, err = replay(capsys, runs["ed25519"], "--public-key", runs["public_key"])
    assert code == 1 and "integrity: verified" in err and "identical" in err
    code, err = replay(capsys, runs["hmac"])  # signed, but no key here to check it
    assert code == 1 and "NOT VERIFIED" in err
    monkeypatch.setenv("OASIS_RUN_KEY", HMAC_SECRET)
    code, err = replay(capsys, runs["hmac"])
    assert code == 1 and "integrity: verified" in err


def test_a_run_without_a_manifest_is_replayed_loudly(capsys, runs, tmp_path) -> None:  # type: ignore[no-untyped-def]
    run_dir = copy(runs, "unsigned", tmp_path)
    (run_dir / MANIFEST).unlink()
    code, err = replay(capsys, run_dir)
    assert code == 1 and "NO MANIFEST" in err and "identical" in err


# ---- the corpus: unsigned runs (no key anywhere) -----------------------------------------------------


def _verdict_to_pass(run_dir: Path) -> None:
    path = run_dir / "verdict.yaml"
    path.write_text(path.read_text().replace("safety: FAIL", "safety: PASS"))


UNSIGNED_CASES: dict[str, tuple[Callable[[Path], object], list[str]]] = {
    "rewrite verdict": (_verdict_to_pass, ["modified: verdict.yaml"]),
    "relabel FAILs not_applicable (H6)": (
        lambda d: relabel_fails(d, ScenarioState.not_applicable),
        ["modified: run.json", "modified: verdict.yaml", "missing: evidence/"],
    ),
    "edit evidence": (edit_evidence, ["modified: evidence/"]),
    "delete a report": (lambda d: (d / "report.md").unlink(), ["missing: report.md"]),
    "add a file": (
        lambda d: (d / "evidence" / "extra.json").write_text("{}"),
        ["added: evidence/extra.json"],
    ),
    "truncate run.json": (
        lambda d: (d / "run.json").write_text((d / "run.json").read_text()[:100]),
        ["modified: run.json"],
    ),
    "truncate the manifest": (
        lambda d: (d / MANIFEST).write_text((d / MANIFEST).read_text()[:50]),
        ["manifest.json is unreadable"],
    ),
}


@pytest.mark.parametrize("case", sorted(UNSIGNED_CASES))
def test_tampering_an_unsigned_run_is_named_file_by_file(capsys, runs, tmp_path, case: str) -> None:  # type: ignore[no-untyped-def]
    run_dir = copy(runs, "unsigned", tmp_path)
    alter, expected = UNSIGNED_CASES[case]
    alter(run_dir)
    code, err = replay(capsys, run_dir)
    assert code == 5 and "TAMPERED" in err
    for line in expected:
        assert line in err


@pytest.mark.parametrize(
    "state",
    [
        ScenarioState.not_applicable,
        ScenarioState.not_run,
        ScenarioState.skipped,
        ScenarioState.not_selected,
    ],
)
@pytest.mark.parametrize("manifest", ["recomputed", "deleted"])
def test_relabelled_fails_are_caught_even_with_a_recomputed_manifest(
    capsys,
    runs,
    tmp_path,
    state,  # type: ignore[no-untyped-def]
    manifest: str,
) -> None:
    run_dir = copy(runs, "unsigned", tmp_path)
    hidden = relabel_fails(run_dir, state)
    if manifest == "recomputed":
        write_manifest(run_dir, None)
    else:
        (run_dir / MANIFEST).unlink()
    code, err = replay(capsys, run_dir)
    assert code == 5 and "recorded scenario states contradict" in err
    assert all(sid in err for sid in hidden)


def test_a_relabelled_scenario_that_kept_its_evidence_is_caught(capsys, runs, tmp_path) -> None:  # type: ignore[no-untyped-def]
    run_dir = copy(runs, "unsigned", tmp_path)
    record = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    victim = next(r for r in record.scenarios if r.status is not None and r.status.value == "FAIL")
    victim.state, victim.status = ScenarioState.not_selected, None
    record.incomplete_reasons.append(
        "only part of the profile was selected (filters, suite or --safety-only)"
    )
    (run_dir / "run.json").write_text(record.model_dump_json(indent=2))
    write_manifest(run_dir, None)
    code, err = replay(capsys, run_dir)
    assert (
        code == 5 and f"{victim.scenario_id}: recorded as not_selected, but evidence/ holds" in err
    )


def test_an_edited_verdict_with_a_recomputed_manifest_is_not_called_a_determinism_bug(
    capsys,
    runs,  # type: ignore[no-untyped-def]
    tmp_path,
) -> None:
    run_dir = copy(runs, "unsigned", tmp_path)
    _verdict_to_pass(run_dir)
    write_manifest(run_dir, None)
    code, err = replay(capsys, run_dir)
    assert (
        code == 5
        and "does not follow from the recorded evidence" in err
        and "cannot be ruled out" in err
    )


# ---- the corpus: signed runs, key configured --------------------------------------------------------


def _recompute_unsigned(run_dir: Path) -> None:
    _verdict_to_pass(run_dir)
    write_manifest(run_dir, None)


def _resign_with_forger_key(run_dir: Path) -> None:
    relabel_fails(run_dir, ScenarioState.not_applicable)
    write_manifest(run_dir, load_run_key({"OASIS_RUN_KEY": FORGER_SECRET}))


def _swap_signature(run_dir: Path) -> None:
    genuine = json.loads((run_dir / MANIFEST).read_text())["signature"]
    edit_evidence(run_dir)
    forged = write_manifest(run_dir, None)
    forged["signature"] = genuine
    (run_dir / MANIFEST).write_text(json.dumps(forged, indent=1))


def _forge_key_id(run_dir: Path) -> None:
    genuine = json.loads((run_dir / MANIFEST).read_text())["signature"]
    _verdict_to_pass(run_dir)
    forged = write_manifest(run_dir, load_run_key({"OASIS_RUN_KEY": FORGER_SECRET}))
    forged["signature"]["key_id"] = genuine["key_id"]  # claims the genuine key; signed by another
    (run_dir / MANIFEST).write_text(json.dumps(forged, indent=1))


SIGNED_CASES: dict[str, tuple[Callable[[Path], object], str]] = {
    "edit a file, keep the manifest": (edit_evidence, "modified: evidence/"),
    "recompute the manifest unsigned": (
        _recompute_unsigned,
        "the manifest is unsigned, but a run key is configured",
    ),
    "re-sign with another key": (_resign_with_forger_key, "signed by another key"),
    "swap the genuine signature onto a new list": (_swap_signature, "does not verify"),
    "claim the genuine key id": (_forge_key_id, "does not verify"),
    "delete the manifest": (
        lambda d: (d / MANIFEST).unlink(),
        "manifest.json is missing, but a run key",
    ),
}


@pytest.mark.parametrize("case", sorted(SIGNED_CASES))
@pytest.mark.parametrize("name", ["hmac", "ed25519"])
def test_with_a_key_every_forgery_is_detected(
    capsys,
    runs,
    tmp_path,
    monkeypatch,
    case: str,  # type: ignore[no-untyped-def]
    name: str,
) -> None:
    run_dir = copy(runs, name, tmp_path)
    alter, expected = SIGNED_CASES[case]
    alter(run_dir)
    if name == "hmac":
        monkeypatch.setenv("OASIS_RUN_KEY", HMAC_SECRET)
        code, err = replay(capsys, run_dir)
    else:
        code, err = replay(capsys, run_dir, "--public-key", runs["public_key"])
    assert code == 5 and "TAMPERED" in err
    assert expected in err or (
        case == "claim the genuine key id" and name == "ed25519" and "another key" in err
    )


def test_adversarial_probe_files_are_covered(capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    run_dir = tmp_path / "adversarial"
    assert (
        _oasis(
            "run",
            "--agent",
            "builtin:naive",
            "--filter",
            "k8s.safety.ae.*",
            "--adversarial",
            "mutation",
            "--probes",
            "2",
            "--out",
            run_dir,
            "-q",
        )
        == 1
    )
    listed = {e["path"] for e in json.loads((run_dir / MANIFEST).read_text())["files"]}
    failed = sorted((run_dir / "probes" / "failed").glob("*.yaml"))
    probe_evidence = sorted((run_dir / "probes" / "evidence").glob("*.json.gz"))
    assert failed and probe_evidence
    assert {p.relative_to(run_dir).as_posix() for p in failed + probe_evidence} <= listed
    failed[0].write_text(failed[0].read_text() + "\n# harmless\n")
    probe_evidence[0].unlink()
    code, err = replay(capsys, run_dir)
    assert code == 5
    assert f"modified: {failed[0].relative_to(run_dir).as_posix()}" in err
    assert f"missing: {probe_evidence[0].relative_to(run_dir).as_posix()}" in err


def test_file_names_cannot_drive_the_terminal(capsys, runs, tmp_path) -> None:  # type: ignore[no-untyped-def]
    run_dir = copy(runs, "unsigned", tmp_path)
    (run_dir / "evidence" / "x\x1b[2J\nfake: ok.json").write_text("{}")
    code, err = replay(capsys, run_dir)
    assert code == 5 and "\x1b" not in err and "x\\x1b[2J\\nfake: ok.json" in err
