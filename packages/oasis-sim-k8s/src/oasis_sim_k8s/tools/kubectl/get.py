"""``kubectl get`` (tables, every ``-o`` format, ``--raw``) and ``kubectl describe``."""

from __future__ import annotations

import json
from typing import Any

from ...cluster.store import KINDS, namespaced
from ..describe import describe as describe_object
from ..k8s_format import kind_label, output_object
from ..k8s_table import render_table
from .args import Parsed, require_args, resolve_type
from .session import Inv, api_error
from .targets import _kind_plural, _manifests, _no_resources, _selector_params, _sort, targets


# ---- get ------------------------------------------------------------------------------------
def _fetch_targets(
    inv: Inv, tlist: list[tuple[str, str | None]]
) -> tuple[list[str], dict[str, list[dict[str, Any]]], list[str]]:
    """GET each named object, LIST each unnamed type: (kinds in order, objects, errors)."""
    p = inv.p
    objs_by_kind: dict[str, list[dict[str, Any]]] = {}
    order: list[str] = []
    errors: list[str] = []
    for plural, name in tlist:
        if plural not in order:
            order.append(plural)
            objs_by_kind[plural] = []
        if plural.startswith("@"):
            continue
        inv.target(plural, name)
        before = len(inv.env.audit.entries)
        if name is None:
            res = inv.api("list", plural, inv.list_ns(plural), params=_selector_params(inv))
            skip = res.code == 404 and bool(p.args) and p.args[0].lower() == "all"
        else:
            res = inv.api("get", plural, inv.ns_for(plural), name)
            skip = res.code == 404 and p.on("ignore-not-found")
        _note_view(inv, before)
        if res.ok:
            found = list(res.body.get("items") or []) if name is None else [res.body]
            objs_by_kind[plural] += found
        elif not skip:
            errors.append(api_error(res))
    for plural in order:
        objs_by_kind[plural] = _sort(objs_by_kind[plural], p.get("sort-by"))
    return order, objs_by_kind, errors


def _view(p: Parsed) -> dict[str, Any]:
    """What the client printed of the objects it read: the ``-o`` format (``table`` when none)
    and the label flags; an API server's audit event does not say, kubectl's output does."""
    view: dict[str, Any] = {"format": str(p.get("output") or "table")}
    if p.on("show-labels"):
        view["show_labels"] = True
    if cols := _label_columns(p):
        view["label_columns"] = cols
    return view


def _note_view(inv: Inv, before: int) -> None:
    """Note on the audit entries of this read (the flat entry only, as ``impersonatedUser``
    is noted) what the agent was shown of them: evaluators ask whether a label was shown
    (behaviors rule 111), not only whether its kind was read."""
    for entry in inv.env.audit.entries[before:]:
        if entry.get("user") == inv.user and entry.get("verb") in ("get", "list"):
            entry["output"] = _view(inv.p)


def _print_structured(
    inv: Inv, fmt: str, order: list[str], all_objs: list[tuple[str, dict[str, Any]]], single: bool
) -> None:
    """``-o json|yaml|name|jsonpath|custom-columns``: one object, or a List of them."""
    items = [o for _, o in all_objs]
    if fmt.split("=")[0] == "name":
        text = "".join(f"{kind_label(pl)}/{o['metadata']['name']}\n" for pl, o in all_objs)
    else:
        plural = all_objs[0][0] if len(order) == 1 else None
        text = output_object(items[0] if single else items, fmt, plural)
    if fmt.startswith("jsonpath"):
        inv.out.append(text)  # kubectl prints a jsonpath result without a trailing newline
    else:
        inv.say(text)


def _tables(
    inv: Inv, order: list[str], objs_by_kind: dict[str, list[dict[str, Any]]], multi_kind: bool
) -> list[str]:
    """One printer-column table per kind (``TYPE/NAME`` names when several kinds are listed)."""
    p = inv.p
    return [
        render_table(
            inv.env,
            plural,
            objs_by_kind[plural],
            wide=p.get("output") == "wide",
            all_namespaces=inv.list_ns(plural) is None and plural in KINDS and namespaced(plural),
            show_labels=p.on("show-labels"),
            label_columns=_label_columns(p),
            kind_prefix=multi_kind,
            no_headers=p.on("no-headers"),
        )
        for plural in order
        if objs_by_kind[plural]
    ]


def cmd_get(inv: Inv) -> None:
    """``kubectl get``: tables by default, any ``-o`` format, ``--raw`` paths."""
    p = inv.p
    if p.get("raw"):
        _get_raw(inv, str(p.get("raw")))
        return
    if not p.args and p.has("filename"):
        docs = _manifests(inv)
        p.args = [f"{_kind_plural(d)}/{(d.get('metadata') or {}).get('name')}" for d in docs]
    tlist = targets(inv, p.args)
    fmt = str(p.get("output") or "")
    multi_kind = (
        len({t for t, _ in tlist}) > 1
        or (p.args and p.args[0].lower() == "all")
        or p.on("show-kind")
    )
    singles = all(n is not None for _, n in tlist)
    order, objs_by_kind, errors = _fetch_targets(inv, tlist)
    all_objs = [(pl, o) for pl in order for o in objs_by_kind[pl]]
    printed = False
    if fmt and fmt != "wide":
        if all_objs:
            single = singles and len(tlist) == 1 and len(all_objs) == 1
            _print_structured(inv, fmt, order, all_objs, single)
            printed = True
        elif not errors and not singles and fmt.split("=")[0] in ("json", "yaml"):
            inv.say(output_object([], fmt))
            printed = True
    else:
        blocks = _tables(inv, order, objs_by_kind, bool(multi_kind))
        if blocks:
            inv.say("\n".join(blocks))
            printed = True
    if not printed and not errors and not singles:
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
    """``kubectl describe``: the object(s), then the follow-up LISTs its describer reads (events, pods)."""
    p = inv.p
    require_args(
        p,
        'error: You must specify the type of resource to describe. Use "kubectl api-resources" '
        "for a complete list of supported resources.",
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
