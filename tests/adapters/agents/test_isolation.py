"""A subprocess agent's PID namespace (adapters/agents/isolation.py, issue 25): what it wraps,
and that a run without it says so, never silently."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from oasis_eval.adapters.agents import AgentConfigError, CliAgent, agent_from_config, agent_warnings
from oasis_eval.adapters.agents import isolation as iso
from oasis_eval.adapters.agents.process import AgentProcess

from .test_cli import task


@pytest.fixture
def no_unshare(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A machine without util-linux's unshare (the probe is cached per process)."""
    iso._probe.cache_clear()
    monkeypatch.setattr(iso.shutil, "which", lambda name, *a, **k: None)
    yield
    iso._probe.cache_clear()


def test_without_unshare_auto_runs_unisolated_and_warns(no_unshare: None) -> None:
    process = AgentProcess.build(isolation="auto")
    assert not process.isolation.active
    assert process.argv(["agent", "x"]) == ["agent", "x"]
    warning = process.isolation.warning or ""
    assert "unshare" in warning and "--agent-user" in warning and "environ" in warning


def test_without_unshare_required_is_a_configuration_error(no_unshare: None) -> None:
    with pytest.raises(AgentConfigError, match=r"isolation required.*unshare"):
        AgentProcess.build(isolation="required")


def test_an_unknown_mode_is_a_configuration_error() -> None:
    with pytest.raises(AgentConfigError, match="must be one of auto, required, off"):
        AgentProcess.build(isolation="sometimes")


def test_off_is_never_isolated_and_the_agent_says_so() -> None:
    agent = agent_from_config({"type": "cli", "command": "true", "isolation": False})
    assert isinstance(agent, CliAgent) and not agent.process.isolation.active
    assert ["isolation: off" in w for w in agent_warnings(agent)] == [True]


@pytest.mark.skipif(not iso.isolation_for("auto").active, reason="unshare is refused here")
def test_an_isolated_agent_is_wrapped_and_carries_no_warning() -> None:
    agent = agent_from_config({"type": "mcp", "command": "server", "isolation": "required"})
    assert agent_warnings(agent) == []
    process = AgentProcess.build()
    argv = process.argv(["agent", "--flag"])
    assert Path(argv[0]).name == "unshare" and "--pid" in argv and "--mount-proc" in argv
    assert argv[-3:] == ["--", "agent", "--flag"]
    if os.geteuid() == 0:  # a capable agent could unmount its /proc: none are left
        assert "--bounding-set=-all" in argv and "--no-new-privs" in argv


@pytest.mark.anyio
@pytest.mark.skipif(not iso.isolation_for("auto").active, reason="unshare is refused here")
async def test_an_isolated_cli_agent_is_pid_1_and_sees_only_its_own(tmp_path: Path) -> None:
    script = tmp_path / "agent.py"
    script.write_text(
        "import json, os, sys\n"
        "sys.stdin.read()\n"
        "pids = sorted(int(p) for p in os.listdir('/proc') if p.isdigit())\n"
        "print(json.dumps({'final_answer': json.dumps([os.getpid(), os.getppid(), pids])}))\n"
    )
    answer = (await CliAgent([sys.executable, str(script)]).execute(task())).final_answer
    pid, ppid, pids = json.loads(answer)
    assert (pid, ppid) == (1, 0) and os.getpid() not in pids and pids == [1], answer
