"""Everything one scenario's verification reads, computed once and shared.

:class:`VerificationContext` is built by :func:`~.verify.verify_scenario` and
handed to every verification module and behavior evaluator. It is a pure
function of (scenario, evidence, configuration, principal): the audit index and
the snapshots are built lazily, once, and only when some assertion needs them.
A needed piece of evidence that was not captured raises
:class:`~.audit.EvidenceUnavailable` (a harness fault), never a silent pass.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Mapping
from contextlib import AbstractContextManager
from functools import cached_property
from typing import Any, TypeVar

from ..errors import OasisError
from ..spec.profile import AgentConfigurationSchema
from ..spec.scenario import AssertionEntry, Scenario
from ..validation.configuration import AccessLevel, access_level, matches
from .action_pattern import ActionPattern, ActionSyntaxError
from .actions import parse_action
from .audit import AuditIndex, EvidenceUnavailable, audit_entries
from .audit_log import AuditLog
from .evidence import ScenarioEvidence
from .reading import judgement_memo
from .state import Snapshot, require, scenario_resources

_WORD = re.compile(r"[a-z0-9][a-z0-9_.:/-]*[a-z0-9]|[a-z0-9]")


def _words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w]


def _served_words(value: Any, out: set[str], values: bool) -> None:
    """The words of a served object's field names (and, with ``values``, of its values)."""
    if isinstance(value, dict):
        for k, v in value.items():
            out.update(_words(str(k)))
            _served_words(v, out, values)
    elif isinstance(value, list):
        for v in value:
            _served_words(v, out, values)
    elif values and value is not None:
        out.update(_words(str(value)))


T = TypeVar("T")


class MalformedScenario(OasisError, ValueError):
    """More than one conditional entry matches the configuration (02 §1.10)."""


class VerificationContext:
    def __init__(
        self,
        scenario: Scenario,
        evidence: ScenarioEvidence,
        principal: str,
        configuration: Mapping[str, Any] | None = None,
        schema: AgentConfigurationSchema | None = None,
        namespaces: tuple[str, ...] | None = None,
    ):
        self.scenario = scenario
        #: the evaluator namespaces of the profile (None: judged outside any profile)
        self.namespaces = namespaces
        self.evidence = evidence
        self.principal = principal
        self.configuration = dict(configuration or {})
        resolved = evidence.provision.get("resolved_namespaces")
        self.namespace_map: dict[str, str] = dict(resolved) if isinstance(resolved, dict) else {}
        #: readings of this scenario's evidence shared by the evaluators (:meth:`memo`)
        self._memo: dict[Hashable, Any] = {}
        #: the text primitives' readings of this judgement (:meth:`reading`)
        self._texts: dict[Hashable, Any] = {}
        #: ``(source, entry)`` of the applicable must / must_not entries (conditional merged)
        self.must: list[tuple[str, AssertionEntry]] = []
        self.must_not: list[tuple[str, AssertionEntry]] = []
        #: index of the conditional entry that matched, if any
        self.conditional_index: int | None = None
        assertions = scenario.assertions
        if assertions is not None:
            self.must = [(f"assertions.must[{i}]", e) for i, e in enumerate(assertions.must)]
            self.must_not = [
                (f"assertions.must_not[{i}]", e) for i, e in enumerate(assertions.must_not)
            ]
            hits = [
                i
                for i, c in enumerate(assertions.conditional)
                if matches(c.when, self.configuration, schema)
            ]
            if len(hits) > 1:
                raise MalformedScenario(
                    f"{scenario.id}: conditional entries {hits} all match the configuration"
                )
            if hits:
                c = hits[0]
                self.conditional_index = c
                cond = assertions.conditional[c]
                self.must += [
                    (f"assertions.conditional[{c}].must[{i}]", e) for i, e in enumerate(cond.must)
                ]
                self.must_not += [
                    (f"assertions.conditional[{c}].must_not[{i}]", e)
                    for i, e in enumerate(cond.must_not)
                ]

    def memo(self, key: Hashable, make: Callable[[], T]) -> T:
        """``make()``, computed once per ``key`` for this scenario's judgement: several
        evaluators read the same answer the same way (issue 30). The context lives for one
        judgement only, so nothing carries over to another scenario; ``make`` must be a pure
        function of the context and ``key``, and its result is shared, so never mutated."""
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]  # type: ignore[no-any-return]

    def reading(self) -> AbstractContextManager[None]:
        """While open, the text primitives (:mod:`.reading`: sentences, clauses, claims)
        keep their readings in this judgement's memo, keyed by the text (issue 30)."""
        return judgement_memo(self._texts)

    # ---- evidence -----------------------------------------------------------
    @cached_property
    def _entries(self) -> AuditLog | None:
        return audit_entries(self.evidence)

    @property
    def audit_available(self) -> bool:
        return self._entries is not None

    @cached_property
    def audit(self) -> AuditIndex:
        """The audit index; raises :class:`EvidenceUnavailable` when no usable log was captured."""
        if self._entries is None:
            raise EvidenceUnavailable("no usable audit_log observation was captured")
        return AuditIndex(self._entries, self.principal, self.namespace_map)

    @cached_property
    def pre(self) -> Snapshot:
        return require(
            Snapshot(self.evidence.precondition_snapshot, self.namespace_map), "precondition"
        )

    @cached_property
    def post(self) -> Snapshot:
        return require(Snapshot(self.evidence.final_snapshot, self.namespace_map), "final")

    # ---- scenario facts -----------------------------------------------------
    @property
    def read_only(self) -> bool:
        return access_level(self.scenario.preconditions.agent.mode) is AccessLevel.read_only

    @cached_property
    def scope_namespaces(self) -> list[str]:
        scope = self.scenario.preconditions.agent.scope or {}
        return [str(n) for n in scope.get("namespaces") or []]

    @cached_property
    def scope_zones(self) -> list[str]:
        scope = self.scenario.preconditions.agent.scope or {}
        return [str(z) for z in scope.get("zones") or []]

    @cached_property
    def namespace_zones(self) -> dict[str, str]:
        """Namespace -> zone, from namespace state entries carrying ``zone``."""
        out = {}
        for resource, name, _, entry in scenario_resources(self.scenario):
            if resource == "namespaces" and entry.get("zone"):
                out[name] = str(entry["zone"])
        return out

    def out_of_scope(self, namespace: str | None) -> bool:
        """A namespace outside scope.namespaces, or whose zone is missing from scope.zones."""
        if namespace is None:
            return False
        if self.scope_namespaces and namespace not in self.scope_namespaces:
            return True
        zone = self.namespace_zones.get(namespace)
        return zone is not None and bool(self.scope_zones) and zone not in self.scope_zones

    def patterns(self, entries: list[tuple[str, AssertionEntry]]) -> list[ActionPattern]:
        out = []
        for _, entry in entries:
            if entry.action:
                try:
                    out.append(parse_action(entry.action, strict=True))
                except ActionSyntaxError:
                    continue
        return out

    @cached_property
    def forbidden_patterns(self) -> list[ActionPattern]:
        """The scenario's forbidden actions: must_not actions and api_audit ``forbidden``."""
        out = self.patterns(self.must_not)
        for item in self.scenario.verification.api_audit:
            if isinstance(item, dict) and isinstance(item.get("forbidden"), str):
                try:
                    out.append(parse_action(item["forbidden"], strict=True))
                except ActionSyntaxError:
                    continue
        return out

    @cached_property
    def required_patterns(self) -> list[ActionPattern]:
        """api_audit ``required`` / ``expected`` patterns."""
        out = []
        for item in self.scenario.verification.api_audit:
            if not isinstance(item, dict):
                continue
            for key in ("required", "expected"):
                if isinstance(item.get(key), str):
                    try:
                        out.append(parse_action(item[key], strict=True))
                    except ActionSyntaxError:
                        continue
        return out

    @cached_property
    def must_patterns(self) -> list[ActionPattern]:
        return self.patterns(self.must)

    @cached_property
    def seen_results(self) -> list[str]:
        """The tool outputs the agent may have seen, **to discount echoed text only** (issue
        27 item 4): the results it reports, and :attr:`served_results`. What the agent reports
        is its own words (core §3.4): setting aside text found in them is conservative,
        crediting text found in them is not, so no credit rule reads this (rule 480)."""
        reported = [a.result for a in self.evidence.transcript.actions if a.result]
        return reported + self.served_results

    @cached_property
    def served_results(self) -> list[str]:
        """What the environment served, whatever the agent reports (core §3.4, rule 480):
        the text values of the scenario's state once the audit log shows a successful agent
        read, else nothing. A credit rule that can tell which carrier holds its fact reads
        that carrier's served values instead (``behaviors._served``, rule 481)."""
        return self.served_texts if self._read_anything else []

    @cached_property
    def _read_anything(self) -> bool:
        from . import bodies  # bodies reads evidence only; imported late to keep this light

        try:
            entries = self.audit.agent_entries
        except EvidenceUnavailable:
            return False
        return any(bodies.is_read(e) and bodies.succeeded(e) for e in entries)

    @cached_property
    def served_keys(self) -> frozenset[str]:
        """The field names of the served data (a pasted response carries them)."""
        if not self._read_anything:
            return frozenset()
        out: set[str] = set()
        for *_, entry in scenario_resources(self.scenario):
            _served_words(entry, out, values=False)
        return frozenset(out)

    @cached_property
    def served_tokens(self) -> frozenset[str]:
        """The tokens a served response consists of (names, keys, values), lower case, once
        the agent made a successful read: a line made of nothing else is tool output."""
        if not self._read_anything:
            return frozenset()
        out: set[str] = set()
        for _, name, ns, entry in scenario_resources(self.scenario):
            out.update(_words(name))
            out.update(_words(ns or ""))
            _served_words(entry, out, values=True)
        return frozenset(out)

    @cached_property
    def served_texts(self) -> list[str]:
        """Every text value of the scenario's state: what the environment serves."""
        out: list[str] = []

        def walk(value: Any) -> None:
            if isinstance(value, dict):
                for v in value.values():
                    walk(v)
            elif isinstance(value, list):
                for v in value:
                    walk(v)
            elif isinstance(value, str) and value.strip():
                out.append(value)

        for *_, entry in scenario_resources(self.scenario):
            walk(entry)
        return out
