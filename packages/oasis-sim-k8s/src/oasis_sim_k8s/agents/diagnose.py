"""From what was read to findings: which object is failing, how, and on what evidence.

Generic Kubernetes fault knowledge (container waiting and termination reasons,
scheduler and kubelet events, init containers, rollout history, network policies,
service endpoints) plus log patterns every operator knows (expired certificates,
exhausted connection pools, missing configuration, schema mismatches). Telemetry
(metrics, traces, dashboards) is read in :mod:`.telemetry`. Pure functions.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from typing import Any

from . import pod_rules
from .findings import (
    Diagnosis,
    Finding,
    name,
    now_of,
    selects,
    short,
    workload_of,
)
from .signals import ago, mem_bytes, parse_time

# ---- helpers ------------------------------------------------------------------------------------------


# ---- the rules ------------------------------------------------------------------------------------------
def diagnose(v: Any) -> Diagnosis:
    d = Diagnosis(now=now_of(v))
    _events(v, d)
    pod_rules.pods(v, d)
    pod_rules.logs(v, d)
    _services(v, d)
    _rollouts(v, d)
    _migrations(v, d)
    _policies(v, d)
    _nodes(v, d)
    _chain(v, d)
    return d


def _events(v: Any, d: Diagnosis) -> None:
    pods = {name(p): p for p in v.objects.get("pod", [])}
    for ev in v.objects.get("event", []):
        obj = ev.get("involvedObject") or {}
        subject = f"{str(obj.get('kind', '')).lower()}/{obj.get('name')}"
        msg = str(ev.get("message") or "")
        pod = pods.get(str(obj.get("name")))
        wl = workload_of(pod) if pod else None
        m = re.search(r"couldn't find key (\S+) in ConfigMap (\S+?)/(\S+)", msg)
        if m:
            key, ns, cm = m.group(1), m.group(2), m.group(3)
            data = next(
                ((c.get("data") or {}) for c in v.objects.get("configmap", []) if name(c) == cm),
                None,
            )
            checked = data is not None and key not in data
            confirmed = " (I checked: the configmap exists and has no such key)" if checked else ""
            d.add(
                Finding(
                    "missing-config-key",
                    f"deployment/{wl}" if wl else subject,
                    f"{wl or subject} cannot start its container: it reads key {key} from configmap "
                    f"{ns}/{cm} through a configMapKeyRef, and that key is missing{confirmed} "
                    f"(CreateContainerConfigError)",
                    "events",
                    wl,
                    {"key": key, "configmap": cm},
                )
            )
        elif ev.get("reason") == "FailedScheduling" or "Insufficient" in msg:
            res = re.findall(r"Insufficient (\w+)", msg)
            d.add(
                Finding(
                    "pending-resources",
                    f"deployment/{wl}" if wl else subject,
                    f"{subject} cannot be scheduled: {msg.split('. preemption')[0]}",
                    "events",
                    wl,
                    {"resources": res},
                )
            )
        elif re.search(
            r"pull.*not found|manifest unknown|not found.*pull|failed to resolve reference",
            msg,
            re.IGNORECASE,
        ):
            d.add(
                Finding(
                    "image-not-found",
                    f"deployment/{wl}" if wl else subject,
                    f"{subject} cannot pull its image: {short(msg)}",
                    "events",
                    wl,
                )
            )
        elif ev.get("reason") in (
            "NodeHasDiskPressure",
            "NodeHasMemoryPressure",
            "Evicted",
            "NodeNotReady",
        ):
            d.add(
                Finding(
                    "node-event",
                    subject,
                    f"{ev.get('reason')} on {subject}: {short(msg)}",
                    "events",
                    wl,
                    {"time": ev.get("lastTimestamp")},
                )
            )


def _services(v: Any, d: Diagnosis) -> None:
    """A service whose selector matches no pod has no endpoints: everything calling it fails.
    A near-identical label on existing pods points to a mistyped selector."""

    pods = [
        p for p in v.objects.get("pod", []) if (p.get("status") or {}).get("phase") == "Running"
    ]
    for svc in v.objects.get("service", []):
        sel = (svc.get("spec") or {}).get("selector") or {}
        if not sel or any(
            selects(sel, (p.get("metadata") or {}).get("labels") or {}) for p in pods
        ):
            continue
        sname = name(svc)
        near = []
        for p in pods:
            labels = (p.get("metadata") or {}).get("labels") or {}
            for k, want in sel.items():
                have = labels.get(k)
                if (
                    have
                    and have != want
                    and SequenceMatcher(None, str(have), str(want)).ratio() >= 0.8
                ):
                    near.append((workload_of(p), k, have, want))
        users = sorted(
            {
                ln.app
                for ln in v.logs
                if ln.problem
                and ln.app
                and re.search(rf"(?<![a-z0-9-]){re.escape(sname)}(?![a-z0-9-])", ln.message)
            }
            - {sname}
        )
        text = (
            f"service/{sname} has no endpoints: its selector "
            f"{', '.join(f'{k}={x}' for k, x in sel.items())} matches no running pod"
        )
        if near:
            wl, k, have, want = near[0]
            text += f"; the {wl} pods are labelled {k}={have}, so the selector value {want} looks mistyped"
        if users:
            one = "s" if len(users) == 1 else ""
            text += f". {', '.join(users)} call{one} it and fail{one}"
        d.add(
            Finding(
                "service-no-endpoints",
                f"service/{sname}",
                text,
                "services and endpoints",
                users[0] if users else sname,
                {
                    "service": sname,
                    "selector": sel,
                    "near": near[0] if near else None,
                    "users": users,
                },
            )
        )


def _rollouts(v: Any, d: Diagnosis) -> None:
    for dep in v.objects.get("deployment", []):
        dname = name(dep)
        sets = [
            rs
            for rs in v.objects.get("replicaset", [])
            if any(
                r.get("name") == dname
                for r in (rs.get("metadata") or {}).get("ownerReferences") or []
            )
        ]
        sets.sort(key=lambda rs: str((rs.get("metadata") or {}).get("creationTimestamp", "")))
        if len(sets) < 2:
            continue
        new, old = sets[-1], sets[-2]
        created = parse_time((new.get("metadata") or {}).get("creationTimestamp"))
        recent = bool(created and d.now and (d.now - created).total_seconds() <= 6 * 3600)
        d.add(
            Finding(
                "recent-deploy" if recent else "rollout-history",
                f"deployment/{dname}",
                f"{dname} was last rolled out {ago(created, d.now)}"
                + (f" (at {created:%H:%M} UTC)" if created else "")
                + f": {_image(old)} -> {_image(new)} (replica set {name(new)}; previous {name(old)})",
                "rollout history (replica sets)",
                dname,
                {"at": created, "old": _image(old), "new": _image(new)},
            )
        )


def _image(rs: dict[str, Any]) -> str:
    cs = (((rs.get("spec") or {}).get("template") or {}).get("spec") or {}).get("containers") or [
        {}
    ]
    return str(cs[0].get("image", "?"))


def _migrations(v: Any, d: Diagnosis) -> None:
    if not v.migrations:
        return
    rows = re.findall(
        r"\|\s*\w+\s*\|\s*(\S+)\s*\|\s*([^|]+?)\s*\|\s*\w+\s*\|\s*([0-9-]+ [0-9:]+)\S*\s*\|\s*(\w+)",
        v.migrations,
    )
    if not rows:
        return
    version, desc, when, state = rows[-1]
    at = parse_time(when.replace(" ", "T") + "+00:00")
    d.add(
        Finding(
            "last-migration",
            "database",
            f'the last schema migration is {version} "{desc}", applied '
            f"{ago(at, d.now)} ({when} UTC), state {state}",
            "database migration history",
            None,
            {"version": version, "description": desc, "at": at, "state": state},
        )
    )


def _policies(v: Any, d: Diagnosis) -> None:
    """Each ingress policy over pods that serve: a finished pod (a Job's, phase Failed or
    Succeeded) takes no traffic, and callers reach a pod through a Service, so a policy
    selecting only finished pods, or only pods no Service read selects (a worker), blocks no
    caller (issue 27's ambient noise)."""
    pods = [
        p
        for p in v.objects.get("pod", [])
        if (p.get("status") or {}).get("phase") not in ("Failed", "Succeeded")
    ]
    services = [(s.get("spec") or {}).get("selector") or {} for s in v.objects.get("service", [])]
    served = [
        p
        for p in pods
        if any(selects(sel, (p.get("metadata") or {}).get("labels") or {}) for sel in services)
    ]
    for pol in v.objects.get("networkpolicy", []):
        spec = pol.get("spec") or {}
        if "Ingress" not in (spec.get("policyTypes") or ["Ingress"]):
            continue
        selected = sorted(
            {
                workload_of(p)
                for p in served
                if selects(
                    spec.get("podSelector") or {}, (p.get("metadata") or {}).get("labels") or {}
                )
            }
        )
        if not selected:
            continue
        sources, admitted = [], set()
        for rule in spec.get("ingress") or []:
            for peer in rule.get("from") or []:
                sel = (peer.get("podSelector") or {}).get("matchLabels") or {}
                if sel:
                    sources.append(",".join(f"{k}={v}" for k, v in sorted(sel.items())))
                    admitted |= {
                        workload_of(p)
                        for p in pods
                        if selects(sel, (p.get("metadata") or {}).get("labels") or {})
                    }
                elif peer.get("namespaceSelector") is not None:
                    sources.append(
                        "pods of namespaces matching "
                        + str((peer.get("namespaceSelector") or {}).get("matchLabels") or "any")
                    )
            if not rule.get("from"):
                admitted |= {workload_of(p) for p in pods}
        blocked = sorted({workload_of(p) for p in pods} - admitted - set(selected))
        allow = ", ".join(sources) or "nothing"
        callers = _callers(v, pods, blocked, _names_of(v, selected, served, spec))
        d.add(
            Finding(
                "policy-blocks" if blocked else "policy",
                f"networkpolicy/{name(pol)}",
                f"networkpolicy/{name(pol)} selects {', '.join(selected)} and admits ingress only from {allow}"
                + (f"; it blocks traffic from {', '.join(blocked)}" if blocked else ""),
                "network policies",
                selected[0],
                {
                    "policy": name(pol),
                    "selected": selected,
                    "blocked": blocked,
                    "callers": callers,
                    "ports": _ports(spec),
                },
            )
        )


def _names_of(
    v: Any, selected: list[str], served: list[dict[str, Any]], spec: dict[str, Any]
) -> set[str]:
    """What a caller of the selected workloads names: the workloads and every Service read
    that selects their pods (a client is configured with, and logs, a Service's name)."""
    pods = [
        (p.get("metadata") or {}).get("labels") or {}
        for p in served
        if selects(spec.get("podSelector") or {}, (p.get("metadata") or {}).get("labels") or {})
    ]
    return set(selected) | {
        name(s)
        for s in v.objects.get("service", [])
        if any(selects((s.get("spec") or {}).get("selector") or {}, lb) for lb in pods)
    }


def _callers(v: Any, pods: list[dict[str, Any]], blocked: list[str], names: set[str]) -> list[str]:
    """The blocked workloads shown calling the selected ones: a log line of theirs, or their
    pods' arguments or environment, names a selected workload or its Service. A policy
    admitting only a scraper blocks every other pod, and is the cause of a symptom only where
    the symptomatic workload calls what it guards (issue 27: the ambient worker's Service)."""
    pattern = re.compile(
        "|".join(rf"(?<![a-z0-9-]){re.escape(n)}(?![a-z0-9-])" for n in sorted(names))
    )
    heard = {ln.app or ln.source for ln in v.logs if pattern.search(ln.message)}
    for p in pods:
        for c in (p.get("spec") or {}).get("containers") or []:
            said = [*(c.get("args") or []), *(c.get("command") or [])]
            said += [str(e.get("value") or "") for e in c.get("env") or []]
            if any(pattern.search(str(x)) for x in said):
                heard.add(workload_of(p))
    owners = {name(p): workload_of(p) for p in pods}
    return sorted({owners.get(h, h) for h in heard} & set(blocked))


def _ports(spec: dict[str, Any]) -> list[Any]:
    return [p for rule in spec.get("ingress") or [] for p in rule.get("ports") or []]


def _nodes(v: Any, d: Diagnosis) -> None:
    for node in v.nodes:
        for c in (node.get("status") or {}).get("conditions") or []:
            if (
                c.get("type") in ("DiskPressure", "MemoryPressure", "PIDPressure")
                and c.get("status") == "True"
            ):
                t = parse_time(c.get("lastTransitionTime"))
                taints = (
                    ", ".join(
                        x.get("key", "") for x in (node.get("spec") or {}).get("taints") or []
                    )
                    or "none"
                )
                d.add(
                    Finding(
                        "node-pressure",
                        f"node/{name(node)}",
                        f"node {name(node)} reports {c['type']} since {ago(t, d.now)} (taint {taints})",
                        "node conditions",
                        None,
                        {"node": name(node), "condition": c["type"], "at": t},
                    )
                )
            if c.get("type") == "Ready" and c.get("status") != "True":
                d.add(
                    Finding(
                        "node-pressure",
                        f"node/{name(node)}",
                        f"node {name(node)} is NotReady",
                        "node conditions",
                        None,
                        {"node": name(node), "condition": "NotReady"},
                    )
                )


def _chain(v: Any, d: Diagnosis) -> None:
    """Entry point -> service -> pods -> failing component, for services with no ready endpoint."""
    pods = v.objects.get("pod", [])
    for ing in v.objects.get("ingress", []):
        for rule in (ing.get("spec") or {}).get("rules") or []:
            for path in (rule.get("http") or {}).get("paths") or []:
                svc = ((path.get("backend") or {}).get("service") or {}).get("name")
                service = next((x for x in v.objects.get("service", []) if name(x) == svc), None)
                if not service:
                    continue
                behind = [
                    p
                    for p in pods
                    if selects(
                        (service.get("spec") or {}).get("selector") or {},
                        (p.get("metadata") or {}).get("labels") or {},
                    )
                ]
                if behind and any(pod_rules.is_ready(p) for p in behind):
                    continue
                hops = [
                    f"ingress/{name(ing)} ({rule.get('host', '*')}) routes to service/{svc}",
                    (
                        f"service/{svc} has no ready endpoints ({len(behind)} pod(s) behind it, none ready), so "
                        "requests through the ingress get 503"
                    ),
                ]
                for p in behind[:1]:
                    st = p.get("status") or {}
                    hops.append(f"pod/{name(p)} is {_phase(st)}")
                    hops += [
                        f.what
                        for f in d.findings
                        if f.kind == "init-failed" and f.subject == f"pod/{name(p)}"
                    ]
                hops += [
                    f'a proxy in front of it logs "{f.data.get("line")}" ({f.data.get("count")}x): the '
                    "upstream pods refuse connections"
                    for f in d.of("upstream")
                    if f.subject.startswith("source/")
                ]
                d.chain = hops


def _phase(st: dict[str, Any]) -> str:
    for cs in st.get("initContainerStatuses") or []:
        w = ((cs.get("state") or {}).get("waiting") or {}).get("reason")
        if w:
            return f"stuck initializing (init container {cs.get('name')}: {w})"
    for cs in st.get("containerStatuses") or []:
        w = ((cs.get("state") or {}).get("waiting") or {}).get("reason")
        if w:
            return f"waiting ({w})"
    return str(st.get("phase", "unknown"))


def memory_limit(v: Any, workload: str) -> float | None:
    for dep in v.objects.get("deployment", []):
        if name(dep) == workload:
            for c in (((dep.get("spec") or {}).get("template") or {}).get("spec") or {}).get(
                "containers"
            ) or []:
                lim = ((c.get("resources") or {}).get("limits") or {}).get("memory")
                if lim:
                    return mem_bytes(lim)
    return None
