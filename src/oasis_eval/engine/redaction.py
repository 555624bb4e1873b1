"""Secrets and containment values never reach disk (08 §3.2, core §3.5.5).

At capture time every registered literal is replaced by a stable marker in transcripts,
tool calls, audit entries and snapshots. The forms that *are* the value (raw, base64 and,
for a value stored base64-encoded, its plaintext) get ``[REDACTED:<keyed hash>]``; the
containment check searches for that marker, so replay reproduces its verdict while no
output file holds the value. Re-encoded forms (hex, rot13, base64 inside a longer payload,
... :mod:`.encoded_forms`) get ``[REDACTED:<keyed hash>:<encoding>]``: redacted too, and
flagged in the report, but never deciding containment (01 §3.5.5 is a literal match).
The key is random per run and never stored.

Where a value counts as occurring (issue 19 item 3): a form of :data:`WHOLE_TOKEN_BELOW` or
more characters is redacted wherever it occurs, inside a longer string included; a shorter
form only where it stands as a whole token (:func:`token_pattern`), so a 5-letter secret
``admin`` is redacted in ``password: admin`` and in the Secret's own field, never inside
``cluster-admin`` or ``admin.example.com``. Containment (core §3.5.5) decides on the
marker, so a short value leaked as itself is still found. A short form is registered only
for the scenario that declares it (``short_forms=False`` for the run-wide registration of
every scenario's secrets): elsewhere in the run it is an ordinary word, not that secret. In
environment state (:meth:`Redactor.state`: snapshots, the profile's declared state) a short
form is redacted only inside the Secret objects themselves, so a ClusterRole named ``admin``
keeps its name; in what the agent said and sent (its transcript, and the audit entries it
authored), as a whole token.

The prefilter that keeps this fast is :mod:`.redaction_search`; which credential strings
are secrets, :mod:`.credential_secrets`; the secret values a scenario declares,
:mod:`.declared_secrets`; a value's forms, :mod:`.secret_forms`.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .declared_secrets import resolve_value_ref, secret_literals, walk_path
from .encoded_forms import encoded_forms, factored
from .redaction_merge import bytes_each_of, bytes_heads, merged, root_of
from .redaction_search import (
    NARROW_ABOVE,
    NARROW_ITEMS,
    RUN,
    NotPlain,
    compiled_pattern,
    either,
    items_holding,
    one_of,
    plain_bytes,
    searchers,
)
from .secret_forms import deciding_forms, is_encoded_marker, token_pattern

__all__ = [
    "MIN_LENGTH",
    "PREFIX",
    "WHOLE_TOKEN_BELOW",
    "Redactor",
    "deciding_forms",
    "is_encoded_marker",
    "resolve_value_ref",
    "secret_literals",
    "walk_path",
]

MIN_LENGTH = 4  # shorter literals would redact ordinary words
#: forms shorter than this are redacted only as whole tokens (common words survive)
WHOLE_TOKEN_BELOW = 8
#: the prefilter searches a string for this many leading characters of each form
PREFIX = 16
#: and a structure's bytes (:func:`.plain_bytes`) for this many: a longer needle is a faster scan (``bytes.find``
#: skips ahead by about its length when a byte cannot end it; over a snapshot's bytes 64
#: characters scan in 55% of the time of 16, issue 30), and holding the form still holds it
BYTES_PREFIX = 64
#: literals whose derived forms the run-wide redactor keeps (:meth:`Redactor._derivations`)
DERIVED_KEPT = 4096
#: keys of a mapping redaction state looks at (a Secret's kind, an audit entry's verb and user)
_STATE_KEYS = frozenset({"kind", "resource", "verb", "user"})


def _held(item: Any) -> tuple[tuple[Any, ...], tuple[int, ...]] | None:
    """A mapping's keys in order and the ids of the objects it holds (None for anything
    else): two mappings alive together with the same are the same JSON value."""
    if type(item) is not dict:
        return None
    return tuple(item), tuple(map(id, item.values()))


@dataclass(frozen=True)
class StateDone:
    """A list redacted by :meth:`Redactor.state_done`, kept (its ids stay its own), with what
    it was redacted to and the forms and patterns used."""

    raw: list[Any]
    redacted: list[Any]
    forms: tuple[dict[str, str], dict[str, str]]


@dataclass
class Redactor:
    key: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    #: literal form -> marker, longest first when applied
    forms: dict[str, str] = field(default_factory=dict)
    #: regex form (letter-spaced, separated hex bytes) -> marker, applied after the literals
    patterns: dict[str, str] = field(default_factory=dict)
    _order: list[str] = field(default_factory=list, repr=False)
    _compiled: list[tuple[Any, str]] | None = field(default=None, repr=False)
    #: one trie-shaped alternation of every form: does a string hold any form at all (prefilter)
    _search: Any = field(default=None, repr=False)
    _shortest: int = field(default=0, repr=False)
    #: the same over UTF-8 (None if some form has no UTF-8 encoding): a form occurs in some
    #: string of a structure exactly when its bytes occur in the structure's marshal bytes
    _search_bytes: Any = field(default=None, repr=False)
    _prepared: int = field(default=-1, repr=False)
    #: regex form -> the regex of its first units (the prefilter's share of it)
    _prefixes: dict[str, str] = field(default_factory=dict, repr=False)
    #: the run-wide redactor a scoped copy was made from (its prefilter is reused)
    _base: Redactor | None = field(default=None, repr=False)
    #: short form -> its whole-token regex, compiled on first use
    _tokens: dict[str, Any] = field(default_factory=dict, repr=False)
    #: this redactor without its short forms (for environment state), with the form count it had
    _long: tuple[int, Redactor] | None = field(default=None, repr=False)
    #: the prefilter's regexes as UTF-8 (of that form count), the list items found clean
    _heads: tuple[int, list[bytes], set[bytes]] | None = field(default=None, repr=False)
    #: the literal heads over bytes: the base's (an automaton), then its own (issue 30)
    _automata: tuple[Any, ...] | None = field(default=None, repr=False)
    #: literal -> (marker, deciding forms, re-encoded forms once asked for), on the run-wide
    #: redactor: every scenario registers the same issued CA certificate again (issue 30)
    _derived: dict[str, list[Any]] = field(default_factory=dict, repr=False)
    #: (form count, whether some form is short) for :meth:`state`
    _short: tuple[int, bool] | None = field(default=None, repr=False)
    #: the bytes heads of ``_automata`` when it is one automaton and nothing else; the bytes
    #: search of the regex forms alone (:meth:`_prepare`, :mod:`.redaction_merge`)
    _dfa_heads: tuple[bytes, ...] | None = field(default=None, repr=False)
    _regex_bytes: Any = field(default=None, repr=False)
    #: on the run-wide redactor: each bytes head of a scoped copy -> the copy that had it
    #: first, and the copies numbered so far (:func:`.redaction_merge.recurring`)
    _first_seen: dict[bytes, int] = field(default_factory=dict, repr=False)
    _copies: int = field(default=0, repr=False)
    _serial: int = field(default=0, repr=False)
    #: on the run-wide redactor: the head sets merged into one automaton so far
    _merged_sets: set[tuple[bytes, ...]] = field(default_factory=set, repr=False)

    def marker_for(self, literal: str) -> str:
        digest = hmac.new(self.key, literal.encode(), hashlib.sha256).hexdigest()[:12]
        return f"[REDACTED:{digest}]"

    def register(
        self,
        literal: str,
        encodings: bool = True,
        patterns: bool = True,
        short_forms: bool = True,
    ) -> tuple[str, list[str]]:
        """Register a literal in every form; returns (marker, names of the deciding forms).

        ``encodings``: also its re-encoded forms (flagged, not deciding); ``patterns``: its
        regex forms among them (letter-spaced, separated hex bytes); ``short_forms``: also
        the deciding forms under :data:`WHOLE_TOKEN_BELOW` (whole tokens). A deciding form
        replaces a re-encoded one registered earlier for another value (a probe may declare
        the hex of a secret as a contained value of its own)."""
        literal = str(literal)
        derived = self._derivations(literal)
        marker, deciding = derived[0], derived[1]
        names = []
        for name, form in deciding:
            if len(form) >= (MIN_LENGTH if short_forms else WHOLE_TOKEN_BELOW):
                current = self.forms.get(form)
                if current is None or is_encoded_marker(current):
                    self.forms[form] = marker  # new, or so far only a re-encoded form
                names.append(name)
        if encodings:
            if derived[2] is None:
                plain = next((f for n, f in deciding if n == "decoded"), literal)
                derived[2] = encoded_forms(plain, {f for _, f in deciding})
            literals, regex_forms = derived[2]
            flagged = marker[:-1] + ":{}]"
            for name, form in literals:
                self.forms.setdefault(form, flagged.format(name))
            for name, pattern, prefix in regex_forms if patterns else []:
                self.patterns.setdefault(pattern, flagged.format(name))
                self._prefixes.setdefault(pattern, prefix)
        return marker, names

    def _derivations(self, literal: str) -> list[Any]:
        """[marker, deciding forms, re-encoded forms or None] of ``literal``: pure functions of
        it and the key, kept by the run-wide redactor its scoped copies share the key of."""
        root = self
        while root._base is not None and root._base.key == root.key:
            root = root._base
        derived = root._derived.get(literal)
        if derived is None:
            derived = [self.marker_for(literal), deciding_forms(literal), None]
            if len(root._derived) < DERIVED_KEPT:
                root._derived[literal] = derived
        return derived

    def scoped(self) -> Redactor:
        """A copy for one scenario, to register what only it needs (the credentials the
        provider issued for its environment), so the run-wide set of forms does not grow
        per scenario. Its prefilter reuses this one's and compiles only the added forms."""
        root = root_of(self)
        root._copies += 1
        return Redactor(
            key=self.key,
            forms=dict(self.forms),
            patterns=dict(self.patterns),
            _prefixes=dict(self._prefixes),
            _base=self,
            _serial=root._copies,
        )

    def _prepare(self) -> None:
        """Sort the forms (longest first) and compile the prefilter, once per change.

        The prefilter looks for the first :data:`PREFIX` characters of each form in a
        string, the first :data:`BYTES_PREFIX` in a structure's bytes (and the first units of each regex
        form): whatever holds a form holds its prefix, and the regex stays short. Each text that holds a prefix is then checked form by form."""
        self._order = sorted(self.forms)  # then longest first, stable: (-len, form)
        self._order.sort(key=len, reverse=True)
        self._compiled = None
        base = self._base if self._base is not None and self._base._ready() else None
        forms = [f for f in self.forms if base is None or f not in base.forms]
        patterns = [p for p in self.patterns if base is None or p not in base.patterns]
        search, search_bytes, self._shortest, own = searchers(
            sorted({f[:PREFIX] for f in forms}),
            sorted({self._prefixes.get(p, p) for p in patterns}),
            sorted({f[:BYTES_PREFIX] for f in forms}),
            dfa=self._base is None,  # the run-wide redactor's, built once a run
        )
        automata = None if search_bytes is None else (() if own is None else (own,))
        self._dfa_heads = None
        regex_bytes = bytes_each_of(patterns, self._prefixes) if search_bytes is not None else None
        if base is not None and (forms or patterns):
            search, search_bytes = (
                either(base._search, search),
                either(base._search_bytes, search_bytes),
            )
            self._shortest = min(self._shortest, base._shortest)
            automata = None if base._automata is None else (*base._automata, *(automata or ()))
            regex_bytes = one_of(base._regex_bytes, regex_bytes)
            if search_bytes is not None and automata is not None and isinstance(own, tuple):
                search_bytes, automata = merged(
                    self, base, own, regex_bytes, search_bytes, automata
                )
        elif base is not None:
            search, search_bytes, self._shortest = base._search, base._search_bytes, base._shortest
            automata, regex_bytes = base._automata, base._regex_bytes
            self._dfa_heads = base._dfa_heads
        elif own is not None and not isinstance(own, tuple):
            self._dfa_heads = bytes_heads(forms, BYTES_PREFIX)  # the run-wide automaton's heads
        self._search, self._search_bytes = search, search_bytes
        self._automata = automata if search_bytes is not None else None
        self._regex_bytes = regex_bytes
        self._prepared = len(self.forms) + len(self.patterns)

    def _ready(self) -> bool:
        if not self.forms and not self.patterns:
            return False
        if self._prepared != len(self.forms) + len(self.patterns):  # registered since, or given
            self._prepare()
        return True

    def text(self, value: str) -> str:
        if not value or not self._ready():
            return value
        if len(value) < self._shortest or not self._search(value):
            return value  # no form occurs, so no replacement below could happen
        for form in self._order:  # longest first, one after the other (later forms see markers)
            if form in value:
                if len(form) >= WHOLE_TOKEN_BELOW:
                    value = value.replace(form, self.forms[form])
                else:
                    value = self._token(form).sub(self.forms[form], value)
        if self._compiled is None:  # compiled on the first hit only: most runs never need them
            self._compiled = [(compiled_pattern(p), m) for p, m in sorted(self.patterns.items())]
        for pattern, marker in self._compiled:
            value = pattern.sub(marker, value)
        return value

    def state(self, value: Any, authored: Callable[[dict[str, Any]], bool] | None = None) -> Any:
        """Environment state (a snapshot's resources, declared state entries, observations):
        every long form anywhere, the short forms only inside Secret objects and inside the
        mappings ``authored`` says the agent wrote (its audit entries; see the module docstring).
        ``authored`` never says so of a mapping with neither ``verb`` nor ``user``."""
        if not self._has_short():
            return self.data(value)
        if self._long is None or self._long[0] != len(self.forms) + len(self.patterns):
            long_only = Redactor(
                key=self.key,
                forms={f: m for f, m in self.forms.items() if len(f) >= WHOLE_TOKEN_BELOW},
                patterns=dict(self.patterns),
                _prefixes=dict(self._prefixes),
                _base=self._base,
                _serial=self._serial,  # its heads are this copy's own, not another's
            )
            self._long = (len(self.forms) + len(self.patterns), long_only)
        return self._state(value, self._long[1], authored)

    def _has_short(self) -> bool:
        """Whether some form is shorter than :data:`WHOLE_TOKEN_BELOW`, kept per form count
        (forms are only ever added: ``register``): asked for every state redacted (issue 30)."""
        if self._short is None or self._short[0] != len(self.forms):
            short = any(len(form) < WHOLE_TOKEN_BELOW for form in self.forms)
            self._short = (len(self.forms), short)
        return self._short[1]

    def state_since(self, value: Any, earlier: StateDone) -> Any:
        """``state(value)`` of a list, each item holding the very objects of an item of a list
        redacted before (the lean wire's final snapshot shares the precondition snapshot's
        unchanged resources) taken as that item was then, the forms being the same (state
        takes a list's items one by one): only the others are redacted (issue 30)."""
        if not isinstance(value, list) or (self.forms, self.patterns) != earlier.forms:
            return self.state(value)
        at = {_held(item): index for index, item in enumerate(earlier.raw)}
        at.pop(None, None)
        found = [at.get(_held(item)) for item in value]
        fresh = [j for j, index in enumerate(found) if index is None]
        out = [
            item if index is None else earlier.redacted[index]
            for item, index in zip(value, found, strict=True)
        ]
        if fresh:
            for j, item in zip(fresh, self.state([value[j] for j in fresh]), strict=True):
                out[j] = item
        return out

    def state_done(self, value: list[Any]) -> StateDone:
        """``state(value)`` of a list, kept with what it was redacted from and with (for
        :meth:`state_since`)."""
        return StateDone(value, self.state(value), (dict(self.forms), dict(self.patterns)))

    def _state(
        self, value: Any, long: Redactor, authored: Callable[[dict[str, Any]], bool] | None
    ) -> Any:
        """``_secrets_in(long.data(value))``, without the two walks over what holds no form
        (issue 30): a list's items are searched for every form at once (one dump, one scan
        per form), an item holding none is kept as it is, which is what both passes give it;
        the others take both passes as before. So does a mapping that could be a Secret or
        an audit entry; any other mapping (an observation's) is taken key by key."""
        if isinstance(value, list):
            hits = self._holding(value)
            if hits is None:
                return self._secrets_in(long.data(value), authored)
            out = []
            for index, item in enumerate(value):
                if index in hits:
                    item = long.data(item)
                    item = self._secrets_in(item, authored) if self._may_hold(item) else item
                out.append(item)
            return out
        if isinstance(value, dict) and not _STATE_KEYS.intersection(value):
            # neither a Secret nor an audit entry, before or after the long forms (a form
            # is at least 8 characters: "secret", "verb" and "user" hold none)
            return {
                long.text(k) if isinstance(k, str) else k: self._state(v, long, authored)
                for k, v in value.items()
            }
        return self._secrets_in(long.data(value), authored)

    def _holding(self, items: list[Any]) -> set[int] | None:
        """The indices of ``items`` some form may occur in; None when that cannot be told."""
        if not self._ready() or self._search_bytes is None:
            return None
        prepared = len(self.forms) + len(self.patterns)
        if self._heads is None or self._heads[0] != prepared:
            try:
                heads = factored({self._prefixes.get(p, p) for p in self.patterns})
                regexes = [head.encode("utf-8") for head in heads]
            except UnicodeEncodeError:
                return None
            self._heads = (prepared, regexes, set())
        if self._automata is None:
            return None
        try:
            return items_holding(items, self._automata, self._heads[1], self._heads[2])
        except NotPlain:
            return None

    def _secrets_in(self, value: Any, authored: Callable[[dict[str, Any]], bool] | None) -> Any:
        if isinstance(value, list):  # a list's items (resources, audit entries): the prefilter
            # first, one search of each item's bytes; an item with no form is kept as it is,
            # which is what walking it would give (issue 30: walking every snapshot was 5 ms
            # of CPU per scenario)
            return [self._secrets_in(v, authored) if self._may_hold(v) else v for v in value]
        if not isinstance(value, dict):
            return value
        kind = str(value.get("kind") or str(value.get("resource", "")).partition("/")[0])
        if kind.lower() == "secret" or (authored is not None and authored(value)):
            return self.data(value)
        return {k: self._secrets_in(v, authored) for k, v in value.items()}

    def _may_hold(self, value: Any) -> bool:
        """Whether some form may occur in ``value`` (a dict or list): False only when the
        prefilter finds none in its bytes."""
        if not isinstance(value, (dict, list)) or not self._ready():
            return True
        if self._search_bytes is None:
            return True
        try:
            return bool(self._search_bytes(plain_bytes(value)))
        except NotPlain:
            return True

    def _token(self, form: str) -> Any:
        pattern = self._tokens.get(form)
        if pattern is None:
            pattern = self._tokens[form] = token_pattern(form)
        return pattern

    def data(self, value: Any) -> Any:
        """Redact every string inside nested JSON-like data (keys included).

        A container none of whose strings holds a form is kept as it is, not copied (08 §3.2
        only needs the forms gone): one search over the container's bytes, in C, tells.
        So only the containers on the way to a string holding a form are rebuilt.
        """
        if not self._ready():
            return value
        if isinstance(value, str):
            return self.text(value)
        if not isinstance(value, (dict, list)):
            return value
        if self._search_bytes is not None:
            try:
                if len(value) <= NARROW_ITEMS and not self._search_bytes(plain_bytes(value)):
                    return dict(value) if isinstance(value, dict) else list(value)  # one search
                return self._narrow(value)
            except NotPlain:
                pass  # not plain JSON-like data: walk it all
        return self._rebuild(value)

    def _narrow(self, value: dict[Any, Any] | list[Any]) -> Any:
        """A copy of ``value`` with its strings redacted; a child container whose bytes hold no
        form is kept, one that does rebuilt or narrowed (not searched again if found so)."""
        text, search = self.text, self._search_bytes

        def child(v: Any, found: bool = False) -> Any:
            if isinstance(v, str):
                return text(v)
            if isinstance(v, (dict, list)):
                if len(v) > NARROW_ITEMS:
                    return self._narrow(v)  # a long list (an audit log): no use pickling it whole
                dumped = plain_bytes(v)
                if found or search(dumped):
                    return self._narrow(v) if len(dumped) > NARROW_ABOVE else self._rebuild(v)
            return v

        def item(kv: tuple[Any, Any]) -> tuple[Any, Any]:
            return (text(kv[0]) if isinstance(kv[0], str) else kv[0]), child(kv[1])

        def runs(items: list[Any], each: Any, size: int) -> list[Any]:
            """One search per run of ``size`` items; runs that hold a form, in smaller runs."""
            if len(items) <= RUN:
                return [each(i) for i in items]
            out: list[Any] = []
            for start in range(0, len(items), size):
                run = items[start : start + size]
                if search(plain_bytes(run)):
                    out.extend(runs(run, each, RUN) if size > RUN else [each(i) for i in run])
                else:
                    out.extend(run)
            return out

        if isinstance(value, dict):
            return dict(runs(list(value.items()), item, RUN))
        hits = self._holding(value) if len(value) > RUN else None
        if hits is not None:  # one dump and one scan per form for the whole list
            return [child(v, True) if index in hits else v for index, v in enumerate(value)]
        return runs(value, child, NARROW_ITEMS)

    def _rebuild(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {
                self.text(k) if isinstance(k, str) else k: self._rebuild(v)
                for k, v in value.items()
            }
        if isinstance(value, list):
            return [self._rebuild(v) for v in value]
        return value
