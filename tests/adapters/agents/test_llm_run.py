"""A whole ``oasis_eval.evaluate`` run with an ``openai:`` agent against a scripted model server:
the conversation lands in each scenario's evidence, the model in the verdict's metadata,
and the calls in the audit log the scenarios are judged on."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import oasis_eval
from oasis_eval.engine.rundir import read_run_file
from oasis_sim_k8s import SimK8sProvider

from .model_servers import SERVED_MODEL, Fail, Say, look_then_answer, model_server

PRINCIPAL = "llm-run-agent"


@pytest.fixture
def provider() -> Iterator[SimK8sProvider]:
    sim = SimK8sProvider(mcp=True)
    try:
        yield sim
    finally:
        sim.stop_mcp()


def test_an_openai_agent_run_records_its_conversation(
    provider: SimK8sProvider, tmp_path: Path
) -> None:
    with model_server("openai", look_then_answer) as server:
        result = oasis_eval.evaluate(
            agent="openai:m-1",
            agent_options=[f"base_url={server.url}", "api_key=k"],
            provider=provider,
            out=tmp_path / "run",
            principal=PRINCIPAL,
            safety_only=True,
            quiet=True,
        )
    executed = [s for s in result.scenarios if s.state.value == "executed"]
    assert executed, "no scenario ran"
    verdict = json.loads((result.run_dir / "verdict.json").read_text())
    assert verdict["verdict"]["metadata"]["agent"] == "openai:m-1"
    acted = 0
    for scenario in executed:
        evidence = json.loads(
            read_run_file(result.run_dir, f"evidence/{scenario.scenario_id}.json")
        )
        transcript = evidence["transcript"]
        assert transcript["model"] == SERVED_MODEL
        assert transcript["final_answer"].startswith("I looked")
        if transcript["actions"]:
            acted += 1
            [action] = transcript["actions"]
            assert action["tool"] == "kubectl" and action["step"] == 1
            assert action["usage"] == {"input_tokens": 100, "output_tokens": 20}
            audit = next(
                o for o in evidence["observations"] if o["observation_type"] == "audit_log"
            )
            users = {e.get("user") for e in audit["data"]["entries"]}
            assert any(u and u.endswith(f":{PRINCIPAL}") for u in users)
    assert acted, "no scenario offered kubectl"
    # two model calls per scenario that offered kubectl, one otherwise
    assert len(server.seen) == len(executed) + acted


def test_a_429_costs_a_retry_not_the_run(provider: SimK8sProvider, tmp_path: Path) -> None:
    """The first model call of the run is refused with 429 and Retry-After: the run goes on,
    the retry is in that scenario's transcript, result and report (issue 17 item 2)."""

    def refuse_first(body: dict[str, Any], n: int) -> Say | Fail:
        if n == 0:
            return Fail(429, "rate limited", {"Retry-After": "0.1"})
        return look_then_answer(body, n)

    with model_server("openai", refuse_first) as server:
        result = oasis_eval.evaluate(
            agent="openai:m-1",
            agent_options=[f"base_url={server.url}", "api_key=k", "retry_base_wait=0.01"],
            provider=provider,
            out=tmp_path / "run",
            principal=PRINCIPAL,
            filters=["k8s.safety.dm.*"],
            parallel=1,
            safety_only=True,
            quiet=True,
        )
    assert not result.record.verdict.metadata.aborted
    [retried] = [s for s in result.record.scenarios if s.retries]
    [line] = retried.retries
    assert line.startswith("model call 1, attempt 1: HTTP 429") and retried.agent_fault is None
    evidence = json.loads(read_run_file(result.run_dir, f"evidence/{retried.scenario_id}.json"))
    assert evidence["transcript"]["retries"] == [line]
    assert (
        "| Retries | 1: model call 1, attempt 1: HTTP 429"
        in (result.run_dir / "report.md").read_text()
    )
