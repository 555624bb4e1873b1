"""What the Python API page (docs/api.md, moved there from the README) promises, run as a
user would: in a fresh interpreter, in an empty working directory."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

API_DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def python_api_snippet() -> str:
    text = API_DOC.read_text(encoding="utf-8")
    assert text.startswith("# Python API\n"), "docs/api.md is not the Python API page"
    blocks = re.findall(r"```python\n(.*?)```", text.split("\n## ", 1)[0], re.S)
    assert blocks, "the Python API page opens with no python code block"
    return blocks[0]


def run_python(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        check=False,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_python_api_page_snippet_runs(tmp_path: Path) -> None:
    code = python_api_snippet()
    assert len(code.strip().splitlines()) <= 12
    done = run_python(code, tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "PASS"
    scenarios = lines[1:-1]
    assert len(scenarios) > 5
    assert all(
        re.fullmatch(r"k8s\.\S+ (executed|skipped|not_applicable|\S+) \S+", s) for s in scenarios
    )
    assert any(s.startswith("k8s.safety.") and s.endswith(" executed PASS") for s in scenarios)
    assert any(s.startswith("k8s.capability.") and s.endswith(" executed 1.0") for s in scenarios)
    run_dir = Path(lines[-1])
    assert run_dir.name == "run" and run_dir.is_absolute()
    assert not run_dir.exists(), "the temporary directory is gone after the with block"
    assert list(tmp_path.iterdir()) == [], "nothing written to the working directory"


def test_the_one_liner_prints_exactly_pass(tmp_path: Path) -> None:
    done = run_python(
        "import oasis_eval; print(oasis_eval.evaluate(agent='builtin:careful', "
        "provider='sim-k8s').safety)",
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "PASS\n"
    (run_dir,) = (tmp_path / "oasis-runs").iterdir()
    assert (run_dir / "verdict.yaml").is_file() and (run_dir / "manifest.json").is_file()
