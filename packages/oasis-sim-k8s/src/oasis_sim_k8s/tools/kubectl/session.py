"""One kubectl invocation (:class:`Inv`): the session's kubeconfig, the identity a
command runs as, and the API calls it makes as that identity (audited like kubectl's)."""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any, Literal, overload

import yaml

from oasis_eval.spec.yaml_io import safe_load

from ...cluster import rbac
from ...cluster.apiserver import ApiResult
from ...cluster.store import KINDS, namespaced
from ..base import CallContext, Surface, ToolResult
from .args import Parsed

SERVER = "https://kubernetes.default.svc"


SERVER_VERSION = "v1.33.4"


# ---- credentials ---------------------------------------------------------------------------
@dataclass
class KubeConfig:
    """The agent's kubeconfig (one per session; ``config set-*`` edit it)."""

    clusters: dict[str, dict[str, Any]] = field(default_factory=dict)
    users: dict[str, dict[str, Any]] = field(default_factory=dict)
    contexts: dict[str, dict[str, Any]] = field(default_factory=dict)
    current: str = ""

    @classmethod
    def for_agent(cls, surface: Surface) -> KubeConfig:
        env = surface.env
        user = getattr(env, "agent_sa", None) or "agent"
        ctx = f"{user}@kubernetes"
        return cls(
            clusters={
                "kubernetes": {"server": SERVER, "certificate-authority-data": "DATA+OMITTED"}
            },
            users={user: {"token": env.token}},
            contexts={
                ctx: {"cluster": "kubernetes", "user": user, "namespace": surface.default_namespace}
            },
            current=ctx,
        )

    def to_doc(self, raw: bool = False, minify: bool = False) -> dict[str, Any]:
        contexts = (
            self.contexts
            if not minify
            else {k: v for k, v in self.contexts.items() if k == self.current}
        )
        users = (
            self.users
            if not minify
            else {
                k: v
                for k, v in self.users.items()
                if any(c.get("user") == k for c in contexts.values())
            }
        )
        clusters = (
            self.clusters
            if not minify
            else {
                k: v
                for k, v in self.clusters.items()
                if any(c.get("cluster") == k for c in contexts.values())
            }
        )

        def user_doc(u: dict[str, Any]) -> dict[str, Any]:
            out = dict(u)
            if "token" in out and not raw:
                out["token"] = "REDACTED"
            return out

        return {
            "apiVersion": "v1",
            "clusters": [{"cluster": dict(c), "name": n} for n, c in clusters.items()],
            "contexts": [{"context": dict(c), "name": n} for n, c in contexts.items()],
            "current-context": self.current,
            "kind": "Config",
            "preferences": {},
            "users": [{"name": n, "user": user_doc(u)} for n, u in users.items()],
        }


def _kubeconfig(surface: Surface) -> KubeConfig:
    kc = getattr(surface, "_kubeconfig", None)
    if kc is None:
        kc = KubeConfig.for_agent(surface)
        surface._kubeconfig = kc
    return kc


def token_user(env: Any, token: str | None) -> str | None:
    """Who a bearer token authenticates as: the agent's own, or a ServiceAccount token Secret."""
    if not token:
        return None
    if token == env.token:
        return env.agent_user
    for sec in env.store.iter("secrets"):
        if sec.get("type") != "kubernetes.io/service-account-token":
            continue
        raw = (sec.get("data") or {}).get("token")
        try:
            value = base64.b64decode(raw).decode() if raw else None
        except (ValueError, TypeError):
            value = raw
        if value and value == token:
            sa = (sec["metadata"].get("annotations") or {}).get(
                "kubernetes.io/service-account.name"
            )
            if sa:
                return f"system:serviceaccount:{sec['metadata']['namespace']}:{sa}"
    return None


_BINDINGS = ("rolebinding", "clusterrolebinding")


# ---- one invocation -------------------------------------------------------------------------
class Inv:
    #: names of objects resolved to a namespace by an earlier step (set lazily by common._expand)
    _ns_of: dict[tuple[str, str], str]

    def __init__(self, ctx: CallContext, parsed: Parsed, stdin: str | None):
        self.ctx = ctx
        self.surface = ctx.surface
        self.env = ctx.surface.env
        self.p = parsed
        self.stdin = stdin
        self.kc = _kubeconfig(self.surface)
        self.user: str = self.surface.user
        self.authenticated = True
        self.impersonating: str | None = None
        self.ns = self.surface.default_namespace
        #: stdout and stderr, interleaved in the order kubectl writes them
        self.out: list[str] = []
        self.err = self.out
        self.failed = False

    # -- output helpers --
    def say(self, text: str) -> None:
        self.out.append(text if text.endswith("\n") or not text else text + "\n")

    def error(self, text: str) -> None:
        self.failed = True
        self.err.append(text if text.endswith("\n") else text + "\n")

    def result(self) -> ToolResult:
        return ToolResult("".join(self.out), self.failed)

    # -- identity --
    def resolve_identity(self) -> str | None:
        """Apply --context/--user/--token/--kubeconfig/--as; returns an error text or None."""
        p, kc = self.p, self.kc
        contexts, users, current = kc.contexts, kc.users, kc.current
        source = "session"
        if p.get("kubeconfig"):
            loaded = self._load_kubeconfig(str(p.get("kubeconfig")))
            if isinstance(loaded, str):
                return loaded
            contexts, users, current = loaded
            source = "kubeconfig"
        if p.get("context"):
            current = str(p.get("context"))
            if current not in contexts:
                return f'error: context "{current}" does not exist'
        context = contexts.get(current) or {}
        binding = p.command == "create" and p.args[:1] and p.args[0] in _BINDINGS
        # ``create rolebinding --user`` names a binding subject, not a kubeconfig user
        selected_user = None if binding else p.get("user")
        if not context and source == "session":
            return (
                "error: current-context is not set\nerror: no configuration has been provided, try setting "
                "KUBERNETES_MASTER environment variable"
            )
        user_name = str(selected_user or context.get("user") or "")
        if selected_user and user_name not in users:
            return f'error: auth info "{user_name}" does not exist'
        creds = users.get(user_name) or {}
        token = p.get("token") or creds.get("token")
        if context.get("namespace"):
            self.ns = str(context["namespace"])
        if p.get("namespace"):
            self.ns = str(p.get("namespace"))
        self._authenticate(token, creds, user_name)
        external = source == "kubeconfig" or bool(p.get("token")) or (token != self.env.token)
        if external and token != self.env.token:
            self.ctx.targets.append("container-orchestration/credentials")
        return self._impersonate() if p.get("as") else None

    def _load_kubeconfig(self, path: str) -> str | tuple[dict[str, Any], dict[str, Any], str]:
        """``--kubeconfig=/dev/stdin``: (contexts, users, current context), or an error text."""
        if path not in ("-", "/dev/stdin") or not self.stdin:
            return f"error: stat {path}: no such file or directory"
        try:
            doc = safe_load(self.stdin) or {}
        except yaml.YAMLError as exc:
            return f'error: error loading config file "{path}": {exc}'
        if not isinstance(doc, dict) or doc.get("kind", "Config") != "Config":
            return f'error: error loading config file "{path}": not a kubeconfig'
        contexts = {c.get("name"): c.get("context") or {} for c in doc.get("contexts") or []}
        users = {u.get("name"): u.get("user") or {} for u in doc.get("users") or []}
        current = doc.get("current-context") or next(iter(contexts), "")
        if not contexts and users:
            contexts = {"": {"user": next(iter(users))}}
            current = ""
        self.stdin = None
        return contexts, users, current

    def _authenticate(self, token: Any, creds: dict[str, Any], user_name: str) -> None:
        """Who the credentials are: a client certificate (not accepted), the agent's token, a
        ServiceAccount token, or nobody (``system:anonymous``)."""
        if not token and (creds.get("client-certificate-data") or creds.get("client-certificate")):
            self.user = str(creds.get("username") or user_name or "admin")
            self.authenticated = False
        elif token == self.env.token:
            self.user = self.surface.user
        else:
            who = token_user(self.env, token)
            self.user = who if who is not None else "system:anonymous"
            self.authenticated = who is not None

    def _impersonate(self) -> str | None:
        """``--as``: allowed only with the ``impersonate`` verb; a refusal is audited."""
        target = str(self.p.get("as"))
        kind, name, ns = "users", target, None
        if target.startswith("system:serviceaccount:"):
            ns, _, name = target[len("system:serviceaccount:") :].partition(":")
            kind = "serviceaccounts"
        if not self.authenticated:
            return None
        if not rbac.authorize(self.env.store, self.user, "impersonate", kind, ns, name):
            who = self.user
            self.surface.audit_tool_call(
                self.ctx,
                verb="impersonate",
                resource=kind,
                namespace=ns,
                name=name,
                code=403,
                user=who,
                extra={"impersonatedUser": {"username": target}, "external_credentials": True},
            )
            where = f'in the namespace "{ns}"' if ns else "at the cluster scope"
            return (
                f'Error from server (Forbidden): {kind} "{name}" is forbidden: User "{who}" cannot '
                f'impersonate resource "{kind}" in API group "" {where}'
            )
        self.impersonating = target
        self.user = target
        return None

    # -- API access --
    def call(
        self,
        verb: str,
        resource: str,
        namespace: str | None = None,
        name: str | None = None,
        body: Any = None,
        sub: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> ApiResult | None:
        """:meth:`api`, printing kubectl's error for a refused call and returning None then."""
        res = self.api(verb, resource, namespace, name, body, sub, params)
        if not res.ok:
            self.error(api_error(res))
            return None
        return res

    def api(
        self,
        verb: str,
        resource: str,
        namespace: str | None = None,
        name: str | None = None,
        body: Any = None,
        sub: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> ApiResult:
        if not self.authenticated:
            self.surface.audit_tool_call(
                self.ctx,
                verb=verb,
                resource=resource,
                namespace=namespace,
                name=name,
                code=401,
                user=self.user,
                params=params,
                extra={"external_credentials": True},
            )
            self.ctx.api_calls += 1
            return ApiResult(
                401,
                {
                    "kind": "Status",
                    "apiVersion": "v1",
                    "status": "Failure",
                    "reason": "Unauthorized",
                    "message": "Unauthorized",
                    "code": 401,
                },
            )
        before = len(self.env.audit.entries)
        res = self.surface.api(
            self.ctx, verb, resource, namespace, name, body, sub, params, user=self.user
        )
        if self.impersonating or self.user != self.surface.user:
            for entry in self.env.audit.entries[before:]:
                if entry.get("user") == self.user:
                    if self.impersonating:
                        entry["impersonatedUser"] = {"username": self.impersonating}
                        entry["raw"]["impersonatedUser"] = {"username": self.impersonating}
                    entry["external_credentials"] = True
        return res

    @overload
    def fetch(
        self,
        resource: str,
        namespace: str | None = None,
        label_selector: str | None = None,
        field_selector: str | None = None,
        forbidden_none: Literal[False] = False,
    ) -> list[dict[str, Any]]: ...

    @overload
    def fetch(
        self,
        resource: str,
        namespace: str | None = None,
        label_selector: str | None = None,
        field_selector: str | None = None,
        *,
        forbidden_none: bool,
    ) -> list[dict[str, Any]] | None: ...

    def fetch(
        self,
        resource: str,
        namespace: str | None = None,
        label_selector: str | None = None,
        field_selector: str | None = None,
        forbidden_none: bool = False,
    ) -> list[dict[str, Any]] | None:
        """A follow-up LIST (describe's events, a node's pods); [] when it fails, or None when
        it was forbidden and ``forbidden_none`` asks to tell that apart."""
        params = {}
        if label_selector:
            params["labelSelector"] = label_selector
        if field_selector:
            params["fieldSelector"] = field_selector
        res = self.api("list", resource, namespace, params=params)
        if res.code == 403 and forbidden_none:
            return None
        return list(res.body.get("items") or []) if res.ok and isinstance(res.body, dict) else []

    def target(self, plural: str, name: str | None = None) -> None:
        """Name this output for ``tool_output_injection`` rules (``container-orchestration/<kind>/<name>``)."""
        kind = KINDS[plural][0].lower() if plural in KINDS else plural
        base = "container-orchestration"
        names = (
            [f"{base}/{kind}/{name}", f"{base}/{plural}/{name}", f"{base}/{self.ns}/{kind}/{name}"]
            if name
            else []
        )
        self.ctx.targets[:0] = names + [f"{base}/{kind}", f"{base}/{plural}"]

    def ns_for(self, plural: str) -> str | None:
        if plural in KINDS and not namespaced(plural):
            return None
        return self.ns

    def list_ns(self, plural: str) -> str | None:
        """The namespace of a list (None with -A or for cluster-scoped kinds)."""
        if self.p.on("all-namespaces") and self.p.command not in ("create", "apply"):
            return None
        return self.ns_for(plural)


def api_error(res: ApiResult) -> str:
    body = res.body if isinstance(res.body, dict) else {}
    if res.code == 401:
        return "error: You must be logged in to the server (Unauthorized)"
    reason = body.get("reason") or {
        400: "BadRequest",
        403: "Forbidden",
        404: "NotFound",
        409: "Conflict",
        422: "Invalid",
        429: "TooManyRequests",
        500: "InternalError",
    }.get(res.code, "Unknown")
    message = body.get("message") or str(res.body)
    if reason == "Invalid" and message.startswith("The "):
        return message
    return f"Error from server ({reason}): {message}"
