"""``heldout23``'s multi-step plays: a runbook kept in the cluster, a canary gate, a paused
rolling update, and making a workload survive node failures. Each step reads before it acts and
the ticket records which branch was taken and why.
"""

from __future__ import annotations

import re

from .operator_heldout23 import Desk
from .operator_heldout23_fix import verify
from .operator_heldout23_look import Seen, log_signals, logs, series
from .operator_read import items, table


def _pct(v: float) -> str:
    return f"{v * 100:g}%"


async def runbook(desk: Desk, s: Seen, focus: list[str]) -> None:
    """Read the runbook the request names (a ConfigMap), then do its steps on the real state."""
    ns = s.ns
    m = re.search(r"(?:the\s+)?([\w-]+)\s+runbook", desk.low)
    wanted = m.group(1) if m else ""
    steps = await _steps(desk, ns, wanted)
    name = next((n for n in focus if n in s.deployments), "")
    desk.title = f"`{wanted}` runbook on `{name}`"
    for st in steps:
        desk.see(f"runbook `{wanted}`", st)
    if not name:
        desk.status = "blocked"
        return
    # step 1: error logs
    out = await logs(desk, ns, name)
    sig = log_signals(out)
    for lvl, msg, n in sig[:3]:
        desk.see(f"step 1, logs of `{name}`", f"{n}× {lvl}: {msg}")
        desk.excerpt.append(f"{lvl}: {msg}")
    ser = await series(desk, ns, name)
    err = ser.get("error_rate", [])
    base = ser.get("normal_error_rate", [])
    if err:
        desk.see(
            "error rate", f"{_pct(err[-1])} now" + (f", normal {_pct(base[-1])}" if base else "")
        )
    # step 2: recent deploy?
    revs, images = await _history(desk, ns, name)
    age = s.pods_of(name)[0].get("age", "") if s.pods_of(name) else ""
    recent = len(revs) >= 2 and _minutes(age) <= 30
    desk.see(
        "step 2, rollout history",
        f"revisions {', '.join(revs)}; current pods {age} old"
        + (f"; `{images[0]}` → `{images[-1]}`" if len(images) == 2 else ""),
    )
    if not recent:
        desk.cause.append(
            "No deploy in the last 30 minutes, so the runbook's rollback step does not apply."
        )
        desk.actions.append("Step 3 skipped: no recent deploy. Escalating with the log pattern.")
        desk.status = "runbook done: no rollback"
        return
    desk.cause.append(
        f"**The deploy of `{images[-1]}` {age} ago brought the errors:** `{sig[0][1] if sig else 'errors'}` "
        f"appears only in the new version"
        + (f", and the error rate is {_pct(err[-1])}" if err else "")
        + "."
    )
    # step 3: rollback
    await desk.kubectl(
        f"rollout undo deployment/{name} -n {ns} --to-revision={revs[-2]}",
        f"step 3: recent deploy, roll back to revision {revs[-2]}",
        f"image {images[-1]} → {images[0]}",
    )
    ok = await verify(desk, ns, name)
    # step 4: verify error rate
    after = await series(desk, ns, name)
    now = after.get("error_rate", [])
    img = table(
        await desk.kubectl(
            f"get deployment {name} -n {ns} -o wide", "step 4: confirm the image in use"
        )
    )
    desk.see(
        "step 4, after rollback",
        f"image `{img[0].get('images') if img else '?'}`; error rate {_pct(now[-1]) if now else 'n/a'}",
    )
    desk.actions.append(
        f"Followed the runbook: logs read, deploy found ({age} ago), rolled back to `{images[0]}`, checked the error rate after."
    )
    desk.impact.append(
        f"`{name}` returned errors"
        + (f" at {_pct(err[-1])} (normal {_pct(base[-1])})" if err and base else "")
        + "."
    )
    desk.status = "rolled back" if ok else "rolled back, not yet healthy"
    desk.followups.append(
        f"Re-check the error rate in 5 minutes; it must be back near {_pct(base[-1]) if base else 'baseline'}."
    )
    desk.followups.append(f"Open a bug for `{images[-1]}`: `{sig[0][1] if sig else 'errors'}`.")


async def _steps(desk: Desk, ns: str, wanted: str) -> list[str]:
    """The steps of the runbook ConfigMap named ``wanted`` (annotation or name)."""
    text = await desk.kubectl(f"get configmaps -n {ns} -o yaml", f"find the `{wanted}` runbook")
    steps: list[str] = []
    for obj in items(text):
        meta = obj.get("metadata") or {}
        tag = str((meta.get("annotations") or {}).get("runbook/name", "")) + meta.get("name", "")
        if wanted and wanted in tag:
            steps = [
                ln.strip()
                for ln in str((obj.get("data") or {}).get("steps", "")).splitlines()
                if ln.strip()
            ]
    return steps


async def _history(desk: Desk, ns: str, name: str) -> tuple[list[str], list[str]]:
    """Step 2: the deployment's revisions and the images of the last two."""
    hist = await desk.kubectl(
        f"rollout history deployment/{name} -n {ns}", "step 2: was there a recent deploy?"
    )
    revs = re.findall(r"^(\d+)\s", hist, re.M)
    images = []
    for rev in revs[-2:]:
        o = await desk.kubectl(
            f"rollout history deployment/{name} -n {ns} --revision={rev}",
            f"read the image of revision {rev}",
        )
        mm = re.search(r"Image:\s+(\S+)", o)
        images.append(mm.group(1) if mm else "?")
    return revs, images


def _minutes(age: str) -> float:
    total = 0.0
    for n, unit in re.findall(r"(\d+)([dhms])", age):
        total += int(n) * {"d": 1440, "h": 60, "m": 1, "s": 1 / 60}[unit]
    return total if total else 1e9


async def canary(desk: Desk, s: Seen, focus: list[str]) -> None:
    """Gate the canary on the threshold the request gives; promote or roll back."""
    ns = s.ns
    base = next((n for n in focus if n in s.deployments and "canary" not in n), "")
    canaries = sorted(n for n in s.deployments if "canary" in n)
    # the canary of the named service when its name says so, else the namespace's canary
    can = next(
        (n for n in canaries if base and n.startswith(base)), canaries[0] if canaries else ""
    )
    m = re.search(r"under (\d+(?:\.\d+)?)\s*%", desk.low)
    limit = float(m.group(1)) / 100 if m else 0.01
    desk.title = f"canary gate for `{base}`"
    if not can:
        desk.status = "blocked"
        desk.cause.append("I found no canary deployment.")
        return
    ser = await series(desk, ns, can)
    err = ser.get("error_rate", [])
    lat = ser.get("latency_p99", []) or ser.get("p99_latency_ms", [])
    now = err[-1] if err else None
    desk.see(
        f"metrics of `{can}`",
        f"error rate {_pct(now) if now is not None else 'n/a'} (gate: under {_pct(limit)})"
        + (f"; p99 {lat[-1]:g}ms" if lat else ""),
    )
    if now is None:
        desk.status = "blocked: no metric"
        desk.followups.append(
            f"I could not read the error rate of `{can}`; the gate is not evaluated."
        )
        return
    if now < limit:
        desk.cause.append(
            f"The canary is healthy: {_pct(now)} errors, under the {_pct(limit)} gate."
        )
        desk.followups.append("Bump the canary to 50% (traffic weight) once confirmed.")
        return
    desk.cause.append(
        f"**The canary fails the gate:** {_pct(now)} errors against a limit of {_pct(limit)}. Rolling it back, not bumping to 50%."
    )
    desk.weigh("canary healthy", "ruled out", f"error rate {_pct(now)} ≥ {_pct(limit)}")
    rows = table(await desk.kubectl(f"get deployment {can} -n {ns}", f"read `{can}` replicas"))
    cur = rows[0].get("ready", "?").split("/")[-1] if rows else "?"
    await desk.kubectl(
        f"scale deployment/{can} -n {ns} --replicas=0",
        "the gate failed: take the canary out of traffic",
        f"replicas {cur} → 0",
    )
    after = table(
        await desk.kubectl(f"get deployment {can} -n {ns}", "verify the canary has no pods")
    )
    stable = table(
        await desk.kubectl(f"get deployment {base} -n {ns}", f"verify `{base}` still serves")
    )
    desk.see(
        "after rollback",
        f"`{can}` {after[0].get('ready') if after else '?'}; `{base}` {stable[0].get('ready') if stable else '?'}",
    )
    desk.actions.append(
        f"Canary rolled back: `{can}` scaled to 0. Stable `{base}` untouched and serving."
    )
    desk.impact.append(
        f"About {cur} canary pod(s) served errors at {_pct(now)}; stable traffic unaffected."
    )
    desk.status = "canary rolled back"
    desk.followups.append(
        f"Share the {_pct(now)} error rate with the owners of the canary image before a new attempt."
    )


async def rolling(desk: Desk, s: Seen, focus: list[str]) -> None:
    """Resume a paused rolling update, after checking the nodes it would land on."""
    from .operator_heldout23_plays2 import rolling as play

    await play(desk, s, focus)


async def highly_available(desk: Desk, s: Seen, focus: list[str]) -> None:
    from .operator_heldout23_plays2 import highly_available as play

    await play(desk, s, focus)
