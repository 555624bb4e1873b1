"""Who a request claims to be, beyond its bearer token (issue 25 item 2): the
``Impersonate-*`` headers and every front-proxy or backend identity header in the same roles,
and the other places a client carries a credential (query parameters, headers, cookies). The
gate (:mod:`.gate`) refuses and audits both: an agent asserting an identity or presenting
another credential is borrowing authority."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl

from ..web.guards import bearer

#: the authenticating-proxy headers (``--requestheader-*`` flags of a real API server): they name
#: an identity as ``Impersonate-*`` does, so the listener judges them as impersonation
PROXY_IDENTITY = "x-remote-"


#: what other front proxies and backends take an identity from, in ``Impersonate-*`` roles:
#: oauth2-proxy, Grafana's auth proxy, Apache ``REMOTE_USER``, the Grafana/Tempo/Mimir tenant
#: and organization headers (another tenant is another principal's data)
IDENTITY_HEADERS = {
    **dict.fromkeys(
        (
            "x-forwarded-user",
            "x-forwarded-preferred-username",
            "x-forwarded-email",
            "x-auth-request-user",
            "x-auth-request-preferred-username",
            "x-auth-request-email",
            "x-webauth-user",
            "x-webauth-email",
            "remote-user",
            "x-user",
        ),
        "impersonate-user",
    ),
    **dict.fromkeys(
        ("x-forwarded-groups", "x-auth-request-groups", "x-webauth-groups"), "impersonate-group"
    ),
    "x-scope-orgid": "impersonate-extra-tenant",
}


#: an ``X-Grafana-*`` header asserts who is asking (org, user, an ID token, a key): never
#: from an agent, but for what clients send that names no one else
GRAFANA_IDENTITY = "x-grafana-"


#: (header, value) a client sends that claims nothing beyond the agent's own: the one org, the
#: default tenants of single-tenant Tempo / Mimir / Loki, client hints (any value: None)
OWN_IDENTITY = {
    ("x-grafana-org-id", "1"),
    ("x-scope-orgid", "single-tenant"),
    ("x-scope-orgid", "anonymous"),
    ("x-scope-orgid", "fake"),
    ("x-grafana-device-id", None),
    ("x-grafana-nocache", None),
    ("x-grafana-action", None),
}


def _identity_role(key: str, value: str) -> str | None:
    if (key, value.strip()) in OWN_IDENTITY or (key, None) in OWN_IDENTITY:
        return None
    if key.startswith(PROXY_IDENTITY):
        return "impersonate-" + key[len(PROXY_IDENTITY) :]
    if key.startswith(GRAFANA_IDENTITY):
        return "impersonate-extra-" + key
    return IDENTITY_HEADERS.get(key)


def impersonation(headers: dict[str, str]) -> dict[str, Any] | None:
    """The ``Impersonate-*`` headers, and the front-proxy identity headers in the same roles
    (``X-Remote-*``, :data:`IDENTITY_HEADERS`, ``X-Grafana-*``), as an audit event's
    ``impersonatedUser`` (None: none). Only a trusted front proxy may assert an identity; an
    agent asserting one is borrowing authority (issue 25 item 2)."""
    asked = {k: v for k, v in headers.items() if k.startswith("impersonate-")}
    for key, value in headers.items():
        role = _identity_role(key, value)
        if role is not None:
            asked[role] = (asked[role] + "," if role in asked else "") + value
    if not asked:
        return None
    out: dict[str, Any] = {"username": asked.get("impersonate-user", "")}
    groups = [g.strip() for g in asked.get("impersonate-group", "").split(",") if g.strip()]
    if groups:
        out["groups"] = groups
    if asked.get("impersonate-uid"):
        out["uid"] = asked["impersonate-uid"]
    extra = {k[len("impersonate-extra-") :]: v for k, v in asked.items() if "-extra-" in k}
    if extra:
        out["extra"] = extra
    return out


#: query parameters client libraries and proxies carry a bearer token or API key in
TOKEN_PARAMS = ("access_token", "token", "auth_token", "api_key", "apikey", "id_token", "jwt")


#: headers APIs take a token or key from besides ``Authorization`` (``X-Grafana-*`` is identity)
TOKEN_HEADERS = ("x-auth-token", "x-api-key", "x-access-token", "x-token", "api-key", "apikey")


#: a cookie by one of these names holds a session or a token
TOKEN_COOKIE = re.compile(r"(?i).*(session|token|auth|jwt|key|sid).*")


def other_carriers(headers: dict[str, str], query: str) -> list[str]:
    """Every credential a request carries besides its ``Authorization`` header, in order: the
    token query parameters, the ``Proxy-Authorization`` header (its token, or the whole value
    for any other scheme), the token headers and the session or token cookies."""
    found = [v for k, v in parse_qsl(query, keep_blank_values=True) if k.lower() in TOKEN_PARAMS]
    proxy = headers.get("proxy-authorization")
    if proxy is not None:
        found.append(bearer({"authorization": proxy}) or proxy)
    found += [headers[name] for name in TOKEN_HEADERS if name in headers]
    for item in headers.get("cookie", "").replace(",", ";").split(";"):
        name, sep, value = item.strip().partition("=")
        if sep and TOKEN_COOKIE.fullmatch(name):
            found.append(value.strip().strip('"'))
    return found


def impersonated_object(asked: dict[str, Any]) -> tuple[str, str | None, str]:
    """(resource, namespace, name) an impersonation asks for, as RBAC names it."""
    user = str(asked.get("username") or "")
    if user.startswith("system:serviceaccount:"):
        ns, _, name = user[len("system:serviceaccount:") :].partition(":")
        return "serviceaccounts", ns, name
    if user:
        return "users", None, user
    if asked.get("groups"):
        return "groups", None, str(asked["groups"][0])
    return "uids", None, str(asked.get("uid") or "")
