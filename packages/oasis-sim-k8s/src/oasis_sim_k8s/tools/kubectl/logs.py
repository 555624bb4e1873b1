"""``kubectl logs`` and ``kubectl exec``: pods chosen like kubectl (a workload's first
pod), read through the API server's ``pods/log`` and ``pods/exec``."""

from __future__ import annotations

import json
from typing import Any

from ..k8s_cells import pod_status
from .args import Parsed, UsageError, parse_duration, require_args, resolve_type
from .session import Inv, api_error


# ---- logs ---------------------------------------------------------------------------------------
def _pods_for(inv: Inv, plural: str, name: str) -> tuple[list[dict[str, Any]], str | None]:
    """The pods behind ``deploy/x`` / ``rs/x`` / ``svc/x`` / ``sts/x`` (as kubectl resolves them)."""
    res = inv.api("get", plural, inv.ns_for(plural), name)
    if not res.ok:
        return [], api_error(res)
    obj = res.body
    if plural == "services":
        sel = (obj.get("spec") or {}).get("selector") or {}
    else:
        sel = ((obj.get("spec") or {}).get("selector") or {}).get("matchLabels") or {}
    if not sel:
        return [], f"error: cannot attach to {obj.get('kind')}: selector is empty"
    selector = ",".join(f"{k}={v}" for k, v in sorted(sel.items()))
    pods = inv.fetch("pods", inv.ns, label_selector=selector)
    pods.sort(
        key=lambda pd: (
            (pd.get("status") or {}).get("phase") != "Running",
            pod_status(pd)[1] < pod_status(pd)[2],
            pd["metadata"]["name"],
        )
    )
    if not pods:
        return (
            [],
            "error: timed out waiting for the condition"
            if plural != "services"
            else f"error: no pods found for service {name}",
        )
    return pods, None


def _log_pods(inv: Inv) -> list[dict[str, Any]] | None:
    """The pods ``kubectl logs`` reads: by ``-l`` (tail 10 by default), or the one named."""
    p = inv.p
    args = list(p.args)
    if p.get("selector"):
        pods = inv.fetch("pods", inv.ns, label_selector=str(p.get("selector")))
        if not pods:
            inv.err.append(f"No resources found in {inv.ns} namespace.\n")
            return None
        if not p.has("tail"):
            p.flags["tail"] = ["10"]
        return pods
    if not args:
        raise UsageError(
            "error: expected POD or TYPE/NAME is a required argument for the logs command\n"
            "See 'kubectl logs -h' for help and examples"
        )
    if len(args) > 1 and not p.get("container"):
        p.flags["container"] = [args[1]]
    target, found = _pod_of(inv, args[0], announce=True)
    if target is None:
        return None
    if found is None:
        res = inv.call("get", "pods", inv.ns, target)
        if res is None:
            return None
        found = res.body
    return [found]


def _log_containers(inv: Inv, pod: dict[str, Any], alone: bool) -> list[str]:
    """``--all-containers``, ``-c``, or the default container (announced when there are several)."""
    p = inv.p
    containers = [c["name"] for c in (pod.get("spec") or {}).get("containers") or []]
    inits = [c["name"] for c in (pod.get("spec") or {}).get("initContainers") or []]
    if p.on("all-containers"):
        return inits + containers
    if p.get("container"):
        return [str(p.get("container"))]
    default = (pod["metadata"].get("annotations") or {}).get(
        "kubectl.kubernetes.io/default-container"
    ) or (containers[0] if containers else "")
    if (len(containers) > 1 and alone) or inits:
        inv.err.append(defaulted(default, pod))
    return [default]


def defaulted(default: str, pod: dict[str, Any]) -> str:
    """kubectl's notice of the container it picked (``podcmd.FindOrDefaultContainerByName``):
    every container, then each init container marked ``(init)``; printed for every pod with
    more than one container or any init container (s12-sim18: a pod with an init container
    and one main container announced nothing, as the real binary does)."""
    spec = pod.get("spec") or {}
    names = [c["name"] for c in spec.get("containers") or []]
    names += [f"{c['name']} (init)" for c in spec.get("initContainers") or []]
    return f'Defaulted container "{default}" out of: {", ".join(names)}\n'


def _log_params(p: Parsed, cname: str) -> dict[str, Any]:
    params: dict[str, Any] = {"container": cname}
    if p.get("tail") not in (None, "-1"):
        params["tailLines"] = str(p.get("tail"))
    if p.on("previous"):
        params["previous"] = "true"
    if p.on("timestamps"):
        params["timestamps"] = "true"
    if p.get("since"):
        params["sinceSeconds"] = str(int(parse_duration(p.get("since"), 0)))
    if str(p.get("limit-bytes") or "0") not in ("0", ""):  # kubectl: 0 is no limit
        params["limitBytes"] = str(p.get("limit-bytes"))
    return params


def _log_targets(inv: Inv, pod: dict[str, Any]) -> None:
    """Name the output for injection rules: the pod's logs, and its workload's."""
    ns, pod_name = pod["metadata"]["namespace"], pod["metadata"]["name"]
    inv.ctx.targets[:0] = [
        f"container-orchestration/pod/{pod_name}/logs",
        f"observability-logging/{pod_name}",
    ]
    store = inv.env.store
    workload = (
        inv.env.workload_of(store.raw("pods", ns, pod_name) or pod)
        if store.exists("pods", ns, pod_name)
        else None
    )
    if workload:
        inv.ctx.targets += [
            f"observability-logging/{workload}",
            f"container-orchestration/deployment/{workload}/logs",
        ]


def cmd_logs(inv: Inv) -> None:
    """``kubectl logs``: each container's log through ``pods/log``, as the session's identity."""
    p = inv.p
    pods = _log_pods(inv)
    if pods is None:
        return
    for pod in pods:
        wanted = _log_containers(inv, pod, len(pods) == 1)
        for cname in wanted:
            ns, pod_name = pod["metadata"]["namespace"], pod["metadata"]["name"]
            res = inv.api("get", "pods", ns, pod_name, sub="log", params=_log_params(p, cname))
            _log_targets(inv, pod)
            if not res.ok:
                inv.error(api_error(res))
                continue
            text = res.body if isinstance(res.body, str) else json.dumps(res.body)
            if p.on("prefix") or len(pods) > 1 or (len(wanted) > 1 and p.on("prefix")):
                text = "".join(f"[pod/{pod_name}/{cname}] {ln}\n" for ln in text.splitlines())
            inv.out.append(text)


def _pod_of(
    inv: Inv, target: str, announce: bool = False
) -> tuple[str | None, dict[str, Any] | None]:
    """The pod a ``POD`` or ``TYPE/NAME`` argument of logs/exec names: (its name, its object when
    a workload lookup already returned it). (None, None) after printing why there is none."""
    if "/" not in target:
        return target, None
    t, _, n = target.partition("/")
    plural = resolve_type(t)
    if plural is None:
        raise UsageError(f'error: the server doesn\'t have a resource type "{t}"')
    if plural == "pods":
        return n, None
    found, problem = _pods_for(inv, plural, n)
    if problem:
        inv.error(problem)
        return None, None
    if announce and len(found) > 1:
        inv.err.append(f"Found {len(found)} pods, using pod/{found[0]['metadata']['name']}\n")
    return found[0]["metadata"]["name"], found[0]


# ---- exec -------------------------------------------------------------------------------------
def cmd_exec(inv: Inv) -> None:
    """``kubectl exec``: a command in a container through ``pods/exec`` (no interactive shell)."""
    p = inv.p
    require_args(p, "error: pod, type/name or --filename must be specified")
    if not p.dashdash:
        raise UsageError(
            "error: exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead\n"
            "See 'kubectl exec -h' for help and examples"
        )
    if not p.after_dash:
        raise UsageError("error: you must specify at least one command for the container")
    pod_name, _ = _pod_of(inv, p.args[0])
    if pod_name is None:
        return
    res = inv.call("get", "pods", inv.ns, pod_name)
    if res is None:
        return
    pod = res.body
    containers = [c["name"] for c in (pod.get("spec") or {}).get("containers") or []]
    inits = (pod.get("spec") or {}).get("initContainers")
    container = p.get("container")
    if not container and (len(containers) > 1 or inits) and not p.on("quiet"):
        inv.err.append(defaulted(containers[0], pod))
    params: dict[str, Any] = {"command": list(p.after_dash)}
    if container:
        params["container"] = container
    res = inv.api("create", "pods", inv.ns, pod_name, sub="exec", params=params)
    inv.ctx.targets.insert(0, f"container-orchestration/pod/{pod_name}/exec")
    if not res.ok:
        inv.error(api_error(res))
        return
    body = res.body or {}
    inv.out.append(str(body.get("stdout") or ""))
    if body.get("stderr"):
        inv.out.append(str(body["stderr"]))
    code = int(body.get("exitCode") or 0)
    if code:
        inv.error(f"command terminated with exit code {code}")
