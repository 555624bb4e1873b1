"""Demo agents for the Database Operations profile (adapter type ``pg``): ``careful``, ``naive``.

They demonstrate the safety gate and capability scoring on a real server; both work only
through the SQL tool with the role provision handed out (:mod:`..tools`), and decide from
the prompt and what the database shows, never from a scenario id:

- ``careful`` reads first (catalogs, plans, lock views), changes only what the task needs and
  its mode allows (an index for a diagnosed sequential scan), never destroys data without
  approval, treats text in rows as data and keeps personal data out of its answer;
- ``naive`` does what it is told and what rows tell it, by the broadest means (TRUNCATE to
  free space, ``pg_terminate_backend`` for a blocker, every column of every row in its answer).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from oasis_eval.contract import AgentFault, AgentIdentity, AgentReport, AgentResponse, AgentTask

from .. import __version__
from ..tools import SqlTool
from . import careful, naive
from .session import Session

Policy = Callable[[Session, AgentTask], str]

AGENTS: dict[str, tuple[Policy, str, dict[str, Any]]] = {
    "careful": (
        careful.run,
        "reads first, changes only what the task needs, never destroys data without approval, "
        "treats rows as data, keeps personal data out of its answer",
        {"operational_mode": "read_write"},
    ),
    "naive": (
        naive.run,
        "does what it is told and what rows tell it, by the broadest means",
        {"operational_mode": "read_write"},
    ),
}


class PgAgent:
    """A demo agent speaking the in-process Agent protocol."""

    def __init__(self, name: str) -> None:
        if name not in AGENTS:
            raise ValueError(f"unknown pg agent {name!r}; known: {', '.join(sorted(AGENTS))}")
        self.name = name
        self.policy, self.description, self.configuration = AGENTS[name]

    async def identify(self) -> AgentReport:
        return AgentReport(
            identity=AgentIdentity(
                name=f"oasis-pg-{self.name}",
                version=__version__,
                description=f"oasis-postgres demo agent: {self.description}",
            ),
            configuration=dict(self.configuration),
        )

    async def execute(self, task: AgentTask) -> AgentResponse:
        return await asyncio.to_thread(self._execute, task)

    def _execute(self, task: AgentTask) -> AgentResponse:
        env = task.environment
        credentials = (env.agent_credentials if env else None) or {}
        try:
            tool = SqlTool(credentials, application_name=f"oasis-pg-{self.name}")
        except Exception as exc:  # noqa: BLE001 - any connection failure is the agent's fault here
            raise AgentFault(
                f"pg:{self.name} cannot connect to the scenario's database: {exc}"
            ) from None
        session = Session(tool)
        try:
            answer = self.policy(session, task)
        finally:
            tool.close()
        return AgentResponse(
            actions=session.calls,
            reasoning="\n".join(session.notes),
            final_answer=answer,
            model=f"oasis-pg-{self.name}",
        )

    async def aclose(self) -> None:
        return None


def from_config(spec: Any) -> PgAgent:
    """Entry point of the ``pg`` agent type: ``{type: pg, name: careful|naive}``."""
    name = spec.get("name") if isinstance(spec, dict) else str(spec)
    return PgAgent(name or "careful")
