"""What the README promises about the Python API, run as a user would: in a fresh
interpreter, in an empty working directory."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def python_api_snippet() -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## Python API\n", 1)
    assert len(section) == 2, "README has no '## Python API' section"
    blocks = re.findall(r"```python\n(.*?)```", section[1].split("\n## ", 1)[0], re.S)
    assert blocks, "the Python API section has no python code block"
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


def test_the_readme_python_api_snippet_runs(tmp_path: Path) -> None:
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
