"""Server-side dry run (``dryRun=All``: ``kubectl diff``, ``--dry-run=server``).

Nothing is written. The request is authorized as the write it would be: refused, it goes
through the pipeline as that write (refused there too, and audited as the refused write);
allowed, the pipeline serves and audits the read of its target (which is all that
happens), and the would-be result is computed here from the live object: the patch
applied, the replacement, the object to create, the object to delete.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from ..cluster import patching, rbac
from ..cluster.store import KINDS, clone
from . import errors
from .answers import answer
from .calls import Caller, call, refused
from .patches import APPLY, PATCH_TYPES
from .paths import Target


def serve(
    api: Any, caller: Caller, request: Request, target: Target, verb: str, body: Any
) -> Response:
    res = target.resource
    assert res is not None and res.backend is not None
    plural, ns = res.backend, target.namespace if res.namespaced else None
    name = (
        target.name or ((body or {}).get("metadata") or {}).get("name")
        if isinstance(body, dict)
        else target.name
    )
    if not rbac.authorize(
        caller.env.store, caller.user, verb, plural, ns, name, target.subresource
    ):
        result = call(
            api.invocations, caller, verb, plural, ns, target.name, body, target.subresource
        )
        return answer(caller, target, result, verb, request)
    if verb == "deletecollection":
        listed = call(
            api.invocations,
            caller,
            "list",
            plural,
            ns,
            None,
            None,
            None,
            dict(request.query_params),
        )
        return answer(caller, target, listed, "list", request)
    if verb == "create" and not name:
        return refused(
            caller, target, verb, errors.bad_request("a dry-run create needs metadata.name")
        )
    sub = target.subresource if target.subresource in ("scale", "status") else None
    current = call(api.invocations, caller, "get", plural, ns, name, None, sub)
    if verb == "create":
        if current.ok:
            return errors.failure(409, "AlreadyExists", f'{plural} "{name}" already exists')
        obj = clone(body)
        obj.setdefault("metadata", {})
        if res.namespaced:
            obj["metadata"].setdefault("namespace", ns or "default")
        obj["kind"], obj["apiVersion"] = KINDS[plural][0], KINDS[plural][1]
        return errors.json_response(obj, 201)
    media = request.headers.get("content-type", "").split(";")[0].strip()
    if not current.ok:
        if verb == "patch" and media == APPLY and isinstance(body, dict):
            return errors.json_response(body, 201)
        return errors.json_response(current.body, current.code)
    live = current.body
    if verb in ("delete", "deletecollection"):
        return answer(caller, target, current, "get", request)
    if verb == "update":
        new = clone(body) if isinstance(body, dict) else live
    else:
        try:
            new = patching.apply(
                live, body, "strategic" if media == APPLY else PATCH_TYPES.get(media)
            )
        except patching.PatchError as exc:
            return errors.failure(422, "Invalid", str(exc))
    if sub == "scale":
        current.body = {**live, "spec": {**live.get("spec", {}), **(new.get("spec") or {})}}
        return answer(caller, target, current, "get", request)
    new.setdefault("metadata", {}).update(
        {
            k: v
            for k, v in live["metadata"].items()
            if k in ("uid", "creationTimestamp", "resourceVersion")
        }
    )
    if "status" in live and target.subresource != "status":
        new["status"] = live["status"]
    current.body = new
    return answer(caller, target, current, "get", request)
