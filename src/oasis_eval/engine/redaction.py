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
                    self._order = sorted(self.forms, key=lambda f: (-len(f), f))
                names.append(name)
        return marker, names

    def text(self, value: str) -> str:
        if not self.forms or not value:
            return value
        if len(self._order) != len(self.forms):  # forms given at construction
            self._order = sorted(self.forms, key=lambda f: (-len(f), f))
        for form in self._order:  # longest first, sorted once per registration
            if form in value:
                value = value.replace(form, self.forms[form])
        return value

    def data(self, value: Any) -> Any:
        """Redact every string inside nested JSON-like data (keys included)."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.text(k) if isinstance(k, str) else k: self.data(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.data(v) for v in value]
        return value


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
