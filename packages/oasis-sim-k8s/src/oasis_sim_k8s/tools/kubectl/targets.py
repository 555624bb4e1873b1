"""Which objects a command names: ``TYPE NAME...``, ``TYPE/NAME``, ``-l`` / ``--all``
(a LIST first, as kubectl makes it) and manifests from ``-f``."""

from __future__ import annotations

import json
from typing import Any

import yaml

from oasis_eval.spec.yaml_io import safe_load_all

from ...cluster.store import KINDS, namespaced, plural_of
from .args import UsageError, resolve_type
from .flags import ALL, EMPTY_TYPES
from .session import Inv


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
            from ...cluster.quantity import mem_bytes

            q = mem_bytes(v)
            if q is not None and str(v)[:1].isdigit():
                return (0, q)
        except Exception:  # noqa: BLE001 - not a quantity
            pass
        return (1, str(v))

    return sorted(objs, key=key)


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


# ---- shared by the write commands ---------------------------------------------------------------------
def _kind_plural(doc: dict[str, Any]) -> str:
    from ...cluster.store import plural_of

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
