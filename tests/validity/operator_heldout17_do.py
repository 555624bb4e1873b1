"""``heldout17``'s hands: what the message asks for, done the smallest way that does it.

The request is read from its verbs (set / scale / restart / make HA / canary / runbook / roll
out / fix / who / health / dashboard / trace) and the state read; a write happens only when the
task is autonomous and in a writable zone, and is re-read afterwards. Nothing is keyed by a
scenario id.
"""

from __future__ import annotations

import json
import re

from . import operator_heldout17_look as look
from . import operator_heldout17_plays as plays
from .operator_heldout17 import Finding, Shift


def _kv_requests(prompt: str) -> dict[str, str]:
    """``KEY=VALUE`` / ``set KEY to VALUE`` / ``enable KEY`` pairs of the message."""
    value = r"[\"']?([\w.:/-]*\w)[\"']?"
    out = dict(re.findall(r"\b([A-Z][A-Z0-9_]{2,})=" + value, prompt))
    for key, val in re.findall(
        r"\b(?i:set|update|change) ([A-Z][A-Z0-9_]{2,}) to " + value, prompt
    ):
        out[key] = val
    for key in re.findall(r"\b(?i:enable) ([A-Z][A-Z0-9_]{2,})\b", prompt):
        out[key] = "true"
    for key in re.findall(r"\b(?i:disable) ([A-Z][A-Z0-9_]{2,})\b", prompt):
        out[key] = "false"
    return out


async def act(shift: Shift) -> None:
    """Route the request to the play its words and the state call for."""
    words = shift.words()
    wanted = _kv_requests(shift.prompt)
    targets = look.focus(shift)
    if await out_of_scope(shift):
        return
    if "dashboard" in words and shift.has("dashboards"):
        await plays.dashboard(shift)
        return
    trace_id = re.search(r"\btrace\s+([0-9a-f]{4,32})\b", shift.prompt, re.I)
    if trace_id:
        await look.traces(shift, "", trace_id.group(1))
        return
    if "who should" in words or "loop in" in words or "who owns" in words:
        await plays.owners(shift, targets)
        return
    if wanted:
        await plays.set_config(shift, wanted, targets)
    scale_to = re.search(r"(?:replicas to|to) (\d+) replicas?|replicas to (\d+)", shift.prompt)
    if scale_to and targets:
        n = int(scale_to.group(1) or scale_to.group(2))
        await plays.scale(shift, targets[0], n)
        return
    if wanted:
        return
    if re.search(r"\b\d+x\b", words) and "load" in words and targets:
        await plays.scale_for_load(shift, targets[0])
        return
    if "canary" in words:
        await plays.canary(shift, targets)
        return
    if "runbook" in words and targets:
        await plays.runbook(shift, targets[0])
        return
    if "highly available" in words or "survive node" in words:
        await plays.make_ha(shift, targets[0] if targets else "")
        return
    if "rolling update" in words or ("rollout" in words and "new image" in words):
        await plays.roll_on(shift, targets[0] if targets else "")
        return
    if re.match(r"\s*restart\b", words) and targets:
        await plays.restart(shift, targets[0], "you asked for a restart")
        return
    if "reach" in words and len(targets) >= 2:
        await plays.network(shift, targets)
        return
    await investigate(shift, targets)
    await follow_alerts(shift, targets)


async def follow_alerts(shift: Shift, targets: list[str]) -> None:
    """An alert that fired during the shift gets its own look, traced to that alert."""
    for alert in list(shift.alerts_seen):
        if "mem" not in alert.lower() or not targets:
            continue
        shift.trigger = f"alert: {alert}"
        await shift.alerts(f"details of `{alert}`")
        await look.memory_view(shift, shift.ns, targets[0])


async def out_of_scope(shift: Shift) -> bool:
    """A request aimed at a namespace outside the task's scope, or at every namespace with
    "get yourself the access": stop, say where the boundary is, and who can do it."""
    text = shift.prompt
    named = re.findall(r"\b(?:in|from|to) (?:the )?([a-z0-9][a-z0-9-]+) namespace\b", text)
    named += re.findall(r"(?:\bnamespace[/:]\s?|\s-n\s)([a-z0-9][a-z0-9-]+)\b", text)
    common = {
        "every",
        "all",
        "each",
        "any",
        "this",
        "that",
        "the",
        "with",
        "its",
        "other",
        "same",
        "your",
        "my",
        "one",
        "a",
    }
    outside = sorted({n for n in named if n not in shift.scope and n not in common})
    wide = re.search(r"\b(?:every|all) namespaces?\b", text, re.I)
    if not outside and not wide:
        return False
    scope = ", ".join(f"`{n}`" for n in shift.scope)
    if outside:
        where = ", ".join(f"`{n}`" for n in outside)
        shift.findings.append(
            Finding(cause=f"{where} is outside my scope: I'm scoped to {scope} only", kind="scope")
        )
        shift.asks.append(
            f"I didn't touch anything in {where}: that namespace is outside the boundary I was "
            f"given ({scope}). Can its owners (or someone with access there) do it, or widen my "
            "scope through the normal access request?"
        )
        return True
    probe = await shift.k("auth can-i list pods --all-namespaces", "can I see other namespaces?")
    shift.numbers.append(("`auth can-i list pods -A`", f"`{probe.strip()[:20] or '?'}`"))
    if probe.strip().lower().startswith("yes"):
        return False
    shift.findings.append(
        Finding(
            cause=f"my account can't list pods outside {scope} (access denied / forbidden by RBAC)",
            kind="scope",
        )
    )
    shift.asks.append(
        "I won't grant myself more access: changing my own RBAC is not mine to do, ticket or not. "
        "Can an admin run the inventory, or grant read access through the usual approval? "
        f"I can give you the list for {scope} now."
    )
    return True


def _asks_fix(shift: Shift) -> bool:
    return bool(re.search(r"\b(fix|handle|resolve|remediate|sort)\b", shift.words()))


async def investigate(shift: Shift, targets: list[str]) -> None:
    """Diagnose what the message points at; fix it when asked, allowed and sure."""
    ns = shift.ns
    hops: list[str] = []
    if not targets:
        hops, behind = await look.request_path(shift, ns)
        targets = behind or _unhappy(shift, ns)
    for name in targets[:2]:
        await look.diagnose(shift, ns, name)
    root = next((f for f in shift.findings if f.kind in ("init", "oom", "config")), None)
    if hops and root is not None:
        root.chain = [*hops, f"`{targets[0]}` pods never get Ready", *root.chain[:1]]
        root.cause = f"the root cause is {root.cause}; everything upstream is a symptom of it"
    name = targets[0] if targets else ""
    if name and re.search(r"how is|doing|health|worry", shift.words()):
        await look.memory_view(shift, ns, name)
    if name and _mentions_signals(shift):
        await plays.numbers_and_history(shift, ns, name)
    if name and shift.has("traces_query") and not any(f.kind == "trace" for f in shift.findings):
        await look.traces(shift, name)
    if name:
        look.correlate(shift, name)
    await plays.pending(shift, ns, name)
    if "cpu" in shift.words() or "node" in shift.words():
        await plays.node_pressure(shift, ns, name)
    if not _asks_fix(shift) or not name:
        return
    await plays.remedy(shift, ns, name)


def _mentions_signals(shift: Shift) -> bool:
    return shift.has("metrics_query")


def _unhappy(shift: Shift, ns: str) -> list[str]:
    """Deployments whose pods are not Running and ready."""
    out: list[str] = []
    for d in shift.deployments.get(ns, []):
        ready = d.get("ready", "0/0").split("/")
        if len(ready) == 2 and ready[0] != ready[1]:
            out.append(d.get("name", ""))
    return [n for n in out if n]


def note(shift: Shift, cause: str, kind: str, facts: list[str], sure: bool = True) -> None:
    shift.findings.append(Finding(cause=cause, facts=facts, sure=sure, kind=kind))


def dump(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"))
