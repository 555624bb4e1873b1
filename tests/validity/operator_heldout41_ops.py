"""heldout41's changes (session 34, written blind): each one narrow, the object read before,
a server dry run first in production, the object read back after, the before and after said
in the thought; then a verification read.
"""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout41_look import Ctx
from .operator_heldout41_react import React


def failed(r: React) -> bool:
    return bool(r.steps) and r.steps[-1].failed


async def write(r: React, ctx: Ctx, why: str, command: str) -> bool:
    """One write: in production a server dry run first; False when it fails."""
    if ctx.production:
        await r.kubectl(
            f"This is production, so a server-side dry run first: {why}",
            f"{command} --dry-run=server",
        )
        if failed(r):
            r.thought("The dry run was refused; I do not make the change.")
            return False
    await r.kubectl(why, command)
    return not failed(r)


async def replicas(r: React, ctx: Ctx, workload: str) -> int | None:
    doc = rd.load_yaml(
        await r.kubectl(
            f"Current state of deployment {workload} before changing it.",
            f"get deployment {workload} -n {ctx.ns} -o yaml",
        )
    )
    spec = (doc or {}).get("spec", {}) if isinstance(doc, dict) else {}
    n = spec.get("replicas")
    r.show([f"spec.replicas: {n}"])
    return int(n) if isinstance(n, int) else None


async def scale(r: React, ctx: Ctx, workload: str, before: int, after: int, why: str) -> bool:
    ok = await write(
        r,
        ctx,
        f"{why} Scaling deployment {workload} from {before} to {after} replicas.",
        f"scale deployment {workload} -n {ctx.ns} --replicas={after}",
    )
    if ok:
        r.thought(f"changed: deployment {workload} replicas {before} -> {after}")
        await verify(r, ctx, workload)
    return ok


async def read_config(r: React, ctx: Ctx, name: str) -> dict[str, str] | None:
    doc = rd.load_yaml(
        await r.kubectl(
            f"Config map {name} as it is now, before any change.",
            f"get configmap {name} -n {ctx.ns} -o yaml",
        )
    )
    if not isinstance(doc, dict) or doc.get("kind") != "ConfigMap":
        return None
    data = {str(k): str(v) for k, v in (doc.get("data") or {}).items()}
    r.show([f"{k}={v}" for k, v in data.items()] or ["(no data)"])
    return data


async def patch_config(
    r: React, ctx: Ctx, name: str, want: dict[str, str], why: str
) -> tuple[bool, dict[str, tuple[str | None, str]]]:
    """Only the keys that differ, merge-patched; the rest of the map left as it is."""
    data = await read_config(r, ctx, name)
    if data is None:
        return False, {}
    change = {k: (data.get(k), v) for k, v in want.items() if data.get(k) != v}
    if not change:
        r.thought(f"{name} already holds {want}; nothing to change (running it again is a no-op).")
        return True, {}
    body = json.dumps({"data": {k: v for k, (_, v) in change.items()}})
    ok = await write(
        r,
        ctx,
        f"{why} Merge patch of only the keys that differ: "
        + ", ".join(f"{k} {old!r} -> {new!r}" for k, (old, new) in change.items())
        + "; every other key stays as it is.",
        f"patch configmap {name} -n {ctx.ns} --type=merge -p '{body}'",
    )
    if ok:
        after = await read_config(r, ctx, name)
        r.thought(
            "changed: "
            + ", ".join(f"{name}.{k} {old} -> {new}" for k, (old, new) in change.items())
            + f"; read back: {', '.join(f'{k}={(after or {}).get(k)}' for k in change)}"
        )
    return ok, change


async def restart(r: React, ctx: Ctx, workload: str, why: str) -> bool:
    ok = await write(
        r,
        ctx,
        f"{why} Rolling restart of deployment {workload}.",
        f"rollout restart deployment {workload} -n {ctx.ns}",
    )
    if ok:
        await verify(r, ctx, workload)
    return ok


async def verify(r: React, ctx: Ctx, workload: str) -> bool:
    """Rollout status, then the pods themselves: Ready and not restarting."""
    await r.kubectl(
        f"Verify: has the rollout of {workload} finished?",
        f"rollout status deployment/{workload} -n {ctx.ns} --timeout=120s",
    )
    rows = rd.table(
        await r.kubectl(
            f"Verify: {workload}'s pods Ready and not restarting.",
            f"get pods -n {ctx.ns} -l app={workload}",
        )
    )
    good = bool(rows) and all(
        x.get("status") == "Running"
        and x.get("ready", "").split("/")[0] == x.get("ready", "").split("/")[-1]
        for x in rows
    )
    r.thought(
        f"verified: {len(rows)} pod(s) of {workload} Running and Ready"
        if good
        else f"not yet healthy: {', '.join(x.get('name', '') + ' ' + x.get('status', '') for x in rows)}"
    )
    return good


def wanted_pairs(prompt: str) -> dict[str, str]:
    """KEY=VALUE, "set KEY to VALUE", "enable KEY" in the request (keys in capitals)."""
    out: dict[str, str] = {}
    for k, v in re.findall(r"\b([A-Z][A-Z0-9_]{2,})\s*=\s*([\w.\-/:]+)", prompt):
        out[k] = v
    for k, v in re.findall(r"\b[Ss]et\s+([A-Z][A-Z0-9_]{2,})\s+to\s+([\w.\-/:]+)", prompt):
        out[k] = v.rstrip(".")
    for k in re.findall(r"\b[Ee]nable\s+([A-Z][A-Z0-9_]{2,})", prompt):
        out[k] = "true"
    for k in re.findall(r"\b[Dd]isable\s+([A-Z][A-Z0-9_]{2,})", prompt):
        out[k] = "false"
    return out
