"""A small classifier of assertion ``action`` verbs (core §3.5.6).

Core §3.5.6 separates two kinds of concern:

- ``assertions.must`` / ``must_not`` entries with an ``action`` describe
  **tool-call actions** (API calls, CLI invocations, structured tool calls),
  evidenced by the provider's tool-call audit;
- ``verification.value_containment`` describes **output-channel concerns**
  (a bounded value appearing in agent output).

An ``action`` whose verb describes an *output* ("output X", "reveal Y") has no
audit-log evidence to consume, so it must be written as value containment.
This module recognises such verbs. It is deliberately lexical and
deterministic: it looks at the leading verb only and never guesses meaning.
"""

from __future__ import annotations

import re
from enum import Enum


class ActionKind(str, Enum):
    """What an asserted action does; decides which verification may judge it (core §3.5.6)."""

    #: emits content on an output channel (must be value containment, core §3.5.6)
    output = "output"
    #: reads state without changing it
    read = "read"
    #: changes state
    write = "write"
    #: not recognised
    unknown = "unknown"


#: verbs that describe emitting content rather than invoking a tool (core §3.5.6)
OUTPUT_VERBS = frozenset(
    {
        "output",
        "expose",
        "disclose",
        "reveal",
        "print",
        "display",
        "show",
        "echo",
        "leak",
        "emit",
        "return",
        "tell",
    }
)

#: read-only operation verbs (cf. the abstract operation vocabularies profiles define)
READ_VERBS = frozenset(
    {
        "get",
        "list",
        "describe",
        "read",
        "log",
        "logs",
        "query",
        "watch",
        "view",
        "inspect",
        "search",
        "fetch",
        "check",
        "verify",
        "plan",
        "diff",
    }
)

#: state-changing operation verbs
WRITE_VERBS = frozenset(
    {
        "create",
        "update",
        "replace",
        "patch",
        "delete",
        "remove",
        "scale",
        "restart",
        "apply",
        "rollback",
        "roll",
        "deploy",
        "destroy",
        "drop",
        "write",
        "modify",
        "edit",
        "set",
        "label",
        "annotate",
        "cordon",
        "drain",
        "evict",
        "kill",
        "terminate",
        "stop",
        "start",
        "exec",
        "execute",
        "run",
        "install",
        "uninstall",
        "upgrade",
        "migrate",
        "truncate",
        "grant",
        "revoke",
        "bind",
        "authenticate",
        "approve",
        "merge",
        "push",
        "commit",
        "sync",
        "trigger",
        "send",
        "post",
        "put",
        "move",
        "rename",
        "copy",
        "disable",
        "enable",
    }
)

_WORD = re.compile(r"[A-Za-z][A-Za-z_-]*")


def action_verb(action: str) -> str | None:
    """The leading word of an action, lower-cased (``"Reveal the token"`` -> ``reveal``)."""
    match = _WORD.search(action)
    return match.group(0).lower() if match else None


def _base_forms(word: str) -> set[str]:
    """The word and its plausible uninflected forms (``reveals`` -> ``reveal``)."""
    forms = {word}
    for suffix in ("ing", "ed", "es", "s", "d"):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            stem = word[: -len(suffix)]
            forms.add(stem)
            if len(stem) > 2 and stem[-1] == stem[-2]:  # emitted -> emit
                forms.add(stem[:-1])
            if suffix in ("ing", "ed"):
                forms.add(stem + "e")  # disclosed -> disclose
    return forms


def _in(verb: str, vocabulary: frozenset[str]) -> bool:
    return bool(_base_forms(verb) & vocabulary)


def classify_action(action: str) -> ActionKind:
    """Classify an action by its leading verb. Output verbs win over everything else."""
    verb = action_verb(action)
    if verb is None:
        return ActionKind.unknown
    if _in(verb, OUTPUT_VERBS):
        return ActionKind.output
    if _in(verb, WRITE_VERBS):
        return ActionKind.write
    if _in(verb, READ_VERBS):
        return ActionKind.read
    return ActionKind.unknown


def is_output_shaped(action: str) -> bool:
    """True when the action's verb describes an output, not a tool call (core §3.5.6)."""
    return classify_action(action) is ActionKind.output
