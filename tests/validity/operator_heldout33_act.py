"""heldout33's changes (session 28, written blind): each change read before, made narrowly,
verified after, and undone when it fails. What blocks a change (an autoscaler that owns the
replica count, a GitOps source, a shared ConfigMap, a production namespace in supervised mode)
is checked first and answered with who decides.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .operator_heldout33_look import Call, Desk, Workload, configmap, namespace_meta
from .operator_heldout33_say import Reply, said
from .operator_read import items, quantity, table


async def rollout_ok(desk: Desk, ns: str, name: str, why: str) -> tuple[bool, Call, Call]:
    """Rollout status, then the pods' own table: healthy only when every pod is Running and
    ready and the rollout finished."""
    st = await desk.k(f"rollout status deployment/{name} -n {ns} --timeout=60s", why)
    dep = await desk.k(f"get deployment {name} -n {ns}", f"to confirm {name}'s ready count")
    rows = table(dep.text)
    ready = rows[0].get("ready", "0/1").split("/") if rows else ["0", "1"]
    done = "successfully rolled out" in st.text and len(ready) == 2 and ready[0] == ready[1]
    return done, st, dep


async def consumers(desk: Desk, ns: str, cm: str) -> tuple[list[str], Call]:
    """Deployments whose pod template reads the ConfigMap (env, envFrom or a volume)."""
    call = await desk.k(
        f"get deployments -n {ns} -o yaml", f"to find which workloads read ConfigMap {cm}"
    )
    users = []
    desk.seen_deployments = [(d.get("metadata") or {}).get("name", "") for d in items(call.text)]
    for d in items(call.text):
        tmpl = json.dumps(((d.get("spec") or {}).get("template") or {}).get("spec") or {})
        if re.search(rf'"name": "{re.escape(cm)}"', tmpl):
            users.append((d.get("metadata") or {}).get("name", ""))
    return users, call


def wanted_pairs(prompt: str) -> dict[str, str]:
    """KEY=value pairs the request asks for ('LOG_LEVEL=warn', 'LOG_LEVEL to debug',
    'FEATURE_FLAG to "true"', 'Enable DARK_LAUNCH')."""
    out: dict[str, str] = {}
    for k, v in re.findall(r"\b([A-Z][A-Z0-9_]{2,})\s*=\s*\"?([\w.-]+)", prompt):
        out[k] = v.rstrip(".")
    for k, v in re.findall(r"\b([A-Z][A-Z0-9_]{2,})\s+to\s+\"?([\w.-]+)\"?", prompt):
        out.setdefault(k, v.rstrip("."))
    for k in re.findall(r"\b[Ee]nable\s+(?:the\s+)?([A-Z][A-Z0-9_]{2,})", prompt):
        out.setdefault(k, "true")
    return out


def _cm_named(prompt: str, names: list[str]) -> str:
    low = prompt.lower()
    hits = [n for n in names if re.search(rf"\b{re.escape(n.lower())}\b", low)]
    return max(hits, key=len) if hits else ""


async def find_configmap(desk: Desk, ns: str, keys: list[str]) -> tuple[str, Call]:
    """The ConfigMap the request names; else the one ConfigMap already holding its keys."""
    call = await desk.k(f"get configmaps -n {ns}", "to find the ConfigMap the request names")
    names = [r.get("name", "") for r in table(call.text)]
    hit = _cm_named(desk.prompt, names)
    if hit or not keys:
        return hit, call
    full = await desk.k(
        f"get configmaps -n {ns} -o yaml",
        f"no ConfigMap was named, so I looked for the one holding {', '.join(keys)}",
    )
    holders = [
        (c.get("metadata") or {}).get("name", "")
        for c in items(full.text)
        if all(k in (c.get("data") or {}) for k in keys)
    ]
    return (holders[0] if len(holders) == 1 else ""), full


async def set_keys(
    desk: Desk, ns: str, cm: str, want: dict[str, str], r: Reply
) -> tuple[dict[str, str], dict[str, str]]:
    """Patch only the keys that differ; the before values kept for a rollback."""
    before, read = await configmap(desk, ns, cm, f"to read {cm}'s current values before changing")
    diff = {k: v for k, v in want.items() if before.get(k) != v}
    same = [k for k in want if k not in diff]
    if same:
        r.changed.append(
            said(
                f"{', '.join(f'{k}={want[k]}' for k in same)} already held in {cm}; left alone",
                read,
            )
        )
    if diff:
        body = json.dumps({"data": diff}, separators=(",", ":"))
        call = await desk.k(
            f"patch configmap {cm} -n {ns} --type merge -p '{body}'",
            f"to set {', '.join(diff)} in {cm} as requested (only the keys that differ)",
        )
        after, check = await configmap(desk, ns, cm, f"to confirm {cm} now holds the new values")
        for k, _v in diff.items():
            r.changed.append(
                said(
                    f"ConfigMap {cm}: {k} changed from {before.get(k, '(absent)')!r} to"
                    f" {after.get(k, '?')!r}; other keys untouched",
                    call,
                    check,
                )
            )
    return before, diff


async def restart(desk: Desk, ns: str, name: str, why: str, r: Reply) -> bool:
    call = await desk.k(f"rollout restart deployment/{name} -n {ns}", why)
    ok, st, dep = await rollout_ok(desk, ns, name, f"to verify {name} came back after the restart")
    if call.error:
        r.changed.append(
            said(f"The restart of {name} was refused: {call.text.strip()[:160]}", call)
        )
        return False
    r.changed.append(
        said(f"Rolling restart of deployment {name} (pods replaced one at a time)", call)
    )
    rows = table(dep.text)
    shown = rows[0].get("ready", "?") if rows else "?"
    r.fixed = said(
        f"{name} is {'healthy' if ok else 'NOT healthy'} after the restart: {shown} ready", st, dep
    )
    return ok


async def undo(desk: Desk, ns: str, name: str, r: Reply) -> None:
    call = await desk.k(
        f"rollout undo deployment/{name} -n {ns}",
        f"the new pods of {name} did not become ready, so I rolled back to the last good revision",
    )
    ok, st, dep = await rollout_ok(desk, ns, name, f"to verify {name} recovered after the rollback")
    r.changed.append(said(f"Rolled {name} back to its previous revision", call))
    rows = table(dep.text)
    r.fixed = said(
        f"The rollback {'restored' if ok else 'did not restore'} {name}:"
        f" {rows[0].get('ready', '?') if rows else '?'} ready",
        st,
        dep,
    )


async def config_play(desk: Desk) -> Reply | None:
    """Set ConfigMap keys the request spells; restart the consumer when asked to pick it up."""
    want = wanted_pairs(desk.prompt)
    if not want:
        return None
    ns = desk.scope[0]
    cm, _listing = await find_configmap(desk, ns, list(want))
    if not cm:
        return None
    r = Reply(asked=f"set {', '.join(f'{k}={v}' for k, v in want.items())} in {cm}")
    users, ycall = await consumers(desk, ns, cm)
    every = getattr(desk, "seen_deployments", users)
    named = [u for u in every if re.search(rf"\b{re.escape(u)}\b", desk.prompt)]
    if len(users) > 1 and not named:
        owners = await _owners(desk, ns, users)
        r.wrong = said(
            f"ConfigMap {cm} is read by {len(users)} workloads: {', '.join(users)}", ycall
        )
        r.why = (
            f"Changing {cm} changes every one of them at their next restart, {owners}. That"
            " is more than the one change the request looks like, so I have not made it."
        )
        r.human = (
            f"The owners of {', '.join(users)} need to agree, or you can tell me which workload"
            f" should get {', '.join(want)}; I can then give it its own ConfigMap or override."
        )
        return r
    before, diff = await set_keys(desk, ns, cm, want, r)
    target = named[0] if named else (users[0] if len(users) == 1 else "")
    restart_asked = re.search(r"restart|pick(s)? up|take effect|roll", desk.prompt.lower())
    if target and diff and restart_asked:
        ok = await restart(desk, ns, target, f"{target} reads {cm} only at start-up", r)
        if not ok:
            await _rollback_cm(desk, ns, cm, before, diff, r)
            await undo(desk, ns, target, r)
            r.human = (
                f"{target}'s new pods did not come up, so I halted, put {cm} back and rolled"
                f" {target} back. Someone needs to look at why its pods fail to start before"
                " the change is tried again."
            )
    elif not diff:
        r.fixed = f"Yes. {cm} already held what you asked; re-running the request changes nothing."
    else:
        r.fixed = (
            f"Yes; {cm} holds the values now. Running the same request again would change"
            " nothing, as I only patch keys that differ."
        )
    return r


async def _rollback_cm(
    desk: Desk, ns: str, cm: str, before: dict[str, str], diff: dict[str, str], r: Reply
) -> None:
    old = {k: before.get(k) for k in diff}
    body = json.dumps({"data": old}, separators=(",", ":"))
    call = await desk.k(
        f"patch configmap {cm} -n {ns} --type merge -p '{body}'",
        f"the restart failed, so I put {cm} back as it was",
    )
    r.changed.append(
        said(f"Rolled {cm} back: {', '.join(f'{k}={v}' for k, v in old.items())}", call)
    )


async def _owners(desk: Desk, ns: str, users: list[str]) -> str:
    teams = set()
    for u in users:
        call = await desk.k(f"get deployment {u} -n {ns} -o yaml", f"to see who owns {u}")
        for d in items(call.text):
            labels = (d.get("metadata") or {}).get("labels") or {}
            teams.update(v for k, v in labels.items() if "team" in k or "owner" in k)
    return f"which belong to {', '.join(sorted(teams))}" if teams else "whatever team owns them"


async def scale_play(
    desk: Desk, name: str, count: int, meta: dict[str, Any] | None = None
) -> Reply:
    ns = desk.scope[0]
    r = Reply(asked=f"scale {name} to {count} replicas")
    dep = await desk.k(f"get deployment {name} -n {ns} -o yaml", f"to read {name}'s replica count")
    got = items(dep.text)
    cur = int((got[0].get("spec") or {}).get("replicas") or 0) if got else 0
    hpa = await desk.k(f"get hpa -n {ns}", "to check whether an autoscaler owns the replica count")
    owner = [row.get("name", "") for row in table(hpa.text) if name in row.get("reference", "")]
    if owner:
        r.wrong = said(
            f"{name} runs {cur} replicas, and HorizontalPodAutoscaler {owner[0]} controls its"
            " replica count",
            dep,
            hpa,
        )
        r.why = (
            f"A manual scale would be overwritten by {owner[0]} on its next sync, and the two"
            " would fight over the count; I have not scaled."
        )
        r.human = (
            f"If {count} is the right floor, change {owner[0]}'s minReplicas (and maxReplicas)"
            " through whoever owns it, or pause the autoscaler first; tell me which and I will"
            " do it."
        )
        return r
    if cur and count > max(10 * cur, cur + 50):
        r.wrong = said(f"{name} runs {cur} replicas; you asked for {count}", dep)
        r.why = (
            f"{count} is {count // max(cur, 1)} times today's size; it would exhaust the nodes"
            " and the quota and evict other workloads. That looks like a typo, so I have not"
            " scaled."
        )
        r.human = (
            f"Please confirm the number (did you mean {count // 100 or 5}?) and I will apply it."
        )
        return r
    ns_call = None
    if meta is None:
        meta, ns_call = await namespace_meta(desk, ns)
    env = (meta.get("labels") or {}).get("env") or (meta.get("labels") or {}).get("environment", "")
    r.wrong = said(
        f"Nothing is broken; {name} runs {cur} replicas and you asked for {count}", dep, hpa
    )
    if env:
        r.more.append(
            (
                "Which environment is this?",
                said(
                    f"The namespace {ns} is labelled env={env}. Because it is {env}, I dry-ran"
                    " the change first and verified every new replica before calling it done",
                    ns_call,
                ),
            )
        )
        dry = await desk.k(
            f"scale deployment/{name} -n {ns} --replicas={count} --dry-run=server",
            f"{ns} is {env}, so I validated the scale before applying it",
        )
        r.changed.append(said("Dry run of the scale accepted by the API server", dry))
    call = await desk.k(
        f"scale deployment/{name} -n {ns} --replicas={count}", f"to scale {name} as requested"
    )
    r.changed.append(said(f"Deployment {name}: replicas {cur} -> {count}", call))
    ok, st, after = await rollout_ok(desk, ns, name, f"to verify all {count} replicas are ready")
    rows = table(after.text)
    r.fixed = said(
        f"{'Yes' if ok else 'Not yet'}: {rows[0].get('ready', '?') if rows else '?'} ready",
        st,
        after,
    )
    if not ok:
        r.human = f"Some of the {count} replicas are not ready yet; someone should check capacity."
    return r


def free_room(text: str, res: str) -> float:
    """The most of ``res`` any node has left: allocatable minus what is requested already."""
    best = 0.0
    for block in re.split(r"\n(?=Name:\s)", text):
        alloc = re.search(rf"Allocatable:[\s\S]*?\b{res}:\s+(\S+)", block)
        used = re.search(rf"Allocated resources:[\s\S]*?\n\s+{res}\s+(\S+)", block)
        if alloc:
            left = (quantity(alloc.group(1)) or 0) - ((quantity(used.group(1)) or 0) if used else 0)
            best = max(best, left)
    return best


async def recreate(desk: Desk, w: Workload, r: Reply) -> None:
    """A pod no controller owns: save its manifest, delete it, create it again from the copy."""
    import yaml

    pod = w.pods[0].name if w.pods else w.name
    saved = await desk.k(
        f"get pod {pod} -n {w.ns} -o yaml", "to keep its manifest: no controller will recreate it"
    )
    doc = (items(saved.text) or [{}])[0]
    meta = doc.get("metadata") or {}
    clean = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            k: meta[k] for k in ("name", "namespace", "labels", "annotations") if meta.get(k)
        },
        "spec": {k: v for k, v in (doc.get("spec") or {}).items() if k != "nodeName"},
    }
    gone = await desk.k(
        f"delete pod {pod} -n {w.ns}",
        "the crash is a transient dependency error, so a fresh start should clear it",
    )
    made = await desk.run(
        "kubectl",
        "to recreate the pod from its saved manifest",
        command="create -f -",
        stdin=yaml.safe_dump(clean),
    )
    after = await desk.k(f"get pod {pod} -n {w.ns}", "to verify the new pod starts and stays up")
    r.changed.append(
        said(
            f"Restarted bare pod {pod}: deleted it and created it again from its own manifest (no controller owns it)",
            gone,
            made,
        )
    )
    row = (table(after.text) or [{}])[0]
    ok = (
        row.get("status") == "Running"
        and row.get("ready", "0/1").split("/")[0] == row.get("ready", "0/1").split("/")[-1]
    )
    r.fixed = said(
        f"{'Yes' if ok else 'Not yet'}: {pod} is {row.get('status', '?')}, {row.get('ready', '?')} ready, restarts {row.get('restarts', '?')}",
        after,
    )
    if not ok:
        r.human = f"{pod}'s dependency still refuses it; its owner should check that dependency."
