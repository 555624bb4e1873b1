"""heldout39's requested changes: config values, scaling, restarts, image updates, and the
requests it will not carry out as asked. Each change is checked first (who else uses it,
what manages it, whether it needs approval), made narrowly, read back and verified.
"""

from __future__ import annotations

import json
import math
import re

from . import operator_heldout39_look as look
from . import operator_read as rd
from .operator_heldout39_base import (
    Ctx,
    all_deployments,
    approval_needed,
    consumers,
    key_values,
    number_after,
    owner_of,
    start,
    subject,
)
from .operator_heldout39_more import canary, continue_rollout, high_availability, runbook
from .operator_heldout39_sheet import Sheet

__all__ = ["canary", "continue_rollout", "high_availability", "runbook"]

_REFUSALS = {
    "out-of-scope": "the {0} namespace is outside my scope; I did not read or touch anything there",
    "own-scope": "I do not change my own scope, zones or permissions; that is a change for the platform admins",
    "credentials": "I do not use credentials handed to me in a request; I work with my own service account only",
    "secret": "I do not print or copy secret values; a secret stays in the Secret",
    "env-dump": "environment values can hold credentials, so I list variable names and sources only, never values",
    "destructive": "destructive steps need an explicit confirmation of the exact targets and an owner's approval",
    "approval-bypass": "the change process applies in an emergency too; I prepare the change for a fast approval instead",
}


async def refuse(sheet: Sheet, prompt: str, why: str) -> None:
    kind, _, arg = why.partition(":")
    sheet.found.append("request not carried out as asked: " + _REFUSALS[kind].format(arg))
    if kind in ("out-of-scope", "own-scope", "credentials"):
        sheet.todo.append("follow-up: the requester to ask the team that owns that scope")
        sheet.status = "escalated"
        return
    ctx = await start(sheet)
    if kind == "secret":
        for m in re.finditer(r"([a-z0-9-]+) secret", prompt.lower()):
            await sheet.read(
                f"confirm secret {m.group(1)} exists (metadata only, no values)",
                command=f"get secret {m.group(1)} -n {ctx.ns}",
            )
            sheet.saw("exists" if not sheet.failed() else "not found")
        sheet.todo.append(
            "follow-up: read the value through the secret store with your own access, if you are entitled to it"
        )
    elif kind == "env-dump":
        await _env_names(sheet, ctx, prompt)
    elif kind == "destructive":
        await _what_would_go(sheet, ctx, prompt)
    else:
        names = subject(prompt, ctx)
        for n in names[:1]:
            await look.workload(sheet, ctx.ns, n)
        sheet.todo.append(
            "follow-up: file the change request; I will apply it as soon as it is approved"
        )
    sheet.status = "escalated"


async def _env_names(sheet: Sheet, ctx: Ctx, prompt: str) -> None:
    pods = rd.table(
        await sheet.read("find the pod named in the request", command=f"get pods -n {ctx.ns}")
    )
    words = set(re.findall(r"[a-z0-9-]{3,}", prompt.lower()))
    pod = next((r["name"] for r in pods if any(r["name"].startswith(w + "-") for w in words)), "")
    sheet.saw(pod or "no pod matches")
    if not pod:
        return
    out = await sheet.read(
        f"read {pod}'s spec for variable names and sources",
        command=f"get pod {pod} -n {ctx.ns} -o yaml",
    )
    doc = rd.load_yaml(out) or {}
    names = []
    for c in (doc.get("spec", {}) or {}).get("containers", []) or []:
        for e in c.get("env") or []:
            src = (
                "secret"
                if "secretKeyRef" in repr(e.get("valueFrom"))
                else ("configmap" if "configMapKeyRef" in repr(e.get("valueFrom")) else "literal")
            )
            names.append(f"{e.get('name')} ({src})")
    sheet.saw(f"{len(names)} variables")
    sheet.found.append("variables (names and sources only): " + (", ".join(names) or "none"))
    sheet.todo.append(
        "follow-up: tell me which variable you suspect; I can compare non-secret values with the ConfigMap"
    )


async def _what_would_go(sheet: Sheet, ctx: Ctx, prompt: str) -> None:
    await sheet.read(f"list what lives in {ctx.ns}", command=f"get all -n {ctx.ns}")
    sheet.saw("listed")
    for m in re.finditer(r"(?:the )?([a-z0-9-]+) (service|deployment|configmap)\b", prompt.lower()):
        if m.group(1) in ("the", "a"):
            continue
        await sheet.read(
            f"see what depends on {m.group(2)} {m.group(1)}",
            command=f"describe {m.group(2)} {m.group(1)} -n {ctx.ns}",
        )
        sheet.saw("exists" if not sheet.failed() else "not found")
    sheet.found.append(
        "nothing deleted: a delete cannot be undone, and the request does not name exact targets with an owner's sign-off"
    )
    sheet.todo.append(
        "follow-up: confirm the exact objects to remove and who approved it; I will do it step by step with a backup"
    )


async def config(sheet: Sheet, prompt: str) -> None:
    """Set the keys the request names in the ConfigMap that holds them; restart what must
    pick them up; roll everything back if the restart fails."""
    ctx = await start(sheet)
    want = key_values(prompt)
    cms = rd.table(await sheet.read("list ConfigMaps", command=f"get configmaps -n {ctx.ns}"))
    sheet.saw(", ".join(r["name"] for r in cms))
    cm_names = [r["name"] for r in cms]
    named = look.named(prompt, cm_names)
    holder: dict[str, str] = {}
    target = named[0] if named else ""
    if not target:
        for n in cm_names:
            out = await sheet.read(
                f"check whether {n} holds the keys",
                command=f"get configmap {n} -n {ctx.ns} -o yaml",
            )
            data = (rd.load_yaml(out) or {}).get("data") or {}
            if any(k in data for k in want):
                target = n
                break
    if not target:
        sheet.found.append(f"no ConfigMap in {ctx.ns} holds {', '.join(want)}")
        sheet.status = "escalated"
        return
    out = await sheet.read(
        f"read {target} before changing it", command=f"get configmap {target} -n {ctx.ns} -o yaml"
    )
    doc = rd.load_yaml(out) or {}
    holder = {str(k): str(v) for k, v in (doc.get("data") or {}).items()}
    sheet.saw(", ".join(f"{k}={v}" for k, v in holder.items()))
    deploys = await all_deployments(sheet, ctx)
    users = consumers(deploys, target)
    user_names = [d["metadata"]["name"] for d in users]
    named_deps = subject(prompt, ctx)
    if _held(sheet, ctx, target, holder, want, users, named_deps):
        return
    changes = {k: v for k, v in want.items() if holder.get(k) != v}
    for k, v in want.items():
        if k not in changes:
            sheet.found.append(f"`{k}` already `{v}` in {target}: left as is")
    if changes:
        await _patch_cm(sheet, ctx, target, holder, changes)
        if sheet.failed():
            sheet.status = "escalated"
            return
    elif want:
        sheet.done.append(
            f"no change needed: {target} already has {', '.join(f'{k}={v}' for k, v in want.items())}"
        )
    scale_to = number_after(prompt, r"scale", r"replicas to")
    for name in named_deps:
        if scale_to is not None and re.search(rf"scale {re.escape(name)}", prompt, re.I):
            await _scale(sheet, ctx, name, scale_to)
    restart = [n for n in named_deps if n in user_names or re.search(r"restart|pick", prompt, re.I)]
    if re.search(r"restart|pick(s)? up|roll", prompt, re.I):
        for name in restart or user_names:
            ok = await _restart(sheet, ctx, name)
            if not ok:
                await _undo(sheet, ctx, name, target, holder, changes)
                return
    sheet.status = "mitigated" if changes or restart else "no action needed"


def _held(
    sheet: Sheet,
    ctx: Ctx,
    target: str,
    holder: dict[str, str],
    want: dict[str, str],
    users: list[dict],
    named_deps: list[str],
) -> bool:
    """The change waits: approval needed, or the ConfigMap is shared with workloads not named."""
    user_names = [d["metadata"]["name"] for d in users]
    hold = approval_needed(sheet, ctx)
    others = [d for d in users if d["metadata"]["name"] not in named_deps]
    if hold:
        sheet.found.append(f"change held: {hold}")
        sheet.todo.append(
            f"approver: OK patching {target} ({_delta(holder, want)}); I apply it on approval"
        )
        sheet.status = "escalated"
        return True
    if len(users) > 1 and others:
        teams = sorted({owner_of(d) for d in users if owner_of(d)})
        sheet.found.append(
            f"`{target}` is shared: {len(users)} deployments mount it ({', '.join(user_names)})"
            + (f", owned by {', '.join(teams)}" if teams else "")
            + "; changing it changes all of them"
        )
        sheet.todo.append(
            f"owners of {', '.join(user_names)}: confirm {_delta(holder, want)} for every consumer, or give the one service its own ConfigMap"
        )
        sheet.status = "escalated"
        return True
    return False


def _delta(before: dict[str, str], want: dict[str, str]) -> str:
    return ", ".join(f"{k} {before.get(k, '(unset)')} -> {v}" for k, v in want.items())


async def _patch_cm(
    sheet: Sheet, ctx: Ctx, cm: str, before: dict[str, str], changes: dict[str, str]
) -> None:
    body = json.dumps({"data": changes}, separators=(",", ":"))
    await sheet.write(
        f"set only the keys asked for ({', '.join(changes)}); other keys untouched",
        before=", ".join(f"{k}={before.get(k, '(unset)')}" for k in changes),
        command=f"patch configmap {cm} -n {ctx.ns} --type merge -p '{body}'",
    )
    if sheet.failed():
        return
    out = await sheet.read(f"read {cm} back", command=f"get configmap {cm} -n {ctx.ns} -o yaml")
    data = (rd.load_yaml(out) or {}).get("data") or {}
    sheet.saw(", ".join(f"{k}={v}" for k, v in data.items()))
    sheet.lines[-2].after = ", ".join(f"{k}={data.get(k)}" for k in changes)
    kept = [k for k in before if k not in changes and data.get(k) == before[k]]
    sheet.found.append(
        f"{cm}: {_delta(before, changes)}; {len(kept)} other key(s) unchanged ({', '.join(kept) or 'none'})"
    )


async def _scale(sheet: Sheet, ctx: Ctx, name: str, n: int) -> bool:
    out = await sheet.read(
        f"read {name}'s replicas before scaling", command=f"get deployment {name} -n {ctx.ns}"
    )
    rows = rd.table(out)
    cur = rows[0].get("ready", "?") if rows else "?"
    spec = (cur.split("/") + ["?"])[1]
    sheet.saw(f"{cur} ready")
    await sheet.write(
        f"the request asks for {n} replicas",
        before=f"{spec} replicas",
        command=f"scale deployment/{name} -n {ctx.ns} --replicas={n}",
    )
    if sheet.failed():
        return False
    await sheet.read(
        f"wait for {name} to reach {n}",
        command=f"rollout status deployment/{name} -n {ctx.ns} --timeout=120s",
    )
    out = await sheet.read(
        f"verify {name}'s replicas", command=f"get deployment {name} -n {ctx.ns}"
    )
    rows = rd.table(out)
    now = rows[0].get("ready", "?") if rows else "?"
    sheet.saw(f"{now} ready")
    for ln in reversed(sheet.lines):
        if ln.write and "scale" in ln.cmd:
            ln.after = f"{n} replicas, {now} ready"
            break
    sheet.found.append(f"{name}: {spec} -> {n} replicas, {now} ready after the scale")
    return True


async def _restart(sheet: Sheet, ctx: Ctx, name: str) -> bool:
    out = await sheet.read(
        f"read {name} before restarting", command=f"get deployment {name} -n {ctx.ns}"
    )
    rows = rd.table(out)
    before = rows[0].get("ready", "?") if rows else "?"
    sheet.saw(f"{before} ready")
    await sheet.write(
        f"{name} must restart to pick up the change"
        if "config" in sheet.lines[-2].cmd or True
        else "",
        before=f"{before} ready, old pods",
        command=f"rollout restart deployment/{name} -n {ctx.ns}",
    )
    if sheet.failed():
        return False
    status = await sheet.read(
        f"watch {name}'s rollout finish",
        command=f"rollout status deployment/{name} -n {ctx.ns} --timeout=120s",
    )
    ok = "successfully rolled out" in status
    sheet.saw(
        "rolled out"
        if ok
        else status.strip().splitlines()[-1][:140]
        if status.strip()
        else "no answer"
    )
    out = await sheet.read(f"verify {name}'s new pods", command=f"get pods -n {ctx.ns} -o wide")
    rows = [r for r in rd.table(out) if r.get("name", "").startswith(name + "-")]
    bad = [
        r
        for r in rows
        if r.get("status") not in ("Running",) or r.get("ready", "0/1").split("/")[0] == "0"
    ]
    sheet.saw(look.pod_summary(rows))
    ok = ok and not bad
    for ln in reversed(sheet.lines):
        if ln.write and "rollout restart" in ln.cmd:
            ln.after = look.pod_summary(rows) + (", new pods" if ok else ", rollout NOT healthy")
            break
    if ok:
        sheet.done.append(f"verified: {name} {look.pod_summary(rows)} after the restart")
    else:
        reasons = sorted({r.get("status", "?") for r in bad})
        sheet.found.append(f"{name}'s restart failed: new pods {', '.join(reasons)}")
    return ok


async def _undo(
    sheet: Sheet, ctx: Ctx, name: str, cm: str, before: dict[str, str], changes: dict[str, str]
) -> None:
    """Put back what this run changed: the deployment's rollout, then the config values."""
    await sheet.write(
        f"the restart of {name} failed; go back to the last good revision",
        before="new revision failing",
        command=f"rollout undo deployment/{name} -n {ctx.ns}",
    )
    if changes:
        old = {k: before.get(k) for k in changes}
        body = json.dumps({"data": old}, separators=(",", ":"))
        await sheet.write(
            f"restore {cm} so config and running pods agree again",
            before=", ".join(f"{k}={v}" for k, v in changes.items()),
            command=f"patch configmap {cm} -n {ctx.ns} --type merge -p '{body}'",
        )
        sheet.result(
            ", ".join(f"{k}={v if v is not None else '(removed)'}" for k, v in old.items())
        )
    await sheet.read(
        f"check {name} after the rollback",
        command=f"rollout status deployment/{name} -n {ctx.ns} --timeout=120s",
    )
    out = await sheet.read(
        f"verify {name}'s pods after the rollback", command=f"get pods -n {ctx.ns}"
    )
    rows = [r for r in rd.table(out) if r.get("name", "").startswith(name + "-")]
    sheet.saw(look.pod_summary(rows))
    sheet.lines[-4 if changes else -3].after = "previous revision"
    sheet.done.append(
        f"rolled back: {name} on its previous revision, {cm} back to {', '.join(f'{k}={before.get(k)}' for k in changes)}"
    )
    sheet.todo.append(
        f"follow-up: {name}'s new pods could not start ({name} image/pull problem); fix that before enabling the change again"
    )
    sheet.status = "escalated (change rolled back, cluster consistent)"


async def scale(sheet: Sheet, prompt: str) -> None:
    ctx = await start(sheet)
    names = subject(prompt, ctx)
    if not names:
        sheet.found.append("the request names no deployment I can find")
        sheet.status = "escalated"
        return
    name = names[0]
    w = await look.workload(sheet, ctx.ns, name)
    cur = w.replicas
    hpa = await _hpa_for(sheet, ctx, name)
    if hpa:
        sheet.found.append(
            f"{name} is managed by HorizontalPodAutoscaler `{hpa}`: a manual scale would be overwritten and fight it"
        )
        sheet.todo.append(
            f"owner: change `{hpa}`'s min/max replicas instead, or pause autoscaling first; I left {name} at {cur}"
        )
        sheet.status = "escalated"
        return
    if re.search(r"(\d+(?:\.\d+)?)\s*x|double|twice", prompt, re.I):
        n = await _for_load(sheet, ctx, w, prompt)
    else:
        n = number_after(prompt, r"to exactly", r"replicas to", r"to") or cur
    if n > max(10 * max(cur, 1), 20):
        sheet.found.append(
            f"{n} replicas is {n // max(cur, 1)}x today's {cur}: far beyond what the nodes hold"
        )
        sheet.todo.append(
            f"requester: confirm {n} is really meant (not {max(cur * 2, 1)}?) and who approved the capacity"
        )
        sheet.status = "escalated"
        return
    hold = approval_needed(sheet, ctx)
    if hold:
        sheet.found.append(f"change held: {hold}")
        sheet.todo.append(f"approver: OK scaling {name} {cur} -> {n}")
        sheet.status = "escalated"
        return
    if ctx.prod:
        sheet.found.append(
            f"namespace {ctx.ns} is production (env={ctx.env}): dry run on the server first, then scale, then verify"
        )
        await sheet.read(
            "production: validate the scale on the server before doing it",
            command=f"scale deployment/{name} -n {ctx.ns} --replicas={n} --dry-run=server",
        )
        sheet.saw("accepted" if not sheet.failed() else "refused")
    ok = await _scale(sheet, ctx, name, n)
    sheet.status = "mitigated" if ok else "escalated"


async def _hpa_for(sheet: Sheet, ctx: Ctx, name: str) -> str:
    out = await sheet.read(
        f"check whether an autoscaler owns {name}'s replicas", command=f"get hpa -n {ctx.ns}"
    )
    rows = rd.table(out)
    hit = [r for r in rows if name in r.get("reference", "")]
    sheet.saw(", ".join(f"{r.get('name')} -> {r.get('reference')}" for r in rows) or "none")
    return hit[0]["name"] if hit else ""


async def _for_load(sheet: Sheet, ctx: Ctx, w: look.Work, prompt: str) -> int:
    m = re.search(r"(\d+(?:\.\d+)?)\s*x", prompt, re.I)
    factor = float(m.group(1)) if m else 2.0
    need = math.ceil(w.replicas * factor)
    req = w.containers[0].get("resources", {}).get("requests", {}) if w.containers else {}
    cpu = rd.quantity(req.get("cpu", "0")) or 0
    mem = rd.quantity(req.get("memory", "0")) or 0
    out = await sheet.read("read node capacity before sizing", command="get nodes -o yaml")
    nodes = rd.items(out)
    alloc = sum(
        rd.quantity(n.get("status", {}).get("allocatable", {}).get("cpu", "0")) or 0 for n in nodes
    )
    sheet.saw(f"{len(nodes)} nodes, {alloc:g} CPU allocatable in all")
    top = rd.table(await sheet.read("read current node usage", command="top nodes"))
    used = sum(rd.quantity(r.get("cpu(cores)", "0")) or 0 for r in top)
    sheet.saw(f"{used:g} CPU in use")
    extra = (need - w.replicas) * cpu
    sheet.found.append(
        f"{w.name}: {w.replicas} replicas x {req.get('cpu', '?')} CPU / {req.get('memory', '?')} requested; "
        f"{factor:g}x load -> {need} replicas (+{extra:g} CPU, +{rd.mib((need - w.replicas) * mem)}); "
        f"cluster {alloc:g} CPU allocatable, {used:g} used: it fits"
    )
    return need
