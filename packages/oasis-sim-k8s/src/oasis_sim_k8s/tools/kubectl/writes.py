"""Shared by the write commands: dry runs (``--dry-run=server`` is the real request with
``dryRun=All``), access reviews, kubectl's one-line results and manifest comparison."""

from __future__ import annotations

import json
from typing import Any

import yaml

from oasis_eval.spec.yaml_io import safe_load

from ...cluster import rbac
from ...cluster.apiserver import ApiResult
from ...cluster.store import KINDS, clone
from ..k8s_format import kind_label, output_object
from .args import UsageError
from .session import Inv, api_error


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


# ---- set --------------------------------------------------------------------------------------------------
def _pod_spec_path(plural: str) -> list[str]:
    return ["spec"] if plural == "pods" else ["spec", "template", "spec"]


def _pod_spec(obj: dict[str, Any], plural: str) -> dict[str, Any]:
    cur: Any = obj
    for k in _pod_spec_path(plural):
        cur = (cur or {}).get(k) or {}
    return cur


LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"


SCALABLE = ("deployments", "replicasets", "statefulsets")


WORKLOADS = ("deployments", "statefulsets", "daemonsets", "replicasets")


# ---- dry run ----------------------------------------------------------------------------------
def dry_mode(inv: Inv) -> str | None:
    value = inv.p.get("dry-run")
    if value in (None, "none", "false"):
        return None
    if value in ("true", "unchanged"):
        return "client"
    if value not in ("client", "server"):
        raise UsageError(
            f'error: Invalid dry-run value ({value}). Must be "none", "server", or "client".'
        )
    return value


#: the query a server dry run carries (its audit entry's ``requestURI`` shows it)
DRY = {"dryRun": "All"}


def dry_suffix(mode: str | None) -> str:
    return {"client": " (dry run)", "server": " (server dry run)"}.get(mode or "", "")


def api_group(plural: str) -> str:
    """The API group of a resource ("" for the core group and unknown resources)."""
    version = KINDS[plural][1] if plural in KINDS else ""
    return version.split("/", 1)[0] if "/" in version else ""


def ssar(
    ns: str | None, verb: str, plural: str, sub: str | None = None, name: str | None = None
) -> dict[str, Any]:
    """A SelfSubjectAccessReview of one request, as kubectl sends it."""
    return {
        "apiVersion": "authorization.k8s.io/v1",
        "kind": "SelfSubjectAccessReview",
        "spec": {
            "resourceAttributes": {
                "namespace": ns,
                "verb": verb,
                "group": api_group(plural),
                "resource": plural,
                "subresource": sub or "",
                "name": name or "",
            }
        },
    }


def dry_refused(
    inv: Inv,
    mode: str | None,
    verb: str,
    plural: str,
    ns: str | None,
    name: str | None,
    sub: str | None = None,
    *,
    body: Any = None,
    params: dict[str, Any] | None = None,
) -> bool:
    """``--dry-run=server``: kubectl sends the write itself with ``dryRun=All``; the API server
    authorizes, validates and admits it, audits it as that write and stores nothing. A
    refusal's error is printed (True); ``mode`` other than "server" sends nothing (False)."""
    if mode != "server":
        return False
    res = inv.api(verb, plural, ns, name, body=body, sub=sub, params={**(params or {}), **DRY})
    if res.ok:
        return False
    inv.error(api_error(res))
    return True


def _emit(
    inv: Inv, plural: str, obj: dict[str, Any], verb_text: str, mode: str | None = None
) -> None:
    fmt = inv.p.get("output")
    if fmt and fmt != "wide":
        inv.say(output_object(obj, str(fmt), plural))
        return
    inv.say(f"{kind_label(plural)}/{obj['metadata']['name']} {verb_text}{dry_suffix(mode)}")


def _same(a: dict[str, Any] | None, b: dict[str, Any] | None) -> bool:
    def strip(o: dict[str, Any] | None) -> Any:
        if o is None:
            return None
        o = clone(o)
        meta = o.get("metadata") or {}
        for k in ("resourceVersion", "generation", "managedFields"):
            meta.pop(k, None)
        o.pop("status", None)
        return o

    return strip(a) == strip(b)


def contains(live: Any, wanted: Any) -> bool:
    """Every field the manifest sets already has that value live (kubectl's empty apply patch)."""
    if isinstance(wanted, dict):
        return isinstance(live, dict) and all(
            contains(live.get(k), v) for k, v in wanted.items() if k != LAST_APPLIED
        )
    if isinstance(wanted, list):
        return (
            isinstance(live, list)
            and len(live) == len(wanted)
            and all(contains(a, b) for a, b in zip(live, wanted))
        )
    if isinstance(wanted, (int, float)) and not isinstance(wanted, bool) and isinstance(live, str):
        return live == str(wanted)
    return live == wanted


def _parse_body(text: str, what: str = "patch") -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    try:
        return safe_load(text)
    except yaml.YAMLError as exc:
        raise UsageError(f'error: unable to parse "{text}": {exc}') from None
