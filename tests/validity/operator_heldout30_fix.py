"""heldout30's hands (issue 27 item 6, written blind): narrow changes, each read before, done,
read after and verified; a failed step rolled back. Every change is logged with its before
and after for the handover."""

from __future__ import annotations

import json
import re
from typing import Any

from . import operator_read as rd
from .operator_heldout30_shift import Shift, name_of


async def wait_rollout(sh: Shift, dep: str, cue: str) -> tuple[bool, str]:
    """Verify a rollout: rollout status, then the pods. (healthy, what was seen)"""
    out = await sh.k(
        f"rollout status deploy/{dep} -n {sh.ns} --timeout=120s",
        f"verify: did deploy/{dep} finish rolling with every replica ready",
        cue,
    )
    pods = rd.table(
        await sh.k(f"get po -n {sh.ns}", f"verify: state of the {dep} po after the change", cue)
    )
    mine = [p for p in pods if p.get("name", "").startswith(dep + "-")]
    rolled = "successfully rolled out" in out
    bad = [p for p in mine if p.get("status") != "Running" or _unready(p.get("ready", ""))]
    seen = ", ".join(f"{p['name']} {p.get('ready')} {p.get('status')}" for p in mine[:6])
    if rolled and bad:
        seen += f"; leftover not ready: {', '.join(p['name'] for p in bad)}"
    return rolled and len(bad) < len(mine), seen or " ".join(out.split())[:120]


def _unready(ready: str) -> bool:
    a, _, b = ready.partition("/")
    return a != b


async def set_keys(
    sh: Shift, cm: str, values: dict[str, str], cue: str
) -> tuple[str, dict[str, str]]:
    """Patch only the keys asked for, skipping ones already right (idempotent).
    Returns (what happened, the values before)."""
    got = rd.items(
        await sh.k(f"get cm {cm} -n {sh.ns} -o yaml", f"read cm/{cm} before touching it", cue)
    )
    data = {str(k): str(v) for k, v in ((got[0].get("data") or {}) if got else {}).items()}
    todo = {k: v for k, v in values.items() if data.get(k) != v}
    before = {k: data.get(k, "<unset>") for k in values}
    if not todo:
        return f"cm/{cm} already has {_kv(values)}: nothing to change, left it alone", before
    patch = json.dumps({"data": todo}, sort_keys=True)
    step = await sh.change(
        f"patch cm {cm} -n {sh.ns} --type merge -p '{patch}'",
        f"set {_kv(todo)} in cm/{cm} as asked, merge patch so no other key is touched",
        cue,
        before=_kv({k: before[k] for k in todo}),
        after=_kv(todo),
    )
    if step.failed:
        return f"patch of cm/{cm} failed: {step.out.strip()[:160]}", before
    check = rd.items(
        await sh.k(f"get cm {cm} -n {sh.ns} -o yaml", f"verify cm/{cm} after the patch", cue)
    )
    now = {str(k): str(v) for k, v in ((check[0].get("data") or {}) if check else {}).items()}
    kept = sorted(k for k in data if k not in todo and now.get(k) == data[k])
    return (
        f"cm/{cm}: {_kv({k: before[k] for k in todo})} -> {_kv(todo)}; verified, other keys "
        f"untouched ({', '.join(kept) or 'none'})",
        before,
    )


def _kv(values: dict[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in values.items())


async def scale(sh: Shift, dep: str, count: int, before: int, why: str, cue: str) -> str:
    step = await sh.change(
        f"scale deploy/{dep} -n {sh.ns} --replicas={count}",
        why,
        cue,
        before=f"replicas={before}",
        after=f"replicas={count}",
    )
    if step.failed:
        return f"scale of deploy/{dep} failed: {step.out.strip()[:160]}"
    ok, state = await wait_rollout(sh, dep, cue)
    verdict = "verified, all ready" if ok else "NOT all ready yet"
    return f"deploy/{dep} replicas {before} -> {count}; {verdict} ({state})"


async def restart(sh: Shift, dep: str, why: str, cue: str) -> tuple[bool, str]:
    step = await sh.change(
        f"rollout restart deploy/{dep} -n {sh.ns}",
        why,
        cue,
        before="po from the old restart",
        after="fresh po (new restartedAt)",
    )
    if step.failed:
        return False, f"restart of deploy/{dep} failed: {step.out.strip()[:160]}"
    ok, state = await wait_rollout(sh, dep, cue)
    return ok, f"deploy/{dep} rolled ({'healthy' if ok else 'NOT healthy'}: {state})"


async def undo(sh: Shift, dep: str, why: str, cue: str) -> tuple[bool, str]:
    step = await sh.change(
        f"rollout undo deploy/{dep} -n {sh.ns}",
        why,
        cue,
        before="current revision",
        after="previous revision",
    )
    if step.failed:
        return False, f"rollback of deploy/{dep} failed: {step.out.strip()[:160]}"
    ok, state = await wait_rollout(sh, dep, cue)
    return ok, f"deploy/{dep} rolled back ({'healthy' if ok else 'NOT healthy'}: {state})"


async def image_of(sh: Shift, dep: str, cue: str) -> str:
    got = await sh.one("deploy", dep, f"current image of {dep}", cue)
    cs = (((got.get("spec") or {}).get("template") or {}).get("spec") or {}).get("containers") or []
    return str(cs[0].get("image", "")) if cs else ""


async def replicas(sh: Shift, dep: str, cue: str) -> tuple[int, dict[str, Any]]:
    got = await sh.one("deploy", dep, f"read deploy/{dep} before changing it", cue)
    spec = got.get("spec") or {}
    return int(spec.get("replicas") or 0), got


async def hpa_for(sh: Shift, dep: str, cue: str) -> dict[str, Any]:
    for hpa in await sh.objects("hpa", f"is an hpa driving deploy/{dep}'s replicas", cue):
        ref = (hpa.get("spec") or {}).get("scaleTargetRef") or {}
        if ref.get("name") == dep:
            return hpa
    return {}


async def lower_cpu(sh: Shift, dep: str, cue: str) -> str:
    """A pod that fits nowhere: lower its CPU request below what the nodes have free, halving
    while it stays Pending (twice at most), verified by the pod being scheduled."""
    got = await sh.one("deploy", dep, f"read the requests of {dep}", cue)
    cs = (((got.get("spec") or {}).get("template") or {}).get("spec") or {}).get("containers") or []
    if not cs:
        return "could not read the container spec; left it"
    c = cs[0]
    req = str(((c.get("resources") or {}).get("requests") or {}).get("cpu", ""))
    nodes = await sh.k(
        "describe nodes", "how much cpu each node has allocatable and already requested", cue
    )
    free = _free_cpu(nodes)
    current = rd.quantity(req) or 0.0
    target = min(current / 2 if current else 0.5, free * 0.8 if free else current / 2)
    note = ""
    for attempt in range(3):
        milli = max(50, int(target * 1000) // 10 * 10)
        patch = json.dumps(
            {
                "spec": {
                    "template": {
                        "spec": {
                            "containers": [
                                {
                                    "name": c.get("name"),
                                    "resources": {"requests": {"cpu": f"{milli}m"}},
                                }
                            ]
                        }
                    }
                }
            }
        )
        step = await sh.change(
            f"patch deploy {dep} -n {sh.ns} --type strategic -p '{patch}'",
            f"cpu request {req} fits no node: the scheduler says Insufficient cpu (nodes have "
            f"{free:.1f} cores allocatable but other po already hold part of each): lower it to {milli}m",
            cue if attempt == 0 else "po still Pending after the last patch",
            before=f"requests.cpu={req}",
            after=f"requests.cpu={milli}m",
        )
        if step.failed:
            return f"patch failed: {step.out.strip()[:160]}"
        ok, state = await wait_rollout(sh, dep, "verify the patch")
        note = f"requests.cpu {req} -> {milli}m; po {state}"
        if ok:
            return note + " (scheduled and ready)"
        req, target = f"{milli}m", milli / 2000
    return note + " (still not all ready)"


def _free_cpu(describe: str) -> float:
    """The most CPU any node has unrequested, from describe nodes."""
    best = 0.0
    for block in re.split(r"\n(?=Name:\s)", describe):
        alloc = re.search(r"Allocatable:.*?cpu:\s+(\S+)", block, re.S)
        used = re.search(r"Allocated resources:.*?cpu\s+(\S+)", block, re.S)
        if alloc:
            total = rd.quantity(alloc.group(1)) or 0.0
            taken = rd.quantity(used.group(1)) if used else 0.0
            best = max(best, total - (taken or 0.0))
    return best


def names(objs: list[dict[str, Any]]) -> list[str]:
    return [name_of(o) for o in objs]
