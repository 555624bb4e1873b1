"""``oasis provider serve|list`` and the in-process ``sim-k8s`` provider type for ``oasis run``."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
import typer
from typer.testing import CliRunner

from oasis_eval.adapters.providers import known_provider_types, provider_from_config
from oasis_eval.cli import run_cmd
from oasis_eval.cli.main import app
from oasis_eval.cli.provider_cmd import build_serve_config, is_loopback
from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.provider.serve import build_apps

#: how long a started server may take to print its lines, or to stop on Ctrl-C: a guard
#: against a hang, not a speed requirement (a loaded machine is slow to start Python)
HANG = 120

runner = CliRunner()


# ---- serve: option handling --------------------------------------------------------------------


@pytest.mark.parametrize(
    "host", ["127.0.0.1", "127.3.2.1", "::1", "[::1]", "localhost", "LOCALHOST"]
)
def test_loopback_hosts_are_served(host: str) -> None:
    assert is_loopback(host)
    assert build_serve_config("sim-k8s", host=host, port=0).host == host


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.10", "10.0.0.1", "example.com"])
def test_other_hosts_need_allow_remote(host: str) -> None:
    assert not is_loopback(host)
    with pytest.raises(typer.BadParameter, match="allow-remote"):
        build_serve_config("sim-k8s", host=host)
    assert build_serve_config("sim-k8s", host=host, allow_remote=True, token="t").allow_remote


def test_serve_validates_provider_faults_and_rates() -> None:
    cfg = build_serve_config(
        "sim-k8s",
        port=0,
        faults=["audit-unreachable", "observe-error,teardown-in-progress"],
        provision_error_rate=0.2,
        seed=7,
    )
    assert cfg.faults == ["audit-unreachable", "observe-error", "teardown-in-progress"]
    assert (cfg.provision_error_rate, cfg.seed, cfg.url(4321)) == (0.2, 7, "http://127.0.0.1:4321")
    with pytest.raises(typer.BadParameter, match="unknown sim-k8s fault 'audit-down'"):
        build_serve_config("sim-k8s", faults=["audit-down"])
    with pytest.raises(typer.BadParameter, match="between 0 and 1"):
        build_serve_config("sim-k8s", provision_error_rate=1.5)
    with pytest.raises(typer.BadParameter, match="unknown provider 'petri'"):
        build_serve_config("petri")
    with pytest.raises(typer.BadParameter, match="port"):
        build_serve_config("sim-k8s", port=70000)
    app_obj = build_apps(cfg.options())
    provider = app_obj.state.provider
    assert provider.faults.audit_unreachable and provider.faults.observe_error
    assert provider.faults.provision_error_rate == 0.2 and provider.seed == 7


def test_cli_refuses_a_non_loopback_host_before_serving() -> None:
    result = runner.invoke(
        app, ["provider", "serve", "sim-k8s", "--host", "0.0.0.0", "--port", "0"]
    )
    assert result.exit_code == 2
    assert "allow-remote" in result.output


def test_cli_rejects_unknown_faults() -> None:
    result = runner.invoke(app, ["provider", "serve", "sim-k8s", "--fault", "nope"])
    assert result.exit_code == 2 and "unknown sim-k8s fault" in result.output


def test_provider_list() -> None:
    result = runner.invoke(app, ["provider", "list"])
    assert result.exit_code == 0
    assert "sim-k8s" in result.output and "http, python" in result.output
    assert "--fault audit-drop-setup:" in result.output  # each servable provider's faults


def test_the_cli_loads_no_provider_plugin_until_one_is_used() -> None:
    """Building the command line (its help texts included) never imports the simulator."""
    code = "import sys, oasis_eval.cli.main; print(any(m.startswith('oasis_sim_k8s') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def _read_lines(proc: subprocess.Popen[str], sink: queue.Queue[str]) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        sink.put(line)


def test_serve_runs_uvicorn_and_prints_its_url() -> None:
    """The real command in a subprocess: --port 0, a fault, the URL printed, then SIGINT."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "oasis_eval.cli.main",
            "provider",
            "serve",
            "sim-k8s",
            "--port",
            "0",
            "--fault",
            "audit-unreachable",
            "--seed",
            "3",
            "--token",
            "tok",
            "--log-level",
            "warning",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_read_lines, args=(proc, lines), daemon=True).start()
    try:
        first = lines.get(timeout=HANG)
        assert first.startswith("sim-k8s provider serving on http://127.0.0.1:"), first
        url = first.split(" on ", 1)[1].strip()
        assert not url.endswith(":0")
        auth = {"Authorization": "Bearer tok"}
        assert httpx.get(f"{url}/v1/conformance", params={"profile": "x"}).status_code == 401
        conf = httpx.get(
            f"{url}/v1/conformance",
            params={"profile": "oasis-profile-software-infrastructure"},
            headers=auth,
        ).json()
        assert conf["supported"] is True
        body = {
            "scenario_id": "s",
            "environment": {
                "type": "kubernetes-cluster",
                "state": [
                    {
                        "kind": "deployment",
                        "name": "api",
                        "namespace": "shop",
                        "spec": {"status": "running"},
                    }
                ],
            },
            "agent": {"mode": "read-only", "tools": ["kubectl"], "scope": {"namespaces": ["shop"]}},
            "tier": 1,
        }
        env_id = httpx.post(f"{url}/v1/provision", json=body, headers=auth).json()["environment_id"]
        seen = httpx.post(
            f"{url}/v1/observe",
            headers=auth,
            json={"environment_id": env_id, "observation_type": "audit_log", "parameters": {}},
        ).json()
        assert seen["evidence_source"]["status"] == "unreachable"
        assert httpx.post(
            f"{url}/v1/teardown", json={"environment_id": env_id}, headers=auth
        ).json() == {"status": "destroyed"}
    finally:
        _stop(proc)
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""


# ---- sim-k8s as an in-process provider type for oasis run ---------------------------------------


def test_sim_k8s_is_a_registered_provider_type() -> None:
    assert "sim-k8s" in known_provider_types()
    provider = provider_from_config(
        {"type": "sim-k8s", "faults": ["audit-unreachable"], "seed": 7, "provision_error_rate": 0.1}
    )
    assert isinstance(provider, SimK8sProvider)
    assert (
        provider.faults.audit_unreachable
        and provider.seed == 7
        and provider.faults.provision_error_rate == 0.1
    )
    with pytest.raises(ValueError, match="unknown option"):
        provider_from_config({"type": "sim-k8s", "fualts": []})
    with pytest.raises(ValueError, match="unknown sim-k8s fault"):
        provider_from_config({"type": "sim-k8s", "faults": "audit-down"})


def test_run_resolves_sim_k8s_in_process() -> None:
    """`--provider sim-k8s:` (and `sim-k8s:FAULT,...`) and a run config's {type: sim-k8s}."""
    assert isinstance(run_cmd._provider("sim-k8s:"), SimK8sProvider)
    drill = run_cmd._provider("sim-k8s:audit-unreachable,observe-error")
    assert drill.faults.audit_unreachable and drill.faults.observe_error
    assert isinstance(run_cmd._provider({"type": "sim-k8s", "seed": 2}), SimK8sProvider)


def test_run_resolves_a_bare_sim_k8s() -> None:
    assert isinstance(run_cmd._provider("sim-k8s"), SimK8sProvider)


AGENT = """
class QuietAgent:
    def identify(self):
        return {"identity": {"name": "quiet", "version": "1.0.0"}, "configuration": {}}

    def execute(self, task):
        return {"final_answer": "I looked and changed nothing.", "actions": []}

agent = QuietAgent()
"""


def _run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, provider: str) -> Any:
    (tmp_path / "quiet_agent_mod.py").write_text(AGENT)
    monkeypatch.syspath_prepend(str(tmp_path))
    out = tmp_path / "run"
    result = runner.invoke(
        app,
        [
            "run",
            "--provider",
            provider,
            "--agent",
            "python:quiet_agent_mod:agent",
            "--out",
            str(out),
            "-q",
        ],
    )
    return result, out


def test_oasis_run_over_in_process_sim_k8s(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result, out = _run(tmp_path, monkeypatch, "sim-k8s:")
    assert result.exit_code in (0, 1), result.output
    assert "PROVIDER_FAILURE" not in result.output
    assert (out / "verdict.yaml").is_file()


def test_oasis_run_drill_audit_unreachable_exits_3(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result, out = _run(tmp_path, monkeypatch, "sim-k8s:audit-unreachable")
    assert result.exit_code == 3, result.output
    assert "PROVIDER_FAILURE" in result.output
    verdict = (out / "verdict.yaml").read_text()
    assert "aborted: true" in verdict


# ---- isolation and hostile input (issue 11 H1, item 7) ------------------------------------------


def test_a_busy_port_is_a_clear_usage_error() -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        result = runner.invoke(app, ["provider", "serve", "sim-k8s", "--port", str(port)])
        opened = runner.invoke(
            app,
            ["provider", "serve", "sim-k8s", "--port", "0", "--agent-port", str(port), "--no-auth"],
        )
    assert result.exit_code == 2
    assert (
        f"cannot listen on 127.0.0.1:{port} (--port)" in result.output and "in use" in result.output
    )
    assert "Traceback" not in result.output
    assert opened.exit_code == 2 and f"127.0.0.1:{port} (--agent-port)" in opened.output
    assert "WARNING: --no-auth" in opened.output


def test_a_run_config_names_the_runner_token(tmp_path: Path) -> None:
    (tmp_path / "token").write_text("t0k\n")
    config = tmp_path / "run.yaml"
    config.write_text("environment:\n  provider: http://127.0.0.1:9\n  token_file: token\n")
    cfg = run_cmd.load_run_config(config)
    assert cfg.provider_auth == {
        "token_file": str(tmp_path / "token")
    }  # relative to the config file


def test_no_auth_cannot_be_combined_with_a_token() -> None:
    result = runner.invoke(app, ["provider", "serve", "sim-k8s", "--no-auth", "--token", "t"])
    assert result.exit_code == 2 and "--no-auth" in result.output


def test_serve_generates_a_runner_token_into_a_private_file_and_keeps_the_agent_apart(
    tmp_path: Path,
) -> None:
    """No --token: one is generated, written 0600 and never printed; the agent MCP endpoint
    has its own port, where the runner API does not exist."""
    token_file = tmp_path / "runner.token"
    env = {k: v for k, v in os.environ.items() if k != "OASIS_PROVIDER_TOKEN"}
    env["PYTHONUNBUFFERED"] = "1"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "oasis_eval.cli.main",
            "provider",
            "serve",
            "sim-k8s",
            "--port",
            "0",
            "--token-file",
            str(token_file),
            "--log-level",
            "warning",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_read_lines, args=(proc, lines), daemon=True).start()
    try:
        printed = [lines.get(timeout=HANG) for _ in range(4)]
        url = printed[0].split(" on ", 1)[1].strip()
        agent_url = next(line for line in printed if "agent MCP:" in line).split()[2]
        token = token_file.read_text().strip()
        assert len(token) >= 32 and token_file.stat().st_mode & 0o777 == 0o600
        assert token not in "".join(printed) and str(token_file) in "".join(printed)
        assert agent_url.endswith("/mcp") and agent_url.rsplit(":", 1)[1] != url.rsplit(":", 1)[1]
        assert httpx.get(f"{url}/v1/conformance", params={"profile": "x"}).status_code == 401
        assert (
            httpx.get(
                f"{url}/v1/conformance",
                params={"profile": "x"},
                headers={"Authorization": f"Bearer {token}"},
            ).status_code
            == 200
        )
        # the runner's token is no credential on the agent listener: refused (401, audited as a
        # foreign credential), never the control API
        agent_root = agent_url.removesuffix("/mcp")
        assert (
            httpx.get(
                f"{agent_root}/v1/conformance",
                params={"profile": "x"},
                headers={"Authorization": f"Bearer {token}"},
            ).status_code
            == 401
        )
    finally:
        _stop(proc)
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""


def test_run_hands_the_provider_token_to_an_http_provider() -> None:
    from oasis_eval.adapters.providers import HttpProvider

    built = run_cmd._provider("http://127.0.0.1:9", {"token": "runner-secret"})
    assert (
        isinstance(built, HttpProvider)
        and built._headers["authorization"] == "Bearer runner-secret"
    )
    assert isinstance(run_cmd._provider("sim-k8s", {"token": "ignored"}), SimK8sProvider)


def _stop(proc: subprocess.Popen) -> None:  # type: ignore[type-arg]
    """Ctrl-C the server, as a user would; kill it if it does not stop."""
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=HANG)
    except subprocess.TimeoutExpired:  # pragma: no cover - diagnostics
        proc.kill()
        proc.wait()
