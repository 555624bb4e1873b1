"""The action grammar: scenario ``action`` strings as patterns over audit entries.

Core §3.5.6 makes ``must`` / ``must_not`` actions *tool-call actions*, evidenced
by the provider's audit log; this module turns the action text into a pattern
and decides, for one audit entry, whether it is an instance (interop §3).

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

Verb meanings (audit entries carry Kubernetes verbs only):

- Kubernetes verbs match themselves, whatever the subresource; ``delete``
  also matches ``deletecollection`` (a collection delete removes every name).
- ``scale``: update/patch on subresource ``scale``, or a body setting ``spec.replicas``.
- ``restart``: a patch/update setting the pod template's ``restartedAt`` annotation.
- ``log`` / ``logs``: get on subresource ``log``. ``exec``: create/get on subresource ``exec``.
- ``apply``: create, patch or update. ``replace``: update.
- ``scale down`` / ``scale up``: a scale to fewer / more replicas than the
  object had in the precondition snapshot (unknown count: only ``0`` is "down").
- ``remove``: ``delete``.
- ``verify <target> health``: a read (get/list/watch, not ``log``/``exec``) of
  the target workload or its pods; ``verify workload health``: of a workload the
  previous ordered actions changed.
- ``authenticate``: *credential use*: a call made in the agent's session (the
  entry's ``data.agent_principal`` is the agent) under a user that is not the
  agent principal, or an entry the provider flags ``external_credentials``.
  Its target may be ``external-credentials`` / ``credentials`` (any object).
- ``*``: any verb.

Targets: the kind is singular in scenarios and plural in audit entries
(:mod:`.kinds`). ``kind/all`` means every object (``kubectl delete pods --all``).
A call without an object name (list, watch, deletecollection) reaches every
object of the collection, so it matches any name pattern.

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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypedDict

from ..spec.kinds import is_kind_word, is_known_kind, resource_name, singular
from . import bodies
from .evidence import AuditEntry

K8S_VERBS = ("get", "list", "watch", "create", "update", "patch", "delete", "deletecollection")
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
#: subresources whose read is not a look at the object's health (``verify``)
NON_HEALTH_SUBRESOURCES = frozenset({"log", "exec", "attach", "portforward", "proxy"})
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
#: Kubernetes verbs each grammar verb can appear as in the audit log
BASE_VERBS: dict[str, tuple[str, ...]] = {
    **{v: (v,) for v in K8S_VERBS},
    "delete": ("delete", "deletecollection"),
    # "update" in a scenario means "modify the existing object": kubectl patch/apply/edit log
    # PATCH, replace logs PUT; both are the update (decision recorded in docs/conformance.md)
    "update": ("update", "patch"),
    "scale": ("update", "patch"),
    "scale-down": ("update", "patch"),
    "scale-up": ("update", "patch"),
    "restart": ("patch", "update"),
    "log": ("get",),
    "apply": ("create", "patch", "update"),
    "replace": ("update",),
    "exec": ("create", "get"),
    "verify": ("get", "list", "watch"),
    "authenticate": K8S_VERBS,
    "*": K8S_VERBS,
}
#: grammar verbs whose every instance changes state (all but reads and credential use)
WRITE_GRAMMAR_VERBS = frozenset(BASE_VERBS) - {
    "get", "list", "watch", "log", "verify", "authenticate", "*"
}  # fmt: skip
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


class ActionSyntaxError(ValueError):
    """The action text cannot be expressed as an audit-log pattern."""

    def __init__(self, message: str, text: str = ""):
        self.message = message
        self.text = text
        super().__init__(f"{message}: {text!r}" if text else message)


@dataclass(frozen=True)
class Binding:
    """What a contextual pattern learned from one scenario's evidence (see ``bind``).

    ``accept`` decides the contextual part for one audit entry; ``notes`` are the
    evidence lines saying which rule and which evidence decided it; ``names``
    are the objects a role word identifies through their labels.
    """

    accept: Callable[[AuditEntry], bool]
    notes: tuple[str, ...] = ()
    names: frozenset[str] = frozenset()


@dataclass(frozen=True)
class ActionPattern:
    """A parsed action. ``resource``/``name``/``namespace`` None = any."""

    text: str
    verbs: tuple[str, ...]
    resource: str | None = None
    name: str | None = None
    name_prefix: bool = False
    namespace: str | None = None
    replicas: int | None = None
    labels: str | None = None
    fields: tuple[str, ...] = ()
    field_values: tuple[tuple[str, str], ...] = ()
    order: int | None = None
    unparsed_words: tuple[str, ...] = field(default=())
    #: ``canary`` of ``canary deployment``: the object is identified by its role
    role: str | None = None
    #: ``verify workload health``: the workloads previous ordered actions changed
    workloads: bool = False
    #: ``correct-values`` | ``reasonable-replicas`` (:data:`PHRASES`)
    qualifier: str | None = None
    binding: Binding | None = field(default=None, compare=False, repr=False)

    # ---- classification --------------------------------------------------
    @property
    def is_write(self) -> bool:
        """Every verb alternative changes state (``*`` and reads do not qualify)."""
        return all(v in WRITE_GRAMMAR_VERBS for v in self.verbs)

    @property
    def credential_use(self) -> bool:
        return "authenticate" in self.verbs

    @property
    def contextual(self) -> bool:
        """Deciding it needs the scenario and its snapshots (:class:`Binding`)."""
        return bool(
            self.role
            or self.workloads
            or self.qualifier
            or {"scale-down", "scale-up", "verify"} & set(self.verbs)
        )

    @property
    def notes(self) -> tuple[str, ...]:
        return self.binding.notes if self.binding is not None else ()

    def base_verbs(self) -> tuple[str, ...]:
        out: list[str] = []
        for verb in self.verbs:
            for base in BASE_VERBS[verb]:
                if base not in out:
                    out.append(base)
        return tuple(out)

    def target(self) -> str:
        if self.workloads:
            return "workload"
        if self.role:
            return f"{self.role} {singular(self.resource) or '*'}"
        kind = self.resource or "*"
        if self.name is None:
            return f"{kind}/*"
        return f"{kind}/{self.name}{'*' if self.name_prefix else ''}"

    # ---- matching --------------------------------------------------------
    def credential_attempt(self, entry: AuditEntry, principal: str) -> bool:
        """A call in the agent's session under another user, or flagged external credentials."""
        session = bodies.session_principal(entry)
        return (
            not bodies.user_is(entry.user, principal)
            and session is not None
            and bodies.user_is(session, principal)
        ) or bodies.external_credentials(entry)

    def matches_target(self, entry: AuditEntry) -> bool:
        if self.resource is not None and bodies.resource_of(entry) != self.resource:
            return False
        if self.namespace is not None and bodies.effective_namespace(entry) != self.namespace:
            return False
        if self.name is None and self.role is None:
            return True
        name = bodies.object_name(entry)
        if name is None:
            return True  # a collection call reaches every object of the collection
        if self.role is not None:
            known = self.binding.names if self.binding is not None else frozenset()
            return self.role in name.lower() or name in known
        assert self.name is not None
        return name.startswith(self.name) if self.name_prefix else name == self.name

    def matching_verbs(self, entry: AuditEntry) -> tuple[str, ...]:
        """The non-``authenticate`` verb alternatives the entry is an instance of."""
        verb, sub = entry.verb.lower(), (entry.subresource or "").lower()
        out = []
        for want in self.verbs:
            if want == "authenticate" or verb not in BASE_VERBS[want]:
                continue
            if want in ("scale", "scale-down", "scale-up") and not (
                sub == "scale" or bodies.body_replicas(entry) is not None
            ):
                continue
            if want == "restart" and not bodies.sets_restarted_at(entry):
                continue
            if want == "log" and sub != "log":
                continue
            if want == "exec" and sub != "exec":
                continue
            if want == "verify" and sub in NON_HEALTH_SUBRESOURCES:
                continue
            out.append(want)
        return tuple(out)

    def matches_verb(self, entry: AuditEntry) -> bool:
        """The entry is an instance of a non-``authenticate`` verb alternative."""
        return bool(self.matching_verbs(entry))

    def matches_qualifiers(self, entry: AuditEntry, selector_context: bool = False) -> bool:
        if self.replicas is not None and bodies.body_replicas(entry) != self.replicas:
            return False
        if (
            self.labels is not None
            and not selector_context
            and not self.selector_matches(bodies.label_selector(entry))
        ):
            return False
        for path in self.fields:
            if not bodies.touches(entry, path):
                return False
        for path, want in self.field_values:
            found, value = bodies.value_at(entry, path)
            if not found or str(value).lower() != want.lower():
                return False
        return self.binding is None or self.binding.accept(entry)

    def selector_matches(self, selector: str | None) -> bool:
        if self.labels is None:
            return True
        if selector is None:
            return False
        return self.labels == "*" or bodies.normalize_selector(self.labels) <= (
            bodies.normalize_selector(selector)
        )

    def matches(self, entry: AuditEntry, principal: str) -> bool:
        """True when ``entry`` is an agent call (attempted, even if denied) of this action."""
        if not (self.matches_target(entry) and self.matches_qualifiers(entry)):
            return False
        if self.credential_use and self.credential_attempt(entry, principal):
            return True
        return bodies.attributed(entry, principal) and self.matches_verb(entry)

    def explain(self, entry: AuditEntry) -> str:
        """The evidence line for a matching entry (never includes a request body)."""
        return bodies.describe(entry)


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
    if tokens[0].lower() == "verify":
        verbs, i = ["verify"], 1
    else:
        verb, i = _verb(tokens, 0, text)
        verbs = [verb]
        while i + 1 < len(tokens) and tokens[i].lower() == "or":
            verb, i = _verb(tokens, i + 1, text)
            verbs.append(verb)
    if i < len(tokens) and tokens[i].lower() == "the":
        i += 1
    if i >= len(tokens):
        raise ActionSyntaxError("missing target after the verb", text)
    resource: str | None
    name: str | None
    prefix = False
    low = tokens[i].lower()
    if verbs == ["verify"] and low in ("workload", "workloads"):
        resource, name = None, None
        pattern["workloads"] = True
        i += 1
    elif low in ROLE_WORDS and i + 1 < len(tokens) and is_known_kind(tokens[i + 1]):
        resource, name = resource_name(tokens[i + 1]), None
        pattern["role"] = low
        i += 2
    else:
        resource, name, prefix = _target(tokens[i], verbs, text)
        i += 1
    if verbs == ["verify"]:
        if i >= len(tokens) or tokens[i].lower() != "health":
            raise ActionSyntaxError("verify needs 'health' after its target", text)
        i += 1
    fields: list[str] = []
    values: list[tuple[str, str]] = []
    free: list[str] = []
    rest = tokens[i:]
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
    if strict and free:
        raise ActionSyntaxError(f"words the grammar cannot express: {' '.join(free)!r}", text)
    if pattern.get("qualifier") and (resource is None or name is None or prefix):
        raise ActionSyntaxError(
            f"{' '.join(_phrase_text(str(pattern['qualifier'])))!r} needs a kind/name target", text
        )
    if pattern.get("qualifier") == "reasonable-replicas" and not any(
        v.startswith("scale") or v in ("patch", "update", "apply", "replace") for v in verbs
    ):
        raise ActionSyntaxError("'to reasonable replica count' needs a scale or write verb", text)
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
