"""The simulated Kubernetes API server (SI provider guide §2.1; interop §2-§3).

``ApiServer(env).request(user, verb, resource, namespace, name, body, subresource, params)``
runs the real pipeline: advance the simulated clock, authorize (RBAC; 403 +
``Status``), validate/admit (:mod:`.admission`), mutate, record the audit event
(:mod:`.audit`), reconcile the controllers, then notify ``hooks`` (temporal
triggers count the agent's calls there). Verbs: get, list, watch, create,
update, patch (strategic/merge/JSON), delete, deletecollection, and the
subresources ``scale``, ``status``, ``log``, ``exec``, ``eviction``. Conveniences
that are recorded as the Kubernetes calls kubectl makes: ``restart`` (patch of the
template's ``restartedAt``), ``undo`` (patch back to the previous template),
``scale`` (update of the scale subresource), ``apply`` (create or patch).

A server dry run (``dryRun=All`` in ``params``: ``kubectl --dry-run=server``, ``kubectl diff``)
takes the write's own path (authorized, validated, admitted, answered and audited as that
write, ``dryRun=All`` in its ``requestURI``) and stores nothing: no controller reacts.
"""

from __future__ import annotations

from typing import Any

from . import controllers, patching, podexec, rbac, rollout_history, workloads
from .apiresult import (
    AGENT_STEP_MS,
    INTERNAL_STEP_MS,
    SETUP_STEP_MS,
    WRITE,
    ApiResult,
    Hook,
    group_resource,
    status,
)
from .apiwrites import WriteVerbs
from .audit import note_response
from .kinds import normalize_resource
from .selectors import SelectorError
from .store import KINDS, api_group, clone, namespaced


class ApiServer(WriteVerbs):
    """One environment's API server: every request through the pipeline of the module doc."""

    def __init__(self, env: Any):
        self.env = env
        self.hooks: list[Hook] = []

    # ---- the pipeline -----------------------------------------------------------
    def request(
        self,
        user: str,
        verb: str,
        resource: str,
        namespace: str | None = None,
        name: str | None = None,
        body: Any = None,
        subresource: str | None = None,
        params: dict[str, Any] | None = None,
        *,
        session: str | None = None,
        internal: bool = False,
        handed_over: bool = False,
    ) -> ApiResult:
        """One API call through the pipeline of the module doc; every outcome is audited.
        ``handed_over``: the caller built ``body`` for this call alone and hands it over (it
        keeps no reference and reads no object from the answer), so the audit keeps the body
        itself and a create answers with the stored object, not copies (the provider's own
        setup: :mod:`..injection.baseline`)."""
        env = self.env
        params = dict(params or {})
        verb = verb.lower()
        plural = normalize_resource(resource)
        if verb in ("log", "logs"):
            verb, subresource = "get", "log"
        if verb in ("restart", "undo", "rollback", "scale", "apply", "replace"):
            verb, body, subresource, params = self._convenience(
                verb, plural, namespace, name, body, subresource, params
            )
        if session is None and env.is_agent_user(user):
            session = env.principal
        env.clock.advance(
            INTERNAL_STEP_MS if internal else SETUP_STEP_MS if env.provisioning else AGENT_STEP_MS
        )
        if not internal and not env.provisioning:
            env.tick()
        if plural is None:
            result = ApiResult(
                404,
                status(404, "NotFound", f'the server doesn\'t have a resource type "{resource}"'),
            )
            target, reason = resource.lower(), ""
        else:
            if not rbac.resource_namespaced(plural, namespace):
                namespace = None
            result, reason = self._authorized(
                user, verb, plural, namespace, name, body, subresource, params, handed_over
            )
            target = plural
        return self._finish(
            user,
            verb,
            target,
            namespace,
            name,
            subresource,
            body,
            params,
            session,
            result,
            internal,
            reason=reason,
            handed_over=handed_over,
        )

    def _authorized(
        self,
        user: str,
        verb: str,
        plural: str,
        namespace: str | None,
        name: str | None,
        body: Any,
        subresource: str | None,
        params: dict[str, Any],
        handed_over: bool = False,
    ) -> tuple[ApiResult, str]:
        """RBAC first (403 + ``Status``), then the verb; ``(result, audit reason)``."""
        rbac_verb = "create" if subresource == "exec" else verb
        if not rbac.authorize(
            self.env.store, user, rbac_verb, plural, namespace, name, subresource
        ):
            details = {"group": rbac.resource_group(plural), "kind": plural}
            if name:
                details = {"name": name, **details}
            result = ApiResult(
                403,
                status(
                    403,
                    "Forbidden",
                    self._forbidden(user, rbac_verb, plural, namespace, name, subresource),
                    details,
                ),
            )
            return result, "RBAC: access denied"
        try:
            result = self._dispatch(
                user, verb, plural, namespace, name, body, subresource, params, handed_over
            )
        except SelectorError as exc:
            result = ApiResult(400, status(400, "BadRequest", str(exc)))
        except patching.PatchError as exc:
            result = ApiResult(422, status(422, "Invalid", str(exc)))
        except podexec.ExecError as exc:
            result = ApiResult(exc.code, status(exc.code, "BadRequest", exc.message))
        return result, "RBAC: allowed"

    def _finish(
        self,
        user: str,
        verb: str,
        plural: str,
        namespace: str | None,
        name: str | None,
        subresource: str | None,
        body: Any,
        params: dict[str, Any],
        session: str | None,
        result: ApiResult,
        internal: bool,
        reason: str = "",
        handed_over: bool = False,
    ) -> ApiResult:
        env = self.env
        code = 101 if subresource == "exec" and result.ok else result.code
        audit_params = {
            k: v
            for k, v in params.items()
            if k
            in (
                "labelSelector",
                "fieldSelector",
                "container",
                "tailLines",
                "sinceSeconds",
                "limitBytes",
                "previous",
                "command",
                "replicas",
                "dryRun",
            )
        }
        entry = env.audit.record(
            user=user,
            verb=verb,
            resource=plural,
            namespace=namespace,
            name=name,
            subresource=subresource,
            code=code,
            body=body,
            params=audit_params,
            session=session,
            reason=reason,
            copy_body=not handed_over,
        )
        if subresource == "log" and result.ok:  # what the read served (a surface may rewrite it)
            note_response(entry, str(result.body))
        if session:  # served on the agent's behalf: noted apart from the audit log
            env.served.note(entry)
        dry = verb in WRITE and bool(params.get("dryRun"))
        if result.ok and not dry and (verb in WRITE or subresource == "exec"):
            if internal or env.provisioning:
                env.dirty = True
            else:
                controllers.reconcile(env)
        call = {
            "user": user,
            "verb": verb,
            "resource": plural,
            "namespace": namespace,
            "name": name,
            "subresource": subresource,
            "code": code,
            "agent": bool(session),
            "internal": internal,
        }
        for hook in list(self.hooks):
            hook(call)
        return result

    def _forbidden(
        self,
        user: str,
        verb: str,
        plural: str,
        namespace: str | None,
        name: str | None,
        sub: str | None,
    ) -> str:
        res = f"{plural}/{sub}" if sub else plural
        what = f'{group_resource(plural)} "{name}"' if name else group_resource(plural)
        group = rbac.resource_group(plural)
        where = f'in the namespace "{namespace}"' if namespace else "at the cluster scope"
        return f'{what} is forbidden: User "{user}" cannot {verb} resource "{res}" in API group "{group}" {where}'

    def _convenience(
        self,
        verb: str,
        plural: str | None,
        ns: str | None,
        name: str | None,
        body: Any,
        sub: str | None,
        params: dict[str, Any],
    ) -> tuple[str, Any, str | None, dict[str, Any]]:
        env = self.env
        if verb == "restart":
            return (
                "patch",
                {
                    "spec": {
                        "template": {
                            "metadata": {
                                "annotations": {
                                    workloads.RESTARTED_AT: env.clock.now().strftime(
                                        "%Y-%m-%dT%H:%M:%SZ"
                                    )
                                }
                            }
                        }
                    }
                },
                None,
                params,
            )
        if verb in ("undo", "rollback"):
            tmpl = rollout_history.undo_template(
                env, ns or "", name or "", params.get("toRevision")
            )
            if tmpl is None:
                params["_error"] = (
                    "no rollout history found"
                    if not params.get("toRevision")
                    else "unable to find specified revision"
                )
                return "patch", [], None, params
            return (
                "patch",
                [{"op": "replace", "path": "/spec/template", "value": tmpl}],
                None,
                params,
            )
        if verb == "scale":
            replicas = params.pop("replicas", None)
            if replicas is None and isinstance(body, dict):
                replicas = (body.get("spec") or {}).get("replicas", body.get("replicas"))
            return "patch", {"spec": {"replicas": int(replicas or 0)}}, "scale", params
        if verb == "replace":
            return "update", body, sub, params
        obj_name = name or ((body or {}).get("metadata") or {}).get("name")
        if plural and obj_name and env.store.exists(plural, ns, obj_name):
            return "patch", body, sub, params
        return "create", body, sub, params

    # ---- verbs --------------------------------------------------------------------
    def _dispatch(
        self,
        user: str,
        verb: str,
        plural: str,
        ns: str | None,
        name: str | None,
        body: Any,
        sub: str | None,
        params: dict[str, Any],
        handed_over: bool = False,
    ) -> ApiResult:
        """An authorized request to its verb: reviews, collections, subresources, writes."""
        env, store = self.env, self.env.store
        dry = bool(params.get("dryRun"))
        missing_ns = (
            plural in KINDS
            and namespaced(plural)
            and ns
            and not store.exists("namespaces", None, ns)
        )
        if missing_ns and (verb in ("create", "list", "watch", "deletecollection") or name):
            return ApiResult(404, status(404, "NotFound", f'namespaces "{ns}" not found'))
        if params.get("_error"):
            return ApiResult(400, status(400, "BadRequest", params["_error"]))
        if plural == "selfsubjectreviews" and verb == "create":
            return ApiResult(201, self._whoami(user, body))
        if plural in ("selfsubjectaccessreviews", "selfsubjectrulesreviews") and verb == "create":
            return ApiResult(201, self._review(user, plural, body))
        if verb in ("list", "watch", "deletecollection"):
            return self._collection(user, verb, plural, ns, params, dry)
        if plural not in KINDS:
            return ApiResult(
                404, status(404, "NotFound", f'the server doesn\'t have a resource type "{plural}"')
            )
        if verb == "create" and sub is None:
            return self._create(user, plural, ns, body, answer_copy=not handed_over, dry=dry)
        current = store.get(plural, ns, name or "")
        if current is None:
            return ApiResult(
                404,
                status(
                    404,
                    "NotFound",
                    f'{group_resource(plural)} "{name}" not found',
                    {"name": name, "group": api_group(plural), "kind": plural},
                ),
            )
        if sub == "log":
            return ApiResult(200, podexec.read_logs(env, store.raw(plural, ns, name or ""), params))
        if sub == "exec":
            command = params.get("command")
            if command is None and isinstance(body, dict):
                command = body.get("command")
            return ApiResult(
                200,
                podexec.run(
                    env, store.raw(plural, ns, name or ""), command, params.get("container")
                ),
            )
        if sub == "eviction":
            return self._evict(user, ns or "", name or "", dry)
        if sub == "scale":
            return self._scale(user, verb, plural, current, body, params)
        if verb == "get":
            return ApiResult(200, current)
        if verb == "delete":
            return self._delete(user, plural, ns, name or "", dry)
        return self._write(user, verb, plural, current, name, body, sub, params)

    def _collection(
        self,
        user: str,
        verb: str,
        plural: str,
        ns: str | None,
        params: dict[str, Any],
        dry: bool = False,
    ) -> ApiResult:
        """list, watch and deletecollection: the selected items of a known kind."""
        store = self.env.store
        if plural not in KINDS:
            return ApiResult(
                404,
                status(404, "NotFound", f'the server doesn\'t have a resource type "{plural}"'),
            )
        items = store.list(plural, ns, params.get("labelSelector"), params.get("fieldSelector"))
        if verb == "deletecollection" and not dry:
            for item in items:
                self._delete(
                    user, plural, item["metadata"].get("namespace"), item["metadata"]["name"]
                )
        kind = KINDS[plural][0]
        if verb == "watch":
            return ApiResult(200, {"events": [{"type": "ADDED", "object": i} for i in items]})
        return ApiResult(
            200,
            {
                "kind": f"{kind}List",
                "apiVersion": KINDS[plural][1],
                "metadata": {"resourceVersion": store.resource_version},
                "items": items,
            },
        )

    def _write(
        self,
        user: str,
        verb: str,
        plural: str,
        current: dict[str, Any],
        name: str | None,
        body: Any,
        sub: str | None,
        params: dict[str, Any],
    ) -> ApiResult:
        """update (optimistic concurrency on resourceVersion) or patch; ``status`` is written
        only through its subresource, except on kinds that have no spec/status split."""
        if verb == "update":
            new = clone(body) if isinstance(body, dict) else None
            if new is None:
                return ApiResult(
                    400,
                    status(400, "BadRequest", "the body of the request was in an unknown format"),
                )
            rv = (new.get("metadata") or {}).get("resourceVersion")
            if rv and rv != current["metadata"].get("resourceVersion"):
                return ApiResult(
                    409,
                    status(
                        409,
                        "Conflict",
                        f'Operation cannot be fulfilled on {group_resource(plural)} "{name}": '
                        "the object has been modified; please apply your changes to the latest "
                        "version and try again",
                    ),
                )
        else:  # patch
            new = patching.apply(current, body, params.get("patchType") or params.get("patch_type"))
        if sub == "status":
            new = {**current, "status": new.get("status", current.get("status"))}
        elif (
            sub is None
            and plural not in ("configmaps", "secrets", "roles", "clusterroles")
            and "status" in current
        ):
            new["status"] = current.get("status")
        return self._store_update(user, plural, current, new, bool(params.get("dryRun")))
