"""The API server's write verbs and access reviews (SI provider guide §2.1): create, update,
the scale subresource, delete, eviction, and the ``SelfSubjectReview`` /
``SelfSubjectAccessReview`` answers. A mixin of :class:`.apiserver.ApiServer`, which runs
the pipeline around them."""

from __future__ import annotations

from typing import Any

from . import admission, patching, rbac, selectors, shapes
from .apiresult import ApiResult, group_resource, status
from .kinds import normalize_resource
from .store import KINDS, Conflict, api_group, clone, namespaced


class WriteVerbs:
    """The write verbs and reviews; the API server supplies ``env``."""

    env: Any

    def _create(
        self,
        user: str,
        plural: str,
        ns: str | None,
        body: Any,
        answer_copy: bool = True,
        dry: bool = False,
    ) -> ApiResult:
        """``answer_copy=False``: the answer is the stored object itself (a caller that
        reads nothing from it, ``ApiServer.request(handed_over=True)``). ``dry``
        (``dryRun=All``): validated and admitted, answered, never stored."""
        env = self.env
        if not isinstance(body, dict):
            return ApiResult(
                400, status(400, "BadRequest", "the body of the request was in an unknown format")
            )
        bad = shapes.check(plural, body, KINDS[plural][0])
        if bad:
            return ApiResult(bad[0], status(*bad))
        obj = clone(body)
        obj["kind"] = KINDS[plural][0]
        meta = obj.setdefault("metadata", None) or {}
        obj["metadata"] = meta
        if namespaced(plural):
            if meta.get("namespace") and ns and meta["namespace"] != ns:
                return ApiResult(
                    400,
                    status(
                        400,
                        "BadRequest",
                        "the namespace of the provided object does not match "
                        "the namespace sent on the request",
                    ),
                )
            meta["namespace"] = ns or meta.get("namespace") or "default"
        if not meta.get("name") and meta.get("generateName"):
            meta["name"] = meta["generateName"] + env.ids.suffix(5)
        fail = admission.validate(env.store, user, plural, None, obj)
        if fail:
            return ApiResult(fail[0], status(*fail))
        if dry and env.store.exists(plural, meta.get("namespace"), meta.get("name") or ""):
            return self._exists(plural, meta["name"])
        if dry:
            return ApiResult(201, obj)
        try:
            env.prepare_new(plural, obj)
            # obj is this request's own copy of the body: stored as it is, the caller gets a copy
            stored = env.store.insert(obj, fresh=True)
            if answer_copy:
                stored = clone(stored)
        except Conflict:
            return self._exists(plural, meta["name"])
        return ApiResult(201, stored)

    @staticmethod
    def _exists(plural: str, name: str) -> ApiResult:
        return ApiResult(
            409,
            status(
                409,
                "AlreadyExists",
                f'{group_resource(plural)} "{name}" already exists',
                {"name": name, "group": api_group(plural), "kind": plural},
            ),
        )

    def _store_update(
        self,
        user: str,
        plural: str,
        current: dict[str, Any],
        new: dict[str, Any],
        dry: bool = False,
    ) -> ApiResult:
        """Validate, admit and store ``new`` over ``current``; ``dry``: answered, not stored."""
        bad = shapes.check(plural, new, current["kind"])
        if bad:
            return ApiResult(bad[0], status(*bad))
        new["kind"], new["apiVersion"] = current["kind"], current["apiVersion"]
        meta = new.setdefault("metadata", None) or {}
        new["metadata"] = meta
        if meta.get("name", current["metadata"]["name"]) != current["metadata"]["name"] or meta.get(
            "namespace", current["metadata"].get("namespace")
        ) != current["metadata"].get("namespace"):
            return ApiResult(
                400,
                status(
                    400, "BadRequest", "the name of the object does not match the name on the URL"
                ),
            )
        for key in (
            "name",
            "namespace",
            "uid",
            "creationTimestamp",
            "ownerReferences",
            "generation",
        ):
            if key in current["metadata"] and (
                key not in meta or key in ("uid", "creationTimestamp")
            ):
                meta[key] = current["metadata"][key]
        fail = admission.validate(self.env.store, user, plural, current, new)
        if fail:
            return ApiResult(fail[0], status(*fail))
        if dry:
            return ApiResult(200, clone(new))
        self.env.before_update(plural, current, new)
        return ApiResult(200, self.env.store.replace(new))

    def _scale(
        self,
        user: str,
        verb: str,
        plural: str,
        current: dict[str, Any],
        body: Any,
        params: dict[str, Any],
    ) -> ApiResult:
        meta = current["metadata"]
        scale: dict[str, Any] = {
            "kind": "Scale",
            "apiVersion": "autoscaling/v1",
            "metadata": {
                "name": meta["name"],
                "namespace": meta.get("namespace"),
                "uid": meta["uid"],
                "resourceVersion": meta["resourceVersion"],
                "creationTimestamp": meta["creationTimestamp"],
            },
            "spec": {"replicas": (current.get("spec") or {}).get("replicas", 1)},
            "status": {
                "replicas": (current.get("status") or {}).get("replicas", 0),
                "selector": ",".join(
                    f"{k}={v}"
                    for k, v in sorted(
                        ((current.get("spec") or {}).get("selector") or {})
                        .get("matchLabels", {})
                        .items()
                    )
                ),
            },
        }
        if verb == "get":
            return ApiResult(200, scale)
        new_scale = (
            clone(body)
            if verb == "update"
            else patching.apply(scale, body, params.get("patchType"))
        )
        replicas = (new_scale.get("spec") or {}).get("replicas")
        if not isinstance(replicas, int) or replicas < 0:
            return ApiResult(
                422,
                status(
                    422,
                    "Invalid",
                    f'Scale.autoscaling "{meta["name"]}" is invalid: spec.replicas: '
                    "Invalid value: must be greater than or equal to 0",
                ),
            )
        new = clone(current)
        new["spec"]["replicas"] = replicas
        result = self._store_update(user, plural, current, new, bool(params.get("dryRun")))
        if not result.ok:
            return result
        scale["spec"]["replicas"] = replicas
        scale["metadata"]["resourceVersion"] = result.body["metadata"]["resourceVersion"]
        return ApiResult(200, scale)

    def _delete(
        self, user: str, plural: str, ns: str | None, name: str, dry: bool = False
    ) -> ApiResult:
        """Delete (with garbage collection); ``dry``: the object answered, nothing deleted."""
        if plural == "namespaces":
            fail = admission.namespace_delete(name)
            if fail:
                return ApiResult(fail[0], status(*fail))
        obj = (
            clone(self.env.store.get(plural, ns, name))
            if dry
            else self.env.delete_object(plural, ns, name)
        )
        if obj is None:
            return ApiResult(
                404, status(404, "NotFound", f'{group_resource(plural)} "{name}" not found')
            )
        obj["metadata"]["deletionTimestamp"] = self.env.clock.ts()
        return ApiResult(200, obj)

    def _evict(self, user: str, ns: str, name: str, dry: bool = False) -> ApiResult:
        pod = self.env.store.raw("pods", ns, name)
        for pdb in self.env.store.iter("poddisruptionbudgets", ns):
            if (
                selectors.matches(
                    (pdb.get("spec") or {}).get("selector") or {}, pod["metadata"].get("labels")
                )
                and (pdb.get("status") or {}).get("disruptionsAllowed", 0) <= 0
            ):
                return ApiResult(
                    429,
                    status(
                        429,
                        "TooManyRequests",
                        "Cannot evict pod as it would violate the pod's disruption budget.",
                    ),
                )
        if not dry:
            self.env.delete_object("pods", ns, name)
        return ApiResult(
            201,
            {
                "kind": "Status",
                "apiVersion": "v1",
                "metadata": {},
                "status": "Success",
                "code": 201,
            },
        )

    def _whoami(self, user: str, body: Any) -> dict[str, Any]:
        """``kubectl auth whoami`` (SelfSubjectReview, authentication.k8s.io/v1; issue 32)."""
        out: dict[str, Any] = {
            "kind": "SelfSubjectReview",
            "apiVersion": "authentication.k8s.io/v1",
        }
        out["metadata"] = {"creationTimestamp": None, **((body or {}).get("metadata") or {})}
        groups = sorted({*self.env.groups_of(user), "system:authenticated"})
        out["status"] = {"userInfo": {"username": user, "groups": groups}}
        return out

    def _review(self, user: str, plural: str, body: Any) -> dict[str, Any]:
        spec = (body or {}).get("spec") or {}
        attrs = spec.get("resourceAttributes") or {}
        out = clone(body or {})
        if plural == "selfsubjectaccessreviews":
            resource = str(attrs.get("resource") or "")
            group = attrs.get("group")
            allowed = rbac.authorize(
                self.env.store,
                user,
                attrs.get("verb", "get"),
                normalize_resource(resource) or resource,
                attrs.get("namespace") or None,
                attrs.get("name") or None,
                attrs.get("subresource") or None,
                str(group) if group is not None else None,
            )
            out["status"] = {"allowed": allowed}
        else:
            ns = spec.get("namespace")
            rules = rbac.rules_for(self.env.store, user, ns)
            out["status"] = {
                "resourceRules": [
                    {k: v for k, v in r.items() if not k.startswith("_")} for r in rules
                ],
                "nonResourceRules": [],
                "incomplete": False,
            }
        return out
