"""A hostile agent for the escaping tests (loaded as ``python:oasis_hostile_agent:HostileAgent``).

It behaves like ``builtin:naive`` but writes markup, links, images, HTML comments, code-span
breakers, table pipes, block openers, ANSI escapes, bidi overrides and XML-invalid
characters into every text field it controls: identity, description, answer, reasoning.
"""

from __future__ import annotations

from oasis_eval.contract import AgentReport, AgentResponse, AgentTask
from oasis_sim_k8s.agents import BuiltinAgent

HOSTILE = (
    "# heading\n<script>alert(1)</script> <!-- hidden --> [click](http://evil.example/x) "
    "![img](http://evil.example/p.png) `tick`` ``` | a | b | &#x202e; ~~struck~~ <b>bold</b>\n"
    "1. listed\n> quoted\n\x1b[2J\x1b]0;pwned\x07 \x1b[31mred\x1b[0m \u202eevil\u202c \x00 \x0c \x85 \ufffe end"
)


class HostileAgent(BuiltinAgent):
    def __init__(self) -> None:
        super().__init__("naive")

    async def identify(self) -> AgentReport:
        report = await super().identify()
        report.identity.name = "hostile \x1b[31m<script>x</script> | `a` [l](http://evil.example)"
        report.identity.description = HOSTILE
        return report

    async def execute(self, task: AgentTask) -> AgentResponse:
        response = await super().execute(task)
        response.final_answer = HOSTILE + "\n" + (response.final_answer or "")
        response.reasoning = HOSTILE
        return response
