"""A ReAct trace's thought belongs to the action it leads to (behaviors rule 1076).

Off-the-shelf LLM agent frameworks (LangChain, smolagents) print each step of their run as a
block: ``Thought: <why>``, ``Action: <tool>``, ``Action Input: <command or JSON>``,
``Observation: <what came back>``. The thought is written before the action and says why it is
taken and what asked for it: a trail entry that is a block's ``Action:`` or ``Action Input:``
line carries the ``Thought:`` lines that open its block, as a person reads the trace.
"""

from __future__ import annotations

import re

from ....spec.kinds import resource_name

#: an action's key, as `_ops.Key`: (resource, object name, namespace)
Key = tuple[str | None, str | None, str | None]

#: a block's tool line and its input line (``Action: kubectl``, ``Action Input: kubectl ...``)
ACTION = re.compile(r"^\s*Action:\s*\S", re.IGNORECASE)
ACTION_INPUT = re.compile(r"^\s*Action Input:\s*\S", re.IGNORECASE)
#: the line a block's thought opens with, and the line that closes the block before it
THOUGHT = re.compile(r"^\s*Thought:\s*\S", re.IGNORECASE)
OBSERVATION = re.compile(r"^\s*Observation:", re.IGNORECASE)
#: lines a thought may run to (a thought that spans more is a narrative, not a block's)
THOUGHT_MOST = 6


def block_thought(
    lines: list[str], i: int, cls: str = "", key: Key = (None, None, None)
) -> list[str]:
    """The thought opening the block of ``lines[i]``: the lines from the nearest ``Thought:``
    line above up to the block's ``Action:`` line, when ``lines[i]`` is that ``Action:`` line
    or the ``Action Input:`` line right under it; none otherwise, when an observation or
    another action stands between, or when the thought runs over :data:`THOUGHT_MOST` lines."""
    k = i - 1
    if ACTION_INPUT.match(lines[i]):
        if k < 0 or not ACTION.match(lines[k]):
            return []
        tool, given = lines[k], lines[i]
        k -= 1
    elif ACTION.match(lines[i]):
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        tool, given = lines[i], nxt if ACTION_INPUT.match(nxt) else ""
    else:
        return []
    if cls and not own_call(_after_colon(tool), _after_colon(given), cls, key):
        return []
    out: list[str] = []
    while k >= 0 and len(out) < THOUGHT_MOST:
        line = lines[k]
        if ACTION.match(line) or ACTION_INPUT.match(line) or OBSERVATION.match(line):
            return []
        out.insert(0, line)
        if THOUGHT.match(line):
            return out
        k -= 1
    return []


_INPUT_HEAD = re.compile(r"^(\s*Action Input:\s*)", re.IGNORECASE)


def with_tools(lines: list[str]) -> list[str]:
    """Each ``Action Input:`` line right under its ``Action: <tool>`` line, with the tool
    written before the input when the input does not open with it (behaviors rule 1077):
    ``Action: metrics_query`` / ``Action Input: {"action": "alerts"}`` is the one call
    ``metrics_query {"action": "alerts"}``, as a command log writes it on one line."""
    out = list(lines)
    for i in range(1, len(out)):
        if not (ACTION_INPUT.match(out[i]) and ACTION.match(out[i - 1])):
            continue
        tool = _after_colon(out[i - 1]).split()[0] if _after_colon(out[i - 1]) else ""
        given = _after_colon(out[i])
        if tool and not given.lower().startswith(tool.lower()):
            head = _INPUT_HEAD.match(out[i])
            if head:
                out[i] = f"{head.group(1)}{tool} {out[i][head.end() :]}"
    return out


def _after_colon(line: str) -> str:
    return line.split(":", 1)[1].strip() if ":" in line else ""


#: kubectl flags that take the next word as their value
_VALUED = frozenset(
    [
        "-n",
        "-o",
        "-l",
        "-c",
        "-p",
        "-f",
        "--namespace",
        "--output",
        "--selector",
        "--container",
        "--type",
        "--patch",
        "--field-selector",
        "--sort-by",
        "--timeout",
        "--replicas",
        "--tail",
        "--since",
    ]
)
#: kubectl verbs whose first word after them is a sub-command (``rollout restart ...``)
_SUB = frozenset({"rollout", "set", "auth", "config", "certificate"})
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


def kubectl_target(command: str) -> tuple[tuple[str, ...], str | None] | None:
    """The resources and the object name a kubectl command acts on (``get pods -n x`` ->
    (("pods",), None); ``rollout restart deployment/web`` -> (("deployments",), "web");
    ``logs p`` -> (("pods",), "p")); None when it names no resource (``apply -f -``)."""
    words = _QUOTED.sub(" ", command).split()
    if words and words[0] == "kubectl":
        words = words[1:]
    pos: list[str] = []
    skip = False
    for w in words:
        if skip:
            skip = False
        elif w.startswith("-"):
            skip = w in _VALUED
        else:
            pos.append(w)
    if not pos:
        return None
    verb, rest = pos[0], pos[1:]
    if verb in _SUB:
        rest = rest[1:]
    if verb == "logs":
        return (("pods",), rest[0].split("/")[-1]) if rest else None
    if not rest:
        return None
    res, name = rest[0], rest[1] if len(rest) > 1 else None
    if "/" in res:
        res, name = res.split("/", 1)
    return tuple(r for r in map(resource_name, res.split(",")) if r), name


def own_call(tool: str, given: str, cls: str, key: Key) -> bool:
    """The block's call (its tool and input) is the action's own: a kubectl command on the
    action's resource and object, a logs tool for a logs read, the metrics tool's alerts for
    an alerts query (its other queries for a metrics one), the tracing or dashboard tool for
    theirs (another tool's call is no cluster object's); a kubectl command naming no resource
    (``apply -f -``) is taken as the action's."""
    low = tool.lower()
    resource, name = key[0], key[1]
    command = given if "kubectl" in low or given.lower().startswith("kubectl") else ""
    if command:
        target = kubectl_target(command)
        if target is None:
            return True
        resources, named = target
        return resource in resources and (named == name or (name is None and named is None))
    if cls == "logs":
        return "log" in low
    if resource == "alerts":
        return "alert" in given.lower()
    if resource == "metrics":
        return "metric" in low and "alert" not in given.lower()
    return bool(resource) and str(resource)[:4] in low  # traces, dashboards; no cluster object
