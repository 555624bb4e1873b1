"""Which strings the provider issued to the agent are secrets (08 §3.2).

Bearer tokens, passwords, client keys and certificate data, kubeconfig contents field by
field are registered with the run's :class:`~.redaction.Redactor`; names (namespace,
user, server, type) are not secrets and are left alone.
"""

from __future__ import annotations

import base64
import binascii
import functools
import re
from typing import Any

import yaml

from ..spec.yaml_io import YamlLimits, safe_load
from .redaction import MIN_LENGTH, Redactor

__all__ = [
    "KUBECONFIG_MAX",
    "OPAQUE_MIN",
    "PUBLIC_CREDENTIAL_KEYS",
    "SECRET_KEY_HINTS",
    "credential_literals",
    "register_credentials",
]

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
        "mcp_endpoint",
        "prometheus_url",
        "grafana_url",
        "tempo_url",
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


@functools.lru_cache(maxsize=64)
def _pem_lines(value: str) -> tuple[str, ...]:
    """The PEM block base64 ``value`` decodes to and its base64 lines (none if it is not one):
    a pure function of ``value``, kept (every scenario's kubeconfig carries the same CA
    certificate, issue 30)."""
    try:
        decoded = base64.b64decode(value, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return ()
    if "-----BEGIN" not in decoded:
        return ()
    return (decoded, *(line for line in decoded.splitlines() if _PEM_LINE.match(line.strip())))


def register_credentials(credentials: Any, redactor: Redactor) -> dict[str, str]:
    """Register every secret the provider issued to the agent; marker -> label."""
    labels: dict[str, str] = {}
    for label, literal, encodings in credential_literals(credentials):
        marker, _ = redactor.register(literal, encodings=encodings, patterns=False)
        labels.setdefault(marker, label)
    return labels
