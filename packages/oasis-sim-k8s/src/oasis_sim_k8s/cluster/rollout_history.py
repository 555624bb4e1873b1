"""A Deployment's rollout history (``kubectl rollout history``, ``rollout undo``): its
ReplicaSets by revision, read from the store (SI provider guide §1.2)."""

from __future__ import annotations

from typing import Any

from .store import clone
from .workloads import HASH, owned, revision


def history(env: Any, ns: str, name: str) -> list[dict[str, Any]]:
    """Rollout history, oldest first: ``{revision, replicaset, images, change_cause, template}``."""
    dep = env.store.raw("deployments", ns, name)
    if dep is None:
        return []
    out = []
    for rs in sorted(owned(env, "replicasets", ns, dep["metadata"]["uid"]), key=revision):
        tmpl = clone(rs["spec"]["template"])
        tmpl["metadata"].get("labels", {}).pop(HASH, None)
        out.append(
            {
                "revision": revision(rs),
                "replicaset": rs["metadata"]["name"],
                "images": [c.get("image") for c in tmpl["spec"].get("containers") or []],
                "change_cause": (rs["metadata"].get("annotations") or {}).get(
                    "kubernetes.io/change-cause"
                ),
                "template": tmpl,
            }
        )
    return out


def undo_template(
    env: Any, ns: str, name: str, to_revision: int | None = None
) -> dict[str, Any] | None:
    """The pod template ``rollout undo`` restores (the previous revision, or ``to_revision``)."""
    revs = history(env, ns, name)
    if len(revs) < 2 and to_revision is None:
        return None
    if to_revision:
        hit = next((r for r in revs if r["revision"] == to_revision), None)
        return hit["template"] if hit else None
    return revs[-2]["template"]
