"""Transient model faults retried in place (issue 17 item 2): ``openai:`` and ``anthropic:``
agents against scripted model servers that answer 429 / 5xx / slowly before they answer.

The waits are real but tiny (``retry_base_wait``), and a ``Retry-After`` the server sends is
honoured: the test measures that the adapter waited at least that long.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from oasis_eval.contract import AgentFault, AgentTask, AgentUnreachable
from oasis_sim_k8s import SimK8sProvider

from . import test_llm
from .model_servers import Fail, Say, model_server
from .test_llm import APIS, agent_entries, investigate_then_answer, run_agent

#: the simulated cluster over MCP and a task reaching it, as the adapter tests use them
provider, task = test_llm.provider, test_llm.task

pytestmark = pytest.mark.anyio
FAST = {"retry_base_wait": 0.01, "retry_max_wait": 2}


def first_fails(*failures: Fail | Say) -> Any:
    """A script whose first requests answer ``failures`` in turn, then investigate-and-answer
    (counting only the requests after the failures)."""

    def script(body: dict[str, Any], n: int) -> Say | Fail:
        if n < len(failures):
            return failures[n]
        return investigate_then_answer(body, n - len(failures))

    return script


@pytest.mark.parametrize("api", APIS)
@pytest.mark.parametrize(
    "header", [{"Retry-After": "0.3"}, {"retry-after-ms": "300"}], ids=["seconds", "ms"]
)
async def test_a_429_with_retry_after_costs_a_retry_not_the_run(
    api: str, header: dict[str, str], provider: SimK8sProvider, task: AgentTask
) -> None:
    with model_server(api, first_fails(Fail(429, "slow down", header))) as server:
        started = time.monotonic()
        response = await run_agent(api, server, task, **FAST)
        waited = time.monotonic() - started
    assert waited >= 0.3  # the server's Retry-After, not the 10 ms base wait
    assert len(server.seen) == 3  # 429, then the two calls of the conversation
    assert response.error is None and len(response.actions) == 1
    [retry] = response.retries
    assert retry.startswith("model call 1, attempt 1: HTTP 429") and "slow down" in retry
    assert len(await agent_entries(provider, task)) == 1


@pytest.mark.parametrize("api", APIS)
async def test_5xx_are_retried_with_backoff_and_each_retry_counted(
    api: str, task: AgentTask
) -> None:
    turns = [investigate_then_answer({}, 0), Fail(503, "overloaded"), Fail(500, "oops")]
    turns.append(investigate_then_answer({}, 1))
    with model_server(api, lambda body, n: turns[n]) as server:
        response = await run_agent(api, server, task, max_retries=2, **FAST)
    assert len(server.seen) == 4
    assert response.error is None
    first, second = response.retries
    assert first.startswith("model call 2, attempt 1: HTTP 503") and "overloaded" in first
    assert second.startswith("model call 2, attempt 2: HTTP 500") and "oops" in second


@pytest.mark.parametrize("api", APIS)
async def test_a_timeout_is_retried(api: str, task: AgentTask) -> None:
    script = first_fails(Say("too slow", delay=1.0))
    with model_server(api, script) as server:
        response = await run_agent(api, server, task, timeout=0.3, **FAST)
    assert response.error is None and len(response.actions) == 1
    [retry] = response.retries
    assert retry.startswith("model call 1, attempt 1: APITimeoutError")


@pytest.mark.parametrize("api", APIS)
async def test_a_400_is_not_retried(api: str, task: AgentTask) -> None:
    with (
        model_server(api, first_fails(Fail(400, "bad request"))) as server,
        pytest.raises(AgentFault, match="HTTP 400") as info,
    ):
        await run_agent(api, server, task, max_retries=3, **FAST)
    assert len(server.seen) == 1
    assert not isinstance(info.value, AgentUnreachable)  # a fault of the scenario (issue 26)


@pytest.mark.parametrize("api", APIS)
async def test_retries_spent_end_the_call_as_before(api: str, task: AgentTask) -> None:
    always = Fail(503, "down", {"retry-after-ms": "5"})
    with (
        model_server(api, lambda body, n: always) as server,
        pytest.raises(AgentFault, match="HTTP 503"),
    ):
        await run_agent(api, server, task, max_retries=2, **FAST)
    assert len(server.seen) == 3  # one attempt and two retries


@pytest.mark.parametrize("api", APIS)
async def test_a_long_retry_after_is_capped(api: str, task: AgentTask) -> None:
    script = first_fails(Fail(429, "later", {"Retry-After": "3600"}))
    with model_server(api, script) as server:
        started = time.monotonic()
        response = await run_agent(api, server, task, retry_base_wait=0.01, retry_max_wait=0.2)
    assert time.monotonic() - started < 5
    assert len(response.retries) == 1
