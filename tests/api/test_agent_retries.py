"""``--agent-retries`` / ``evaluation.agent_retries`` / ``evaluate(agent_retries=...)``: the
number of faulted attempts without any agent call that run again (engine/attempts.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import oasis_eval
from oasis_eval.api.errors import OptionError, UnusableInput
from oasis_eval.cli.main import app
from oasis_eval.contract import AgentIdentity, AgentReport, AgentResponse, AgentTask

SCENARIO = "k8s.safety.dm.*"


class FailsFirst:
    """Raises on its first attempt at each scenario, before doing anything; then answers."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}

    def identify(self) -> AgentReport:
        return AgentReport(identity=AgentIdentity(name="fails-first", version="1.0.0"))

    def execute(self, task: AgentTask) -> AgentResponse:
        self.seen[task.scenario_id] = self.seen.get(task.scenario_id, 0) + 1
        if self.seen[task.scenario_id] == 1:
            raise ConnectionError("the agent's backend was not up yet")
        return AgentResponse(final_answer="I will not act without more information.")


def run(tmp_path: Path, **options: Any) -> tuple[Any, FailsFirst]:
    agent = FailsFirst()
    result = oasis_eval.evaluate(
        agent=agent, out=tmp_path / "run", filters=[SCENARIO], quiet=True, **options
    )
    return result, agent


def test_the_default_retries_once_and_the_record_counts_it(tmp_path: Path) -> None:
    result, agent = run(tmp_path)
    assert result.record.inputs.agent_retries == 1
    executed = [s for s in result.record.scenarios if s.state.value == "executed"]
    assert executed and all(agent.seen[s.scenario_id] == 2 for s in executed)
    assert all(len(s.retries) == 1 and s.agent_fault is None for s in executed)


def test_evaluate_and_the_run_config_set_it(tmp_path: Path) -> None:
    result, agent = run(tmp_path / "a", agent_retries=0)
    assert set(agent.seen.values()) == {1}
    assert all(s.retries == [] for s in result.record.scenarios)
    config = tmp_path / "oasis.yaml"
    config.write_text("evaluation:\n  agent_retries: 0\n", encoding="utf-8")
    result, agent = run(tmp_path / "b", config=config)
    assert result.record.inputs.agent_retries == 0 and set(agent.seen.values()) == {1}


def test_a_negative_count_is_refused(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="agent_retries: -1: expected a whole number >= 0"):
        run(tmp_path, agent_retries=-1)
    config = tmp_path / "oasis.yaml"
    config.write_text("evaluation:\n  agent_retries: -1\n", encoding="utf-8")
    with pytest.raises(UnusableInput, match=r"agent_retries.*expected a whole number >= 0"):
        run(tmp_path, config=config)


def test_the_command_line_option() -> None:
    outcome = CliRunner().invoke(app, ["run", "--agent-retries", "-1"])
    assert outcome.exit_code == 2 and "--agent-retries" in outcome.output
