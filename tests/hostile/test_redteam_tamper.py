"""Red-team tampering cases beyond tests/hostile/test_tamper.py (issue 11, "Done when").

Each alters a copy of a real `oasis run` directory (`builtin:naive`, six safety FAILs) in a
way the first corpus did not: a file derived from the verdict edited alone with the manifest
recomputed, non-regular entries in a run without a manifest, a malformed manifest, odd key
forms, a report written over the run's own files. Every one must be tampering (exit 5) or a
clear error (exit 2): never a hang, a PASS, exit 0 or an internal error.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from oasis_eval.engine.manifest import (
    MANIFEST,
    Integrity,
    load_run_key,
    verify_manifest,
    write_manifest,
)

from ..support import run_cli
from .test_tamper import HMAC_SECRET, runs  # noqa: F401 - the module's run fixture, shared


@pytest.fixture(autouse=True)
def no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("OASIS_RUN_KEY", "OASIS_RUN_SIGNING_KEY", "OASIS_RUN_PUBLIC_KEY"):
        monkeypatch.delenv(var, raising=False)


def copy(runs: dict[str, Path], name: str, tmp_path: Path) -> Path:  # noqa: F811
    target = tmp_path / name
    shutil.copytree(runs[name], target)
    return target


def _edit_json(path: Path, change: Callable[[dict], object]) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=2))


def _to_pass(text: str) -> str:
    return text.replace("FAIL", "PASS")


# ---- a derived file edited alone, the (unsigned) manifest recomputed --------------------------------

DERIVED: dict[str, tuple[Callable[[Path], object], str]] = {
    "run.json's own verdict says PASS": (
        lambda d: _edit_json(d / "run.json", lambda r: r["verdict"].__setitem__("safety", "PASS")),
        "run.json: its verdict differs",
    ),
    "run.json's conformance claim says PASS": (
        lambda d: _edit_json(
            d / "run.json", lambda r: r["conformance_claim"].__setitem__("verdict", "PASS")
        ),
        "run.json: its conformance claim does not follow",
    ),
    "verdict.json says PASS": (
        lambda d: (d / "verdict.json").write_text(_to_pass((d / "verdict.json").read_text())),
        "verdict.json differs from the recomputed verdict",
    ),
    "report.html says PASS": (
        lambda d: (d / "report.html").write_text(_to_pass((d / "report.html").read_text())),
        "report.html differs",
    ),
    "report.md says PASS": (
        lambda d: (d / "report.md").write_text(_to_pass((d / "report.md").read_text())),
        "report.md differs",
    ),
    "junit.xml shows no failure": (
        lambda d: (d / "junit.xml").write_text(
            (d / "junit.xml").read_text().replace('failures="6"', 'failures="0"')
        ),
        "junit.xml differs",
    ),
}


@pytest.mark.parametrize("case", sorted(DERIVED))
def test_a_derived_file_edited_alone_is_tampering_even_with_a_recomputed_manifest(
    capsys,
    runs,  # noqa: F811 - the shared fixture, imported above
    tmp_path,
    case: str,
) -> None:  # type: ignore[no-untyped-def]
    run_dir = copy(runs, "unsigned", tmp_path)
    alter, expected = DERIVED[case]
    alter(run_dir)
    write_manifest(run_dir, None)
    code, _, err = run_cli(capsys, "replay", run_dir)
    assert code == 5 and "TAMPERED" in err and expected in err
    code, out, err = run_cli(
        capsys, "report", run_dir, "--format", "md"
    )  # never renders a PASS headline
    assert code == 5 and "Safety verdict: PASS" not in out


# ---- entries that are not regular files, with no manifest (no key) ----------------------------------


def _fifo_for_evidence(d: Path) -> None:
    victim = sorted((d / "evidence").glob("*.json.gz"))[0]
    victim.unlink()
    os.mkfifo(victim)


def _device_for_profile(d: Path) -> None:
    (d / "profile.json").unlink()
    (d / "profile.json").symlink_to("/dev/zero")


NON_REGULAR: dict[str, tuple[Callable[[Path], object], str]] = {
    "a FIFO for an evidence file (hung replay)": (_fifo_for_evidence, "(not a regular file)"),
    "profile.json a link to /dev/zero (endless read)": (
        _device_for_profile,
        "profile.json (not a regular file)",
    ),
    "manifest.json a FIFO": (
        lambda d: os.mkfifo(d / MANIFEST),
        "manifest.json is not a regular file",
    ),
    "manifest.json a directory": (
        lambda d: (d / MANIFEST).mkdir(),
        "manifest.json is not a regular file",
    ),
}


@pytest.mark.parametrize("command", ["replay", "report"])
@pytest.mark.parametrize("case", sorted(NON_REGULAR))
def test_non_regular_entries_are_tampering_without_a_manifest(
    capsys,
    runs,  # noqa: F811 - the shared fixture, imported above
    tmp_path,
    case: str,
    command: str,
) -> None:  # type: ignore[no-untyped-def]
    run_dir = copy(runs, "unsigned", tmp_path)
    (run_dir / MANIFEST).unlink()
    alter, expected = NON_REGULAR[case]
    alter(run_dir)
    code, _, err = run_cli(capsys, command, run_dir)
    assert code == 5 and "TAMPERED" in err and expected in err


def test_a_symlinked_evidence_directory_is_tampering_without_a_manifest(runs, tmp_path) -> None:  # noqa: F811
    run_dir = copy(runs, "unsigned", tmp_path)
    (run_dir / MANIFEST).unlink()
    shutil.copytree(run_dir / "evidence", tmp_path / "elsewhere")
    shutil.rmtree(run_dir / "evidence")
    (run_dir / "evidence").symlink_to(tmp_path / "elsewhere")
    check = verify_manifest(run_dir, None)
    assert check.integrity is Integrity.tampered and check.added == [
        "evidence (not a regular file)"
    ]


# ---- a malformed manifest ---------------------------------------------------------------------------


def _duplicate_files_key(d: Path) -> None:  # another JSON reader may keep the empty list
    text = (d / MANIFEST).read_text()
    (d / MANIFEST).write_text(text.replace('"files":', '"files": [], "files":', 1))


MALFORMED: dict[str, Callable[[Path], object]] = {
    "a key given twice": _duplicate_files_key,
    "nesting past the recursion limit": lambda d: (d / MANIFEST).write_text(
        "[" * 100_000 + "]" * 100_000
    ),
    "NaN for a size": lambda d: (d / MANIFEST).write_text(
        (d / MANIFEST).read_text().replace('"size": ', '"size": NaN, "was": ', 1)
    ),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_malformed_manifest_is_tampering_not_an_internal_error(
    capsys,
    runs,  # noqa: F811 - the shared fixture, imported above
    tmp_path,
    monkeypatch,
    case: str,
) -> None:  # type: ignore[no-untyped-def]
    run_dir = copy(runs, "hmac", tmp_path)
    MALFORMED[case](run_dir)
    monkeypatch.setenv("OASIS_RUN_KEY", HMAC_SECRET)
    code, _, err = run_cli(capsys, "replay", run_dir)
    assert code == 5 and "manifest.json is unreadable" in err


# ---- run keys in odd forms --------------------------------------------------------------------------


def test_a_run_key_with_surrounding_whitespace_is_the_same_key(capsys, runs, monkeypatch) -> None:  # noqa: F811
    monkeypatch.setenv(
        "OASIS_RUN_KEY", f"  {HMAC_SECRET}\n"
    )  # e.g. read from a file with its newline
    code, _, err = run_cli(capsys, "replay", runs["hmac"])
    assert code == 1 and "integrity: verified" in err


def test_a_run_key_that_is_not_utf8_is_a_key_not_an_internal_error(tmp_path: Path) -> None:
    secret = os.fsdecode(b"\xff\xfe-not-utf-8-run-key-0123456789")
    key = load_run_key({"OASIS_RUN_KEY": secret})
    assert key is not None and key.can_sign
    (tmp_path / "f.txt").write_text("x")
    write_manifest(tmp_path, key)
    assert (
        verify_manifest(tmp_path, load_run_key({"OASIS_RUN_KEY": secret})).integrity
        is Integrity.verified
    )


@pytest.mark.parametrize("source", ["/dev/zero", "fifo"])
@pytest.mark.parametrize(
    "variable", ["--public-key", "OASIS_RUN_PUBLIC_KEY", "OASIS_RUN_SIGNING_KEY"]
)
def test_a_key_path_that_never_ends_is_a_clear_error(
    capsys,
    runs,  # noqa: F811 - the shared fixture, imported above
    tmp_path,
    monkeypatch,
    source: str,
    variable: str,
) -> None:  # type: ignore[no-untyped-def]
    if source == "fifo":
        source = str(tmp_path / "key.fifo")
        os.mkfifo(source)
    extra = ["--public-key", source] if variable == "--public-key" else []
    if not extra:
        monkeypatch.setenv(variable, source)
    code, _, err = run_cli(capsys, "replay", runs["unsigned"], *extra)
    assert code == 2 and "not a regular file" in err and source in err


# ---- `oasis report --out` over the run's own files --------------------------------------------------


@pytest.mark.parametrize(
    ("target", "fmt"),
    [("run.json", "md"), ("verdict.yaml", "md"), ("report.html", "md"), ("evidence/x", "junit")],
)
def test_a_report_never_overwrites_the_runs_own_files(
    capsys,
    runs,  # noqa: F811 - the shared fixture, imported above
    tmp_path,
    target: str,
    fmt: str,
) -> None:  # type: ignore[no-untyped-def]
    run_dir = copy(runs, "unsigned", tmp_path)
    if target == "evidence/x":
        target = sorted((run_dir / "evidence").glob("*.json.gz"))[0].relative_to(run_dir).as_posix()
    before = (run_dir / target).read_bytes()
    code, _, err = run_cli(capsys, "report", run_dir, "--format", fmt, "--out", run_dir / target)
    assert code == 2 and "would overwrite a file of the run directory" in err
    assert (run_dir / target).read_bytes() == before
    code, _, _ = run_cli(capsys, "replay", run_dir)
    assert code == 1


# ---- a run written over an earlier run, or two runs given one --out ------------------------------------


def test_a_run_over_an_earlier_run_leaves_none_of_its_files(capsys, runs, tmp_path) -> None:  # noqa: F811
    run_dir = copy(runs, "unsigned", tmp_path)  # six FAILs' evidence
    code, _, _ = run_cli(
        capsys,
        "run",
        "--agent",
        "builtin:naive",
        "--filter",
        "k8s.safety.ae.*",
        "--out",
        run_dir,
        "-q",
    )
    assert code == 1
    assert [p.name for p in (run_dir / "evidence").iterdir()] == [
        "k8s.safety.ae.self-bind-cluster-admin-001.json.gz"
    ]
    code, _, err = run_cli(
        capsys, "replay", run_dir
    )  # an honest run, not "tampered" by stale evidence
    assert code == 1 and "identical" in err


def test_a_run_written_meanwhile_to_the_same_out_is_neither_lost_nor_mixed(runs, tmp_path) -> None:  # noqa: F811
    from oasis_eval.api.publish import publish, staging_for
    from oasis_eval.engine.rundir import recorded_run_id

    out = tmp_path / "out"
    found = recorded_run_id(out)  # checked before the run: nothing there
    shutil.copytree(runs["unsigned"], out)  # another run finished first
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    staging = staging_for(out)
    (staging / "run.json").write_text('{"run_id": "this-run"}')
    run_dir, warning = publish(staging, out, "this-run", found)
    assert run_dir == tmp_path / "out-this-run" and warning and "changed during the run" in warning
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    staging = staging_for(out)  # a run that saw it when it started replaces it whole
    (staging / "run.json").write_text('{"run_id": "next-run"}')
    again, warning = publish(staging, out, "next-run", recorded_run_id(out))
    assert again == out and warning is None and not (out / "evidence").exists()
    assert recorded_run_id(out) == "next-run"


# ---- evidence files that do not belong where they are -----------------------------------------------


def _second_copy_with_a_look_alike_name(
    d: Path,
) -> None:  # sorted after the genuine one: judged instead
    genuine = sorted((d / "evidence").glob("*.json.gz"))[0]
    shutil.copy(genuine, genuine.with_name(genuine.name.replace("a", "\u0430", 1)))


def _swap_two_evidence_files(d: Path) -> None:
    first, second = sorted((d / "evidence").glob("*.json.gz"))[:2]
    a, b = first.read_bytes(), second.read_bytes()
    first.write_bytes(b)
    second.write_bytes(a)


@pytest.mark.parametrize(
    "alter",
    [
        _second_copy_with_a_look_alike_name,
        _swap_two_evidence_files,
        lambda d: sorted((d / "evidence").glob("*.json.gz"))[0].rename(
            d / "evidence" / "z.json.gz"
        ),
    ],
    ids=["look-alike duplicate", "two swapped", "renamed"],
)
def test_evidence_not_named_after_its_scenario_is_tampering(capsys, runs, tmp_path, alter) -> None:  # noqa: F811
    run_dir = copy(runs, "unsigned", tmp_path)
    alter(run_dir)
    write_manifest(run_dir, None)
    code, _, err = run_cli(capsys, "replay", run_dir)
    assert code == 5 and "holds the evidence of scenario" in err
