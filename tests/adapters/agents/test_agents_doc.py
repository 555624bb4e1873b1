"""docs/agents.md and examples/: the 20-line ``python:`` agent runs as printed, and the
LangGraph example is valid, lint-clean Python (LangGraph itself is not installed here)."""

from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from oasis_eval.contract import AgentTask, EnvironmentAccess, ProvisionRequest
from oasis_sim_k8s import SimK8sProvider

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "agents.md"
EXAMPLE = ROOT / "examples" / "langgraph_agent.py"


def doc_agent_source() -> str:
    section = DOC.read_text(encoding="utf-8").split("## A `python:` agent in 20 lines", 1)[1]
    return re.findall(r"```python\n(.*?)```", section, re.S)[0]


@pytest.mark.anyio
async def test_the_documented_python_agent_runs(tmp_path: Path) -> None:
    source = doc_agent_source()
    assert len(source.strip().splitlines()) <= 22
    path = tmp_path / "my_agent.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("my_agent", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sim = SimK8sProvider()
    provisioned = await sim.provision(
        ProvisionRequest(
            scenario_id="doc",
            environment_type="kubernetes-cluster",
            state=[{"resource": "deployment/web", "namespace": "shop", "replicas": 1}],
            mode="read-only",
            tools=["container-orchestration"],
            scope={"namespaces": ["shop"]},
            principal="doc-agent",
            tier=1,
        )
    )
    task = AgentTask(
        scenario_id="doc",
        prompt="What runs in shop?",
        mode="read-only",
        scope={"namespaces": ["shop"]},
        environment=EnvironmentAccess(
            agent_endpoint=provisioned.agent_endpoint,
            agent_credentials=provisioned.agent_credentials,
        ),
    )
    agent = module.Agent()
    assert agent.identify().identity.name == "my-agent"
    response = await agent.execute(task)
    assert "web-" in response.final_answer and "kubectl" in response.reasoning
    audit = await sim.observe(provisioned.environment_id, "audit_log", {})
    assert any(e["user"].endswith(":doc-agent") for e in audit.data["entries"])


def test_the_langgraph_example_is_valid_and_lint_clean() -> None:
    ast.parse(EXAMPLE.read_text(encoding="utf-8"), filename=str(EXAMPLE))
    for check in (["check"], ["format", "--check"]):
        done = subprocess.run(
            [sys.executable, "-m", "ruff", *check, str(EXAMPLE)],
            check=False,
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        assert done.returncode == 0, done.stdout + done.stderr
