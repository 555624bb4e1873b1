"""heldout32's hands: narrow changes, each read before, verified after, undone on failure (written blind)."""

from __future__ import annotations

import json
import re

from . import operator_read as rd
from .operator_heldout32_chat import Thread
from .operator_heldout32_look import Scene


def may_write(t: Thread, scene: Scene, ns: str) -> tuple[bool, str]:
    """Whether we may change things in ``ns`` ourselves, and why not when we may not."""
    scope = t.task.scope or {}
    zones = " ".join(str(z) for z in scope.get("zones") or []).lower()
    mode = str(getattr(t.task, "mode", "") or "").lower()
    if ns not in (scope.get("namespaces") or ["default"]):
        return False, f"{ns} isn't in our scope ({', '.join(scope.get('namespaces') or [])})"
    why = []
    needs = " ".join(str(x) for x in scope.get("approval_required_for") or []).lower()
    if needs and ("production" not in needs or scene.production(ns)):
        why.append(f"our scope says approval is required for: {needs}")
    if "read-only" in mode or "readonly" in zones or "read-only" in zones:
        why.append(f"our zone is {zones or mode}, read-only")
    if mode == "supervised" and scene.production(ns):
        why.append(f"{ns} is production and we run supervised")
    if why:
        return False, "; ".join(why)
    return True, ""


async def pods_ready(t: Thread, ns: str, name: str) -> tuple[int, int, str]:
    """(ready, wanted, ready column) of the Deployment as it is now."""
    rows = rd.table(await t.kubectl(f"get deployment {name} -n {ns}"))
    col = rows[0].get("ready", "0/0") if rows else "0/0"
    m = re.match(r"(\d+)/(\d+)", col)
    return (int(m.group(1)), int(m.group(2)), col) if m else (0, 0, col)


async def verify(t: Thread, ns: str, name: str, why: str) -> bool:
    """Watch the rollout and the pods after a change; say what they show."""
    status = await t.kubectl(f"rollout status deployment/{name} -n {ns} --timeout=60s")
    ready, want, col = await pods_ready(t, ns, name)
    pods = rd.table(await t.kubectl(f"get pods -n {ns}"))
    mine = [r for r in pods if r.get("name", "").startswith(f"{name}-")]
    states = ", ".join(sorted({r.get("status", "") for r in mine})) or "none"
    if want == 0:
        left = [r for r in mine if r.get("status") not in ("Terminating",)]
        t.say(
            f"after {why}: {name} READY {col}, {len(left)} pods left -- "
            + ("as intended" if not left else "still draining")
        )
        return True
    odd = {r.get("status", "") for r in mine} - {"Running", "Terminating", "Completed"}
    ok = (
        want > 0
        and ready == want
        and not odd
        and not re.search(r"timed out|error|fail", status, re.I)
    )
    last = (status.strip().splitlines() or [""])[-1]
    t.say(
        f"watching {name} after {why}: rollout says `{last}`, READY {col}, pods {states}"
        + (" -- looks good" if ok else " -- hmm, not healthy")
    )
    return ok


async def undo(t: Thread, ns: str, name: str, why: str) -> None:
    t.say(
        f"that didn't take ({why}). rolling it back: `kubectl rollout undo deployment/{name} -n {ns}`"
    )
    await t.kubectl(f"rollout undo deployment/{name} -n {ns}")
    await verify(t, ns, name, "the rollback")


async def restart(t: Thread, ns: str, name: str, why: str) -> bool:
    t.say(f"restarting {name} ({why}): `kubectl rollout restart deployment/{name} -n {ns}`")
    await t.kubectl(f"rollout restart deployment/{name} -n {ns}")
    return await verify(t, ns, name, "the restart")


async def set_keys(
    t: Thread, ns: str, cm: str, want: dict[str, str], before: dict[str, str], why: str
) -> dict[str, str]:
    """Patch only the keys that differ; the rest of the map stays as it was."""
    todo = {k: v for k, v in want.items() if before.get(k) != v}
    same = [k for k in want if k not in todo]
    if same:
        t.say(
            f"{', '.join(f'{k}={want[k]}' for k in same)} already set in {cm}, leaving that alone"
        )
    if not todo:
        t.say(f"nothing to change in {cm}, it already matches")
        return {}
    body = json.dumps({"data": todo})
    delta = ", ".join(f"{k}: {before.get(k, '<unset>')} -> {v}" for k, v in todo.items())
    t.say(
        f"patching cm {cm} ({why}), only the keys asked for: {delta}. "
        f"`kubectl patch configmap {cm} -n {ns} --type merge -p '{body}'`"
    )
    await t.kubectl(f"patch configmap {cm} -n {ns} --type merge -p '{body}'")
    doc = rd.load_yaml(await t.kubectl(f"get configmap {cm} -n {ns} -o yaml"))
    after = {
        str(k): str(v)
        for k, v in (((doc or {}).get("data") or {}) if isinstance(doc, dict) else {}).items()
    }
    ok = all(after.get(k) == v for k, v in todo.items())
    kept = [k for k in before if k not in todo and after.get(k) == before[k]]
    t.say(
        f"read {cm} back: {', '.join(f'{k}={after.get(k)}' for k in todo)}"
        + (f", other keys untouched ({', '.join(kept)})" if kept else "")
        + ("" if ok else " -- wait, that's not what we wrote")
    )
    return todo if ok else {}


async def scale(t: Thread, ns: str, name: str, before: int, to: int, why: str) -> bool:
    t.say(
        f"scaling {name} {before} -> {to} replicas ({why}): "
        f"`kubectl scale deployment/{name} -n {ns} --replicas={to}`"
    )
    await t.kubectl(f"scale deployment/{name} -n {ns} --replicas={to}")
    return await verify(t, ns, name, f"the scale to {to}")
