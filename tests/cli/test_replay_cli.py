"""``oasis replay`` / ``oasis report`` with manifests and run keys (cli/replay_cmd.py).

Exit codes: the verdict's (identical replay), 5 tampered, 4 a verified run that replays
differently (tests/conformance/test_engine_cli_exit.py), 2 usage (a bad key, a report that
would invalidate a signature). The tamper corpus is tests/hostile/test_tamper.py.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from oasis_eval.engine.manifest import MANIFEST

from ..support import run_cli

KEY = "replay-cli-test-key-0123456789ab"
DM = "k8s.safety.dm.read-only-restart-pressure-001"


@pytest.fixture(autouse=True)
def no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("OASIS_RUN_KEY", "OASIS_RUN_SIGNING_KEY", "OASIS_RUN_PUBLIC_KEY"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A one-scenario naive run (FAIL), unsigned and HMAC-signed."""
    import sys

    from oasis_eval.cli.main import main

    base = tmp_path_factory.mktemp("runs")
    for name, key in (("unsigned", None), ("signed", KEY)):
        with pytest.MonkeyPatch.context() as mp:
            mp.delenv("OASIS_RUN_KEY", raising=False)
            if key:
                mp.setenv("OASIS_RUN_KEY", key)
            mp.setattr(
                sys,
                "argv",
                [
                    "oasis",
                    "run",
                    "--agent",
                    "builtin:naive",
                    "--filter",
                    DM,
                    "--out",
                    str(base / name),
                    "-q",
                ],
            )
            with pytest.raises(SystemExit) as exit_info:
                main()
            assert exit_info.value.code == 1
    return {"unsigned": base / "unsigned", "signed": base / "signed"}


def copy(runs: dict[str, Path], name: str, tmp_path: Path) -> Path:
    shutil.copytree(runs[name], tmp_path / name)
    return tmp_path / name


def test_a_bad_run_key_stops_oasis_run_before_anything_runs(capsys, monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("OASIS_RUN_KEY", "short")
    code, out, err = run_cli(capsys, "run", "--agent", "builtin:naive", "--out", tmp_path / "run")
    assert code == 2 and "OASIS_RUN_KEY must hold at least 16 bytes" in err
    assert not (tmp_path / "run").exists() and "verdict:" not in out


def test_report_to_stdout_leaves_the_run_directory_alone(capsys, runs, tmp_path) -> None:  # type: ignore[no-untyped-def]
    run_dir = copy(runs, "unsigned", tmp_path)
    before = (run_dir / MANIFEST).read_bytes()
    code, out, _ = run_cli(capsys, "report", run_dir, "--format", "md")
    assert code == 0 and out.startswith("# OASIS evaluation report")
    assert (run_dir / MANIFEST).read_bytes() == before


def test_report_into_an_unsigned_run_rewrites_its_manifest(capsys, runs, tmp_path) -> None:  # type: ignore[no-untyped-def]
    run_dir = copy(runs, "unsigned", tmp_path)
    code, _, err = run_cli(
        capsys, "report", run_dir, "--format", "md", "--out", run_dir / "extra.md"
    )
    assert code == 0 and "manifest.json rewritten (unsigned" in err
    assert "extra.md" in {e["path"] for e in json.loads((run_dir / MANIFEST).read_text())["files"]}
    code, _, err = run_cli(capsys, "replay", run_dir)
    assert code == 1 and "identical" in err


def test_report_into_a_signed_run_re_signs_with_the_key(
    capsys, monkeypatch, runs, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    run_dir = copy(runs, "signed", tmp_path)
    monkeypatch.setenv("OASIS_RUN_KEY", KEY)
    code, _, err = run_cli(
        capsys, "report", run_dir, "--format", "junit", "--out", run_dir / "junit.xml"
    )
    assert code == 0 and "signed by hmac:" in err
    code, _, err = run_cli(capsys, "replay", run_dir)
    assert code == 1 and "integrity: verified" in err


def test_report_refuses_to_invalidate_a_signed_manifest_without_the_key(
    capsys, runs, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    run_dir = copy(runs, "signed", tmp_path)
    before = (run_dir / "report.md").read_bytes()
    code, _, err = run_cli(
        capsys, "report", run_dir, "--format", "md", "--out", run_dir / "report.md"
    )
    assert code == 2 and "would invalidate the signature" in err
    assert (run_dir / "report.md").read_bytes() == before
    code, _, _ = run_cli(
        capsys, "report", run_dir, "--format", "md", "--out", tmp_path / "elsewhere.md"
    )
    assert code == 0 and (tmp_path / "elsewhere.md").is_file()


def test_report_of_a_tampered_run_exits_5_and_does_not_launder_it(
    capsys, monkeypatch, runs, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    run_dir = copy(runs, "signed", tmp_path)
    verdict = run_dir / "verdict.yaml"
    verdict.write_text(verdict.read_text().replace("safety: FAIL", "safety: PASS"))
    monkeypatch.setenv("OASIS_RUN_KEY", KEY)
    code, out, err = run_cli(
        capsys, "report", run_dir, "--format", "md", "--out", run_dir / "report.md"
    )
    assert code == 5 and "modified: verdict.yaml" in err and out == ""
    code, _, err = run_cli(capsys, "replay", run_dir)
    assert code == 5 and "modified: verdict.yaml" in err


def test_report_into_a_run_without_manifest_writes_none(capsys, runs, tmp_path) -> None:  # type: ignore[no-untyped-def]
    run_dir = copy(runs, "unsigned", tmp_path)
    (run_dir / MANIFEST).unlink()
    code, _, err = run_cli(
        capsys, "report", run_dir, "--format", "md", "--out", run_dir / "report.md"
    )
    assert code == 0 and "NO MANIFEST" in err and "none was written" in err
    assert not (run_dir / MANIFEST).exists()


def test_report_never_overwrites_the_manifest(capsys, runs, tmp_path) -> None:  # type: ignore[no-untyped-def]
    run_dir = copy(runs, "unsigned", tmp_path)
    code, _, err = run_cli(capsys, "report", run_dir, "--out", run_dir / MANIFEST)
    assert code == 2 and "must not be the run directory's manifest.json" in err


def test_replay_of_something_that_is_not_a_run_directory_is_a_usage_error(capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    code, _, err = run_cli(capsys, "replay", tmp_path / "nothing")
    assert code == 2 and "not a run directory" in err


def test_replay_gives_its_answer_first_and_the_verdict_only_when_verbose(
    capsys, runs, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    """Issue 29 item 4: the answer is the first line; the 400-line verdict is a detail."""
    run_dir = copy(runs, "unsigned", tmp_path)
    code, out, err = run_cli(capsys, "replay", run_dir)
    assert code == 1 and out == ""
    lines = err.splitlines()
    assert lines[0] == "replay: identical to the recorded verdict: safety FAIL (exit 1)"
    assert len(lines) <= 3
    code, out, _ = run_cli(capsys, "replay", run_dir, "--verbose")
    assert code == 1 and out == (run_dir / "verdict.yaml").read_text()
