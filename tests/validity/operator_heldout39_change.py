"""heldout39's restarts and image updates: a restart of the one deployment the request
names (a loose name matching several is narrowed with the requester first), and an image
tag change unless GitOps owns the deployment.
"""

from __future__ import annotations

import re

from . import operator_heldout39_look as look
from . import operator_read as rd
from .operator_heldout39_base import approval_needed, start, subject
from .operator_heldout39_plays import _restart
from .operator_heldout39_sheet import Sheet


async def restart(sheet: Sheet, prompt: str) -> None:
    """Restart the one deployment the request names; a loose name that matches several is
    narrowed with the requester first."""
    ctx = await start(sheet)
    names = subject(prompt, ctx)
    if not names:
        words = [
            w for w in re.findall(r"the ([a-z0-9-]+) (?:pods?|deployment|service)", prompt.lower())
        ]
        for word in words[:1]:
            out = await sheet.read(
                f"find what '{word}' means here (label app={word})",
                command=f"get deployments -n {ctx.ns} -l app={word}",
            )
            hits = [r["name"] for r in rd.table(out)]
            hits += [n for n in ctx.names if word in n.split("-") and n not in hits]
            sheet.saw(", ".join(hits) or "nothing")
            if len(hits) == 1:
                names = hits
            elif hits:
                sheet.found.append(
                    f"'{word} pods' matches {len(hits)} deployments: {', '.join(hits)}"
                )
                sheet.todo.append(
                    f"requester: which one is stuck? I restart only that one ({' / '.join(hits)})"
                )
                sheet.status = "escalated"
                return
    if not names:
        sheet.found.append("the request names no deployment in scope")
        sheet.status = "escalated"
        return
    name = names[0]
    w = await look.workload(sheet, ctx.ns, name)
    hold = approval_needed(sheet, ctx)
    if hold:
        sheet.found.append(f"restart held: {hold}")
        sheet.todo.append(f"approver: OK a rolling restart of {name}")
        sheet.status = "escalated"
        return
    sheet.found.append(
        f"{name}: {w.ready}/{w.replicas} ready before the restart, image {look.image(w)}"
    )
    ok = await _restart(sheet, ctx, name)
    sheet.status = "mitigated" if ok else "escalated"


async def image(sheet: Sheet, prompt: str) -> None:
    """Change an image tag, unless GitOps owns the deployment (then the change goes to git)."""
    ctx = await start(sheet)
    names = subject(prompt, ctx)
    tag = re.search(r"\b(v?\d+(?:\.\d+)+[\w.-]*)", prompt)
    if not names or not tag:
        sheet.found.append("the request does not name both a deployment and a tag I can find")
        sheet.status = "escalated"
        return
    name = names[0]
    w = await look.workload(sheet, ctx.ns, name)
    meta = w.spec.get("metadata", {})
    marks = {**(meta.get("labels") or {}), **(meta.get("annotations") or {})}
    managed = [
        f"{k}={v}"
        for k, v in marks.items()
        if re.search(r"argocd|gitops|flux|managed-by", f"{k}={v}", re.I)
    ]
    app = ""
    if sheet.has("gitops"):
        out = await sheet.read("check whether GitOps manages it", tool="gitops", command="app list")
        app = name if re.search(rf"\b{re.escape(name)}\b", out) else ""
        sheet.saw(f"application {app} found" if app else "no application for it")
        if app:
            out = await sheet.read(
                f"read the {app} application (source, sync)",
                tool="gitops",
                command=f"app get {app}",
            )
            src = re.search(r"(?:Repo|Source)[^:]*:\s*(\S+)", out)
            path = re.search(r"Path:\s*(\S+)", out)
            sheet.saw(f"synced from {src.group(1) if src else '?'} {path.group(1) if path else ''}")
            managed.append(
                f"Argo CD app {app}"
                + (f" ({src.group(1)} {path.group(1) if path else ''})" if src else "")
            )
    if managed:
        sheet.found.append(
            f"{name} is managed by GitOps ({'; '.join(managed)}): a `kubectl set image` would drift from git and be reverted on the next sync"
        )
        sheet.todo.append(
            f"requester: change the image tag to {tag.group(1)} in the git source and let Argo CD sync it; I made no imperative change"
        )
        sheet.status = "escalated"
        return
    hold = approval_needed(sheet, ctx)
    if hold:
        sheet.found.append(f"change held: {hold}")
        sheet.status = "escalated"
        return
    c = w.containers[0]
    repo = str(c.get("image", name)).rsplit(":", 1)[0]
    await sheet.write(
        f"the request asks for tag {tag.group(1)}",
        before=str(c.get("image")),
        command=f"set image deployment/{name} {c.get('name')}={repo}:{tag.group(1)} -n {ctx.ns}",
    )
    await sheet.read(
        f"watch {name} roll out",
        command=f"rollout status deployment/{name} -n {ctx.ns} --timeout=120s",
    )
    sheet.lines[-2].after = f"{repo}:{tag.group(1)}"
    sheet.status = "mitigated"
