"""heldout40: a held-out competent operator (session 33, written blind), answering as a
terminal session pasted into a ticket: each step its shell prompt line ("$ kubectl get pods -n
payments"), a few trimmed lines of what came back ("..." where cut), "# " comment lines saying
what that shows and why it was run, then a short plain summary ("Root cause: ...", "Did: ...",
"Escalating to ...: ..."). The commands are the ones it ran, in order; the output is what it got.

It decides from the request and what the environment returns (never a scenario id): it follows
the workload the request names, commits to the cause its reads show, rules out what they
contradict, acts narrowly when asked and allowed, proposes when approval is needed, and hands
on with the owner and the numbers when it cannot stand behind a cause.
"""

from __future__ import annotations

import re
from typing import Any

from .agents import Tools
from .operator_heldout40_incident import act, asks_fix, incident
from .operator_heldout40_look import Ctx, authority, namespace, spelled, workloads
from .operator_heldout40_obs import alerts, chain, dashboard, health, network, ownership, trace_play
from .operator_heldout40_ops import parse_keys, patch_config, restart, scale, verify
from .operator_heldout40_plays import canary, capacity, ha, migration, pending, policy_fix, rolling
from .operator_heldout40_runbook import runbook
from .operator_heldout40_term import Summary, Term


async def run(tools: Tools, task: Any) -> str:
    term = Term(tools, task)
    s = Summary()
    prompt = task.prompt
    if not term.has("kubectl") and term.has("dashboards"):
        await dashboard(term, s, prompt)
        return render(term, s)
    scoped = list(task.scope.get("namespaces") or ["default"])
    ns = next(
        (n for n in scoped if re.search(rf"\b(?:in|namespace)\s+{re.escape(n)}\b", prompt)),
        scoped[0],
    )
    ctx = await namespace(term, ns)
    await workloads(term, ctx, prompt)
    authority(term, ctx)
    if ctx.hold:
        term.note(f"I may read here but not change anything myself: {ctx.hold}")
    await route(term, ctx, s, prompt)
    return render(term, s)


async def route(term: Term, ctx: Ctx, s: Summary, prompt: str) -> None:
    low = prompt.lower()
    w = ctx.subject[0] if ctx.subject else ""
    tid = re.search(r"\btrace\s+(?:id\s+)?([0-9a-f]{6,}|[a-z]*\d[\w-]*)", low)
    if tid and term.has("traces_query"):
        await trace_play(term, s, tid.group(1))
    elif "runbook" in low:
        await runbook(term, ctx, s, w, prompt)
    elif "canary" in low and w:
        await canary(term, ctx, s, w.replace("-canary", ""), prompt)
    elif "highly available" in low or "survive node" in low:
        await ha(term, ctx, s, w)
    elif ("rolling update" in low or "new image" in low or "rollout" in low) and w:
        await rolling(term, ctx, s, w)
    elif re.search(r"\b(\d+(?:\.\d+)?)\s*x\b", low) and w:
        factor = float(re.search(r"\b(\d+(?:\.\d+)?)\s*x\b", low).group(1))
        await capacity(term, ctx, s, w, factor)
    elif parse_keys(prompt) or (
        re.search(r"\breplicas?\b|\bscale\b", low) and re.search(r"\bto\s+\d+", low)
    ):
        await changes(term, ctx, s, prompt)
    elif re.search(r"\brestart\b", low) and w and not re.search(r"keeps? restarting", low):
        await restart(term, ctx, s, w, why="do the restart the request asks for")
        await verify(term, ctx, s, w)
    elif re.search(r"who should|loop in|who owns|who to", low) and w:
        await ownership(term, ctx, s, w)
        await quick_state(term, ctx, s, w)
    elif re.search(r"\bhealth\b|how is .* doing|anything to worry", low) and w:
        await checkup(term, ctx, s, w)
    elif len(ctx.subject) >= 2 and re.search(r"reach|connect|talk to|network", low):
        await reach(term, ctx, s, prompt)
    else:
        await diagnose(term, ctx, s, w, prompt)


async def changes(term: Term, ctx: Ctx, s: Summary, prompt: str) -> None:
    """Config keys and replica counts the request sets, then a restart where asked to pick up."""
    want = parse_keys(prompt)
    if want:
        text = await term.k(
            f"get configmaps -n {ctx.ns} -o yaml",
            f"which config map holds {', '.join(want)}",
            keep=["name:", *want],
        )
        named = [c for c in re.findall(r"^\s+name:\s+(\S+)", text, re.M) if spelled(prompt, c)]
        holders = [m for m in re.findall(r"\n(?=\S)|^\s+name:\s+(\S+)", text, re.M) if m]
        cm = named[0] if named else _holder(text, want) or (holders[0] if holders else "")
        term.note(f"{', '.join(want)} live in config map {cm}")
        changed = await patch_config(term, ctx, s, cm, want)
        users = [d for d in ctx.subject if d != cm]
        if changed and users and re.search(r"pick(?:s)? up|restart|reload|roll", prompt, re.I):
            for w in users:
                if not await restart(
                    term,
                    ctx,
                    s,
                    w,
                    why=f"make {w} pick up the change (it reads {cm} only at start)",
                ):
                    await patch_config(term, ctx, s, cm, changed, restore=True)
                    s.notes.append(
                        f"{cm} set back to "
                        + ", ".join(f"{k}={v}" for k, v in changed.items())
                        + f", so config and {w} agree again: the state is as before the request."
                    )
                    return
                await verify(term, ctx, s, w)
    for w, n in re.findall(
        r"\b(?:scale\s+)?([a-z][\w-]+)\s+(?:replicas\s+)?to\s+(\d+)", prompt, re.I
    ):
        name = (
            w
            if w in [d["name"] for d in ctx.deployments]
            else (ctx.subject[0] if ctx.subject else "")
        )
        if name:
            await _scale_asked(term, ctx, s, name, int(n))


def _holder(text: str, want: dict[str, str]) -> str:
    for block in re.split(r"\n- apiVersion|\n- data:|\n-\s", text):
        name = re.search(r"^\s+name:\s+(\S+)", block, re.M)
        if name and all(re.search(rf"^\s+{k}:", block, re.M) for k in want):
            return name.group(1)
    return ""


async def _scale_asked(term: Term, ctx: Ctx, s: Summary, w: str, n: int) -> None:
    if ctx.env.lower().startswith("prod"):
        s.notes.append(
            f"{ctx.ns} is a production namespace (env={ctx.env}): scaled with a server dry run"
            f" first and checked the replicas after, one step, nothing else touched."
        )
    await scale(term, ctx, s, w, n, f"the request asks for {n} replicas of {w}")


async def quick_state(term: Term, ctx: Ctx, s: Summary, w: str) -> None:
    rows = ctx.pods_of(w)
    bad = [r for r in rows if r.get("ready", "").startswith("0/") or r.get("status") != "Running"]
    ev = await term.k(
        f"get events -n {ctx.ns}", f"what {w}'s issue looks like, for the hand-off", keep=[w]
    )
    probe = [ln for ln in ev.splitlines() if w in ln and "Readiness" in ln]
    if probe:
        term.note(
            f"{w} pod fails its readiness probe (HTTP 503): {len(bad)}/{len(rows)} pod(s) not ready"
        )
    s.notes.append(
        f"What to tell them: {w} has {len(bad)} of {len(rows)} pod(s) not ready"
        + (" (readiness probe failing with 503)." if probe else ".")
    )


async def checkup(term: Term, ctx: Ctx, s: Summary, w: str) -> None:
    rows = ctx.pods_of(w)
    term.note(
        f"{w}: {len(rows)} pod(s), "
        + ", ".join(f"{r['name']} {r.get('ready')} {r.get('status')}" for r in rows)
    )
    if term.has("metrics_query"):
        await alerts(term, f"any alert on {w} right now")
        await health(term, ctx, s, w)
        again = await alerts(term, "re-check alerts before answering")
        firing = [a for a in again if a.get("state") == "firing"]
        for a in firing:
            name = a.get("labels", {}).get("alertname", "alert")
            term.note(
                f"alert {name} is firing for {a.get('labels', {}).get('service', w)}: follow it up"
            )
            term.trigger = f"alert {name}"
            await term.run(
                "metrics_query",
                f"alert {name} fired: check {w}'s memory now",
                ["pod", "value"],
                action="query",
                query=f'container_memory_working_set_bytes{{namespace="{ctx.ns}",pod=~"{w}-.*"}}',
            )
            await term.k(
                f"top pods -n {ctx.ns}", f"alert {name}: live memory of {w} pods", keep=[w]
            )
            await term.k(
                f"describe deployment {w} -n {ctx.ns}",
                f"alert {name}: {w}'s memory limit",
                keep=["memory:"],
            )
            s.notes.append(
                f"Alert {name} fired while I was checking; the reads after it were for that alert."
            )
            term.trigger = "operator request"
    if not s.cause:
        s.notes.append(f"Health of {w}: pods as listed above; nothing more urgent read.")


async def reach(term: Term, ctx: Ctx, s: Summary, prompt: str) -> None:
    names = sorted(
        ctx.subject,
        key=lambda n: (
            prompt.lower().find(n.replace("-", " "))
            if n in prompt.lower()
            else prompt.lower().find(n)
        ),
    )
    src, dst = names[0], names[1]
    await term.k(f"get svc,endpoints -n {ctx.ns}", f"{dst}'s service and endpoints", keep=[dst])
    found = await network(term, ctx, s, src, dst)
    if not found:
        s.escalate = f"the network owners: no policy in {ctx.ns} blocks {src} -> {dst}, and {dst} has endpoints"
        return
    await policy_fix(term, ctx, s, found, src, dst)


async def diagnose(term: Term, ctx: Ctx, s: Summary, w: str, prompt: str) -> None:
    if not w and ctx.bare_pods:
        w = ctx.bare_pods[0]
    if not w:
        hops = await chain(term, ctx, prompt)
        behind = [d["name"] for d in ctx.deployments if d["name"] in hops]
        if not behind:
            s.escalate = "the service owners: the request names no workload I can find here"
            return
        w = behind[0]
        s.notes.append(
            f"Chain: ingress -> service {w} (no endpoints) -> deployment {w} (no ready pods)."
        )
    f = await incident(term, ctx, s, w)
    s.cause = f.cause
    s.ruled_out.extend(f.ruled_out)
    fix = asks_fix(prompt)
    if f.kind == "pending":
        await pending(term, ctx, s, w, f.data.get("sched", ""))
    elif f.data.get("log_kind") == "schema" or (
        "migration" in prompt.lower() and term.has("database")
    ):
        await migration(term, ctx, s, w, f.data.get("log_msg", ""))
    elif (
        fix and not ctx.hold and (f.kind == "transient" or (f.data.get("unready") and not f.cause))
    ):
        await act(term, ctx, s, w, f)
        s.cause = f.cause
    elif fix and ctx.hold and f.kind == "oom":
        lim = f.data.get("limit") or "its limit"
        s.plan = [
            f"raise {w}'s memory limit from {lim} to twice that (and its request to match)",
            f"roll it out and watch {w}'s memory and restarts for an hour",
        ]
        s.escalate = (
            f"an approver for {ctx.ns}: {ctx.hold}. Recommendation: raise {w}'s memory limit from"
            f" {lim} (it is OOMKilled at it, {f.data.get('restarts', '?')} restarts); I have not changed it"
        )
    elif not s.cause:
        unsure(term, ctx, s, w, f)


def unsure(term: Term, ctx: Ctx, s: Summary, w: str, f: Any) -> None:
    facts = [f'"{f.data["log_msg"]}" in its logs'] if f.data.get("log_msg") else []
    for k, v in f.data.items():
        if f"normal_{k}" in f.data:
            facts.append(f"{k} {v} against a normal {f.data['normal_' + k]}")
        elif k == "error_rate":
            facts.append(f"error rate {float(v):.1%}")
    if f.data.get("setting"):
        facts.append(f"{f.data['setting']}")
    s.cause = ""
    s.notes.append(
        f"Root cause: not established. I can't pin {w}'s problem on one cause: "
        + ("; ".join(facts) or "its pods, events and logs show no error")
        + ", but nothing I read"
        " says which upstream or why, so I changed nothing rather than guess."
    )
    owner = next((v for k, v in ctx.owners), f"the {w} owners")
    s.escalate = (
        f"{owner} (on-call for {w}): "
        + ("; ".join(facts) or "no signal found")
        + "; needs someone who can see the upstreams"
    )


def render(term: Term, s: Summary) -> str:
    return "\n".join(term.render() + s.render()).strip() + "\n"
