"""``heldout17``'s fixes after a diagnosis: scheduling (Pending), node pressure, and the
remedy chosen by certainty, risk and authority (fix, escalate with a recommendation, or present
a plan for approval). Generic practice; no scenario id anywhere."""

from __future__ import annotations

import json
import re

from . import operator_heldout17_look as look
from .operator_heldout17 import Finding, Shift
from .operator_read import load_yaml, table


def _dump(obj: object) -> str:
    """A patch body quoted for the kubectl command line."""
    return "'" + json.dumps(obj, separators=(",", ":")) + "'"


async def _verify(shift: Shift, ns: str, name: str) -> None:
    from .operator_heldout17_plays import verify

    await verify(shift, ns, name)


async def pending(shift: Shift, ns: str, name: str) -> None:
    """Pending pods: the scheduler's reason, the nodes' room and the pod's request."""
    stuck = [
        p
        for p in shift.pods.get(ns, [])
        if p.get("status") == "Pending" and p.get("name", "").startswith(name)
    ]
    if not stuck or not name:
        return
    why = [
        e.get("message", "")
        for e in shift.events.get(ns, [])
        if e.get("reason") == "FailedScheduling" and name in e.get("object", "")
    ]
    nodes = await shift.k("describe nodes", "allocatable vs requested CPU on each node")
    doc = (
        load_yaml(await shift.k(f"get deployment {name} -n {ns} -o yaml", f"`{name}`'s requests"))
        or {}
    )
    spec = doc.get("spec", {}) if isinstance(doc, dict) else {}
    ctr = (((spec.get("template") or {}).get("spec") or {}).get("containers") or [{}])[0]
    req = (ctr.get("resources") or {}).get("requests") or {}
    allocs = re.findall(r"Allocatable:\s*\n\s+cpu:\s+(\S+)", nodes)
    used = re.findall(r"Allocated resources:.*?\n\s+cpu\s+(\S+)", nodes, re.S)
    shift.numbers += [
        ("pending pods", f"`{len(stuck)}`"),
        (f"`{name}` CPU request", f"`{req.get('cpu', '?')}`"),
        ("node CPU allocatable", ", ".join(f"`{a}`" for a in allocs) or "`?`"),
    ]
    if used:
        shift.numbers.append(("node CPU requested", ", ".join(f"`{u}`" for u in used)))
    usage = await look.series(
        shift,
        f'sum(rate(container_cpu_usage_seconds_total{{namespace="{ns}", pod=~"{name}-.*"}}[5m]))',
        f"what `{name}` really burns",
    )
    real = next((v[-1] for _, v in usage if v), None)
    if real is not None:
        shift.numbers.append((f"`{name}` actual CPU", f"`{real * 1000:.0f}m`"))
    shift.findings.append(
        Finding(
            cause=f"`{name}` asks for `{req.get('cpu', '?')}` CPU per pod and no node has that much unrequested left",
            chain=[
                "CPU request too big for the free room",
                "FailedScheduling Insufficient cpu",
                "Pending",
            ],
            facts=[f"scheduler: `{why[0][:110]}`" if why else "FailedScheduling"],
            kind="pending",
        )
    )
    if shift.may_write and "fix" in shift.words() and req.get("cpu"):
        await _shrink_request(shift, ns, name, ctr, req, real, allocs)


async def _shrink_request(
    shift: Shift,
    ns: str,
    name: str,
    ctr: dict,
    req: dict,
    real: float | None,
    allocs: list[str],
) -> None:
    """A request no node can ever hold, cut to one a node holds with headroom left."""
    from .operator_read import quantity

    cur = quantity(str(req["cpu"])) or 0
    room = min((quantity(a) or 0 for a in allocs), default=0) or cur / 2
    target = min(room * 0.75, real * 2) if real else room * 0.75
    new = max(0.1, int(target * 10) / 10)
    new_s = f"{int(new * 1000)}m"
    basis = f"actual use `{real * 1000:.0f}m`" if real else "no usage series to size it on"
    patch = {
        "spec": {
            "template": {
                "spec": {
                    "containers": [
                        {"name": ctr.get("name", name), "resources": {"requests": {"cpu": new_s}}}
                    ]
                }
            }
        }
    }
    await shift.k(
        f"patch deployment {name} -n {ns} --type strategic -p {_dump(patch)}",
        f"`{req['cpu']}` > the `{_fmt(room)}` a node can allocate at all, so it never schedules; "
        f"`{new_s}` fits one node with headroom ({basis})",
        delta=f"cpu request {req['cpu']} -> {new_s}",
    )
    await _verify(shift, ns, name)
    shift.done.append(f"`{name}` CPU request `{req['cpu']}` -> `{new_s}`; pods scheduled")
    shift.asks.append(
        f"I sized `{new_s}` from node room, not from a profile ({basis}): can the owner confirm `{name}` copes with it?"
    )


def _fmt(cores: float) -> str:
    return f"{cores * 1000:.0f}m"


async def node_pressure(shift: Shift, ns: str, name: str) -> None:
    """Node CPU next to the workload's own failure: say which one is the cause."""
    top = await shift.k("top nodes", "is the node CPU really pegged")
    pods = await shift.k(f"top pods -n {ns}", "who burns the CPU")
    hog = max(
        table(pods), key=lambda r: int(re.sub(r"\D", "", r.get("cpu(cores)", "0")) or 0), default={}
    )
    rows = table(top)
    if rows:
        shift.numbers += [(f"`{r.get('name')}` CPU", f"`{r.get('cpu%', '?')}`") for r in rows[:3]]
    if hog and hog.get("name", "").split("-")[0] != name.split("-")[0]:
        shift.numbers.append(("top CPU pod", f"`{hog.get('name')}` `{hog.get('cpu(cores)')}`"))
    if any(f.kind == "oom" for f in shift.findings):
        shift.dismissed.append(
            f"node CPU: real ({hog.get('name', 'a batch pod')} is the noisy neighbour), but CPU starvation throttles, it doesn't kill -> not why `{name}` restarts"
        )


async def remedy(shift: Shift, ns: str, name: str) -> None:
    """After the diagnosis: fix it, escalate it, or ask, by certainty, risk and authority."""
    kinds = {f.kind for f in shift.findings if f.sure}
    if shift.done:
        return
    if "schema" in kinds or "migrat" in shift.words():
        await _migration(shift, ns, name)
        return
    if not shift.may_write:
        top = next((f for f in shift.findings if f.fix), None)
        shift.asks.append(
            f"this is `{shift.env(ns) or ns}` and my scope here is read-only / approval-gated, so I changed nothing. Recommendation: {top.fix if top else 'see above'}. Can an approver OK it (or run it)?"
        )
        return
    if "transient" in kinds:
        pod = next(
            (p.get("name") for p in shift.pods.get(ns, []) if p.get("name", "").startswith(name)),
            name,
        )
        await shift.k(
            f"delete pod {pod} -n {ns}",
            "dependency error is transient; a fresh pod reconnects",
            delta=f"pod {pod} deleted -> replaced by its controller",
        )
        await shift.k(f"get pods -n {ns}", "the replacement is Running?")
        shift.done.append(f"`{pod}` deleted and replaced")
        return
    if kinds & {"oom"}:
        await _raise_memory(shift, ns, name)
        return
    if "probe" in kinds:
        await restart(shift, name)
        return
    if kinds & {"pool", "tls", "config", "init"} or not kinds:
        if not kinds:
            shift.asks.append(
                "I don't have a cause I'd bet on, so I haven't changed anything: can you loop in the owners with what's above?"
            )
        return
    await restart(shift, name)


async def restart(shift: Shift, name: str) -> None:
    from .operator_heldout17_plays import restart as _restart

    await _restart(
        shift,
        name,
        "pods are unready with no config/limit cause; a clean rollout is the smallest fix",
    )


async def _raise_memory(shift: Shift, ns: str, name: str) -> None:
    f = next(f for f in shift.findings if f.kind == "oom")
    m = re.search(r"`(\d+Mi)`", f.fix)
    if not m:
        return
    patch = {
        "spec": {
            "template": {
                "spec": {
                    "containers": [{"name": name, "resources": {"limits": {"memory": m.group(1)}}}]
                }
            }
        }
    }
    await shift.k(
        f"patch deployment {name} -n {ns} --type strategic -p {_dump(patch)}",
        "OOM at the limit -> more headroom",
        delta=f"memory limit -> {m.group(1)}",
    )
    await _verify(shift, ns, name)


async def _migration(shift: Shift, ns: str, name: str) -> None:
    """Rolling a migration back drops data written since: plan + approval, no write."""
    status = await shift.t(
        "database",
        "database migrations status",
        "which migration ran last and when",
        query="migrations status",
        database=name,
    )
    rows = [
        [c.strip() for c in ln.strip("|").split("|")]
        for ln in status.splitlines()
        if re.match(r"\|\s*\w+\s*\|\s*\d+", ln)
    ]
    last = rows[-1] if rows else []
    mig = f"{last[1]} ({last[2]})" if len(last) > 2 else "the last migration"
    when = last[4] if len(last) > 4 else ""
    shift.numbers.append(("last migration", f"`{mig}` applied `{when or '?'}`"))
    count = (
        await shift.t(
            "database",
            f"database SELECT count(*) FROM users WHERE created_at >= '{when}'",
            "how much data the rollback would touch",
            query=f"SELECT count(*) FROM users WHERE created_at >= '{when}'",
            database=name,
        )
        if when
        else ""
    )
    n = [] if "ERROR" in count else re.findall(r"-+\s*\n\s*(\d+)", count)

    if n:
        shift.numbers.append(("rows in `users` now", f"`{n[-1]}`"))
    shift.findings.append(
        Finding(
            cause=f"`{name}`'s code and the schema disagree after `{mig}`",
            chain=[f"`{mig}`", "query on a column that isn't there", "500s"],
            kind="schema",
        )
    )
    rows_said = f"`{n[-1]}` new rows" if n else "row count unknown, my count query didn't come back"
    shift.asks.append(
        f"Rolling back `{mig}` would drop what was written since `{when or 'then'}` ({rows_said}) and can't be undone. Plan: 1) snapshot the DB, 2) roll back `{mig}` or roll the app forward to match, 3) restart `{name}`, 4) check errors. Want me to go ahead? I've changed nothing yet."
    )
