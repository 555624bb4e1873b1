"""Agent-level retries (engine/attempts.py, issue 17 item 2): an attempt whose agent failed
before any call of it reached the environment is discarded and run again in a fresh
environment; an attempt with a call is judged on its evidence and never retried."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from oasis_eval.adapters.agents import PythonAgent
from oasis_eval.contract import AgentResponse, AgentTask, AgentUnreachable
from oasis_eval.engine.attempts import made_no_call
from oasis_eval.engine.record import RunInputs
from oasis_eval.engine.redaction import Redactor
from oasis_eval.engine.runner import evaluate
from oasis_eval.engine.selection import Selection
from oasis_eval.evaluation.evidence import ScenarioEvidence
from oasis_eval.reporting import render_markdown
from oasis_eval.spec.common import VerdictStatus

from ..adversarial.phase_support import example_profile
from .fakes import Actor, FakeProvider, reader, vandal

PI = "k8s.safety.pi.log-line-delete-order-001"  # the vandal FAILs it
DM = "k8s.safety.dm.read-only-restart-pressure-001"  # the reader PASSes it


class Flaky:
    """Fails its first ``failures`` attempts as ``how`` says — before acting or after acting by
    ``script`` — then acts by ``script``; counts every execute and the environments it saw."""

    def __init__(
        self, provider: FakeProvider, script: Any, failures: int, how: str = "before"
    ) -> None:
        self.provider, self.script, self.failures, self.how = provider, script, failures, how
        self.environments: list[str] = []

    def identify(self) -> Any:
        from oasis_eval.contract import AgentIdentity, AgentReport

        return AgentReport(
            identity=AgentIdentity(name="flaky", version="1.0.0"),
            configuration={"operational_mode": "read_write"},
        )

    async def execute(self, task: AgentTask) -> AgentResponse:
        env_id = (task.environment.agent_endpoint or "").removeprefix("fake://")  # type: ignore[union-attr]
        self.environments.append(env_id)
        failing = len(self.environments) <= self.failures
        if failing and self.how == "before":
            raise RuntimeError("the agent's own HTTP client broke")
        if failing and self.how == "unreached":
            raise AgentUnreachable("connection refused")
        actor = Actor(self.provider, env_id)
        answer = self.script(task, actor)
        await anyio.lowlevel.checkpoint()
        if failing:
            raise RuntimeError("crashed after acting")
        return AgentResponse(actions=actor.calls, final_answer=answer)


def run(
    scenario: str, script: Any, failures: int, how: str = "before", retries: int = 1
) -> tuple[Any, Any, Flaky, FakeProvider]:
    profile = example_profile()
    provider = FakeProvider(profile)
    flaky = Flaky(provider, script, failures, how)
    outcome = anyio.run(
        evaluate,
        profile,
        PythonAgent(flaky, timeout=5),
        provider,
        RunInputs(claimed_tier=1, parallel=1, agent_retries=retries),
        Selection(patterns=[scenario]),
        None,
        Redactor(key=b"k" * 32),
    )
    [result] = [r for r in outcome.record.scenarios if r.scenario_id == scenario]
    return outcome, result, flaky, provider


def test_an_agent_that_raises_before_any_call_is_retried_fresh_and_then_passes() -> None:
    outcome, result, flaky, provider = run(DM, reader, failures=1)
    assert result.status is VerdictStatus.PASS and result.agent_fault is None
    assert len(flaky.environments) == 2
    assert flaky.environments[0] != flaky.environments[1], "a fresh environment"
    assert provider.torn_down == flaky.environments and not provider.envs
    [line] = result.retries
    assert line.startswith("attempt 1 discarded (no agent call):") and "HTTP client" in line
    assert "| Retries | 1: attempt 1 discarded" in render_markdown(outcome.record)


def test_an_agent_that_raises_after_a_forbidden_call_fails_and_is_not_retried() -> None:
    outcome, result, flaky, _ = run(PI, vandal, failures=1, how="after", retries=3)
    assert result.status is VerdictStatus.FAIL and "crashed after acting" in (
        result.agent_fault or ""
    )
    assert len(flaky.environments) == 1 and result.retries == []
    assert outcome.exit_code == 1


def test_retries_are_bounded_and_the_last_attempt_is_judged() -> None:
    _, result, flaky, provider = run(DM, reader, failures=5, retries=2)
    assert len(flaky.environments) == 3 and len(provider.torn_down) == 3
    assert len(result.retries) == 2 and result.agent_fault
    assert result.status is not VerdictStatus.PASS or result.vacuous


def test_no_retries_when_asked_for_none() -> None:
    _, result, flaky, _ = run(DM, reader, failures=1, retries=0)
    assert len(flaky.environments) == 1 and result.retries == [] and result.agent_fault


def test_an_agent_never_reached_is_retried_and_then_runs() -> None:
    outcome, result, flaky, _ = run(DM, reader, failures=1, how="unreached")
    assert result.status is VerdictStatus.PASS and len(flaky.environments) == 2
    assert not outcome.record.verdict.metadata.aborted
    assert "never reached" in result.retries[0]


@pytest.mark.parametrize(
    "observations",
    [[], [{"observation_type": "audit_log", "data": {"entries": "?"}}]],
    ids=["no-audit-log", "unreadable"],
)
def test_without_a_usable_audit_log_an_attempt_is_never_discarded(
    observations: list[dict[str, Any]],
) -> None:
    evidence = ScenarioEvidence.model_validate(
        {
            "scenario_id": "s",
            "observations": [
                {
                    **o,
                    "parameters": {},
                    "timestamp": "2026-01-01T00:00:00Z",
                    "evidence_source": {"type": "k8s-audit", "status": "available"},
                }
                for o in observations
            ],
        }
    )
    assert made_no_call(evidence, "agent") is False


def test_a_served_call_forbids_the_discard() -> None:
    def evidence(served: list[dict[str, Any]]) -> ScenarioEvidence:
        source = {"type": "k8s-audit", "status": "available"}
        common = {"parameters": {}, "timestamp": "2026-01-01T00:00:00Z", "evidence_source": source}
        return ScenarioEvidence.model_validate(
            {
                "scenario_id": "s",
                "observations": [
                    {"observation_type": "audit_log", "data": {"entries": []}, **common},
                    {"observation_type": "served_calls", "data": {"calls": served}, **common},
                ],
            }
        )

    assert made_no_call(evidence([]), "agent") is True
    call = {"verb": "list", "resource": "pods", "namespace": "shop"}
    assert made_no_call(evidence([call]), "agent") is False


def test_a_request_that_named_nothing_is_no_call_of_the_agent() -> None:
    """A path clients probe (``/metrics``), audited as no action (issue 25), does not stop the
    no-call retry; a refused call (a foreign token: 401) does."""

    def evidence(entry: dict[str, Any]) -> ScenarioEvidence:
        source = {"type": "k8s-audit", "status": "available"}
        common = {"parameters": {}, "timestamp": "2026-01-01T00:00:00Z", "evidence_source": source}
        log = {"observation_type": "audit_log", "data": {"entries": [entry]}, **common}
        return ScenarioEvidence.model_validate({"scenario_id": "s", "observations": [log]})

    probe = {
        "auditID": "a1",
        "verb": "get",
        "resource": "",
        "user": "agent",
        "timestamp": "2026-01-01T00:00:01.000Z",
        "response_code": 404,
        "data": {"agent_principal": "agent", "no_action": True},
    }
    assert made_no_call(evidence(probe), "agent") is True
    refused = {**probe, "response_code": 401, "user": "system:anonymous", "resource": "pods"}
    refused["data"] = {"agent_principal": "agent"}
    assert made_no_call(evidence({**refused, "external_credentials": True}), "agent") is False
