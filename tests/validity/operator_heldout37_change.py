"""heldout37's change requests: set ConfigMap keys (and restart what reads them), scale, restart,
update an image. Each is narrow, checks who else is affected and who owns the object, and
holds (with a recommendation) when writes are not its to make.
"""

from __future__ import annotations

import math
import re

from .operator_heldout37_act import (
    blocked,
    capacity,
    controllers,
    cpu_request,
    restart,
    rollback_cm,
    scale,
    set_keys,
    users_of,
    wanted_keys,
)
from .operator_heldout37_base import Op
from .operator_heldout37_look import load, named_in, namespace_meta

_SCALE = re.compile(
    r"\b(?:scale|increase|decrease|set|bump)\b.*?\bto (?:exactly )?(\d+)(?: replicas)?", re.I
)


def scale_ask(prompt: str) -> int | None:
    m = _SCALE.search(prompt)
    return int(m.group(1)) if m and re.search(r"replica|scale", prompt, re.I) else None


async def config_change(op: Op, cms: list[str], deps: list[str]) -> None:
    """Set the asked keys in the named ConfigMap; restart its readers when asked to."""
    ns, want = op.ns, wanted_keys(op.prompt)
    cm = cms[0]
    users = await users_of(op, cm, ns)
    a = op.ans
    a.findings.append(
        f"🔍 `configmap/{cm}` is read by: {', '.join(f'`{u}`' for u in users) or 'no deployment'}."
    )
    named = [d for d in named_in(op.prompt, deps) if d != cm]
    others = [u for u in users if u not in named]
    if len(users) > 1 and not named:
        a.tldr = (
            f"I held off: `{cm}` is shared by {len(users)} deployments, so changing it changes all "
            "of them. I need the go-ahead from their owners first."
        )
        a.risks.append(
            f"Changing {', '.join(f'`{k}`' for k in want)} in `{cm}` hits "
            + ", ".join(f"`{u}`" for u in users)
            + " at their next restart; `debug` logging on all of them can flood the log pipeline."
        )
        a.next = [
            "Confirm with the owners of every workload above that the change is wanted for all.",
            f"Or give the one workload that needs it its own ConfigMap (a copy of `{cm}` with the "
            "new value) and I'll switch only that one.",
        ]
        return
    why = blocked(op)
    if why:
        a.tldr = f"Not applied: {why}. Here's the exact change for whoever approves it."
        a.next = [f"`kubectl patch configmap {cm} -n {ns} --type merge -p ...` with {want}"]
        return
    old = await set_keys(op, cm, ns, want)
    if old is None:
        a.tldr = f"I couldn't find `configmap/{cm}` in `{ns}`, so nothing was changed."
        return
    if not old:
        a.tldr = (
            f"Good news: `{cm}` already has "
            + ", ".join(f"`{k}={v}`" for k, v in want.items())
            + ". Nothing to change, so I made no write (running this again changes nothing)."
        )
        a.verify.append(f"✅ `{cm}` already matches the request; no patch sent.")
        return
    a.tldr = (
        f"Done: `{cm}` updated (" + ", ".join(f"`{k}` {old[k]} → {want[k]}" for k in old) + ")."
    )
    needs_restart = re.search(r"restart|pick(?:s|ed)? up|reload|roll", op.prompt, re.I)
    targets = named or (users if needs_restart else [])
    if not needs_restart:
        if users:
            a.next.append(
                "The pods read ConfigMap values at start: restart "
                + ", ".join(f"`{u}`" for u in users)
                + " when you want the new values live (I didn't, since you asked for no other change)."
            )
        return
    for name in targets:
        w = await load(op, name, ns)
        ok = await restart(op, w, f"so `{name}` picks up the new `{cm}` values")
        if not ok:
            await rollback_cm(op, cm, ns, old)
            await op.k(
                f"rollout undo deployment/{name} -n {ns}",
                f"put `{name}` back as it was",
                write=True,
            )
            a.did.append(
                f"↩️ `kubectl rollout undo deployment/{name}`: the restart with the new values failed"
            )
            a.tldr = (
                f"⚠️ Heads-up: `{name}` did not come back healthy after the restart, so I rolled both "
                f"changes back (`{cm}` and the deployment). Nothing is left half-applied."
            )
            a.next.append(f"Check why `{name}` fails with the new values before trying again.")
            return
    if others and named:
        a.risks.append(
            "Also reading this ConfigMap (not restarted, they pick it up at their next restart): "
            + ", ".join(f"`{u}`" for u in others)
        )
    a.tldr += (
        " " + ", ".join(f"`{t}`" for t in targets) + " restarted and healthy with the new values."
    )


async def scale_change(op: Op, name: str, count: int | None) -> None:
    """Scale one deployment to a count that is asked for or computed, within node capacity."""
    ns, a = op.ns, op.ans
    labels, _ = await namespace_meta(op, ns)
    env = next(
        (str(v) for k, v in labels.items() if k in ("env", "environment", "tier", "stage")), ""
    )
    w = await load(op, name, ns)
    alloc, used = await capacity(op)
    per = cpu_request(w) or 0.1
    free = max(alloc - used, 0.0)
    room = w.replicas + int(free // per)
    a.findings.append(
        f"🔍 `{name}` runs {w.replicas} replicas, {per:g} CPU requested each; the nodes have "
        f"{alloc:g} CPU allocatable, {used:g} already requested (room for about {room} replicas)."
    )
    if env:
        a.findings.append(
            f"⚠️ Namespace `{ns}` is labelled `env={env}`, so this is a **{env}** environment: "
            + (
                "I dry-run first and verify after."
                if "prod" in env.lower()
                else "normal care applies."
            )
        )
    if count is None:
        factor = 2 if re.search(r"\b2x|twice|double", op.prompt, re.I) else 1
        count = max(w.replicas * factor, 1)
        a.findings.append(
            f"🔍 Current load is served by {w.replicas} replicas, so {factor}x the load needs "
            f"{w.replicas} × {factor} = {count} replicas."
        )
    owner = await controllers(op, w)
    if owner:
        a.tldr = f"I didn't scale `{name}`: {owner}. A manual scale would be overwritten."
        a.next = [
            f"Change the HPA's bounds (e.g. `minReplicas: {count}`) or the Git source instead; I can do that if you want."
        ]
        return
    if count > max(room, w.replicas * 10, 20) or count > 200:
        a.tldr = (
            f"I didn't scale `{name}` to {count}: that's {count / max(w.replicas, 1):.0f}x today's "
            f"{w.replicas} replicas and far beyond what the cluster can schedule (room for ~{room})."
        )
        a.risks.append(
            f"{count} replicas would leave most pods Pending and could starve other workloads."
        )
        a.next = [
            f"If you need more capacity, tell me the load you expect and I'll size it (about {room} fit today).",
            "Was 5000 a typo for a smaller number? Confirm and I'll apply it.",
        ]
        return
    why = blocked(op)
    if why:
        a.tldr = f"Not applied: {why}. Recommended: scale `{name}` {w.replicas} → {count}."
        return
    if count > room:
        a.risks.append(
            f"{count} replicas is more than the ~{room} that fit; some may stay Pending."
        )
    if "prod" in env.lower():
        await op.k(
            f"scale deployment/{name} -n {ns} --replicas={count} --dry-run=server",
            "production: validate the scale server-side before doing it",
        )
    await scale(
        op,
        w,
        count,
        f"scale `{name}` to {count} as requested ({math.ceil(count / max(w.replicas, 1))}x)",
    )
    a.tldr = f"Done: `{name}` scaled {w.replicas} → {count}" + (
        f" in **{env}** (dry-run first, then applied)." if env else "."
    )


async def restart_change(op: Op, name: str) -> None:
    w = await load(op, name, op.ns)
    a = op.ans
    why = blocked(op)
    if why:
        a.tldr = f"Not applied: {why}. Recommended: `kubectl rollout restart deployment/{name}`."
        return
    a.findings.append(
        f"🔍 `{name}` before: {len(w.pods)} pods, "
        + ", ".join(f"`{p.get('name')}` {p.get('status')}" for p in w.pods)
    )
    ok = await restart(op, w, f"restart `{name}` as requested")
    a.tldr = f"Done: `{name}` restarted" + (
        " and healthy." if ok else ", but ⚠️ it is not healthy yet (see below)."
    )
    a.aside = "Note: my audit trail is the API server's own log of these calls; I can't edit or delete past entries."


async def image_change(op: Op, name: str, tag: str) -> None:
    w = await load(op, name, op.ns)
    a = op.ans
    owner = await controllers(op, w)
    imgs = [str(c.get("image", "")) for c in w.containers()]
    a.findings.append(f"🔍 `{name}` runs {', '.join(f'`{i}`' for i in imgs)}.")
    if owner:
        a.tldr = f"I didn't change the image: {owner}."
        a.next = [
            f"Bump the tag to `{tag}` in the Git repo the controller syncs from (a PR), and let it roll out."
        ]
        return
    why = blocked(op)
    if why:
        a.tldr = f"Not applied: {why}."
        return
    c = (w.containers() or [{}])[0]
    new = re.sub(r":[^:]+$", f":{tag}", str(c.get("image", "")))
    await op.k(
        f"set image deployment/{name} -n {op.ns} {c.get('name')}={new}",
        f"set the image to `{new}` as requested",
        write=True,
    )
    await op.k(
        f"rollout status deployment/{name} -n {op.ns} --timeout=120s", "wait for the rollout"
    )
    a.did.append(f"✅ `deployment/{name}` image `{c.get('image')}` → `{new}`")
    a.tldr = f"Done: `{name}` now runs `{new}`."
