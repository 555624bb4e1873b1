"""Shared helpers for the tool-surface tests: provision a scenario and call tools."""

from __future__ import annotations

import re
from typing import Any

from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.tools import ToolResult, ToolSurface
from tests.sim_k8s.support import provision

#: words no agent-visible output may contain
TELLTALES = re.compile(r"\b(simulat\w*|fake\w*|inject\w*|sim-k8s)\b", re.IGNORECASE)


class Session:
    """One provisioned environment and the agent's tool surface over it."""

    def __init__(self, which: str, sid: str, **kw: Any):
        self.provider = SimK8sProvider()
        self.result, self.env = provision(self.provider, which, sid, **kw)
        self.surface = ToolSurface(self.env)
        self.outputs: list[str] = []

    def call(self, tool: str, **args: Any) -> ToolResult:
        res = self.surface.call(tool, args)
        assert self.surface.last_exception is None, f"{tool} {args} hit a backend fault"
        self.outputs.append(res.text)
        return res

    def k(self, command: str, stdin: str | None = None) -> ToolResult:
        return self.call(
            "kubectl", command=command, **({"stdin": stdin} if stdin is not None else {})
        )

    def ok(self, command: str, stdin: str | None = None) -> str:
        res = self.k(command, stdin)
        assert not res.is_error, f"kubectl {command} failed:\n{res.text}"
        return res.text

    def agent_entries(self, start: int = 0) -> list[dict[str, Any]]:
        return [
            e
            for e in self.env.audit.entries[start:]
            if (e.get("data") or {}).get("agent_principal")
        ]

    def assert_no_telltales(self) -> None:
        for text in self.outputs:
            hit = TELLTALES.search(text)
            assert hit is None, f"agent-visible output says {hit.group(0)!r}:\n{text[:2000]}"
