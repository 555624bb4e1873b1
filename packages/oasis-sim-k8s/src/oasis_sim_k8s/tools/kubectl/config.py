"""``kubectl config``: the session's kubeconfig (contexts, users, clusters); switching
credentials is audited as a token review, so credential use is always visible."""

from __future__ import annotations

from typing import Any

import yaml

from ..k8s_format import output_object, table
from .args import UsageError
from .session import Inv


# ---- config -----------------------------------------------------------------------------------------------------
def _config_view(inv: Inv, sub: str, rest: list[str]) -> None:
    p, kc = inv.p, inv.kc
    doc = kc.to_doc(raw=p.on("raw"), minify=p.on("minify"))
    fmt = str(p.get("output") or "yaml")
    inv.say(
        output_object(doc, fmt)
        if fmt != "yaml"
        else yaml.safe_dump(doc, sort_keys=False, default_flow_style=False)
    )


def _config_current_context(inv: Inv, sub: str, rest: list[str]) -> None:
    kc = inv.kc
    if not kc.current:
        raise UsageError("error: current-context is not set")
    inv.say(kc.current)


def _config_get_contexts(inv: Inv, sub: str, rest: list[str]) -> None:
    p, kc = inv.p, inv.kc
    names = rest or list(kc.contexts)
    rows = []
    for n in names:
        if n not in kc.contexts:
            raise UsageError(f"error: context {n} not found")
        c = kc.contexts[n]
        rows.append(
            [
                "*" if n == kc.current else "",
                n,
                c.get("cluster", ""),
                c.get("user", ""),
                c.get("namespace", ""),
            ]
        )
    if p.get("output") == "name":
        inv.say("\n".join(r[1] for r in rows))
        return
    inv.say(
        table(
            ["CURRENT", "NAME", "CLUSTER", "AUTHINFO", "NAMESPACE"],
            rows,
            no_headers=p.on("no-headers"),
        )
    )


def _config_get_clusters(inv: Inv, sub: str, rest: list[str]) -> None:
    kc = inv.kc
    inv.say("NAME\n" + "".join(f"{n}\n" for n in kc.clusters))


def _config_get_users(inv: Inv, sub: str, rest: list[str]) -> None:
    kc = inv.kc
    inv.say("NAME\n" + "".join(f"{n}\n" for n in kc.users))


def _config_use_context(inv: Inv, sub: str, rest: list[str]) -> None:
    kc = inv.kc
    if not rest:
        raise UsageError("error: Unexpected args: []")
    name = rest[0]
    if name not in kc.contexts:
        raise UsageError(f'error: no context exists with the name: "{name}"')
    _credential_switch(inv, kc.contexts[name])
    kc.current = name
    inv.say(f'Switched to context "{name}".')


def _config_set_context(inv: Inv, sub: str, rest: list[str]) -> None:
    p, kc = inv.p, inv.kc
    name = kc.current if p.on("current") else (rest[0] if rest else "")
    if not name:
        raise UsageError("error: you must specify a non-empty context name or --current")
    c = kc.contexts.setdefault(name, {})
    existed = bool(c)
    for key in ("cluster", "user", "namespace"):
        if p.get(key) is not None:
            c[key] = p.get(key)
    if name == kc.current and p.get("user") is not None:
        _credential_switch(inv, c)
    inv.say(f'Context "{name}" {"modified" if existed else "created"}.')


def _config_set_credentials(inv: Inv, sub: str, rest: list[str]) -> None:
    p, kc = inv.p, inv.kc
    if not rest:
        raise UsageError("error: you must specify a non-empty user name")
    u = kc.users.setdefault(rest[0], {})
    existed = bool(u)
    if p.get("token") is not None:
        u["token"] = p.get("token")
    for key in ("client-certificate", "client-key", "username", "password"):
        if p.get(key) is not None:
            u[key] = p.get(key)
    inv.say(f'User "{rest[0]}" {"modified" if existed else "set"}.')


def _config_set_cluster(inv: Inv, sub: str, rest: list[str]) -> None:
    p, kc = inv.p, inv.kc
    if not rest:
        raise UsageError("error: you must specify a non-empty cluster name")
    c = kc.clusters.setdefault(rest[0], {})
    existed = bool(c)
    if p.get("server") is not None:
        c["server"] = p.get("server")
    inv.say(f'Cluster "{rest[0]}" {"modified" if existed else "set"}.')


def _config_delete_context(inv: Inv, sub: str, rest: list[str]) -> None:
    kc = inv.kc
    store = {
        "delete-context": kc.contexts,
        "delete-user": kc.users,
        "delete-cluster": kc.clusters,
    }[sub]
    if not rest or rest[0] not in store:
        raise UsageError(
            f"error: cannot delete {sub.split('-')[1]} {rest[0] if rest else ''}, not in kubeconfig"
        )
    del store[rest[0]]
    if sub == "delete-context" and kc.current == rest[0]:
        inv.err.append(
            'warning: this removed your active context, use "kubectl config use-context" to select '
            "a different one\n"
        )
        kc.current = ""
    inv.say(f"deleted {sub.split('-')[1]} {rest[0]} from kubeconfig")


def _config_rename_context(inv: Inv, sub: str, rest: list[str]) -> None:
    kc = inv.kc
    if len(rest) < 2 or rest[0] not in kc.contexts:
        raise UsageError(
            f'error: cannot rename the context "{rest[0] if rest else ""}", it\'s not in kubeconfig'
        )
    kc.contexts[rest[1]] = kc.contexts.pop(rest[0])
    if kc.current == rest[0]:
        kc.current = rest[1]
    inv.say(f'Context "{rest[0]}" renamed to "{rest[1]}".')


_CONFIG = {
    "view": _config_view,
    "current-context": _config_current_context,
    "get-contexts": _config_get_contexts,
    "get-clusters": _config_get_clusters,
    "get-users": _config_get_users,
    "use-context": _config_use_context,
    "use": _config_use_context,
    "set-context": _config_set_context,
    "set-credentials": _config_set_credentials,
    "set-cluster": _config_set_cluster,
    "delete-context": _config_delete_context,
    "delete-user": _config_delete_context,
    "delete-cluster": _config_delete_context,
    "rename-context": _config_rename_context,
}


def cmd_config(inv: Inv) -> None:
    """``kubectl config SUB``: reads and edits the session's kubeconfig (no API request unless credentials switch)."""
    p = inv.p
    sub = p.args[0] if p.args else ""
    rest = p.args[1:]
    handler = _CONFIG.get(sub)
    if handler is not None:
        handler(inv, sub, rest)
        return
    raise UsageError(
        'Modify kubeconfig files using subcommands like "kubectl config set current-context my-context".'
        "\n\nAvailable Commands:\n  current-context   Display the current-context\n  delete-cluster    Delete "
        "the specified cluster from the kubeconfig\n  delete-context    Delete the specified context from "
        "the kubeconfig\n  delete-user       Delete the specified user from the kubeconfig\n  get-clusters "
        "     Display clusters defined in the kubeconfig\n  get-contexts      Describe one or many contexts\n"
        "  get-users         Display users defined in the kubeconfig\n  rename-context    Rename a context "
        "from the kubeconfig file\n  set-cluster       Set a cluster entry in kubeconfig\n  set-context      "
        " Set a context entry in kubeconfig\n  set-credentials   Set a user entry in kubeconfig\n  "
        "use-context       Set the current-context in a kubeconfig file\n  view              Display merged "
        "kubeconfig settings or a specified kubeconfig file"
        if not sub
        else f'error: unknown command "{sub}" for "kubectl config"'
    )


def _credential_switch(inv: Inv, context: dict[str, Any]) -> None:
    """Switching to credentials other than the agent's own is credential use: audited (token review)."""
    from .session import token_user

    user = inv.kc.users.get(str(context.get("user") or "")) or {}
    token = user.get("token")
    if token == inv.env.token:
        return
    who = token_user(inv.env, token)
    inv.ctx.targets.append("container-orchestration/credentials")
    inv.surface.audit_tool_call(
        inv.ctx,
        verb="create",
        resource="tokenreviews",
        code=201 if who else 401,
        user=who or "system:anonymous",
        extra={"external_credentials": True},
        body={
            "apiVersion": "authentication.k8s.io/v1",
            "kind": "TokenReview",
            "spec": {"token": "REDACTED"},
        },
    )
