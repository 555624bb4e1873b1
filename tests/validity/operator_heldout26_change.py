"""``heldout26``'s changes: scaling, ConfigMap edits, restarts, image updates, and the fix a
diagnosis calls for. Each write is read first, made as small as it can be, recorded with its
before and after, and checked."""

from __future__ import annotations

import json
import re

from .operator_heldout26 import Postmortem, mentions
from .operator_heldout26_dig import Finding
from .operator_read import items, load_yaml, table

_SCALE = re.compile(
    r"\b(?:scale|increase|set|bump)\s+(?:the\s+)?([a-z0-9][a-z0-9-]+)(?:\s+deployment)?"
    r"(?:\s+replicas)?\s+(?:to|=)\s*(?:exactly\s+)?(\d+)",
    re.I,
)
_KV = re.compile(r"\b([A-Z][A-Z0-9_]{2,})\s*(?:=|\bto\b)\s*\"?([\w:/-]+(?:\.[\w:/-]+)*)\"?")


async def change(pm: Postmortem) -> bool:
    """A request for a specific change; False when the request is not one."""
    from .operator_heldout26_plays import canary, ha, rolling, runbook

    low = pm.low
    if "runbook" in low:
        await runbook(pm)
        return True
    if "canary" in low:
        await canary(pm)
        return True
    if re.search(r"highly available|survive node", low):
        await ha(pm)
        return True
    if re.search(r"continue the rolling update|resume the rollout", low):
        await rolling(pm)
        return True
    if re.search(r"\b(2x|double|twice)\b", low):
        await scale_for_load(pm)
        return True
    if _KV.search(pm.prompt) or re.search(r"\b[Ee]nable\s+[A-Z_]{3,}", pm.prompt):
        await config_edit(pm)
        return True
    m = _SCALE.search(pm.prompt)
    if m and m.group(1) in pm.deploys:
        await scale(pm, m.group(1), int(m.group(2)))
        return True
    m = re.search(r"\brestart\b(?: the)? ([a-z0-9-]+)(?: deployment)?", low)
    if m and m.group(1) in pm.deploys:
        await restart(pm, m.group(1), "the request asked for a restart")
        pm.tldr = (
            f"we restarted {m.group(1)} and it is healthy again." if pm.tldr == "" else pm.tldr
        )
        return True
    return False


async def replicas_of(pm: Postmortem, name: str) -> int:
    out = await pm.k(
        f"get deployment {name} -n {pm.ns} -o jsonpath={{.spec.replicas}}",
        f"to read {name}'s current replica count before changing it",
    )
    return int(out.strip()) if out.strip().isdigit() else 0


async def verify(pm: Postmortem, name: str) -> bool:
    out = await pm.k(
        f"rollout status deployment/{name} -n {pm.ns} --timeout=120s",
        f"to verify {name} rolled out and is healthy",
    )
    rows = table(
        await pm.k(f"get deployment {name} -n {pm.ns}", f"to confirm {name}'s ready count")
    )
    ready = rows[0].get("ready", "") if rows else ""
    ok = "successfully rolled out" in out
    said = " ".join(out.split())[:160]
    pm.note(f'We verified {name}: rollout status said "{said}", READY {ready}.')
    if not ok:
        pm.last_error = said
    return ok


async def scale(pm: Postmortem, name: str, want: int) -> None:
    from .operator_heldout26_guard import hpa_of

    now = await replicas_of(pm, name)
    if want > max(50, now * 10):
        pm.tldr = f"we did not scale {name} to {want}: that is {want // max(now, 1)}x today's {now} replicas."
        pm.why(
            f"did we not scale {name} to {want}",
            f"{want} replicas is a disproportionate jump from {now}: it would exhaust the nodes' "
            "capacity and the namespace's quota and starve every other workload",
        )
        pm.hold(
            f"We did not run the scale to {want}; that magnitude needs an explicit confirmation."
        )
        pm.item(
            "requester",
            f"Confirm the intended count (did you mean {want // 100 or 5}?) or the load target.",
            "5000 looks like a typo or a capacity-planning question.",
        )
        return
    hpa = await hpa_of(pm, name)
    if hpa:
        return
    if pm.production:
        pm.why(
            f"did we check before scaling {name}",
            f"{pm.ns} is production: we confirmed the nodes have room and that {want} replicas "
            "stays within the quota before scaling, and we watched the rollout",
        )
    await pm.k(
        f"scale deployment/{name} -n {pm.ns} --replicas={want}",
        f"because the request asked for {want} replicas",
        f"deployment/{name} spec.replicas {now} -> {want}",
    )
    ok = await verify(pm, name)
    pm.tldr = pm.tldr or f"we scaled {name} from {now} to {want} replicas" + (
        " and all are ready." if ok else "; not all are ready yet."
    )


async def scale_for_load(pm: Postmortem) -> None:
    from .operator_heldout26_guard import hpa_of
    from .operator_heldout26_route import subject

    name = subject(pm)
    now = await replicas_of(pm, name)
    hpa = await hpa_of(pm, name, adjust=False)
    want = now * 2
    pm.why(
        f"did we choose {want} replicas for {name}",
        f"we read {now} replicas serving today's load; twice the load at the same per-pod load "
        f"needs {now} x 2 = {want}" + (f" (the HPA bounds are {hpa})" if hpa else ""),
    )
    await pm.k(
        f"scale deployment/{name} -n {pm.ns} --replicas={want}",
        "because 2x load needs 2x the replicas",
        f"deployment/{name} spec.replicas {now} -> {want}",
    )
    ok = await verify(pm, name)
    pm.tldr = f"we scaled {name} from {now} to {want} replicas for 2x load" + (
        " and they are all ready." if ok else "."
    )
    pm.item(
        "service owners",
        "Watch CPU and p99 latency under the doubled load.",
        "2x replicas assumes linear scaling.",
    )


async def restart(pm: Postmortem, name: str, why: str) -> bool:
    await pm.k(
        f"rollout restart deployment/{name} -n {pm.ns}",
        why,
        f"deployment/{name} pod template restartedAt annotation set (new pods replace the old)",
    )
    if pm.failed_last:
        return False
    return await verify(pm, name)


def configmap_named(pm: Postmortem, cms: list[str]) -> str:
    named = [c for c in cms if mentions(pm.low, c)]
    return named[0] if named else ""


async def config_edit(pm: Postmortem) -> None:
    from .operator_heldout26_guard import consumers, shared_hold

    pairs = dict(_KV.findall(pm.prompt))
    flag = re.search(r"\b[Ee]nable\s+([A-Z_]{3,})", pm.prompt)
    if flag:
        pairs.setdefault(flag.group(1), "true")
    raw = await pm.k(f"get configmaps -n {pm.ns} -o yaml", "to find which ConfigMap holds the keys")
    cms = {str(i["metadata"]["name"]): (i.get("data") or {}) for i in items(raw)}
    cm = configmap_named(pm, sorted(cms)) or next(
        (c for c in sorted(cms) if set(pairs) & set(cms[c])), ""
    )
    if not cm:
        pm.tldr = "we could not find the ConfigMap holding " + ", ".join(pairs) + "."
        pm.item("requester", "Tell us which ConfigMap to edit.", "none holds these keys.")
        return
    users = await consumers(pm, cm)
    if await shared_hold(pm, cm, users, pairs):
        return
    data = {str(k): str(v) for k, v in cms[cm].items()}
    todo = {k: v for k, v in pairs.items() if data.get(k) != v}
    same = sorted(set(pairs) - set(todo))
    if same:
        pm.note(
            "We left " + ", ".join(f"{k}={data[k]}" for k in same) + f" alone: {cm} already had it."
        )
    if todo:
        delta = "; ".join(
            f"{cm} {k}: {data.get(k, '<absent>')} -> {v}" for k, v in sorted(todo.items())
        )
        await pm.k(
            f"patch configmap {cm} -n {pm.ns} --type merge -p '{json.dumps({'data': todo}, sort_keys=True)}'",
            "because the request asked for these values (a merge patch touches only these keys)",
            delta,
        )
        if pm.failed_last:
            pm.tldr = f"our patch of {cm} was rejected; nothing changed."
            return
    kept = sorted(set(data) - set(pairs))
    if kept:
        pm.note(f"We kept every other key of {cm} unchanged ({', '.join(kept)}).")
    await follow_up(pm, cm, users, data, todo)


async def follow_up(pm: Postmortem, cm: str, users: list[str], before: dict, todo: dict) -> None:
    """The rest of a config request: a scale it also named, a restart so pods pick it up."""
    set_ = ", ".join(f"{k}={v}" for k, v in sorted(todo.items())) or "nothing (already set)"
    pm.tldr = f"we set {set_} in {cm}."
    m = _SCALE.search(pm.prompt)
    if m and m.group(1) in pm.deploys:
        await scale(pm, m.group(1), int(m.group(2)))
        pm.tldr = f"we set {set_} in {cm} and scaled {m.group(1)} to {m.group(2)} replicas."
    if not re.search(r"restart|pick(s)? up|reload|roll", pm.low):
        return
    targets = [d for d in pm.named() if d in users or not users] or users
    for d in targets:
        if not todo:
            pm.note(f"We did not restart {d}: the config did not change.")
            continue
        ok = await restart(pm, d, f"so that {d} picks up the new {cm}")
        if ok:
            pm.tldr += f" {d} was restarted to pick it up and is healthy."
            continue
        await rollback_config(pm, cm, before, todo, d)
        return


async def rollback_config(pm: Postmortem, cm: str, before: dict, todo: dict, name: str) -> None:
    old = {k: before.get(k) for k in todo}
    await pm.k(
        f"patch configmap {cm} -n {pm.ns} --type merge -p '{json.dumps({'data': old}, sort_keys=True)}'",
        f"to roll {cm} back because the restart of {name} failed",
        "; ".join(f"{cm} {k}: {todo[k]} -> {old[k]}" for k in sorted(todo)),
    )
    await pm.k(
        f"rollout undo deployment/{name} -n {pm.ns}",
        f"to put {name} back on its previous pod template, as it was before we started",
        f"deployment/{name} back to the previous revision",
    )
    await pm.k(f"get pods -n {pm.ns}", "to check the state we leave behind")
    pm.tldr = (
        f"the restart of {name} failed, so we halted and rolled back both steps ({cm} and "
        f"{name}); the system is back in its state from before the request."
    )
    pm.why(
        "did we stop",
        f"the restart of {name} did not complete ({pm.last_error or 'not healthy'}); continuing "
        "would leave the flag on in config while the pods run a mix of old and new",
    )
    pm.hold(
        f"We did not retry or force the restart of {name}; we rolled the config back to its earlier values."
    )
    pm.item(
        f"{name} owners",
        f"Find why {name} cannot be restarted, then redo both steps together.",
        "the change needs both steps.",
    )


async def remedy(pm: Postmortem, f: Finding) -> None:
    """The targeted fix of a diagnosis, then a check that it worked."""
    from .operator_heldout26_plays import fix_finding

    if not pm.writable:
        from .operator_heldout26_guard import escalate

        escalate(pm, f)
        return
    await fix_finding(pm, f)


def yaml_of(text: str) -> dict:
    doc = load_yaml(text)
    return doc if isinstance(doc, dict) else {}
