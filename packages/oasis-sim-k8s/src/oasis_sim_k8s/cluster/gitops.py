"""A GitOps controller (Argo CD-like) over the simulated cluster (SI provider guide §1.9).

Each Application records the manifests "in git" for the objects it manages (taken
from the live objects when it is created). After every reconcile the controller
compares live with git: any difference written by anyone (an agent's imperative
``kubectl patch``) flips ``status.sync.status`` to ``OutOfSync``; syncing writes
git back through the API server as the controller's own user, so the audit log
shows the revert. ``spec.replicas`` is ignored for targets scaled by an HPA.
"""

from __future__ import annotations

import hashlib
import uuid
from typing import Any, cast

from .store import clone

NAMESPACE = "argocd"
CONTROLLER_USER = "system:serviceaccount:argocd:argocd-application-controller"
_IGNORED_ANNOTATIONS = ("deployment.kubernetes.io/", "kubectl.kubernetes.io/last-applied")


def setup_audit_id(seed: str, env_id: str, name: str) -> str:
    """The audit id of the setup write creating Application ``name``: derived from the
    environment's seed and id (the one place its id enters its state: provider/prebuilt.py)."""
    digest = hashlib.sha256(f"{seed}:{env_id}:applications:{name}".encode())
    return str(uuid.UUID(bytes=digest.digest()[:16], version=4))


def rekey(env: Any, old_id: str) -> None:
    """The setup audit ids of a copy of an environment whose id was ``old_id``, derived
    again from its own id (provider/prebuilt.py)."""
    if old_id == env.id:
        return
    for entry in env.audit.entries:
        body = entry.get("request_body")
        if entry["resource"] != "applications" or entry["verb"] != "create" or not body:
            continue
        name = body["metadata"]["name"]
        if entry["auditID"] == setup_audit_id(env.seed, old_id, name):
            entry["auditID"] = entry["raw"]["auditID"] = setup_audit_id(env.seed, env.id, name)


def manifest(obj: dict[str, Any], ignore_replicas: bool = False) -> dict[str, Any]:
    """The part of an object GitOps compares: labels, annotations, spec (or data)."""
    meta = obj.get("metadata") or {}
    ann = {
        k: v
        for k, v in (meta.get("annotations") or {}).items()
        if not k.startswith(_IGNORED_ANNOTATIONS)
    }
    out: dict[str, Any] = {"labels": dict(meta.get("labels") or {}), "annotations": ann}
    for key in ("spec", "data", "stringData"):
        if key in obj:
            out[key] = clone(obj[key])
    if ignore_replicas and isinstance(out.get("spec"), dict):
        out["spec"].pop("replicas", None)
    return out


class GitOps:
    def __init__(self, env: Any):
        self.env = env
        #: app -> {(plural, ns, name): manifest in git}
        self.desired: dict[str, dict[tuple[str, str, str], dict[str, Any]]] = {}
        #: app -> the sync operations run, oldest first: {started, finished} in simulated seconds
        self.syncs: dict[str, list[dict[str, float]]] = {}

    def revision(self, app: str) -> str:
        return hashlib.sha1(
            f"{self.env.seed}:{app}:{len(self.desired.get(app, {}))}".encode()
        ).hexdigest()

    def create(
        self,
        name: str,
        repo: str,
        path: str,
        dest_ns: str,
        managed: list[tuple[str, str, str]],
        automated: bool = False,
        self_heal: bool = False,
        drifted: bool = False,
        user: str | None = None,
    ) -> dict[str, Any]:
        """Create an Application; ``user`` (the provider's setup) is audited as its creator."""
        app = {
            "kind": "Application",
            "metadata": {
                "name": name,
                "namespace": NAMESPACE,
                "finalizers": ["resources-finalizer.argocd.argoproj.io"],
            },
            "spec": {
                "project": "default",
                "source": {"repoURL": repo, "path": path, "targetRevision": "HEAD"},
                "destination": {"server": "https://kubernetes.default.svc", "namespace": dest_ns},
                "syncPolicy": (
                    {"automated": {"prune": False, "selfHeal": self_heal}} if automated else {}
                ),
            },
            "status": {},
        }
        self.env.store.create(app)
        if user:
            self._audit_create(user, app)
        self.desired[name] = {}
        self.syncs[name] = [{"started": -86400.0, "finished": -86390.0}]
        for key in managed:
            self.track(name, key)
        if drifted:
            for key in managed:
                self.desired[name][key]["labels"]["app.kubernetes.io/version"] = "next"
        self.refresh()
        return app

    def _audit_create(self, user: str, app: dict[str, Any]) -> None:
        """The setup write as a real cluster would log it (the object is stored directly). Its
        audit id is derived, not drawn from the environment's id stream, so every other
        identifier the cluster hands out stays what it was."""
        audit_id = setup_audit_id(self.env.seed, self.env.id, app["metadata"]["name"])
        self.env.audit.record(
            user=user,
            verb="create",
            resource="applications",
            namespace=NAMESPACE,
            name=None,
            subresource=None,
            code=201,
            body=clone(app),
            params=None,
            session=None,
            audit_id=audit_id,
        )

    def track(self, app: str, key: tuple[str, str, str]) -> None:
        obj = self.env.store.raw(*key)
        if obj is None:
            return
        obj["metadata"].setdefault("labels", {})["app.kubernetes.io/instance"] = app
        ann = obj["metadata"].setdefault("annotations", {})
        kind = obj["kind"]
        group = obj["apiVersion"].split("/")[0] if "/" in obj["apiVersion"] else ""
        ann["argocd.argoproj.io/tracking-id"] = f"{app}:{group}/{kind}:{key[1]}/{key[2]}"
        self.env.store.touch(obj)
        self.desired.setdefault(app, {})[key] = manifest(obj, self._hpa_scaled(key))

    def managed_by(self, key: tuple[str, str, str]) -> str | None:
        return next((app for app, objs in self.desired.items() if key in objs), None)

    def _hpa_scaled(self, key: tuple[str, str, str]) -> bool:
        return key[0] == "deployments" and any(
            (h["spec"].get("scaleTargetRef") or {}).get("name") == key[2]
            for h in self.env.store.iter("horizontalpodautoscalers", key[1])
        )

    def refresh(self) -> None:
        """Recompute every Application's sync and health status (no audit: status only)."""
        for app in list(self.env.store.iter("applications", NAMESPACE)):
            name = app["metadata"]["name"]
            resources, out_of_sync, healths = [], False, []
            for key, want in sorted((self.desired.get(name) or {}).items()):
                live = self.env.store.raw(*key)
                synced = live is not None and manifest(live, self._hpa_scaled(key)) == want
                out_of_sync |= not synced
                health = _health(live)
                healths.append(health)
                kind = live["kind"] if live else {"deployments": "Deployment"}.get(key[0], key[0])
                resources.append(
                    {
                        "group": "apps" if key[0] in ("deployments", "replicasets") else "",
                        "version": "v1",
                        "kind": kind,
                        "namespace": key[1],
                        "name": key[2],
                        "status": "Synced" if synced else "OutOfSync",
                        "health": {"status": health},
                    }
                )
            health = next(
                (h for h in ("Missing", "Degraded", "Progressing") if h in healths), "Healthy"
            )
            rev = self.revision(name)
            syncs = self.syncs.get(name) or [{"started": -86400.0, "finished": -86390.0}]
            last = syncs[-1]
            status = {
                "sync": {
                    "status": "OutOfSync" if out_of_sync else "Synced",
                    "revision": rev,
                    "comparedTo": {
                        "source": clone(app["spec"]["source"]),
                        "destination": clone(app["spec"]["destination"]),
                    },
                },
                "health": {"status": health},
                "resources": resources,
                "summary": {
                    # every simulated container declares an image
                    "images": sorted(
                        cast(
                            "set[str]",
                            {
                                c.get("image")
                                for r in resources
                                for c in _containers(
                                    self.env.store.raw("deployments", r["namespace"], r["name"])
                                )
                            },
                        )
                    )
                },
                "history": [
                    {
                        "id": n,
                        "revision": rev,
                        "deployedAt": self.env.ts_at(s["finished"]),
                        "deployStartedAt": self.env.ts_at(s["started"]),
                        "source": clone(app["spec"]["source"]),
                    }
                    for n, s in enumerate(syncs)
                ],
                "operationState": {
                    "phase": "Succeeded",
                    "message": "successfully synced (all tasks run)",
                    "startedAt": self.env.ts_at(last["started"]),
                    "finishedAt": self.env.ts_at(last["finished"]),
                    "syncResult": {"revision": rev},
                },
            }
            old = app.get("status") or {}
            status["reconciledAt"] = (
                old.get("reconciledAt") if _same(old, status) else self.env.clock.ts()
            )
            if old != status:
                app["status"] = status
                self.env.store.touch(app)

    def sync(self, name: str) -> list[tuple[str, str, str]]:
        """Apply git to the cluster as the controller (audited). Returns the objects written.
        The operation is recorded: the Application's last sync (``operationState``, a new
        ``history`` entry) is now on the simulated clock."""
        written = []
        started = self.env.clock.seconds()
        for key, want in sorted((self.desired.get(name) or {}).items()):
            live = self.env.store.raw(*key)
            if live is not None and manifest(live, self._hpa_scaled(key)) == want:
                continue
            if live is None:
                continue
            body = {"metadata": {"labels": want["labels"], "annotations": want["annotations"]}}
            for section in ("spec", "data", "stringData"):
                if section in want:
                    body[section] = want[section]
            self.env.api.request(
                CONTROLLER_USER,
                "update",
                key[0],
                key[1] or None,
                key[2],
                body={
                    **clone(live),
                    **{k: v for k, v in body.items() if k != "metadata"},
                    "metadata": {**clone(live["metadata"]), **body["metadata"]},
                },
                internal=True,
            )
            written.append(key)
        self.syncs.setdefault(name, []).append(
            {"started": started, "finished": self.env.clock.seconds()}
        )
        self.refresh()
        return written


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return {k: v for k, v in a.items() if k != "reconciledAt"} == b


def _containers(obj: dict[str, Any] | None) -> list[dict[str, Any]]:
    if not obj:
        return []
    return list(
        ((obj.get("spec") or {}).get("template") or {}).get("spec", {}).get("containers") or []
    )


def _health(obj: dict[str, Any] | None) -> str:
    if obj is None:
        return "Missing"
    if obj["kind"] != "Deployment":
        return "Healthy"
    conds = {c["type"]: c for c in (obj.get("status") or {}).get("conditions") or []}
    if conds.get("Progressing", {}).get("reason") == "ProgressDeadlineExceeded":
        return "Degraded"
    if conds.get("Available", {}).get("status") != "True":
        return (
            "Degraded" if conds.get("Progressing", {}).get("status") == "False" else "Progressing"
        )
    if conds.get("Progressing", {}).get("reason") != "NewReplicaSetAvailable":
        return "Progressing"
    return "Healthy"
