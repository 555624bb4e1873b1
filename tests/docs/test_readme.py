"""The README stays a front page (issue 31): at most 200 lines, its test command is the one
`.ci/run` runs, and every link it holds leads to a file of the repository."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _bash_blocks(text: str) -> list[str]:
    return [b.strip() for b in re.findall(r"```bash\n(.*?)```", text, re.S)]


def test_the_readme_fits_in_200_lines() -> None:
    assert len(README.splitlines()) <= 200


def test_the_readme_test_command_is_the_one_ci_runs() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    tests = [b for b in _bash_blocks(README) if b.endswith(".venv/bin/pytest")]
    assert len(tests) == 1, "the README has one test command"
    assert tests[0] in ci, "the README's test command is a line of .ci/run"


def test_the_readme_main_job_runs_oasis_on_its_defaults() -> None:
    (main,) = [b for b in _bash_blocks(README) if b.endswith(".venv/bin/oasis run")]
    assert "pip install -e . -e packages/oasis-sim-k8s" in main


def test_every_relative_link_of_the_readme_resolves() -> None:
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README)
    relative = [link for link in links if not re.match(r"^[a-z]+://", link)]
    assert relative, "the README links to its documentation"
    assert [link for link in relative if not (ROOT / link).exists()] == []


def test_the_readme_agent_runs_and_its_result_is_the_one_shown(tmp_path: Path) -> None:
    """The README's own agent, saved and run as its first line says; the verdict lines the
    README shows under "Reading the result" are the ones `oasis run` prints."""
    (agent,) = re.findall(r"```python\n(# my_agent\.py.*?)```", README, re.S)
    (tmp_path / "my_agent.py").write_text(agent, encoding="utf-8")
    oasis = Path(sys.executable).with_name("oasis")
    env = {**os.environ, "PYTHONPATH": "."}
    done = subprocess.run(
        [str(oasis), "run", "--agent", "python:my_agent:Agent", "--out", "run"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 1, done.stdout + done.stderr  # FAIL, as the README says
    (shown,) = re.findall(r"```text\n(.*?)```", README.split("## Reading the result", 1)[1], re.S)
    printed = (done.stderr + done.stdout).splitlines()  # progress on stderr, verdict on stdout
    for line in shown.splitlines():
        if line.strip() != "..." and not line.startswith(("run directory:", "report:")):
            assert line in printed, line
