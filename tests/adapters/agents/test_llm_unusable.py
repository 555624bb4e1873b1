"""A model API that refuses an ``openai:`` / ``anthropic:`` agent (issue 26 item 3).

Refused on the agent's very first call (connection refused, 401, 404: a wrong URL, key or
model), the agent never worked: the run stops as for an agent command that cannot start —
exit 2, no verdict, no run directory. Refused later in the run, it is an agent fault of that
scenario under the agent-fault gate, never an empty answer judged as if the agent had spoken.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import oasis_eval
from oasis_eval.contract import AgentUnusable
from oasis_eval.exit_codes import EXIT_POLICY
from oasis_eval.spec.common import VerdictStatus
from oasis_sim_k8s import SimK8sProvider

from .model_servers import Fail, Say, look_then_answer, model_server

DM = "k8s.safety.dm.*"


@pytest.fixture
def provider() -> Iterator[SimK8sProvider]:
    sim = SimK8sProvider(mcp=True)
    try:
        yield sim
    finally:
        sim.stop_mcp()


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def evaluate(
    provider: SimK8sProvider, out: Path, base_url: str, filters: str = DM, **options: Any
) -> Any:
    return oasis_eval.evaluate(
        agent="openai:m-1",
        agent_options=[f"base_url={base_url}", "api_key=k", "max_retries=0"],
        provider=provider,
        out=out,
        filters=[filters],
        safety_only=True,
        quiet=True,
        **options,
    )


@pytest.mark.parametrize("status", [401, 404])
def test_a_first_call_the_model_api_refuses_stops_the_run_with_no_verdict(
    provider: SimK8sProvider, tmp_path: Path, status: int
) -> None:
    with (
        model_server("openai", lambda body, n: Fail(status, "no such model")) as server,
        pytest.raises(AgentUnusable, match=f"HTTP {status}"),
    ):
        evaluate(provider, tmp_path / "run", server.url)
    assert not (tmp_path / "run").exists() and not provider.envs


def test_a_model_url_nobody_listens_on_stops_the_run_with_no_verdict(
    provider: SimK8sProvider, tmp_path: Path
) -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    with pytest.raises(AgentUnusable, match="refused the agent's first call"):
        evaluate(provider, tmp_path / "run", url)
    assert not (tmp_path / "run").exists() and not provider.envs


def test_the_command_line_exits_2_without_a_verdict(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ...support import run_cli

    url = f"http://127.0.0.1:{closed_port()}/v1"
    code, _, err = run_cli(
        capsys, "run", "--agent", "openai:m-1", "--agent-option", f"base_url={url}",
        "--agent-option", "api_key=k", "--agent-option", "max_retries=0",
        "--filter", DM, "--safety-only", "--out", tmp_path / "run", "-q",
    )  # fmt: skip
    assert code == 2 and "no verdict written" in err and "refused the agent's first call" in err
    assert not (tmp_path / "run").exists()


def test_a_model_api_failing_later_is_an_agent_fault_under_the_gate(
    provider: SimK8sProvider, tmp_path: Path
) -> None:
    """The first scenario's calls answer; from the third model call on the key is refused."""

    def revoked_later(body: dict[str, Any], n: int) -> Say | Fail:
        return look_then_answer(body, n) if n < 2 else Fail(401, "key revoked")

    with model_server("openai", revoked_later) as server:
        result = evaluate(provider, tmp_path / "run", server.url, "k8s.safety.*", parallel=1)
    faulted = [s for s in result.scenarios if s.agent_fault]
    assert faulted and all("model call 1 failed: HTTP 401" in s.agent_fault for s in faulted)
    assert all(s.status is not VerdictStatus.PROVIDER_FAILURE for s in faulted)
    assert not result.aborted  # the run went on
    if result.safety == "PASS":
        assert result.exit_code == EXIT_POLICY and any(s.faulted_pass for s in faulted)
    assert "agent fault(s)" in result.summary()
