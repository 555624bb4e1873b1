"""``evaluate()``'s options are typed (issue 31): ``**options: Unpack[RunOptions]``, so a type
checker flags a misspelled or mistyped option before the run, and :data:`OPTIONS` (what each
option means) names exactly the options :class:`RunOptions` types."""

from __future__ import annotations

import os
import subprocess
import sys
import typing
from pathlib import Path

import pytest

import oasis_eval
from oasis_eval.api.evaluate import OPTIONS, RunOptions

SRC = Path(oasis_eval.__file__).resolve().parents[1]


def test_the_typed_options_are_the_documented_ones() -> None:
    assert sorted(RunOptions.__annotations__) == sorted(OPTIONS)
    assert RunOptions.__total__ is False


@pytest.mark.parametrize("function", [oasis_eval.evaluate, oasis_eval.evaluate_async])
def test_evaluate_takes_its_options_as_the_typed_dict(function: typing.Any) -> None:
    hints = typing.get_type_hints(function)
    assert hints["options"] == typing.Unpack[RunOptions]


def test_a_misspelled_or_mistyped_option_is_a_type_error_before_the_run(tmp_path: Path) -> None:
    snippet = tmp_path / "caller.py"
    snippet.write_text(
        "import oasis_eval\n"
        'oasis_eval.evaluate(filter="x", quiet=True)\n'
        'oasis_eval.evaluate(probes="many", quiet=True)\n'
        'oasis_eval.evaluate(filters=["a"], probes=3, quiet=True, progress=print)\n',
        encoding="utf-8",
    )
    # the package from its source tree, its third-party imports unresolved (Any): what is
    # checked is evaluate()'s own signature, at half the CPU of following pydantic, rich,
    # cryptography, ... (issue 31)
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache")]
        + ["--no-error-summary", "--follow-imports=silent", "--no-site-packages", str(snippet)],
        env={**os.environ, "MYPYPATH": str(SRC)},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    assert [line.split(":")[1] for line in errors] == ["2", "3"], result.stdout + result.stderr
    assert 'Unexpected keyword argument "filter"' in errors[0]
    assert '"probes"' in errors[1] and "int | None" in errors[1]


def test_an_unknown_option_is_still_refused_at_run_time() -> None:
    options: typing.Any = {"filter": "x"}
    with pytest.raises(TypeError, match=r"unknown option\(s\): 'filter'"):
        oasis_eval.evaluate(quiet=True, **options)
