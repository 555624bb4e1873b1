"""The careful agent's working context and its change primitives.

Every change follows the same discipline: read the object right before changing
it, change only what was asked, record the state before and after, verify the
result, and on a failed step stop and restore what this session changed (then
say so). Generic kubectl; no scenario knowledge.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from oasis_eval.contract import AgentTask

from .findings import Diagnosis, name, workload_of
from .intent import Request
from .reading import Survey
from .report import Report
from .session import OPERATOR, Session
from .situation import Situation


@dataclass
class Work:
    s: Session
    task: AgentTask
    req: Request
    view: Survey
    d: Diagnosis
    sit: Situation
    rep: Report
    focus: list[str] = field(default_factory=list)  # workloads the prompt is about
    summary: list[str] = field(default_factory=list)
    #: undo records of this session's changes, newest last: (description, coroutine factory)
    undo: list[tuple[str, Any]] = field(default_factory=list)

    @property
    def scope(self) -> list[str]:
        return self.sit.namespaces

    def ns_of(self, obj_name: str | None = None) -> str:
        found = self.view.namespace_of(obj_name) if obj_name else None
        return found or self.scope[0]

    def trigger(self) -> str:
        return f'{OPERATOR}: "{" ".join(self.task.prompt.split())[:90]}"'

    def deployment(self, wl: str) -> dict[str, Any] | None:
        return self.view.find("deployment", wl)

    def pods_of(self, wl: str) -> list[dict[str, Any]]:
        return [p for p in self.view.objects.get("pod", []) if workload_of(p) == wl]


# ---- primitives -------------------------------------------------------------------------------------------
async def read(
    w: Work, kind: str, obj: str, ns: str, why: str | None = None
) -> dict[str, Any] | None:
    with w.s.doing(why or f"read the current {kind}/{obj} right before changing it"):
        return await w.s.kjson("get", kind, obj, "-n", ns)


async def rollout_status(w: Work, dep: str, ns: str, why: str | None = None) -> tuple[bool, str]:
    with w.s.doing(why or f"verify that deployment/{dep} rolled out and its pods are ready"):
        text, error = await w.s.kubectl(
            "rollout", "status", f"deployment/{dep}", "-n", ns, "--timeout=120s"
        )
    return (not error and "successfully rolled out" in text), " ".join(text.split())


async def pod_health(
    w: Work, wl: str, ns: str, why: str | None = None
) -> tuple[int, int, list[str]]:
    """(ready, total, problems) of a workload's pods, freshly read."""
    with w.s.doing(why or f"check the pods of {wl} after the change"):
        data = await w.s.kjson("get", "pods", "-n", ns)
    ready, total, problems = 0, 0, []
    for pod in (data or {}).get("items") or []:
        if workload_of(pod) != wl or (pod.get("metadata") or {}).get("deletionTimestamp"):
            continue
        if (pod.get("status") or {}).get("phase") in ("Failed", "Succeeded"):
            continue  # evicted or finished pods are no longer part of the workload
        total += 1
        st = pod.get("status") or {}
        ok = st.get("phase") == "Running" and all(
            cs.get("ready") for cs in st.get("containerStatuses") or [{}]
        )
        ready += ok
        for cs in (st.get("containerStatuses") or []) + (st.get("initContainerStatuses") or []):
            reason = ((cs.get("state") or {}).get("waiting") or {}).get("reason")
            if reason and reason not in ("PodInitializing", "ContainerCreating"):
                problems.append(f"{name(pod)}: {reason}")
        if st.get("phase") == "Pending" and not st.get("containerStatuses"):
            problems.append(f"{name(pod)}: Pending")
    return ready, total, problems


async def step_failure_detail(w: Work, dep: str, ns: str) -> str:
    """What went wrong in a failed rollout: waiting reasons and warning events."""
    _, _, problems = await pod_health(w, dep, ns, f"find out why the rollout of {dep} failed")
    with w.s.doing(f"read the warning events explaining the failed rollout of {dep}"):
        data = await w.s.kjson("get", "events", "-n", ns)
    warnings = []
    for ev in (data or {}).get("items") or []:
        obj = str((ev.get("involvedObject") or {}).get("name", ""))
        if ev.get("type") == "Warning" and obj.startswith(dep):
            warnings.append(" ".join(str(ev.get("message", "")).split())[:200])
    detail = "; ".join(dict.fromkeys(problems)) or "pods not ready"
    if warnings:
        detail += "; events: " + " | ".join(list(dict.fromkeys(warnings))[-2:])
    return detail


def data_text(data: dict[str, Any], keys: list[str]) -> str:
    return ", ".join(f"{k}={data[k]}" if k in data else f"{k} (absent)" for k in keys)


async def patch_configmap(
    w: Work, cm: str, ns: str, settings: dict[str, str]
) -> tuple[str, dict[str, Any] | None]:
    """Set only ``settings`` in configmap ``cm``: ("unchanged" | "patched" | "failed: ...", data before)."""
    obj = await read(
        w, "configmap", cm, ns, f"read configmap/{cm} (current values) before changing it"
    )
    if obj is None:
        return "failed: cannot read it", None
    before = dict(obj.get("data") or {})
    diff = {k: v for k, v in settings.items() if before.get(k) != v}
    if not diff:
        return "unchanged", before
    patch = json.dumps({"data": diff}, sort_keys=True)
    with w.s.doing(
        f"set {', '.join(sorted(diff))} in configmap/{cm} as requested, leaving its other keys as they are",
        w.trigger(),
    ):
        text, error = await w.s.change(
            "patch",
            "configmap",
            cm,
            "-n",
            ns,
            "--type",
            "merge",
            "-p",
            patch,
            before=data_text(before, sorted(diff)),
            after=data_text(diff, sorted(diff)),
        )
    if error:
        return f"failed: {text.strip()}", before
    restore = {k: before.get(k) for k in diff}  # a key that did not exist is removed again (null)

    async def undo() -> bool:
        with w.s.doing(
            f"roll back my change to configmap/{cm}: restore its previous values", "failed step"
        ):
            _, err = await w.s.change(
                "patch",
                "configmap",
                cm,
                "-n",
                ns,
                "--type",
                "merge",
                "-p",
                json.dumps({"data": restore}, sort_keys=True),
                before=data_text(diff, sorted(diff)),
                after=data_text(before, sorted(diff)),
            )
        return not err

    w.undo.append(
        (
            f"configmap/{cm}: {data_text(diff, sorted(diff))} back to {data_text(before, sorted(diff))}",
            undo,
        )
    )
    return "patched", before


async def restart(
    w: Work, dep: str, ns: str, why: str, trigger: str | None = None
) -> tuple[bool, str]:
    """``rollout restart`` and wait for it; on failure the restart itself is undone by the caller."""
    obj = await read(
        w,
        "deployment",
        dep,
        ns,
        f"read deployment/{dep} (revision, ready replicas) before restarting it",
    )
    ready = ((obj or {}).get("status") or {}).get("readyReplicas", 0)
    replicas = ((obj or {}).get("spec") or {}).get("replicas", 0)
    with w.s.doing(why, trigger or w.trigger()):
        text, error = await w.s.change(
            "rollout",
            "restart",
            f"deployment/{dep}",
            "-n",
            ns,
            before=f"{ready}/{replicas} pods ready (current pod template)",
            after="new pods from the same template (restartedAt annotation)",
        )
    if error:
        return False, text.strip()

    async def undo() -> bool:
        with w.s.doing(
            f"roll deployment/{dep} back to the revision that was running before my restart",
            "failed step",
        ):
            _, err = await w.s.change(
                "rollout",
                "undo",
                f"deployment/{dep}",
                "-n",
                ns,
                before="the restarted revision (not becoming ready)",
                after="the previous revision, which was running",
            )
        return not err

    w.undo.append((f"deployment/{dep}: back to the revision before the restart", undo))
    return await rollout_status(w, dep, ns)


async def roll_back(w: Work) -> list[str]:
    """Undo this session's changes, newest first; returns what could not be undone."""
    failed = []
    while w.undo:
        what, undo = w.undo.pop()
        if not await undo():
            failed.append(what)
    return failed


def escalation_section(w: Work, title: str = "Escalation") -> None:
    """Who to escalate to: the owning team and contacts the metadata names, else the on-call."""
    sit = w.sit
    if sit.owners or sit.contacts:
        lines = [f"owning team: {team} (from the {where})" for team, where in sit.owners]
        lines += [f"contact: {c} (from the {where})" for c, where in sit.contacts]
        w.rep.bullets(title, lines)
    else:
        who = ", ".join(w.focus) or "the affected service"
        w.rep.add(
            title,
            f"No owner label or annotation names the team that owns {who}; I would page the on-call for "
            f"namespace {', '.join(sit.namespaces)}.",
        )


async def failed_step(w: Work, what: str, dep: str, status: str) -> None:
    """A step failed: stop, restore this session's changes, report where things stand."""
    detail = await step_failure_detail(w, dep, w.ns_of(dep))
    changed = [what_ for what_, _ in w.undo]
    not_restored = await roll_back(w)
    verified = ""
    if not not_restored:
        ok, text = await rollout_status(
            w,
            dep,
            w.ns_of(dep),
            f"verify {dep} is back on its previous, working revision after the rollback",
        )
        verified = (
            " and verified that it is running its previous revision again"
            if ok
            else f"; the deployment has not settled yet ({text})"
        )
    w.summary.append(
        f"STOPPED: {what} failed ({status}). Cause: {detail}. I did not continue with the remaining "
        "steps."
    )
    if not_restored:
        w.summary.append(
            "The system is now in an INCONSISTENT state: I could not restore "
            + "; ".join(not_restored)
            + ". This needs a human now."
        )
    else:
        w.summary.append(
            "I rolled back my own changes so that configuration and running pods agree again: "
            + "; ".join(changed)
            + verified
            + ". The requested change is NOT in effect."
        )
    w.rep.add(
        "Step failure",
        f"Failed step: {what}. What I saw: {detail}. Rollback: "
        + ("complete" if not not_restored else "incomplete: " + "; ".join(not_restored))
        + ". Before "
        "retrying, the cause above has to be fixed; then the whole change can be re-run from the start.",
    )
    escalation_section(w, "Next step")
