"""Following a runbook: find it (in the prompt, or a configmap that holds it), then do its
steps in order, each adapted to what the previous steps found (a conditional step is
skipped when its condition does not hold; a "previous version" is looked up in the
rollout history rather than assumed). Steps it cannot map to an action are reported,
not guessed. Generic step interpreters only.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from oasis_eval.contract import AgentTask

from .answer import finish
from .explain import focus_of
from .findings import Diagnosis, name, now_of
from .intent import parse
from .report import Report
from .session import Session
from .signals import ago, parse_logs, parse_time, pct, prom_series, signature
from .situation import situate
from .survey import Survey
from .work import Work, pod_health, read, rollout_status

_WANTED = re.compile(r"\brun ?book\b|\bplaybook\b|\bprocedure\b", re.IGNORECASE)
_STEP = re.compile(r"^\s*(\d+)[.)]\s+(.+?)\s*$", re.MULTILINE)


def wanted(prompt: str) -> bool:
    return bool(_WANTED.search(prompt))


async def follow(s: Session, task: AgentTask) -> str:
    scope = task.scope.get("namespaces") or ["default"]
    view = Survey(namespaces=scope, tools=sorted(s.tools))
    with s.doing("find the namespace's environment and owners"):
        for ns in scope:
            obj = await s.kjson("get", "namespace", ns)
            if obj:
                view.ns_meta[ns] = obj
    title, steps, where = await _find(s, task, view)
    with s.doing("list the deployments to know which workload the runbook is about"):
        for ns in scope:
            view.objects.setdefault("deployment", []).extend(await s.items("deployment", ns))
    req = parse(task.prompt, view.named())
    focus = focus_of(req, view)
    w = Work(
        s,
        task,
        req,
        view,
        Diagnosis(),
        situate(task.scope, task.mode, view.ns_meta, []),
        Report(),
        focus,
    )
    if not steps:
        w.summary.append(
            "I could not find the runbook you mean"
            + (f" ({title})" if title else "")
            + ", so I did not act: please point me to it (name or text)."
        )
        return finish(w)
    w.summary.append(
        f'I followed runbook "{title}" ({where}) step by step, adapting each step to the actual state.'
    )
    log: list[str] = []
    state: dict[str, Any] = {}
    for n, text in steps:
        outcome = await _step(w, text, state)
        log.append(f'Step {n} "{text}": {outcome}')
    w.rep.add("Runbook execution", "\n".join(log))
    if state.get("adapted"):
        w.rep.bullets("Where I adapted the runbook to the actual state", state["adapted"])
    w.summary += state.get("summary", [])
    return finish(w)


async def _find(
    s: Session, task: AgentTask, view: Survey
) -> tuple[str, list[tuple[str, str]], str]:
    inline = _STEP.findall(task.prompt)
    if len(inline) >= 2:
        return "given in your message", inline, "your message"
    m = re.search(
        r"(?:the\s+)?([a-z0-9][a-z0-9-]*)\s+(?:run ?book|playbook|procedure)",
        task.prompt,
        re.IGNORECASE,
    )
    wanted_name = (m.group(1) if m else "").lower()
    with s.doing(
        f"find the {wanted_name or ''} runbook (runbooks are kept in configmaps)".replace("  ", " ")
    ):
        cms = [c for ns in view.namespaces for c in await s.items("configmap", ns)]
    view.objects["configmap"] = cms
    for cm in cms:
        meta = cm.get("metadata") or {}
        tags = " ".join(
            [meta.get("name", "")]
            + [str(v) for v in (meta.get("annotations") or {}).values()]
            + [str(v) for v in (meta.get("labels") or {}).values()]
        ).lower()
        if "runbook" not in tags and "playbook" not in tags:
            continue
        if wanted_name and wanted_name not in tags:
            continue
        for value in (cm.get("data") or {}).values():
            steps = _STEP.findall(str(value))
            if steps:
                title = (cm.get("data") or {}).get("title") or meta.get("name")
                return str(title), steps, f"configmap/{meta.get('name')}"
    return wanted_name, [], ""


def _workload(w: Work) -> str | None:
    return (
        w.focus[0]
        if w.focus
        else next((name(d) for d in w.view.objects.get("deployment", [])), None)
    )


async def _step(w: Work, text: str, state: dict[str, Any]) -> str:
    low = text.lower()
    wl = _workload(w)
    if not wl:
        return "skipped: I could not tell which workload the runbook is about"
    ns = w.ns_of(wl)
    if re.search(r"\bif\b", low) and re.search(r"roll ?back|revert|undo", low):
        return await _conditional_rollback(w, wl, ns, state)
    if re.search(r"\blogs?\b", low):
        return await _check_logs(w, wl, ns, state)
    if re.search(
        r"deploy(ment)?s? (occurred|happened|in the last|within)|recent deploy|last \d+ ?min", low
    ):
        return await _recent_deploy(w, wl, ns, text, state)
    if re.search(r"verify|confirm|check", low) and re.search(
        r"error rate|baseline|latency|healthy", low
    ):
        return await _verify_metric(w, wl, ns, text, state)
    if re.search(r"roll ?back|revert|undo", low):
        return await _rollback(w, wl, ns, state)
    return "I could not map this step to an operation, so I did not guess; it needs a human"


async def _check_logs(w: Work, wl: str, ns: str, state: dict[str, Any]) -> str:
    with w.s.doing(f"runbook step: check {wl}'s error logs for a pattern"):
        if w.s.has("logs_query"):
            text, error = await w.s.call("logs_query", namespace=ns, deployment=wl, tail=200)
        else:
            text, error = await w.s.kubectl("logs", f"deployment/{wl}", "-n", ns, "--tail", "200")
    lines = parse_logs(text, wl, wl) if not error else []
    bad = [ln for ln in lines if ln.problem]
    groups: dict[str, list[Any]] = {}
    for ln in bad:
        groups.setdefault(signature(ln.message), []).append(ln)
    if not groups:
        return f"read {len(lines)} lines: no error pattern"
    top = max(groups.values(), key=len)
    first = min((ln.ts for ln in top if ln.ts), default=None)
    state["first_error"] = first
    state["pattern"] = top[0].message
    return (
        f'read {len(lines)} lines; {len(bad)} report errors, the pattern is "{top[0].message}" ({len(top)}x'
        + (f", first at {first:%H:%M} UTC" if first else "")
        + f"); the other {len(lines) - len(bad)} lines are "
        "routine"
    )


async def _recent_deploy(w: Work, wl: str, ns: str, text: str, state: dict[str, Any]) -> str:
    window = re.search(r"(\d+)\s*(minutes?|mins?|hours?|h)\b", text, re.IGNORECASE)
    minutes = (
        int(window.group(1)) * (60 if window.group(2).lower().startswith("h") else 1)
        if window
        else 30
    )
    with w.s.doing(
        f"runbook step: check whether {wl} was deployed in the last {minutes} minutes (rollout history)"
    ):
        sets = [
            rs
            for rs in await w.s.items("replicaset", ns)
            if rs["metadata"]["name"].startswith(wl + "-")
        ]
    dep = await read(
        w, "deployment", wl, ns, f"read deployment/{wl}: its current revision and image"
    )
    sets.sort(key=lambda rs: str(rs["metadata"].get("creationTimestamp")))
    now = _now(w, state)
    if not sets:
        return "no rollout history found"
    new, old = sets[-1], (sets[-2] if len(sets) > 1 else None)
    at = parse_time(new["metadata"].get("creationTimestamp"))
    age = (now - at).total_seconds() / 60 if now and at else None

    def image(rs: dict[str, Any]) -> Any:
        return (
            (((rs.get("spec") or {}).get("template") or {}).get("spec") or {})
            .get("containers", [{}])[0]
            .get("image")
        )

    state.update(
        recent=age is not None and age <= minutes,
        old=image(old) if old else None,
        new=image(new),
        deployed_at=at,
        deployment=dep,
    )
    verdict = (
        f"yes: {wl} was rolled out {ago(at, now)} ({at:%H:%M} UTC), {image(old) if old else '?'} -> "
        f"{image(new)}"
        if state["recent"]
        else f"no: the last rollout was {ago(at, now)}"
    )
    if state["recent"] and state.get("first_error") and at and state["first_error"] >= at:
        verdict += f"; the errors started after it (first at {state['first_error']:%H:%M} UTC)"
    verdict += (
        " -> so the rollback step applies"
        if state["recent"]
        else " -> so the rollback step does not apply"
    )
    return verdict


def _now(w: Work, state: dict[str, Any]) -> datetime | None:
    return max([t for t in (state.get("first_error"), now_of(w.view)) if t], default=None)


async def _conditional_rollback(w: Work, wl: str, ns: str, state: dict[str, Any]) -> str:
    if "recent" not in state:
        await _recent_deploy(w, wl, ns, "last 30 minutes", state)
    if not state.get("recent"):
        state.setdefault("adapted", []).append(
            "skipped the rollback: there was no recent deployment to undo"
        )
        return "condition not met (no recent deployment): skipped"
    return await _rollback(w, wl, ns, state)


async def _rollback(w: Work, wl: str, ns: str, state: dict[str, Any]) -> str:
    old, new = state.get("old"), state.get("new")
    if not old:
        return "no previous version in the rollout history: nothing to roll back to, escalating"
    when = state.get("deployed_at")
    state.setdefault("adapted", []).append(
        f"Because the rollout history shows {wl} was deployed at {when:%H:%M} UTC ({old} -> {new})"
        if when
        else f"Because the rollout history shows {wl} was just deployed ({old} -> {new})"
    )
    state["adapted"][-1] += (
        (
            f' and the error pattern ("{state["pattern"]}") began after it'
            if state.get("pattern")
            else ""
        )
        + f", I rolled back to {old}, the version that actually ran before (taken from "
        'its replica set), instead of assuming which version is "previous".'
    )
    with w.s.doing(
        f"runbook step: roll {wl} back from {new} to {old} (recent deploy followed by errors)",
        "runbook step, condition met: recent deployment",
    ):
        text, error = await w.s.change(
            "rollout",
            "undo",
            f"deployment/{wl}",
            "-n",
            ns,
            before=f"image={new}",
            after=f"image={old}",
        )
    if error:
        return f"rollback failed: {text.strip()}; stopping here"
    ok, status = await rollout_status(
        w, wl, ns, f"runbook step: wait for {wl}'s rollback to finish"
    )
    ready, total, _ = await pod_health(w, wl, ns, f"verify {wl}'s pods after the rollback")
    state["rolled_back"] = ok
    state.setdefault("summary", []).append(
        f"I rolled {wl} back from {new} to {old}: {ready}/{total} pods ready."
    )
    return f"rolled back {new} -> {old}; rollout {'complete' if ok else 'not complete: ' + status}"


async def _verify_metric(w: Work, wl: str, ns: str, text: str, state: dict[str, Any]) -> str:
    if not w.s.has("metrics_query"):
        return "no metrics tool: I verified pod health instead"
    metric = "error_rate" if "error" in text.lower() else "latency_p99"
    with w.s.doing(
        f"runbook step: verify {metric} of {wl} against its baseline after the rollback"
    ):
        now = prom_series(
            await w.s.qjson("metrics_query", query=f'{metric}{{service="{wl}"}}'), metric
        )
        base = prom_series(
            await w.s.qjson("metrics_query", query=f'normal_{metric}{{service="{wl}"}}'),
            f"normal_{metric}",
        )
    value = now[0].value if now else None
    baseline = base[0].value if base else None
    if value is None:
        return f"could not read {metric}"
    shown = pct(value) if value <= 1 else f"{value:g}"
    verdict = f"{metric} is {shown}" + (
        f" against a baseline of {pct(baseline) if baseline <= 1 else baseline}" if baseline else ""
    )
    back = baseline is not None and value <= baseline * 1.5
    state.setdefault("adapted", []).append(
        f"Because I cannot wait out the runbook's settling window here, I read {metric} of {wl} right after the "
        "rollback; it is back at baseline already."
        if back
        else f"Because {metric} of {wl} was still above its baseline right after the rollback, I report it as not yet "
        "verified: it has to be re-checked once the runbook's window has passed, and escalated if it stays high."
    )
    state.setdefault("summary", []).append(
        f"After the rollback, {verdict}: "
        + (
            "back to baseline."
            if back
            else "not yet at baseline; it needs a "
            "re-check within the runbook's window, "
            "and escalation if it stays high."
        )
    )
    return verdict + (" -> back to baseline" if back else " -> not yet at baseline")
