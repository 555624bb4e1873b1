"""The composite GitHub Action (action.yml, issue 18 item 3), its steps run here as the runner
would run them: inputs become environment variables, ``$GITHUB_OUTPUT`` and
``$GITHUB_STEP_SUMMARY`` are files. The install and setup-python steps are the runner's job."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from oasis_eval.examples import EXAMPLE_PROFILE_DIR

ROOT = Path(__file__).resolve().parents[2]
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
_EXPR = re.compile(r"\$\{\{\s*([^}]+?)\s*\}\}")


def test_action_is_composite_and_never_splices_inputs_into_scripts() -> None:
    assert ACTION["runs"]["using"] == "composite"
    inputs = ACTION["inputs"]
    for wanted in ("profile", "agent", "args", "min-capability", "fail-on-vacuous"):
        assert wanted in inputs
    steps = ACTION["runs"]["steps"]
    scripts = [step["run"] for step in steps if "run" in step]
    assert len(scripts) == 5
    # a `${{ }}` inside a script is shell injection; every input goes through `env:`
    assert not [s for s in scripts if "${{" in s]
    used = {
        m.group(1)
        for step in steps
        for value in [*(step.get("env") or {}).values(), *(step.get("with") or {}).values()]
        for m in _EXPR.finditer(str(value))
    }
    assert {u.removeprefix("inputs.") for u in used if u.startswith("inputs.")} <= set(inputs)
    assert "$GITHUB_STEP_SUMMARY" in _step("summary")["run"]


def _step(step_id: str) -> dict[str, Any]:
    return next(s for s in ACTION["runs"]["steps"] if s.get("id") == step_id)


def _run_step(step_id: str, inputs: dict[str, str], work: Path, **extra_env: str) -> int:
    """Run one step's script as the runner would: bash -eo pipefail, env from `${{ }}`."""
    step = _step(step_id)
    defaults = {k: str(v.get("default", "")) for k, v in ACTION["inputs"].items()}
    values = {**defaults, **inputs}
    outputs = _outputs(work)

    def resolve(match: re.Match[str]) -> str:
        expr = match.group(1)
        if expr.startswith("inputs."):
            return values[expr.removeprefix("inputs.")]
        return outputs.get(expr.removeprefix("steps.run.outputs."), "")

    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "GITHUB_OUTPUT": str(work / "output"),
        "GITHUB_STEP_SUMMARY": str(work / "summary.md"),
        **{k: _EXPR.sub(resolve, str(v)) for k, v in (step.get("env") or {}).items()},
        **extra_env,
    }
    done = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
        check=False,
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode


def _outputs(work: Path) -> dict[str, str]:
    path = work / "output"
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)


def test_a_failing_agent_fails_the_gate_with_a_summary(tmp_path: Path) -> None:
    inputs = {
        "agent": "builtin:naive",
        "profile": str(EXAMPLE_PROFILE_DIR),
        "args": "--safety-only --evaluator 'CI lab'",
    }
    assert _run_step("profile", inputs, tmp_path) == 0  # a path: nothing fetched
    assert _run_step("run", inputs, tmp_path) == 0  # the code is an output, the gate fails
    assert _outputs(tmp_path) == {"exit-code": "1", "run-dir": "oasis-run"}
    verdict = yaml.safe_load((tmp_path / "oasis-run" / "verdict.yaml").read_text())
    assert verdict["verdict"]["metadata"]["evaluator"] == "CI lab"  # quoted args survive
    assert _run_step("summary", inputs, tmp_path) == 0
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert summary.startswith("## ❌ OASIS safety FAIL") and len(summary.splitlines()) <= 40
    assert _run_step("gate", inputs, tmp_path) == 1


def test_gate_policies_reach_oasis_run(tmp_path: Path) -> None:
    inputs = {
        "agent": "builtin:careful",
        "profile": str(EXAMPLE_PROFILE_DIR),
        "min-capability": "0.5 reasoning=0.6",
        "fail-on-vacuous": "true",
        "args": "--safety-only",
    }
    assert _run_step("run", inputs, tmp_path) == 0
    assert _outputs(tmp_path)["exit-code"] == "6"  # PASS, but no capability score to gate
    assert _run_step("summary", inputs, tmp_path) == 0
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "`--min-capability overall=0.50` **FAILED**" in summary
    assert "`--min-capability reasoning=0.60` **FAILED**" in summary
    assert "`--fail-on-vacuous` passed" in summary
    assert _run_step("gate", inputs, tmp_path) == 6


def test_a_bare_profile_name_is_fetched_from_the_given_source(
    oasis_spec_dir: Path, tmp_path: Path
) -> None:
    if shutil.which("git") is None:
        pytest.skip("git not installed")
    repo = tmp_path / "spec"
    shutil.copytree(oasis_spec_dir, repo, ignore=shutil.ignore_patterns(".git"))
    git = ["git", "-c", "user.email=t@example.org", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], cwd=repo, check=True)
    subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-qm", "spec"], cwd=repo, check=True)
    inputs = {"agent": "builtin:careful", "profile-source": str(repo), "profile-ref": "HEAD"}
    cache = tmp_path / "cache"
    assert _run_step("profile", inputs, tmp_path, OASIS_PROFILE_CACHE=str(cache)) == 0
    assert (cache / "software-infrastructure" / "profile.md").is_file()


def test_no_verdict_still_writes_a_summary(tmp_path: Path) -> None:
    inputs = {"agent": "builtin:careful", "profile": str(tmp_path / "missing")}
    assert _run_step("run", inputs, tmp_path) == 0
    assert _outputs(tmp_path)["exit-code"] == "2"
    assert _run_step("summary", inputs, tmp_path) == 0
    assert "no verdict was written" in (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert _run_step("gate", inputs, tmp_path) == 2


def test_the_ci_page_lists_the_actions_inputs() -> None:
    page = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    listed = page.split("Inputs: `agent` (required)", 1)[1].split("; outputs", 1)[0]
    listed = re.sub(r"\(default [^)]*\)", "", listed)  # defaults are not inputs
    assert set(re.findall(r"`([a-z-]+)`", "`agent`" + listed)) == set(ACTION["inputs"])
