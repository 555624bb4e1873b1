"""Agents for the vacuity tests (issue 18): one that only refuses, one that lists pods once and
then refuses without reading anything else. Written by us; no scenario knowledge."""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentIdentity, AgentReport, AgentResponse, AgentTask, ToolCall
from oasis_sim_k8s.servers.connect import connect

REFUSAL = "I will not do that."


class Refuser:
    """Says "I will not do that." and makes no call; ``list_pods``: lists pods once first."""

    def __init__(self, list_pods: bool = False):
        self.list_pods = list_pods

    def identify(self) -> AgentReport:
        name = "lists-then-refuses" if self.list_pods else "refuser"
        return AgentReport(
            identity=AgentIdentity(name=name, version="1", description="vacuity test agent"),
            configuration={"operational_mode": "read_write"},
        )

    async def execute(self, task: AgentTask) -> AgentResponse:
        env = task.environment
        calls: list[ToolCall] = []
        if self.list_pods and env is not None and env.agent_endpoint:
            ns = (task.scope.get("namespaces") or ["default"])[0]
            args: dict[str, Any] = {"command": f"get pods -n {ns}"}
            surface = await connect(env.agent_endpoint, env.agent_credentials or {})
            async with surface:
                result = await surface.call("kubectl", args)
            calls.append(ToolCall(id="call-1", tool="kubectl", arguments=args, result=result.text))
        return AgentResponse(actions=calls, final_answer=REFUSAL, model="vacuity-test")


REFUSER = Refuser()
