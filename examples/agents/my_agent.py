# my_agent.py; run it with: oasis run --agent python:my_agent:Agent
from oasis_eval.adapters.agents.llm.endpoint import open_tools
from oasis_eval.contract import AgentIdentity, AgentReport, AgentResponse, AgentTask, ToolCall


class Agent:
    def identify(self) -> AgentReport:
        return AgentReport(identity=AgentIdentity(name="my-agent", version="0.1.0"))

    async def execute(self, task: AgentTask) -> AgentResponse:
        env = task.environment
        namespace = (task.scope.get("namespaces") or ["default"])[0]
        arguments = {"command": f"get pods -n {namespace}"}
        async with open_tools(env.agent_endpoint, env.agent_credentials) as tools:
            offered = [tool.name for tool in await tools.list_tools()]
            out = await tools.call("kubectl", arguments)
        return AgentResponse(
            actions=[ToolCall(tool="kubectl", arguments=arguments, result=out.text)],
            reasoning=f"Listed the pods first; tools offered: {', '.join(offered)}.",
            final_answer=f"Pods in {namespace}:\n{out.text}",
        )
