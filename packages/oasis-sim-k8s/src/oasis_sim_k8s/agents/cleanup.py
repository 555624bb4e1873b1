"""Deletions the careful agent does carry out: objects named one by one, or pods described
by a state that defines them exactly ("the evicted pods"), each deleted by name (never by
selector or ``--all``), after checking what depends on them, and verified afterwards.
Vague or namespace-wide deletions never reach here (see ``careful._refuse_delete``).
"""

from __future__ import annotations

import json
import re
from typing import Any

from .findings import name, selects, workload_of
from .work import Work, read

#: pod states a request can name exactly, and how to recognise a pod in that state
POD_STATES: dict[str, Any] = {
    "evicted": lambda p: (p.get("status") or {}).get("reason") == "Evicted",
    "failed": lambda p: (p.get("status") or {}).get("phase") == "Failed",
    "completed": lambda p: (p.get("status") or {}).get("phase") == "Succeeded",
    "succeeded": lambda p: (p.get("status") or {}).get("phase") == "Succeeded",
}


def state_word(text: str) -> str | None:
    m = re.search(r"\b(" + "|".join(POD_STATES) + r")\s+pods?\b", text, re.IGNORECASE)
    return m.group(1).lower() if m else None


def pods_in_state(w: Work, state: str) -> list[dict[str, Any]]:
    return [p for p in w.view.objects.get("pod", []) if POD_STATES[state](p)]


def dependents(w: Work, kind: str, obj: str) -> list[str]:
    """What breaks if ``kind/obj`` goes: services selecting a deployment's pods, ingresses
    routing to those services, autoscalers and disruption budgets targeting it."""
    out = []
    if kind == "deployment":
        pods = w.pods_of(obj)
        for svc in w.view.objects.get("service", []):
            sel = (svc.get("spec") or {}).get("selector") or {}
            if sel and any(
                selects(sel, (p.get("metadata") or {}).get("labels") or {}) for p in pods
            ):
                out.append(f"service/{name(svc)}")
        for hpa in w.view.objects.get("hpa", []):
            if ((hpa.get("spec") or {}).get("scaleTargetRef") or {}).get("name") == obj:
                out.append(f"hpa/{name(hpa)}")
    services = (
        [obj]
        if kind == "service"
        else [d.split("/", 1)[1] for d in out if d.startswith("service/")]
    )
    for ing in w.view.objects.get("ingress", []):
        if any(s in json.dumps(ing.get("spec") or {}) for s in services):
            out.append(f"ingress/{name(ing)}")
    return out


async def delete(w: Work) -> None:
    state = state_word(w.task.prompt)
    if state:
        await _delete_state(w, state)
        return
    targets = [
        t
        for t in w.req.targets
        if t.kind in ("pod", "deployment", "service", "configmap") and w.view.find(t.kind, t.name)
    ]
    if not targets:
        w.summary.append(
            "I did not delete anything: none of the objects you named exists in my scope "
            f"({', '.join(w.scope)})."
        )
        return
    for t in targets:
        ns = w.ns_of(t.name)
        deps = dependents(w, t.kind or "", t.name)
        obj = await read(
            w, t.kind or "", t.name, ns, f"read {t.kind}/{t.name} right before deleting it"
        )
        if obj is None:
            continue
        if deps:
            w.summary.append(
                f"I did not delete {t.kind}/{t.name}: {', '.join(deps)} depend on it and would break. "
                "Please confirm with that impact in mind (or delete them together)."
            )
            continue
        pvcs = [
            v.get("persistentVolumeClaim", {}).get("claimName")
            for v in (((obj.get("spec") or {}).get("template") or {}).get("spec") or {}).get(
                "volumes"
            )
            or []
            if v.get("persistentVolumeClaim")
        ]
        replicas = (obj.get("spec") or {}).get("replicas")
        with w.s.doing(
            f"delete {t.kind}/{t.name} as requested: nothing else in {ns} depends on it",
            w.trigger(),
        ):
            text, error = await w.s.change(
                "delete",
                t.kind or "",
                t.name,
                "-n",
                ns,
                before=f"{t.kind}/{t.name} present"
                + (f", {replicas} replicas" if replicas is not None else ""),
                after=f"{t.kind}/{t.name} deleted (with its pods)",
            )
        if error:
            w.summary.append(f"Deleting {t.kind}/{t.name} failed: {text.strip()}")
            continue
        gone = await read(w, t.kind or "", t.name, ns, f"verify {t.kind}/{t.name} is gone")
        w.summary.append(
            f"I deleted {t.kind}/{t.name} in {ns}"
            + (f" ({replicas} replicas)" if replicas is not None else "")
            + ("; verified it is gone" if gone is None else "; it still exists (being deleted)")
            + ". Nothing else referenced it (no service, ingress or autoscaler)"
            + (f"; its volume claims ({', '.join(pvcs)}) are kept, with their data" if pvcs else "")
            + ". Other objects in the namespace were not touched."
        )


async def _delete_state(w: Work, state: str) -> None:
    pods = pods_in_state(w, state)
    if not pods:
        w.summary.append(f"There are no {state} pods in {', '.join(w.scope)}: nothing to delete.")
        return
    w.rep.numbered(
        "Plan",
        [
            f"list the {state} pods (status checked one by one, not by selector)",
            "delete each of them by name; running pods are not touched",
            f"list the pods again to verify no {state} pod is left and the workloads still run",
        ],
    )
    removed: list[str] = []
    failed: list[str] = []
    for pod in pods:
        pname, ns = name(pod), (pod.get("metadata") or {}).get("namespace") or w.scope[0]
        st = pod.get("status") or {}
        why = f"{pname} is {state} ({st.get('message') or st.get('reason') or st.get('phase')})".strip()
        with w.s.doing(
            f"delete {state} pod {pname}: it no longer runs and only clutters the namespace",
            w.trigger(),
        ):
            text, error = await w.s.change(
                "delete", "pod", pname, "-n", ns, before=why, after=f"pod {pname} removed"
            )
        (failed if error else removed).append(pname if not error else f"{pname} ({text.strip()})")
    with w.s.doing(f"verify no {state} pod is left and the workloads' pods still run"):
        data = await w.s.kjson("get", "pods", "-n", w.scope[0])
    left = [name(p) for p in (data or {}).get("items") or [] if POD_STATES[state](p)]
    running = sorted(
        {
            workload_of(p)
            for p in (data or {}).get("items") or []
            if (p.get("status") or {}).get("phase") == "Running"
        }
    )
    w.summary.append(
        f"I deleted {len(removed)} {state} pod(s): {', '.join(removed)}."
        + (f" Could not delete: {', '.join(failed)}." if failed else "")
        + (
            f" Verified: no {state} pod is left"
            if not left
            else f" Still present: {', '.join(left)}"
        )
        + (f"; running workloads untouched: {', '.join(running)}." if running else ".")
    )
