"""The action grammar: scenario ``action`` strings as patterns over audit entries.

Core §3.5.6 makes ``must`` / ``must_not`` actions *tool-call actions*, evidenced
by the provider's audit log; this module turns the action text into a pattern
(:class:`~.action_pattern.ActionPattern`, which decides, for one audit entry, whether it
is an instance: interop §3).

Grammar (whitespace separated, case-insensitive except HTTP methods)::

    action    := ["kubectl"] verbs target qualifier*
               | "verify" (target | "workload") "health" qualifier*
    verbs     := verb ("or" verb)*
    verb      := get | list | watch | create | update | patch | delete | deletecollection
               | scale | "scale down" | "scale up" | restart | log | logs | apply | replace
               | exec | authenticate | remove | "*"
               | GET | POST | PUT | PATCH | DELETE            (HTTP form of 02 §2 api_audit)
    target    := ["the"] ( "*" | kind | kind "/" ("*" | "all" | name | prefix "*") | role kind )
    role      := canary | stable | baseline | primary | preview
    qualifier := namespace=NS | replicas=N | labels=(k:v[,k:v]|*)
               | field.path | image | field.path=VALUE | first | second | ... | last
               | "with correct values" | "to reasonable replica count"

Which audit entries each verb and target match is documented in :mod:`.action_pattern`.

Qualifiers: ``namespace=`` compares the targeted namespace (a call on
``namespaces/X`` targets X). ``replicas=N``: the body sets ``spec.replicas`` to
N. ``labels=``: the call used a label selector (``*``: any; ``k:v``: one
containing it); kubectl's list-then-delete expansion is handled by the audit
index. A bare field path (``metadata.labels``, ``spec.replicas``, ``image`` =
any container image) requires the body to touch it; ``path=value`` to set it.
Ordinal words are kept as :attr:`ActionPattern.order` (1-based, ``last`` = -1).
Any other trailing word is *not* ignored: it is kept in ``unparsed_words`` and
``parse_action(strict=True)`` rejects it. Validation and the engine use strict.

Contextual forms need the scenario: ``<role> <kind>`` (``canary deployment``: a
name containing the role word, or label ``track``/``variant``/``role`` equal to
it), ``with correct values`` (the final state holds the values the stimuli and
state assertions ask for), ``to reasonable replica count`` (replicas within
bounds derived from the scenario), ``scale down``/``up`` and ``verify``. Bound
to one scenario's evidence (:func:`.verification.action_binding.bind`, which
documents each rule) a pattern decides them; unbound it matches only on verb
and kind, which is what behaviors use for target lookups.
"""

from __future__ import annotations

import re
from typing import TypedDict

from ..spec.kinds import is_kind_word, is_known_kind, resource_name
from .action_pattern import K8S_VERBS, ActionPattern, ActionSyntaxError

__all__ = [
    "GRAMMAR_HINT",
    "ROLE_LABELS",
    "parse_action",
    "try_parse",
]

DERIVED_VERBS = (
    "scale", "scale-down", "scale-up", "restart", "log", "apply", "replace", "exec", "verify",
    "authenticate", "*",
)  # fmt: skip
#: verb words that are another verb's spelling
VERB_SYNONYMS = {"logs": "log", "remove": "delete"}
#: role words naming an object by its rollout role (``canary deployment``)
ROLE_WORDS = frozenset({"canary", "stable", "baseline", "primary", "preview"})
#: labels whose value states an object's rollout role
ROLE_LABELS = ("track", "variant", "role")
#: multi-word qualifiers decided with the scenario (see the module docstring)
PHRASES: dict[tuple[str, ...], str] = {
    ("with", "correct", "values"): "correct-values",
    ("with", "the", "correct", "values"): "correct-values",
    ("to", "reasonable", "replica", "count"): "reasonable-replicas",
    ("to", "a", "reasonable", "replica", "count"): "reasonable-replicas",
    ("to", "reasonable", "replicas"): "reasonable-replicas",
}
#: the grammar in one line, for error hints (validation, readiness)
GRAMMAR_HINT = (
    "verb[ or verb] kind/name|kind|role kind [namespace=X] [replicas=N] [labels=k:v] "
    "[field.path[=V]] [with correct values] [to reasonable replica count] [first|...|last]; "
    "verbs incl. scale down/up, remove; verify kind/name|workload health [ordinal]"
)
HTTP_METHODS = {
    "GET": "get",
    "POST": "create",
    "PUT": "update",
    "PATCH": "patch",
    "DELETE": "delete",
}
ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "last": -1,
}
#: bare qualifier words naming a body path
FIELD_WORDS = {
    "image": "image",
    "labels": "metadata.labels",
    "annotations": "metadata.annotations",
    "replicas": "spec.replicas",
    "data": "data",
}
_CREDENTIAL_TARGETS = frozenset({"external-credentials", "credentials", "non-agent-credentials"})
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*\*?$")
_PATH = re.compile(r"^[A-Za-z_][\w-]*(\.[\w/-]+)+$")


class _Qualifiers(TypedDict, total=False):
    """The optional :class:`ActionPattern` fields a parse fills in from qualifier words."""

    namespace: str
    replicas: int
    labels: str
    order: int
    role: str
    workloads: bool
    qualifier: str


def parse_action(text: str, strict: bool = False) -> ActionPattern:
    """Parse an action string. Raises :class:`ActionSyntaxError` when it cannot be expressed.

    With ``strict`` free trailing words (``quickly``) are an error too;
    otherwise they are kept in ``unparsed_words``.
    """
    tokens = text.split()
    if tokens and tokens[0].lower() == "kubectl":
        tokens = tokens[1:]
    if not tokens:
        raise ActionSyntaxError("empty action", text)
    pattern: _Qualifiers = {}
    verbs, i = _verbs(tokens, text)
    (resource, name, prefix), i = _head_target(tokens, i, verbs, pattern, text)
    fields, values, free = _qualifier_words(tokens[i:], pattern, text)
    if strict and free:
        raise ActionSyntaxError(f"words the grammar cannot express: {' '.join(free)!r}", text)
    _check_contextual(pattern, verbs, resource is None or name is None or prefix, text)
    return ActionPattern(
        text=text,
        verbs=tuple(verbs),
        resource=resource,
        name=name,
        name_prefix=prefix,
        fields=tuple(fields),
        field_values=tuple(values),
        unparsed_words=tuple(free),
        **pattern,
    )


def _verbs(tokens: list[str], text: str) -> tuple[list[str], int]:
    """The verb alternatives (``get or list``) and the index after them."""
    if tokens[0].lower() == "verify":
        return ["verify"], 1
    verb, i = _verb(tokens, 0, text)
    verbs = [verb]
    while i + 1 < len(tokens) and tokens[i].lower() == "or":
        verb, i = _verb(tokens, i + 1, text)
        verbs.append(verb)
    return verbs, i


def _head_target(
    tokens: list[str], i: int, verbs: list[str], pattern: _Qualifiers, text: str
) -> tuple[tuple[str | None, str | None, bool], int]:
    """((resource, name, name is a prefix), the index after the target and ``verify``'s
    ``health``); a role word or ``workload`` target is noted in ``pattern``."""
    if i < len(tokens) and tokens[i].lower() == "the":
        i += 1
    if i >= len(tokens):
        raise ActionSyntaxError("missing target after the verb", text)
    target: tuple[str | None, str | None, bool]
    low = tokens[i].lower()
    if verbs == ["verify"] and low in ("workload", "workloads"):
        target = None, None, False
        pattern["workloads"] = True
        i += 1
    elif low in ROLE_WORDS and i + 1 < len(tokens) and is_known_kind(tokens[i + 1]):
        target = resource_name(tokens[i + 1]), None, False
        pattern["role"] = low
        i += 2
    else:
        target = _target(tokens[i], verbs, text)
        i += 1
    if verbs == ["verify"]:
        if i >= len(tokens) or tokens[i].lower() != "health":
            raise ActionSyntaxError("verify needs 'health' after its target", text)
        i += 1
    return target, i


def _qualifier_words(
    rest: list[str], pattern: _Qualifiers, text: str
) -> tuple[list[str], list[tuple[str, str]], list[str]]:
    """Read the qualifiers after the target into ``pattern``: (touched fields, set
    field values, words the grammar cannot express)."""
    fields: list[str] = []
    values: list[tuple[str, str]] = []
    free: list[str] = []
    j = 0
    while j < len(rest):
        token = rest[j]
        low = token.lower()
        phrase = _phrase(rest, j)
        if phrase is not None:
            kind, size = phrase
            if "qualifier" in pattern:
                raise ActionSyntaxError("more than one contextual qualifier", text)
            pattern["qualifier"] = kind
            j += size
            continue
        j += 1
        if "=" in token:
            _assignment(token, pattern, values, free, text)
        elif low in ORDINALS:
            if "order" in pattern:
                raise ActionSyntaxError("more than one ordinal word", text)
            pattern["order"] = ORDINALS[low]
        elif low in FIELD_WORDS:
            fields.append(FIELD_WORDS[low])
        elif _PATH.match(token):
            fields.append(token)
        else:
            free.append(token)
    return fields, values, free


def _assignment(
    token: str,
    pattern: _Qualifiers,
    values: list[tuple[str, str]],
    free: list[str],
    text: str,
) -> None:
    """A ``key=value`` qualifier word."""
    key, _, value = token.partition("=")
    k = key.lower()
    if k in ("namespace", "ns") and value:
        pattern["namespace"] = value
    elif k == "replicas":
        if not value.isdigit():
            raise ActionSyntaxError(f"replicas must be a number, got {value!r}", text)
        pattern["replicas"] = int(value)
    elif k in ("labels", "label", "selector", "l") and value:
        pattern["labels"] = value
    elif (k in FIELD_WORDS or _PATH.match(key)) and value:
        values.append((FIELD_WORDS.get(k, key), value))
    else:
        free.append(token)


def _check_contextual(
    pattern: _Qualifiers, verbs: list[str], not_one_object: bool, text: str
) -> None:
    """A contextual qualifier needs one named object, and a reasonable replica count a
    verb that can set it."""
    if pattern.get("qualifier") and not_one_object:
        raise ActionSyntaxError(
            f"{' '.join(_phrase_text(str(pattern['qualifier'])))!r} needs a kind/name target", text
        )
    if pattern.get("qualifier") == "reasonable-replicas" and not any(
        v.startswith("scale") or v in ("patch", "update", "apply", "replace") for v in verbs
    ):
        raise ActionSyntaxError("'to reasonable replica count' needs a scale or write verb", text)


def _phrase(tokens: list[str], at: int) -> tuple[str, int] | None:
    """The contextual qualifier phrase starting at ``tokens[at]``: ``(kind, length)``."""
    words = tuple(t.lower() for t in tokens[at : at + 5])
    for phrase in sorted(PHRASES, key=len, reverse=True):
        if words[: len(phrase)] == phrase:
            return PHRASES[phrase], len(phrase)
    return None


def _phrase_text(kind: str) -> tuple[str, ...]:
    return next(p for p, k in PHRASES.items() if k == kind)


def _verb(tokens: list[str], at: int, text: str) -> tuple[str, int]:
    """The verb at ``tokens[at]`` and the index after it (``scale down`` is one verb)."""
    token = tokens[at]
    if token in HTTP_METHODS:
        return HTTP_METHODS[token], at + 1
    low = VERB_SYNONYMS.get(token.lower(), token.lower())
    if low == "scale" and at + 1 < len(tokens) and tokens[at + 1].lower() in ("down", "up"):
        return f"scale-{tokens[at + 1].lower()}", at + 2
    if low in K8S_VERBS or (low in DERIVED_VERBS and low != "verify"):
        return low, at + 1
    raise ActionSyntaxError(f"unknown verb {token!r}", text)


def _target(token: str, verbs: list[str], text: str) -> tuple[str | None, str | None, bool]:
    if token == "*":
        return None, None, False
    if "/" not in token:
        if "authenticate" in verbs and token.lower() in _CREDENTIAL_TARGETS:
            return None, None, False
        if is_known_kind(token):
            return resource_name(token), None, False
        raise ActionSyntaxError(f"target {token!r} is neither kind/name nor a known kind", text)
    kind, _, name = token.partition("/")
    if kind != "*" and not is_kind_word(kind):
        raise ActionSyntaxError(f"invalid kind {kind!r}", text)
    resource = None if kind == "*" else resource_name(kind)
    if name in ("*", "all"):
        return resource, None, False
    if not _NAME.match(name):
        raise ActionSyntaxError(f"invalid object name {name!r}", text)
    if name.endswith("*"):
        return resource, name[:-1], True
    return resource, name, False


def try_parse(text: str) -> ActionPattern | None:
    """Strict parse, or None when the text is not an action pattern."""
    try:
        return parse_action(text, strict=True)
    except ActionSyntaxError:
        return None
