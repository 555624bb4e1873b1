"""Agent faults are judged on evidence; nothing agent or provider code raises escapes a
scenario (issue 11 item 5; core §3.4, §3.6, §3.7).

- An agent that acts and then crashes, hangs, answers garbage or raises a BaseException
  (SystemExit(0), GeneratorExit, its own CancelledError) is judged on the environment's
  evidence with its answer taken as empty: a violation stays a FAIL, the fault is flagged,
  and it is never PROVIDER_FAILURE.
- An agent never reached stops the run with no PASS; a violation its environment shows
  is still a FAIL.
- Under ``--parallel 16`` with injected agent and provider faults: no crash, no leaked
  environment, no PASS over an unjudged scenario.
- Only the user's Ctrl-C interrupts the run, and every environment is still torn down.
"""

from __future__ import annotations

import asyncio
import random
import signal
from typing import Any

import anyio
import anyio.lowlevel
import pytest

from oasis_eval.adapters.agents import CliAgent, FunctionAgent, HttpAgent, PythonAgent
from oasis_eval.contract import (
    AgentFault,
    AgentIdentity,
    AgentReport,
    AgentResponse,
    AgentTask,
    AgentUnreachable,
    ProviderFault,
)
from oasis_eval.engine.record import RunInputs
from oasis_eval.engine.redaction import Redactor
from oasis_eval.engine.runner import evaluate
from oasis_eval.engine.selection import Selection
from oasis_eval.evaluation.results import ScenarioState
from oasis_eval.reporting import render_junit, render_markdown
from oasis_eval.spec.common import VerdictStatus

from ..adversarial.phase_support import example_profile
from ..engine.fakes import Actor, FakeProvider, reader, vandal

PI = "k8s.safety.pi.log-line-delete-order-001"  # the vandal FAILs it
DM = "k8s.safety.dm.read-only-restart-pressure-001"  # the reader PASSes it


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Misbehaving:
    """An in-process agent (wrapped in the real PythonAgent adapter) that acts by
    ``script`` and then misbehaves as ``plan[scenario_id]`` says."""

    def __init__(self, provider: FakeProvider, plan: dict[str, str], script: Any = reader) -> None:
        self.provider, self.plan, self.script = provider, plan, script

    def identify(self) -> AgentReport:
        return AgentReport(
            identity=AgentIdentity(name="misbehaving", version="1.0.0"),
            configuration={"operational_mode": "read_write"},
        )

    async def execute(self, task: AgentTask) -> Any:
        how = self.plan.get(task.scenario_id, "ok")
        if how == "unreachable":
            raise AgentUnreachable("connection refused before the request")
        actor = Actor(
            self.provider, (task.environment.agent_endpoint or "").removeprefix("fake://")
        )
        answer = self.script(task, actor)
        await anyio.lowlevel.checkpoint()
        if how == "crash":
            raise RuntimeError("segfault in the planner")
        if how == "system-exit":
            raise SystemExit(0)
        if how == "generator-exit":
            raise GeneratorExit
        if how == "self-cancelled":
            raise asyncio.CancelledError
        if how == "keyboard-interrupt":  # raised by agent code, not the user's Ctrl-C
            raise KeyboardInterrupt
        if how == "hang":
            await anyio.sleep(60)
        if how == "garbage":
            return 42
        if how == "malformed":
            return {"actions": "not a list"}
        if how == "acts-then-unreachable":
            raise AgentUnreachable("the agent's connection went down")
        return AgentResponse(actions=actor.calls, final_answer=answer)


def run(
    plan: dict[str, str],
    script: Any = reader,
    selection: Selection | None = None,
    parallel: int = 1,
    provider: FakeProvider | None = None,
) -> Any:
    profile = example_profile()
    provider = provider or FakeProvider(profile)
    agent = PythonAgent(Misbehaving(provider, plan, script), timeout=0.5)
    outcome = anyio.run(
        evaluate,
        profile,
        agent,
        provider,
        RunInputs(claimed_tier=1, parallel=parallel),
        selection,
        None,
        Redactor(key=b"k" * 32),
    )
    return outcome, provider


MISBEHAVIOURS = [
    "crash",
    "system-exit",
    "generator-exit",
    "self-cancelled",
    "keyboard-interrupt",
    "hang",
    "garbage",
    "malformed",
]


@pytest.mark.parametrize("how", MISBEHAVIOURS)
def test_an_agent_cannot_escape_a_fail_by_misbehaving(how: str) -> None:
    outcome, provider = run({PI: how}, vandal, Selection(patterns=[PI]))
    result = {r.scenario_id: r for r in outcome.record.scenarios}[PI]
    assert result.status is VerdictStatus.FAIL and result.agent_fault
    assert outcome.exit_code == 1 and not outcome.record.verdict.metadata.aborted
    assert any("agent fault" in w for w in result.warnings)
    assert "agent fault" in render_junit(outcome.record)
    assert "agent fault" in render_markdown(outcome.record)
    assert not provider.envs


@pytest.mark.parametrize("how", MISBEHAVIOURS)
def test_an_agent_fault_is_never_provider_failure(how: str) -> None:
    outcome, provider = run({DM: how}, reader, Selection(patterns=[DM, PI]))
    results = {r.scenario_id: r for r in outcome.record.scenarios}
    assert results[DM].state is ScenarioState.executed and results[DM].agent_fault
    assert results[DM].status is not VerdictStatus.PROVIDER_FAILURE
    assert results[PI].state is ScenarioState.executed, "the run goes on after an agent fault"
    assert outcome.record.verdict.safety is not VerdictStatus.PROVIDER_FAILURE
    assert not provider.envs


def test_an_agent_never_reached_stops_the_run_and_a_violation_it_made_still_fails() -> None:
    outcome, provider = run({PI: "acts-then-unreachable"}, vandal, Selection(patterns=[PI, DM]))
    results = {r.scenario_id: r for r in outcome.record.scenarios}
    verdict = outcome.record.verdict
    assert results[PI].status is VerdictStatus.FAIL
    assert verdict.metadata.aborted and "connection went down" in verdict.metadata.abort_reason
    assert verdict.safety is VerdictStatus.FAIL and outcome.exit_code == 1
    assert not provider.envs


def test_an_agent_never_reached_gives_no_pass() -> None:
    outcome, provider = run({DM: "unreachable"}, reader, Selection(patterns=[DM]))
    result = outcome.record.scenarios[[r.scenario_id for r in outcome.record.scenarios].index(DM)]
    verdict = outcome.record.verdict
    assert result.state is ScenarioState.not_run and result.status is None
    assert verdict.safety is VerdictStatus.PROVIDER_FAILURE and outcome.exit_code == 3
    assert verdict.metadata.aborted and "never reached" in verdict.metadata.abort_reason
    assert not provider.envs


@pytest.mark.anyio
async def test_adapters_tell_never_reached_from_crashed(tmp_path) -> None:  # type: ignore[no-untyped-def]
    task = AgentTask(scenario_id="s", prompt="p", mode="read_write")
    with pytest.raises(AgentUnreachable):
        await CliAgent([str(tmp_path / "no-such-agent")]).execute(task)
    crashed = tmp_path / "crash.sh"
    crashed.write_text("#!/bin/sh\nexit 3\n")
    crashed.chmod(0o755)
    with pytest.raises(AgentFault) as info:
        await CliAgent([str(crashed)]).execute(task)
    assert not isinstance(info.value, AgentUnreachable)
    agent = HttpAgent("http://127.0.0.1:9/agent", connect_timeout=2)  # port 9: nothing listens
    try:
        with pytest.raises(AgentUnreachable):
            await agent.execute(task)
    finally:
        await agent.aclose()


@pytest.mark.anyio
async def test_an_in_process_agent_exiting_in_identify_is_an_agent_fault() -> None:
    class Exits:
        def identify(self) -> Any:
            raise SystemExit(0)

        def execute(self, task: AgentTask) -> Any:
            raise AssertionError("never called")

    with pytest.raises(AgentFault, match="SystemExit"):
        await PythonAgent(Exits()).identify()


@pytest.mark.parametrize(
    "exc",
    [
        SystemExit(0),
        GeneratorExit(),
        asyncio.CancelledError(),
        KeyboardInterrupt(),
        RuntimeError("boom"),
    ],
    ids=lambda e: type(e).__name__,
)
def test_what_a_sync_agent_raises_in_its_thread_stays_in_the_scenario(exc: BaseException) -> None:
    profile = example_profile()
    provider = FakeProvider(profile)

    def act(task: AgentTask) -> Any:
        vandal(
            task, Actor(provider, (task.environment.agent_endpoint or "").removeprefix("fake://"))
        )
        raise exc

    agent = FunctionAgent("sync", "1.0.0", {"operational_mode": "read_write"}, act, timeout=5)
    outcome = anyio.run(
        evaluate,
        profile,
        agent,
        provider,
        RunInputs(claimed_tier=1),
        Selection(patterns=[PI]),
        None,
        Redactor(key=b"k" * 32),
    )
    (result,) = [r for r in outcome.record.scenarios if r.scenario_id == PI]
    assert result.status is VerdictStatus.FAIL and type(exc).__name__ in result.agent_fault
    assert outcome.exit_code == 1 and not provider.envs


class ChaosProvider(FakeProvider):
    """The fake provider with random delays and, for some scenarios, a fault at a random stage."""

    def __init__(self, profile: Any, rng: random.Random, faults: dict[str, str]) -> None:
        super().__init__(profile)
        self.rng, self.stage_faults = rng, faults
        self.provisioned: list[str] = []
        self.teardowns: list[str] = []

    async def _maybe(self, stage: str, scenario_id: str) -> None:
        await anyio.sleep(self.rng.random() * 0.002)
        if self.stage_faults.get(scenario_id) == stage:
            raise (ProviderFault if self.rng.random() < 0.5 else RuntimeError)(f"{stage} broke")

    async def provision(self, request: Any) -> Any:
        await self._maybe("provision", request.scenario_id)
        result = await super().provision(request)
        self.provisioned.append(result.environment_id)
        await anyio.sleep(
            self.rng.random() * 0.002
        )  # an abort may land while provision "completes"
        return result

    async def snapshot(self, environment_id: str, resources: Any = None) -> Any:
        await self._maybe("snapshot", self.envs[environment_id].request.scenario_id)
        return await super().snapshot(environment_id, resources)

    async def observe(
        self, environment_id: str, observation_type: str, parameters: dict[str, str]
    ) -> Any:
        await self._maybe("observe", self.envs[environment_id].request.scenario_id)
        return await super().observe(environment_id, observation_type, parameters)

    async def teardown(self, environment_id: str) -> None:
        self.teardowns.append(environment_id)
        scenario_id = self.envs[environment_id].request.scenario_id
        await super().teardown(environment_id)
        await self._maybe("teardown", scenario_id)


@pytest.mark.parametrize("seed", range(8))
def test_parallel_16_with_injected_faults_never_crashes_leaks_or_passes_unjudged(seed: int) -> None:
    rng = random.Random(seed)
    profile = example_profile()
    ids = sorted(s.id for s in profile.scenarios)
    agent_plan = {sid: rng.choice(["ok"] * 12 + [*MISBEHAVIOURS, "unreachable"]) for sid in ids}
    stage_plan = {
        sid: rng.choice(["provision", "snapshot", "observe", "teardown"])
        for sid in rng.sample(ids, k=rng.randint(0, 2))
    }
    provider = ChaosProvider(profile, rng, stage_plan)
    outcome, _ = run(
        agent_plan, rng.choice([reader, reader, vandal]), None, parallel=16, provider=provider
    )
    record, verdict = outcome.record, outcome.record.verdict
    assert sorted(provider.teardowns) == sorted(provider.provisioned) and not provider.envs, (
        "no leak"
    )
    assert outcome.exit_code in (0, 1, 3)
    unjudged = [r for r in record.scenarios if r.classification == "safety" and r.unjudged]
    if unjudged or verdict.metadata.aborted:
        assert verdict.safety is not VerdictStatus.PASS and outcome.exit_code != 0
        assert record.conformance_claim is None
    for r in record.scenarios:  # an agent fault alone is never PROVIDER_FAILURE
        if r.status is VerdictStatus.PROVIDER_FAILURE:
            assert r.scenario_id in stage_plan
    if verdict.safety is VerdictStatus.PASS:
        assert all(
            r.status is VerdictStatus.PASS
            for r in record.scenarios
            if r.classification == "safety" and r.state is not ScenarioState.not_applicable
        )


def test_ctrl_c_interrupts_the_run_tears_everything_down_and_never_passes() -> None:
    profile = example_profile()
    provider = FakeProvider(profile)

    class Interrupting(Misbehaving):
        async def execute(self, task: AgentTask) -> Any:
            if task.scenario_id == DM:
                signal.raise_signal(signal.SIGINT)  # what the user's Ctrl-C delivers
                await anyio.sleep(5)
            return await super().execute(task)

    agent = PythonAgent(Interrupting(provider, {}), timeout=10)
    with pytest.raises(KeyboardInterrupt):
        anyio.run(
            evaluate,
            profile,
            agent,
            provider,
            RunInputs(claimed_tier=1, parallel=4),
            None,
            None,
            Redactor(key=b"k" * 32),
        )
    assert not provider.envs
