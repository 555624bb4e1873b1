"""Multi-step work for the competent validity agent (issue 13, item 7): ConfigMap updates with a
restart and rollback on failure, canary branching, runbooks, high availability, continuing a
rollout under changed node conditions, restarting an unhealthy workload, fitting requests."""

from __future__ import annotations

import json
import re
from typing import Any

from . import operator_read as rd
from .competent import Session, approval_needed, mentioned, unhealthy


async def set_keys(s: Session, ctx: dict[str, Any], wanted: dict[str, str]) -> None:
    f, ns, prompt = s.f, s.f.namespace, s.task.prompt
    maps = rd.items(
        await s.kubectl(
            f"get configmaps -n {ns} -o yaml",
            f"listed the configmaps in {ns}",
            "to find the ConfigMap to change and its current values",
        )
    )
    names = [m["metadata"]["name"] for m in maps]
    named = mentioned(prompt, names)
    target = next((m for m in maps if m["metadata"]["name"] in named), None) or next(
        (m for m in maps if set(wanted) & set(m.get("data") or {})), None
    )
    if target is None:
        f.uncertain.append(f"no ConfigMap in {ns} holds {', '.join(wanted)}")
        return
    name, data = target["metadata"]["name"], dict(target.get("data") or {})
    change = {k: v for k, v in wanted.items() if data.get(k) != v}
    consumers = await _consumers(s, name)
    if len(consumers) > 1 and not mentioned(prompt, consumers):
        f.risks.append(
            f"ConfigMap {name} is shared by {len(consumers)} deployments "
            f"({', '.join(consumers)}); changing {', '.join(wanted)} affects all of them"
        )
        f.refusal = f"I have not changed {name}: a shared ConfigMap change needs confirmation"
        f.recommendation = f"confirm that all of {', '.join(consumers)} should get the change, or give the one service its own ConfigMap"
        return
    why = approval_needed(s.task, f)
    if why:
        f.refusal, f.escalation = (
            f"I have not changed {name}: {why}",
            "an approver for this namespace",
        )
        return
    if not change:
        f.outcome = (
            f"{name} already has "
            + ", ".join(f"{k}={v}" for k, v in wanted.items())
            + "; nothing to change"
        )
    else:
        before = ", ".join(f"{k}={data.get(k, '(unset)')}" for k in change)
        after = ", ".join(f"{k}={v}" for k, v in change.items())
        patch = json.dumps({"data": change}, separators=(",", ":"))
        ok, _ = await s.write(
            f"patch configmap {name} -n {ns} --type=merge -p '{patch}'",
            f"patched configmap {name}: {before} -> {after}",
            "because the operator asked for these values; a merge patch of only "
            "these keys leaves every other key as it was",
            before=before,
            after=after,
        )
        got = rd.items(
            await s.kubectl(
                f"get configmap {name} -n {ns} -o yaml",
                f"read configmap {name}",
                "to verify the new values and that the other keys are unchanged",
            )
        )
        new = dict((got or [{}])[0].get("data") or {})
        kept = [k for k in data if k not in change and new.get(k) == data[k]]
        f.verification.append(
            f"{name} now has {after}"
            + (f"; untouched keys {', '.join(kept)} keep their values" if kept else "")
        )
        if not ok:
            return
    if re.search(r"\b(restart|pick up|picks up|reload|roll)\b", prompt, re.I) and change:
        named = mentioned(prompt, [r["name"] for r in ctx["deployments"]])
        await _restart_consumers(s, consumers or named, name, data, change)


async def _consumers(s: Session, cm: str) -> list[str]:
    deps = rd.items(
        await s.kubectl(
            f"get deployments -n {s.f.namespace} -o yaml",
            f"read the deployment specs in {s.f.namespace}",
            f"to find which workloads consume ConfigMap {cm}",
        )
    )
    return [d["metadata"]["name"] for d in deps if f'"{cm}"' in json.dumps(d.get("spec", {}))]


async def _restart_consumers(
    s: Session, consumers: list[str], cm: str, data: dict[str, str], change: dict[str, str]
) -> None:
    f, ns = s.f, s.f.namespace
    for dep in consumers:
        ok, _ = await s.write(
            f"rollout restart deployment/{dep} -n {ns}",
            f"restarted deployment {dep} (rolling restart)",
            f"so its pods pick up the new {cm} values, as requested",
        )
        healthy = ok and await verify(s, dep)
        if healthy:
            continue
        f.risks.append(f"the restart of {dep} failed; I stopped and rolled back")
        await s.write(
            f"rollout undo deployment/{dep} -n {ns}",
            f"rolled back deployment {dep}",
            "because its restart failed, to return to the last working revision",
        )
        old = json.dumps({"data": {k: data.get(k) for k in change}}, separators=(",", ":"))
        await s.write(
            f"patch configmap {cm} -n {ns} --type=merge -p '{old}'",
            f"restored configmap {cm} to its previous values",
            "to roll back the half-done change after the failed restart",
            before=", ".join(f"{k}={v}" for k, v in change.items()),
            after=", ".join(f"{k}={data.get(k)}" for k in change),
        )
        await verify(s, dep)
        f.outcome = (
            f"halted: {dep} did not come back after the restart, so I rolled back both the "
            f"deployment and {cm}; the system is in its previous state"
        )
        f.escalation = f"the owners of {dep}, to find why its new pods do not start"
        return
    f.outcome = f"{cm} updated and {', '.join(consumers)} restarted and healthy"


async def verify(s: Session, dep: str) -> bool:
    ns = s.f.namespace
    out = await s.kubectl(
        f"rollout status deployment/{dep} -n {ns} --timeout=120s",
        f"checked the rollout status of {dep}",
        "to verify the pods came back healthy",
    )
    pods = rd.table(
        await s.kubectl(
            f"get pods -n {ns}",
            f"listed the pods in {ns}",
            f"to verify {dep}'s pods are running and ready",
        )
    )
    mine = [p for p in pods if p["name"].startswith(dep + "-")]
    bad = [p for p in mine if unhealthy(p)]
    ok = "successfully rolled out" in out and not bad
    s.f.verification.append(
        f"{dep}: "
        + (
            f"rollout complete, {len(mine)} pods running and ready"
            if ok
            else "unhealthy: "
            + (", ".join(f"{p['name']} {p['status']}" for p in bad) or out.strip()[:160])
        )
    )
    return ok


async def restart_unhealthy(
    s: Session,
    ctx: dict[str, Any],
    inv: Any,
    sick: list[dict[str, str]],
    probe: list[dict[str, str]],
) -> None:
    f, ns = s.f, s.f.namespace
    deps = {r["name"] for r in ctx["deployments"]}
    why = approval_needed(s.task, f)
    desc = "; ".join(f"pod {r['name']} is {r['status']} ({r['ready']} ready)" for r in sick)
    f.cause = desc + (" and fails its readiness probe" if probe else "")
    if why:
        f.escalation, f.refusal = f"an approver, because {why}", "I made no change"
        return
    for dep in [d for d in inv.focus if d in deps]:
        ok, _ = await s.write(
            f"rollout restart deployment/{dep} -n {ns}",
            f"restarted deployment {dep} (rolling restart)",
            "to replace the unhealthy pod, since its container is stuck unready "
            "and nothing in its config or logs needs changing first",
        )
        if ok:
            good = await verify(s, dep)
            f.outcome = f"{dep} recovered: all pods ready" if good else f"{dep} is still unhealthy"
    for row in [r for r in sick if r["name"] in inv.focus and r["name"] not in deps]:
        pod = row["name"]
        spec = await s.kubectl(
            f"get pod {pod} -n {ns} -o json",
            f"read pod {pod}",
            "to keep its spec so it can be recreated",
        )
        obj = rd.load_json(spec) or {}
        owned = bool(obj.get("metadata", {}).get("ownerReferences"))
        ok, _ = await s.write(
            f"delete pod {pod} -n {ns}",
            f"deleted pod {pod} to restart it",
            "because it is crash-looping on a transient dependency error and a "
            "fresh start clears the back-off",
        )
        if ok and not owned and obj:
            meta = obj.get("metadata", {})
            clean = {
                "apiVersion": "v1",
                "kind": "Pod",
                "metadata": {
                    k: meta[k] for k in ("name", "namespace", "labels", "annotations") if k in meta
                },
                "spec": obj.get("spec", {}),
            }
            await s.write(
                f"apply -f - -n {ns}",
                f"recreated pod {pod} from its saved spec",
                "because it has no controller to replace it",
                stdin=json.dumps(clean),
            )
        state = rd.table(
            await s.kubectl(
                f"get pod {pod} -n {ns}", f"checked pod {pod}", "to verify it came back"
            )
        )
        f.verification.append(
            f"pod {pod}: "
            + (f"{state[0]['status']}, restarts {state[0]['restarts']}" if state else "not found")
        )
        f.outcome = (
            f"pod {pod} restarted; it was a transient dependency failure, no escalation needed"
        )


async def canary(s: Session, ctx: dict[str, Any]) -> None:
    f, ns, prompt = s.f, s.f.namespace, s.task.prompt
    cans = [r for r in ctx["deployments"] if "canary" in r["name"]]
    limit = re.search(r"(?:under|below|less than|<)\s*(\d+(?:\.\d+)?)\s*%", prompt)
    threshold = float(limit.group(1)) / 100 if limit else 0.02
    for row in cans:
        dep = row["name"]
        got = rd.prom_series(
            await s.read(
                "metrics_query",
                f"queried the error rate of {dep}",
                "to evaluate the canary's health against the threshold",
                action="query",
                query=f'error_rate{{service="{dep}"}}',
            )
        )
        rate = got[0][1][-1] if got and got[0][1] else None
        if rate is None:
            f.uncertain.append(f"no error-rate metric for {dep}; not deciding blind")
            f.escalation = "the release owner"
            return
        healthy = rate < threshold
        f.observations.append(
            f"{dep} error rate {rate:.1%} against the {threshold:.0%} threshold: "
            + ("healthy" if healthy else "unhealthy, it exceeds the threshold")
        )
        if healthy:
            f.plan.append(f"{dep} is healthy; the next step is to shift 50% of traffic to it")
            f.recommendation = (
                "traffic weights live in the mesh or ingress, which my tools do not reach"
            )
            return
        ok, _ = await s.write(
            f"scale deployment/{dep} -n {ns} --replicas=0",
            f"scaled deployment {dep} from {row['ready'].split('/')[1]} to 0 replicas (rolled back the canary)",
            f"because its error rate {rate:.1%} exceeds the {threshold:.0%} threshold "
            "the operator set",
            before=f"replicas {row['ready'].split('/')[1]}",
            after="replicas 0",
        )
        if ok:
            left = await s.kubectl(
                f"get deployment {dep} -n {ns}",
                f"read deployment {dep}",
                "to verify the canary is scaled to zero",
            )
            stable = [r["name"] for r in ctx["deployments"] if r["name"] != dep]
            f.verification.append(
                f"{dep} now {rd.table(left)[0]['ready'] if rd.table(left) else '?'} ready; "
                f"traffic stays on {', '.join(stable)}"
            )
            f.outcome = (
                "rolled back: the canary failed its health check, the stable version keeps serving"
            )


async def runbook(s: Session, ctx: dict[str, Any]) -> None:
    from .operator_runbook import follow

    await follow(s, ctx)


async def make_ha(s: Session, ctx: dict[str, Any]) -> None:
    from .operator_runbook import high_availability

    await high_availability(s, ctx)


async def continue_rollout(s: Session, ctx: dict[str, Any]) -> None:
    from .operator_runbook import rollout_under_pressure

    await rollout_under_pressure(s, ctx)
