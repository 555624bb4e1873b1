"""PythonAgent / FunctionAgent: in-process agents, sync or async (spec 04 §1)."""

from __future__ import annotations

import threading
from typing import Any

import anyio
import anyio.lowlevel
import pytest

from oasis_eval.adapters.agents import FunctionAgent, PythonAgent
from oasis_eval.contract import AgentFault, AgentReport, AgentResponse, AgentTask

pytestmark = pytest.mark.anyio

TASK = AgentTask(scenario_id="s-1", prompt="hello", mode="autonomous", tools=["kubectl"])


class SyncAgent:
    def __init__(self) -> None:
        self.threads: list[int] = []
        self.closed = False

    def identify(self) -> dict[str, Any]:
        return {
            "identity": {"name": "sync", "version": "1.0.0"},
            "configuration": {"autonomy": "full"},
        }

    def execute(self, task: AgentTask) -> dict[str, Any]:
        self.threads.append(threading.get_ident())
        if task.prompt == "boom":
            raise RuntimeError("kaboom")
        return {
            "actions": [{"tool": "kubectl", "arguments": {}, "result": [1]}],
            "final_answer": task.prompt,
        }

    def close(self) -> None:
        self.closed = True


class AsyncAgent:
    def __init__(self) -> None:
        self.closed = False

    async def identify(self) -> AgentReport:
        return AgentReport.model_validate({"identity": {"name": "async", "version": "2.0.0"}})

    async def execute(self, task: AgentTask) -> AgentResponse:
        await anyio.lowlevel.checkpoint()
        if task.prompt == "boom":
            raise ValueError("async kaboom")
        if task.prompt == "slow":
            await anyio.sleep(5)
        return AgentResponse(
            final_answer=task.prompt.upper(), error="soft" if task.prompt == "err" else None
        )

    async def aclose(self) -> None:
        self.closed = True


async def test_sync_object_runs_in_a_worker_thread() -> None:
    obj = SyncAgent()
    agent = PythonAgent(obj)
    report = await agent.identify()
    assert report.identity.name == "sync" and report.configuration == {"autonomy": "full"}
    response = await agent.execute(TASK)
    assert response.final_answer == "hello"
    assert response.actions[0].result == "[1]"  # the wire dict is parsed like any other agent's
    assert obj.threads and obj.threads[0] != threading.get_ident()
    await agent.aclose()
    assert obj.closed


async def test_async_object() -> None:
    obj = AsyncAgent()
    agent = PythonAgent(obj)
    assert (await agent.identify()).identity.version == "2.0.0"
    assert (await agent.execute(TASK)).final_answer == "HELLO"
    err = await agent.execute(TASK.model_copy(update={"prompt": "err"}))
    assert err.error == "soft"  # an agent-level error is an answer
    await agent.aclose()
    assert obj.closed


@pytest.mark.parametrize("obj", [SyncAgent(), AsyncAgent()], ids=["sync", "async"])
async def test_exception_is_a_fault(obj: Any) -> None:
    agent = PythonAgent(obj)
    with pytest.raises(
        AgentFault, match=r"raised in execute\(\): (RuntimeError: kaboom|ValueError: async kaboom)"
    ) as info:
        await agent.execute(TASK.model_copy(update={"prompt": "boom"}))
    assert info.value.__cause__ is not None


async def test_timeout_is_a_fault() -> None:
    agent = PythonAgent(AsyncAgent(), timeout=0.1)
    with pytest.raises(AgentFault, match=r"did not answer within 0\.1s"):
        await agent.execute(TASK.model_copy(update={"prompt": "slow"}))


async def test_sync_timeout_abandons_the_thread() -> None:
    release, finished = threading.Event(), threading.Event()

    class Stuck:
        def identify(self) -> dict[str, Any]:
            return {"identity": {"name": "s", "version": "1"}}

        def execute(self, task: AgentTask) -> dict[str, Any]:
            release.wait(10)  # blocked until the test lets it go (10 s: only a hang guard)
            finished.set()
            return {}

    agent = PythonAgent(Stuck(), timeout=0.1)
    try:
        with pytest.raises(AgentFault, match=r"within 0\.1s"):
            await agent.execute(TASK)
        # the fault came while the worker thread was still blocked: abandoned, not awaited
        assert not finished.is_set()
    finally:
        release.set()


async def test_bad_return_value_is_a_fault() -> None:
    agent = FunctionAgent("f", "1.0.0", {}, lambda task: ["not", "a", "response"])
    with pytest.raises(AgentFault, match=r"expected a JSON object"):
        await agent.execute(TASK)


async def test_function_agent_sync_and_async() -> None:
    sync_agent = FunctionAgent(
        "echo",
        "1.0.0",
        {"k": True},
        lambda t: {"final_answer": t.prompt},
        tools=["kubectl"],
        mode="supervised",
    )
    report = await sync_agent.identify()
    assert report.identity.name == "echo" and report.configuration == {"k": True}
    assert report.declared_tools == ["kubectl"] and report.declared_mode == "supervised"
    assert (await sync_agent.execute(TASK)).final_answer == "hello"

    async def fn(task: AgentTask) -> AgentResponse:
        return AgentResponse(final_answer="async " + task.prompt)

    async_agent = FunctionAgent("aecho", "1.0.0", None, fn)
    assert (await async_agent.execute(TASK)).final_answer == "async hello"
    await async_agent.aclose()


async def test_concurrent_sync_calls_overlap() -> None:
    class Waiter:
        def identify(self) -> dict[str, Any]:
            return {"identity": {"name": "s", "version": "1"}}

        def execute(self, task: AgentTask) -> dict[str, Any]:
            barrier.wait()  # returns only once all five calls are inside execute at once
            return {"final_answer": task.prompt}

    # in series, the first call would wait alone and break the barrier (10 s: a hang guard)
    barrier = threading.Barrier(5, timeout=10)
    agent = PythonAgent(Waiter())
    answers: list[str | None] = []

    async def one() -> None:
        answers.append((await agent.execute(TASK)).final_answer)

    async with anyio.create_task_group() as tg:
        for _ in range(5):
            tg.start_soon(one)
    assert answers == ["hello"] * 5


def test_object_without_execute_is_rejected() -> None:
    with pytest.raises(TypeError):
        PythonAgent(object())
