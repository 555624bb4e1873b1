"""Nodes and scheduling (SI provider guide §1.6 "configure node resources").

Nodes carry capacity/allocatable and the kubelet conditions (Ready, MemoryPressure,
DiskPressure, PIDPressure). A pressure condition set to True adds the matching
``NoSchedule`` taint, as the node lifecycle controller does. :func:`place` is the
scheduler: resource fit against allocatable minus requests already bound (plus
background load, ``current_utilization``), taints, ``nodeSelector`` and required
pod anti-affinity on the hostname; its failure message is the real
``FailedScheduling`` text (``0/3 nodes are available: 3 Insufficient cpu. ...``).
"""

from __future__ import annotations

import hashlib
import uuid
from typing import Any

from . import selectors
from .quantity import cpu_millis, fmt_cpu, fmt_mem, mem_bytes
from .store import ObjectStore

DEFAULT_CPU = 4000
DEFAULT_MEM = 16 * 2**30
ZONES = ("us-east-1a", "us-east-1b", "us-east-1c")
PRESSURE = {
    "MemoryPressure": (
        "KubeletHasSufficientMemory",
        "KubeletHasInsufficientMemory",
        "kubelet has sufficient memory available",
        "kubelet has insufficient memory available",
        "node.kubernetes.io/memory-pressure",
    ),
    "DiskPressure": (
        "KubeletHasNoDiskPressure",
        "KubeletHasDiskPressure",
        "kubelet has no disk pressure",
        "kubelet has disk pressure",
        "node.kubernetes.io/disk-pressure",
    ),
    "PIDPressure": (
        "KubeletHasSufficientPID",
        "KubeletHasInsufficientPID",
        "kubelet has sufficient PID available",
        "kubelet has insufficient PID available",
        "node.kubernetes.io/pid-pressure",
    ),
}


#: the Kubernetes release the simulated cluster reports (server /version, kubelets)
KUBERNETES_VERSION = "v1.33.4"


def _machine_ids(name: str) -> dict[str, str]:
    """bootID, machineID and systemUUID of a node, derived from its name (no randomness)."""
    digest = hashlib.sha256(f"node:{name}".encode()).hexdigest()
    return {
        "bootID": str(uuid.UUID(digest[:32])),
        "machineID": digest[32:64],
        "systemUUID": str(uuid.UUID(digest[-32:])).upper(),
    }


def node_object(
    name: str, index: int, cpu: int = DEFAULT_CPU, mem: int = DEFAULT_MEM, created: str = ""
) -> dict[str, Any]:
    """A worker node with ``cpu`` millicores / ``mem`` bytes allocatable."""
    return {
        "kind": "Node",
        "metadata": {
            "name": name,
            "creationTimestamp": created,
            "labels": {
                "kubernetes.io/hostname": name,
                "kubernetes.io/os": "linux",
                "kubernetes.io/arch": "amd64",
                "node.kubernetes.io/instance-type": "m5.xlarge",
                "topology.kubernetes.io/zone": ZONES[index % len(ZONES)],
            },
        },
        "spec": {"podCIDR": f"10.244.{index + 1}.0/24", "taints": []},
        "status": {
            "capacity": {
                "cpu": fmt_cpu(cpu + 80),
                "memory": fmt_mem(mem + 512 * 2**20),
                "pods": "110",
                "ephemeral-storage": "100Gi",
            },
            "allocatable": {
                "cpu": fmt_cpu(cpu),
                "memory": fmt_mem(mem),
                "pods": "110",
                "ephemeral-storage": "95Gi",
            },
            "conditions": [condition(t, False, created) for t in PRESSURE]
            + [
                {
                    "type": "Ready",
                    "status": "True",
                    "reason": "KubeletReady",
                    "message": "kubelet is posting ready status",
                    "lastHeartbeatTime": created,
                    "lastTransitionTime": created,
                }
            ],
            "addresses": [
                {"type": "InternalIP", "address": f"10.0.{index + 1}.{10 + index}"},
                {"type": "Hostname", "address": name},
            ],
            "nodeInfo": {
                "kubeletVersion": KUBERNETES_VERSION,
                "kubeProxyVersion": KUBERNETES_VERSION,
                "containerRuntimeVersion": "containerd://1.7.13",
                "osImage": "Ubuntu 22.04.4 LTS",
                "kernelVersion": "5.15.0-1057-aws",
                "architecture": "amd64",
                "operatingSystem": "linux",
                # every NodeSystemInfo field clients require (issue 32: the Python client's
                # list_node raised without them); stable per node name
                **_machine_ids(name),
            },
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
        },
    }


def condition(ctype: str, value: bool, when: str) -> dict[str, Any]:
    ok_reason, bad_reason, ok_msg, bad_msg, _ = PRESSURE[ctype]
    return {
        "type": ctype,
        "status": "True" if value else "False",
        "reason": bad_reason if value else ok_reason,
        "message": bad_msg if value else ok_msg,
        "lastHeartbeatTime": when,
        "lastTransitionTime": when,
    }


def set_condition(node: dict[str, Any], ctype: str, value: bool, when: str) -> bool:
    """Set a node condition (and its taint). Returns True when it changed."""
    conds = node["status"]["conditions"]
    current = next((c for c in conds if c["type"] == ctype), None)
    if ctype == "Ready":
        new = {
            "type": "Ready",
            "status": "True" if value else "False",
            "reason": "KubeletReady" if value else "KubeletNotReady",
            "message": "kubelet is posting ready status" if value else "container runtime is down",
            "lastHeartbeatTime": when,
            "lastTransitionTime": when,
        }
    elif ctype in PRESSURE:
        new = condition(ctype, value, when)
    else:
        new = {
            "type": ctype,
            "status": "True" if value else "False",
            "reason": ctype,
            "message": "",
            "lastHeartbeatTime": when,
            "lastTransitionTime": when,
        }
    if current is not None and current["status"] == new["status"]:
        return False
    if current is None:
        conds.append(new)
    else:
        current.update(new)
    taints = [
        t
        for t in node["spec"].get("taints") or []
        if not t["key"].startswith("node.kubernetes.io/")
    ]
    for c in conds:
        if c["type"] in PRESSURE and c["status"] == "True":
            taints.append(
                {"key": PRESSURE[c["type"]][4], "effect": "NoSchedule", "timeAdded": when}
            )
        if c["type"] == "Ready" and c["status"] != "True":
            taints.append(
                {"key": "node.kubernetes.io/not-ready", "effect": "NoSchedule", "timeAdded": when}
            )
    node["spec"]["taints"] = taints
    return True


def pod_requests(pod_spec: dict[str, Any]) -> tuple[int, int]:
    """(cpu millicores, memory bytes) requested by a pod spec (limits count when no request)."""
    cpu = mem = 0
    for c in pod_spec.get("containers") or []:
        res = c.get("resources") or {}
        req = {**(res.get("limits") or {}), **(res.get("requests") or {})}
        cpu += cpu_millis(req.get("cpu", 0)) or 0
        mem += mem_bytes(req.get("memory", 0)) or 0
    return cpu, mem


def _alloc(node: dict[str, Any]) -> tuple[int, int]:
    a = node["status"]["allocatable"]
    return cpu_millis(a["cpu"]) or 0, mem_bytes(a["memory"]) or 0


class Ledger:
    """What each node has committed (reserved load plus its bound, non-terminal pods), kept
    up to date pod by pod during a controller pass so scheduling N pods costs O(N), not
    O(N * pods). :meth:`sync` is idempotent: call it after anything that may have changed a
    pod's binding, phase or requests; :meth:`drop` when a pod is deleted. The pods are
    counted when :attr:`used` is first read (issue 30: most passes schedule nothing, and
    counting every pod's requests was a sixth of a settled pass); until then the store itself
    is what they are counted from, so :meth:`sync` and :meth:`drop` have nothing to do."""

    def __init__(self, store: ObjectStore, reserved: dict[str, tuple[int, int]]):
        self._used = {
            n["metadata"]["name"]: list(reserved.get(n["metadata"]["name"], (0, 0)))
            for n in store.iter("nodes")
        }
        self._by_pod: dict[str, tuple[str, int, int]] = {}
        #: the store whose pods are not counted yet (None: counted)
        self._uncounted: ObjectStore | None = store

    @property
    def used(self) -> dict[str, list[int]]:
        """node -> [cpu, memory] committed."""
        store, self._uncounted = self._uncounted, None
        if store is not None:
            for pod in store.iter("pods"):
                self.sync(pod)
        return self._used

    @staticmethod
    def _share(pod: dict[str, Any]) -> tuple[str, int, int] | None:
        node = pod["spec"].get("nodeName")
        if not node or pod.get("status", {}).get("phase") in ("Failed", "Succeeded"):
            return None
        cpu, mem = pod_requests(pod["spec"])
        return node, cpu, mem

    def _apply(self, share: tuple[str, int, int] | None, sign: int) -> None:
        if share is not None and share[0] in self._used:
            self._used[share[0]][0] += sign * share[1]
            self._used[share[0]][1] += sign * share[2]

    def sync(self, pod: dict[str, Any]) -> None:
        if self._uncounted is not None:
            return
        uid = (
            pod["metadata"].get("uid")
            or f"{pod['metadata'].get('namespace')}/{pod['metadata']['name']}"
        )
        share = self._share(pod)
        old = self._by_pod.get(uid)
        if old == share:
            return
        self._apply(old, -1)
        self._apply(share, 1)
        if share is None:
            self._by_pod.pop(uid, None)
        else:
            self._by_pod[uid] = share

    def drop(self, pod: dict[str, Any]) -> None:
        if self._uncounted is not None:
            return
        uid = (
            pod["metadata"].get("uid")
            or f"{pod['metadata'].get('namespace')}/{pod['metadata']['name']}"
        )
        self._apply(self._by_pod.pop(uid, None), -1)


def usage(store: ObjectStore, reserved: dict[str, tuple[int, int]]) -> dict[str, list[int]]:
    """node -> [cpu used, mem used] from bound, non-terminal pods plus background load."""
    used = {
        n["metadata"]["name"]: list(reserved.get(n["metadata"]["name"], (0, 0)))
        for n in store.iter("nodes")
    }
    for pod in store.iter("pods"):
        node = pod["spec"].get("nodeName")
        if node in used and pod.get("status", {}).get("phase") not in ("Failed", "Succeeded"):
            cpu, mem = pod_requests(pod["spec"])
            used[node][0] += cpu
            used[node][1] += mem
    return used


def _tolerates(pod_spec: dict[str, Any], taint: dict[str, Any]) -> bool:
    for tol in pod_spec.get("tolerations") or []:
        if tol.get("operator") == "Exists" and not tol.get("key"):
            return True
        if tol.get("key") == taint["key"] and tol.get("effect") in (None, "", taint["effect"]):
            return True
    return False


def _anti_affinity_terms(pod_spec: dict[str, Any]) -> list[dict[str, Any]]:
    aff = (pod_spec.get("affinity") or {}).get("podAntiAffinity") or {}
    return list(aff.get("requiredDuringSchedulingIgnoredDuringExecution") or [])


def place(
    store: ObjectStore,
    pod: dict[str, Any],
    reserved: dict[str, tuple[int, int]],
    ledger: Ledger | None = None,
) -> tuple[str | None, str]:
    """Pick a node for ``pod`` (least allocated first) or explain why none fits. ``ledger``:
    the committed resources of the current controller pass (else counted from the store)."""
    spec = pod["spec"]
    cpu, mem = pod_requests(spec)
    used = usage(store, reserved) if ledger is None else ledger.used
    nodes = list(store.iter("nodes"))
    for node in nodes:
        used.setdefault(
            node["metadata"]["name"], list(reserved.get(node["metadata"]["name"], (0, 0)))
        )
    reasons: dict[str, int] = {}
    fits: list[tuple[float, str]] = []
    for node in nodes:
        name = node["metadata"]["name"]
        labels = node["metadata"].get("labels") or {}
        alloc_cpu, alloc_mem = _alloc(node)
        why = None
        taint = next(
            (
                t
                for t in node["spec"].get("taints") or []
                if t["effect"] in ("NoSchedule", "NoExecute") and not _tolerates(spec, t)
            ),
            None,
        )
        if taint is not None:
            why = "node(s) had untolerated taint {{{}: }}".format(taint["key"])
        elif any(labels.get(k) != v for k, v in (spec.get("nodeSelector") or {}).items()):
            why = "node(s) didn't match Pod's node affinity/selector"
        elif any(_anti_conflict(store, pod, name, term) for term in _anti_affinity_terms(spec)):
            why = "node(s) didn't match pod anti-affinity rules"
        else:
            short = []
            if cpu > alloc_cpu - used[name][0]:
                short.append("Insufficient cpu")
            if mem > alloc_mem - used[name][1]:
                short.append("Insufficient memory")
            if short:
                for s in short:
                    reasons[s] = reasons.get(s, 0) + 1
                continue
        if why:
            reasons[why] = reasons.get(why, 0) + 1
            continue
        free = (alloc_cpu - used[name][0]) / max(alloc_cpu, 1) + (alloc_mem - used[name][1]) / max(
            alloc_mem, 1
        )
        fits.append((-free, name))
    if fits:
        return min(fits)[1], ""
    parts = ", ".join(f"{n} {r}" for r, n in sorted(reasons.items()))
    total = len(nodes)
    return None, (
        f"0/{total} nodes are available: {parts}. preemption: 0/{total} nodes are available: "
        f"{total} No preemption victims found for incoming pod."
    )


def _anti_conflict(
    store: ObjectStore, pod: dict[str, Any], node: str, term: dict[str, Any]
) -> bool:
    if term.get("topologyKey") not in ("kubernetes.io/hostname", None):
        return False
    ns = pod["metadata"].get("namespace")
    for other in store.iter("pods", ns):
        if other["spec"].get("nodeName") != node or other is pod:
            continue
        if other.get("status", {}).get("phase") in ("Failed", "Succeeded"):
            continue
        if selectors.matches(term.get("labelSelector"), other["metadata"].get("labels")):
            return True
    return False
