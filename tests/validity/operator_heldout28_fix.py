"""``heldout28``'s diagnosis-driven work: what a symptom calls for once its cause is read
(scheduling room, a blocking network rule, a recent release, a memory limit, a migration, a
rollout meeting a sick machine), and the hand-off when the cause cannot be pinned down.
"""

from __future__ import annotations

import json
import re

from .operator_heldout28 import Note, mentions
from .operator_heldout28_look import events_of, figure, named
from .operator_read import items, load_json, prom_series, quantity, table

_FIX = re.compile(r"\b(fix|handle|resolve|repair|follow|continue)\b")


def may_fix(note: Note) -> bool:
    return bool(_FIX.search(note.low)) and note.writable


async def scheduling(note: Note, name: str) -> bool:
    """Pods waiting for room: the request against what the machines have left."""
    why = [
        e.get("message", "")
        for e in events_of(note, name)
        if "FailedScheduling" in e.get("reason", "")
    ]
    if not why:
        return False
    views = note.facts.get("views", {}).get(name, [])
    asked = next(
        (c.requests.get("cpu", "") for v in views for c in v.containers if c.requests.get("cpu")),
        "",
    )
    nodes = await note.k(
        "describe nodes",
        "read the description of each machine in the cluster",
        "to see how much processor time each still has free",
    )
    sizes = [quantity(c) or 0 for c in re.findall(r"Allocatable:\s*\n\s*cpu:\s+(\S+)", nodes)]
    most = max(sizes) if sizes else 0
    need = quantity(asked) or 0
    note.find(
        f"The {name} pods are Pending, which means no machine has agreed to run them yet. The "
        f"scheduler, the part of Kubernetes that places pods, says so plainly: {why[0]} Each "
        f"{name} pod asks for {asked or 'more'} of processor time (1000m is one full core), "
        f"while the largest of the {spell(len(sizes))} machines can offer about "
        f"{most * 1000:.0f}m in all, before anything else running on it. The request is simply "
        "bigger than any machine, so these pods could wait forever."
    )
    if not may_fix(note) or not need or most <= 0 or need < most:
        return True
    fit = int(most * 1000 / 2) // 100 * 100
    patch = json.dumps(
        {
            "spec": {
                "template": {
                    "spec": {
                        "containers": [
                            {"name": name, "resources": {"requests": {"cpu": f"{fit}m"}}}
                        ]
                    }
                }
            }
        }
    )
    await note.k(
        f"patch deployment {name} -n {note.ns} --type strategic -p '{patch}'",
        f"lowered the processor reservation of {name} from {asked} to {fit}m",
        "because that is what the machines can actually give, and a smaller reservation lets "
        "the pod start (it can still use more when the machine is idle)",
        change=f"{name}'s CPU request from {asked} to {fit}m",
    )
    again = await note.k(
        f"get pods -n {note.ns} -l app={name}",
        f"listed the {name} pods again",
        "to check they were placed",
    )
    placed = "Running" in again
    note.did_change(
        f"I lowered the processor reservation of {name} from {asked} to {fit}m, half of the "
        "largest machine, so it fits beside what already runs there"
        + (
            " and the pod is now running. If"
            if placed
            else "; the pod had not started yet when I last looked, so it needs one more check. If"
        )
        + " the program really needs the larger amount, the lasting fix is more"
        " machines, and that is a call for whoever owns the cluster's budget."
    )
    return True


async def network(note: Note) -> bool:
    """A NetworkPolicy (a firewall rule between pods) that lets only some callers in."""
    ns = note.ns
    text = await note.k(
        f"get networkpolicy -n {ns} -o yaml",
        f"read the network rules of {ns} (a NetworkPolicy is a firewall rule that says which "
        "pods may talk to which)",
        "because one program cannot reach another",
    )
    deploys = note.facts.get("deploys", {})
    hits = [d for d in deploys if mentions(note.low, d)]
    for pol in items(text):
        spec = pol.get("spec") or {}
        target = ((spec.get("podSelector") or {}).get("matchLabels") or {}).get("app", "")
        if target not in hits:
            continue
        allowed = sorted(
            str(((f.get("podSelector") or {}).get("matchLabels") or {}).get("app", ""))
            for rule in spec.get("ingress") or []
            for f in rule.get("from") or []
        )
        callers = [h for h in hits if h != target and h not in allowed]
        if not callers:
            continue
        name = str((pol.get("metadata") or {}).get("name"))
        note.find(
            f"The cause is the network rule {name}. It guards {target} and only lets in pods "
            f"labelled {', '.join(a for a in allowed if a) or 'nothing'}, so {callers[0]} is turned "
            "away at the door even though both programs are running fine."
        )
        if not may_fix(note):
            return True
        rules = list(spec.get("ingress") or [])
        rules.append({"from": [{"podSelector": {"matchLabels": {"app": callers[0]}}}]})
        patch = json.dumps({"spec": {"ingress": rules}})
        await note.k(
            f"patch networkpolicy {name} -n {ns} --type merge -p '{patch}'",
            f"added one entry to {name} that lets {callers[0]} in",
            "keeping every existing entry, so what was allowed before is still allowed and "
            "nothing else is opened",
            change=f"{name}, which now also admits {callers[0]}",
        )
        note.did_change(
            f"I added {callers[0]} to the callers {name} admits, and left its other entries as "
            f"they were, so {target} is still closed to everyone else."
        )
        return True
    return False


async def history(note: Note, name: str) -> dict[str, str]:
    """When the running version arrived and which version came before it."""
    rs = table(
        await note.k(
            f"get rs -n {note.ns} -l app={name} -o wide",
            f"listed the versions of {name} the cluster has kept (each rollout leaves a ReplicaSet)",
            "to see when the running version arrived and what came before",
        )
    )
    rs = sorted(rs, key=lambda r: _minutes(r.get("age", "")))
    out: dict[str, str] = {}
    if rs:
        out["current"], out["age"] = rs[0].get("images", ""), rs[0].get("age", "")
    if len(rs) > 1:
        out["previous"] = rs[1].get("images", "")
    return out


def _minutes(age: str) -> float:
    from .operator_read import age_minutes

    return age_minutes(age) or 1e9


def say_history(note: Note, name: str, h: dict[str, str]) -> None:
    if not h.get("current"):
        return
    series = note.facts.get("series", {})
    err = next((v for k, v in series.items() if "error" in k and not k.startswith("normal")), None)
    rise = ""
    if err and len(err) > 2:
        rise = (
            f" The error rate was {figure('error_rate', err[0])} before and is "
            f"{figure('error_rate', err[-1])} now, and it started climbing right after that rollout."
        )
    prev = f", replacing {h['previous']}" if h.get("previous") else ""
    note.find(
        f"The most likely cause is the new release. Version {h['current']} of {name} was rolled "
        f"out {_age(h['age'])} ago{prev}.{rise} The timing lines up, so the new version is the prime "
        "suspect."
    )


async def rollback(note: Note, name: str, h: dict[str, str]) -> None:
    if not h.get("previous") or not may_fix(note):
        return
    await note.k(
        f"rollout undo deployment {name} -n {note.ns}",
        f"rolled {name} back to {h['previous']}",
        "because the errors began with the new release and going back is the quickest safe fix",
        change=f"{name} from {h['current']} back to {h['previous']}",
    )
    await note.k(
        f"rollout status deployment {name} -n {note.ns} --timeout=120s",
        f"watched the rollback of {name}",
        "to confirm the old version came back up",
    )
    after = await note.use(
        "metrics_query",
        "read the error rate again after the rollback",
        "to check it is heading back to normal",
        action="query",
        query="error_rate",
    )
    now = [v for _, vals in prom_series(after) for v in vals]
    note.did_change(
        f"I rolled {name} back from {h['current']} to {h['previous']}."
        + (
            f" Right after the rollback the error rate still read {figure('error_rate', now[-1])}; "
            "it takes a few minutes to come down, so the runbook's last step, checking it is back "
            "to normal within five minutes, needs one more look."
            if now
            else ""
        )
    )


def memory_advice(note: Note, name: str) -> None:
    """The limit to raise, and whether I may raise it or must ask."""
    views = note.facts.get("views", {}).get(name, [])
    limit = next(
        (
            c.limits.get("memory", "")
            for v in views
            for c in v.containers
            if c.last_reason == "OOMKilled"
        ),
        "",
    )
    if not limit:
        return
    mib = (quantity(limit) or 0) / 1024**2
    if note.approval or not note.writable:
        note.hold(
            f"The fix I recommend is to raise the memory limit of {name} from {mib:.0f} "
            f"mebibytes to {mib * 2:.0f} mebibytes. I did not make it: changes in {note.ns} "
            f"need a person's approval first ({note.approval or 'this is a read-only zone'}). "
            "Once someone on the owning team approves, it is a one-line change to the "
            "deployment and I can apply it and watch the restarts stop."
        )
    elif "?" in note.task.prompt:
        note.find(
            f"The fix is to raise its memory limit from {mib:.0f} mebibytes, for example to "
            f"{mib * 2:.0f} mebibytes, and to find out why its memory keeps growing."
        )


async def cpu_aside(note: Note, name: str) -> None:
    """The CPU the request points at, read and put in its place."""
    if "cpu" not in note.low or not note.has("metrics_query"):
        return
    out = await note.use(
        "metrics_query",
        "read the processor use of each machine",
        "because you asked whether the busy processor is the problem",
        action="query",
        query="instance:node_cpu_utilisation:rate5m",
    )
    busy = [(m.get("node") or m.get("instance", ""), v[-1]) for m, v in prom_series(out) if v]
    top = max(busy, key=lambda x: x[1]) if busy else None
    hog = [p["name"] for p in note.facts.get("pods", []) if not p["name"].startswith(name)]
    if top:
        note.find(
            "The pegged node CPU (the machine's processor) is real, but it is not the cause of "
            f"the restarts, only a misleading signal: machine {top[0]} runs at "
            f"{figure('cpu_ratio', top[1])}, mostly because of another program sharing it"
            f"{' (' + next((h for h in hog if 'batch' in h), hog[0]) + ')' if hog else ''}. A busy "
            f"CPU makes {name} slower; it does not make it restart. What restarts it is "
            "running out of memory, as above."
        )


def one_stuck(note: Note, name: str) -> None:
    from .operator_heldout28_look import pods_of

    pods = pods_of(note, name)
    bad = [p["name"] for p in pods if p.get("ready", "").startswith("0/")]
    note.find(
        f"{spell(len(bad)).capitalize()} of the {spell(len(pods))} copies of {name} ({', '.join(bad)}) "
        "is failing its readiness check, the regular health check Kubernetes uses to decide "
        "whether a copy may receive traffic; the events show it answering 503, meaning not "
        f"available{', while the other copies are fine' if len(pods) > len(bad) else ''}, and "
        "its log shows no error. That points to a stuck copy rather than a bad setting."
    )


def spell(n: int) -> str:
    from .operator_heldout28_act import spell as s

    return s(n)


def hand_off(note: Note, name: str, clue: str = "") -> None:
    """No single cause: say what I am unsure of, with the readings, and who should look."""
    series = note.facts.get("series", {})
    readings = "; ".join(
        f"{k.replace('_', ' ')} at {figure(k, v[-1])}"
        for k, v in sorted(series.items())
        if not k.startswith(("normal", "container_")) and v
    )
    note.find(
        f"I could not pin down a single cause for the trouble with {name}. What I can say is "
        f"the readings are off but not dramatically: {readings or 'nothing stands out'}. "
        f"{clue.replace('Tentative: the', 'The').rstrip('.')}, but nothing I can read shows why."
    )
    note.hold(
        f"Because I am not sure, I changed nothing; guessing with a restart or a setting change "
        f"could hide the real problem. I am escalating this to the team that owns {name}, and "
        "to the network team, who can see what sits behind it: please page them with the "
        "readings above, which are what they will need to start from."
    )


async def alerts_seen(note: Note, name: str) -> None:
    """An alert that fires while I work becomes the reason for what I do next."""
    firing = [a for a in note.facts.get("alerts", []) if isinstance(a, dict)]
    for a in firing:
        labels = a.get("labels") or {}
        alert = labels.get("alertname", "")
        if alert and (not labels.get("deployment") or name in json.dumps(labels)):
            note.prompted = f"the {alert} alert fired while I was checking"
            note.find(
                f"While I was checking, the {alert} alert fired for {name}, so I looked at its "
                "memory next."
            )
            return


_ = (load_json, named)


def _age(age: str) -> str:
    """A kubectl age in words (``25m`` -> 25 minutes)."""
    units = {"d": "days", "h": "hours", "m": "minutes", "s": "seconds"}
    parts = re.findall(r"(\d+)([dhms])", age)
    return " ".join(f"{n} {units[u]}" for n, u in parts) or age


def memory_risk(note: Note, name: str, values: list[float]) -> None:
    """How long until a steady memory climb reaches the limit (an OOM kill)."""
    views = note.facts.get("views", {}).get(name, [])
    limit = next(
        (c.limits.get("memory", "") for v in views for c in v.containers if c.limits.get("memory")),
        "",
    )
    cap = quantity(limit) or 0
    if not cap:
        return
    per_hour = (values[-1] - values[0]) / 6
    left = (cap - values[-1]) / per_hour if per_hour > 0 else 0
    size = figure("bytes", cap)
    note.find(
        f"Its memory limit is {size}, so it is already at "
        f"{values[-1] / cap * 100:.0f} percent of what it may use. At about "
        f"{figure('bytes', per_hour)} more every hour it will hit the limit in roughly "
        f"{left:.1f} hours and be OOMKilled, which means stopped by the system for using too "
        "much memory. That is worth acting on today: look for a memory leak (memory that "
        "is taken and never given back) and, as a stopgap, raise the limit or restart it at a "
        "quiet time."
    )
