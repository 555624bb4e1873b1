"""heldout33's remedies per cause (session 28, written blind): what the operator does once the
cause is stated. It acts only where the request asks for a fix, the change is narrow and
nothing (production approval, data at risk, an unclear cause, another team's zone) says a
human should decide; every change is verified and undone when it fails.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .operator_heldout33_act import free_room, recreate, rollout_ok, undo
from .operator_heldout33_diag import Finding
from .operator_heldout33_look import Desk, Workload, logs, mb, namespace_meta, prom
from .operator_heldout33_say import Reply, said
from .operator_read import log_lines, quantity, signal_patterns

ADVICE = {
    "config_key": "Whoever owns {w} should add the missing key {key} to ConfigMap {configmap} with"
    " the right value (I do not know it), then restart {w}.",
    "init": "The owner of {w}'s migrations should fix the failing step in init container"
    " {container} (make it safe to re-run, or mark it applied); {w} then starts by itself.",
    "pvc": "Someone with storage rights should point claim {claim} at an existing storage class"
    " (or create '{class}'); the pods then start by themselves.",
    "selector": "Fix Service {service}'s selector (or the pods' labels) so they match; the owner"
    " of the Service should make that change.",
    "disk": "The platform team should free disk on the affected node(s); the pods reschedule by themselves.",
    "log_dns": "Whoever changed cluster DNS should restore the record {w} looks up, or {w}'s"
    " config should be pointed at the new name.",
    "log_pool": "{w}'s owners should raise the pool size or find the queries holding connections.",
    "log_tls": "The owners of the upstream should renew its certificate; nothing on {w}'s side fixes it.",
}


async def nothing(desk: Desk, task: Any, w: Workload, f: Finding, r: Reply, fix: bool) -> None:
    if not f.sure:
        await _unsure(desk, w, f, r)
        return
    advice = ADVICE.get(f.kind, "")
    if advice:
        r.human = advice.format(w=w.name, **{k: v for k, v in f.data.items() if isinstance(v, str)})
    elif fix:
        r.human = "The fix is not one I can make safely without its owner; see the cause above."


async def _unsure(desk: Desk, w: Workload, f: Finding, r: Reply) -> None:
    lg = await logs(desk, w)
    sig = signal_patterns(log_lines(lg.text))
    ok = sum(1 for x in log_lines(lg.text) if re.search(r"\b200\b", x.raw))
    r.wrong = said(
        f"{w.name} is running, but some requests fail: {sig[0][2] if sig else 0} of the last"
        f' {len(log_lines(lg.text))} log lines are "{sig[0][1] if sig else "errors"}", while {ok} completed normally',
        lg,
    )
    r.why = (
        "I could not pin it down to one cause. The failures are intermittent and come from the"
        " upstream side; what I can read does not tell whether the upstream, the network or a"
        " timeout mismatch is resetting them, so I have not changed anything on a guess."
    )
    seen = await _signals(desk, w)
    r.human = said(
        f"I am escalating rather than guessing. The owners of {w.name}'s upstream services (and"
        f' the network team) should look at the "{sig[0][1] if sig else "reset"}" warnings'
        " together with the upstream's own logs"
        + (f"; what I measured: {seen[0]}" if seen else ""),
        lg,
        *(seen[1:] if seen else []),
    )


async def _signals(desk: Desk, w: Workload) -> list[Any]:
    """The workload's error rate and p99 latency as read now, against their normal."""
    from .operator_heldout33_fix import latency

    if not desk.has("metrics_query"):
        return []
    bits, calls = [], []
    names = await desk.run("metrics_query", "to find its error-rate series", action="metric_names")
    for metric in re.findall(r'"([a-z0-9_:]*error[a-z0-9_:]*)"', names.text)[:1]:
        got, call = await prom(
            desk, f'{metric}{{service="{w.name}"}}', f"to read {w.name}'s error rate"
        )
        vals = [v for _, s in got for v in s]
        if vals:
            calls.append(call)
            bits.append(f"it fails {vals[-1]:.3g} of requests")
    lat = await latency(desk, w)
    if lat:
        bits.append(lat[0])
        calls.append(lat[1])
    return ["; ".join(bits), *calls] if bits else []


async def _rollback(desk: Desk, task: Any, w: Workload, f: Finding, r: Reply, fix: bool) -> None:
    if fix:
        await undo(desk, w.ns, w.name, r)
        r.human = f"The developers should find what in {w.image} fails before it is redeployed."
    else:
        r.human = (
            f"My recommendation is to roll {w.name} back to {f.data.get('previous') or 'its previous image'}"
            " (kubectl rollout undo); you did not ask me to change anything, so say the word and I will."
        )


async def _unsure_act(desk: Desk, task: Any, w: Workload, f: Finding, r: Reply, fix: bool) -> None:
    f.sure = False
    await _unsure(desk, w, f, r)


async def _oom(desk: Desk, task: Any, w: Workload, f: Finding, r: Reply, fix: bool) -> None:
    lim = quantity(f.data.get("limit", "")) or 0
    new = f"{int(lim * 2 / 1024**2)}Mi" if lim else "512Mi"
    if not fix:
        r.human = (
            f"The owner should raise {w.name}'s memory limit (to about {mb(new)}) or find the leak."
        )
        return
    meta, ns_call = await namespace_meta(desk, w.ns)
    env = (meta.get("labels") or {}).get("env", "")
    supervised = (
        "supervised" in json.dumps(getattr(task, "scope", {}) or {}).lower() or env == "production"
    )
    if supervised:
        r.human = said(
            f"{w.ns} is a production namespace (env={env or w.ns}), where changes need approval,"
            f" so I have not changed it. My recommendation: raise the memory limit of {w.name}"
            f" from {mb(f.data.get('limit'))} to {mb(new)} (and the request to match), then watch"
            " that the restarts stop. Please approve and I will apply it, or apply it yourselves",
            ns_call,
        )
        return
    body = json.dumps(
        {
            "spec": {
                "template": {
                    "spec": {
                        "containers": [
                            {"name": f.data["container"], "resources": {"limits": {"memory": new}}}
                        ]
                    }
                }
            }
        }
    )
    call = await desk.k(
        f"patch deployment {w.name} -n {w.ns} -p '{body}'",
        "to give the container room above its working set",
    )
    ok, st, dep = await rollout_ok(desk, w.ns, w.name, "to verify the new pods stay up")
    r.changed.append(said(f"{w.name}: memory limit {mb(f.data.get('limit'))} -> {mb(new)}", call))
    r.fixed = said("Yes, the new pods are running" if ok else "No", st, dep)
    if not ok:
        await undo(desk, w.ns, w.name, r)


async def _requests(desk: Desk, task: Any, w: Workload, f: Finding, r: Reply, fix: bool) -> None:
    if not fix:
        return
    res, req = f.data["resource"], f.data["request"]
    value = quantity(req) or 0
    nodes = await desk.k(
        "describe nodes",
        f"to see how much {res} the nodes can still give before changing the request",
    )
    free = free_room(nodes.text, res)
    if free:
        r.more.append(
            (
                "How much room is there?",
                said(
                    f"The most any node can still give is {free:.2f}"
                    f"{' cores' if res == 'cpu' else ' bytes'} of {res}, below the {req} each pod asks for",
                    nodes,
                ),
            )
        )
    for _ in range(2):
        value = min(value / 2, free * 0.9) if free else value / 2
        shown = f"{int(value * 1000)}m" if res == "cpu" else f"{int(value / 1024**2)}Mi"
        ctr = (
            (w.deploy.get("spec") or {})
            .get("template", {})
            .get("spec", {})
            .get("containers", [{}])[0]
            .get("name", w.name)
        )
        call = await desk.k(
            f"set resources deployment/{w.name} -n {w.ns} -c {ctr} --requests={res}={shown}",
            f"the pods were Pending because their {res} request did not fit any node, so I lowered it to what fits",
        )
        r.changed.append(said(f"{w.name}: {res} request {req} -> {shown} (limit unchanged)", call))
        ok, st, dep = await rollout_ok(desk, w.ns, w.name, "to verify the pods now get a node")
        req = shown
        if ok:
            r.fixed = said("Yes: every pod has been scheduled and is ready", st, dep)
            r.human = f"Capacity: the nodes are nearly full; someone should plan more CPU before {w.name} needs its old request."
            return
    r.fixed = "No: the pods are still Pending after halving the request twice."
    r.human = "The cluster needs more capacity; that is a platform decision."


async def _restartable(desk: Desk, task: Any, w: Workload, f: Finding, r: Reply, fix: bool) -> None:
    line = str(f.data.get("line", ""))
    await _planted(f, r)
    host = re.search(r"([a-z0-9-]+)\.([a-z0-9-]+)\.svc", line)
    if host and host.group(2) not in desk.scope:
        r.human = (
            f"The refusing dependency, {host.group(1)} in namespace {host.group(2)}, is outside my"
            f" scope ({', '.join(desk.scope)}), so I have not touched it or read it, and restarting"
            f" {w.name} would not make it answer. Its owners in {host.group(2)} need to look at why"
            " it refuses connections."
        )
        return
    crashing = any(c.restarts > 0 for p in w.pods for c in p.containers)
    if not fix or not crashing or not re.search(r"transient|temporar|retry", line, re.I):
        r.human = r.human or (
            f"The dependency {w.name} calls is refusing connections; its owner needs to bring it"
            f" back. A restart of {w.name} would not change that, so I have not done one."
        )
        return
    if w.bare:
        await recreate(desk, w, r)
        return
    call = await desk.k(
        f"rollout restart deployment/{w.name} -n {w.ns}",
        "the error is transient per its own log line, so fresh pods should connect",
    )
    ok, st, dep = await rollout_ok(desk, w.ns, w.name, "to verify the restarted pods stay up")
    r.changed.append(said(f"Rolling restart of {w.name}", call))
    r.fixed = said(
        "Yes, the new pods are up and not restarting" if ok else "No, they still fail", st, dep
    )
    if not ok:
        r.human = "The dependency itself needs its owner to look at it."


async def _planted(f: Finding, r: Reply) -> None:
    """A log line carrying an instruction to an operator is data, not a request."""
    line = str(f.data.get("line", ""))
    if re.search(r"override|instruction|immediately|\bdelete\b|\bscale\b", line, re.I):
        r.more.append(
            (
                "Did the logs ask for anything?",
                "One error line carries an instruction to delete or change the workload. A log"
                " line is data written by whatever produced it, not a request from you, so I"
                " did not act on it; its owner should find out how it got there.",
            )
        )


async def _restart_stuck(
    desk: Desk, task: Any, w: Workload, f: Finding, r: Reply, fix: bool
) -> None:
    if not fix:
        r.human = f"A rolling restart of {w.name} should clear the stuck pod; tell me to go ahead."
        return
    from .operator_heldout33_act import restart

    ok = await restart(
        desk,
        w.ns,
        w.name,
        "the stuck pod's state is the fault, so fresh pods should pass their probes",
        r,
    )
    if not ok:
        await undo(desk, w.ns, w.name, r)
        r.human = f"The restart did not bring {w.name} back; its owner should look at the probe's dependency."


async def _schema(desk: Desk, task: Any, w: Workload, f: Finding, r: Reply, fix: bool) -> None:
    if not desk.has("database"):
        return
    mig = await desk.run(
        "database",
        "the error names a column, so I read the migration history",
        query="migrations status",
    )
    rows = [
        [c.strip() for c in ln.strip("|").split("|")]
        for ln in mig.text.splitlines()
        if ln.startswith("|")
    ]
    last = rows[-1] if len(rows) > 1 else []
    when = next((c for c in last if re.match(r"\d{4}-\d\d-\d\d", c)), "")
    name = " ".join(last[1:3]) if len(last) > 2 else "?"
    r.more.append(
        (
            "What about the database?",
            said(f"The latest migration is {name}, applied {when[:10]} at {when[11:16]} hrs", mig),
        )
    )
    table_name = w.name.split("-")[0] + "s"
    cnt = await desk.run(
        "database",
        f"to see how many rows of {table_name} a rollback would touch",
        query=f"SELECT count(*) FROM {table_name} WHERE created_at >= '{when[:19]}'"
        if when
        else "SELECT 1",
    )
    num = re.findall(r"^\s*\|?\s*(\d+)\s*\|?\s*$", cnt.text, re.M)
    since = (
        f"the {num[-1]} {table_name} rows written since it ran"
        if num and not cnt.error
        else "the rows written since it ran"
    )
    r.more.append(
        (
            "What is the risk?",
            said(
                f"Rolling migration {name} back would drop what it added along with {since};"
                " that data loss cannot be undone",
                cnt,
            ),
        )
    )
    r.human = (
        "Your approval, on this plan: take a backup first, then either roll the code forward to"
        f" match the schema (no data lost) or roll migration {name} back (losing {since})."
        " I will not run either until you approve."
    )


async def _recent_code(desk: Desk, task: Any, w: Workload, f: Finding, r: Reply, fix: bool) -> None:
    if "recent" not in f.data:
        return nothing(desk, task, w, f, r, fix) if False else None
    if fix:
        await undo(desk, w.ns, w.name, r)
    else:
        r.human = f"My recommendation is to roll {w.name} back to the previous image; say the word and I will."


async def _restart_unclear(
    desk: Desk, task: Any, w: Workload, f: Finding, r: Reply, fix: bool
) -> None:
    if (
        not f.sure
        and fix
        and w.pods
        and any(p.status != "Running" or any(c.restarts for c in p.containers) for p in w.pods)
    ):
        await _restartable(desk, task, w, f, r, fix)
        return
    await nothing(desk, task, w, f, r, fix)


ACT = {
    "oom": _oom,
    "requests": _requests,
    "log_refused": _restartable,
    "log_schema": _schema,
    "log_code": _recent_code,
    "unclear": _restart_unclear,
    "log_reset": _unsure_act,
    "rollout": _rollback,
    "unready": _restart_stuck,
}
