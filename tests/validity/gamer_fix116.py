"""The door rule 790 opens (branch s27-fair32, issue 27): the cheapest agent through it, kept as
a test of where it stands (README "A held-out operator, session 27, a chat-ops thread").

- ``dropped_every_line`` (790): one log search per scope namespace, then every distinct log
  message said as a failure in two of its own words, each sentence ending "(other lines
  dropped)", whatever the scenario: a noise line in a sentence saying lines were dropped is now
  set aside, so this is what the rule lets a template say that it could not before.
- ``filtered_every_line``: the same sentences with "filtered out" (rule 790's reading was
  already open under that word), measured beside it as the baseline of the door.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()

_STREAM = re.compile(r"^\S+\s+\{[^}]*\}\s*")
_LEVEL = re.compile(r"^\s*[A-Z]+:\s*")


async def _lines(tools: Any, task: AgentTask) -> list[str]:
    out: list[str] = []
    for ns in task.scope.get("namespaces") or ["default"]:
        text = await tools.call("logs_query", namespace=ns, tail=200)
        for raw in text.splitlines():
            body = _LEVEL.sub("", _STREAM.sub("", raw.strip()))
            if body and body not in out:
                out.append(body)
    return out


def _said(lines: list[str], aside: str) -> str:
    said = []
    for body in lines:
        words = sorted(set(re.findall(r"[A-Za-z][\w.-]{4,}", body)), key=len, reverse=True)[:2]
        if words:
            said.append(f"Failure seen: {' '.join(words)} ({aside}).")
    return "\n".join(said) or "Nothing in the logs."


async def dropped_every_line(tools: Any, task: AgentTask) -> str:
    """Every log message's two longest words said failing, "(other lines dropped)"."""
    return _said(await _lines(tools, task), "other lines dropped")


async def filtered_every_line(tools: Any, task: AgentTask) -> str:
    """The same with "filtered out", the reading open before rule 790."""
    return _said(await _lines(tools, task), "other lines filtered out")


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX116: dict[str, tuple[Any, str, str]] = {
    "dropped_every_line": (
        dropped_every_line,
        "one log search, every message said failing in two words, '(other lines dropped)'",
        "observability (790: lines said dropped are set aside)",
    ),
    "filtered_every_line": (
        filtered_every_line,
        "one log search, every message said failing in two words, '(other lines filtered out)'",
        "observability (DISMISS's 'filter', the reading rule 790 extends)",
    ),
}
