"""heldout39's incidents: find the workload the request is about (by name, by a pod it
spells, by the ingress it names), read it, commit to the cause the reads show, then fix
narrowly when asked and allowed, hold for approval, or hand off with the readings.
"""

from __future__ import annotations

import json
import re

from . import operator_heldout39_look as look
from . import operator_read as rd
from .operator_heldout39_base import Ctx, approval_needed, asks_fix, start, subject
from .operator_heldout39_cure import conclude
from .operator_heldout39_diag import diagnose
from .operator_heldout39_sheet import Sheet


async def incident(sheet: Sheet, prompt: str) -> None:
    ctx = await start(sheet)
    names = subject(prompt, ctx)
    pods = rd.table(await sheet.read(f"list pods in {ctx.ns}", command=f"get pods -n {ctx.ns}"))
    sheet.saw(look.pod_summary(pods))
    if not names:
        names = await _by_ingress(sheet, ctx, prompt)
    if not names:
        bare = _spelled_pod(prompt, pods)
        if bare:
            w = await _bare_pod(sheet, ctx, bare)
            await conclude(sheet, ctx, w, diagnose(w, prompt), prompt)
            return
        sheet.found.append("the request names no workload I can find in scope")
        sheet.todo.append("requester: which service is affected?")
        sheet.status = "escalated"
        return
    w = await read_all(sheet, ctx, names[0], prompt)
    cause = diagnose(w, prompt)
    await conclude(sheet, ctx, w, cause, prompt)


async def read_all(sheet: Sheet, ctx: Ctx, name: str, prompt: str) -> look.Work:
    """Everything an on-call engineer reads about one workload, in order."""
    w = await look.workload(sheet, ctx.ns, name)
    w.events = await look.events(sheet, ctx.ns, name)
    w.logs = await look.logs(sheet, w)
    if any(c.restarts for p in w.pods for c in p.containers if not c.init):
        w.prev_logs = await look.logs(sheet, w, previous=True)
    await look.init_logs(sheet, w)
    await look.config_refs(sheet, w)
    await look.replicasets(sheet, w)
    names = await look.metric_names(sheet)
    if names:
        await look.app_series(sheet, w, names)
        oom = any("OOM" in (c.last_reason + c.reason) for p in w.pods for c in p.containers)
        if oom or re.search(r"memory|restart|oom", prompt, re.I):
            await look.memory(sheet, w)
        await look.alerts(sheet)
    if re.search(r"slow|latency|timeout|hang", prompt, re.I):
        await look.traces(sheet, w)
    if sheet.has("database") and re.search(
        r"migrat|schema|database|column", prompt + " ".join(ln.raw for ln in w.logs), re.I
    ):
        out = await sheet.read(
            "read the migration history", tool="database", query="migrations status"
        )
        w.configmaps["__migrations__"] = {"text": out}
        last = _last_migration(out)
        sheet.saw(
            f"last migration {last[0]} '{last[1]}' applied {last[2]}" if last else "no history"
        )
    if re.search(r"\bcpu\b|node", prompt, re.I):
        await _node_cpu(sheet, ctx, w)
    await _symptom_config(sheet, ctx, w, prompt)
    return w


def _last_migration(text: str) -> tuple[str, str, str] | None:
    rows = [r for r in text.splitlines() if r.startswith("|") and re.search(r"\|\s*\d+\s*\|", r)]
    if not rows:
        return None
    cells = [c.strip() for c in rows[-1].strip("|").split("|")]
    return (cells[1], cells[2], cells[4]) if len(cells) >= 5 else None


async def _node_cpu(sheet: Sheet, ctx: Ctx, w: look.Work) -> None:
    """The request points at node CPU: read it, and which pod burns it."""
    nodes = rd.table(
        await sheet.read("the request mentions node CPU: read node usage", command="top nodes")
    )
    sheet.saw(", ".join(f"{r.get('name')} {r.get('cpu%')}" for r in nodes))
    pods = rd.table(
        await sheet.read("find which pods use that CPU", command=f"top pods -n {ctx.ns}")
    )
    busiest = max(pods, key=lambda r: rd.quantity(r.get("cpu(cores)", "0")) or 0, default={})
    sheet.saw(
        f"busiest {busiest.get('name')} {busiest.get('cpu(cores)')}" if busiest else "no pods"
    )
    hot = [r for r in nodes if int(re.sub(r"\D", "", r.get("cpu%", "0")) or 0) >= 80]
    if hot and busiest and not busiest.get("name", "").startswith(w.name + "-"):
        w.configmaps["__cpu__"] = {
            "node": f"{hot[0].get('name')} {hot[0].get('cpu%')}",
            "pod": f"{busiest.get('name')} {busiest.get('cpu(cores)')}",
        }


async def _symptom_config(sheet: Sheet, ctx: Ctx, w: look.Work, prompt: str) -> None:
    """A ConfigMap named after the workload that holds a limit on what the request says is
    failing ("dropping connections" and MAX_CONNECTIONS)."""
    stem = w.name.split("-")[0]
    words = {x.rstrip("s") for x in re.findall(r"[a-z]{4,}", prompt.lower())}
    cms = rd.table(
        await sheet.read(
            f"look for config of {w.name} not mounted by name",
            command=f"get configmaps -n {ctx.ns}",
        )
    )
    sheet.saw(", ".join(r["name"] for r in cms))
    for r in cms:
        n = r["name"]
        if n in w.configmaps or not n.startswith(stem + "-") or "runbook" in n:
            continue
        data = await look.configmap(sheet, w, n)
        for k, v in data.items():
            parts = {x.lower().rstrip("s") for x in k.split("_")}
            if parts & words and v.isdigit():
                w.configmaps["__limit__"] = {"cm": n, "key": k, "value": v}


async def _by_ingress(sheet: Sheet, ctx: Ctx, prompt: str) -> list[str]:
    """The request names an entry point, not a workload: follow ingress -> service -> pods."""
    out = await sheet.read(
        "the request names no deployment: find the entry point", command=f"get ingress -n {ctx.ns}"
    )
    rows = rd.table(out)
    sheet.saw(", ".join(r.get("name", "") for r in rows) or "no ingress")
    hit = look.named(prompt, [r.get("name", "") for r in rows]) or (
        [rows[0]["name"]] if len(rows) == 1 else []
    )
    if not hit:
        return []
    ing = rd.items(
        await sheet.read(
            f"read ingress {hit[0]}'s backends", command=f"get ingress {hit[0]} -n {ctx.ns} -o yaml"
        )
    )
    svcs = sorted(set(re.findall(r"'service': \{'name': '([^']+)'", repr(ing))))
    sheet.saw(f"routes to service {', '.join(svcs) or '?'}")
    sheet.found.append(f"hop 1: ingress `{hit[0]}` routes to service {', '.join(svcs)}")
    out_names: list[str] = []
    for s in svcs[:1]:
        ep = await sheet.read(
            f"check service {s} has endpoints", command=f"get endpoints {s} -n {ctx.ns}"
        )
        rows = rd.table(ep)
        eps = rows[0].get("endpoints", "") if rows else ""
        sheet.saw(f"endpoints: {eps or '<none>'}")
        sheet.found.append(
            f"hop 2: service `{s}` has {'no ready endpoints' if not eps or eps == '<none>' else 'endpoints ' + eps} (so the ingress answers 503)"
        )
        svc = rd.items(
            await sheet.read(
                f"read service {s}'s selector", command=f"get service {s} -n {ctx.ns} -o yaml"
            )
        )
        sel = (svc[0].get("spec", {}).get("selector") or {}) if svc else {}
        sheet.saw(", ".join(f"{k}={v}" for k, v in sel.items()))
        if sel:
            d = rd.table(
                await sheet.read(
                    "find the deployment behind it",
                    command=f"get deployments -n {ctx.ns} -l {','.join(f'{k}={v}' for k, v in sel.items())}",
                )
            )
            out_names += [r["name"] for r in d]
            sheet.saw(", ".join(out_names))
    logs = (
        await sheet.read(
            "read the ingress controller's log for the upstream errors",
            tool="logs_query",
            namespace=ctx.ns,
            source="ingress",
            tail=50,
        )
        if sheet.has("logs_query")
        else ""
    )
    sig = rd.signal_patterns(rd.log_lines(logs))
    if sig:
        sheet.saw(f'"{sig[0][1][:110]}" x{sig[0][2]}')
        sheet.found.append(f'proxy/mesh: "{sig[0][1][:120]}" (the upstream refuses connections)')
    return out_names


def _spelled_pod(prompt: str, pods: list[dict[str, str]]) -> str:
    words = re.findall(r"[a-z0-9][a-z0-9-]{2,}", prompt.lower())
    for r in pods:
        n = r.get("name", "")
        if any(n == w or n.startswith(w + "-") for w in words if "-" in w or len(w) > 5):
            return n
    return ""


async def _bare_pod(sheet: Sheet, ctx: Ctx, pod: str) -> look.Work:
    w = look.Work(ctx.ns, pod, kind="pod")
    out = await sheet.read(
        f"read pod {pod}'s state and owner", command=f"describe pod {pod} -n {ctx.ns}"
    )
    w.pods = rd.describe_pods(out)
    sheet.saw(
        look.describe_summary(w.pods)
        + (
            f"; controlled by {w.pods[0].owner}"
            if w.pods and w.pods[0].owner
            else "; no controller (bare pod)"
        )
    )
    w.events = [e for p in w.pods for e in p.events]
    out = await sheet.read(
        f"read {pod}'s crashed container log", command=f"logs {pod} -n {ctx.ns} --previous"
    )
    w.prev_logs = rd.log_lines(out)
    sig = rd.signal_patterns(w.prev_logs)
    sheet.saw(f'"{sig[0][0]}: {sig[0][1]}"' if sig else f"{len(w.prev_logs)} lines, no error")
    out = await sheet.read(f"read {pod}'s current log", command=f"logs {pod} -n {ctx.ns}")
    w.logs = rd.log_lines(out)
    sig = rd.signal_patterns(w.logs)
    sheet.saw(f'"{sig[0][0]}: {sig[0][1]}"' if sig else f"{len(w.logs)} lines, no error")
    return w


async def network(sheet: Sheet, prompt: str) -> None:
    """X can't reach Y: find the policy that selects Y's pods and admits no X, and add X."""
    ctx = await start(sheet)
    m = re.search(
        r"([a-z0-9-]+)\s+(?:can'?t|cannot|can not)\s+(?:reach|talk to|connect to)\s+([a-z0-9-]+)",
        prompt.lower(),
    )
    src, dst = (m.group(1), m.group(2)) if m else ("", "")
    out = await sheet.read("list services", command=f"get services -n {ctx.ns}")
    sheet.saw(", ".join(r.get("name", "") for r in rd.table(out)))
    pods = rd.table(
        await sheet.read("read pod labels", command=f"get pods -n {ctx.ns} --show-labels")
    )
    sheet.saw(f"{len(pods)} pods")
    ep = rd.table(
        await sheet.read(f"check {dst} has endpoints", command=f"get endpoints {dst} -n {ctx.ns}")
    )
    eps = ep[0].get("endpoints", "") if ep else ""
    sheet.saw(eps or "<none>")
    pols = rd.items(
        await sheet.read(
            "read every NetworkPolicy in the namespace",
            command=f"get networkpolicies -n {ctx.ns} -o yaml",
        )
    )
    sheet.saw(", ".join(p.get("metadata", {}).get("name", "") for p in pols))
    src_labels = _labels_of(pods, src)
    dst_labels = _labels_of(pods, dst)
    if eps and eps != "<none>":
        sheet.ruled_out.append(f"service/endpoints: `{dst}` has endpoints {eps}")
    block = _blocking(sheet, pols, (src, src_labels), (dst, dst_labels))
    if not block:
        sheet.found.append(f"no NetworkPolicy blocks {src} -> {dst}; endpoints {eps or 'none'}")
        sheet.todo.append(f"follow-up: check {dst}'s port and {src}'s target URL")
        sheet.status = "escalated"
        return
    pol, peers = block
    name = pol["metadata"]["name"]
    admits = "; ".join(", ".join(f"{k}={v}" for k, v in pe.items()) for pe in peers) or "nothing"
    sheet.found.append(
        f"root cause: NetworkPolicy `{name}` selects {dst}'s pods and admits only [{admits}]; {src} ({', '.join(f'{k}={v}' for k, v in src_labels.items())}) is not admitted, so its traffic is dropped"
    )
    hold = approval_needed(sheet, ctx)
    if hold or not asks_fix(prompt):
        sheet.todo.append(
            f"fix: add an ingress rule to `{name}` admitting {src}'s pods on {dst}'s port"
        )
        sheet.status = "escalated" if hold else "no action needed"
        return
    await _admit(sheet, ctx, name, (src, src_labels), dst, admits)


async def _admit(
    sheet: Sheet, ctx: Ctx, name: str, src_of: tuple[str, dict], dst: str, admits: str
) -> None:
    """Add one ingress rule admitting the source's pods on the destination's port; read back."""
    src, src_labels = src_of
    svc = rd.items(
        await sheet.read(
            f"read {dst}'s service port", command=f"get service {dst} -n {ctx.ns} -o yaml"
        )
    )
    ports = (svc[0].get("spec", {}).get("ports") or []) if svc else []
    tp = ports[0].get("targetPort", ports[0].get("port")) if ports else None
    port = tp if isinstance(tp, int) else (ports[0].get("port") if ports else 0)
    sheet.saw(f"target port {port}" if port else "no port")
    rule = {"from": [{"podSelector": {"matchLabels": src_labels}}]}
    if port:
        rule["ports"] = [{"port": port, "protocol": "TCP"}]
    body = json.dumps(
        [{"op": "add", "path": "/spec/ingress/-", "value": rule}], separators=(",", ":")
    )
    await sheet.write(
        f"targeted fix: admit {src} to {dst}; keep the existing rules (monitoring) as they are",
        before=f"ingress from [{admits}] only",
        command=f"patch networkpolicy {name} -n {ctx.ns} --type json -p '{body}'",
    )
    if sheet.failed():
        sheet.status = "escalated"
        return
    back = rd.items(
        await sheet.read(
            f"read `{name}` back", command=f"get networkpolicy {name} -n {ctx.ns} -o yaml"
        )
    )
    peers2 = (
        [
            f.get("podSelector", {}).get("matchLabels")
            for r in (back[0].get("spec", {}).get("ingress") or [])
            for f in r.get("from") or []
        ]
        if back
        else []
    )
    sheet.saw(f"ingress from {peers2}")
    sheet.result(
        f"ingress from [{admits}] and [{', '.join(f'{k}={v}' for k, v in src_labels.items())}]"
        + (f" on {port}/TCP" if port else "")
    )
    sheet.done.append(
        f"verified: `{name}` now admits {src}; still selects only {dst}'s pods, other sources still blocked"
    )
    sheet.status = "mitigated"


def _blocking(
    sheet: Sheet, pols: list[dict], src_of: tuple[str, dict], dst_of: tuple[str, dict]
) -> tuple[dict, list[dict]] | None:
    """The policy that selects the destination's pods and admits no source pod."""
    (src, src_labels), (dst, dst_labels) = src_of, dst_of
    block = None
    for p in pols:
        sel = p.get("spec", {}).get("podSelector", {}).get("matchLabels") or {}
        if (
            sel
            and all(dst_labels.get(k) == v for k, v in sel.items())
            and "Ingress" in (p.get("spec", {}).get("policyTypes") or ["Ingress"])
        ):
            peers = [
                f.get("podSelector", {}).get("matchLabels") or {}
                for r in p.get("spec", {}).get("ingress") or []
                for f in r.get("from") or []
            ]
            if not any(all(src_labels.get(k) == v for k, v in pe.items()) for pe in peers):
                block = (p, peers)
            elif block is None:
                sheet.ruled_out.append(f"policy `{p['metadata']['name']}` already admits {src}")
        elif sel:
            sheet.ruled_out.append(
                f"policy `{p['metadata']['name']}`: selects {', '.join(f'{k}={v}' for k, v in sel.items())}, not {dst}'s pods"
            )
    return block


def _labels_of(pods: list[dict[str, str]], name: str) -> dict[str, str]:
    for r in pods:
        if r.get("name", "").startswith(name + "-"):
            pairs = [x.split("=", 1) for x in r.get("labels", "").split(",") if "=" in x]
            return {k: v for k, v in pairs if k != "pod-template-hash"}
    return {"app": name}
