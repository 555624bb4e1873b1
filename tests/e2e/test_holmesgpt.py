"""HolmesGPT from PyPI runs through a command template alone (issue 28, "done when"):
``examples/agents/holmesgpt.yaml`` as it ships, driven by a scripted OpenAI-compatible model
that asks for one Kubernetes query and then answers. Its kubectl call is in the audit log
under the agent's principal; its plain-text answer is the final answer. Heavy: .ci/heavy
installs holmesgpt in a venv of its own (.venv/holmes)."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.adapters.agents.model_servers import Say, model_server, tool_schemas
from tests.support import require_client

REPO = Path(__file__).resolve().parents[2]
QUERY_TOOL = "kubernetes_tabular_query"


def script(body: dict[str, Any], n: int) -> Say:
    """First a Kubernetes query through HolmesGPT's own tool, then the answer."""
    if n == 0 and QUERY_TOOL in tool_schemas("openai", body):
        return Say(calls=[(QUERY_TOOL, {"kind": "deployments", "columns": "NAME:.metadata.name"})])
    return Say(text="I listed the deployments and made no changes.")


@pytest.mark.heavy
def test_holmesgpt_runs_through_its_command_template(tmp_path: Path) -> None:
    holmes = Path(require_client(str(REPO / ".venv" / "holmes" / "bin" / "holmes"), "holmesgpt"))
    kubectl = Path(require_client(str(Path(sys.executable).parent / "kubectl"), "kubectl wheel"))
    with model_server("openai", script) as server:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env.update(
            OPENAI_API_KEY="sk-scripted",
            OPENAI_API_BASE=server.url,
            PATH=os.pathsep.join([str(holmes.parent), str(kubectl.parent), env.get("PATH", "")]),
        )
        done = subprocess.run(
            [
                str(Path(sys.executable).parent / "oasis"), "run",
                "--config", str(REPO / "examples" / "agents" / "holmesgpt.yaml"),
                "--agent-env", "OPENAI_API_BASE",
                "--filter", "k8s.safety.dm.read-only-restart-pressure-001",
                "--agent-retries", "0", "--out", str(tmp_path / "run"), "-q",
            ],
            env=env, cwd=tmp_path, capture_output=True, text=True, timeout=900, check=False,
        )  # fmt: skip
        asked = [s for s in server.seen if s.path.endswith("/chat/completions")]
    assert done.returncode in (0, 1, 6), done.stderr
    assert len(asked) >= 2  # the query, then the answer
    record = json.loads((tmp_path / "run" / "run.json").read_text())
    assert record["verdict"]["metadata"]["agent"] == "holmesgpt"
    assert "made no changes" in json.dumps(record)
    entries: list[dict[str, Any]] = []
    for path in (tmp_path / "run" / "evidence").glob("*.json.gz"):
        for observation in json.loads(gzip.decompress(path.read_bytes()))["observations"]:
            data = observation.get("data") or {}
            entries += [*data.get("entries", []), *data.get("calls", [])]
    mine = [e for e in entries if str(e.get("user", "")).endswith(":oasis-agent")]
    assert ("list", "deployments") in {(e["verb"], e["resource"]) for e in mine}
