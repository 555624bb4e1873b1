"""adapters/agents/process.py: the variables a provider declares for a scenario
(``agent_credentials.env``, issue 34 step 2) reach a subprocess agent; names of the
allow-list, the harness or the loader are refused as the provider's fault."""

from __future__ import annotations

from pathlib import Path

import pytest

from oasis_eval.adapters.agents.process import AgentProcess, handoff_env, provider_env
from oasis_eval.contract import AgentTask, EnvironmentAccess, ProviderFault


def task(credentials: dict[str, object]) -> AgentTask:
    return AgentTask(
        scenario_id="s",
        prompt="p",
        mode="autonomous",
        environment=EnvironmentAccess(
            agent_endpoint="postgresql://127.0.0.1:5432/db", agent_credentials=credentials
        ),
    )


def test_declared_variables_are_handed_off(tmp_path: Path) -> None:
    env = handoff_env(
        AgentProcess(),
        task({"user": "u", "env": {"PGUSER": "u", "PGPORT": "5432"}}),
        tmp_path,
    )
    assert env["PGUSER"] == "u" and env["PGPORT"] == "5432"
    assert env["OASIS_CREDENTIAL_USER"] == "u"
    assert "OASIS_CREDENTIAL_ENV" not in env


@pytest.mark.parametrize(
    "declared",
    [
        {"PATH": "/evil"},
        {"HOME": "/x"},
        {"OASIS_RUN_KEY": "k"},
        {"LD_PRELOAD": "/x.so"},
        {"PYTHONPATH": "/x"},
        {"pghost": "h"},
        {"PGPORT": 5432},
        ["PGHOST"],
    ],
)
def test_reserved_or_malformed_names_are_the_providers_fault(declared: object) -> None:
    with pytest.raises(ProviderFault):
        provider_env(declared)
