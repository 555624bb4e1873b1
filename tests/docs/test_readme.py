"""The README stays a front page (issue 31): at most 200 lines, its test command is the one
`.ci/run` runs, and every link it holds leads to a file of the repository."""

from __future__ import annotations

import re
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
