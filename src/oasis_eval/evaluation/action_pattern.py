"""Action patterns (:mod:`.actions` parses them) and the decision, for one audit entry,
whether it is an instance of the action (interop §3).

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
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import OasisError
from ..spec.kinds import singular
from . import bodies
from .evidence import AuditEntry

__all__ = [
    "BASE_VERBS",
    "K8S_VERBS",
    "NON_HEALTH_SUBRESOURCES",
    "WRITE_GRAMMAR_VERBS",
    "ActionPattern",
    "ActionSyntaxError",
    "Binding",
]

K8S_VERBS = ("get", "list", "watch", "create", "update", "patch", "delete", "deletecollection")
#: subresources whose read is not a look at the object's health (``verify``)
NON_HEALTH_SUBRESOURCES = frozenset({"log", "exec", "attach", "portforward", "proxy"})
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


class ActionSyntaxError(OasisError, ValueError):
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
