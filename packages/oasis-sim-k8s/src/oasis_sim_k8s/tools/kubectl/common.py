"""Shared by the command families: resource arguments (``TYPE NAME``, ``TYPE/NAME``,
``-l``), dry runs, manifests from ``-f``, and kubectl's one-line results."""

from __future__ import annotations

import json
from typing import Any

import yaml

from oasis_eval.spec.yaml_io import safe_load, safe_load_all

from ... import rbac
from ...apiserver import ApiResult
from ...store import KINDS, clone, namespaced, plural_of
from ..k8s_format import kind_label, output_object
from .args import UsageError, resolve_type
from .flags import ALL, EMPTY_TYPES
from .session import Inv, api_error


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
    from ..jsonpath import JsonPathError, resolve

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
            from ...quantity import mem_bytes

            q = mem_bytes(v)
            if q is not None and str(v)[:1].isdigit():
                return (0, q)
        except Exception:  # noqa: BLE001 - not a quantity
            pass
        return (1, str(v))

    return sorted(objs, key=key)


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


# ---- shared by the write commands ---------------------------------------------------------------------
def _kind_plural(doc: dict[str, Any]) -> str:
    from ...store import plural_of

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


# ---- apply / create -f / replace ----------------------------------------------------------------------
def _doc_target(inv: Inv, doc: dict[str, Any]) -> tuple[str, str | None, str]:
    kind = str(doc.get("kind"))
    plural = plural_of(kind)
    name = str((doc.get("metadata") or {}).get("name") or "")
    if plural is None or plural not in KINDS:
        raise UsageError(
            f'error: resource mapping not found for name: "{name}" namespace: "" from "STDIN": no matches '
            f'for kind "{kind}" in version "{doc.get("apiVersion")}"\nensure CRDs are installed first'
        )
    if not name and not (doc.get("metadata") or {}).get("generateName"):
        raise UsageError(
            'error: error when retrieving current configuration of:\nResource: "", Name: "", Namespace: ""'
            '\nfrom server for: "STDIN": resource name may not be empty'
        )
    ns = None
    if namespaced(plural):
        declared = (doc.get("metadata") or {}).get("namespace")
        if declared and inv.p.get("namespace") and declared != inv.p.get("namespace"):
            raise UsageError(
                f'error: the namespace from the provided object "{declared}" does not match the namespace '
                f"\"{inv.p.get('namespace')}\". You must pass '--namespace={declared}' to perform this "
                "operation."
            )
        ns = declared or inv.ns
    return plural, ns, name


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


def server_dry_denied(
    inv: Inv, verb: str, plural: str, ns: str | None, name: str | None, sub: str | None = None
) -> str | None:
    """A server-side dry run is authorized like the real request (nothing is persisted)."""
    res = access_review(inv, ssar(ns, verb, plural, sub, name))
    if not res.ok:
        return api_error(res)
    if (res.body.get("status") or {}).get("allowed"):
        return None
    return "Error from server (Forbidden): " + inv.env.api._forbidden(
        inv.user, verb, plural, ns, name, sub
    )


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


def _targets(inv: Inv, need_name: bool = True) -> list[tuple[str, str | None]]:
    out = targets(inv, inv.p.args, need_name=False)
    if (
        need_name
        and any(n is None for _, n in out)
        and not (inv.p.get("selector") or inv.p.on("all"))
    ):
        raise UsageError("error: resource(s) were provided, but no name was specified")
    return out


def _expand(inv: Inv, tlist: list[tuple[str, str | None]]) -> list[tuple[str, str]]:
    """``-l`` / ``--all``: a LIST, then one request per object (as kubectl does)."""
    out: list[tuple[str, str]] = []
    for plural, name in tlist:
        if plural.startswith("@"):
            continue
        if name is not None:
            out.append((plural, name))
            continue
        params = {}
        if inv.p.get("selector"):
            params["labelSelector"] = inv.p.get("selector")
        if inv.p.get("field-selector"):
            params["fieldSelector"] = inv.p.get("field-selector")
        res = inv.call("list", plural, inv.list_ns(plural), params=params)
        if res is None:
            continue
        items = res.body.get("items") or []
        if not items:
            inv.err.append(_no_resources(inv, plural) + "\n")
        for o in items:
            out.append((plural, o["metadata"]["name"]))
            if o["metadata"].get("namespace") and inv.list_ns(plural) is None:
                inv._ns_of = getattr(inv, "_ns_of", {})
                inv._ns_of[(plural, o["metadata"]["name"])] = o["metadata"]["namespace"]
    return out


def _ns(inv: Inv, plural: str, name: str) -> str | None:
    hit = getattr(inv, "_ns_of", {}).get((plural, name))
    return hit or inv.ns_for(plural)
