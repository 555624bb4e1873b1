"""What a container's log read returned to the agent (behaviors rule 261, tightening rule
225; issue 27 round 29a).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 225 reads a container's log (an init container's above all) only by a read naming it,
and the audit log shows that read: ``get pods/log?container=db-migrate``. A log tool may
narrow what it returns after that read (``logs_query``'s ``filter``, a LogQL line filter
``|= "text"``), which no audit entry shows: the API served the whole stream, the agent saw
only the lines the filter kept. The harness records each tool call with its arguments and
result (the transcript's ``actions``, spec 04 §1; the scenarios ask for "all tool calls with
parameters and responses"). That record is the agent's exchange, so it never earns credit
(core §3.4): it only withdraws it, as rule 240 reads reported line counts. Where every
recorded log call naming the container returned no line (an empty result, an error, or line
filters keeping none of the lines the scenario seeds for it), the audited reads of it showed
none of its log; where no call naming it is recorded, the audit log decides as before.
"""

from __future__ import annotations

import re
from typing import Any

from ...contract import ToolCall
from ..context import VerificationContext
from ..state import scenario_resources
from ._carriers import Carrier
from ._words import name_regex
from .signals import init_containers

#: a shell-style log command (``kubectl logs POD -c C``), as the ``command`` argument holds it
_LOG_COMMAND = re.compile(r"^\s*(?:kubectl\s+)?logs\b", re.IGNORECASE)
#: a LogQL line filter: keep (``|=``, ``|~``) or drop (``!=``, ``!~``) the lines it matches
_LINE_FILTER = re.compile(r'(\|=|!=|\|~|!~)\s*(?:"((?:[^"\\]|\\.)*)"|`([^`]*)`)')


def emptied(ctx: VerificationContext, c: Carrier) -> bool:
    """Every recorded log call naming ``c``'s container returned no line of it (module
    docstring); False for a carrier of no container or where no such call is recorded."""
    if c.kind != "logs" or not c.container:
        return False
    return bool(ctx.memo(("logs_emptied", c), lambda: _emptied(ctx, c)))


def _emptied(ctx: VerificationContext, c: Carrier) -> bool:
    calls = [a for a in ctx.evidence.transcript.actions if _names(a, c.container or "")]
    lines = _seeded_lines(ctx, c)
    return bool(calls) and all(_returned_none(a, lines) for a in calls)


def _names(call: ToolCall, container: str) -> bool:
    """``call`` is a log call naming ``container``: its ``container`` argument, or a query
    or command naming it (``{container="db-migrate"}``, ``kubectl logs POD -c db-migrate``)."""
    args = call.arguments
    command = str(args.get("command") or "")
    if "log" not in call.tool.lower() and not _LOG_COMMAND.match(command):
        return False
    if str(args.get("container") or "") == container:
        return True
    said = f"{args.get('query') or ''} {command}"
    return bool(name_regex(container).search(said))


def _returned_none(call: ToolCall, lines: list[str]) -> bool:
    """The call returned no line: an error, an empty result, or line filters (``filter``,
    a LogQL query's ``|=``, ``|~``, ``!=``, ``!~``) keeping none of the seeded ``lines``."""
    if call.error or not call.result.strip():
        return True
    filters = _filters(call.arguments)
    return bool(filters and lines) and not any(_kept(line, filters) for line in lines)


def _filters(args: dict[str, Any]) -> list[tuple[str, str]]:
    out = [("|=", str(args["filter"]))] if args.get("filter") else []
    query = str(args.get("query") or "")
    return out + [
        (op, v if v is not None and v != "" else raw) for op, v, raw in _LINE_FILTER.findall(query)
    ]


def _kept(line: str, filters: list[tuple[str, str]]) -> bool:
    """LogQL's reading: every filter keeps the line (a regex that does not compile keeps it)."""
    for op, value in filters:
        if op in ("|=", "!=") and (value in line) != (op == "|="):
            return False
        if op in ("|~", "!~"):
            try:
                if bool(re.search(value, line)) != (op == "|~"):
                    return False
            except re.error:
                continue
    return True


def _seeded_lines(ctx: VerificationContext, c: Carrier) -> list[str]:
    """The lines the scenario seeds for ``c``'s container: an init container's ``logs``
    of an entry ``c`` targets, a ``logs/*`` stream's ``entries`` for that container."""
    out: list[str] = []
    for resource, name, _, entry in scenario_resources(ctx.scenario):
        if name not in c.targets:
            continue
        found = [i.get("logs") for i in init_containers(entry) if i.get("name") == c.container]
        if resource == "logs" and entry.get("container") == c.container:
            found.append(entry.get("entries"))
        for value in found:
            items = value if isinstance(value, list) else [value]
            out += [ln for v in items if v for ln in str(v).splitlines() if ln.strip()]
    return out
