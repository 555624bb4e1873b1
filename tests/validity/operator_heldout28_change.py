"""``heldout28``'s changes: scaling, restarts, a crashing pod replaced, a canary rolled back,
high availability, each preceded by the reads it depends on and followed by a check.
"""

from __future__ import annotations

import json
import re

from .operator_heldout28 import Note
from .operator_heldout28_look import diagnose, dig, metrics, named, pods_of, say_series
from .operator_read import load_json, quantity, table


def spell(n: int) -> str:
    from .operator_heldout28_act import spell as s

    return s(n)


async def change(note: Note) -> bool:
    """The change the request asks for; False when it asks for none."""
    from .operator_heldout28_act import set_config

    low = note.low
    from .operator_heldout28_plan import keep_rolling, make_ha

    if "canary" in low:
        return await canary(note)
    if re.search(r"continue the roll", low):
        return await keep_rolling(note)
    if re.search(r"highly available|survive node", low):
        return await make_ha(note)
    did = False
    if re.search(r"\b(set|make sure|enable|change)\b", low) and re.search(
        r"[A-Z]{3,}", note.task.prompt
    ):
        did = await set_config(note)
        if (did and "restart" in low) or "picks up" in low:
            await restart_after_config(note)
    m = re.search(r"\b(?:scale|replicas? to|to exactly)\D{0,40}?(\d+)\s*(?:replicas)?", low)
    m = m or re.search(r"increase \S+ replicas to (\d+)", low)
    if (m and not did) or (m and "scale" in low):
        return await scale(note, int(m.group(1))) or did
    if "2x" in low or "twice" in low or "double" in low:
        return await scale(note, 0)
    if re.search(r"\brestart\b", low) and not did:
        return await restart(note)
    if re.search(r"keeps crashing|handle it", low) and note.writable:
        return await replace_pod(note)
    return did


async def hpa_for(note: Note, name: str) -> str:
    rows = table(
        await note.k(
            f"get hpa -n {note.ns}",
            "checked for an autoscaler (a HorizontalPodAutoscaler adjusts the number of copies "
            "by itself)",
            "because scaling by hand against one would be undone or fight it",
        )
    )
    for r in rows:
        if name in r.get("reference", ""):
            return r.get("name", "")
    return ""


async def scale(note: Note, target: int) -> bool:
    focus = named(note)
    if not focus:
        return False
    name, ns = focus[0], note.ns
    current = int((note.facts["deploys"][name].get("ready", "0/0").split("/") + ["0"])[1] or 0)
    auto = await hpa_for(note, name)
    if auto:
        note.opening = (
            f"I did not set {name} by hand, because an autoscaler named {auto} manages it."
        )
        note.hold(
            f"The autoscaler {auto} decides how many copies of {name} run and is changing it "
            "right now. A manual number would be overwritten or would fight it. If you want "
            f"exactly {target}, the autoscaler's minimum and maximum should be set to {target}; "
            "please confirm you want that and I will do it."
        )
        return True
    nodes = await note.k(
        "describe nodes",
        "read the description of the cluster's machines",
        "to see how much processor and memory they can still give",
    )
    alloc = [quantity(c) or 0 for c in re.findall(r"Allocatable:\s*\n\s*cpu:\s+(\S+)", nodes)]
    spare = sum(alloc)
    if target == 0:
        target = max(current * 2, current + 1)
        note.find(
            f"{name} runs {spell(current)} copies now; twice the load needs about twice the "
            f"copies, so {spell(target)}. The machines offer about {spare:.0f} processor cores "
            "in total, which leaves room for that."
        )
    if target > max(10 * current, 50):
        note.opening = f"I did not scale {name} to {target} copies."
        note.hold(
            f"{name} runs {spell(current)} copies today. Going to {target} would be "
            f"{target // max(current, 1)} times more than now and far beyond what the machines "
            f"can hold (about {spare:.0f} processor cores in all); the rest would sit waiting "
            "and could starve other services. Please tell me the load you expect and I will "
            "size it, or confirm the number with whoever owns the capacity budget."
        )
        return True
    if not note.writable:
        return False
    if note.production:
        note.find(
            f"{ns} is a production namespace, labelled as such, so customers are on it. Adding "
            "copies is a low-risk, reversible change there, and I checked the machines had room first."
        )
    await note.k(
        f"scale deployment {name} -n {ns} --replicas={target}",
        f"asked for {spell(target)} copies of {name} instead of {spell(current)}",
        "as you requested",
        change=f"{name} from {current} to {target} replicas",
    )
    await note.k(
        f"rollout status deployment {name} -n {ns}",
        f"watched {name} until the new copies were running",
        "to confirm the change took",
    )
    note.did_change(
        f"{name} went from {spell(current)} replicas to {spell(target)} replicas (a replica is "
        "one running copy of the program)."
    )
    return True


async def restart_after_config(note: Note) -> None:
    users = note.facts.get("cm_users") or named(note)
    for name in users[:1]:
        await _restart(note, name, "so the program reloads the new settings")


async def _restart(note: Note, name: str, why: str) -> bool:
    ns = note.ns
    await note.k(
        f"rollout restart deployment {name} -n {ns}",
        f"restarted {name} one copy at a time",
        why,
        change=f"{name}'s pods, which were replaced",
    )
    status = await note.k(
        f"rollout status deployment {name} -n {ns} --timeout=120s",
        f"watched the restart of {name}",
        "to see whether the new copies came up healthy",
    )
    pods = await note.k(
        f"get pods -n {ns} -l app={name}", f"listed the {name} pods again", "to check them"
    )
    bad = (
        re.search(r"ImagePull|ErrImage|CrashLoop|Error", pods)
        or "successfully rolled out" not in status
    )
    if bad:
        return await _undo(note, name)
    ready = [ln.split()[1] for ln in pods.splitlines()[1:] if len(ln.split()) > 2]
    fine = sum(1 for r in ready if r.split("/")[0] == r.split("/")[-1])
    note.did_change(
        f"I restarted {name} and then checked the result: the restart finished, and "
        f"{spell(fine)} of its {spell(len(ready))} new copies are running and ready."
    )
    return True


async def _undo(note: Note, name: str) -> bool:
    """Halt and put things back when the restart fails part way."""
    ns = note.ns
    for cm, before in sorted((note.facts.get("cm_before") or {}).items()):
        patch = json.dumps({"data": before})
        await note.k(
            f"patch configmap {cm} -n {ns} --type merge -p '{patch}'",
            f"put the {cm} settings back to what they were",
            "so the settings and the running program agree again",
            change=f"{cm}, restored",
        )
    await note.k(
        f"rollout undo deployment {name} -n {ns}",
        f"rolled {name} back to its previous version",
        "because the new copies failed to start and I did not want to leave it half changed",
        change=f"{name}, back to its previous pods",
    )
    note.hold(
        f"The restart of {name} failed part way, so I stopped, undid it, and left things as "
        "they were before. Someone should look at why the new copies could not start before "
        "trying again."
    )
    return True


async def restart(note: Note) -> bool:
    focus = named(note)
    deploys = note.facts.get("deploys", {})
    if not focus:
        word = re.search(r"restart the (\w+)", note.low)
        match = sorted(d for d in deploys if word and word.group(1) in d)
        if len(match) > 1:
            note.opening = "I have not restarted anything yet, because your request matches more than one service."
            note.hold(
                f"Several deployments could be the ones you mean: {', '.join(match)}. Restarting "
                "them all at once would hit far more than the one that is stuck. Tell me which "
                "one, and I will restart just that."
            )
            return True
        return False
    name = focus[0]
    await dig(note, name)
    cause = diagnose(note, name)
    if cause:
        note.find(cause)
    if not note.writable:
        return False
    return await _restart(note, name, "as you asked, to replace its unhealthy copies")


async def replace_pod(note: Note) -> bool:
    focus = [p["name"] for p in note.facts.get("pods", []) if "CrashLoop" in p.get("status", "")]
    focus = [p for p in focus if any(w in p for w in re.findall(r"[a-z][a-z-]{3,}", note.low))]
    if not focus:
        return False
    pod = focus[0]
    logs = await note.use(
        "logs_query",
        f"read the log of {pod}",
        "to see why it crashes",
        namespace=note.ns,
        pod=pod,
        tail=50,
    )
    last = re.sub(r"^\S+\s+\{[^}]*\}\s*", "", logs.strip().splitlines()[-1]) if logs.strip() else ""
    note.find(
        f"{pod} is in CrashLoopBackOff, which means it crashes at start and Kubernetes keeps "
        f"retrying more and more slowly. Its log says why: {last or 'nothing useful'}. The "
        "program itself calls the error temporary, so a fresh start is the right remedy."
    )
    await note.k(
        f"delete pod {pod} -n {note.ns}",
        f"deleted the crashing pod {pod} so its deployment starts a fresh copy",
        "because the error looks temporary and this is staging, where I may act on my own",
        change=f"{pod}, replaced by a fresh copy",
    )
    await note.k(
        f"get pods -n {note.ns}", "listed the pods again", "to check the fresh copy started"
    )
    note.did_change(f"I replaced {pod} with a fresh copy; no approval was needed in staging.")
    return True


async def canary(note: Note) -> bool:
    focus = [d for d in note.facts.get("deploys", {}) if "canary" in d]
    if not focus:
        return False
    name = focus[0]
    await metrics(note, name)
    series = note.facts.get("series", {})
    rate = next((v[-1] for k, v in series.items() if "error" in k), None)
    limit = re.search(r"under (\d+(?:\.\d+)?)%", note.low)
    if rate is None or not limit:
        return False
    pct = rate * 100 if rate <= 1 else rate
    if pct < float(limit.group(1)):
        return False
    note.find(
        f"The canary, the small trial copy of the new version, fails {pct:.1f} percent of its "
        f"requests, above your limit of {limit.group(1)} percent, so it is not healthy."
    )
    await note.k(
        f"scale deployment {name} -n {note.ns} --replicas=0",
        f"scaled the canary {name} down to zero copies",
        "to roll it back so no traffic reaches the failing version",
        change=f"{name} to 0 replicas",
    )
    note.did_change(
        f"I rolled the canary back: {name} now runs no copies and all traffic stays on the stable version."
    )
    return True


async def boards(note: Note) -> None:
    doc = load_json(
        await note.use(
            "dashboards", "listed the dashboards", "to find the one you asked about", action="list"
        )
    )
    found = doc if isinstance(doc, list) else []
    words = set(re.findall(r"[a-z0-9]+", note.low))
    mine = [
        b
        for b in found
        if isinstance(b, dict)
        and words
        & set(
            re.findall(r"[a-z0-9]+", str(b.get("title", "")).lower() + " " + str(b.get("uid", "")))
        )
    ]
    for b in (mine or found)[:3]:
        uid = str(b.get("uid", "")) if isinstance(b, dict) else ""
        if not uid:
            continue
        got = load_json(
            await note.use(
                "dashboards",
                f"opened the {b.get('title', uid)} dashboard",
                "to read every panel",
                action="get",
                uid=uid,
            )
        )
        panels = (
            ((got or {}).get("dashboard") or {}).get("panels", []) if isinstance(got, dict) else []
        )
        bad, fine = [], []
        for p in panels:
            title = str(p.get("title", ""))
            value = str(p.get("current_value", p.get("value", "")))
            status = str(p.get("status", "")).lower()
            (fine if status in ("", "normal", "ok") else bad).append(
                f"{title} at {value}" if value else title
            )
        name = re.split(r"\s+[—-]\s+", str(b.get("title", uid)))[0]
        if bad:
            note.find(
                f"On the {name} dashboard, {spell(len(bad))} panels need attention first: "
                f"{' and '.join(bad)}. These are outside their normal range."
            )
        if fine:
            note.find(f"The rest of {name} looks normal: {', '.join(fine)}.")
        from .operator_heldout28_asks import flag_order

        flag_order(note, "title of a dashboard", str(b.get("title", "")))
    _ = (pods_of, say_series)
