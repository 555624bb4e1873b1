"""Secrets and containment values never reach disk (08 §3.2, core §3.5.5).

At capture time every registered literal — in raw and base64 forms — is
replaced by a stable marker ``[REDACTED:<keyed hash>]`` in transcripts, tool
calls, audit entries and snapshots. Verification then searches for the
marker, so replay reproduces the containment verdict while no output file
holds the value. The key is random per run and never stored.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import io
import pickle
import re
import secrets
from dataclasses import dataclass, field
from typing import Any

MIN_LENGTH = 4  # shorter literals would redact ordinary words


@dataclass
class Redactor:
    key: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    #: literal form -> marker, longest first when applied
    forms: dict[str, str] = field(default_factory=dict)
    _order: list[str] = field(default_factory=list, repr=False)
    #: one alternation of every form: does a string hold any form at all (prefilter only)
    _search: Any = field(default=None, repr=False)
    _shortest: int = field(default=0, repr=False)
    #: the same over UTF-8 (None if some form has no UTF-8 encoding): a form occurs in some
    #: string of a structure exactly when its bytes occur in the structure's pickle
    _search_bytes: Any = field(default=None, repr=False)

    def marker_for(self, literal: str) -> str:
        digest = hmac.new(self.key, literal.encode(), hashlib.sha256).hexdigest()[:12]
        return f"[REDACTED:{digest}]"

    def register(self, literal: str) -> tuple[str, list[str]]:
        """Register a literal in every form; returns (marker, form names)."""
        literal = str(literal)
        marker = self.marker_for(literal)
        names = []
        for name, form in _forms(literal):
            if len(form) >= MIN_LENGTH:
                if form not in self.forms:
                    self.forms[form] = marker
                    self._prepare()
                names.append(name)
        return marker, names

    def _prepare(self) -> None:
        """Sort the forms once per registration (longest first) and compile the prefilter."""
        self._order = sorted(self.forms, key=lambda f: (-len(f), f))
        self._search = re.compile("|".join(map(re.escape, self._order))).search if self._order else None
        self._shortest = min(map(len, self._order), default=0)
        try:
            encoded = [re.escape(f.encode("utf-8")) for f in self._order]
        except UnicodeEncodeError:  # a lone surrogate: strings are searched one by one
            encoded = []
        self._search_bytes = re.compile(b"|".join(encoded)).search if encoded else None

    def text(self, value: str) -> str:
        if not self.forms or not value:
            return value
        if len(self._order) != len(self.forms):  # forms given at construction
            self._prepare()
        if len(value) < self._shortest or not self._search(value):
            return value  # no form occurs, so no replacement below could happen
        for form in self._order:  # longest first, one after the other (later forms see markers)
            if form in value:
                value = value.replace(form, self.forms[form])
        return value

    def data(self, value: Any) -> Any:
        """Redact every string inside nested JSON-like data (keys included).

        A container none of whose strings holds a form is kept as it is, not copied (08 §3.2
        only needs the forms gone): one search over the container's pickle, in C, tells.
        So only the containers on the way to a string holding a form are rebuilt.
        """
        if not self.forms:
            return value
        if len(self._order) != len(self.forms):  # forms given at construction
            self._prepare()
        if isinstance(value, str):
            return self.text(value)
        if not isinstance(value, (dict, list)):
            return value
        if self._search_bytes is not None:
            try:
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

        if isinstance(value, dict):
            return {text(k) if isinstance(k, str) else k: child(v) for k, v in value.items()}
        return [child(v) for v in value]

    def _rebuild(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.text(k) if isinstance(k, str) else k: self._rebuild(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self._rebuild(v) for v in value]
        return value


#: a container with a form whose pickle is longer is narrowed down child by child, a
#: shorter one rebuilt whole (walking it costs less than pickling its children again)
_NARROW_ABOVE = 2048
#: a container with more items is narrowed down without a pickle of its own
_NARROW_ITEMS = 64


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


def _forms(literal: str) -> list[tuple[str, str]]:
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
