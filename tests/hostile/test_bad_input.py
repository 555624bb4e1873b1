"""The bad-input corpus (issue 11 item 8): every case through the real ``oasis`` entry point.

Each case of ``bad_input/cases.yaml`` builds its input in a temporary directory (a copy of
the example profile with one thing changed, a run config, a broken run directory, ...),
runs ``oasis ARGS`` in process through ``oasis_eval.cli.main.main`` and asserts: the exit
code (2 unusable input or usage, 1 an invalid profile under ``oasis validate``), that the
message names the file / line / field (``says``), and that no traceback is printed
(``run_cli``). Case files live beside the manifest; see the manifest's header for the
setup steps.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from oasis_eval.examples import EXAMPLE_PROFILE_DIR

from ..support import run_cli

CORPUS = Path(__file__).resolve().parent / "bad_input"
CASES: list[dict[str, Any]] = yaml.safe_load((CORPUS / "cases.yaml").read_text(encoding="utf-8"))
BASE_SCENARIO = (CORPUS / "scenario-base.yaml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def recorded_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One real run directory of the example profile, copied and broken by the replay cases."""
    from oasis_eval.cli.main import main

    out = tmp_path_factory.mktemp("recorded") / "run"
    old = sys.argv
    sys.argv = ["oasis", "run", "--out", str(out), "--quiet"]
    try:
        main()
    except SystemExit as exc:
        assert exc.code == 0
    finally:
        sys.argv = old
    assert (out / "run.json").is_file()
    return out


def _generated(kind: str) -> bytes:
    """Inputs too large or too odd to keep as files."""
    if kind == "junk":
        return bytes(range(256)) * 4
    if kind == "utf16":
        return (EXAMPLE_PROFILE_DIR / "profile.yaml").read_text(encoding="utf-8").encode("utf-16")
    if kind == "latin1":
        return "metadata:\n  name: caf\u00e9\n".encode("latin-1")
    if kind == "deep":
        return ("metadata: " + "[" * 150 + "]" * 150 + "\n").encode()
    if kind == "huge":
        return ("items: [" + ",".join(["0"] * 1_100_000) + "]\n").encode()
    if kind == "bomb":
        lines = ["l0: &l0 [" + ", ".join(['"lol"'] * 9) + "]"]
        lines += [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 9)]
        return ("\n".join(lines) + "\n").encode()
    if kind == "recursive":
        return b"metadata: &m\n  self: *m\n"
    raise AssertionError(f"unknown generated input {kind!r}")


def _fill(text: str, names: dict[str, str]) -> str:
    """Placeholders ``{tmp}``, ``{p}``, ... replaced; other braces (YAML flow mappings) kept."""
    for key, value in names.items():
        text = text.replace("{" + key + "}", value)
    return text


def _setup(case: dict[str, Any], tmp: Path, run_dir: Any) -> dict[str, str]:
    names = {
        "tmp": str(tmp),
        "p": str(tmp / "p"),
        "example": str(EXAMPLE_PROFILE_DIR),
        "run": str(tmp / "run"),
        "long": "n" * 300,
    }
    for step in case.get("setup", []):
        ((action, arg),) = step.items()
        if action == "profile":
            shutil.copytree(EXAMPLE_PROFILE_DIR, tmp / "p")
        elif action == "rundir":
            shutil.copytree(run_dir(), tmp / arg)
        elif action == "copy":
            src, dest = arg
            shutil.copy(CORPUS / src, tmp / dest)
        elif action == "text":
            dest, text = arg
            (tmp / dest).parent.mkdir(parents=True, exist_ok=True)
            (tmp / dest).write_text(_fill(text, names), encoding="utf-8")
        elif action in (
            "variant",
            "replace",
        ):  # scenario-base.yaml, or a file placed already, edited
            dest, changes = arg
            source = "scenario-base.yaml" if action == "variant" else dest
            text = (
                BASE_SCENARIO if action == "variant" else (tmp / dest).read_text(encoding="utf-8")
            )
            for old, new in changes.items():
                assert old in text, f"{case['id']}: '{old}' is not in {source}"
                text = text.replace(old, new, 1)
            (tmp / dest).write_text(text, encoding="utf-8")
        elif action == "append":
            dest, src = arg
            with (tmp / dest).open("a", encoding="utf-8") as fh:
                fh.write((CORPUS / src).read_text(encoding="utf-8"))
        elif action == "bytes":
            dest, kind = arg
            (tmp / dest).parent.mkdir(parents=True, exist_ok=True)
            (tmp / dest).write_bytes(_generated(kind))
        elif action == "symlink":
            dest, target = arg
            (tmp / dest).symlink_to(_fill(target, names))
        elif action == "remove":
            target = tmp / arg
            shutil.rmtree(target) if target.is_dir() else target.unlink()
        elif action == "fifo":
            (tmp / arg).parent.mkdir(parents=True, exist_ok=True)
            os.mkfifo(tmp / arg)
        elif action == "mkdir":
            (tmp / arg).mkdir(parents=True)
        else:
            raise AssertionError(f"{case['id']}: unknown setup step {action!r}")
    return names


def test_the_corpus_is_large_and_its_ids_unique() -> None:
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids))
    assert len(ids) >= 60


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_bad_input(
    case: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)  # a default ./oasis-runs never lands in the repository
    names = _setup(case, tmp_path, lambda: request.getfixturevalue("recorded_run"))
    for var, value in case.get("env", {}).items():  # a \xNN escape is that byte, UTF-8 or not
        monkeypatch.setenv(
            var, os.fsdecode(value.encode("ascii").decode("unicode_escape").encode("latin-1"))
        )
    args = [_fill(a, names) for a in case["args"]]
    code, out, err = run_cli(capsys, *args)
    text = out + err
    assert code == case["exit"], f"exit {code}, expected {case['exit']}:\n{text[-3000:]}"
    for fragment in case.get("says", []):
        assert _fill(fragment, names) in text, f"'{fragment}' not in:\n{text[-3000:]}"
    for path in case.get("absent", []):
        assert not (tmp_path / path).exists(), f"{path} was written although nothing may run"
