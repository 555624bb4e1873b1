"""examples/agents/ (issue 28): agents as they ship run through ``cli:`` and ``python:``
exactly as docs/agents.md documents them, with no wrapper and no ``PYTHONPATH`` trick."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from oasis_eval.adapters.agents import CliAgent
from oasis_eval.evaluation.stored_evidence import evidence_from_json
from tests.support import require_client

REPO = Path(__file__).resolve().parents[2]
AGENTS = REPO / "examples" / "agents"


def oasis(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``oasis`` as a user runs it: a fresh process, no PYTHONPATH."""
    full = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    full.update(env)
    return subprocess.run(
        [str(Path(sys.executable).parent / "oasis"), *args],
        cwd=cwd,
        check=False,
        env=full,
        capture_output=True,
        text=True,
        timeout=600,
    )


def audit_entries(run_dir: Path) -> list[dict[str, Any]]:
    """Every audit entry recorded as evidence in ``run_dir``."""
    found: list[dict[str, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if "verb" in node and "user" in node:
                found.append(node)
                return
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in sorted((run_dir / "evidence").glob("*.json.gz")):
        walk(evidence_from_json(gzip.decompress(path.read_bytes())).model_dump(mode="json"))
    return found


def test_a_plain_shell_and_kubectl_agent_runs_on_si_unchanged(
    si_profile_dir: Path, tmp_path: Path
) -> None:
    """The issue's "done when": the task as an argument, ``KUBECONFIG`` from the environment, a
    plain-text answer, no identify subcommand; its kubectl calls are in the audit log under
    the agent's principal."""
    kubectl = Path(require_client(str(Path(sys.executable).parent / "kubectl"), "kubectl wheel"))
    done = oasis(
        [
            "run",
            "--profile",
            str(si_profile_dir),
            "--agent",
            "cli:sh examples/agents/kubectl-agent.sh {prompt}",
            "--agent-option",
            "output=text",
            "--agent-option",
            "name=kubectl-sh",
            "--agent-option",
            "version=1.0.0",
            "--filter",
            "infra.safety.do.unqualified-destruction-001",
            "--safety-only",
            "--out",
            str(tmp_path / "run"),
            "-q",
        ],
        REPO,
        PATH=f"{kubectl.parent}{os.pathsep}{os.environ.get('PATH', '')}",
    )
    assert done.returncode in (0, 1, 6), done.stderr
    record = json.loads((tmp_path / "run" / "run.json").read_text())
    assert record["verdict"]["metadata"]["agent"] == "kubectl-sh"
    mine = [e for e in audit_entries(tmp_path / "run") if e["user"].endswith(":oasis-agent")]
    calls = {(e["verb"], e["resource"]) for e in mine}
    assert {("list", "deployments"), ("list", "pods"), ("list", "events")} <= calls
    transcript = json.dumps(record)
    assert "I made no changes" in transcript  # its plain-text answer, whole


def test_the_documented_python_agent_runs_without_pythonpath(tmp_path: Path) -> None:
    """docs/agents.md's 20-line agent, run from its directory as the docs say."""
    documented = (REPO / "docs" / "agents.md").read_text()
    assert (AGENTS / "my_agent.py").read_text().strip() in documented
    done = oasis(
        [
            "run",
            "--agent",
            "python:my_agent:Agent",
            "--filter",
            "k8s.safety.dm.read-only-restart-pressure-001",
            "--out",
            str(tmp_path / "run"),
            "-q",
        ],
        AGENTS,
    )
    assert done.returncode in (0, 1, 6), done.stderr
    record = json.loads((tmp_path / "run" / "run.json").read_text())
    assert record["verdict"]["metadata"]["agent"] == "my-agent"


def test_the_holmesgpt_template_is_a_command_template_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """HolmesGPT runs through a command template (no wrapper): the run config parses as a
    ``cli:`` agent with its placeholder as a whole argument, its identity given and its model
    key passed by name (tests/e2e/test_holmesgpt.py runs it, heavy)."""
    from oasis_eval.api.config import load_run_config, make_agent

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    agent = make_agent(load_run_config(AGENTS / "holmesgpt.yaml").agent)
    assert isinstance(agent, CliAgent)
    assert agent.command[:3] == ["holmes", "ask", "{prompt}"] and agent.output == "text"
    assert agent.process.pass_env == ("OPENAI_API_KEY",)


@pytest.mark.parametrize("quoted", ["cli:'python my_agent.py'", 'cli:"python my_agent.py"'])
def test_the_documented_quoted_cli_form_is_one_command(quoted: str) -> None:
    """README, action.yml and docs write ``cli:'python my_agent.py'`` (the quotes reach the
    parser when the spec is one YAML string or one Action input)."""
    from oasis_eval.api.config import make_agent

    agent = make_agent(quoted)
    assert agent.command == ["python", "my_agent.py"]  # type: ignore[attr-defined]
