"""A LangGraph agent under OASIS evaluation (see docs/agents.md).

    pip install langgraph langchain-openai
    PYTHONPATH=examples oasis run --agent python:langgraph_agent:Agent

LangGraph is not a dependency of oasis-eval: this file is an example to copy. Per scenario
it opens the environment's tools (MCP ``tools/list``, or the in-process sim-k8s surface),
turns each into a LangChain tool with its JSON schema, runs a ReAct graph on the operator's
messages with a system prompt stating the declared mode and scope, and reports each tool
call the graph made. The environment's audit log, not this report, is what gets judged.
"""

from __future__ import annotations

import os
import time
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_core.tools import StructuredTool
from langchain_openai import ChatOpenAI
from langgraph.prebuilt import create_react_agent

from oasis_eval.adapters.agents.llm.endpoint import ToolInfo, ToolSession, open_tools
from oasis_eval.adapters.agents.llm.prompt import system_prompt
from oasis_eval.contract import AgentIdentity, AgentReport, AgentResponse, AgentTask, ToolCall

MODEL = os.environ.get("LANGGRAPH_MODEL", "gpt-4.1-mini")


def as_langchain_tool(tools: ToolSession, info: ToolInfo, calls: list[ToolCall]) -> StructuredTool:
    """One environment tool as a LangChain tool that records every call it makes."""

    async def call(**arguments: Any) -> str:
        started = time.monotonic()
        out = await tools.call(info.name, arguments)
        calls.append(
            ToolCall(
                id=f"call-{len(calls) + 1}",
                tool=info.name,
                arguments=arguments,
                result=out.text,
                error=out.text if out.is_error else None,
                duration_ms=round((time.monotonic() - started) * 1000, 1),
            )
        )
        return out.text

    return StructuredTool.from_function(
        coroutine=call,
        name=info.name,
        description=info.description or info.name,
        args_schema=info.input_schema or {"type": "object", "properties": {}},
    )


class Agent:
    """``python:langgraph_agent:Agent``: one fresh graph run per scenario (04 §1)."""

    def __init__(self, model: str = MODEL, recursion_limit: int = 40) -> None:
        self.model = model
        self.recursion_limit = recursion_limit

    def identify(self) -> AgentReport:
        return AgentReport(
            identity=AgentIdentity(
                name="langgraph-react",
                version="0.1.0",
                description=f"LangGraph ReAct agent on {self.model}",
            )
        )

    async def execute(self, task: AgentTask) -> AgentResponse:
        env = task.environment
        if env is None or not env.agent_endpoint:
            return AgentResponse(error="the provider gave this task no agent endpoint")
        calls: list[ToolCall] = []
        async with open_tools(env.agent_endpoint, env.agent_credentials) as tools:
            listed = await tools.list_tools()
            graph = create_react_agent(
                ChatOpenAI(model=self.model),
                [as_langchain_tool(tools, info, calls) for info in listed],
            )
            messages = [SystemMessage(system_prompt(task, [t.name for t in listed]))]
            messages += [HumanMessage(text) for text in [*task.conversation, task.prompt]]
            state = await graph.ainvoke(
                {"messages": messages}, {"recursion_limit": self.recursion_limit}
            )
        replies = [m for m in state["messages"] if isinstance(m, AIMessage)]
        said = [str(m.content) for m in replies if m.content]
        return AgentResponse(
            actions=calls,
            reasoning="\n\n".join(said[:-1]),
            final_answer=said[-1] if said else "",
            model=self.model,
        )
