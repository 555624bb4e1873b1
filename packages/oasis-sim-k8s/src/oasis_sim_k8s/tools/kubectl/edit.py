"""In-place edits: ``scale``, ``patch``, ``label``, ``annotate`` and ``delete``."""

from __future__ import annotations

from ...cluster import patching
from ..k8s_format import kind_label
from .args import UsageError
from .session import Inv, api_error
from .targets import _doc_target, _expand, _manifests, _ns, _targets, targets
from .writes import SCALABLE, _emit, _parse_body, _same, dry_mode, dry_refused, dry_suffix

#: a merge patch's query (kubectl scale's and label's PATCH)
MERGE = {"patchType": "merge"}


# ---- scale ----------------------------------------------------------------------------------------
def cmd_scale(inv: Inv) -> None:
    """``kubectl scale``: a GET, then a PATCH of the ``scale`` subresource (as kubectl sends it)."""
    p = inv.p
    if p.get("replicas") is None:
        raise UsageError('error: required flag(s) "replicas" not set')
    try:
        replicas = int(p.get("replicas"))
    except ValueError:
        raise UsageError(
            f'error: invalid argument "{p.get("replicas")}" for "--replicas" flag: strconv.ParseInt: '
            f'parsing "{p.get("replicas")}": invalid syntax'
        ) from None
    if replicas < 0:
        raise UsageError(
            "error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0"
        )
    mode = dry_mode(inv)
    for plural, name in _expand(inv, _targets(inv)):
        ns = _ns(inv, plural, name)
        if plural not in SCALABLE:
            inv.error(
                "Error from server (NotFound): the server could not find the requested resource"
            )
            continue
        if p.get("current-replicas") is not None or mode:
            res = inv.call("get", plural, ns, name)
            if res is None:
                continue
            current = (res.body.get("spec") or {}).get("replicas", 1)
            if p.get("current-replicas") is not None and str(current) != str(
                p.get("current-replicas")
            ):
                inv.error(
                    f"error: Expected replicas to be {p.get('current-replicas')}, was {current}"
                )
                continue
            scale = {"spec": {"replicas": replicas}}
            if dry_refused(inv, mode, "patch", plural, ns, name, "scale", body=scale, params=MERGE):
                continue
            if mode:
                inv.say(f"{kind_label(plural)}/{name} scaled{dry_suffix(mode)}")
                continue
        res = inv.call("scale", plural, ns, name, params={"replicas": replicas})
        if res is None:
            continue
        inv.say(f"{kind_label(plural)}/{name} scaled")


# ---- patch ----------------------------------------------------------------------------------------
def cmd_patch(inv: Inv) -> None:
    """``kubectl patch``: strategic, merge or JSON patches, each a GET then a PATCH."""
    p = inv.p
    text = p.get("patch")
    if text is None and p.get("patch-file"):
        raise UsageError(
            f"error: unable to read patch file: open {p.get('patch-file')}: no such file or directory"
        )
    if text is None:
        raise UsageError("error: must specify -p to patch")
    kind = str(p.get("type") or "strategic").lower()
    if kind not in ("strategic", "merge", "json"):
        raise UsageError(f'error: --type must be one of [json merge strategic], not "{kind}"')
    body = _parse_body(str(text))
    if kind == "json" and not isinstance(body, list):
        raise UsageError(
            'error: unable to parse "{}": json: cannot unmarshal object into Go value of type '
            "jsonpatch.Patch".replace("{}", str(text))
        )
    if kind != "json" and not isinstance(body, dict):
        raise UsageError(
            f'error: unable to parse "{text}": yaml: did not find expected node content'
        )
    mode = dry_mode(inv)
    tlist = _targets(inv)
    if not tlist:
        return
    for plural, name in _expand(inv, tlist):
        ns = _ns(inv, plural, name)
        before = inv.call("get", plural, ns, name)
        if before is None:
            continue
        if mode:
            try:
                after = patching.apply(before.body, body, kind)
            except patching.PatchError as exc:
                inv.error(f"Error from server (Invalid): {exc}")
                continue
            if dry_refused(
                inv,
                mode,
                "patch",
                plural,
                ns,
                name,
                p.get("subresource"),
                body=body,
                params={"patchType": kind},
            ):
                continue
            _emit(
                inv,
                plural,
                after,
                "patched" if not _same(before.body, after) else "patched (no change)",
                mode,
            )
            continue
        res = inv.call(
            "patch",
            plural,
            ns,
            name,
            body=body,
            sub=p.get("subresource"),
            params={"patchType": kind},
        )
        if res is None:
            continue
        _emit(
            inv,
            plural,
            res.body,
            "patched" if not _same(before.body, res.body) else "patched (no change)",
        )


# ---- label / annotate -----------------------------------------------------------------------------------
def _meta_cmd(inv: Inv, field: str, word: str) -> None:
    p = inv.p
    args = list(p.args)
    changes: dict[str, str | None] = {}
    rest = args[:1]
    for a in args[1:]:
        if "=" in a:
            k, _, v = a.partition("=")
            changes[k] = v
        elif a.endswith("-"):
            changes[a[:-1]] = None
        else:
            rest.append(a)
    if not changes and not p.on("list"):
        raise UsageError(f"error: at least one {field[:-1]} update is required")
    p.args = rest
    tlist = _targets(inv)
    mode = dry_mode(inv)
    for plural, name in _expand(inv, tlist):
        ns = _ns(inv, plural, name)
        res = inv.call("get", plural, ns, name)
        if res is None:
            continue
        current = dict((res.body.get("metadata") or {}).get(field) or {})
        if p.on("list"):
            inv.say("".join(f"{k}={v}\n" for k, v in sorted(current.items())))
            continue
        conflict = [
            k for k, v in changes.items() if v is not None and k in current and current[k] != v
        ]
        if conflict and not p.on("overwrite"):
            k = conflict[0]
            inv.error(f"error: '{k}' already has a value ({current[k]}), and --overwrite is false")
            continue
        missing = [k for k, v in changes.items() if v is None and k not in current]
        for k in missing:
            inv.err.append(f'{field[:-1]} "{k}" not found.\n')
        new = dict(current)
        for key, value in changes.items():
            if value is None:
                new.pop(key, None)
            else:
                new[key] = value
        if new == current:
            inv.say(f"{kind_label(plural)}/{name} not {word}")
            continue
        patch = {
            "metadata": {
                field: {k: v for k, v in changes.items() if not (v is None and k in missing)}
            }
        }
        if dry_refused(inv, mode, "patch", plural, ns, name, body=patch, params=MERGE):
            continue
        if mode:
            inv.say(f"{kind_label(plural)}/{name} {word}{dry_suffix(mode)}")
            continue
        res = inv.call("patch", plural, ns, name, body=patch, params={"patchType": "merge"})
        if res is None:
            continue
        _emit(inv, plural, res.body, word)


def cmd_label(inv: Inv) -> None:
    """``kubectl label``: label edits as merge patches (``--overwrite`` rules as kubectl's)."""
    _meta_cmd(inv, "labels", "labeled")


def cmd_annotate(inv: Inv) -> None:
    """``kubectl annotate``: annotation edits as merge patches."""
    _meta_cmd(inv, "annotations", "annotated")


# ---- delete -------------------------------------------------------------------------------------------
def cmd_delete(inv: Inv) -> None:
    """``kubectl delete``: by name, ``-l``/``--all`` (a LIST first) or ``-f``; one DELETE per object."""
    p = inv.p
    mode = dry_mode(inv)
    if p.has("filename"):
        tlist: list[tuple[str, str | None]] = []
        for doc in _manifests(inv):
            plural, ns, name = _doc_target(inv, doc)
            tlist.append((plural, name))
            if ns:
                inv._ns_of = getattr(inv, "_ns_of", {})
                inv._ns_of[(plural, name)] = ns
    else:
        if not p.args:
            raise UsageError(
                "error: You must provide one or more resources by argument or filename.\nExample resource "
                "specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> "
                "<name>'\n   '<resource>'"
            )
        tlist = targets(inv, p.args)
        if any(n is None for _, n in tlist) and not (
            p.get("selector") or p.on("all") or p.get("field-selector")
        ):
            raise UsageError("error: resource(s) were provided, but no name was specified")
    if p.on("force") and str(p.get("grace-period", "")) == "0":
        inv.err.append(
            "Warning: Immediate deletion does not wait for confirmation that the running resource has been "
            "terminated. The resource may continue to run on the cluster indefinitely.\n"
        )
    for plural, name in _expand(inv, tlist):
        ns = _ns(inv, plural, name)
        if mode:
            res = inv.call("get", plural, ns, name)
            if res is None:
                continue
            if dry_refused(inv, mode, "delete", plural, ns, name):
                continue
            inv.say(f'{kind_label(plural)} "{name}" deleted{dry_suffix(mode)}')
            continue
        params = {}
        if p.get("grace-period") is not None:
            params["gracePeriodSeconds"] = str(p.get("grace-period"))
        res = inv.api("delete", plural, ns, name, params=params)
        if not res.ok:
            if res.code == 404 and p.on("ignore-not-found"):
                continue
            inv.error(api_error(res))
            continue
        inv.say(f'{kind_label(plural)} "{name}" {"force " if p.on("force") else ""}deleted')
