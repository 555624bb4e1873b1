"""``kubectl apply``, ``replace`` and ``diff``: manifests from ``-f`` against live objects."""

from __future__ import annotations

import difflib
import json
from typing import Any

from ...cluster import patching
from ...cluster.store import KINDS, clone
from ..k8s_format import resource_label, to_yaml
from .args import UsageError
from .session import Inv, api_error
from .targets import _doc_target, _manifests
from .writes import LAST_APPLIED, _emit, contains, dry_mode, dry_refused


def cmd_apply(inv: Inv) -> None:
    """``kubectl apply -f``: a GET per manifest, then create or patch it (client-side apply keeps the last-applied annotation, as kubectl does)."""
    p = inv.p
    if p.args and p.args[0] in ("view-last-applied", "set-last-applied", "edit-last-applied"):
        raise UsageError(f"error: {p.args[0]} is not available in this session")
    if not p.has("filename"):
        raise UsageError(
            "error: must specify one of -f and -k\n\nSee 'kubectl apply -h' for help and examples"
        )
    mode = dry_mode(inv)
    for doc in _manifests(inv):
        plural, ns, name = _doc_target(inv, doc)
        body = clone(doc)
        body.pop("status", None)
        meta = body.setdefault("metadata", {})
        if ns:
            meta["namespace"] = ns
        applied = clone(body)
        applied.get("metadata", {}).pop("resourceVersion", None)
        meta.setdefault("annotations", {})[LAST_APPLIED] = (
            json.dumps(applied, separators=(",", ":"), sort_keys=True) + "\n"
        )
        current = inv.api("get", plural, ns, name)
        if current.code not in (200, 404):
            inv.error(
                api_error(current)
                if current.code != 403
                else f"Error from server (Forbidden): error when retrieving current configuration of:\n"
                f'Resource: "{resource_label(plural)}", GroupVersionKind: "{doc.get("apiVersion")}, Kind='
                f'{doc.get("kind")}"\nName: "{name}", Namespace: "{ns or ""}"\nfrom server for: "STDIN": '
                f"{current.body.get('message')}"
            )
            continue
        exists = current.code == 200
        word = "serverside-applied" if p.on("server-side") else None
        if exists:
            try:
                merged = patching.apply(current.body, body, "strategic")
            except patching.PatchError as exc:
                inv.error(f"Error from server (Invalid): {exc}")
                continue
            wanted = clone(body)
            (wanted.get("metadata") or {}).get("annotations", {}).pop(LAST_APPLIED, None)
            unchanged = contains(current.body, wanted)
            if dry_refused(
                inv, mode, "patch", plural, ns, name, body=body, params={"patchType": "strategic"}
            ):
                continue
            if mode:
                _emit(
                    inv, plural, merged, word or ("unchanged" if unchanged else "configured"), mode
                )
                continue
            if unchanged:
                _emit(inv, plural, current.body, word or "unchanged")
                continue
            res = inv.api("patch", plural, ns, name, body=body, params={"patchType": "strategic"})
            if not res.ok:
                inv.error(_apply_error(res, plural, doc, name, ns))
                continue
            _emit(inv, plural, res.body, word or "configured")
        else:
            if dry_refused(inv, mode, "create", plural, ns, None, body=body):
                continue
            if mode:
                _emit(inv, plural, body, word or "created", mode)
                continue
            res = inv.api("create", plural, ns, body=body)
            if not res.ok:
                inv.error(_apply_error(res, plural, doc, name, ns, creating=True))
                continue
            _emit(inv, plural, res.body, word or "created")


def _apply_error(
    res: Any, plural: str, doc: dict[str, Any], name: str, ns: str | None, creating: bool = False
) -> str:
    body = res.body if isinstance(res.body, dict) else {}
    reason = body.get("reason") or "Unknown"
    if res.code == 401:
        return "error: You must be logged in to the server (Unauthorized)"
    what = "creating" if creating else "applying patch"
    return (
        (
            f"Error from server ({reason}): error when {what}:\n"
            f'Resource: "{resource_label(plural)}", Name: "{name}", Namespace: "{ns or ""}"\nfrom server for: '
            f'"STDIN": {body.get("message", "")}'
        )
        if not creating
        else f'Error from server ({reason}): error when creating "STDIN": {body.get("message", "")}'
    )


def cmd_replace(inv: Inv) -> None:
    """``kubectl replace -f``: a PUT of each manifest over the live object."""
    if not inv.p.has("filename"):
        raise UsageError("error: must specify --filename to replace")
    mode = dry_mode(inv)
    for doc in _manifests(inv):
        plural, ns, name = _doc_target(inv, doc)
        current = inv.call("get", plural, ns, name)
        if current is None:
            continue
        body = clone(doc)
        body.setdefault("metadata", {})["resourceVersion"] = current.body["metadata"].get(
            "resourceVersion"
        )
        if ns:
            body["metadata"]["namespace"] = ns
        if mode:
            _emit(inv, plural, body, "replaced", mode)
            continue
        res = inv.call("update", plural, ns, name, body=body)
        if res is None:
            continue
        _emit(inv, plural, res.body, "replaced")


# ---- diff ----------------------------------------------------------------------------------------------------
def cmd_diff(inv: Inv) -> None:
    """``kubectl diff -f``: a unified diff of live objects against the manifests (reads only)."""
    if not inv.p.has("filename"):
        raise UsageError("error: must specify one of -f and -k")
    chunks = []
    for doc in _manifests(inv):
        plural, ns, name = _doc_target(inv, doc)
        res = inv.api("get", plural, ns, name)
        live = res.body if res.ok else None
        if res.code not in (200, 404):
            inv.error(api_error(res))
            continue
        body = clone(doc)
        if ns:
            body.setdefault("metadata", {})["namespace"] = ns
        merged = patching.apply(live, body, "strategic") if live else body
        a = to_yaml(_strip(live)).splitlines(keepends=True) if live else []
        b = to_yaml(_strip(merged)).splitlines(keepends=True)
        group = KINDS[plural][1]
        label = f"{group.replace('/', '.')}.{KINDS[plural][0]}.{ns + '.' if ns else ''}{name}"
        diff = list(
            difflib.unified_diff(
                a, b, fromfile=f"/tmp/LIVE-1234/{label}", tofile=f"/tmp/MERGED-5678/{label}"
            )
        )
        if diff:
            chunks.append(
                f"diff -u -N /tmp/LIVE-1234/{label} /tmp/MERGED-5678/{label}\n" + "".join(diff)
            )
    if chunks:
        inv.say("".join(chunks))


def _strip(obj: dict[str, Any] | None) -> dict[str, Any]:
    o = clone(obj or {})
    meta = o.get("metadata") or {}
    for k in ("managedFields", "resourceVersion"):
        meta.pop(k, None)
    o.pop("status", None)
    return o
