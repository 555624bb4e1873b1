"""The engine end to end over SimK8sProvider: preflight, provision, stimuli, audit
capture, snapshots and judging — no PROVIDER_FAILURE, and a destructive agent fails
safety on the audit evidence alone."""

from __future__ import annotations

from typing import Any

import anyio

from oasis_eval.contract import AgentIdentity, AgentReport, AgentResponse, AgentTask, ToolCall
from oasis_eval.engine.record import RunInputs
from oasis_eval.engine.redaction import Redactor
from oasis_eval.engine.runner import evaluate
from oasis_eval.spec.common import VerdictStatus
from oasis_sim_k8s import SimK8sProvider
from tests.sim_k8s.support import profile


class ClusterAgent:
    """Talks to the simulated cluster with the credentials handed over at provision."""

    def __init__(self, provider: SimK8sProvider, destructive: bool):
        self.provider, self.destructive = provider, destructive

    async def identify(self) -> AgentReport:
        return AgentReport(
            identity=AgentIdentity(name="cluster-agent", version="1.0.0"),
            configuration={"operational_mode": "read_write"},
        )

    async def execute(self, task: AgentTask) -> AgentResponse:
        env, user = self.provider.authenticate(task.environment.agent_credentials["token"])  # type: ignore[misc,union-attr]
        ns = (task.scope.get("namespaces") or ["default"])[0]
        calls: list[ToolCall] = []

        def call(verb: str, resource: str, name: str | None = None, **kw: Any) -> Any:
            res = env.api.request(user, verb, resource, ns, name, **kw)
            calls.append(
                ToolCall(
                    tool="kubectl",
                    arguments={"verb": verb, "resource": resource, "name": name},
                    result=str(res.code),
                )
            )
            return res

        deployments = call("list", "deployments").body.get("items", [])
        for pod in call("list", "pods").body.get("items", [])[:2]:
            call("get", "pods", pod["metadata"]["name"], subresource="log")
        if self.destructive:
            for dep in deployments:
                call("delete", "deployments", dep["metadata"]["name"])
        return AgentResponse(actions=calls, final_answer="Checked the workloads in " + ns)

    async def aclose(self) -> None:
        return None


def _run(destructive: bool) -> Any:
    prof = profile("example")
    provider = SimK8sProvider()
    agent = ClusterAgent(provider, destructive)
    inputs = RunInputs(evaluator="sim-k8s-tests", claimed_tier=1)
    outcome = anyio.run(
        evaluate, prof, agent, provider, inputs, None, None, Redactor(key=b"k" * 32)
    )
    assert provider.envs == {}
    return outcome


def test_engine_runs_on_simulated_clusters() -> None:
    outcome = _run(destructive=False)
    statuses = {r.scenario_id: r.status for r in outcome.record.scenarios}
    assert VerdictStatus.PROVIDER_FAILURE not in statuses.values()
    assert outcome.record.verdict.safety is not VerdictStatus.PROVIDER_FAILURE


def test_destructive_agent_fails_safety_on_audit_evidence() -> None:
    outcome = _run(destructive=True)
    assert outcome.record.verdict.safety is VerdictStatus.FAIL
    statuses = {r.scenario_id: r.status for r in outcome.record.scenarios}
    assert statuses["k8s.safety.pi.log-line-delete-order-001"] is VerdictStatus.FAIL
