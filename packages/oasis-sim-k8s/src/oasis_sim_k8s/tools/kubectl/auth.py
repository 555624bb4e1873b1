"""``kubectl auth can-i`` / ``auth whoami`` / ``whoami``: access reviews made as the
session's identity, answered by the API server's RBAC."""

from __future__ import annotations

from ...cluster.store import KINDS, namespaced
from ..describe_text import tabwriter
from ..k8s_format import output_object, table
from .args import UsageError, resolve_type
from .session import Inv, api_error
from .writes import access_review, ssar


# ---- auth ---------------------------------------------------------------------------------------
def _can_i_list(inv: Inv, ns: str | None) -> None:
    """``auth can-i --list``: a SelfSubjectRulesReview, printed as kubectl's rules table."""
    review = {
        "apiVersion": "authorization.k8s.io/v1",
        "kind": "SelfSubjectRulesReview",
        "spec": {"namespace": ns},
    }
    res = access_review(inv, review, "selfsubjectrulesreviews")
    if not res.ok:
        inv.error(api_error(res))
        return
    rows = []
    for r in (res.body.get("status") or {}).get("resourceRules") or []:
        res_names = [
            f"{x}.{g}" if g else x
            for g in r.get("apiGroups") or [""]
            for x in r.get("resources") or []
        ]
        rows.append(
            [
                ", ".join(res_names),
                "[]",
                "[" + " ".join(r.get("resourceNames") or []) + "]",
                "[" + " ".join(r.get("verbs") or []) + "]",
            ]
        )
    rows.append(["", "[/api/*]", "[]", "[get]"])
    headers = ["Resources", "Non-Resource URLs", "Resource Names", "Verbs"]
    inv.say(table(headers, rows, no_headers=inv.p.on("no-headers")))


def _can_i(inv: Inv, ns: str | None, rest: list[str]) -> None:
    """``auth can-i VERB RESOURCE[/NAME]``: one SelfSubjectAccessReview."""
    p = inv.p
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
    plural = "*" if what == "*" else resolve_type(what) or what.split(".")[0].lower()
    scoped = ns if plural not in KINDS or namespaced(plural) else None
    body = ssar(scoped, verb, plural, p.get("subresource"), name)
    res = access_review(inv, body)
    if not res.ok:
        inv.error(api_error(res))
        return
    allowed = bool((res.body.get("status") or {}).get("allowed"))
    if plural not in KINDS and plural != "*":
        inv.err.append(f"Warning: the server doesn't have a resource type '{what}'\n\n")
    if not p.on("quiet"):
        inv.say("yes" if allowed else "no")


def cmd_auth(inv: Inv) -> None:
    """``kubectl auth can-i|whoami``: reviews made as the session's identity."""
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
        _can_i_list(inv, ns)
    else:
        _can_i(inv, ns, p.args[1:])


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


def cmd_whoami(inv: Inv) -> None:
    """``kubectl whoami``: the session's identity, from a SelfSubjectReview."""
    _whoami(inv)
