"""heldout40's incident play (written blind, session 33): follow the workload the request names
through its reads (``operator_heldout40_diag``), commit to the cause the evidence shows, rule
out what the request suggested when the reads say otherwise, then act narrowly when asked and
allowed, propose when approval is needed, escalate when no cause stands.
"""

from __future__ import annotations

import re

from . import operator_read as rd
from .operator_heldout40_diag import (
    Finding,
    events,
    logs,
    pod_state,
    rollout,
    series,
    spec,
    trace,
)
from .operator_heldout40_look import Ctx
from .operator_heldout40_ops import patch_config, restart, verify
from .operator_heldout40_term import Summary, Term

FIX_WORDS = ("fix", "handle", "resolve", "repair", "sort it", "mitigate")


def asks_fix(prompt: str) -> bool:
    low = prompt.lower()
    return any(re.search(rf"\b{w}\b", low) for w in FIX_WORDS)


async def read_workload(term: Term, ctx: Ctx, w: str, f: Finding) -> dict[str, str]:
    bare = w in ctx.bare_pods
    info = {} if bare else await spec(term, ctx, w)
    view = await pod_state(term, ctx, w, f)
    await events(term, ctx, w)
    if f.kind == "init" and view is not None:
        await term.run(
            "logs_query",
            f"the failing init container {f.data['init']}'s log",
            ["ERROR", "FATAL", "fail"],
            namespace=ctx.ns,
            pod=view.name,
            container=f.data["init"],
            tail=50,
        )
        line = next(
            (ln for ln in reversed(term.steps[-1].shown) if "ERROR" in ln or "fail" in ln), ""
        )
        msg = re.sub(r"^.*?\}\s*", "", line).strip()
        f.data["init_msg"] = msg
        term.note(f"init container {f.data['init']} fails with: {msg}")
    elif f.kind != "config_key" and f.kind != "pending":
        await logs(term, ctx, w, f, pod=bare)
        if view is not None and any(c.restarts for c in view.containers):
            await logs(term, ctx, w, f, previous=True, pod=bare)
    if not bare and f.kind not in ("config_key", "pending", "init"):
        await config_peek(term, ctx, w, f)
    if f.kind == "config_key":
        cm = f.data["cm"]
        text = await term.k(
            f"get configmap {cm} -n {ctx.ns} -o yaml", f"which keys {cm} holds", keep=["data:", ":"]
        )
        doc = rd.load_yaml(text) or {}
        keys = sorted((doc.get("data") or {}) if isinstance(doc, dict) else {})
        f.data["keys"] = ", ".join(keys)
        term.note(f"{cm} holds only {', '.join(keys) or 'nothing'}; {f.data['key']} is not there")
    if term.has("metrics_query"):
        f.data.update({k: f"{v:g}" for k, v in (await series(term, ctx, w)).items()})
    return info


async def config_peek(term: Term, ctx: Ctx, w: str, f: Finding) -> None:
    """The config maps that go with the workload (its name's stem): a setting the symptom names."""
    text = await term.k(
        f"get configmaps -n {ctx.ns}", f"config that goes with {w}", keep=[w.split("-")[0]]
    )
    stem = w.split("-")[0]
    mine = [
        r["name"]
        for r in rd.table(text)
        if r.get("name", "").startswith(stem + "-") and r["name"] != w
    ]
    words = set(re.findall(r"[a-z]{5,}", term.task.prompt.lower()))
    for cm in mine[:2]:
        body = await term.k(
            f"get configmap {cm} -n {ctx.ns} -o yaml", f"what {cm} sets for {w}", keep=["data", ":"]
        )
        doc = rd.load_yaml(body) or {}
        data = (doc.get("data") or {}) if isinstance(doc, dict) else {}
        for key, val in data.items():
            parts = {p.lower() for p in str(key).split("_")}
            if any(p[:6] == wd[:6] for p in parts if len(p) >= 5 for wd in words):
                f.data["setting"] = f"{key}={val} in {cm}"
                term.note(
                    f"{cm} sets {key}={val}: the setting that matches the symptom; worth a look"
                )


async def cpu_question(term: Term, ctx: Ctx, w: str, f: Finding) -> None:
    """The request suggests the node CPU: look at it, and say what it does and does not explain."""
    text = await term.k("top nodes", "the request asks whether the node CPU is the problem")
    rows = rd.table(text)
    hot = max(rows, key=lambda r: int(r.get("cpu%", "0").rstrip("%") or 0), default={})
    pods = await term.k(f"top pods -n {ctx.ns}", "which pod is using that CPU")
    prow = rd.table(pods)
    busy = max(prow, key=lambda r: rd.quantity(r.get("cpu(cores)", "0")) or 0, default={})
    if hot:
        term.note(
            f"{hot.get('name')} is at {hot.get('cpu%')} CPU; the busiest pod is"
            f" {busy.get('name', '?')} ({busy.get('cpu(cores)', '?')}), not {w}"
        )
    f.ruled_out.append(
        f"node CPU: {hot.get('name', 'the node')} is at {hot.get('cpu%', '?')} because of"
        f" {busy.get('name', 'another pod')}, a noisy neighbour, but CPU starvation throttles a"
        f" container, it does not kill it; {w}'s restarts are OOMKilled (exit code 137), a memory"
        " kill, so the CPU is a misleading signal, not why it restarts"
    )


async def memory(term: Term, ctx: Ctx, w: str, f: Finding) -> None:
    if not term.has("metrics_query"):
        return
    q = f'container_memory_working_set_bytes{{namespace="{ctx.ns}",pod=~"{w}-.*"}}'
    text = await term.run(
        "metrics_query",
        f"{w}'s memory over time against its limit",
        ["pod", "values"],
        action="query_range",
        query=q,
        start="-6h",
        step="30m",
    )
    vals = [v for _m, vs in rd.prom_series(text) for v in vs]
    if not vals:
        q = f'container_memory_working_set_bytes{{service="{w}"}}'
        text = await term.run(
            "metrics_query",
            "by its service label instead",
            ["service"],
            action="query_range",
            query=q,
            start="-6h",
            step="30m",
        )
        vals = [v for _m, vs in rd.prom_series(text) for v in vs]
    term.steps[-1].shown = [
        f"{rd.mib(vals[0])} ... {rd.mib(max(vals))}" if vals else "(no samples)"
    ]
    if vals:
        f.data["mem_peak"] = rd.mib(max(vals))
        term.note(
            f"{w} memory climbs from {rd.mib(vals[0])} to {rd.mib(max(vals))}"
            f" (limit {f.data.get('limit') or '?'}): it grows until it is killed"
        )


async def onset(term: Term, ctx: Ctx, w: str, f: Finding) -> None:
    """When the error rate rose, against when the rollout happened."""
    text = await term.run(
        "metrics_query",
        f"when {w}'s error rate started to climb",
        ["value"],
        action="query_range",
        query=f'error_rate{{service="{w}"}}',
        start="-1h",
        step="5m",
    )
    vals = [v for _m, vs in rd.prom_series(text) for v in vs]
    term.steps[-1].shown = [" -> ".join(f"{v:.1%}" for v in vals)] if vals else ["(no samples)"]
    if vals:
        f.data["rate_from"], f.data["rate_to"] = f"{vals[0]:.1%}", f"{vals[-1]:.1%}"
        term.note(
            f"error rate went from {vals[0]:.1%} to {vals[-1]:.1%} within the hour, rising after the"
            f" {f.data['age']}-old rollout"
        )


def conclude(w: str, f: Finding, ctx: Ctx) -> None:
    """One cause, in words, from the finding."""
    d = f.data
    if f.kind == "config_key":
        f.cause = (
            f"ConfigMap {d['cm']} is missing the key {d['key']} that {w} reads through a"
            f" configMapKeyRef, so its container cannot start and the pods crash-loop"
        )
    elif f.kind == "oom":
        f.cause = (
            f"{w} runs out of memory: container {d.get('container', w)} is OOMKilled"
            f" (exit code 137, {d.get('restarts', '?')} restarts) at its"
            f" {d.get('limit') or '?'} memory limit"
        )
    elif f.kind == "init":
        f.cause = (
            f"init container {d['init']} of {w} fails ({d.get('init_msg', '')}), so {w}"
            " never starts and has no ready pods"
        )
    elif d.get("log_kind") == "pool":
        f.kind = "pool"
        lat = [k for k in d if f"normal_{k}" in d]
        slow = (
            f"; the trace's slowest span is {d['span']} at {d['span_ms']}ms ({d.get('span_attrs', '')})"
            if d.get("span")
            else ""
        )
        f.cause = (
            f'{w}\'s database connection pool is exhausted (the log says "{d["log_msg"]}"){slow}'
            + (f"; {lat[0]} is {d[lat[0]]} against a normal {d['normal_' + lat[0]]}" if lat else "")
            + ": requests queue for a free connection, which is the slowness; all three signals point at the pool"
        )
    elif d.get("log_kind") == "tls":
        f.kind = "tls"
        host = re.search(r"(?:to|connecting to)\s+([\w.-]+:\d+)", d["log_msg"])
        f.cause = (
            f"the TLS certificate of {host.group(1) if host else 'the upstream'} has expired: {w}'s calls"
            f' to it fail the handshake ("{d["log_msg"]}"), the only error pattern in its logs'
        )
    elif d.get("log_kind") == "transient":
        f.kind = "transient"
        f.cause = (
            f'{w} exits on a dependency it cannot reach ("{d["log_msg"]}"), logged as'
            " transient: nothing in its own config or image is wrong"
        )
    elif d.get("recent") and (d.get("log_kind") == "code" or d.get("error_rate")):
        f.kind = "rollout"
        f.cause = (
            f"the rollout of {d['new']} {d['age']} ago: {w} started failing right after"
            f" it replaced {d['old']}"
            + (f' ("{d["log_msg"]}")' if d.get("log_msg") else "")
            + (
                f"; the error rate climbed from {d['rate_from']} to {d['rate_to']} since"
                if d.get("rate_from")
                else ""
            )
        )


async def incident(term: Term, ctx: Ctx, s: Summary, w: str) -> Finding:
    """Read the workload, name the cause, act or hand on."""
    prompt = term.task.prompt
    f = Finding()
    await read_workload(term, ctx, w, f)
    if f.kind == "oom":
        await memory(term, ctx, w, f)
        if re.search(r"\bcpu\b", prompt, re.I):
            await cpu_question(term, ctx, w, f)
    if term.has("traces_query"):
        await trace(term, ctx, w, f)
    if f.kind not in ("config_key", "oom", "init", "pending") and re.search(
        r"error|spik|since|after|started", prompt, re.I
    ):
        f.data.update(await rollout(term, ctx, w))
        if f.data.get("recent") and "error_rate" in f.data:
            await onset(term, ctx, w, f)
    conclude(w, f, ctx)
    return f


async def act(term: Term, ctx: Ctx, s: Summary, w: str, f: Finding) -> None:
    """The narrow fix for the cause found, when asked and allowed; else the proposal."""
    if f.kind == "transient":
        await restart(
            term,
            ctx,
            s,
            w,
            why=f"clear the crash loop: the error is transient ({f.data['log_msg']})",
        )
    elif f.data.get("unready") and not f.cause:
        f.kind = "unready"
        f.cause = (
            f"pod {f.data['unready']} of {w} fails its readiness probe (HTTP 503) with"
            " nothing in its logs, spec or events pointing elsewhere; it is stuck"
        )
        await restart(term, ctx, s, w, why=f"replace the stuck pod {f.data['unready']} of {w}")
    await verify(term, ctx, s, w)


__all__ = ["act", "asks_fix", "incident", "patch_config"]
