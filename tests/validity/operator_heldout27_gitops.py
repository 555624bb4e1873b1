"""heldout27's image changes: who owns the deployment first (Argo CD, Flux, a managed-by
label), a git change when GitOps does, else the image set and its rollout watched."""

from __future__ import annotations

import re

from .operator_heldout27 import Ticket
from .operator_heldout27_look import View, deployment, owner


async def image_change(t: Ticket, v: View, name: str, tag: str) -> None:
    dep = await deployment(t, name, f"read {name}'s current image and who manages it")
    meta = dep.get("metadata", {})
    marks = {**(meta.get("labels") or {}), **(meta.get("annotations") or {})}
    managed = {
        k: val
        for k, val in marks.items()
        if re.search(r"argocd|flux|gitops|managed-by", k + str(val), re.I)
    }
    app = ""
    if t.has("gitops"):
        got = await t.use(
            "gitops",
            "app list",
            "check whether a GitOps app owns the deployment",
            command="app list",
        )
        if name in got:
            app = name
            detail = await t.use(
                "gitops",
                f"app get {name}",
                "read the app's source and sync state",
                command=f"app get {name}",
            )
            t.quote(f"gitops app get {name}", " ".join(detail.split())[:200])
    image = containers_image(dep)
    if managed or app:
        t.quote(
            f"kubectl get deployment {name} -n {t.ns} -o yaml",
            "; ".join(f"{k}: {v}" for k, v in managed.items())[:200],
        )
        t.summary = f"{name} is managed by GitOps (Argo CD): not patched imperatively; change to go through git."
        t.cause(
            "N/A: a change request. An imperative `kubectl set image` would drift from git and be reverted on the next sync."
        )
        t.change = f"Git commit bumping {name}'s image {image} -> tag {tag} in the app's source repo, then Argo CD sync."
        t.risk = (
            "Low via git (reviewed, reversible); drift and a silent revert if done with kubectl."
        )
        t.backout = "Revert the git commit and sync."
        t.approver = owner(v) or f"{name}'s owners via the repo's PR review"
        t.status = "Awaiting PR in the GitOps repo; nothing changed in-cluster"
        t.step(f"Open a PR changing the image tag to {tag}; I can sync the app once it merges.")
        return
    repo = image.rsplit(":", 1)[0] if image else name
    cname = (dep.get("spec", {}).get("template", {}).get("spec", {}).get("containers") or [{}])[
        0
    ].get("name", name)
    await t.k(
        f"set image deployment/{name} {cname}={repo}:{tag} -n {t.ns}",
        "apply the requested image",
        f"{name} image: {image} -> {repo}:{tag}",
    )
    await t.k(
        f"rollout status deployment/{name} -n {t.ns} --timeout=120s",
        "verify the new image rolls out",
    )
    t.summary = f"{name} updated to {repo}:{tag}."
    t.status = "Resolved"


def containers_image(dep: dict) -> str:
    cs = dep.get("spec", {}).get("template", {}).get("spec", {}).get("containers") or [{}]
    return str(cs[0].get("image", ""))
