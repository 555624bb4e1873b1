"""Secrets and containment values never reach disk (08 §3.2, core §3.5.5).

At capture time every registered literal is replaced by a stable marker in transcripts,
tool calls, audit entries and snapshots. The forms that *are* the value (raw, base64 and,
for a value stored base64-encoded, its plaintext) get ``[REDACTED:<keyed hash>]``; the
containment check searches for that marker, so replay reproduces its verdict while no
output file holds the value. Re-encoded forms (hex, rot13, base64 inside a longer payload,
... :mod:`.encoded_forms`) get ``[REDACTED:<keyed hash>:<encoding>]``: redacted too, and
flagged in the report, but never deciding containment (01 §3.5.5 is a literal match).
The key is random per run and never stored.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import hmac
import io
import pickle
import re
import secrets
from dataclasses import dataclass, field
from typing import Any

import yaml

from ..spec.yaml_io import YamlLimits, safe_load
from .encoded_forms import PATTERN_SHORTEST, encoded_forms

MIN_LENGTH = 4  # shorter literals would redact ordinary words
#: the prefilter searches for this many leading characters of each form
PREFIX = 16


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
    #: string of a structure exactly when its bytes occur in the structure's pickle
    _search_bytes: Any = field(default=None, repr=False)
    _prepared: int = field(default=-1, repr=False)
    #: regex form -> the regex of its first units (the prefilter's share of it)
    _prefixes: dict[str, str] = field(default_factory=dict, repr=False)
    #: the run-wide redactor a scoped copy was made from (its prefilter is reused)
    _base: Redactor | None = field(default=None, repr=False)

    def marker_for(self, literal: str) -> str:
        digest = hmac.new(self.key, literal.encode(), hashlib.sha256).hexdigest()[:12]
        return f"[REDACTED:{digest}]"

    def register(
        self, literal: str, encodings: bool = True, patterns: bool = True
    ) -> tuple[str, list[str]]:
        """Register a literal in every form; returns (marker, names of the deciding forms).

        ``encodings``: also its re-encoded forms (flagged, not deciding); ``patterns``: its
        regex forms among them (letter-spaced, separated hex bytes). A deciding form
        replaces a re-encoded one registered earlier for another value (a probe may declare
        the hex of a secret as a contained value of its own)."""
        literal = str(literal)
        marker = self.marker_for(literal)
        names = []
        deciding = deciding_forms(literal)
        for name, form in deciding:
            if len(form) >= MIN_LENGTH:
                current = self.forms.get(form)
                if current is None or is_encoded_marker(current):
                    self.forms[form] = marker  # new, or so far only a re-encoded form
                names.append(name)
        if encodings:
            plain = next((f for n, f in deciding if n == "decoded"), literal)
            literals, regex_forms = encoded_forms(plain, {f for _, f in deciding})
            flagged = marker[:-1] + ":{}]"
            for name, form in literals:
                self.forms.setdefault(form, flagged.format(name))
            for name, pattern, prefix in regex_forms if patterns else []:
                self.patterns.setdefault(pattern, flagged.format(name))
                self._prefixes.setdefault(pattern, prefix)
        return marker, names

    def scoped(self) -> Redactor:
        """A copy for one scenario, to register what only it needs (the credentials the
        provider issued for its environment), so the run-wide set of forms does not grow
        per scenario. Its prefilter reuses this one's and compiles only the added forms."""
        return Redactor(
            key=self.key,
            forms=dict(self.forms),
            patterns=dict(self.patterns),
            _prefixes=dict(self._prefixes),
            _base=self,
        )

    def _prepare(self) -> None:
        """Sort the forms (longest first) and compile the prefilter, once per change.

        The prefilter looks for the first :data:`PREFIX` characters of each form (and the
        first units of each regex form): whatever holds a form holds its prefix, and the
        regex stays short. Each text that holds a prefix is then checked form by form."""
        self._order = sorted(self.forms, key=lambda f: (-len(f), f))
        self._compiled = None
        base = self._base if self._base is not None and self._base._ready() else None
        forms = [f for f in self.forms if base is None or f not in base.forms]
        patterns = [p for p in self.patterns if base is None or p not in base.patterns]
        search, search_bytes, self._shortest = _searchers(
            sorted({f[:PREFIX] for f in forms}),
            sorted({self._prefixes.get(p, p) for p in patterns}),
        )
        if base is not None and (forms or patterns):
            search, search_bytes = (
                _either(base._search, search),
                _either(base._search_bytes, search_bytes),
            )
            self._shortest = min(self._shortest, base._shortest)
        elif base is not None:
            search, search_bytes, self._shortest = base._search, base._search_bytes, base._shortest
        self._search, self._search_bytes = search, search_bytes
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
                value = value.replace(form, self.forms[form])
        if self._compiled is None:  # compiled on the first hit only: most runs never need them
            self._compiled = [(_compiled(p), m) for p, m in sorted(self.patterns.items())]
        for pattern, marker in self._compiled:
            value = pattern.sub(marker, value)
        return value

    def data(self, value: Any) -> Any:
        """Redact every string inside nested JSON-like data (keys included).

        A container none of whose strings holds a form is kept as it is, not copied (08 §3.2
        only needs the forms gone): one search over the container's pickle, in C, tells.
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
                if len(value) <= _NARROW_ITEMS and not self._search_bytes(_pickle(value)):
                    return dict(value) if isinstance(value, dict) else list(value)  # one search
                return self._narrow(value)
            except _NotPlain:
                pass  # not plain JSON-like data: walk it all
        return self._rebuild(value)

    def _narrow(self, value: dict[Any, Any] | list[Any]) -> Any:
        """A copy of ``value`` with its strings redacted; a child container whose pickle holds
        no form is kept as it is, a small one that does is rebuilt, a big one narrowed."""
        text, search = self.text, self._search_bytes

        def child(v: Any) -> Any:
            if isinstance(v, str):
                return text(v)
            if isinstance(v, (dict, list)):
                if len(v) > _NARROW_ITEMS:
                    return self._narrow(v)  # a long list (an audit log): no use pickling it whole
                dumped = _pickle(v)
                if search(dumped):
                    return self._narrow(v) if len(dumped) > _NARROW_ABOVE else self._rebuild(v)
            return v

        def item(kv: tuple[Any, Any]) -> tuple[Any, Any]:
            return (text(kv[0]) if isinstance(kv[0], str) else kv[0]), child(kv[1])

        def runs(items: list[Any], each: Any, size: int) -> list[Any]:
            """One search per run of ``size`` items; runs that hold a form, in smaller runs."""
            if len(items) <= _RUN:
                return [each(i) for i in items]
            out: list[Any] = []
            for start in range(0, len(items), size):
                run = items[start : start + size]
                if search(_pickle(run)):
                    out.extend(runs(run, each, _RUN) if size > _RUN else [each(i) for i in run])
                else:
                    out.extend(run)
            return out

        if isinstance(value, dict):
            return dict(runs(list(value.items()), item, _RUN))
        return runs(value, child, _NARROW_ITEMS)

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


#: a container with a form whose pickle is longer is narrowed down child by child, a
#: shorter one rebuilt whole (walking it costs less than pickling its children again)
_NARROW_ABOVE = 2048
#: a container with more items is narrowed down without a pickle of its own; a long list
#: is searched in runs of this many items
_NARROW_ITEMS = 64
#: then the runs that hold a form, in runs of this many items, before item by item
_RUN = 8


class _NotPlain(Exception):
    """The data holds something other than dicts, lists, tuples, sets and scalars."""


class _PlainPickler(pickle.Pickler):
    """Pickles JSON-like data only. Exact dicts, lists, str, int, float, None, bool (and
    tuples, sets) never reach :meth:`reducer_override` (CPython's fast paths); anything else
    does and stops the pickle: a subclass or an object could hide its strings in its
    reduction. Every str is written whole as UTF-8 (a string seen twice is written once,
    which is enough: the search only asks whether some string holds a form)."""

    def reducer_override(self, obj: Any) -> Any:
        raise _NotPlain


def _pickle(value: Any) -> bytes:
    buffer = io.BytesIO()
    try:
        _PlainPickler(buffer, protocol=5).dump(value)
    except RecursionError:
        raise _NotPlain from None
    return buffer.getvalue()


@functools.lru_cache(maxsize=1024)
def _compiled(pattern: str) -> re.Pattern[str]:
    """A regex form, compiled once per run (every scenario's scoped copy shares it)."""
    return re.compile(pattern)


#: up to this many prefixes (and no regex form) are searched one by one, not compiled:
#: a scenario's credentials are searched without compiling a regex per scenario
FEW = 32


def _searchers(heads: list[str], regexes: list[str]) -> tuple[Any, Any, int]:
    """(search over str, search over UTF-8 bytes or None, shortest match) for the prefilter."""
    if not heads and not regexes:
        return (lambda _: None), (lambda _: None), 1 << 30
    if len(heads) <= FEW and not regexes:
        try:
            raw = [h.encode("utf-8") for h in heads]
            search_bytes: Any = lambda data: any(h in data for h in raw)  # noqa: E731
        except UnicodeEncodeError:
            search_bytes = None
        return (lambda text: any(h in text for h in heads)), search_bytes, min(map(len, heads))
    # the literal prefixes and the regex forms are two searches: one alternation of both
    # would lose the literal-prefix scan that makes the trie fast
    shortest = min(map(len, heads), default=1 << 30)
    if regexes:
        shortest = min(shortest, PATTERN_SHORTEST)
    search = _one_of(
        re.compile(_trie(heads)).search if heads else None,
        re.compile("|".join(regexes)).search if regexes else None,
    )
    try:
        search_bytes = _one_of(
            re.compile(_trie(sorted({h.encode("utf-8") for h in heads}))).search if heads else None,
            re.compile("|".join(regexes).encode("utf-8")).search if regexes else None,
        )
    except UnicodeEncodeError:  # a lone surrogate: strings are searched one by one
        search_bytes = None
    return search, search_bytes, shortest


def _one_of(first: Any, second: Any) -> Any:
    if first is None or second is None:
        return first or second
    return lambda data: first(data) or second(data)


def _either(first: Any, second: Any) -> Any:
    if first is None or second is None:
        return None
    return lambda data: first(data) or second(data)


def _trie(words: list[Any]) -> Any:
    """One regex source matching any of ``words`` (str or bytes), shaped as a trie.

    Python's ``re`` tries the branches of an alternation one after the other at every
    position; sharing prefixes makes that one branch per distinct next character."""
    bytes_mode = bool(words) and isinstance(words[0], bytes)
    root: dict[Any, Any] = {}
    for word in words:
        node = root
        for unit in (word[i : i + 1] for i in range(len(word))):
            node = node.setdefault(unit, {})
        node[None] = {}

    # str or bytes units, as the words are: Any lets one trie builder serve both
    units: tuple[Any, Any, Any, Any, Any] = (
        (b"", b"|", b"(?:", b")", b"?") if bytes_mode else ("", "|", "(?:", ")", "?")
    )
    empty, bar, opener, closer, opt = units

    def emit(node: dict[Any, Any]) -> Any:
        chain = empty  # a run of single children is one literal (no recursion per character)
        while len(node) == 1 and None not in node:
            unit = next(iter(node))
            chain += re.escape(unit)
            node = node[unit]
        alts = [
            re.escape(unit) + emit(node[unit]) for unit in sorted(k for k in node if k is not None)
        ]
        if not alts:
            return chain
        body = opener + bar.join(alts) + closer
        return chain + body + (opt if None in node else empty)

    return emit(root)


def is_encoded_marker(marker: str) -> bool:
    """``[REDACTED:<hash>:<encoding>]``: a re-encoded form, flagged but not deciding."""
    return marker.count(":") == 2


def deciding_forms(literal: str) -> list[tuple[str, str]]:
    """The forms that count as the value itself for containment (see Decisions)."""
    forms = [("raw", literal), ("base64", base64.b64encode(literal.encode()).decode())]
    try:  # a value declared already base64-encoded (Kubernetes Secret data): its decoded form too
        decoded = base64.b64decode(literal, validate=True).decode("utf-8")
        if decoded.isprintable() and decoded:
            forms.append(("decoded", decoded))
    except (binascii.Error, UnicodeDecodeError, ValueError):
        pass
    return forms


def secret_literals(state: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(value_ref, literal) for every value of every Secret declared in preconditions."""
    out = []
    for entry in state:
        resource = str(entry.get("resource", ""))
        if resource.split("/", 1)[0].lower() != "secret":
            continue
        for section in ("data", "stringData", "string_data"):
            data = entry.get(section)
            if isinstance(data, dict):
                for key, value in sorted(data.items()):
                    if value is not None:
                        out.append((f"{resource}.{section}.{key}", str(value)))
    return out


def resolve_value_ref(ref: str, state: list[dict[str, Any]]) -> Any:
    """``kind/name.path.to.field`` -> the value in the state entry (02 §1.6)."""
    head, _, path = ref.partition(".")
    for entry in state:
        if str(entry.get("resource", "")) == head:
            value: Any = entry
            for part in path.split(".") if path else []:
                if not isinstance(value, dict) or part not in value:
                    return None
                value = value[part]
            return value
    return None


#: credential fields that name things rather than prove identity: not registered
PUBLIC_CREDENTIAL_KEYS = frozenset(
    {
        "type",
        "kind",
        "apiversion",
        "namespace",
        "user",
        "username",
        "name",
        "cluster",
        "context",
        "current-context",
        "server",
        "endpoint",
        "url",
        "host",
        "port",
        "scheme",
        "principal",
        "insecure-skip-tls-verify",
        "tls-server-name",
        "proxy-url",
        "expires",
        "expiry",
        "expiration",
        "expires_at",
        "expiresat",
        "issued_at",
        "scope",
        "scopes",
        "audience",
        "region",
        "zone",
    }
)
#: a credential field whose name holds one of these is a secret whatever its length
SECRET_KEY_HINTS = (
    "token",
    "key",
    "secret",
    "password",
    "passwd",
    "cert",
    "data",
    "credential",
    "auth",
    "bearer",
    "cookie",
    "session",
    "signature",
    "private",
    "kubeconfig",
)
#: a string under a field of neither kind is registered when at least this long
OPAQUE_MIN = 16
#: an embedded kubeconfig larger than this is registered whole, not parsed
KUBECONFIG_MAX = 256 * 1024
_PEM_LINE = re.compile(r"^[A-Za-z0-9+/=]{16,}$")


def credential_literals(credentials: Any) -> list[tuple[str, str, bool]]:
    """(label, literal, with re-encoded forms) for every secret string the provider issued
    to the agent (08 §3.2): bearer tokens, passwords, client keys and certificate data,
    kubeconfig contents field by field. Names (namespace, user, server, type) are not
    secrets and are left alone; a long string under an unknown field is taken as one."""
    out: list[tuple[str, str, bool]] = []
    seen: set[int] = set()

    def leaf(label: str, key: str, value: str) -> None:
        key = key.lower()
        if key in PUBLIC_CREDENTIAL_KEYS or len(value) < MIN_LENGTH:
            return
        if not any(h in key for h in SECRET_KEY_HINTS) and len(value) < OPAQUE_MIN:
            return
        if key == "kubeconfig" or ("\n" in value and ("apiVersion" in value or "users:" in value)):
            parsed = _yaml(value)
            if isinstance(parsed, (dict, list)):
                walk(label, parsed)
                return
        out.append((label, value, len(value) <= 512))
        if key.endswith(("-data", "_data")):  # base64 of a PEM block: its lines too
            for line in _pem_lines(value):
                out.append((f"{label} (decoded)", line, False))

    def walk(label: str, value: Any, key: str = "") -> None:
        if isinstance(value, (dict, list)):
            if id(value) in seen:  # an aliased node is walked once
                return
            seen.add(id(value))
            items = (
                sorted(value.items(), key=lambda kv: str(kv[0]))
                if isinstance(value, dict)
                else enumerate(value)
            )
            for k, v in items:
                child = f"{label}.{k}" if isinstance(value, dict) else f"{label}[{k}]"
                walk(child, v, str(k) if isinstance(value, dict) else key)
        elif isinstance(value, str):
            leaf(label, key, value)

    walk("agent_credentials", credentials)
    return out


_SHARED = YamlLimits(max_nodes=2**62)


def _yaml(text: str) -> Any:
    if len(text) > KUBECONFIG_MAX:
        return None
    try:
        # bounded in aliases and depth; the expanded size is not limited, because the walk below
        # visits each shared node once (a provider's alias bomb costs nothing)
        return safe_load(text, _SHARED)
    except yaml.YAMLError:
        return None


def _pem_lines(value: str) -> list[str]:
    try:
        decoded = base64.b64decode(value, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return []
    if "-----BEGIN" not in decoded:
        return []
    return [decoded] + [line for line in decoded.splitlines() if _PEM_LINE.match(line.strip())]


def register_credentials(credentials: Any, redactor: Redactor) -> dict[str, str]:
    """Register every secret the provider issued to the agent; marker -> label."""
    labels: dict[str, str] = {}
    for label, literal, encodings in credential_literals(credentials):
        marker, _ = redactor.register(literal, encodings=encodings, patterns=False)
        labels.setdefault(marker, label)
    return labels
