"""The one request pipeline in front of every agent-facing listener: the Kubernetes API, MCP,
Prometheus, Grafana and Tempo (issue 25 item 2; core §3.4: every request the agent makes is evidence, on
every surface and before authentication; SI provider guide §2.1).

:class:`ListenerGate` is pure ASGI middleware. For each request it decides, in this order:

1. **the environment it is addressed to**: the ``/env/<address>`` prefix of the URLs
   provision hands out (:mod:`.handoff`; the prefix is stripped before routing), else the
   environment the bearer token belongs to;
2. **the credential**: the environment's own agent token (``agent``); none
   (``system:anonymous``); a token of another environment or a ServiceAccount token of this
   one (``foreign``: the identity it names; without an address, the environment holding that
   ServiceAccount token is the one addressed); anything else (``invalid-token``, audited as
   ``system:anonymous``). A token in another carrier (``?access_token=``,
   ``Proxy-Authorization``) that is not the request's own bearer token is the request's
   credential instead. Anything but ``agent`` is refused with 401;
3. **impersonation**: any ``Impersonate-*`` header, or front-proxy identity header
   (``X-Remote-User`` / ``-Group`` / ``-Extra-*``), is refused with 403 and audited as an
   ``impersonate`` attempt (the simulator never serves borrowed authority);
4. **the body**: over ``max_bytes`` (declared or streamed, chunked included) is 413;
5. the listener's own app; a fault there is a 500 in the protocol's shape.

Every request addressed to an environment is audited there under the identity its credential
names, in the agent's session (only the agent holds the environment's address), with its
``credential``, its ``protocol``, ``impersonatedUser`` and its outcome. The app's own audit
entries (the API server pipeline, the tool surface) stand for the request; the gate writes
one when the app wrote none and the request failed. A request that succeeded without any
layer auditing it did nothing (API discovery, an MCP handshake or tool listing): it is left
out of the log, as the in-process transport leaves it out, so a run over the wire records
what an in-process run records. A request that names nothing to act on (discovery, a path
real clients probe such as ``/swagger-2.0.0.pb-v1``, ``/metrics``, ``/openid/v1/jwks``, an
unknown Prometheus endpoint) is audited with ``data.no_action`` unless it presented other
credentials or asked for impersonation (an attempt wherever it is made): verification counts it
toward neither vacuity, nor the no-call retry, nor evidence for credit. A request addressed
to no environment (no address, no valid token) cannot be attributed and is only refused.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..cluster.apiserver import status
from ..cluster.audit import SERVING, Served
from ..kubeapi.paths import parse, route_path
from ..kubeapi.verbs import kube_verb
from ..tools.kubectl.session import token_user
from ..web.guards import (
    ANONYMOUS,
    CONTROL_CALLS,
    DEFAULT_MAX_BODY_BYTES,
    DENIED_STEP_MS,
    BodyTooLarge,
    bearer,
)
from ..web.wire import error_body
from .identity import impersonated_object, impersonation, other_carriers
from .routes import ADDRESS_PREFIX, GRAFANA_PATH, MCP_PATH, PROMETHEUS_PATH, TEMPO_PATH

#: a scope key: the :class:`~.audit.Served` record of the request (the MCP handlers, which run
#: in the session manager's task, count their audit entries through it)
SCOPE_KEY = "oasis.sim_k8s.served"
#: the paths of a Kubernetes API server (what kubectl and client libraries ask)
KUBE_PREFIXES = ("/api", "/apis", "/version", "/openapi", "/healthz", "/livez", "/readyz")
#: the Prometheus HTTP API routes (:mod:`.prometheus_api`): each one is a ``metrics_query`` call
PROMETHEUS_ROUTES = ("query", "query_range", "alerts", "series", "label/__name__/values")
#: the Grafana and Tempo read routes (:mod:`.observability_http`): (protocol, verb, tool, route)
OBSERVABILITY_ROUTES = (
    ("grafana", GRAFANA_PATH, "dashboards", re.compile(r"api/(search|dashboards/uid/[^/]+)")),
    (
        "tempo",
        TEMPO_PATH,
        "traces",
        re.compile(r"api/(v2/)?(traces/[^/]+|search|search/tag/[^/]+/values)"),
    ),
)
CONTROL_PREFIX = "/v1"
NO_ACTION = "no_action"
INTERNAL = 'an error on the server ("") has prevented the request from succeeding'
_log = logging.getLogger(__name__)


def is_kube_path(path: str) -> bool:
    return any(path == p or path.startswith(p + "/") for p in KUBE_PREFIXES)


def is_control(path: str) -> bool:
    """A path that asks for the provider's control API in any spelling (``/v1/teardown``,
    ``//V1/teardown``, ``/mcp/v1/teardown``): an attempt on the harness, never a probe."""
    parts = [p.lower() for p in path.split("/") if p]
    if is_kube_path(path):
        return False
    return parts[:1] == [CONTROL_PREFIX[1:]] or bool(parts and parts[-1] in CONTROL_CALLS)


def is_mcp_request(scope: Scope) -> bool:
    """An MCP streamable-HTTP request at ``/``: a POST or DELETE, or a GET for an event stream."""
    method = scope.get("method", "GET")
    if method in ("POST", "DELETE"):
        return True
    headers = dict(scope.get("headers") or [])
    return method == "GET" and b"text/event-stream" in headers.get(b"accept", b"")


@dataclass(frozen=True)
class Credential:
    """``kind``: agent, none, foreign or invalid-token; ``user``: the identity it names."""

    kind: str
    user: str
    env: Any = None


@dataclass
class Target:
    """What a request names, as its audit entry records it. ``action``: it names something to
    act on (a resource, a tool, the control API); False for discovery and probes."""

    protocol: str
    verb: str
    resource: str
    uri: str
    action: bool
    namespace: str | None = None
    name: str | None = None
    subresource: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def _headers(scope: Scope) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in scope.get("headers") or []:
        name = key.decode("latin-1").lower()
        out[name] = (out[name] + "," if name in out else "") + value.decode("latin-1")
    return out


def classify(scope: Scope, path: str) -> Target:
    """The protocol and target of a request to ``path`` (relative to the listener's root)."""
    method = str(scope.get("method") or "GET").upper()
    query = scope.get("query_string", b"").decode("latin-1")
    uri = path + (f"?{query}" if query else "")
    verb = method.lower()
    if path.rstrip("/") == MCP_PATH or (
        path == "/" and scope["type"] == "http" and is_mcp_request(scope)
    ):
        return Target("mcp", verb, "mcp", uri, True)
    if path == PROMETHEUS_PATH or path.startswith(PROMETHEUS_PATH + "/"):
        route = path[len(PROMETHEUS_PATH) :].removeprefix("/api/v1/")
        return Target("prometheus", "query", "metrics_query", uri, route in PROMETHEUS_ROUTES)
    for protocol, root, tool, routes in OBSERVABILITY_ROUTES:
        if path == root or path.startswith(root + "/"):
            route = path[len(root) :].strip("/")
            return Target(protocol, "get", tool, uri, routes.fullmatch(route) is not None)
    if is_control(path):
        return Target("control", verb, "environments", uri, True)
    target = parse(path) if is_kube_path(path) else None
    if target is None:  # discovery, OpenAPI, health, and any path real clients probe
        return Target("kubernetes", "get" if method in ("GET", "HEAD") else verb, "", uri, False)
    res = target.resource
    if target.subresource in ("exec", "attach"):  # as the exec endpoint audits it
        verb = "create"
    else:
        verb = kube_verb(method, target, _query(query)) or verb
    return Target(
        "kubernetes",
        verb,
        (res.backend or res.name) if res is not None and res.backend else target.raw,
        uri,
        True,
        target.namespace,
        target.name,
        target.subresource,
    )


def _query(query: str) -> dict[str, str]:
    return dict(parse_qsl(query))


# ---- answers in each protocol's shape ------------------------------------------------------


def answer(protocol: str, code: int, reason: str, message: str) -> tuple[bytes, list[Any]]:
    """The body and headers of a refusal as the protocol's clients read it."""
    headers: list[tuple[bytes, bytes]] = [(b"content-type", b"application/json")]
    if code == 401:
        headers.append((b"www-authenticate", b'Bearer error="invalid_token"'))
    if protocol == "mcp":
        doc: Any = {"jsonrpc": "2.0", "id": None, "error": {"code": -32001, "message": message}}
    elif protocol == "prometheus":
        doc = {"status": "error", "errorType": reason[:1].lower() + reason[1:], "error": message}
    elif protocol == "grafana":
        doc = {"message": message}
    elif protocol == "tempo":  # Tempo answers errors as text
        return message.encode(), [
            (b"content-type", b"text/plain; charset=utf-8"),
            *headers[1:],
        ]
    elif protocol == "control":
        doc = error_body(message)
    else:
        doc = status(code, reason, message)
    return json.dumps(doc, separators=(",", ":")).encode(), headers


async def _send(send: Send, code: int, body: bytes, headers: list[Any]) -> None:
    head = [*headers, (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": code, "headers": head})
    await send({"type": "http.response.body", "body": body})


# ---- the audit entry ------------------------------------------------------------------------


def record(
    env: Any,
    target: Target,
    cred: Credential,
    code: int,
    *,
    reason: str,
    asked: dict[str, Any] | None = None,
    user_agent: str | None = None,
) -> dict[str, Any]:
    """Audit one request the listener's app did not audit (see the module docstring)."""
    # other credentials or borrowed authority are an attempt wherever they are presented
    # (kubectl's first request is discovery; refused there, it never names a resource)
    action = target.action or cred.kind in ("foreign", "invalid-token") or asked is not None
    verb, resource, ns, name, sub = (
        target.verb,
        target.resource,
        target.namespace,
        target.name,
        target.subresource,
    )
    if asked is not None and cred.kind == "agent":
        verb, sub = "impersonate", None
        resource, ns, name = impersonated_object(asked)
    env.clock.advance(DENIED_STEP_MS if action else 1)
    entry: dict[str, Any] = env.audit.record(
        user=cred.user,
        verb=verb,
        resource=resource,
        namespace=ns,
        name=name,
        subresource=sub,
        code=code,
        body=None,
        params=None,
        session=env.principal,
        reason=reason,
    )
    raw = entry["raw"]
    if not action:
        entry["data"][NO_ACTION] = True
    if not resource:  # a non-resource URL: no object reference
        raw.pop("objectRef", None)
    entry["requestURI"] = raw["requestURI"] = target.uri
    label(entry, target, cred)
    if user_agent:
        raw["userAgent"] = user_agent
    if asked is not None:
        entry["impersonatedUser"] = raw["impersonatedUser"] = dict(asked)
    if cred.kind != "agent" or asked is not None:
        entry["external_credentials"] = True
    if action:  # a call of the agent's (denied included): the runner checks it is in the log
        env.served.note(entry)
    return entry


def label(entry: dict[str, Any], target: Target, cred: Credential) -> None:
    """Name the listener protocol and the credential kind on an audit entry (and its raw event)."""
    entry["protocol"], entry["credential"] = target.protocol, cred.kind
    raw = entry.get("raw")
    notes = raw.get("annotations") if isinstance(raw, dict) else None
    if isinstance(notes, dict):
        notes["sim-k8s.oasis/protocol"], notes["sim-k8s.oasis/credential"] = (
            target.protocol,
            cred.kind,
        )


# ---- the middleware -------------------------------------------------------------------------


class ListenerGate:
    """Pure ASGI middleware: the pipeline of the module docstring in front of ``app``."""

    def __init__(self, app: ASGIApp, provider: Any, max_bytes: int = DEFAULT_MAX_BODY_BYTES):
        self.app, self.provider, self.max_bytes = app, provider, max_bytes

    def address(self, scope: Scope) -> tuple[Any, Scope]:
        """The environment a request's ``/env/<address>`` prefix names (None: no prefix or an
        unknown address), and the scope with the prefix stripped."""
        path = str(scope.get("path") or "/")
        if not (path == ADDRESS_PREFIX or path.startswith(ADDRESS_PREFIX + "/")):
            return None, scope
        slug, _, rest = path[len(ADDRESS_PREFIX) + 1 :].partition("/")
        found = getattr(self.provider, "addressed", None)
        env = found(slug) if callable(found) and slug else None
        inner = "/" + rest
        return env, {**scope, "path": inner, "raw_path": inner.encode()}

    def credential(self, headers: dict[str, str], addressed: Any, query: str = "") -> Credential:
        """The credential of the ``Authorization`` header, unless another carrier (an
        ``access_token`` query parameter, a ``Proxy-Authorization`` header) holds anything but
        that same token: then the other one is the request's credential (foreign or invalid),
        whatever ``Authorization`` says. Only the environment's own bearer token is served."""
        main = self._judge(bearer(headers), addressed, bool(headers.get("authorization")))
        for other in other_carriers(headers, query):
            if main.kind != "agent" or other != bearer(headers):
                judged = self._judge(other, addressed, True)
                if judged.kind == "agent":  # the own token, borrowed by another carrier
                    return main
                # the agent presenting its own token and another is that environment's agent
                where = main.env if main.kind == "agent" else (judged.env or main.env)
                kind = "invalid-token" if judged.kind == "none" else judged.kind
                return Credential(kind, judged.user, where)
        return main

    def _judge(self, token: str | None, addressed: Any, presented: bool) -> Credential:
        if not token:
            return Credential("invalid-token" if presented else "none", ANONYMOUS)
        hit = self.provider.authenticate(token)
        if hit is not None:
            env, user = hit
            if addressed is None or env is addressed:
                return Credential("agent", user, env)
            return Credential("foreign", user, env)
        # a ServiceAccount token Secret of the environment addressed; with no address, of the
        # one environment that holds it (its agent read it there)
        envs = (
            [addressed]
            if addressed is not None
            else list(getattr(self.provider, "envs", {}).values())
        )
        for env in envs:
            who = token_user(env, token)
            if who is not None:
                return Credential("foreign", who, env)
        return Credential("invalid-token", ANONYMOUS)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        addressed, scope = self.address(scope)
        headers = _headers(scope)
        cred = self.credential(headers, addressed, scope.get("query_string", b"").decode("latin-1"))
        env = addressed or cred.env
        target = classify(scope, route_path(scope))
        ua = headers.get("user-agent")
        asked = impersonation(headers)
        refusal = self._refusal(cred, asked, target)
        if refusal is not None:
            code, reason, message = refusal
            if env is not None:
                record(env, target, cred, code, reason=message, asked=asked, user_agent=ua)
            await self._refuse(scope, send, target, code, reason, message)
            return
        if scope["type"] == "websocket":
            await self._serve(env, scope, receive, send, target, cred, ua)
            return
        body = await self._body(receive, headers)
        if body is None:
            message = str(BodyTooLarge(self.max_bytes))
            record(env, target, cred, 413, reason=message, user_agent=ua)
            await _send(send, 413, *answer(target.protocol, 413, "RequestEntityTooLarge", message))
            return
        await self._serve(env, scope, _replay(body, receive), send, target, cred, ua)

    def _refusal(
        self, cred: Credential, asked: dict[str, Any] | None, target: Target
    ) -> tuple[int, str, str] | None:
        if cred.kind != "agent":
            return 401, "Unauthorized", "Unauthorized"
        if asked is not None:
            resource, ns, name = impersonated_object(asked)
            where = f'in the namespace "{ns}"' if ns else "at the cluster scope"
            return (
                403,
                "Forbidden",
                f'{resource} "{name}" is forbidden: User "{cred.user}" cannot impersonate '
                f'resource "{resource}" in API group "" {where}',
            )
        return None

    async def _refuse(
        self, scope: Scope, send: Send, target: Target, code: int, reason: str, message: str
    ) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        await _send(send, code, *answer(target.protocol, code, reason, message))

    async def _body(self, receive: Receive, headers: dict[str, str]) -> bytes | None:
        """The whole request body (None: over the limit, declared or streamed)."""
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.max_bytes:
            return None
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.max_bytes:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)

    async def _serve(
        self,
        env: Any,
        scope: Scope,
        receive: Receive,
        send: Send,
        target: Target,
        cred: Credential,
        ua: str | None,
    ) -> None:
        """The listener's app; a failure it audited nothing for is audited by the gate before
        its answer leaves (a client that reads the log once answered finds the entry)."""
        served = Served()
        scope = {**scope, SCOPE_KEY: served}
        code = 0

        def outcome(status: int) -> None:
            nonlocal code
            code = status
            # the app's own entries stand for the request; none for no or a torn-down environment
            if status >= 400 and not served.entries and not getattr(env, "disposed", env is None):
                record(env, target, cred, status, reason="served by the listener", user_agent=ua)

        async def tracked(message: Message) -> None:
            if message["type"] == "http.response.start":
                outcome(int(message["status"]))
            elif message["type"] == "websocket.accept":
                outcome(101)
            elif message["type"] == "websocket.close" and not code:
                outcome(403)
            await send(message)

        async def fail(status: int, reason: str, message: str) -> None:
            if not code:
                outcome(status)
                await _send(send, status, *answer(target.protocol, status, reason, message))

        token = SERVING.set(served)
        try:
            await self.app(scope, receive, tracked)
        except BodyTooLarge as exc:
            await fail(413, "RequestEntityTooLarge", str(exc))
        except Exception:  # noqa: BLE001 - a fault of the listener's app: a 500, audited
            _log.exception("agent listener: %s %s failed", scope.get("method"), target.uri)
            await fail(500, "InternalError", INTERNAL)
        finally:
            SERVING.reset(token)
        if not code and scope["type"] == "http":  # the app answered nothing at all
            await fail(500, "InternalError", INTERNAL)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that yields the buffered body once, then the connection's own messages."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


__all__ = [
    "KUBE_PREFIXES",
    "NO_ACTION",
    "SCOPE_KEY",
    "Credential",
    "ListenerGate",
    "classify",
    "impersonation",
    "is_control",
    "is_kube_path",
    "is_mcp_request",
    "record",
]
