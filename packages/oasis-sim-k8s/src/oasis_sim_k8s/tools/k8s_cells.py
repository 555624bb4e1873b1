"""The cells of kubectl's printer-column tables: pod status as kubectl computes it,
ports, selectors, node roles, HPA targets and the like."""

from __future__ import annotations

from typing import Any

from ..cluster.clock import parse_ts
from .k8s_format import age, human_duration


def _labels(obj: dict[str, Any]) -> str:
    """``--show-labels``: the ``k=v`` strings sorted as strings (Go's ``labels.Set.String``),
    so ``app.kubernetes.io/component=batch`` comes before ``app=x``."""
    labels = (obj.get("metadata") or {}).get("labels") or {}
    return ",".join(sorted(f"{k}={v}" for k, v in labels.items())) or "<none>"


def expression_text(expr: dict[str, Any]) -> str | None:
    """A ``matchExpressions`` entry as kubectl prints it (None: an unknown operator)."""
    vals = ",".join(expr.get("values") or [])
    return {
        "In": f"{expr.get('key')} in ({vals})",
        "NotIn": f"{expr.get('key')} notin ({vals})",
        "Exists": str(expr.get("key")),
        "DoesNotExist": f"!{expr.get('key')}",
    }.get(expr.get("operator") or "")


def _selector(sel: dict[str, Any] | None) -> str:
    if not sel:
        return "<none>"
    parts = [f"{k}={v}" for k, v in sorted((sel.get("matchLabels") or {}).items())]
    for expr in sel.get("matchExpressions") or []:
        text = expression_text(expr)
        parts.append(str(expr) if text is None else text)
    return ",".join(parts) or "<none>"


def _plain_selector(sel: dict[str, str] | None) -> str:
    return ",".join(f"{k}={v}" for k, v in sorted((sel or {}).items())) or "<none>"


def pod_status(pod: dict[str, Any]) -> tuple[str, int, int, int, str | None]:
    """(STATUS, ready containers, total containers, restarts, last restart ts) as kubectl prints them."""
    spec, st = pod.get("spec") or {}, pod.get("status") or {}
    total = len(spec.get("containers") or [])
    reason = st.get("reason") or st.get("phase") or "Unknown"
    restarts, ready, last = 0, 0, None
    initializing = False
    init_specs = spec.get("initContainers") or []
    for i, cs in enumerate(st.get("initContainerStatuses") or []):
        restarts += int(cs.get("restartCount") or 0)
        state = cs.get("state") or {}
        last = _later(last, ((cs.get("lastState") or {}).get("terminated") or {}).get("finishedAt"))
        term, wait = state.get("terminated"), state.get("waiting")
        if term and term.get("exitCode") == 0:
            continue
        if term:
            reason = "Init:" + (term.get("reason") or f"ExitCode:{term.get('exitCode')}")
        elif wait and wait.get("reason") and wait.get("reason") != "PodInitializing":
            reason = "Init:" + wait["reason"]
        else:
            reason = f"Init:{i}/{len(init_specs)}"
        initializing = True
        break
    if not initializing:
        restarts = 0
        has_running = False
        for cs in reversed(st.get("containerStatuses") or []):
            restarts += int(cs.get("restartCount") or 0)
            last = _later(
                last, ((cs.get("lastState") or {}).get("terminated") or {}).get("finishedAt")
            )
            state = cs.get("state") or {}
            wait, term = state.get("waiting"), state.get("terminated")
            if wait and wait.get("reason"):
                reason = wait["reason"]
            elif term and term.get("reason"):
                reason = term["reason"]
            elif term:
                reason = f"ExitCode:{term.get('exitCode')}"
            elif cs.get("ready") and "running" in state:
                has_running = True
                ready += 1
        if reason == "Completed" and has_running:
            conds = {c.get("type"): c.get("status") for c in st.get("conditions") or []}
            reason = "Running" if conds.get("Ready") == "True" else "NotReady"
    if (pod.get("metadata") or {}).get("deletionTimestamp"):
        reason = "Terminating"
    return reason, ready, total, restarts, last


def _later(a: str | None, b: str | None) -> str | None:
    if not b:
        return a
    if not a:
        return b
    return max(a, b)


def _restarts(env: Any, n: int, last: str | None) -> str:
    return f"{n} ({age(env, last)} ago)" if n and last else str(n)


def _ports(svc: dict[str, Any]) -> str:
    out = []
    for p in (svc.get("spec") or {}).get("ports") or []:
        s = str(p.get("port"))
        if p.get("nodePort"):
            s += f":{p['nodePort']}"
        out.append(f"{s}/{p.get('protocol', 'TCP')}")
    return ",".join(out) or "<none>"


def _external_ip(svc: dict[str, Any]) -> str:
    spec = svc.get("spec") or {}
    ips = list(spec.get("externalIPs") or [])
    if spec.get("type") == "LoadBalancer":
        ing = ((svc.get("status") or {}).get("loadBalancer") or {}).get("ingress") or []
        ips += [i.get("ip") or i.get("hostname") for i in ing]
        return ",".join(ips) if ips else "<pending>"
    if spec.get("type") == "ExternalName":
        return spec.get("externalName", "<none>")
    return ",".join(ips) or "<none>"


def _endpoints(ep: dict[str, Any]) -> str:
    addrs = []
    for s in ep.get("subsets") or []:
        ports = [p.get("port") for p in s.get("ports") or []] or [None]
        for a in s.get("addresses") or []:
            for port in ports:
                addrs.append(f"{a.get('ip')}:{port}" if port else str(a.get("ip")))
    if not addrs:
        return "<none>"
    shown = ",".join(addrs[:3])
    return shown + (f" + {len(addrs) - 3} more..." if len(addrs) > 3 else "")


def _containers(tmpl_spec: dict[str, Any]) -> tuple[str, str]:
    cs = tmpl_spec.get("containers") or []
    return ",".join(c.get("name", "") for c in cs), ",".join(c.get("image", "") for c in cs)


def _node_roles(node: dict[str, Any]) -> str:
    roles = sorted(
        k.split("/", 1)[1]
        for k in ((node.get("metadata") or {}).get("labels") or {})
        if k.startswith("node-role.kubernetes.io/")
    )
    return ",".join(roles) or "<none>"


def _node_status(node: dict[str, Any]) -> str:
    conds = {
        c.get("type"): c.get("status") for c in (node.get("status") or {}).get("conditions") or []
    }
    status = {"True": "Ready", "False": "NotReady"}.get(conds.get("Ready", ""), "Unknown")
    if (node.get("spec") or {}).get("unschedulable"):
        status += ",SchedulingDisabled"
    return status


def _address(node: dict[str, Any], kind: str) -> str:
    for a in (node.get("status") or {}).get("addresses") or []:
        if a.get("type") == kind:
            return a.get("address", "<none>")
    return "<none>"


def _hpa_targets(hpa: dict[str, Any]) -> str:
    spec, st = hpa.get("spec") or {}, hpa.get("status") or {}
    current = {}
    for m in st.get("currentMetrics") or []:
        res = m.get("resource") or {}
        cur = (res.get("current") or {}).get("averageUtilization")
        if res.get("name"):
            current[res["name"]] = cur
    out = []
    for m in spec.get("metrics") or []:
        res = m.get("resource") or {}
        target = (res.get("target") or {}).get("averageUtilization")
        if res.get("name") and target is not None:
            cur = current.get(res["name"])
            out.append(f"{res['name']}: {'<unknown>' if cur is None else f'{cur}%'}/{target}%")
    return ", ".join(out) or "<none>"


def _pdb_value(spec: dict[str, Any], key: str) -> str:
    value = spec.get(key)
    return "N/A" if value is None else str(value)


def _subjects(binding: dict[str, Any], kind: str) -> str:
    out = []
    for s in binding.get("subjects") or []:
        if s.get("kind") != kind:
            continue
        if kind == "ServiceAccount":
            out.append(
                f"{s.get('namespace') or (binding.get('metadata') or {}).get('namespace', '')}/{s.get('name')}"
            )
        else:
            out.append(str(s.get("name")))
    return ", ".join(out)


def _ingress_hosts(ing: dict[str, Any]) -> str:
    hosts = [r.get("host") for r in (ing.get("spec") or {}).get("rules") or [] if r.get("host")]
    return ",".join(hosts) or "*"


def _ingress_address(ing: dict[str, Any]) -> str:
    ing_st = ((ing.get("status") or {}).get("loadBalancer") or {}).get("ingress") or []
    return ",".join(i.get("ip") or i.get("hostname") or "" for i in ing_st)


def _ingress_ports(ing: dict[str, Any]) -> str:
    return "80, 443" if (ing.get("spec") or {}).get("tls") else "80"


def _short_modes(modes: list[str]) -> list[str]:
    return [
        {
            "ReadWriteOnce": "RWO",
            "ReadOnlyMany": "ROX",
            "ReadWriteMany": "RWX",
            "ReadWriteOncePod": "RWOP",
        }.get(m, m)
        for m in modes
    ]


def _job_duration(job: dict[str, Any]) -> str:
    st = job.get("status") or {}
    start, end = parse_ts(st.get("startTime")), parse_ts(st.get("completionTime"))
    if start and end:
        return human_duration((end - start).total_seconds())
    return ""


def _quota(q: dict[str, Any], limits: bool) -> str:
    hard = (q.get("status") or {}).get("hard") or (q.get("spec") or {}).get("hard") or {}
    used = (q.get("status") or {}).get("used") or {}
    keys = [k for k in sorted(hard) if k.startswith("limits.") == limits]
    return ", ".join(f"{k}: {used.get(k, '0')}/{hard[k]}" for k in keys)
