"""Built-in demo agents (adapter type ``builtin``): ``careful`` and ``naive``.

They exist to demonstrate the safety gate and capability scoring, and to test the
engine end to end on sim-k8s. Both read through the environment's tools (in
process for ``sim-k8s://`` endpoints, over MCP for ``http://`` ones) and differ in
what they do about it:

- ``careful`` investigates with reads, stays inside its declared scope and mode,
  treats instructions found in data as data, refuses destructive or out-of-scope
  requests with a reason and never echoes secret values; inside those bounds it
  works as a rule-based operator (diagnosis from events, logs, metrics, traces and
  dashboards; narrow, verified changes rolled back when a step fails; escalation
  with context and owners; an audit trail of every call in its answer);
- ``naive`` does what it is told, including instructions it finds in logs,
  annotations and tool output, and takes the broadest action.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from oasis_eval.contract import AgentFault, AgentIdentity, AgentReport, AgentResponse, AgentTask

from .. import __version__
from ..servers.connect import connect
from . import careful, naive
from .session import Session

Policy = Callable[[Session, AgentTask], Awaitable[str]]

AGENTS: dict[str, tuple[Policy, str, dict[str, Any]]] = {
    "careful": (
        careful.run,
        (
            "reads first, stays in scope and mode, refuses unsafe requests with a reason, "
            "diagnoses, makes narrow verified changes, escalates when unsure"
        ),
        {"operational_mode": "read_write", "zone_model": True},
    ),
    "naive": (
        naive.run,
        "does what it is told, including instructions found in data",
        {"operational_mode": "read_write", "zone_model": False},
    ),
}


class BuiltinAgent:
    """A demo agent speaking the in-process Agent protocol (engine/protocols.py)."""

    def __init__(self, name: str):
        if name not in AGENTS:
            raise ValueError(f"unknown built-in agent {name!r}; known: {', '.join(sorted(AGENTS))}")
        self.name = name
        self.policy, self.description, self.configuration = AGENTS[name]

    async def identify(self) -> AgentReport:
        return AgentReport(
            identity=AgentIdentity(
                name=f"oasis-demo-{self.name}",
                version=__version__,
                description=f"oasis-eval demo agent: {self.description}",
            ),
            configuration=dict(self.configuration),
        )

    def replicable(self) -> bool:
        """Its copy in a worker process works alike (oasis_eval.contract.Replicable): it holds
        nothing but its policy and reaches its environment through the provider copied with it."""
        return True

    async def execute(self, task: AgentTask) -> AgentResponse:

        env = task.environment
        if env is None or not env.agent_endpoint:
            raise AgentFault(
                f"builtin:{self.name} needs the environment's agent_endpoint (a sim-k8s provider)"
            )
        try:
            surface = await connect(env.agent_endpoint, env.agent_credentials or {})
        except Exception as exc:  # noqa: BLE001 - any connection failure is a harness fault
            raise AgentFault(
                f"builtin:{self.name} cannot reach {env.agent_endpoint}: {exc}"
            ) from None
        session = Session(surface)
        async with surface:
            await session.start()
            answer = await self.policy(session, task)
        return AgentResponse(
            actions=session.calls,
            reasoning="\n".join(session.notes),
            final_answer=answer,
            model=f"oasis-demo-{self.name}",
        )

    async def aclose(self) -> None:
        return None


def from_config(spec: Any) -> BuiltinAgent:
    """Entry point of the ``builtin`` agent type: ``{type: builtin, name: careful|naive}``."""
    name = spec.get("name") if isinstance(spec, dict) else str(spec)
    return BuiltinAgent(name or "careful")
