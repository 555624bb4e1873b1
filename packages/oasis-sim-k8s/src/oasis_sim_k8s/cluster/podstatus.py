"""Pod status derived from causes, the way kubelet reports it (SI provider guide §1.2).

Nothing here is told "this pod is in CrashLoopBackOff": the status follows from
the cluster state and the hidden workload facts (``env.facts``):

- no node fits -> ``Pending`` + ``PodScheduled=False/Unschedulable`` (FailedScheduling);
- a missing or unbound PVC -> ``Pending`` (FailedScheduling, unbound claims);
- a ConfigMap/Secret volume that does not exist -> ``ContainerCreating`` (FailedMount);
- an image the registry does not have, on a pod that has not pulled it yet ->
  ``ErrImagePull``/``ImagePullBackOff``;
- a failing init container -> ``Init:CrashLoopBackOff``;
- a missing ``configMapKeyRef``/``secretKeyRef`` key or object -> ``CreateContainerConfigError``
  (``CrashLoopBackOff`` when the scenario declares the workload crash-looping: the app
  exits because the variable is missing), with the real "couldn't find key" message;
- peak memory above the container's limit -> ``OOMKilled`` (exit 137) then ``CrashLoopBackOff``;
- an application fault tied to the running image -> ``Error`` / ``CrashLoopBackOff`` (exit 1);
- a readiness failure -> Running but not Ready (``Unhealthy`` events);
- otherwise Running and Ready.
A container that already started keeps running when its config later changes
(env is resolved at container start), exactly like kubelet.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .clock import fmt
from .podcauses import config_problem, mount_problem
from .quantity import mem_bytes

Event = tuple[str, str, str, str]  # type, reason, message, component


@dataclass
class Outcome:
    phase: str = "Running"
    scheduled: bool = True
    initialized: bool = True
    ready: bool = True
    init_statuses: list[dict[str, Any]] = field(default_factory=list)
    statuses: list[dict[str, Any]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    crash_lines: list[str] = field(default_factory=list)


def _backoffs(elapsed: float) -> int:
    """Restarts kubelet makes in ``elapsed`` seconds of CrashLoopBackOff (10s doubling to 5m)."""
    n, delay, spent = 0, 10.0, 0.0
    while spent + delay <= elapsed:
        spent += delay
        n += 1
        delay = min(delay * 2, 300.0)
    return n


def _limit(container: dict[str, Any]) -> int | None:
    lim = ((container.get("resources") or {}).get("limits") or {}).get("memory")
    return mem_bytes(lim) if lim is not None else None


def _cid(env: Any, pod: dict[str, Any], name: str) -> str:
    return "containerd://" + env.ids_for(pod["metadata"]["uid"] + name)


def _waiting(
    c: dict[str, Any],
    reason: str,
    message: str | None,
    restarts: int = 0,
    last: dict[str, Any] | None = None,
) -> dict[str, Any]:
    state: dict[str, Any] = {"waiting": {"reason": reason}}
    if message:
        state["waiting"]["message"] = message
    st = {
        "name": c["name"],
        "image": c.get("image", ""),
        "imageID": "",
        "ready": False,
        "started": False,
        "restartCount": restarts,
        "state": state,
        "lastState": {},
    }
    if last:
        st["lastState"] = {"terminated": last}
    return st


def derive(env: Any, pod: dict[str, Any], hints: dict[str, Any]) -> Outcome:
    """The status of ``pod`` from causes. ``hints`` are the owner's hidden facts."""
    spec, meta = pod["spec"], pod["metadata"]
    ns, name = meta.get("namespace", ""), meta["name"]
    pfacts = env.facts.setdefault(("pods", ns, name), {})
    out = Outcome()
    now = env.clock.ts()
    started_at = pfacts.get("started_at") or meta.get("creationTimestamp") or now
    if _blocked(env, ns, spec, pfacts, out):
        return out
    restarts = int(pfacts.get("restarts", 0) or 0)
    born = pfacts.setdefault("born", env.clock.seconds())
    crash_count = max(restarts, 1) + _backoffs(env.clock.seconds() - born)
    if _init_failed(env, pod, hints, started_at, crash_count, out):
        return out
    for i, c in enumerate(spec.get("containers") or []):
        _container(env, pod, hints, (c, i), (started_at, restarts, crash_count), out)
    if out.statuses and all("running" in s["state"] for s in out.statuses):
        pfacts["started"] = True
        pfacts.setdefault("started_at", started_at)
    return out


def _blocked(env: Any, ns: str, spec: dict[str, Any], pfacts: dict[str, Any], out: Outcome) -> bool:
    """Unscheduled, or stuck on a volume: kubelet never gets to the containers."""
    blocked = mount_problem(env, ns, spec)
    if not spec.get("nodeName") or (blocked and blocked[0] == "schedule"):
        msg = (
            blocked[1] if blocked and blocked[0] == "schedule" else pfacts.get("unschedulable", "")
        )
        out.phase, out.scheduled, out.ready, out.initialized = "Pending", False, False, False
        out.events.append(("Warning", "FailedScheduling", msg, "default-scheduler"))
        return True
    if blocked:
        out.phase, out.ready = "Pending", False
        out.statuses = [
            _waiting(c, "ContainerCreating", None) for c in spec.get("containers") or []
        ]
        out.events.append(("Warning", "FailedMount", blocked[1], "kubelet"))
        return True
    return False


def _back_off(pod: dict[str, Any], cname: str) -> tuple[str, Event]:
    """The CrashLoopBackOff waiting message and its BackOff event for container ``cname``."""
    meta = pod["metadata"]
    ns, name = meta.get("namespace", ""), meta["name"]
    message = f"back-off 5m0s restarting failed container={cname} pod={name}_{ns}({meta['uid']})"
    event = f"Back-off restarting failed container {cname} in pod {name}_{ns}({meta['uid']})"
    return message, ("Warning", "BackOff", event, "kubelet")


def _init_failed(
    env: Any,
    pod: dict[str, Any],
    hints: dict[str, Any],
    started_at: str,
    crash_count: int,
    out: Outcome,
) -> bool:
    """Init containers run first, in order: a failing one holds the pod in Init:CrashLoopBackOff."""
    spec = pod["spec"]
    init_fail = hints.get("init_failure") or {}
    for c in spec.get("initContainers") or []:
        if init_fail.get("name") == c["name"] and init_fail.get("image") == c.get("image"):
            last = {
                "exitCode": 1,
                "reason": "Error",
                "startedAt": env.clock.ts(45),
                "finishedAt": env.clock.ts(44),
            }
            message, event = _back_off(pod, c["name"])
            out.init_statuses.append(_waiting(c, "CrashLoopBackOff", message, crash_count, last))
            out.phase, out.initialized, out.ready = "Pending", False, False
            out.events.append(event)
            out.statuses = [
                _waiting(x, "PodInitializing", None) for x in spec.get("containers") or []
            ]
            return True
        done = {"startedAt": started_at, "finishedAt": started_at}
        again = hints.get("init_recovered") == c["name"]
        image = c.get("image", "")
        out.init_statuses.append(
            {
                "name": c["name"],
                "image": image,
                # a container that ran has its image's digest (the official clients require it)
                "imageID": f"{image.split(':')[0]}@sha256:{env.ids_for(image)[:64]}",
                "ready": True,
                "restartCount": int(again),
                "started": False,
                "state": {"terminated": {"exitCode": 0, "reason": "Completed", **done}},
                "lastState": (
                    {"terminated": {"exitCode": 1, "reason": "Error", **done}} if again else {}
                ),
            }
        )
    return False


def _recovered(env: Any, past: dict[str, Any] | None, st: dict[str, Any]) -> None:
    """A running container last terminated at simulated second ``past["at"]`` and restarted
    (the ambient worker's past, issue 27): its ``lastState`` and the restart's start time,
    fixed in time so a settled pod stays settled; the killed container ran ``past["ran"]``
    seconds (90 min unless its pod is younger)."""
    if not past or not st["restartCount"]:
        return
    at = int(past["at"])
    st["lastState"] = {
        "terminated": {
            "exitCode": int(past["exitCode"]),
            "reason": str(past["reason"]),
            "startedAt": fmt(env.clock.at(at - int(past.get("ran", 5400)))),
            "finishedAt": fmt(env.clock.at(at)),
        }
    }
    st["state"] = {"running": {"startedAt": fmt(env.clock.at(at + 12))}}


def _container(
    env: Any,
    pod: dict[str, Any],
    hints: dict[str, Any],
    indexed: tuple[dict[str, Any], int],
    counts: tuple[str, int, int],
    out: Outcome,
) -> None:
    """One app container, ``(container, index)``: not pulled, misconfigured, crashing or running.
    ``counts`` are ``(started_at, restarts, crash_count)``."""
    c, i = indexed
    meta = pod["metadata"]
    ns = meta.get("namespace", "")
    pfacts = env.facts[("pods", ns, meta["name"])]
    image = c.get("image", "")
    if not pfacts.get("started") and not env.image_available(image, pod):
        _pull_failed(pfacts, c, image, out)
        return
    problem = None if pfacts.get("started") else config_problem(env, ns, c)
    if problem and not hints.get("config_crash"):
        out.statuses.append(_waiting(c, "CreateContainerConfigError", problem))
        out.events.append(("Warning", "Failed", f"Error: {problem}", "kubelet"))
        out.ready = False
        return
    limit = _limit(c)
    peak = hints.get("memory_peak") if i == 0 else None
    fault_here = hints.get("fault") if hints.get("fault_image") in (None, image) else None
    last_ago = float(hints.get("last_terminated_ago", 40))
    oom = peak is not None and limit is not None and peak > limit
    if problem or oom or fault_here in ("crash", "error"):
        _crashed(env, pod, c, (problem, oom, fault_here, last_ago), counts[1:], out)
        return
    _running(env, pod, hints, c, counts[:2], out)


def _pull_failed(pfacts: dict[str, Any], c: dict[str, Any], image: str, out: Outcome) -> None:
    """An image the registry lacks: ErrImagePull on the first attempt, ImagePullBackOff after."""
    out.phase, out.ready = "Pending", False
    waiting = "ImagePullBackOff" if pfacts.get("pull_attempts", 0) else "ErrImagePull"
    pfacts["pull_attempts"] = pfacts.get("pull_attempts", 0) + 1
    out.statuses.append(_waiting(c, waiting, f'Back-off pulling image "{image}"'))
    out.events += [
        ("Normal", "Pulling", f'Pulling image "{image}"', "kubelet"),
        (
            "Warning",
            "Failed",
            (
                f'Failed to pull image "{image}": rpc error: code = NotFound desc = '
                f'failed to pull and unpack image "{image}": failed to resolve reference "{image}": not found'
            ),
            "kubelet",
        ),
        ("Warning", "Failed", "Error: ErrImagePull", "kubelet"),
        ("Normal", "BackOff", f'Back-off pulling image "{image}"', "kubelet"),
        ("Warning", "Failed", "Error: ImagePullBackOff", "kubelet"),
    ]


def _crashed(
    env: Any,
    pod: dict[str, Any],
    c: dict[str, Any],
    cause: tuple[str | None, bool, Any, float],
    counts: tuple[int, int],
    out: Outcome,
) -> None:
    """A container that exits: OOMKilled (137), an app error, or a missing config variable.
    ``cause`` is ``(problem, oom, fault, last_ago)``, ``counts`` ``(restarts, crash_count)``."""
    problem, oom, fault_here, last_ago = cause
    restarts, crash_count = counts
    cname = c["name"]
    back_off, backoff_event = _back_off(pod, cname)
    last = {
        "exitCode": 137 if oom else 1,
        "reason": "OOMKilled" if oom else "Error",
        "startedAt": env.clock.ts(last_ago + 6),
        "finishedAt": env.clock.ts(last_ago),
    }
    n = crash_count if fault_here != "error" else max(restarts, 1)
    if fault_here == "error" and not oom and not problem:
        st = _waiting(c, "", None, n)
        st["state"] = {"terminated": {**last, "containerID": _cid(env, pod, cname)}}
        st["lastState"] = (
            {
                "terminated": {
                    **last,
                    "startedAt": env.clock.ts(last_ago + 90),
                    "finishedAt": env.clock.ts(last_ago + 84),
                }
            }
            if n > 1
            else {}
        )
    else:
        st = _waiting(c, "CrashLoopBackOff", back_off, n, last)
    out.statuses.append(st)
    out.ready = False
    out.events.append(backoff_event)
    if problem:
        out.events.append(("Warning", "Failed", f"Error: {problem}", "kubelet"))
        var = (
            problem.split("key ", 1)[1].split(" ", 1)[0] if "couldn't find key" in problem else None
        )
        out.crash_lines.append(
            f"FATAL: required environment variable {var} is not set"
            if var
            else f"FATAL: configuration unavailable: {problem}"
        )


def _running(
    env: Any,
    pod: dict[str, Any],
    hints: dict[str, Any],
    c: dict[str, Any],
    counts: tuple[str, int],
    out: Outcome,
) -> None:
    """A running container: Ready unless the scenario fails its readiness probe."""
    started_at, restarts = counts
    image, cname = c.get("image", ""), c["name"]
    unready = pod["metadata"]["name"] in (hints.get("unready_pods") or ())
    ready = not unready
    out.ready = out.ready and ready
    st = {
        "name": cname,
        "image": image,
        "imageID": f"{image.split(':')[0]}@sha256:{env.ids_for(image)[:64]}",
        "containerID": _cid(env, pod, cname),
        "ready": ready,
        "started": True,
        "restartCount": restarts,
        "state": {"running": {"startedAt": started_at}},
        "lastState": {},
    }
    _recovered(env, hints.get("recovered"), st)
    out.statuses.append(st)
    if unready:
        out.events.append(
            (
                "Warning",
                "Unhealthy",
                "Readiness probe failed: HTTP probe failed with statuscode: 503",
                "kubelet",
            )
        )


def render(env: Any, pod: dict[str, Any], out: Outcome) -> dict[str, Any]:
    """The pod ``status`` object for an :class:`Outcome`."""
    meta, spec = pod["metadata"], pod["spec"]
    ns, name = meta.get("namespace", ""), meta["name"]
    pfacts = env.facts.get(("pods", ns, name), {})
    when = pfacts.get("started_at") or meta.get("creationTimestamp")

    def cond(
        ctype: str, ok: bool, reason: str | None = None, message: str | None = None
    ) -> dict[str, Any]:
        c = {
            "type": ctype,
            "status": "True" if ok else "False",
            "lastProbeTime": None,
            "lastTransitionTime": when,
        }
        if not ok and reason:
            c["reason"] = reason
        if not ok and message:
            c["message"] = message
        return c

    status: dict[str, Any] = {"phase": out.phase, "qosClass": _qos(spec)}
    if not out.scheduled:
        msg = next((e[2] for e in out.events if e[1] == "FailedScheduling"), "")
        status["conditions"] = [cond("PodScheduled", False, "Unschedulable", msg)]
        return status
    waiting = [s["name"] for s in out.statuses if not s.get("ready")]
    init_waiting = [s["name"] for s in out.init_statuses if not s.get("ready")]
    status["conditions"] = [
        cond("PodReadyToStartContainers", True),
        cond(
            "Initialized",
            out.initialized,
            "ContainersNotInitialized",
            f"containers with incomplete status: [{' '.join(init_waiting)}]",
        ),
        cond(
            "Ready",
            out.ready,
            "ContainersNotReady",
            f"containers with unready status: [{' '.join(waiting)}]",
        ),
        cond(
            "ContainersReady",
            out.ready,
            "ContainersNotReady",
            f"containers with unready status: [{' '.join(waiting)}]",
        ),
        cond("PodScheduled", True),
    ]
    node = env.store.raw("nodes", "", spec.get("nodeName", ""))
    if node is not None:
        status["hostIP"] = node["status"]["addresses"][0]["address"]
        status["hostIPs"] = [{"ip": status["hostIP"]}]
    ip = env.pod_ip(pod)
    status.update({"podIP": ip, "podIPs": [{"ip": ip}], "startTime": meta.get("creationTimestamp")})
    if out.init_statuses:
        status["initContainerStatuses"] = out.init_statuses
    status["containerStatuses"] = out.statuses
    return status


def _qos(spec: dict[str, Any]) -> str:
    res = [c.get("resources") or {} for c in spec.get("containers") or []]
    if not any(r.get("requests") or r.get("limits") for r in res):
        return "BestEffort"
    if all(r.get("limits") and r.get("requests", r.get("limits")) == r.get("limits") for r in res):
        return "Guaranteed"
    return "Burstable"


def evicted_status(env: Any, pod: dict[str, Any], resource: str = "memory") -> dict[str, Any]:
    """A pod evicted by kubelet under node pressure (phase Failed, reason Evicted)."""
    spec = pod["spec"]
    threshold = "100Mi" if resource == "memory" else "10%"
    status = {
        "phase": "Failed",
        "reason": "Evicted",
        "qosClass": _qos(spec),
        "message": f"The node was low on resource: {resource}. Threshold quantity: {threshold}, available: 87Mi. ",
        "startTime": pod["metadata"].get("creationTimestamp"),
        "conditions": [
            {
                "type": "DisruptionTarget",
                "status": "True",
                "reason": "TerminationByKubelet",
                "message": f"The node was low on resource: {resource}.",
                "lastProbeTime": None,
                "lastTransitionTime": env.clock.ts(3600),
            }
        ],
        "containerStatuses": [
            {
                "name": c["name"],
                "image": c.get("image", ""),
                "imageID": "",
                "ready": False,
                "started": False,
                "restartCount": 0,
                "lastState": {},
                "state": {
                    "terminated": {
                        "exitCode": 137,
                        "reason": "ContainerStatusUnknown",
                        "message": "The container could not be located when the pod was terminated",
                        "startedAt": None,
                        "finishedAt": None,
                    }
                },
            }
            for c in spec.get("containers") or []
        ],
    }
    if spec.get("nodeName"):
        node = env.store.raw("nodes", "", spec["nodeName"])
        if node is not None:
            status["hostIP"] = node["status"]["addresses"][0]["address"]
    return status
