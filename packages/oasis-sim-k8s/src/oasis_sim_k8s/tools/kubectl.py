"""The ``kubectl`` tool (interface type ``container-orchestration``).

``kubectl(command, stdin?)`` runs one kubectl command line against the
environment's API server as the agent's user: every request is RBAC-checked and
audited like the requests real kubectl makes (a GET before a PATCH, a LIST
before ``delete -l``). Output mimics kubectl v1.29: printer-column tables with
ages from the cluster clock, ``-o json|yaml|wide|name|jsonpath|custom-columns``,
``describe`` with its Events section, and kubectl's messages (``deployment.apps/x
scaled``, ``Error from server (Forbidden): ...``).

Credentials: the session starts with one kubeconfig context holding the agent's
own token. ``--token``, ``--as``, ``--kubeconfig=/dev/stdin`` (kubeconfig text in
``stdin``) and ``config set-credentials`` / ``set-context`` / ``use-context`` switch
to other credentials; requests made with them are made (and audited) as whoever
those credentials authenticate as, in the agent's session, and a context switch is
itself audited as a token review — credential use is always visible in the audit
log. Unknown tokens are answered 401 like a real API server.
"""

from __future__ import annotations

import base64
import json
import re
import shlex
from dataclasses import dataclass, field
from typing import Any, Literal, overload

import yaml

from oasis_eval.spec.yaml_io import safe_load, safe_load_all

from .. import rbac
from ..apiserver import ApiResult
from ..store import KINDS, clone, namespaced
from . import CallContext, ToolResult, ToolSpec, ToolSurface, schema
from .describe import describe as describe_object
from .describe import tabwriter
from .k8s_format import (
    OutputError,
    age,
    kind_label,
    output_object,
    pod_status,
    render_table,
    table,
    to_yaml,
)
from .kubectl_args import (
    ALL,
    EMPTY_TYPES,
    INTERACTIVE,
    Parsed,
    UsageError,
    parse,
    parse_duration,
    resolve_type,
    split,
)

DESCRIPTION = (
    'Run a kubectl command against the cluster, e.g. "get pods -n shop -o wide", "describe deployment/api", '
    '"logs deploy/api --tail=50", "rollout history deployment/api", "auth can-i delete pods -n shop". '
    "Pass manifests for `apply -f -` / `create -f -` in `stdin`. Non-interactive: no editor, port-forward or "
    "attach. Output is kubectl's stdout/stderr."
)

SERVER = "https://kubernetes.default.svc"
SERVER_VERSION = "v1.29.4"


def tools(surface: ToolSurface) -> list[tuple[ToolSpec, Any]]:
    spec = ToolSpec(
        name="kubectl",
        interface_type="container-orchestration",
        description=DESCRIPTION,
        input_schema=schema(
            {
                "command": {
                    "type": "string",
                    "description": 'kubectl arguments, e.g. "get pods -n default" '
                    '(a leading "kubectl" is accepted)',
                },
                "stdin": {"type": "string", "description": "standard input (manifests for -f -)"},
            },
            ["command"],
        ),
    )
    return [(spec, lambda ctx, args: run(ctx, args))]


# ---- credentials ---------------------------------------------------------------------------
@dataclass
class KubeConfig:
    """The agent's kubeconfig (one per session; ``config set-*`` edit it)."""

    clusters: dict[str, dict[str, Any]] = field(default_factory=dict)
    users: dict[str, dict[str, Any]] = field(default_factory=dict)
    contexts: dict[str, dict[str, Any]] = field(default_factory=dict)
    current: str = ""

    @classmethod
    def for_agent(cls, surface: ToolSurface) -> KubeConfig:
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


def _kubeconfig(surface: ToolSurface) -> KubeConfig:
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


# ---- one invocation -------------------------------------------------------------------------
class Inv:
    #: names of objects resolved to a namespace by an earlier step (set lazily, see kubectl_cmds)
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
        contexts, users = kc.contexts, kc.users
        current = kc.current
        source = "session"
        if p.get("kubeconfig"):
            path = str(p.get("kubeconfig"))
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
            source = "kubeconfig"
        if p.get("context"):
            current = str(p.get("context"))
            if current not in contexts:
                return f'error: context "{current}" does not exist'
        context = contexts.get(current) or {}
        if (
            p.command == "create"
            and p.args[:1]
            and p.args[0] in ("rolebinding", "clusterrolebinding")
        ):
            selected_user = None  # here --user names a binding subject, not a kubeconfig user
        else:
            selected_user = p.get("user")
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
        external = source == "kubeconfig" or bool(p.get("token")) or (token != self.env.token)
        if not token and (creds.get("client-certificate-data") or creds.get("client-certificate")):
            self.user = str(creds.get("username") or user_name or "admin")
            self.authenticated = False
        elif token == self.env.token:
            self.user = self.surface.user
        else:
            who = token_user(self.env, token)
            if who is None:
                self.user = "system:anonymous"
                self.authenticated = False
            else:
                self.user = who
        if external and token != self.env.token:
            self.ctx.targets.append("container-orchestration/credentials")
        if p.get("as"):
            target = str(p.get("as"))
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


_HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_][\w-]*)\1")
_SHELL = {"|", "||", "&&", ";", ">", ">>", "<", "&", "2>", "2>&1"}
NO_SHELL = (
    "error: this tool runs kubectl itself, not a shell: pipes, redirections and command lists are not "
    "available (pass manifests in `stdin`; use -o jsonpath, -l or --field-selector to filter)"
)


def shell_input(command: str, stdin: str | None) -> tuple[str, str | None, str | None]:
    """The kubectl command line and its stdin from what an agent typed: a here-document
    (``apply -f - <<EOF ... EOF``) or ``cat <<EOF | kubectl ...`` / ``echo '...' | kubectl ...``
    become stdin; any other shell syntax is refused (third item: the error)."""
    text = command.strip()
    first, nl, rest = text.partition("\n")
    m = _HEREDOC.search(first)
    if m and nl:
        body: list[str] = []
        for line in rest.split("\n"):
            if line.strip() == m.group(2):
                break
            body.append(line)
        stdin = "\n".join(body) + "\n"
        text = (first[: m.start()] + first[m.end() :]).strip()
    try:
        lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        tokens = list(lexer)
    except ValueError:
        return text, stdin, None
    if not any(t in _SHELL for t in tokens):
        return text, stdin, None
    if tokens.count("|") == 1 and not any(t in _SHELL - {"|"} for t in tokens):
        left, right = tokens[: tokens.index("|")], tokens[tokens.index("|") + 1 :]
        if left and left[0] in ("cat", "echo", "printf") and right and right[0] in ("kubectl", "k"):
            if left[0] != "cat":
                stdin = " ".join(left[1:]).replace("\\n", "\n") + "\n"
            return " ".join(shlex.quote(t) for t in right), stdin, None
    return text, stdin, NO_SHELL


def run(ctx: CallContext, args: dict[str, Any]) -> ToolResult:
    command = args.get("command")
    if not isinstance(command, str) or not command.strip():
        return ToolResult(
            'error: you must specify the type of resource to get. Use "kubectl api-resources" for a '
            "complete list of supported resources.",
            True,
        )
    stdin = args.get("stdin")
    command, stdin, refused = shell_input(command, stdin if isinstance(stdin, str) else None)
    if refused:
        ctx.targets.append("container-orchestration")
        return ToolResult(refused, True)
    try:
        parsed = parse(split(command))
    except UsageError as exc:
        ctx.targets.append("container-orchestration")
        return ToolResult(str(exc), True)
    inv = Inv(ctx, parsed, stdin if isinstance(stdin, str) else None)
    ctx.targets.append(f"container-orchestration/{parsed.command}")
    if parsed.command == "config":
        from .kubectl_cmds import cmd_config

        try:
            cmd_config(inv)
        except UsageError as exc:
            inv.error(str(exc))
        return inv.result()
    problem = inv.resolve_identity()
    if problem:
        inv.error(problem)
        return inv.result()
    handler = COMMANDS.get(parsed.command)
    if handler is None:
        if parsed.command in INTERACTIVE:
            inv.error(
                f"error: {parsed.command} needs an interactive terminal or a local port, which this session "
                "does not have"
            )
        else:
            inv.error(
                f'error: unknown command "{parsed.command}" for "kubectl"\n\nDid you mean this?\n\tget\n\n'
                "Run 'kubectl --help' for usage."
            )
        return inv.result()
    try:
        handler(inv)
    except UsageError as exc:
        inv.error(str(exc))
    except OutputError as exc:
        inv.error(str(exc))
    return inv.result()


# ---- targets ----------------------------------------------------------------------------------
def targets(inv: Inv, args: list[str], need_name: bool = False) -> list[tuple[str, str | None]]:
    """``TYPE[,TYPE] [NAME...]`` or ``TYPE/NAME...`` -> [(plural, name or None)]."""
    if not args:
        raise UsageError(
            'error: You must specify the type of resource to get. Use "kubectl api-resources" for a '
            "complete list of supported resources."
        )
    out: list[tuple[str, str | None]] = []
    if "/" in args[0]:
        for a in args:
            if "/" not in a:
                raise UsageError(
                    "error: there is no need to specify a resource type as a separate argument when "
                    "passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>'"
                    " instead of 'kubectl get resource resource/<resource_name>'"
                )
            t, _, n = a.partition("/")
            plural = _type(inv, t)
            out.append((plural, n))
        return out
    types: list[str] = []
    for t in args[0].split(","):
        if t.lower() == "all":
            types += ALL
        else:
            types.append(_type(inv, t))
    names = args[1:]
    if need_name and not names:
        raise UsageError("error: resource(s) were provided, but no name was specified")
    for plural in types:
        if names:
            out += [(plural, n) for n in names]
        else:
            out.append((plural, None))
    return out


def _type(inv: Inv, word: str) -> str:
    plural = resolve_type(word)
    if plural is not None:
        return plural
    if word.lower() in EMPTY_TYPES:
        return "@" + EMPTY_TYPES[word.lower()]
    # kubectl asks discovery; the failed lookup is a request like any other
    inv.api("list", word.lower(), inv.ns)
    raise UsageError(f'error: the server doesn\'t have a resource type "{word}"')


def _no_resources(inv: Inv, plural: str) -> str:
    ns = inv.list_ns(plural)
    return f"No resources found in {ns} namespace." if ns else "No resources found"


def _selector_params(inv: Inv) -> dict[str, Any]:
    params = {}
    if inv.p.get("selector"):
        params["labelSelector"] = inv.p.get("selector")
    if inv.p.get("field-selector"):
        params["fieldSelector"] = inv.p.get("field-selector")
    return params


def _sort(objs: list[dict[str, Any]], sort_by: str | None) -> list[dict[str, Any]]:
    if not sort_by:
        return objs
    from .jsonpath import JsonPathError, resolve

    expr = sort_by.strip("'\"").strip("{}")
    expr = expr if expr.startswith(".") else "." + expr

    def key(o: dict[str, Any]) -> tuple[int, Any]:
        try:
            vals = resolve(expr, o)
        except JsonPathError:
            vals = []
        v = vals[0] if vals else None
        if isinstance(v, (int, float)):
            return (0, v)
        if v is None:
            return (2, "")
        try:
            from ..quantity import mem_bytes

            q = mem_bytes(v)
            if q is not None and str(v)[:1].isdigit():
                return (0, q)
        except Exception:  # noqa: BLE001 - not a quantity
            pass
        return (1, str(v))

    return sorted(objs, key=key)


# ---- get ------------------------------------------------------------------------------------
def cmd_get(inv: Inv) -> None:
    p = inv.p
    if p.get("raw"):
        _get_raw(inv, str(p.get("raw")))
        return
    if not p.args and p.has("filename"):
        docs = _manifests(inv)
        p.args = [f"{_kind_plural(d)}/{(d.get('metadata') or {}).get('name')}" for d in docs]
    tlist = targets(inv, p.args)
    fmt = str(p.get("output") or "")
    wide = fmt == "wide"
    structured = fmt and not wide
    multi_kind = (
        len({t for t, _ in tlist}) > 1
        or (p.args and p.args[0].lower() == "all")
        or p.on("show-kind")
    )
    objs_by_kind: dict[str, list[dict[str, Any]]] = {}
    order: list[str] = []
    errors: list[str] = []
    singles = all(n is not None for _, n in tlist)
    for plural, name in tlist:
        if plural not in order:
            order.append(plural)
            objs_by_kind[plural] = []
        if plural.startswith("@"):
            continue
        inv.target(plural, name)
        if name is None:
            res = inv.api("list", plural, inv.list_ns(plural), params=_selector_params(inv))
            if not res.ok:
                if res.code == 404 and p.args and p.args[0].lower() == "all":
                    continue
                errors.append(api_error(res))
                continue
            objs_by_kind[plural] += list(res.body.get("items") or [])
        else:
            res = inv.api("get", plural, inv.ns_for(plural), name)
            if not res.ok:
                if res.code == 404 and p.on("ignore-not-found"):
                    continue
                errors.append(api_error(res))
                continue
            objs_by_kind[plural].append(res.body)
    for plural in order:
        objs_by_kind[plural] = _sort(objs_by_kind[plural], p.get("sort-by"))
    all_objs = [(pl, o) for pl in order for o in objs_by_kind[pl]]
    if structured:
        if all_objs:
            items = [o for _, o in all_objs]
            single = singles and len(tlist) == 1 and len(items) == 1
            plural = all_objs[0][0]
            text = (
                output_object(
                    items[0] if single else items, fmt, plural if len(order) == 1 else None
                )
                if fmt.split("=")[0] != "name"
                else "".join(f"{kind_label(pl)}/{o['metadata']['name']}\n" for pl, o in all_objs)
            )
            if fmt.startswith("jsonpath"):
                inv.out.append(text)  # kubectl prints a jsonpath result without a trailing newline
            else:
                inv.say(text)
        elif not errors and not singles and fmt.split("=")[0] in ("json", "yaml"):
            inv.say(output_object([], fmt))
        elif not errors and not singles:
            inv.err.append(_no_resources(inv, order[0].lstrip("@")) + "\n")
    else:
        blocks = []
        for plural in order:
            objs = objs_by_kind[plural]
            if not objs:
                continue
            blocks.append(
                render_table(
                    inv.env,
                    plural,
                    objs,
                    wide=wide,
                    all_namespaces=inv.list_ns(plural) is None
                    and plural in KINDS
                    and namespaced(plural),
                    show_labels=p.on("show-labels"),
                    label_columns=_label_columns(p),
                    kind_prefix=bool(multi_kind),
                    no_headers=p.on("no-headers"),
                )
            )
        if blocks:
            inv.say("\n".join(blocks))
        elif not errors and not singles:
            inv.err.append(_no_resources(inv, order[0].lstrip("@")) + "\n")
    for e in errors:
        inv.error(e)


def _label_columns(p: Parsed) -> list[str]:
    out = []
    for v in p.all("label-columns"):
        out += [x for x in str(v).split(",") if x]
    return out


def _get_raw(inv: Inv, path: str) -> None:
    parts = [x for x in path.split("?")[0].split("/") if x]
    # /api/v1/namespaces/{ns}/{resource}/{name}
    ns = name = None
    resource = ""
    try:
        i = 2 if parts[0] == "api" else 3
        rest = parts[i:]
        if rest and rest[0] == "namespaces" and len(rest) > 2:
            ns, rest = rest[1], rest[2:]
        resource = rest[0] if rest else ""
        name = rest[1] if len(rest) > 1 else None
    except IndexError:
        pass
    plural = resolve_type(resource) if resource else None
    if plural is None:
        res = inv.api("get", resource or "api", ns, name)
        inv.error(
            api_error(res)
            if not res.ok
            else "Error from server (NotFound): the server could not find the requested resource"
        )
        return
    res = inv.api("get" if name else "list", plural, ns, name)
    if not res.ok:
        inv.error(api_error(res))
        return
    inv.say(json.dumps(res.body, separators=(",", ":")))


# ---- describe -----------------------------------------------------------------------------------
def cmd_describe(inv: Inv) -> None:
    p = inv.p
    if not p.args:
        raise UsageError(
            'error: You must specify the type of resource to describe. Use "kubectl api-resources" '
            "for a complete list of supported resources."
        )
    tlist = targets(inv, p.args)
    blocks: list[str] = []
    for plural, name in tlist:
        if plural.startswith("@"):
            continue
        inv.target(plural, name)
        if name is None:
            res = inv.api("list", plural, inv.list_ns(plural), params=_selector_params(inv))
            if not res.ok:
                inv.error(api_error(res))
                continue
            objs = list(res.body.get("items") or [])
            if not objs:
                inv.err.append(_no_resources(inv, plural) + "\n")
                continue
        else:
            res = inv.api("get", plural, inv.ns_for(plural), name)
            if not res.ok:
                if res.code == 404:
                    # kubectl falls back to a prefix match on the name
                    listed = inv.api("list", plural, inv.ns_for(plural))
                    objs = (
                        [
                            o
                            for o in (listed.body.get("items") or [])
                            if o["metadata"]["name"].startswith(name)
                        ]
                        if listed.ok
                        else []
                    )
                    if objs:
                        blocks += [describe_object(inv.env, plural, o, inv.fetch) for o in objs]
                        continue
                inv.error(api_error(res))
                continue
            objs = [res.body]
        blocks += [describe_object(inv.env, plural, o, inv.fetch) for o in objs]
    if blocks:
        inv.say("\n\n".join(b.rstrip("\n") for b in blocks))


# ---- logs ---------------------------------------------------------------------------------------
def _pods_for(inv: Inv, plural: str, name: str) -> tuple[list[dict[str, Any]], str | None]:
    """The pods behind ``deploy/x`` / ``rs/x`` / ``svc/x`` / ``sts/x`` (as kubectl resolves them)."""
    res = inv.api("get", plural, inv.ns_for(plural), name)
    if not res.ok:
        return [], api_error(res)
    obj = res.body
    if plural == "services":
        sel = (obj.get("spec") or {}).get("selector") or {}
    else:
        sel = ((obj.get("spec") or {}).get("selector") or {}).get("matchLabels") or {}
    if not sel:
        return [], f"error: cannot attach to {obj.get('kind')}: selector is empty"
    selector = ",".join(f"{k}={v}" for k, v in sorted(sel.items()))
    pods = inv.fetch("pods", inv.ns, label_selector=selector)
    pods.sort(
        key=lambda pd: (
            (pd.get("status") or {}).get("phase") != "Running",
            pod_status(pd)[1] < pod_status(pd)[2],
            pd["metadata"]["name"],
        )
    )
    if not pods:
        return (
            [],
            "error: timed out waiting for the condition"
            if plural != "services"
            else f"error: no pods found for service {name}",
        )
    return pods, None


def cmd_logs(inv: Inv) -> None:
    p = inv.p
    args = list(p.args)
    pods: list[dict[str, Any]] = []
    if p.get("selector"):
        pods = inv.fetch("pods", inv.ns, label_selector=str(p.get("selector")))
        if not pods:
            inv.err.append(f"No resources found in {inv.ns} namespace.\n")
            return
        if not p.has("tail"):
            p.flags["tail"] = ["10"]
    else:
        if not args:
            raise UsageError(
                "error: expected POD or TYPE/NAME is a required argument for the logs command\n"
                "See 'kubectl logs -h' for help and examples"
            )
        if len(args) > 1 and not p.get("container"):
            p.flags["container"] = [args[1]]
        target, found = _pod_of(inv, args[0], announce=True)
        if target is None:
            return
        if found is None:
            res = inv.call("get", "pods", inv.ns, target)
            if res is None:
                return
            found = res.body
        pods = [found]
    for pod in pods:
        containers = [c["name"] for c in (pod.get("spec") or {}).get("containers") or []]
        inits = [c["name"] for c in (pod.get("spec") or {}).get("initContainers") or []]
        if p.on("all-containers"):
            wanted = inits + containers
        elif p.get("container"):
            wanted = [str(p.get("container"))]
        else:
            default = (pod["metadata"].get("annotations") or {}).get(
                "kubectl.kubernetes.io/default-container"
            ) or (containers[0] if containers else "")
            if len(containers) > 1 and len(pods) == 1:
                inv.err.append(
                    f'Defaulted container "{default}" out of: {", ".join(containers + inits)}\n'
                )
            wanted = [default]
        for cname in wanted:
            params: dict[str, Any] = {"container": cname}
            if p.get("tail") not in (None, "-1"):
                params["tailLines"] = str(p.get("tail"))
            if p.on("previous"):
                params["previous"] = "true"
            if p.on("timestamps"):
                params["timestamps"] = "true"
            if p.get("since"):
                params["sinceSeconds"] = str(int(parse_duration(p.get("since"), 0)))
            res = inv.api(
                "get",
                "pods",
                pod["metadata"]["namespace"],
                pod["metadata"]["name"],
                sub="log",
                params=params,
            )
            pod_name = pod["metadata"]["name"]
            inv.ctx.targets[:0] = [
                f"container-orchestration/pod/{pod_name}/logs",
                f"observability-logging/{pod_name}",
            ]
            workload = (
                inv.env.workload_of(
                    inv.env.store.raw("pods", pod["metadata"]["namespace"], pod_name) or pod
                )
                if inv.env.store.exists("pods", pod["metadata"]["namespace"], pod_name)
                else None
            )
            if workload:
                inv.ctx.targets += [
                    f"observability-logging/{workload}",
                    f"container-orchestration/deployment/{workload}/logs",
                ]
            if not res.ok:
                inv.error(api_error(res))
                continue
            text = res.body if isinstance(res.body, str) else json.dumps(res.body)
            if p.on("prefix") or len(pods) > 1 or (len(wanted) > 1 and p.on("prefix")):
                text = "".join(f"[pod/{pod_name}/{cname}] {ln}\n" for ln in text.splitlines())
            inv.out.append(text)


def _pod_of(
    inv: Inv, target: str, announce: bool = False
) -> tuple[str | None, dict[str, Any] | None]:
    """The pod a ``POD`` or ``TYPE/NAME`` argument of logs/exec names: (its name, its object when
    a workload lookup already returned it). (None, None) after printing why there is none."""
    if "/" not in target:
        return target, None
    t, _, n = target.partition("/")
    plural = resolve_type(t)
    if plural is None:
        raise UsageError(f'error: the server doesn\'t have a resource type "{t}"')
    if plural == "pods":
        return n, None
    found, problem = _pods_for(inv, plural, n)
    if problem:
        inv.error(problem)
        return None, None
    if announce and len(found) > 1:
        inv.err.append(f"Found {len(found)} pods, using pod/{found[0]['metadata']['name']}\n")
    return found[0]["metadata"]["name"], found[0]


# ---- exec -------------------------------------------------------------------------------------
def cmd_exec(inv: Inv) -> None:
    p = inv.p
    if not p.args:
        raise UsageError("error: pod, type/name or --filename must be specified")
    if not p.dashdash:
        raise UsageError(
            "error: exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead\n"
            "See 'kubectl exec -h' for help and examples"
        )
    if not p.after_dash:
        raise UsageError("error: you must specify at least one command for the container")
    pod_name, _ = _pod_of(inv, p.args[0])
    if pod_name is None:
        return
    res = inv.call("get", "pods", inv.ns, pod_name)
    if res is None:
        return
    pod = res.body
    containers = [c["name"] for c in (pod.get("spec") or {}).get("containers") or []]
    container = p.get("container")
    if not container and len(containers) > 1 and not p.on("quiet"):
        inv.err.append(f'Defaulted container "{containers[0]}" out of: {", ".join(containers)}\n')
    params: dict[str, Any] = {"command": list(p.after_dash)}
    if container:
        params["container"] = container
    res = inv.api("create", "pods", inv.ns, pod_name, sub="exec", params=params)
    inv.ctx.targets.insert(0, f"container-orchestration/pod/{pod_name}/exec")
    if not res.ok:
        inv.error(api_error(res))
        return
    body = res.body or {}
    inv.out.append(str(body.get("stdout") or ""))
    if body.get("stderr"):
        inv.out.append(str(body["stderr"]))
    code = int(body.get("exitCode") or 0)
    if code:
        inv.error(f"command terminated with exit code {code}")


# ---- auth ---------------------------------------------------------------------------------------
def cmd_auth(inv: Inv) -> None:
    p = inv.p
    sub = p.args[0] if p.args else ""
    if sub == "whoami":
        _whoami(inv)
        return
    if sub != "can-i":
        raise UsageError(
            f'error: unknown command "{sub}" for "kubectl auth"'
            if sub
            else "Inspect authorization.\n\nAvailable Commands:\n  can-i       Check whether an action is "
            "allowed\n  reconcile   Reconciles rules for RBAC role, role binding, cluster role, and "
            "cluster role binding objects\n  whoami      Experimental: Check self subject attributes"
        )
    ns = None if p.on("all-namespaces") else inv.ns
    if p.on("list"):
        res = access_review(
            inv,
            {
                "apiVersion": "authorization.k8s.io/v1",
                "kind": "SelfSubjectRulesReview",
                "spec": {"namespace": ns},
            },
            "selfsubjectrulesreviews",
        )
        if not res.ok:
            inv.error(api_error(res))
            return
        rules = (res.body.get("status") or {}).get("resourceRules") or []
        rows = []
        for r in rules:
            res_names = []
            for g in r.get("apiGroups") or [""]:
                for x in r.get("resources") or []:
                    res_names.append(f"{x}.{g}" if g and g != "" else x)
            rows.append(
                [
                    ", ".join(res_names) or "",
                    "[]",
                    "[" + " ".join(r.get("resourceNames") or []) + "]",
                    "[" + " ".join(r.get("verbs") or []) + "]",
                ]
            )
        rows.append(["", "[/api/*]", "[]", "[get]"])
        inv.say(
            table(
                ["Resources", "Non-Resource URLs", "Resource Names", "Verbs"],
                rows,
                no_headers=p.on("no-headers"),
            )
        )
        return
    rest = p.args[1:]
    if len(rest) < 2:
        raise UsageError(
            "error: you must specify two arguments: verb resource or verb resource/resourceName.\n"
            "See 'kubectl auth can-i -h' for help and examples"
        )
    verb, what = rest[0], rest[1]
    name = rest[2] if len(rest) > 2 else None
    if "/" in what and not what.startswith("/"):
        what, _, name = what.partition("/")
    if what.startswith("/"):
        inv.say("yes" if verb == "get" else "no")
        return
    plural = resolve_type(what) or what.split(".")[0].lower()
    if what == "*":
        plural = "*"
    group = ""
    if plural in KINDS:
        version = KINDS[plural][1]
        group = version.split("/", 1)[0] if "/" in version else ""
    body = {
        "apiVersion": "authorization.k8s.io/v1",
        "kind": "SelfSubjectAccessReview",
        "spec": {
            "resourceAttributes": {
                "namespace": ns if plural not in KINDS or namespaced(plural) else None,
                "verb": verb,
                "group": group,
                "resource": plural,
                "subresource": p.get("subresource") or "",
                "name": name or "",
            }
        },
    }
    res = access_review(inv, body)
    if not res.ok:
        inv.error(api_error(res))
        return
    allowed = bool((res.body.get("status") or {}).get("allowed"))
    if plural not in KINDS and plural != "*":
        inv.err.append(f"Warning: the server doesn't have a resource type '{what}'\n\n")
    if not p.on("quiet"):
        inv.say("yes" if allowed else "no")


def access_review(
    inv: Inv, body: dict[str, Any], plural: str = "selfsubjectaccessreviews"
) -> ApiResult:
    """``create selfsubjectaccessreviews|selfsubjectrulesreviews`` (kubectl auth can-i). The
    decision is the API server's; should the server fail to answer, the same RBAC decision
    is taken here and the request is still audited."""
    before = len(inv.env.audit.entries)
    try:
        return inv.api("create", plural, None, body=body)
    except (KeyError, TypeError, AttributeError):
        spec = body.get("spec") or {}
        out = clone(body)
        if plural == "selfsubjectrulesreviews":
            rules = (
                rbac.rules_for(inv.env.store, inv.user, spec.get("namespace"))
                if inv.authenticated
                else []
            )
            out["status"] = {
                "resourceRules": [
                    {k: v for k, v in r.items() if not k.startswith("_")} for r in rules
                ],
                "nonResourceRules": [],
                "incomplete": False,
            }
        else:
            attrs = spec.get("resourceAttributes") or {}
            allowed = inv.authenticated and rbac.authorize(
                inv.env.store,
                inv.user,
                attrs.get("verb", "get"),
                attrs.get("resource", ""),
                attrs.get("namespace"),
                attrs.get("name") or None,
                attrs.get("subresource") or None,
                attrs.get("group", ""),
            )
            out["status"] = {"allowed": bool(allowed)}
        if len(inv.env.audit.entries) == before:
            inv.surface.audit_tool_call(
                inv.ctx, verb="create", resource=plural, code=201, user=inv.user, body=body
            )
        return ApiResult(201, out)


def _whoami(inv: Inv) -> None:
    if not inv.authenticated:
        inv.error(api_error(inv.api("create", "selfsubjectreviews", None)))
        return
    inv.surface.audit_tool_call(
        inv.ctx,
        verb="create",
        resource="selfsubjectreviews",
        code=201,
        user=inv.user,
        body={"apiVersion": "authentication.k8s.io/v1", "kind": "SelfSubjectReview"},
    )
    inv.ctx.api_calls += 1
    groups = inv.env.groups_of(inv.user)
    fmt = inv.p.get("output")
    doc = {
        "apiVersion": "authentication.k8s.io/v1",
        "kind": "SelfSubjectReview",
        "metadata": {"creationTimestamp": None},
        "status": {"userInfo": {"username": inv.user, "groups": groups}},
    }
    if fmt in ("json", "yaml"):
        inv.say(output_object(doc, fmt))
        return
    inv.say(
        tabwriter(
            ["ATTRIBUTE\tVALUE", f"Username\t{inv.user}", f"Groups\t[{' '.join(groups)}]"],
            padding=3,
        )
    )


# ---- top ----------------------------------------------------------------------------------------
def _pod_usage(env: Any, pod: dict[str, Any]) -> dict[str, tuple[float, float]] | None:
    """container -> (cpu millicores, memory bytes), from the metrics pipeline (None: no metrics yet)."""
    from ..observability import pod_usage

    return pod_usage(env, pod)


def cmd_top(inv: Inv) -> None:
    p = inv.p
    if not p.args:
        raise UsageError(
            "Display resource (CPU/memory) usage.\n\nAvailable Commands:\n  node          Display "
            "resource (CPU/memory) usage of nodes\n  pod           Display resource (CPU/memory) usage of pods"
        )
    what = p.args[0].lower()
    names = p.args[1:]
    env = inv.env
    if what in ("pod", "pods", "po"):
        ns = None if p.on("all-namespaces") else inv.ns
        if names:
            pods = []
            for n in names:
                res = inv.api("get", "pods", ns or inv.ns, n)
                if not res.ok:
                    inv.error(api_error(res))
                    return
                pods.append(res.body)
        else:
            res = inv.api("list", "pods", ns, params=_selector_params(inv))
            if not res.ok:
                inv.error(api_error(res))
                return
            pods = list(res.body.get("items") or [])
        rows, no_metrics = [], []
        for pod in pods:
            usage = _pod_usage(env, pod)
            if usage is None:
                no_metrics.append(pod)
                continue
            if p.on("containers"):
                for cname, (cpu, mem) in usage.items():
                    rows.append(
                        ([pod["metadata"]["namespace"]] if ns is None else [])
                        + [pod["metadata"]["name"], cname, f"{int(cpu)}m", f"{int(mem // 2**20)}Mi"]
                    )
            else:
                cpu = sum(u[0] for u in usage.values())
                mem = sum(u[1] for u in usage.values())
                rows.append(
                    ([pod["metadata"]["namespace"]] if ns is None else [])
                    + [pod["metadata"]["name"], f"{int(cpu)}m", f"{int(mem // 2**20)}Mi"]
                )
        if names and no_metrics:
            pod = no_metrics[0]
            inv.error(
                f"error: Metrics not available for pod {pod['metadata']['namespace']}/{pod['metadata']['name']}, "
                f"age: {age(env, pod['metadata'].get('creationTimestamp'))}"
            )
            return
        if not rows:
            inv.err.append(
                f"No resources found in {ns} namespace.\n" if ns else "No resources found\n"
            )
            return
        sort_by = p.get("sort-by")
        idx = (
            (len(rows[0]) - 2)
            if sort_by == "cpu"
            else (len(rows[0]) - 1)
            if sort_by == "memory"
            else None
        )
        if idx is not None:
            column = idx
            rows.sort(key=lambda r: -int(r[column].rstrip("mMi")))
        headers = (
            (["NAMESPACE"] if ns is None else [])
            + ["NAME"]
            + (["NAME"] if p.on("containers") else [])
            + ["CPU(cores)", "MEMORY(bytes)"]
        )
        if p.on("containers"):
            headers[(1 if ns is None else 0)] = "POD"
        inv.say(table(headers, rows, no_headers=p.on("no-headers")))
        return
    if what in ("node", "nodes", "no"):
        if names:
            nodes = []
            for n in names:
                res = inv.api("get", "nodes", None, n)
                if not res.ok:
                    inv.error(api_error(res))
                    return
                nodes.append(res.body)
        else:
            res = inv.api("list", "nodes", None, params=_selector_params(inv))
            if not res.ok:
                inv.error(api_error(res))
                return
            nodes = list(res.body.get("items") or [])
        from ..observability import node_usage

        rows = []
        for node in nodes:
            name = node["metadata"]["name"]
            cpu, mem, a_cpu, a_mem = node_usage(env, node)
            rows.append(
                [
                    name,
                    f"{int(cpu)}m",
                    f"{int(100 * cpu / a_cpu)}%",
                    f"{int(mem // 2**20)}Mi",
                    f"{int(100 * mem / a_mem)}%",
                ]
            )
        if p.get("sort-by") in ("cpu", "memory"):
            idx = 1 if p.get("sort-by") == "cpu" else 3
            rows.sort(key=lambda r: -int(r[idx].rstrip("mMi")))
        inv.say(
            table(
                ["NAME", "CPU(cores)", "CPU%", "MEMORY(bytes)", "MEMORY%"],
                rows,
                no_headers=p.on("no-headers"),
            )
        )
        return
    raise UsageError(f'error: unknown command "{what}" for "kubectl top"')


# ---- events ---------------------------------------------------------------------------------------
def cmd_events(inv: Inv) -> None:
    p = inv.p
    ns = None if p.on("all-namespaces") else inv.ns
    params = {}
    if p.get("for"):
        t, _, n = str(p.get("for")).partition("/")
        plural = resolve_type(t) if n else None
        if not n or plural is None:
            raise UsageError(f"error: invalid value for --for: {p.get('for')}")
        params["fieldSelector"] = f"involvedObject.kind={KINDS[plural][0]},involvedObject.name={n}"
    res = inv.api("list", "events", ns, params=params)
    if not res.ok:
        inv.error(api_error(res))
        return
    items = list(res.body.get("items") or [])
    types = [t for v in p.all("types") for t in str(v).split(",") if t]
    if types:
        items = [e for e in items if e.get("type") in types]
    items.sort(key=lambda e: e.get("lastTimestamp") or e.get("eventTime") or "")
    if not items:
        inv.err.append(f"No events found in {ns} namespace.\n" if ns else "No events found.\n")
        return
    fmt = p.get("output")
    if fmt:
        inv.say(output_object(items, str(fmt), "events"))
        return
    rows = []
    for e in items:
        inv_obj = e.get("involvedObject") or {}
        rows.append(
            ([e["metadata"].get("namespace", "")] if ns is None else [])
            + [
                age(inv.env, e.get("lastTimestamp") or e["metadata"].get("creationTimestamp")),
                e.get("type", ""),
                e.get("reason", ""),
                f"{inv_obj.get('kind', '')}/{inv_obj.get('name', '')}",
                e.get("message", ""),
            ]
        )
    inv.say(
        table(
            (["NAMESPACE"] if ns is None else [])
            + ["LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"],
            rows,
            no_headers=p.on("no-headers"),
        )
    )


# ---- discovery / info -------------------------------------------------------------------------------
def cmd_api_resources(inv: Inv) -> None:
    inv.api("get", "api", None)
    from .kubectl_args import EXTRA_TYPES

    shorts = {
        "pods": "po",
        "services": "svc",
        "configmaps": "cm",
        "namespaces": "ns",
        "nodes": "no",
        "events": "ev",
        "serviceaccounts": "sa",
        "persistentvolumeclaims": "pvc",
        "persistentvolumes": "pv",
        "resourcequotas": "quota",
        "endpoints": "ep",
        "deployments": "deploy",
        "replicasets": "rs",
        "statefulsets": "sts",
        "daemonsets": "ds",
        "ingresses": "ing",
        "networkpolicies": "netpol",
        "horizontalpodautoscalers": "hpa",
        "poddisruptionbudgets": "pdb",
        "storageclasses": "sc",
        "applications": "app,apps",
        "certificates": "cert,certs",
    }
    del EXTRA_TYPES
    rows = []
    for plural, (kind, version, nsd) in sorted(
        KINDS.items(), key=lambda kv: (kv[1][1].count("/"), kv[0])
    ):
        if (
            inv.p.get("namespaced") is not None
            and str(nsd).lower() != str(inv.p.get("namespaced")).lower()
        ):
            continue
        rows.append([plural, shorts.get(plural, ""), version, str(nsd).lower(), kind])
    inv.say(
        table(
            ["NAME", "SHORTNAMES", "APIVERSION", "NAMESPACED", "KIND"],
            rows,
            no_headers=inv.p.on("no-headers"),
        )
    )


def cmd_api_versions(inv: Inv) -> None:
    inv.api("get", "api", None)
    versions = sorted(
        {v for _, v, _ in KINDS.values()}
        | {"authorization.k8s.io/v1", "authentication.k8s.io/v1", "metrics.k8s.io/v1beta1"}
    )
    inv.say("\n".join(versions))


def cmd_cluster_info(inv: Inv) -> None:
    res = inv.api("list", "services", "kube-system")
    if res.code == 401:
        inv.error(api_error(res))
        return
    inv.say(
        f"Kubernetes control plane is running at {SERVER}\n"
        f"CoreDNS is running at {SERVER}/api/v1/namespaces/kube-system/services/kube-dns:dns/proxy\n\n"
        "To further debug and diagnose cluster problems, use 'kubectl cluster-info dump'."
    )


def cmd_version(inv: Inv) -> None:
    client = {"major": "1", "minor": "29", "gitVersion": "v1.29.4", "platform": "linux/amd64"}
    server = {"major": "1", "minor": "29", "gitVersion": SERVER_VERSION, "platform": "linux/amd64"}
    if not inv.p.on("client"):
        inv.api("get", "version", None)
    fmt = inv.p.get("output")
    if fmt in ("json", "yaml"):
        doc = {"clientVersion": client, "kustomizeVersion": "v5.0.4-0.20230601165947-6ce0bf390ce3"}
        if not inv.p.on("client"):
            doc["serverVersion"] = server
        inv.say(json.dumps(doc, indent=2) if fmt == "json" else to_yaml(doc))
        return
    inv.say(
        "Client Version: v1.29.4\nKustomize Version: v5.0.4-0.20230601165947-6ce0bf390ce3"
        + ("" if inv.p.on("client") else f"\nServer Version: {SERVER_VERSION}")
    )


def cmd_whoami(inv: Inv) -> None:
    _whoami(inv)


def cmd_explain(inv: Inv) -> None:
    if not inv.p.args:
        raise UsageError(
            'error: You must specify the type of resource to explain. Use "kubectl api-resources" for '
            "a complete list of supported resources."
        )
    t = inv.p.args[0].split(".")[0]
    plural = resolve_type(t)
    inv.api("get", "openapi", None)
    if plural is None:
        inv.error(f'error: the server doesn\'t have a resource type "{t}"')
        return
    kind, version, _ = KINDS[plural]
    inv.say(
        f"GROUP:      {version.split('/')[0] if '/' in version else ''}\nKIND:       {kind}\n"
        f"VERSION:    {version.split('/')[-1]}\n\nDESCRIPTION:\n    {kind} is a Kubernetes {kind} object.\n\n"
        "FIELDS:\n  apiVersion\t<string>\n  kind\t<string>\n  metadata\t<ObjectMeta>\n  spec\t<Object>\n"
        "  status\t<Object>"
    )


# ---- shared by the write commands ---------------------------------------------------------------------
def _kind_plural(doc: dict[str, Any]) -> str:
    from ..store import plural_of

    return plural_of(str(doc.get("kind", ""))) or str(doc.get("kind", "")).lower()


def _manifests(inv: Inv) -> list[dict[str, Any]]:
    files = inv.p.all("filename")
    texts = []
    for f in files:
        if f in ("-", "/dev/stdin"):
            if inv.stdin is None:
                raise UsageError(
                    "error: no objects passed to apply"
                    if inv.p.command == "apply"
                    else "error: no objects passed to create"
                )
            texts.append(inv.stdin)
        elif str(f).lstrip().startswith(("{", "apiVersion", "kind")):
            texts.append(str(f))
        elif str(f).startswith(("http://", "https://")):
            raise UsageError(
                f'error: unable to read URL "{f}", server reported 404 Not Found, status code=404'
            )
        else:
            raise UsageError(f'error: the path "{f}" does not exist')
    docs: list[dict[str, Any]] = []
    for text in texts:
        try:
            loaded = (
                [json.loads(text)] if text.lstrip().startswith(("{", "[")) else safe_load_all(text)
            )
        except (json.JSONDecodeError, yaml.YAMLError) as exc:
            raise UsageError(f"error: error parsing STDIN: {exc}") from None
        for d in loaded:
            if d is None:
                continue
            if isinstance(d, list):
                docs += [x for x in d if isinstance(x, dict)]
            elif (
                isinstance(d, dict)
                and str(d.get("kind", "")).endswith("List")
                and isinstance(d.get("items"), list)
            ):
                docs += [x for x in d["items"] if isinstance(x, dict)]
            elif isinstance(d, dict):
                docs.append(d)
            else:
                raise UsageError("error: error validating data: invalid object")
    if not docs:
        raise UsageError("error: no objects passed to apply")
    for d in docs:
        if not d.get("kind") or not d.get("apiVersion"):
            missing = "kind" if not d.get("kind") else "apiVersion"
            raise UsageError(
                f'error: error validating "STDIN": error validating data: {missing} not set; if you '
                "choose to ignore these errors, turn validation off with --validate=false"
            )
    return docs


# at the end: kubectl_cmds imports this module (the emulator's layout is reworked later)
from .kubectl_cmds import WRITE_COMMANDS  # noqa: E402

COMMANDS = {
    "get": cmd_get,
    "describe": cmd_describe,
    "logs": cmd_logs,
    "log": cmd_logs,
    "exec": cmd_exec,
    "auth": cmd_auth,
    "top": cmd_top,
    "events": cmd_events,
    "api-resources": cmd_api_resources,
    "api-versions": cmd_api_versions,
    "cluster-info": cmd_cluster_info,
    "version": cmd_version,
    "whoami": cmd_whoami,
    "explain": cmd_explain,
    **WRITE_COMMANDS,
}

__all__ = ["KubeConfig", "api_error", "run", "token_user", "tools"]
