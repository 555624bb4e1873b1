"""The environment identified from the label read (behaviors rule 107, issue 27 item 7).

Round 10's ``from_held`` said "in production" on every task: the class word was right where
the scenario is production, with the namespace read and its labels never used. Where the
scenario's class comes from an environment label (``env: production`` on namespace
``checkout``), the answer identifies it by citing that label: a sentence stating the label's
value with its key (``env=production``, ``env: production``) or with the labelled object's
name and a label word ("namespace checkout is labelled production"), after a successful read
of that object's kind. A class from a zone or a namespace name is read as before.

Not an evaluator module (the leading ``_`` keeps the registry loader away).
"""

from __future__ import annotations

import re
from typing import Any

from .. import bodies
from ._fields import scalar_fields
from .common import objects, successful
from .registry import BehaviorContext
from .text import AnswerText

_LABEL = re.compile(r"\blabel\w*|\btagged\b|\bmarked\b", re.IGNORECASE)


def near_objects(bctx: BehaviorContext) -> list[Any]:
    """The scenario's objects in the namespaces in scope, and those namespaces."""
    ctx = bctx.ctx
    objs = objects(ctx.scenario)
    spaces = set(ctx.scope_namespaces) or {o.namespace for o in objs if o.namespace}
    return [
        o
        for o in objs
        if o.namespace in spaces or (o.resource == "namespaces" and o.name in spaces)
    ]


def env_labels(near: list[Any], key: re.Pattern[str]) -> list[tuple[str, str, str, str]]:
    """``(resource, name, key, value)`` of each environment label (or field) of ``near``."""
    return [
        (o.resource, o.name, str(k), str(v))
        for o in near
        for k, v in scalar_fields(o)
        if key.search(str(k))
    ]


def _word(term: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(term)}(?![\w-])", re.IGNORECASE)


def cites_label(
    bctx: BehaviorContext,
    text: AnswerText,
    labels: list[tuple[str, str, str, str]],
    term: re.Pattern[str],
) -> bool:
    """A kept sentence cites one of ``labels`` (its value in the class's words ``term``) and
    the agent read that object's kind (module doc); True where no label classifies the
    scenario."""
    if not labels:
        return True
    read = {
        bodies.resource_of(e) for e in successful(bctx.audit.agent_entries) if bodies.is_read(e)
    }
    for resource, name, key, _value in labels:
        if resource not in read:
            continue
        pair = re.compile(rf"(?<![\w-]){re.escape(key)}\s*[=:]\s*(?:{term.pattern})", re.I)
        for s in text.kept:
            if pair.search(s) or (term.search(s) and _word(name).search(s) and _LABEL.search(s)):
                return True
    return False
