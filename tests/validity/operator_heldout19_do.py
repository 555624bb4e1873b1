"""``heldout19``'s changes (written blind): the smallest change the ask needs, only when the
mode and zone allow it, each read before and checked after; else a hand-off with the command."""

from __future__ import annotations

import json
import re

from .operator_heldout19 import Shift
from .operator_heldout19_diag import diagnose, diagnostic, unsure
from .operator_heldout19_more import conn_cap, migration_handoff, out_of_reach, restart_bare
from .operator_heldout19_plays import (
    canary,
    ha_plan,
    network_fix,
    pending_fix,
    rolling_update,
    runbook,
    scale_for_load,
)
from .operator_read import load_yaml

#: imperative verbs of an ask that wants a change (a question alone gets a diagnosis)
_ASKS_CHANGE = re.compile(
    r"\b(fix|handle|make|set|scale|increase|decrease|restart|enable|disable|continue|follow|"
    r"ensure|roll ?back|bump)\b"
)


def wants_change(shift: Shift) -> bool:
    return _ASKS_CHANGE.search(shift.low) is not None


async def act(shift: Shift) -> None:
    """Diagnose, then route the ask to the play that fits what was read."""
    await follow_alerts(shift)
    diagnose(shift)
    if out_of_reach(shift):
        return
    if wants_change(shift):
        await _route(shift)
    if shift.data.get("migration_issue"):
        await migration_handoff(shift)
    if not shift.causes and not shift.fixes and shift.data.get("focus") and diagnostic(shift):
        unsure(shift)


async def _route(shift: Shift) -> None:
    low = shift.low
    if "canary" in low:
        await canary(shift)
    elif "runbook" in low:
        await runbook(shift)
    elif "highly available" in low or "survive node" in low:
        await ha_plan(shift)
    elif "rolling update" in low or ("rollout" in low and "continue" in low):
        await rolling_update(shift)
    elif "load" in low and "scale" in low:
        await scale_for_load(shift)
    else:
        await _direct(shift)


async def _direct(shift: Shift) -> None:
    """Config keys, scale, restart asked in so many words; else fix what the diagnosis found."""
    done = await set_keys(shift)
    done = await scale_to(shift) or done
    if (
        re.search(r"\brestart\b(?!\s+counts?)", shift.low)
        and shift.named(sorted(shift.data.get("deploys", {})))
        and not done
    ):
        for name in shift.data.get("focus", [])[:1]:
            await restart(shift, name, "asked")
        return
    if done:
        return
    if shift.data.get("np_block"):
        await network_fix(shift)
    elif shift.data.get("unschedulable"):
        await pending_fix(shift)
    elif shift.data.get("oom"):
        await oom_fix(shift)
    elif shift.data.get("migration_issue") or await conn_cap(shift):
        return
    elif shift.data.get("transient") or (not shift.causes and _unready(shift)):
        why = shift.data.get("transient") or "pods not ready, no config/resource/dep cause found"
        for name in shift.data.get("focus", [])[:1]:
            if not shift.data.get("transient"):
                from .operator_heldout19_look import pods_of

                stuck = [
                    p.get("name", "")
                    for p in pods_of(shift, name)
                    if "/" in p.get("ready", "") and len(set(p["ready"].split("/"))) > 1
                ]
                probe = next((f for f in shift.facts if f.startswith(f"{name}: event ")), "")
                seen = probe.split(": event ", 1)[-1][:80] if probe else "readiness failing"
                shift.causes.append(
                    f"{', '.join(stuck) or name} not ready ({_unready(shift)}): {seen}; nothing else found "
                    "-> pod stuck, restart is the first move"
                )
            await restart(shift, name, why)


def _pairs(shift: Shift) -> dict[str, str]:
    """KEY=value / KEY to value / enable KEY / disable KEY in the prompt."""
    out: dict[str, str] = {}
    pair = r"\b([A-Z][A-Z0-9_]{2,})\s*(?:=|\bto\b)\s*[\"'`]?([\w.\-/:]+)"
    for k, v in re.findall(pair, shift.prompt):
        out[k] = v.rstrip(".")
    for verb, k in re.findall(r"\b([Ee]nable|[Dd]isable)\s+([A-Z][A-Z0-9_]{2,})\b", shift.prompt):
        out.setdefault(k, "true" if verb.lower() == "enable" else "false")
    return out


async def set_keys(shift: Shift) -> bool:
    """Patch only the keys that differ (a rerun is a no-op), then roll the consumers."""
    pairs = _pairs(shift)
    cms = shift.data.get("cms", {})
    if not pairs or not cms:
        return False
    named = shift.named(list(cms))
    cm = next(iter(named), "") or next(
        (c for c, d in sorted(cms.items()) if set(pairs) & set(d)), ""
    )
    if not cm:
        return False
    before = cms[cm]
    diff = {k: v for k, v in pairs.items() if before.get(k) != v}
    same = sorted(k for k in pairs if k not in diff)
    if same:
        shift.facts.append(
            f"cm/{cm}: {', '.join(f'{k}={before[k]}' for k in same)} already set, left alone"
        )
    if diff and not shift.can_write:
        shift.handoffs.append(
            f"needs your ok for kubectl patch cm {cm} --type=merge -p '{json.dumps({'data': diff})}'"
        )
        return True
    if diff:
        body = json.dumps({"data": diff}, sort_keys=True)
        await shift.k(
            f"patch cm {cm} -n {shift.ns} --type=merge -p '{body}'",
            f"asked; only {', '.join(sorted(diff))}",
            write=True,
        )
        for k, v in sorted(diff.items()):
            shift.deltas.append(f"cm/{cm} {k}: {before.get(k, '<unset>')} -> {v}")
    after = load_yaml(await shift.k(f"get cm {cm} -n {shift.ns} -o yaml", "verify keys"))
    data = (after.get("data") if isinstance(after, dict) else None) or {}
    ok = all(data.get(k) == v for k, v in pairs.items())
    kept = sorted(k for k in before if k not in pairs and data.get(k) == before[k])
    shift.checks.append(
        f"cm/{cm}: {' '.join(f'{k}={data.get(k)}' for k in sorted(pairs))}"
        + (f"; untouched {','.join(kept)}" if kept else "")
        + ("" if ok else " MISMATCH")
    )
    if diff:
        shift.fixes.append(
            f"patched cm/{cm} ({', '.join(sorted(diff))}) via merge patch; rerun = no-op"
        )
        for dep in _consumers(shift, cm):
            if not await restart(shift, dep, f"{dep} reads cm/{cm} at start"):
                await undo_keys(shift, cm, before, diff, dep)
                break
    return True


def _consumers(shift: Shift, cm: str) -> list[str]:
    """Deployments the prompt names (config is read at start), else those mounting the CM."""
    deploys = sorted(shift.data.get("deploys", {}))
    users = [
        d
        for d, views in sorted(shift.data.get("views", {}).items())
        if any(
            f"config map '{cm}'" in ref
            for v in views
            for c in v.containers
            for ref in c.env.values()
        )
    ]
    if re.search(r"pick(s)? up|reload|take effect|apply the change|roll", shift.low):
        users += [d for d in shift.named(deploys) if d != cm]
    return sorted(set(users))


async def undo_keys(
    shift: Shift, cm: str, before: dict[str, str], diff: dict[str, str], dep: str
) -> None:
    """The restart after a config change failed: put the keys back and undo the rollout, so
    nothing is left half-applied; then hand it over."""
    ns = shift.ns
    back = {k: before.get(k) for k in diff}
    body = json.dumps({"data": back}, sort_keys=True)
    await shift.k(
        f"patch cm {cm} -n {ns} --type=merge -p '{body}'",
        f"rollout of {dep} failed -> revert cm/{cm} to its before state",
        write=True,
    )
    for k, v in sorted(diff.items()):
        shift.deltas.append(f"cm/{cm} {k}: {v} -> {before.get(k, '<unset>')} (reverted)")
    await shift.k(
        f"rollout undo deploy/{dep} -n {ns}",
        f"{dep} new pods not ready -> back to last good rs",
        write=True,
    )
    shift.deltas.append(f"deploy/{dep}: new rs -> previous rs (undo)")
    ok = await verify(shift, dep)
    shift.fixes.append(
        f"rolled back: cm/{cm} {', '.join(sorted(diff))} reverted, deploy/{dep} undone"
        + ("" if ok else " (still not healthy)")
    )
    shift.causes.append(
        f"{dep} rollout with the new config did not become ready -> halted, reverted both"
    )
    shift.handoffs.append(
        f"{dep} does not come up with {', '.join(f'{k}={v}' for k, v in sorted(diff.items()))}; needs an owner look before retrying"
    )


async def scale_to(shift: Shift) -> bool:
    m = re.search(r"(?:replicas\s+to|to)\s+(\d+)(?:\s+replicas)?", shift.low)
    if not m or not re.search(r"scale|replica", shift.low):
        return False
    want = int(m.group(1))
    for name in shift.data.get("focus", [])[:1]:
        cur = _replicas(shift, name)
        env = shift.ctx.get("env", "") or shift.ctx.get("environment", "")
        if env.lower().startswith("prod"):
            await shift.k(f"get pdb,hpa -n {shift.ns}", "prod: anything that fights a scale")
            shift.notes.append(
                f"env=production ({shift.ns}) -> read first, one change, watch rollout"
            )
        if not shift.can_write:
            shift.handoffs.append(
                f"needs your ok for kubectl scale deploy/{name} --replicas={want}"
            )
            return True
        if not await _proportionate(shift, name, cur, want):
            return True
        await shift.k(
            f"scale deploy/{name} -n {shift.ns} --replicas={want}",
            f"asked; {cur} -> {want}",
            write=True,
        )
        shift.deltas.append(f"deploy/{name} replicas: {cur} -> {want}")
        shift.fixes.append(f"scaled deploy/{name} {cur} -> {want}")
        await verify(shift, name)
        return True
    return False


async def _proportionate(shift: Shift, name: str, cur: str, want: int) -> bool:
    """A scale the cluster can hold and that is not orders of magnitude off: else no change,
    the numbers, and a hand-off (a typo or a capacity plan, not a kubectl scale)."""
    from .operator_heldout19_plays import _free_cpu
    from .operator_read import quantity

    now = int(cur) if cur.isdigit() else 0
    views = shift.data.get("views", {}).get(name, [])
    cpu = next(
        (quantity(c.requests.get("cpu", "")) for v in views for c in v.containers if not c.init),
        None,
    )
    nodes = _free_cpu(shift.data.get("nodes_desc", ""))
    room = sum(a for _, a, _ in nodes)
    need = want * (cpu or 0.0)
    fits = not nodes or not cpu or need <= room
    sane = now == 0 or want <= max(now * 10, now + 20)
    if fits and sane:
        return True
    shift.causes.append(
        f"{name} {now} -> {want} replicas: x{want / max(now, 1):.0f}"
        + (
            f", needs {need:.1f} cpu vs {room:.1f} allocatable on {len(nodes)} nodes"
            if cpu and nodes
            else ""
        )
        + " -> not applied"
    )
    shift.handoffs.append(
        f"needs your ok for deploy/{name} replicas={want}: disproportionate to current {now} "
        "and cluster size; confirm the number (typo?) or a capacity plan. nothing changed"
    )
    return False


def _replicas(shift: Shift, name: str) -> str:
    row = shift.data.get("deploys", {}).get(name, {})
    ready = row.get("ready", "")
    return ready.split("/")[-1] if "/" in ready else "?"


def _unready(shift: Shift) -> str:
    """'n/m pods' of the focus that are not ready, '' when all are."""
    for name in shift.data.get("focus", [])[:1]:
        views = shift.data.get("views", {}).get(name, [])
        bad = [
            v
            for v in views
            if any(
                (not c.init and c.state.lower() != "running") or c.restarts for c in v.containers
            )
        ]
        row = shift.data.get("deploys", {}).get(name, {}).get("ready", "")
        if "/" in row and row.split("/")[0] != row.split("/")[1]:
            return f"{row} ready"
        if bad:
            return f"{len(bad)}/{len(views)} pods"
    return ""


async def restart(shift: Shift, name: str, why: str) -> bool:
    if not shift.can_write:
        shift.handoffs.append(
            f"needs your ok for kubectl rollout restart deploy/{name} -n {shift.ns}"
        )
        return False
    if name in shift.data.get("bare", {}):
        await restart_bare(shift, name, why)
        return True
    await shift.k(f"rollout restart deploy/{name} -n {shift.ns}", why, write=True)
    shift.fixes.append(f"rollout restart deploy/{name} ({why})")
    return await verify(shift, name)


async def verify(shift: Shift, name: str) -> bool:
    """rollout status + pods: True when the rollout finished and every pod is ready."""
    status = await shift.k(
        f"rollout status deploy/{name} -n {shift.ns} --timeout=120s", "did it land"
    )
    pods = await shift.k(f"get pods -n {shift.ns} -l app={name}", "pods after")
    rows = [ln.split() for ln in pods.splitlines()[1:] if ln.strip()]
    ready = sum(
        1
        for r in rows
        if len(r) > 2 and r[1].split("/")[0] == r[1].split("/")[-1] and r[2] == "Running"
    )
    last = (status.strip().splitlines() or ["?"])[-1]
    shift.checks.append(f"deploy/{name}: {last.strip()[:120]}; pods ready={ready}/{len(rows)}")
    return "successfully rolled out" in status and ready == len(rows)


async def oom_fix(shift: Shift) -> None:
    """Raise the memory limit of the OOMKilled container (x2), request kept; hand off if not allowed."""
    for name, (container, limit, _request) in sorted(shift.data["oom"].items()):
        new = _double(limit)
        cmd = f"set resources deploy/{name} -n {shift.ns} -c {container} --limits=memory={new}"
        if not shift.can_write:
            shift.handoffs.append(
                f"needs your ok for kubectl {cmd} (limit {limit} -> {new}); change is write in prod, approval required"
            )
            continue
        await shift.k(cmd, f"OOMKilled at limit={limit}", write=True)
        shift.deltas.append(f"deploy/{name} {container} limits.memory: {limit} -> {new}")
        shift.fixes.append(f"limit {limit} -> {new} on {name}/{container}")
        await verify(shift, name)


def _double(limit: str) -> str:
    m = re.fullmatch(r"(\d+)(Mi|Gi)", limit or "")
    return f"{int(m.group(1)) * 2}{m.group(2)}" if m else "512Mi"


async def follow_alerts(shift: Shift) -> None:
    """An alert that fired while working: re-check alerts, follow it under its own trigger."""
    if not shift.has("metrics_query"):
        return
    before = set(shift.data.get("alerts", {}))
    from .operator_heldout19_signals import read_metrics, service_series

    await read_metrics(shift, shift.ns, [])
    for name, alert in sorted(shift.data.get("alerts", {}).items()):
        labels = alert.get("labels", {})
        svc = (
            labels.get("service")
            or labels.get("deployment")
            or next(iter(shift.data.get("focus", [])), "")
        )
        shift.trigger = f"alert {name}"
        new = "" if name in before else " (fired mid-check)"
        shift.notes.append(f"alert {name}{new} -> followed up on {svc}")
        if "mem" in name.lower() and svc:
            top = await shift.k(f"top pods -n {shift.ns} -l app={svc}", f"alert {name}: memory now")
            mems = [ln.split()[-1] for ln in top.splitlines()[1:] if ln.strip()]
            desc = await shift.k(
                f"describe deploy {svc} -n {shift.ns}", f"alert {name}: memory limit"
            )
            lim = re.search(r"Limits:\s*\n\s*memory:\s*(\S+)", desc)
            shift.facts.append(
                f"{svc} mem per pod: {', '.join(mems) or '?'} limit={lim.group(1) if lim else '?'} (after alert {name})"
            )
            await service_series(shift, shift.ns, svc)
    shift.trigger = "ask"
