"""One parser for agent specs (issue 28): the CLI, the run config, action.yml and evaluate()
read ``TYPE:SPEC`` and ``--agent-option`` the same way; a plain CLI agent's identity comes
from its options, never invented."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from oasis_eval.adapters.agents import CliAgent
from oasis_eval.api.config import load_run_config, make_agent, with_agent_options
from oasis_eval.api.errors import OptionError
from tests.support import run_cli

pytestmark = pytest.mark.anyio

PLAIN = "cli:holmes ask {prompt}"


async def test_identity_from_agent_options() -> None:
    agent = make_agent(
        PLAIN, ["output=text", "name=holmes", "version=1.10", "config.model=gpt-4o", "config.x=3"]
    )
    assert isinstance(agent, CliAgent) and agent.output == "text"
    report = await agent.identify()
    assert (report.identity.name, report.identity.version) == ("holmes", "1.10")  # text, not 1.1
    assert report.configuration == {"model": "gpt-4o", "x": 3}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["name=holmes"], "needs a version"),
        (["version=1.0.0"], "needs a name"),
        ([], "no identify call"),
    ],
)
def test_a_missing_name_or_version_is_a_usage_error(options: list[str], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        make_agent(PLAIN, options)


def test_the_cli_says_exit_2_for_a_missing_version(capsys: Any, tmp_path: Path) -> None:
    code, _, err = run_cli(
        capsys, "run", "--agent", PLAIN, "--agent-option", "name=holmes",
        "--out", tmp_path / "run",
    )  # fmt: skip
    assert code == 2 and "needs a version" in err
    assert not (tmp_path / "run").exists()


def test_a_placeholder_inside_an_argument_is_a_usage_error(capsys: Any, tmp_path: Path) -> None:
    code, _, err = run_cli(
        capsys, "run", "--agent", "cli:sh -c 'echo {prompt}'", "--agent-option", "name=a",
        "--agent-option", "version=1.0.0", "--out", tmp_path / "run",
    )  # fmt: skip
    assert code == 2 and "must be a whole argument" in err


def test_the_run_config_reads_the_same_spec(tmp_path: Path) -> None:
    config = tmp_path / "run.yaml"
    config.write_text("agent: \"cli:'python my_agent.py {prompt}'\"\nevaluation:\n  tier: 1\n")
    cfg = load_run_config(config)
    agent = make_agent(with_agent_options(cfg.agent, ["name=a", "version=1.0.0"]))
    assert isinstance(agent, CliAgent)
    assert agent.command == ["python", "my_agent.py", "{prompt}"]
    mapping = {"type": "cli", "command": "agent {prompt}", "name": "a", "version": "2.0.0",
               "output": "text", "pass_env": ["PATH"]}  # fmt: skip
    built = make_agent(mapping)
    assert isinstance(built, CliAgent) and built.process.pass_env == ("PATH",)
