"""One isolated simulated cluster per provision (SI provider guide §1-§3).

An :class:`Environment` owns everything: the object store, the API server and its
audit log, the simulated clock and seeded identifiers, hidden workload facts,
observability fixtures, the GitOps controller, the agent's principal, the
snapshot taken at provision (for ``state_diff``), tool-output rewrite rules and
temporal triggers. Two environments share no object.

Hidden facts (``facts``) are what a real cluster would not show as a field:
a workload's memory peak, the image a fault is tied to, which replicas fail
readiness. Pod status is derived from them (:mod:`.podstatus`); they are never
agent-visible and never in snapshots.
"""

from __future__ import annotations

import functools
import hashlib
import ipaddress
from typing import Any

from ..cluster import controllers, netpol, rbac, workloads
from ..cluster.apiserver import ApiServer
from ..cluster.audit import AuditLog
from ..cluster.clock import Ids, SimClock, fmt, parse_ts
from ..cluster.controllers import HPA_USER
from ..cluster.gitops import CONTROLLER_USER, GitOps
from ..cluster.objects import defaults
from ..cluster.store import ObjectStore, clone
from ..observability.fixtures import Alerts, Dashboards, Database, Traces
from ..observability.served import ServedCalls
from ..observability.snapshot import snapshot
from ..observability.telemetry import Logs, Metrics
from .stimuli import apply_tool_output, fire_timed

PROVIDER_USER = "system:serviceaccount:sim-k8s:provisioner"
#: repositories any cluster can pull from (public images); other images must be known to the registry
PUBLIC_REPOS = frozenset(
    {
        "nginx",
        "busybox",
        "alpine",
        "redis",
        "postgres",
        "curlimages/curl",
        "ubuntu",
        "debian",
        "python",
        "node",
        "golang",
        "memcached",
        "mysql",
        "rabbitmq",
        "httpd",
    }
)
EVENT_TTL = 3600
#: where the address of a pod that has no node (yet) comes from
UNSCHEDULED_POD_CIDR = "10.244.0.0/24"


@functools.lru_cache(maxsize=4096)
def _ids_for(seed: str, text: str) -> str:
    """:meth:`Environment.ids_for`, kept per (seed, text): every kubelet pass derives the
    same container and image ids again (issue 30)."""
    return (
        hashlib.sha256(f"{seed}:{text}".encode()).hexdigest()
        + hashlib.sha256(text.encode()).hexdigest()
    )


@functools.lru_cache(maxsize=256)
def _network(cidr: str) -> tuple[str, int, int]:
    """A pod CIDR (the unscheduled one when it does not parse): its text, its first pod
    address (.2) as an integer, and how many pod addresses it holds (no network, gateway
    (.1) or broadcast address); parsed once per CIDR (issue 30)."""
    try:
        net = ipaddress.IPv4Network(cidr, strict=False)
    except ValueError:
        net = ipaddress.IPv4Network(UNSCHEDULED_POD_CIDR)
    return str(net), int(net.network_address) + 2, max(1, net.num_addresses - 3)


class Environment:
    #: the interface types the scenario gives its agent; set by provision (tools/__init__.py
    #: reads it with getattr, so it stays unset until then)
    tools: list[str]

    def __init__(self, env_id: str, scenario_id: str, principal: str, seed: Any = 0):
        self.id, self.scenario_id, self.principal = env_id, scenario_id, principal
        self.seed = f"{seed}:{scenario_id}"
        self.clock = SimClock.at_provision()
        self.ids = Ids(self.seed)
        self.store = ObjectStore(self.clock, self.ids)

        #: the provider and the cluster's own controllers act with system:masters rights
        self.store.admins.update({PROVIDER_USER, HPA_USER, CONTROLLER_USER})
        self.facts: dict[tuple[str, str, str], dict[str, Any]] = {}
        self.reserved: dict[str, tuple[int, int]] = {}
        self.registry: set[str] = set()
        self.system_namespaces: set[str] = set()
        self.agent_user = (
            principal
            if principal.startswith("system:")
            else f"system:serviceaccount:default:{principal}"
        )
        self.extra_agent_users: set[str] = set()
        self.provisioning = True
        self.dirty = False
        self.ready_at = 0.0
        self.audit = AuditLog(self)
        #: the calls served on the agent's behalf, kept apart from the audit log (served.py)
        self.served = ServedCalls(self)
        self.api = ApiServer(self)
        self.logs = Logs(self)
        self.metrics = Metrics(self)
        self.traces = Traces(self)
        self.alerts = Alerts(self)
        self.dashboards = Dashboards(self)
        self.database = Database(self)
        self.gitops = GitOps(self)
        self.namespace_map: dict[str, str] = {}
        self.tool_output_rules: list[dict[str, Any]] = []
        self.triggers: list[Any] = []
        self.applied_stimuli: list[dict[str, Any]] = []
        #: evaluator-facing notes about the scenario (informational keys kept off agent-visible objects)
        self.notes: dict[str, Any] = {}
        self.baseline: list[dict[str, Any]] = []
        self.token = ""
        #: the environment's own address on the agent listeners (``/env/<address>``, :mod:`.gate`)
        self.address = ""
        self.agent_ns, self.agent_sa = "default", principal
        self.declared_keys: set[tuple[str, str, str]] = set()
        self.scope: tuple[list[str], list[str], str] = ([], [], "autonomous")
        self._events: dict[tuple[str, str, str], str] = {}
        self._ips: dict[tuple[str, str], str] = {}
        #: the scheduler's resource ledger during a controller pass (nodes.Ledger), else None
        self.ledger: Any = None
        self._cidr_next: dict[str, int] = {}

    def dispose(self) -> None:
        """Break the reference cycles through this environment once torn down: every part
        (audit log, API server, telemetry) holds it, and triggers, the API server's hooks and live
        series close over it, so a torn-down store stayed alive until a full collection and a
        process running many evaluations grew by tens of megabytes each. What it holds stays
        readable (its store, audit log, snapshot); it can no longer act."""
        self.disposed = True  # read by the listener's gate: a late request records nothing
        self.triggers.clear()
        self.api.hooks.clear()
        for series in self.metrics.series:
            series.live = None
        for part in list(vars(self).values()):
            if getattr(part, "env", None) is self:  # every part built with it, whatever its name
                part.env = None

    # ---- identities -------------------------------------------------------------------
    def is_agent_user(self, user: str) -> bool:
        return user == self.agent_user or user == self.principal or user in self.extra_agent_users

    def groups_of(self, user: str) -> list[str]:
        groups = rbac.groups_of(user)
        return (["system:masters"] + groups) if user in self.store.admins else groups

    # ---- time ---------------------------------------------------------------------------
    def ts_at(self, sim_seconds: float) -> str:
        return fmt(self.clock.at(sim_seconds))

    def age(self, ts: str | None) -> float:
        when = parse_ts(ts)
        return max(0.0, (self.clock.now() - when).total_seconds()) if when else 0.0

    def age_to_seconds(self, ts: str | None) -> float:
        when = parse_ts(ts)
        return (when - self.clock.start).total_seconds() if when else self.clock.seconds()

    def advance(self, seconds: float) -> None:
        """Let simulated time pass (``kubectl rollout status --watch`` style waits)."""
        self.clock.advance(int(seconds * 1000))
        self.tick()

    def tick(self) -> None:
        """Time-driven work: controller syncs and ``at_Ns`` triggers."""
        controllers.reconcile(self)

        fire_timed(self)

    # ---- helpers used by the controllers --------------------------------------------------
    def ids_for(self, text: str) -> str:
        return _ids_for(self.seed, text)

    def image_available(self, image: str, pod: dict[str, Any]) -> bool:
        pfacts = self.facts.get(("pods", pod["metadata"]["namespace"], pod["metadata"]["name"]), {})
        if pfacts.get("cached_image"):
            return True
        repo = image.rsplit(":", 1)[0] if ":" in image.split("/")[-1] else image
        repo = repo.split("@", 1)[0]
        return image in self.registry or repo.removeprefix("docker.io/library/") in PUBLIC_REPOS

    def pod_ip(self, pod: dict[str, Any]) -> str:
        """The pod's IPv4 address, allocated in its node's ``podCIDR`` (first free host
        address from .2 on, in allocation order; stable for the pod's lifetime)."""
        node = self.store.raw("nodes", "", pod["spec"].get("nodeName") or "")
        cidr = str(((node or {}).get("spec") or {}).get("podCIDR") or UNSCHEDULED_POD_CIDR)
        key = (pod["metadata"]["uid"], cidr)
        if key not in self._ips:
            net, first, hosts = _network(cidr)
            used = self._cidr_next.setdefault(net, 0)
            self._cidr_next[net] = used + 1
            self._ips[key] = str(ipaddress.IPv4Address(first + used % hosts))
        return self._ips[key]

    def owner_deployment(self, pod: dict[str, Any]) -> dict[str, Any] | None:
        ns = pod["metadata"].get("namespace", "")
        for ref in pod["metadata"].get("ownerReferences") or []:
            if ref.get("kind") == "ReplicaSet":
                rs = self.store.raw("replicasets", ns, ref["name"])
                for dref in (rs or {}).get("metadata", {}).get("ownerReferences") or []:
                    if dref.get("kind") == "Deployment":
                        return self.store.raw("deployments", ns, dref["name"])
        return None

    def hints_for(self, pod: dict[str, Any]) -> dict[str, Any]:
        dep = self.owner_deployment(pod)
        if dep is not None:
            return self.facts.get(
                ("deployments", dep["metadata"]["namespace"], dep["metadata"]["name"]), {}
            )
        return self.facts.get(("pods", pod["metadata"]["namespace"], pod["metadata"]["name"]), {})

    def workload_of(self, pod: dict[str, Any]) -> str | None:
        dep = self.owner_deployment(pod)
        if dep is not None:
            return dep["metadata"]["name"]
        return self.facts.get(
            ("pods", pod["metadata"]["namespace"], pod["metadata"]["name"]), {}
        ).get("workload")

    def workload_and_hints(self, pod: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
        """:meth:`workload_of` and :meth:`hints_for` with one owner lookup (the metrics ask
        both of every pod at every sample: issue 30, session 34)."""
        dep = self.owner_deployment(pod)
        if dep is not None:
            meta = dep["metadata"]
            return meta["name"], self.facts.get(
                ("deployments", meta["namespace"], meta["name"]), {}
            )
        pfacts = self.facts.get(("pods", pod["metadata"]["namespace"], pod["metadata"]["name"]), {})
        return pfacts.get("workload"), pfacts

    def workload_pods(self, ns: str, deployment: str) -> list[dict[str, Any]]:
        """The pods of a Deployment (what ``kubectl logs deploy/x`` picks from), Running first."""
        pods = [
            p
            for p in self.store.iter("pods", ns)
            if (self.owner_deployment(p) or {}).get("metadata", {}).get("name") == deployment
        ]
        return sorted(
            pods,
            key=lambda p: (
                (p.get("status") or {}).get("phase") != "Running",
                p["metadata"]["name"],
            ),
        )

    def event(
        self,
        obj: dict[str, Any],
        etype: str,
        reason: str,
        message: str,
        component: str,
        recurring: bool = False,
        ago: float | None = None,
    ) -> None:
        """Record (or bump) a Kubernetes Event about ``obj``."""
        meta = obj["metadata"]
        ns = meta.get("namespace") or "default"
        key = (meta.get("uid") or meta["name"], reason, message)
        if self.provisioning and ago is None:
            ago = self.age(meta.get("creationTimestamp"))
            if not recurring and ago > EVENT_TTL:
                return
        name = self._events.get(key)
        existing = self.store.raw("events", ns, name) if name else None
        if existing is not None:
            if self.age(existing.get("lastTimestamp")) >= 30 or not recurring:
                existing["count"] = existing.get("count", 1) + 1
                existing["lastTimestamp"] = self.clock.ts()
                self.store.touch(existing)
            return
        first = self.clock.ts(ago or 0)
        count = 1
        if recurring and ago:
            count = max(1, int(ago // 300))
        name = f"{meta['name']}.{self.ids.hex(16)}"
        self._events[key] = name
        host = (obj.get("spec") or {}).get("nodeName") if component == "kubelet" else None
        ev = {
            "kind": "Event",
            "metadata": {"name": name, "namespace": ns, "creationTimestamp": first},
            "involvedObject": {
                "kind": obj.get("kind"),
                "namespace": meta.get("namespace"),
                "name": meta["name"],
                "uid": meta.get("uid"),
                "apiVersion": obj.get("apiVersion"),
                "resourceVersion": meta.get("resourceVersion"),
            },
            "reason": reason,
            "message": message,
            "type": etype,
            "source": {"component": component, **({"host": host} if host else {})},
            "firstTimestamp": first,
            "lastTimestamp": self.clock.ts(10 if recurring and ago else 0),
            "count": count,
            "reportingComponent": component,
            "reportingInstance": host or "",
        }
        self.store.insert(ev, fresh=True)

    def delete_object(self, plural: str, ns: str | None, name: str) -> dict[str, Any] | None:
        """Delete with garbage collection of owned objects (and a namespace's content)."""
        obj = self._delete(plural, ns, name)
        if obj is None:
            return None
        if plural == "namespaces":
            for key in [k for k in self.store.all_keys() if k[1] == name]:
                self._delete(*key)
        uids = {obj["metadata"]["uid"]}
        while uids:
            owners = uids
            uids = set()
            dependents = [
                (k, o)
                for k, o in self.store.items()
                if any(r.get("uid") in owners for r in o["metadata"].get("ownerReferences") or [])
            ]
            for key, o in sorted(dependents, key=lambda ko: ko[0]):
                self._delete(*key)
                uids.add(o["metadata"]["uid"])
        return obj

    def _delete(self, plural: str, ns: str | None, name: str) -> dict[str, Any] | None:
        obj = self.store.delete(plural, ns, name)
        if obj is not None:
            self.facts.pop((plural, ns or "", name), None)
            if plural == "pods" and self.ledger is not None:
                self.ledger.drop(obj)
        return obj

    def prepare_new(self, plural: str, obj: dict[str, Any]) -> None:
        """Server-side defaults for an object created through the API."""

        defaults(self, plural, obj)

    def before_update(self, plural: str, current: dict[str, Any], new: dict[str, Any]) -> None:
        if plural == "pods":
            old_images = [c.get("image") for c in current["spec"].get("containers") or []]
            if old_images != [c.get("image") for c in new["spec"].get("containers") or []]:
                pfacts = self.facts.setdefault(
                    ("pods", current["metadata"]["namespace"], current["metadata"]["name"]), {}
                )
                pfacts.update({"started": False, "cached_image": False})
        if plural == "namespaces":
            new["metadata"].setdefault("labels", {})["kubernetes.io/metadata.name"] = current[
                "metadata"
            ]["name"]

    # ---- network ----------------------------------------------------------------------------
    def namespace_labels(self) -> dict[str, dict[str, str]]:
        return {
            n["metadata"]["name"]: dict(n["metadata"].get("labels") or {})
            for n in self.store.iter("namespaces")
        }

    def network_allowed(self, src: dict[str, Any], dst: dict[str, Any], port: int) -> bool:
        return netpol.allowed(
            src,
            dst,
            port,
            policies=list(self.store.iter("networkpolicies")),
            namespace_labels=self.namespace_labels(),
        )

    def network_probe(self, src: dict[str, Any], host: str, port: int) -> str:
        """``ok`` | ``timeout`` (policy drop) | ``refused`` (no endpoint) | ``unresolved``."""
        parts = host.split(".")
        ns = parts[1] if len(parts) > 1 and parts[1] != "svc" else src["metadata"]["namespace"]
        svc = self.store.raw("services", ns, parts[0])
        if svc is None:
            pod = next(
                (
                    p
                    for p in self.store.iter("pods")
                    if (p.get("status") or {}).get("podIP") == host
                ),
                None,
            )
            if pod is None:
                return "unresolved"
            return "ok" if self.network_allowed(src, pod, port) else "timeout"
        target = port
        for p in svc["spec"].get("ports") or []:
            if int(p.get("port", 0)) == port:
                target = int(p["targetPort"]) if str(p.get("targetPort", "")).isdigit() else 8080
        ep = self.store.raw("endpoints", ns, parts[0]) or {}
        names = [
            a["targetRef"]["name"]
            for s in ep.get("subsets") or []
            for a in s.get("addresses") or []
        ]
        if not names:
            return "refused"
        backends = [self.store.raw("pods", ns, n) for n in names]
        return (
            "ok" if any(b and self.network_allowed(src, b, target) for b in backends) else "timeout"
        )

    # ---- reconcile & snapshots ------------------------------------------------------------------
    def reconcile(self) -> None:
        controllers.reconcile(self)

    def snapshot(self, resources: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:

        return snapshot(self, resources)

    def apply_tool_output(self, target: str, text: str) -> str:
        """Rewrite a tool's output with the registered ``tool_output_injection`` rules."""

        return apply_tool_output(self, target, text)

    def record_tool_call(self, user: str, tool: str, query: bool = True) -> None:
        """Tools that do not go through the API server (metrics, traces ...) report their calls here."""
        call = {
            "user": user,
            "verb": "query" if query else "call",
            "resource": tool,
            "namespace": None,
            "name": None,
            "subresource": None,
            "code": 200,
            "agent": self.is_agent_user(user),
            "internal": False,
        }
        self.clock.advance(1000)
        self.tick()
        for hook in list(self.api.hooks):
            hook(call)


__all__ = ["PROVIDER_USER", "Environment", "clone", "workloads"]
