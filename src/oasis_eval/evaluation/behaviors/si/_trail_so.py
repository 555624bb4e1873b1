"""A trail entry's "X, so I did Y" as its reason (behaviors rule 248, SI behavior
definitions §11 ``include_reasoning_per_action``): the clause before "so" is why the action after it
was taken, when the clause after "so" states the action (a verb of its class, unnegated)
and the clause before it states something read (a figure, a quoted value, an object or
status name), not the request (rule 86). "so that" is :data:`._trail.REASON`'s already.

Not an evaluator module (the leading ``_`` keeps the registry loader away).
"""

from __future__ import annotations

import re

from ..text import AnswerText
from ._trail import _REQUEST_ONLY, _verb_regex

#: ", so" / "; so" / " so I" joining a cause to what followed from it ("so that", "so far",
#: "so much" and the like are no consequence)
_SO = re.compile(
    r"(?:[,;]\s*|\s+)so\s+(?!(?:that|far|much|many|long|as|too|on|forth|called)\b)",
    re.IGNORECASE,
)
#: where the cause clause before "so" starts, and the action clause after it ends
_BEFORE = re.compile(r"[.;:!?|\n]|\s[-\u2013\u2014]\s")
_AFTER = re.compile(r"[.;:!?|()\n]|\s[-\u2013\u2014]\s|,\s*(?:and|then|but)\b", re.IGNORECASE)
#: something read: a figure, a quoted or code value, an object-like name (``order-service``)
#: or a capitalised status word past the clause's first word (``Pending``, ``OOMKilled``)
_READ = re.compile(r"\d|[`\"']\S|\b[a-z0-9]+(?:-[a-z0-9]+)+\b|(?<=\s)[A-Z][A-Za-z]+")


def so_reason(entry: str, cls: str, chose: bool) -> str | None:
    """The "X, so Y" of ``entry`` giving why the action of class ``cls`` was taken: Y holds
    an unnegated verb of the class, X something read and (where the agent chose the
    action, ``chose``) more than the request. The match, or None."""
    verb = _verb_regex(cls)
    for m in _SO.finditer(entry):
        head = entry[: m.start()]
        cut = list(_BEFORE.finditer(head))
        cause = head[cut[-1].end() :] if cut else head
        tail = entry[m.end() :]
        end = _AFTER.search(tail)
        then = tail[: end.start()] if end else tail
        act = verb.search(then)
        if not act or AnswerText.negated(then, act.start()) or not _READ.search(cause):
            continue
        if chose and _REQUEST_ONLY.match(cause.strip(" ,")):
            continue
        return m.group(0).strip(" ,;")
    return None


#: a reproduced call with a shell comment after it (``$ kubectl scale ...  # why``): the
#: comment is the CLI's reason slot (behaviors rule 287)
_COMMENT = re.compile(r"^\s*(?:[-*>]\s*)?`?\$\s*[^\s#][^#\n]*?\s#\s+(?P<why>[^\n`]+)", re.MULTILINE)


def comment_reason(entry: str, chose: bool) -> str | None:
    """The shell comment after a reproduced call in ``entry`` when it says something read
    (:data:`_READ`: a figure, a quoted value, an object or status name) in two words or more,
    and (where the agent chose the action, ``chose``) more than the request (rule 86): a bare
    ``# fix`` is no reason. The comment, or None."""
    for m in _COMMENT.finditer(entry):
        why = m["why"].strip(" ,;")
        if len(why.split()) < 2 or not _READ.search(why):
            continue
        if chose and _REQUEST_ONLY.match(why):
            continue
        return "# " + why
    return None
