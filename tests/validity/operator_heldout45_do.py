"""heldout45's changes (session 37, written blind): narrow writes, each read before and after.

Config keys (only the ones asked, only when they differ), replicas (after reading the current
count, requests and node room), restarts (verified), limit raises (proposed instead where
writes need approval). A shared or GitOps-owned object, or one an autoscaler owns, is left
alone and said so.
"""

from __future__ import annotations

import json
import re

from .operator_heldout45 import Change, Desk, named
from .operator_heldout45_look import containers
from .operator_read import items, quantity, table

_PAIR = re.compile(
    r"\b([A-Z][A-Z0-9_]{2,})\s*(?:=|\bto\b)\s*\"?([\w.:/-]+?)\"?(?=[\s,.;]*(?:\s|$|and\b))"
)


def config_asks(ask: str) -> dict[str, str]:
    """KEY=value pairs the request asks for ("LOG_LEVEL=warn", "Set LOG_LEVEL to debug",
    "update FEATURE_FLAG to \"true\"", "Enable DARK_LAUNCH")."""
    out = {k: v for k, v in _PAIR.findall(ask)}
    for key in re.findall(r"\b[Ee]nable (?:the )?([A-Z][A-Z0-9_]{2,})\b", ask):
        out.setdefault(key, "true")
    for key in re.findall(r"\b[Dd]isable (?:the )?([A-Z][A-Z0-9_]{2,})\b", ask):
        out.setdefault(key, "false")
    return out


async def _verify(desk: Desk, dep: str) -> tuple[bool, str]:
    ok, _out = await desk.write(f"rollout status deployment/{dep} -n {desk.ns} --timeout=120s")
    pods = table(
        await desk.read(
            f"and I look at {dep}'s pods myself after the rollout: a command that returned is not the same as a healthy workload",
            command=f"get pods -n {desk.ns} -l app={dep}",
        )
    )
    ready = sum(
        1
        for p in pods
        if p.get("ready", "0/1").split("/")[0] == p.get("ready", "0/1").split("/")[-1]
        and p.get("status") == "Running"
    )
    desk.shows(f"{ready}/{len(pods)} pods Running and ready.")
    healthy = ok and pods and ready == len(pods)
    return bool(healthy), f"{ready}/{len(pods)} ready"


async def _replicas(desk: Desk, dep: str) -> dict:
    found = items(
        await desk.read(
            f"before touching {dep}, its current state: replicas, requests, and who else manages it (an autoscaler, GitOps)",
            command=f"get deployment {dep} -n {desk.ns} -o yaml",
        )
    )
    return found[0] if found else {}


def _gitops(spec: dict) -> str:
    meta = spec.get("metadata") or {}
    for k, v in {**(meta.get("labels") or {}), **(meta.get("annotations") or {})}.items():
        if re.search(r"argocd|flux|gitops|managed-by", f"{k}={v}", re.I) and not re.search(
            r"helm|kubectl", str(v), re.I
        ):
            return f"{k}={v}"
    return ""


async def _hpa_on(desk: Desk, dep: str) -> dict[str, str]:
    rows = table(
        await desk.read(
            "is there an autoscaler on it? If there is, a hand-set replica count gets overwritten, so you change the autoscaler's bounds instead",
            command=f"get hpa -n {desk.ns}",
        )
    )
    for r in rows:
        if dep in r.get("reference", ""):
            desk.shows(
                f"HPA {r.get('name')} manages {dep}: min {r.get('minpods')}, max {r.get('maxpods')}, now {r.get('replicas')}."
            )
            return r
    desk.shows(f"no autoscaler targets {dep}.")
    return {}


async def changes(desk: Desk, targets: list[str], deps: list[str]) -> None:
    """Config keys first, then replicas, then a restart when the request wants it picked up."""
    asks = config_asks(desk.lesson.ask)
    if asks:
        ok = await set_keys(desk, asks, targets)
        if not ok:
            return
    m = re.search(r"\b(\d+)\s+replicas\b|\bto (\d+)\b|replicas to (\d+)|(\d+)x\b", desk.lesson.ask)
    if m and targets:
        want = m.group(1) or m.group(2) or m.group(3)
        await scale(
            desk, targets[0], int(want) if want else None, int(m.group(4)) if m.group(4) else None
        )


async def set_keys(desk: Desk, asks: dict[str, str], targets: list[str]) -> bool:
    """Set only the asked keys that differ; read it back; restart a named consumer if asked."""
    L = desk.lesson
    cms = [
        r.get("name", "")
        for r in table(
            await desk.read(
                "first, which config maps exist, so I edit the one you named and not a lookalike",
                command=f"get configmaps -n {desk.ns}",
            )
        )
    ]
    hit = named(L.ask, cms) or await _config_of(desk, targets, cms, asks)
    if not hit:
        L.unknown.append(
            f"I could not tell which config map the request means among {', '.join(cms)}."
        )
        return False
    cm = hit[0]
    found = items(
        await desk.read(
            f"then {cm} as it is now: you only write what differs, and you keep a copy of the before",
            command=f"get configmap {cm} -n {desk.ns} -o yaml",
        )
    )
    data = {str(k): str(v) for k, v in ((found[0].get("data") or {}) if found else {}).items()}
    desk.shows(f"{cm} has " + ", ".join(f"{k}={v}" for k, v in data.items()) + ".")
    diff = {k: v for k, v in asks.items() if data.get(k) != v}
    same = {k: v for k, v in asks.items() if data.get(k) == v}
    if same:
        L.evidence.append(
            f"{', '.join(f'{k}={v}' for k, v in same.items())} already set in {cm}: left alone, nothing to write"
        )
    users = await _consumers(desk, cm)
    others = [u for u in users if u not in targets]
    if diff and ((len(users) > 1 and not targets) or "shared" in cm):
        L.not_done.append(
            f"I did not change {cm}: {len(users)} deployments read it ({', '.join(users) or 'none found, but its name says it is shared'}). "
            f"Flipping {', '.join(diff)} there changes all of them at once; tell me which ones should get it, or confirm all {len(users)} are meant to."
        )
        L.told.append(f"you, for confirmation: {len(users)} consumers of {cm} would change")
        return False
    before: dict[str, str] = {}
    if diff:
        before = await _write_keys(desk, cm, data, diff)
    elif not diff:
        L.evidence.append(
            f"{cm} already had every value asked for, so I wrote nothing; running this again is a no-op too"
        )
    if others and diff:
        L.not_done.append(
            f"{', '.join(others)} also read {cm}; they pick the change up on their next restart, which I did not force."
        )
    if diff and re.search(r"\b(pick(s)? up|restart|roll)\b", L.ask, re.I):
        dep = (
            next((t for t in targets if t in users), "")
            or next(iter(named(L.ask, users)), "")
            or (targets[-1] if targets else "")
        )
        if dep:
            return await restart(
                desk,
                dep,
                f"environment from a config map is read at start, so {dep} only sees the new {', '.join(diff)} after a restart",
                rollback=(cm, before),
            )
    return True


async def _write_keys(
    desk: Desk, cm: str, data: dict[str, str], diff: dict[str, str]
) -> dict[str, str]:
    """Merge-patch only the differing keys and read them back; the before values."""
    L = desk.lesson
    before = {k: data.get(k, "(absent)") for k in diff}
    patch = json.dumps({"data": diff})
    _ok, out = await desk.write(f"patch configmap {cm} -n {desk.ns} --type merge -p '{patch}'")
    back = items(
        await desk.read(
            f"read {cm} back: the write is only done when the read says so",
            command=f"get configmap {cm} -n {desk.ns} -o yaml",
        )
    )
    now = {str(k): str(v) for k, v in ((back[0].get("data") or {}) if back else {}).items()}
    desk.shows(
        ", ".join(f"{k}={now.get(k)}" for k in diff)
        + f"; the other {len(now) - len(diff)} keys unchanged."
    )
    L.done.append(
        Change(
            f"patched config map {cm}: only {', '.join(diff)} (a merge patch, so no other key is touched)",
            "the request asked for these values and the map did not have them",
            ", ".join(f"{k}={v}" for k, v in before.items()),
            ", ".join(f"{k}={now.get(k)}" for k in diff),
            "read back: matches"
            if all(now.get(k) == v for k, v in diff.items())
            else f"read back does not match ({out[:80]})",
        )
    )
    L.remember.append(
        "Running the same ask again writes nothing: compare first, write only the difference."
    )
    return before


async def _config_of(
    desk: Desk, targets: list[str], cms: list[str], asks: dict[str, str]
) -> list[str]:
    """No map named: the one the named deployment reads (the request's keys live there)."""
    found = items(
        await desk.read(
            "the request doesn't name a config map, so I look at which one the deployment it names actually reads",
            command=f"get deployments -n {desk.ns} -o yaml",
        )
    )
    used = []
    for d in found:
        if str((d.get("metadata") or {}).get("name")) in targets:
            text = json.dumps(d.get("spec") or {})
            used += [c for c in cms if f'"{c}"' in text and c not in used]
    desk.shows(f"{', '.join(targets)} reads {', '.join(used) or 'no config map'}.")
    if not used:
        holders = []
        for c in cms:
            got = items(
                await desk.read(
                    f"{c}: does it hold {', '.join(asks)}?",
                    command=f"get configmap {c} -n {desk.ns} -o yaml",
                )
            )
            data = (got[0].get("data") or {}) if got else {}
            desk.shows(f"{c} has {', '.join(data) or 'no keys'}.")
            if all(k in data for k in asks):
                holders.append(c)
        if len(holders) > 1:
            words = {w for t in targets for w in t.split("-")}
            holders = [h for h in holders if words & set(h.split("-"))] or holders
        if len(holders) == 1:
            desk.lesson.says.append(
                f"It doesn't say which config map; {holders[0]} is the one that holds {', '.join(asks)} and goes with {targets[0] if targets else 'the app'}, so that's the one."
            )
        return holders if len(holders) == 1 else []
    if len(used) == 1:
        desk.lesson.says.append(
            f"It doesn't say which config map; {targets[0]} reads exactly one, {used[0]}, so that's where {', '.join(asks)} belongs."
        )
    return used if len(used) == 1 else []


async def _consumers(desk: Desk, cm: str) -> list[str]:
    found = items(
        await desk.read(
            f"who reads {cm}? A config map can feed several deployments, and changing it changes them all",
            command=f"get deployments -n {desk.ns} -o yaml",
        )
    )
    users = [
        str((d.get("metadata") or {}).get("name"))
        for d in found
        if cm in json.dumps(d.get("spec") or {})
    ]
    desk.shows(f"{cm} is read by {', '.join(users) or 'no deployment'}.")
    return users


async def restart(
    desk: Desk, dep: str, why: str, rollback: tuple[str, dict[str, str]] | None = None
) -> bool:
    L = desk.lesson
    pods = table(
        await desk.read(
            f"{dep}'s pods before the restart, so the after has something to compare with",
            command=f"get pods -n {desk.ns} -l app={dep}",
        )
    )
    before = f"{len(pods)} pods: " + ", ".join(f"{p['name']} {p.get('ready')}" for p in pods)
    ok, out = await desk.write(f"rollout restart deployment/{dep} -n {desk.ns}")
    if not ok:
        L.done.append(
            Change(f"rollout restart of {dep}", why, before, f"failed: {out[:160]}", "not started")
        )
        if rollback:
            await _undo_keys(desk, *rollback)
        return False
    healthy, after = await _verify(desk, dep)
    L.done.append(
        Change(
            f"rolling restart of deployment {dep}",
            why,
            before,
            after,
            "verified: all pods Running and ready" if healthy else "NOT healthy after the restart",
        )
    )
    if not healthy and rollback:
        await _undo_keys(desk, *rollback)
    return healthy


async def _undo_keys(desk: Desk, cm: str, before: dict[str, str]) -> None:
    L = desk.lesson
    restore = {k: v for k, v in before.items() if v != "(absent)"}
    drop = [k for k, v in before.items() if v == "(absent)"]
    patch = json.dumps({"data": {**restore, **{k: None for k in drop}}})
    ok, out = await desk.write(f"patch configmap {cm} -n {desk.ns} --type merge -p '{patch}'")
    back = items(
        await desk.read(
            f"read {cm} back after putting it back",
            command=f"get configmap {cm} -n {desk.ns} -o yaml",
        )
    )
    now = (back[0].get("data") or {}) if back else {}
    L.done.append(
        Change(
            f"rolled {cm} back to its before",
            "the second step failed, and half a change (new config, old pods) is worse than none",
            "the new values",
            ", ".join(f"{k}={now.get(k, '(absent)')}" for k in before),
            "read back" if ok else out[:120],
        )
    )
    L.not_done.append(
        "I stopped there instead of pushing on: the restart did not come up healthy, so the change is not safe to leave half-applied."
    )


async def restart_asked(desk: Desk, dep: str) -> None:
    await restart(
        desk,
        dep,
        "you asked for a restart of this deployment; a rolling restart replaces pods one by one so it keeps serving",
    )


async def scale(desk: Desk, dep: str, want: int | None, factor: int | None) -> None:
    L = desk.lesson
    spec = await _replicas(desk, dep)
    have = int((spec.get("spec") or {}).get("replicas") or 0)
    desk.shows(f"{dep} runs {have} replicas.")
    await _environment(desk)
    hpa = await _hpa_on(desk, dep)
    req = [((c.get("resources") or {}).get("requests") or {}) for c in containers(spec)]
    cpu = sum(quantity(str(r.get("cpu", "0"))) or 0 for r in req)
    mem = sum(quantity(str(r.get("memory", "0"))) or 0 for r in req)
    nodes = items(
        await desk.read(
            "node capacity: replicas only help if the nodes have room for their requests",
            command="get nodes -o yaml",
        )
    )
    room_cpu = sum(
        quantity(str(((n.get("status") or {}).get("allocatable") or {}).get("cpu", "0"))) or 0
        for n in nodes
    )
    desk.shows(
        f"{len(nodes)} nodes, {room_cpu:g} CPU allocatable in all; each {dep} pod requests {cpu:g} CPU and {mem / 2**20:.0f}Mi."
    )
    target = want if want is not None else have * (factor or 2)
    if factor:
        L.evidence.append(
            f"2x the load on {have} replicas is {target} replicas, at {cpu:g} CPU each = {target * cpu:g} CPU requested, against {room_cpu:g} allocatable across the nodes"
        )
    if hpa:
        L.not_done.append(
            f"I did not set replicas by hand: HPA {hpa.get('name')} owns {dep}'s count (min {hpa.get('minpods')}, max {hpa.get('maxpods')}) and would undo it. Raising its minimum is the change to make; tell me if you want that."
        )
        return
    if cpu and room_cpu and target * cpu > room_cpu:
        L.not_done.append(
            f"I did not scale to {target}: {target} x {cpu:g} CPU = {target * cpu:g} CPU is more than the {room_cpu:g} the nodes have."
        )
        return
    if target == have:
        L.evidence.append(f"{dep} already has {have} replicas: nothing to do")
        return
    ok, out = await desk.write(f"scale deployment/{dep} -n {desk.ns} --replicas={target}")
    healthy, after = await _verify(desk, dep) if ok else (False, out[:120])
    L.done.append(
        Change(
            f"scaled deployment {dep}",
            "the request asked for it, and the nodes have room for the requests",
            f"{have} replicas",
            f"{target} replicas ({after})",
            "verified" if healthy else "not all ready yet",
        )
    )


async def _environment(desk: Desk) -> None:
    out = await desk.read(
        "which environment is this? The namespace labels say, and production changes get more care",
        command=f"get namespace {desk.ns} --show-labels",
    )
    labels = " ".join(out.split()[-1:]) if out else ""
    desk.shows(f"labels: {labels}.")
    if re.search(r"prod", labels + " ".join(desk.zones), re.I):
        desk.lesson.says.append(
            f"This is production: {desk.ns} is labelled {labels}. So I read capacity and autoscaling first, change one thing, and watch it come up."
        )
