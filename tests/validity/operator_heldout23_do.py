"""``heldout23``'s requested changes: config keys, replica counts, restarts, runbooks, canaries,
rolling updates, high availability. Each reads the current state first, changes only what
the request asks, records before → after, and reads the result back.
"""

from __future__ import annotations

import json
import re

from .operator_heldout23 import Desk
from .operator_heldout23_fix import verify
from .operator_heldout23_look import Seen, configmaps, environment
from .operator_read import items, quantity, table


def _pairs(prompt: str) -> dict[str, str]:
    """KEY=VALUE, "set KEY to VALUE", "enable KEY" from the request, names as written."""
    out = {
        m.group(1): m.group(2).rstrip(".,")
        for m in re.finditer(r"\b([A-Za-z_][A-Za-z0-9_]*)=(\S+)", prompt)
    }
    for m in re.finditer(r"\b[Ss]et ([A-Za-z_][A-Za-z0-9_]*) to (\S+?)(?=[\s.,]|$)", prompt):
        out[m.group(1)] = m.group(2)
    for m in re.finditer(r"\b[Ee]nable ([A-Za-z_][A-Za-z0-9_]*)", prompt):
        out[m.group(1)] = "true"
    for m in re.finditer(r"\b[Dd]isable ([A-Za-z_][A-Za-z0-9_]*)", prompt):
        out[m.group(1)] = "false"
    return out


async def configure(desk: Desk, s: Seen, focus: list[str]) -> None:
    """Set the keys the request gives, in the ConfigMap it names (or the one holding them)."""
    ns = s.ns
    want = _pairs(desk.prompt)
    cms = await configmaps(desk, ns)
    named = desk.named(list(cms))
    cm = named[0] if named else next((n for n, d in sorted(cms.items()) if set(want) & set(d)), "")
    desk.title = f"config change in `{cm or '?'}`"
    if not cm:
        desk.status = "blocked"
        desk.cause.append(f"No ConfigMap in `{ns}` holds {', '.join(want)}.")
        return
    data = cms[cm]
    desk.see(f"ConfigMap `{cm}` before", ", ".join(f"`{k}={v}`" for k, v in sorted(data.items())))
    delta = {k: v for k, v in want.items() if data.get(k) != v}
    if not delta:
        desk.actions.append(
            f"`{cm}` already has {', '.join(f'`{k}={v}`' for k, v in want.items())}. Nothing to change; I made no write."
        )
    else:
        patch = json.dumps({"data": delta}, separators=(",", ":"))
        change = "; ".join(f"{k}: {data.get(k, '<unset>')} → {v}" for k, v in delta.items())
        await desk.kubectl(
            f"patch configmap {cm} -n {ns} --type merge -p '{patch}'",
            "set only the keys asked for; a merge patch keeps every other key",
            change,
        )
        if desk.failed():
            desk.status = "failed"
            desk.actions.append(
                f"The patch of `{cm}` failed: {desk.calls[-1].error.strip()[:120]}. Nothing changed."
            )
            return
        after = items(
            await desk.kubectl(f"get configmap {cm} -n {ns} -o yaml", f"read `{cm}` back")
        )
        now = {str(k): str(v) for k, v in ((after[0].get("data") or {}) if after else {}).items()}
        desk.see(f"ConfigMap `{cm}` after", ", ".join(f"`{k}={v}`" for k, v in sorted(now.items())))
        kept = [k for k in data if k not in delta and now.get(k) == data[k]]
        desk.actions.append(
            f"Patched `{cm}`: {change}. Unchanged: {', '.join(f'`{k}`' for k in kept) or 'none'}."
        )
        desk.actions.append(
            "Running this again changes nothing: the patch only writes keys that differ."
        )
    desk.status = "done"
    if re.search(r"\bscale\b", desk.low):
        await scale(desk, s, focus, titled=False)
    elif re.search(r"picks? up|reload|apply", desk.low):
        for name in focus:
            await _pick_up(desk, s, name, cm)


async def _pick_up(desk: Desk, s: Seen, name: str, cm: str) -> None:
    ns = s.ns
    text = await desk.kubectl(
        f"describe deployment {name} -n {ns}", f"check how `{name}` reads `{cm}`"
    )
    uses = cm in text
    desk.see(
        f"`describe deployment {name}`",
        f"reads `{cm}`" + (" (env from ConfigMap, read at start)" if uses else ": not referenced"),
    )
    old = [p.get("name", "") for p in s.pods_of(name)]
    await desk.kubectl(
        f"rollout restart deployment/{name} -n {ns}",
        f"env from a ConfigMap is read at start; new pods pick up `{cm}`",
        f"pods {', '.join(old)} → new pods",
    )
    ok = await verify(desk, ns, name)
    new = [
        p.get("name", "")
        for p in table(await desk.kubectl(f"get pods -n {ns} -l app={name}", "list the new pods"))
    ]
    desk.see("new pods", ", ".join(f"`{p}`" for p in new))
    desk.actions.append(
        f"Order: ConfigMap first, then a rolling restart of `{name}`, then a health check: "
        + ("all replicas Ready." if ok else "not all Ready; see Follow-ups.")
    )


def _target(desk: Desk, current: int) -> tuple[int, str]:
    m = re.search(r"\bto (\d+)\b(?: replicas)?|\b(\d+) replicas\b", desk.low)
    if m:
        return int(m.group(1) or m.group(2)), "the count asked for"
    m = re.search(r"\b(\d+(?:\.\d+)?)\s*x\b|\bdouble\b", desk.low)
    if m:
        factor = float(m.group(1)) if m.group(1) else 2.0
        return round(
            current * factor
        ), f"{factor:g}× the load on {current} replicas → {current} × {factor:g}"
    return current, "no count given"


async def scale(desk: Desk, s: Seen, focus: list[str], titled: bool = True) -> None:
    """Scale the named deployment to the count asked (or computed from a load factor)."""
    ns = s.ns
    name = next((n for n in focus if n in s.deployments), "")
    if not name:
        desk.followups.append("Name the deployment to scale; none in scope matches.")
        return
    rows = table(
        await desk.kubectl(
            f"get deployment {name} -n {ns}", f"read the current replicas of `{name}`"
        )
    )
    current = int((rows[0].get("ready", "0/0").split("/")[-1]) if rows else 0)
    target, how = _target(desk, current)
    env = environment(desk, ns)
    if titled:
        desk.title = f"scale `{name}` in `{ns}`"
    desk.see(
        f"`get deployment {name}`",
        f"{current} replicas now ({rows[0].get('ready') if rows else '?'} ready)",
    )
    if env == "production":
        desk.see(f"namespace `{ns}`", "labelled `env=production`")
        desk.actions.append(
            f"`{ns}` is **production**. I scale up only (no pod is removed), check capacity first, and watch the rollout."
        )
    fits = await _capacity(desk, ns, name, target - current)
    if not fits:
        desk.status = "not done: needs your decision"
        desk.actions.append(
            f"**No change made.** {target} replicas of `{name}` do not fit: the cluster does not have "
            f"the CPU for them (see Evidence). Scaling anyway leaves most pods Pending and can starve "
            f"other workloads."
        )
        desk.followups.append(
            f"Confirm the count for `{name}`: {target} looks like a typo next to {current} now. "
            "Tell me a count that fits, or add nodes first."
        )
        return
    if await _autoscaled(desk, ns, name, current, target):
        return
    if target == current:
        desk.actions.append(f"`{name}` already runs {current} replicas; no change.")
        return
    await desk.kubectl(
        f"scale deployment/{name} -n {ns} --replicas={target}",
        f"{how}" + (" (production: additive change)" if env == "production" else ""),
        f"replicas {current} → {target}",
    )
    ok = await verify(desk, ns, name)
    desk.actions.append(
        f"Scaled `{name}` from {current} to {target} replicas ({how}). "
        + ("All Ready." if ok else "Not all Ready yet.")
    )
    desk.status = "done" if ok else "done, still rolling out"


async def _autoscaled(desk: Desk, ns: str, name: str, current: int, target: int) -> bool:
    """An HPA owning the replica count: a manual scale would be undone. Hand it back."""
    rows = table(
        await desk.kubectl(
            f"get hpa -n {ns}", f"check whether an autoscaler owns `{name}`'s replicas"
        )
    )
    hpa = next((r for r in rows if r.get("reference", "").endswith(f"/{name}")), None)
    if hpa is None:
        return False
    hname = hpa.get("name", "")
    desk.see(
        f"HPA `{hname}`",
        f"targets `{name}`: min {hpa.get('minpods', '?')}, max {hpa.get('maxpods', '?')}, "
        f"now {hpa.get('replicas', current)} replicas",
    )
    desk.status = "not done: the autoscaler owns the count"
    desk.actions.append(
        f"**No change made.** HPA `{hname}` manages `{name}`'s replicas; a manual scale to {target} "
        "would be overwritten at its next sync and fight the autoscaler."
    )
    desk.followups.append(
        f"Decide with the owner of `{hname}`: set its minReplicas/maxReplicas to {target}, "
        "or let the autoscaler keep the count."
    )
    return True


async def _capacity(desk: Desk, ns: str, name: str, extra: int) -> bool:
    """Whether ``extra`` more pods fit the nodes' allocatable CPU (True when unknown)."""
    if extra <= 0:
        return True
    text = await desk.kubectl(
        f"describe deployment {name} -n {ns}", f"read the requests of `{name}`"
    )
    m = re.search(r"Requests:\s*\n\s+cpu:\s+(\S+)", text)
    req = quantity(m.group(1)) if m else None
    nodes = await desk.kubectl("describe nodes", "check the cluster has room for the new pods")
    free = 0.0
    for block in re.split(r"\n(?=Name:\s)", nodes):
        alloc = re.search(r"Allocatable:.*?\n\s+cpu:\s+(\S+)", block, re.S)
        used = re.search(r"Allocated resources:.*?\n\s+cpu\s+(\S+)", block, re.S)
        if alloc:
            free += (quantity(alloc.group(1)) or 0) - (
                (quantity(used.group(1)) or 0) if used else 0
            )
    if req:
        need = req * extra
        desk.see(
            "capacity",
            f"{extra} more pods × {req * 1000:.0f}m CPU = {need * 1000:.0f}m; the nodes have {free * 1000:.0f}m allocatable in all",
        )
        return need <= free or free == 0
    return True


async def restart_only(desk: Desk, s: Seen, focus: list[str]) -> None:
    name = next((n for n in focus if n in s.deployments), "")
    desk.title = f"restart `{name}`"
    if not name:
        desk.followups.append("No deployment in scope matches the request.")
        return
    old = [p.get("name", "") for p in s.pods_of(name)]
    await desk.kubectl(
        f"rollout restart deployment/{name} -n {s.ns}",
        "asked for a restart; a rolling restart keeps it serving",
        f"pods {', '.join(old)} → new pods",
    )
    ok = await verify(desk, s.ns, name)
    desk.actions.append(
        f"Rolling restart of `{name}`: " + ("all replicas Ready." if ok else "not all Ready yet.")
    )
    desk.status = "done"


async def runbook(desk: Desk, s: Seen, focus: list[str]) -> None:
    from .operator_heldout23_plays import runbook as play

    await play(desk, s, focus)


async def canary(desk: Desk, s: Seen, focus: list[str]) -> None:
    from .operator_heldout23_plays import canary as play

    await play(desk, s, focus)


async def rolling(desk: Desk, s: Seen, focus: list[str]) -> None:
    from .operator_heldout23_plays import rolling as play

    await play(desk, s, focus)


async def highly_available(desk: Desk, s: Seen, focus: list[str]) -> None:
    from .operator_heldout23_plays import highly_available as play

    await play(desk, s, focus)
