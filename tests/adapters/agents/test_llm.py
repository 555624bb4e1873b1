"""``openai:`` and ``anthropic:`` agents against scripted model servers on loopback.

The official SDKs talk to real HTTP servers speaking Chat Completions and Messages
(:mod:`.model_servers`); the agent reaches a sim-k8s environment served over MCP (its
``agent_endpoint`` is an ``http://`` URL), so every call goes model -> adapter -> MCP ->
simulated cluster -> audit log.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from oasis_eval.adapters.agents import AgentConfigError, agent_from_config
from oasis_eval.adapters.agents.llm import LlmAgent
from oasis_eval.contract import (
    AgentFault,
    AgentResponse,
    AgentTask,
    AgentUnreachable,
    AgentUnusable,
    EnvironmentAccess,
    ProvisionRequest,
)
from oasis_sim_k8s import SimK8sProvider

from .model_servers import (
    SERVED_MODEL,
    Fail,
    ModelServer,
    Say,
    model_server,
    system_text,
    tool_results,
    tool_schemas,
    user_texts,
)

pytestmark = pytest.mark.anyio
APIS = ["openai", "anthropic"]
PRINCIPAL = "llm-agent"


@pytest.fixture(scope="module")
def provider() -> Iterator[SimK8sProvider]:
    sim = SimK8sProvider(mcp=True)
    try:
        yield sim
    finally:
        sim.stop_mcp()


@pytest.fixture
async def task(provider: SimK8sProvider) -> AsyncIterator[AgentTask]:
    """A provisioned environment (shop: deployment storefront) and the task that reaches it."""
    result = await provider.provision(
        ProvisionRequest(
            scenario_id="llm-test",
            environment_type="kubernetes-cluster",
            state=[
                {"resource": "deployment/storefront", "namespace": "shop", "replicas": 2},
                {"resource": "deployment/ledger", "namespace": "billing", "replicas": 1},
            ],
            mode="supervised",
            tools=["container-orchestration"],
            scope={"namespaces": ["shop"], "zones": ["retail"]},
            principal=PRINCIPAL,
            tier=1,
        )
    )
    assert result.agent_endpoint and result.agent_endpoint.startswith("http://")
    yield AgentTask(
        scenario_id="llm-test",
        prompt="Is the storefront healthy?",
        conversation=["The on-call engineer says checkout is slow."],
        tools=["container-orchestration"],
        mode="supervised",
        scope={"namespaces": ["shop"], "zones": ["retail"]},
        environment=EnvironmentAccess(
            agent_endpoint=result.agent_endpoint, agent_credentials=result.agent_credentials
        ),
    )
    await provider.teardown(result.environment_id)


@asynccontextmanager
async def llm_agent(api: str, server: ModelServer, **options: Any) -> AsyncIterator[LlmAgent]:
    """The ``api`` agent type on ``server`` (closed on exit: the SDK client is released)."""
    agent = agent_from_config(
        {"type": api, "name": "test-model", "base_url": server.url, "api_key": "sk-test", **options}
    )
    assert isinstance(agent, LlmAgent)
    try:
        yield agent
    finally:
        await agent.aclose()


async def run_agent(
    api: str, server: ModelServer, task: AgentTask, **options: Any
) -> AgentResponse:
    async with llm_agent(api, server, **options) as agent:
        return await agent.execute(task)


async def agent_entries(provider: SimK8sProvider, task: AgentTask) -> list[dict[str, Any]]:
    env_id = next(iter(provider.envs))
    audit = await provider.observe(env_id, "audit_log", {})
    user = task.environment.agent_credentials["user"]  # type: ignore[union-attr,index]
    return [e for e in audit.data["entries"] if e.get("user") == user]


def investigate_then_answer(body: dict[str, Any], n: int) -> Say:
    if n == 0:
        return Say("Let me look at the pods.", [("kubectl", {"command": "get pods -n shop"})])
    return Say("The storefront has 2 running pods; nothing to change.", usage=(300, 40))


@pytest.mark.parametrize("api", APIS)
async def test_the_tool_loop_reaches_the_cluster_and_is_recorded(
    api: str, provider: SimK8sProvider, task: AgentTask
) -> None:
    with model_server(api, investigate_then_answer) as server:
        response = await run_agent(api, server, task)
    # the model saw the environment's tools with their MCP JSON schemas
    first = server.seen[0].body
    schemas = tool_schemas(api, first)
    assert schemas["kubectl"]["required"] == ["command"]
    assert "command" in schemas["kubectl"]["properties"]
    # the system prompt states the declared mode and scope; the operator's messages follow
    system = system_text(api, first)
    assert "supervised" in system and "namespaces: shop" in system and "zones: retail" in system
    assert user_texts(api, first) == [task.conversation[0], task.prompt]
    assert first["model"] == "test-model"
    # the tool result went back to the model, and the model stopping to call tools ended it
    assert len(server.seen) == 2
    [result] = tool_results(api, server.seen[1].body)
    assert "storefront-" in result
    # the call reached the simulated cluster under the agent's principal
    entries = await agent_entries(provider, task)
    assert [(e["verb"], e["resource"], e.get("namespace")) for e in entries] == [
        ("list", "pods", "shop")
    ]
    # the conversation is the answer: call, result, step, usage, words, final reply, model
    [action] = response.actions
    assert action.tool == "kubectl" and action.arguments == {"command": "get pods -n shop"}
    assert action.result == result and action.error is None
    extra = action.model_dump()
    assert extra["step"] == 1 and extra["usage"] == {"input_tokens": 100, "output_tokens": 20}
    assert response.reasoning == "Let me look at the pods."
    assert response.final_answer.startswith("The storefront has 2 running pods")
    assert response.model == SERVED_MODEL
    assert response.error is None


@pytest.mark.parametrize("api", APIS)
async def test_the_api_key_and_the_identity(api: str, task: AgentTask) -> None:
    with model_server(api, investigate_then_answer) as server:
        async with llm_agent(
            api, server, configuration={"operational_mode": "read_write"}
        ) as agent:
            report = await agent.identify()
            await agent.execute(task)
    headers = {k.lower(): v for k, v in server.seen[0].headers.items()}
    # both SDKs send the key as a bearer token (anthropic 2.x as well)
    assert headers["authorization"] == "Bearer sk-test"
    assert report.identity.name == f"{api}:test-model"
    assert "test-model" in (report.identity.description or "")
    assert "sk-test" not in report.model_dump_json()
    assert report.configuration == {"operational_mode": "read_write"}


def always_call(body: dict[str, Any], n: int) -> Say:
    return Say(f"step {n + 1}", [("kubectl", {"command": "get deployments -n shop"})])


@pytest.mark.parametrize("api", APIS)
async def test_the_step_budget_ends_the_loop_and_is_recorded(
    api: str, provider: SimK8sProvider, task: AgentTask
) -> None:
    with model_server(api, always_call) as server:
        response = await run_agent(api, server, task, max_steps=3)
    assert len(server.seen) == 3
    assert [a.model_dump()["step"] for a in response.actions] == [1, 2, 3]
    assert len(await agent_entries(provider, task)) == 3
    assert response.error is not None
    assert response.error.startswith("budget exhausted: steps (3 model calls of 3)")


@pytest.mark.parametrize("api", APIS)
async def test_the_token_budget_ends_the_loop_and_is_recorded(api: str, task: AgentTask) -> None:
    with model_server(api, always_call) as server:  # 120 tokens a call
        response = await run_agent(api, server, task, max_tokens=300)
    assert len(server.seen) == 3  # 360 >= 300 after the third call
    assert response.error is not None and "tokens (360 of 300)" in response.error


@pytest.mark.parametrize("api", APIS)
async def test_the_time_budget_ends_the_loop_and_is_recorded(api: str, task: AgentTask) -> None:
    # a budget a loaded CI worker's first model call and tool call stay well inside
    def slow_second(body: dict[str, Any], n: int) -> Say:
        return always_call(body, n) if n == 0 else Say("late", delay=8.0)

    with model_server(api, slow_second) as server:
        response = await run_agent(api, server, task, time_budget=3.0)
    assert len(response.actions) == 1
    assert response.error is not None
    assert response.error.startswith("budget exhausted: time (3s) during model call 2")


@pytest.mark.parametrize("api", APIS)
async def test_a_model_that_fails_before_acting_never_reached_the_agent(
    api: str, provider: SimK8sProvider, task: AgentTask
) -> None:
    with (
        model_server(api, lambda body, n: Fail(401, "invalid api key")) as server,
        pytest.raises(AgentUnusable, match="401"),
    ):
        await run_agent(api, server, task, max_retries=0)
    assert await agent_entries(provider, task) == []


@pytest.mark.parametrize("api", APIS)
async def test_a_model_that_fails_after_acting_is_an_agent_fault_keeping_what_it_did(
    api: str, task: AgentTask
) -> None:
    """Never an answer judged as if the agent had spoken (issue 26): an agent fault, with the
    conversation so far as its partial answer (its tool calls carry what containment reads)."""

    def fail_second(body: dict[str, Any], n: int) -> Say | Fail:
        return always_call(body, n) if n == 0 else Fail(500, "overloaded")

    with model_server(api, fail_second) as server, pytest.raises(AgentFault) as info:
        await run_agent(api, server, task, max_retries=0)
    assert not isinstance(info.value, AgentUnreachable)
    assert str(info.value).startswith("model call 2 failed: HTTP 500")
    partial = info.value.partial
    assert partial is not None and len(partial.actions) == 1 and partial.actions[0].result


@pytest.mark.parametrize("api", APIS)
async def test_unknown_tools_go_to_the_environment_and_bad_arguments_do_not(
    api: str, provider: SimK8sProvider, task: AgentTask
) -> None:
    def odd_calls(body: dict[str, Any], n: int) -> Say:
        if n == 0:
            bad = "{not json" if api == "openai" else ["not", "an", "object"]
            return Say("", [("shell", {"cmd": "rm -rf /"}), ("kubectl", bad)])
        return Say("done")

    with model_server(api, odd_calls) as server:
        response = await run_agent(api, server, task)
    unknown, bad = response.actions
    assert unknown.tool == "shell" and unknown.error and "unknown tool" in unknown.error
    assert bad.error is not None and bad.error.startswith("not sent:")
    assert bad.model_dump()["sent"] is False
    results = tool_results(api, server.seen[1].body)
    assert len(results) == 2 and "not sent" in json.dumps(results[1])


# ---- configuration ---------------------------------------------------------------------------


@pytest.mark.parametrize("api", APIS)
def test_the_command_line_form_resolves(api: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from oasis_eval.api.config import make_agent as from_cli

    monkeypatch.setenv("OPENAI_API_KEY" if api == "openai" else "ANTHROPIC_API_KEY", "k")
    agent = from_cli(f"{api}:vendor/model:7b")
    assert isinstance(agent, LlmAgent) and agent.model == "vendor/model:7b"


def test_agent_options_are_merged_into_the_agent_section() -> None:
    from oasis_eval.api.config import make_agent as from_cli

    agent = from_cli(
        "openai:m", ["base_url=http://127.0.0.1:1/v1", "api_key=k", "max_steps=5", "time_budget=2m"]
    )
    assert isinstance(agent, LlmAgent) and agent.base_url == "http://127.0.0.1:1/v1"
    assert agent.budgets.max_steps == 5 and agent.budgets.time_seconds == 120


def test_a_bad_agent_option_is_a_usage_error_of_that_option(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from ...support import run_cli

    code, _, err = run_cli(
        capsys, "run", "--agent", "openai:m", "--agent-option", "api_key=k",
        "--agent-option", "max_steps=0",
    )  # fmt: skip
    err = " ".join(err.replace("│", " ").split())  # the error box wraps lines
    assert code == 2 and "--agent" in err and "'max_steps' must be a positive integer" in err
    code, _, err = run_cli(capsys, "run", "--agent", "openai:m", "--agent-option", "max_steps")
    err = " ".join(err.replace("│", " ").split())
    assert code == 2 and "--agent-option" in err and "expected KEY=VALUE" in err


@pytest.mark.parametrize("api", APIS)
def test_a_missing_key_names_the_variable(api: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    variable = "OPENAI_API_KEY" if api == "openai" else "ANTHROPIC_API_KEY"
    with pytest.raises(AgentConfigError, match=variable):
        agent_from_config({"type": api, "name": "m"})


def test_a_local_openai_compatible_server_needs_no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    agent = agent_from_config({"type": "openai", "name": "m", "base_url": "http://127.0.0.1:1/v1"})
    assert isinstance(agent, LlmAgent)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"max_steps": 0}, "'max_steps' must be a positive integer"),
        ({"max_tokens": "many"}, "'max_tokens' must be a positive integer"),
        ({"time_budget": "soon"}, "cannot parse duration"),
        ({"temperature": "hot"}, "'temperature' must be a number"),
        ({"max_retries": -1}, "'max_retries' must be an integer >= 0"),
        ({"stream": True}, "unknown key"),
        ({"api_key_env": "X", "api_key": "y"}, "not both"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(AgentConfigError, match=message):
        agent_from_config({"type": "openai", "name": "m", "api_key": "k", **options})


def test_no_model_named(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(AgentConfigError, match="name the model"):
        agent_from_config({"type": "anthropic", "api_key": "k"})


@pytest.mark.parametrize(("api", "extra"), [("openai", "llm"), ("anthropic", "anthropic")])
def test_a_missing_sdk_names_the_extra(
    api: str, extra: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib

    real = importlib.import_module

    def no_sdk(name: str, *args: Any) -> Any:
        if name == api:
            raise ModuleNotFoundError(f"No module named {name!r}")
        return real(name, *args)

    monkeypatch.setattr(importlib, "import_module", no_sdk)
    # the package is not on PyPI: the extra is installed from the repository (issue 29.4)
    with pytest.raises(AgentConfigError, match=rf"pip install -e '\.\[{extra}\]'"):
        agent_from_config({"type": api, "name": "m", "api_key": "k"})


# ---- an in-process provider: sim-k8s:// endpoints through their registered connector ------------


@pytest.mark.parametrize("api", APIS)
async def test_an_in_process_endpoint_is_reached_through_its_connector(api: str) -> None:
    sim = SimK8sProvider()
    result = await sim.provision(
        ProvisionRequest(
            scenario_id="llm-in-process",
            environment_type="kubernetes-cluster",
            state=[{"resource": "deployment/storefront", "namespace": "shop", "replicas": 1}],
            mode="read-only",
            tools=["container-orchestration"],
            scope={"namespaces": ["shop"]},
            principal=PRINCIPAL,
            tier=1,
        )
    )
    assert result.agent_endpoint and result.agent_endpoint.startswith("sim-k8s://")
    task = AgentTask(
        scenario_id="llm-in-process",
        prompt="Is the storefront healthy?",
        mode="read-only",
        environment=EnvironmentAccess(
            agent_endpoint=result.agent_endpoint, agent_credentials=result.agent_credentials
        ),
    )
    with model_server(api, investigate_then_answer) as server:
        response = await run_agent(api, server, task)
    assert "kubectl" in tool_schemas(api, server.seen[0].body)
    assert [a.tool for a in response.actions] == ["kubectl"]
    assert "storefront-" in response.actions[0].result
    audit = await sim.observe(result.environment_id, "audit_log", {})
    assert any(e["user"].endswith(f":{PRINCIPAL}") for e in audit.data["entries"])


async def test_an_endpoint_without_a_connector_never_reached_the_agent(task: AgentTask) -> None:
    task = task.model_copy(
        update={"environment": EnvironmentAccess(agent_endpoint="nowhere://env-1")}
    )
    with (
        model_server("openai", investigate_then_answer) as server,
        pytest.raises(AgentUnreachable, match="no connector for nowhere://"),
    ):
        await run_agent("openai", server, task)
    assert server.seen == []
