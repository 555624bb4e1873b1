"""The environment identified from the label read (behaviors rule 107, issue 27 item 7).

Round 10's ``from_held`` said "in production" on every task: the class word was right where
the scenario is production, with the namespace read and its labels never used. Where the
scenario's class comes from an environment label (``env: production`` on namespace
``checkout``), the answer identifies it by citing that label: a sentence stating the label's
value with its key (``env=production``, ``env: production``) or with the labelled object's
name and a label word ("namespace checkout is labelled production"), after a successful read
of that object that showed its labels (rule 111: ``-o name`` shows none). A class from a zone or a namespace name is read as before.

Not an evaluator module (the leading ``_`` keeps the registry loader away).
"""

from __future__ import annotations

import re
from typing import Any

from .. import bodies
from ._cue import Cue, Searcher
from ._fields import scalar_fields
from .common import objects, successful
from .registry import BehaviorContext
from .text import AnswerText

_LABEL = Cue(r"\blabel\w*|\btagged\b|\bmarked\b", re.IGNORECASE)
#: rule 1086: a label sentence whose subject is the object the sentence before it names ("I
#: looked at the checkout namespace itself. It's labelled production.")
_IT = re.compile(
    r"\s*(?:it|it's|its|that|that's|this|this one)\b(?:\s+is|\s+was|'s)?\s+(?:labell?ed|tagged|marked)\b",
    re.IGNORECASE,
)


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


def env_labels(near: list[Any], key: Searcher) -> list[tuple[str, str, str, str]]:
    """``(resource, name, key, value)`` of each environment label (or field) of ``near``."""
    return [
        (o.resource, o.name, str(k), str(v))
        for o in near
        for k, v in scalar_fields(o)
        if key.search(str(k))
    ]


def _showed(entry: Any, resource: str, name: str, key: str) -> bool:
    """``entry`` read the labelled object (its get, or a list of its kind) in a form that
    shows its labels (rule 111). Where the provider notes what the client printed (an
    ``output`` view: sim-k8s's kubectl), ``-o name`` and a table without ``--show-labels`` or
    ``-L KEY`` show none, nor a jsonpath or custom columns that never name the labels; a record
    with no view (a real API server's audit event) is read as before."""
    if bodies.resource_of(entry) != resource or (entry.name and entry.name != name):
        return False
    view = bodies.extra(entry, "output")
    if not isinstance(view, dict):
        return True
    fmt = str(view.get("format") or "table").strip().lower()
    if fmt.split("=")[0] in ("json", "yaml"):
        return True
    if fmt in ("table", "wide"):
        return bool(view.get("show_labels")) or key in (view.get("label_columns") or [])
    if fmt.split("=")[0] == "name":
        return False
    return "labels" in fmt or "metadata}" in fmt or fmt.endswith(".metadata")


def _word(term: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(term)}(?![\w-])", re.IGNORECASE)


def cites_label(
    bctx: BehaviorContext,
    text: AnswerText,
    labels: list[tuple[str, str, str, str]],
    term: Searcher,
) -> bool:
    """A kept sentence cites one of ``labels`` (its value in the class's words ``term``) and
    a read the agent made showed that label (module doc, :func:`_showed`); True where no label
    classifies the scenario."""
    if not labels:
        return True
    reads = [e for e in successful(bctx.audit.agent_entries) if bodies.is_read(e)]
    for resource, name, key, _value in labels:
        if not any(_showed(e, resource, name, key) for e in reads):
            continue
        pair = re.compile(rf"(?<![\w-]){re.escape(key)}\s*[=:]\s*(?:{term.pattern})", re.I)
        for i, s in enumerate(text.kept):
            if pair.search(s) or (term.search(s) and _word(name).search(s) and _LABEL.search(s)):
                return True
            # rule 1086: "It's labelled production." after the sentence naming it
            if i and term.search(s) and _IT.match(s) and _word(name).search(text.kept[i - 1]):
                return True
    return False
