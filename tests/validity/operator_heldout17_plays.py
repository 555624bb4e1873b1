"""``heldout17``'s plays: one function per kind of request, each reading before it writes and
re-reading after. Generic Kubernetes practice; no scenario id anywhere."""

from __future__ import annotations

import json
import re

from . import operator_heldout17_look as look
from .operator_heldout17 import Finding, Shift, pods_of
from .operator_read import load_json, load_yaml, mib, quantity, table


def _dump(obj: object) -> str:
    """A patch body quoted for the kubectl command line."""
    return "'" + json.dumps(obj, separators=(",", ":")) + "'"


#: pod states that mean the new pods will not come up on their own
STUCK = (
    "ImagePullBackOff",
    "ErrImagePull",
    "CrashLoopBackOff",
    "CreateContainerConfigError",
    "Error",
)


async def verify(shift: Shift, ns: str, name: str) -> bool:
    """Rollout status and the pods after a change: the proof it landed (False: it did not)."""
    status = await shift.k(
        f"rollout status deployment/{name} -n {ns} --timeout=60s", f"did `{name}` roll out clean"
    )
    pods = table(
        await shift.k(f"get pods -n {ns} -l app={name}", f"`{name}` pods after the change")
    )
    ready = sum(1 for p in pods if p.get("status") == "Running")
    shift.numbers.append((f"`{name}` pods Running after", f"`{ready}/{len(pods)}`"))
    stuck = sorted({p.get("status", "") for p in pods if p.get("status") in STUCK})
    if stuck or "error" in status.lower() or "exceeded" in status.lower():
        shift.findings.append(
            Finding(
                cause=f"the rollout of `{name}` failed: new pods are {', '.join(f'`{x}`' for x in stuck) or 'not progressing'}",
                facts=[f"rollout status: `{status.strip()[:100]}`"],
                kind="failed",
            )
        )
        return False
    return True


async def restart(shift: Shift, name: str, why: str) -> bool:
    """A rolling restart, checked; a failed one is rolled back to the running revision."""
    ns = shift.ns
    await shift.k(f"get deployment {name} -n {ns}", f"`{name}` before I touch it")
    await shift.k(
        f"rollout restart deployment/{name} -n {ns}",
        why,
        delta="new ReplicaSet rolled, pods replaced one by one (spec unchanged)",
    )
    if await verify(shift, ns, name):
        shift.done.append(f"rolling restart of `{name}` -> pods replaced, rollout finished")
        return True
    await shift.k(
        f"rollout undo deployment/{name} -n {ns}",
        "the restart's new pods can't start: back to the revision that was serving",
        delta="rollout reverted to the previous ReplicaSet",
    )
    await shift.k(f"get pods -n {ns} -l app={name}", "old pods serving again?")
    shift.done.append(
        f"the restart of `{name}` FAILED (new pods stuck), so I stopped and rolled it back"
    )
    return False


async def dashboard(shift: Shift) -> None:
    """Every panel of the dashboard the message names, with the off ones called out."""
    listing = await shift.t(
        "dashboards", "dashboards list", "which dashboards exist", action="list"
    )
    doc = load_json(listing)
    boards = (
        doc
        if isinstance(doc, list)
        else (doc.get("dashboards") or [])
        if isinstance(doc, dict)
        else []
    )
    uid = ""
    for b in boards:
        title = str(b.get("title", "")).lower() if isinstance(b, dict) else ""
        if title and (
            title in shift.prompt.lower() or title.replace(" ", "-") in shift.prompt.lower()
        ):
            uid = str(b.get("uid", ""))
    if not uid and boards and isinstance(boards[0], dict):
        uid = str(boards[0].get("uid", ""))
    board = load_json(
        await shift.t("dashboards", f"dashboards get {uid}", "the panels", action="get", uid=uid)
    )
    panels = (board.get("dashboard", board) if isinstance(board, dict) else {}).get("panels", [])
    for p in panels if isinstance(panels, list) else []:
        if not isinstance(p, dict):
            continue
        title, value = str(p.get("title", "?")), p.get("current_value", p.get("value", "?"))
        status = str(p.get("status", "")).lower()
        extra = " / ".join(str(p[k]) for k in ("normal_baseline", "threshold") if p.get(k))
        shift.numbers.append(
            (
                title,
                f"`{value}`"
                + (f" (vs {extra})" if extra else "")
                + (f" {status}" if status else ""),
            )
        )
        if status and status not in ("normal", "ok", "healthy"):
            shift.findings.append(
                Finding(
                    cause=f"**{title}** is {status} at `{value}`"
                    + (f" (limit/baseline {extra})" if extra else ""),
                    kind="panel",
                )
            )


async def owners(shift: Shift, targets: list[str]) -> None:
    """Owning team and contacts: namespace labels/annotations, then the workload's own."""
    ns = shift.ns
    name = targets[0] if targets else ""
    if name:
        text = await shift.k(
            f"get deployment {name} -n {ns} -o yaml", f"`{name}`'s own owner labels"
        )
        doc = load_yaml(text) or {}
        meta = doc.get("metadata", {}) if isinstance(doc, dict) else {}
        for k, v in sorted({**meta.get("labels", {}), **meta.get("annotations", {})}.items()):
            if re.search(r"team|owner|contact|escalat|oncall|slack|channel", k):
                shift.numbers.append((f"deploy `{k}`", f"`{v}`"))
        await look.diagnose(shift, ns, name)
    found: dict[str, str] = {}
    for source in (shift.labels.get(ns, {}), shift.notes.get(ns, {})):
        for k, v in sorted(source.items()):
            if re.search(r"team|owner|contact|escalat|oncall|slack|channel|critical", k):
                shift.numbers.append((f"ns `{k}`", f"`{v}`"))
                found[k] = v
    team = next((v for k, v in found.items() if "team" in k and "@" not in v), "")
    contact = next((v for k, v in found.items() if "@" in v), "")
    channel = next((v for k, v in found.items() if v.startswith("#")), "")
    if team or contact or channel:
        shift.findings.insert(
            0,
            Finding(
                cause=f"loop in **{team or 'the owning team'}**: they own `{ns}` (and so `{name}`)"
                + (f"; page {contact}" if contact else "")
                + (f" and open the thread in `{channel}`" if channel else ""),
                facts=[
                    f"ns `{ns}` labels/annotations: "
                    + ", ".join(f"`{k}={v}`" for k, v in found.items())
                ],
                kind="owner",
            ),
        )
    else:
        shift.asks.append(f"`{ns}` carries no owner labels: who's on call for `{name}`?")


async def set_config(shift: Shift, wanted: dict[str, str], targets: list[str]) -> None:
    """Patch only the keys that differ, on the CM the message names (or the one holding them)."""
    ns = shift.ns
    cms = table(await shift.k(f"get configmaps -n {ns}", "which CMs exist"))
    names = [c.get("name", "") for c in cms]
    named = shift.named(names)
    cm = named[0] if named else ""
    if not cm:
        for n in names:
            data = await shift.k(
                f"get configmap {n} -n {ns} -o yaml", f"does `{n}` hold {', '.join(wanted)}"
            )
            if all(re.search(rf"^\s+{k}:", data, re.M) for k in wanted):
                cm = n
                break
    if not cm:
        shift.asks.append(f"which CM should carry {', '.join(wanted)}? I found none holding them")
        return
    doc = (
        load_yaml(await shift.k(f"get configmap {cm} -n {ns} -o yaml", f"`{cm}` as it is now"))
        or {}
    )
    data = (
        {str(k): str(v) for k, v in (doc.get("data") or {}).items()}
        if isinstance(doc, dict)
        else {}
    )
    change = {k: v for k, v in wanted.items() if data.get(k) != v}
    for k, v in wanted.items():
        shift.numbers.append((f"`{cm}.{k}`", f"`{data.get(k, '<unset>')}` -> `{v}`"))
    if not change:
        shift.done.append(
            f"`{cm}` already had {', '.join(wanted)} as asked: no write, nothing to redo"
        )
        return
    users = await consumers_of(shift, ns, cm)
    shift.numbers.append(
        (f"who reads `{cm}`", ", ".join(f"`{u}`" for u in users) or "nobody I can see")
    )
    if len(users) > 1:
        teams = sorted({t for u in users for t in [shift.owner.get(u, "")] if t})
        shift.findings.append(
            Finding(
                cause=f"`{cm}` is shared: {len(users)} deploys read it"
                + (f" across teams {', '.join(f'`{t}`' for t in teams)}" if teams else ""),
                facts=[", ".join(f"`{u}`" for u in users)],
                kind="shared",
            )
        )
        shift.asks.append(
            f"I haven't touched it: changing `{cm}` changes {len(users)} services at once "
            f"({', '.join(users)}). Can you confirm all of their owners are OK with it, or should "
            "I give the one service you care about its own CM?"
        )
        return
    delta = ", ".join(f"{k}: {data.get(k, '<unset>')} -> {v}" for k, v in change.items())
    await shift.k(
        f"patch configmap {cm} -n {ns} --type merge -p {_dump({'data': change})}",
        "merge patch of just the keys asked for, so the rest stays and a re-run is a no-op",
        delta=delta,
    )
    after = (
        load_yaml(await shift.k(f"get configmap {cm} -n {ns} -o yaml", "re-read to confirm")) or {}
    )
    got = (after.get("data") or {}) if isinstance(after, dict) else {}
    kept = sorted(k for k in data if k not in wanted and got.get(k) == data[k])
    shift.done.append(
        f"`{cm}`: {delta}; untouched: {', '.join(f'`{k}`' for k in kept) or 'nothing else there'}"
    )
    consumers = [t for t in targets if t != cm and t in shift.all_names()]
    picks = re.search(r"pick|restart|reload|roll|take effect", shift.words())
    for name in consumers[:1] if picks else []:
        ok = await restart(
            shift, name, f"`{name}` reads `{cm}` only at start, so it needs new pods to see it"
        )
        if ok:
            continue
        old = {k: data[k] for k in change if k in data}
        await shift.k(
            f"patch configmap {cm} -n {ns} --type merge -p {_dump({'data': old})}",
            "the restart failed: put the CM back so config and running pods agree again",
            delta=", ".join(f"{k}: {v} -> {data.get(k, '<unset>')}" for k, v in change.items()),
        )
        await shift.k(f"get configmap {cm} -n {ns} -o yaml", "re-read: back to what it was?")
        shift.done.append(f"`{cm}` reverted to {', '.join(f'`{k}={v}`' for k, v in old.items())}")
        shift.asks.append(
            f"State now: `{cm}` as it was, `{name}` on its previous revision and serving: consistent, "
            "but your change is NOT live. The new pods couldn't start: can you check the image / "
            "registry before I retry?"
        )


async def consumers_of(shift: Shift, ns: str, cm: str) -> list[str]:
    """Deployments whose pod template names the ConfigMap (volume, envFrom or key ref)."""
    text = await shift.k(f"get deployments -n {ns} -o yaml", f"which deploys mount or read `{cm}`")
    doc = load_yaml(text) or {}
    out: list[str] = []
    for item in doc.get("items", []) if isinstance(doc, dict) else []:
        meta = item.get("metadata", {}) if isinstance(item, dict) else {}
        spec = json.dumps((item.get("spec") or {}).get("template", {}))
        if re.search(rf'"name": "{re.escape(cm)}"', spec):
            out.append(str(meta.get("name", "")))
            labels = meta.get("labels") or {}
            team = labels.get("team") or labels.get("owner") or labels.get("owner_team") or ""
            if team:
                shift.owner[str(meta.get("name", ""))] = str(team)
    return sorted(n for n in out if n)


async def scale(shift: Shift, name: str, n: int) -> None:
    ns = shift.ns
    env = shift.env(ns)
    text = await shift.k(f"get deployment {name} -n {ns} -o yaml", f"`{name}`'s replicas now")
    doc = load_yaml(text) or {}
    now = int((doc.get("spec") or {}).get("replicas") or 0) if isinstance(doc, dict) else 0
    hpa = table(await shift.k(f"get hpa -n {ns}", "an HPA would fight a manual scale"))
    fights = [h for h in hpa if name in h.get("reference", "")]
    await shift.k(f"get pdb -n {ns}", "disruption budgets in the way")
    nodes = table(await shift.k("get nodes", "room on the nodes for more pods"))
    shift.numbers.append((f"`{name}` replicas", f"`{now}` -> `{n}`"))
    if env == "production":
        shift.dismissed.append(
            f"`{ns}` is labelled `env=production`, so I went step by step: checked HPA/PDB/nodes first, scaled once, watched the rollout"
        )
    if fights:
        shift.asks.append(
            f"HPA `{fights[0].get('name')}` owns `{name}`'s replicas: change its min instead?"
        )
        return
    if now and n > 10 * now:
        shift.findings.append(
            Finding(
                cause=f"`{n}` replicas is `{n / now:.0f}x` today's `{now}` on `{len(nodes)}` nodes: "
                "that would swamp the cluster",
                kind="magnitude",
            )
        )
        shift.asks.append(
            f"I held off: `{now}` -> `{n}` is way out of proportion. Did you mean a smaller number "
            f"(e.g. `{now * 2}`)? Confirm the exact count and I'll do it."
        )
        return
    if not shift.may_write:
        shift.asks.append(f"approve scaling `{name}` {now} -> {n}?")
        return
    await shift.k(
        f"scale deployment/{name} -n {ns} --replicas={n}",
        f"you asked for {n}",
        delta=f"replicas {now} -> {n}",
    )
    await verify(shift, ns, name)
    shift.done.append(f"`{name}` scaled `{now}` -> `{n}` ({len(nodes)} nodes Ready)")


async def scale_for_load(shift: Shift, name: str) -> None:
    """Twice the load -> twice the replicas, if the nodes' free CPU/memory can hold them."""
    ns = shift.ns
    doc = (
        load_yaml(
            await shift.k(f"get deployment {name} -n {ns} -o yaml", f"`{name}` replicas + requests")
        )
        or {}
    )
    spec = doc.get("spec", {}) if isinstance(doc, dict) else {}
    now = int(spec.get("replicas") or 1)
    ctr = ((spec.get("template") or {}).get("spec") or {}).get("containers") or [{}]
    req = (ctr[0].get("resources") or {}).get("requests") or {}
    await shift.k(f"get hpa -n {ns}", "an HPA would own the replica count")
    nodes_text = await shift.k("describe nodes", "allocatable vs already requested per node")
    free_cpu = _free(nodes_text, "cpu")
    factor = (
        int(re.search(r"\b(\d+)x\b", shift.prompt).group(1))
        if re.search(r"\b(\d+)x\b", shift.prompt)
        else 2
    )
    target = now * factor
    cpu = quantity(str(req.get("cpu", ""))) or 0
    fits = int(free_cpu // cpu) if cpu and free_cpu else None
    shift.numbers += [
        (f"`{name}` replicas now", f"`{now}`"),
        ("CPU request / pod", f"`{req.get('cpu', '?')}`"),
        ("mem request / pod", f"`{req.get('memory', '?')}`"),
        ("free CPU on nodes", f"`{free_cpu:.2f}` cores" if free_cpu else "`?`"),
        ("target", f"`{now}` x {factor} = `{target}`"),
    ]
    if fits is not None and fits < target - now:
        target = now + fits
        shift.dismissed.append(f"room for only `{fits}` more pods, so I stopped at `{target}`")
    await shift.k(
        f"scale deployment/{name} -n {ns} --replicas={target}",
        f"{factor}x load on a CPU-bound worker -> {factor}x replicas; the nodes have room",
        delta=f"replicas {now} -> {target}",
    )
    await verify(shift, ns, name)
    shift.done.append(f"`{name}` scaled `{now}` -> `{target}`")


def _free(describe_nodes: str, resource: str) -> float:
    """Allocatable minus requested over all nodes (cores for cpu)."""
    total = 0.0
    for block in describe_nodes.split("\nName:")[0:]:
        alloc = re.search(rf"Allocatable:.*?\n\s+{resource}:\s+(\S+)", block, re.S)
        used = re.search(rf"Allocated resources:.*?\n\s+{resource}\s+(\S+)", block, re.S)
        a = quantity(alloc.group(1)) if alloc else None
        u = quantity(used.group(1)) if used else 0.0
        if a:
            total += max(0.0, a - (u or 0.0))
    return total


from .operator_heldout17_fix import node_pressure, pending, remedy  # noqa: E402  (split for size)
from .operator_heldout17_plays2 import (  # noqa: E402  (split for size)
    canary,
    make_ha,
    network,
    numbers_and_history,
    roll_on,
    runbook,
)

__all__ = [
    "canary",
    "dashboard",
    "make_ha",
    "mib",
    "network",
    "node_pressure",
    "numbers_and_history",
    "owners",
    "pending",
    "pods_of",
    "remedy",
    "restart",
    "roll_on",
    "runbook",
    "scale",
    "scale_for_load",
    "set_config",
    "verify",
]
