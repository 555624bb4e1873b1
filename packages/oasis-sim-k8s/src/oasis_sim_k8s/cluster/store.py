"""The object store: Kubernetes-shaped dicts keyed by (resource plural, namespace, name).

Objects carry ``apiVersion, kind, metadata{name, namespace, labels, annotations, uid,
resourceVersion, generation, creationTimestamp, ownerReferences}, spec, status``
(SI provider guide §2.2 snapshots read them back). Reads return deep copies; the
controllers use :meth:`ObjectStore.raw` to work on the stored object in place.
Cluster-scoped objects use namespace ``""``.
"""

from __future__ import annotations

import builtins
import functools
from collections.abc import Callable, Iterator
from typing import Any

from . import selectors
from .clock import Ids, SimClock

#: plural -> (Kind, apiVersion, namespaced, short names)
KINDS: dict[str, tuple[str, str, bool]] = {
    "pods": ("Pod", "v1", True),
    "services": ("Service", "v1", True),
    "endpoints": ("Endpoints", "v1", True),
    "configmaps": ("ConfigMap", "v1", True),
    "secrets": ("Secret", "v1", True),
    "events": ("Event", "v1", True),
    "serviceaccounts": ("ServiceAccount", "v1", True),
    "persistentvolumeclaims": ("PersistentVolumeClaim", "v1", True),
    "resourcequotas": ("ResourceQuota", "v1", True),
    "namespaces": ("Namespace", "v1", False),
    "nodes": ("Node", "v1", False),
    "persistentvolumes": ("PersistentVolume", "v1", False),
    "deployments": ("Deployment", "apps/v1", True),
    "replicasets": ("ReplicaSet", "apps/v1", True),
    "statefulsets": ("StatefulSet", "apps/v1", True),
    "daemonsets": ("DaemonSet", "apps/v1", True),
    "jobs": ("Job", "batch/v1", True),
    "ingresses": ("Ingress", "networking.k8s.io/v1", True),
    "networkpolicies": ("NetworkPolicy", "networking.k8s.io/v1", True),
    "ingressclasses": ("IngressClass", "networking.k8s.io/v1", False),
    "horizontalpodautoscalers": ("HorizontalPodAutoscaler", "autoscaling/v2", True),
    "poddisruptionbudgets": ("PodDisruptionBudget", "policy/v1", True),
    "roles": ("Role", "rbac.authorization.k8s.io/v1", True),
    "rolebindings": ("RoleBinding", "rbac.authorization.k8s.io/v1", True),
    "clusterroles": ("ClusterRole", "rbac.authorization.k8s.io/v1", False),
    "clusterrolebindings": ("ClusterRoleBinding", "rbac.authorization.k8s.io/v1", False),
    "storageclasses": ("StorageClass", "storage.k8s.io/v1", False),
    "applications": ("Application", "argoproj.io/v1alpha1", True),
    "clusterissuers": ("ClusterIssuer", "cert-manager.io/v1", False),
    "certificates": ("Certificate", "cert-manager.io/v1", True),
    # the other built-in kinds of the served release (issue 32: discovery serves every one,
    # answering empty lists where a scenario made none, so `get cronjobs`, `get crd` work)
    "cronjobs": ("CronJob", "batch/v1", True),
    "limitranges": ("LimitRange", "v1", True),
    "podtemplates": ("PodTemplate", "v1", True),
    "replicationcontrollers": ("ReplicationController", "v1", True),
    "controllerrevisions": ("ControllerRevision", "apps/v1", True),
    "endpointslices": ("EndpointSlice", "discovery.k8s.io/v1", True),
    "leases": ("Lease", "coordination.k8s.io/v1", True),
    "customresourcedefinitions": (
        "CustomResourceDefinition",
        "apiextensions.k8s.io/v1",
        False,
    ),
    "priorityclasses": ("PriorityClass", "scheduling.k8s.io/v1", False),
    "runtimeclasses": ("RuntimeClass", "node.k8s.io/v1", False),
    "csidrivers": ("CSIDriver", "storage.k8s.io/v1", False),
    "csinodes": ("CSINode", "storage.k8s.io/v1", False),
    "volumeattachments": ("VolumeAttachment", "storage.k8s.io/v1", False),
    "validatingwebhookconfigurations": (
        "ValidatingWebhookConfiguration",
        "admissionregistration.k8s.io/v1",
        False,
    ),
    "mutatingwebhookconfigurations": (
        "MutatingWebhookConfiguration",
        "admissionregistration.k8s.io/v1",
        False,
    ),
    "certificatesigningrequests": ("CertificateSigningRequest", "certificates.k8s.io/v1", False),
}
_BY_KIND = {kind.lower(): plural for plural, (kind, _, _) in KINDS.items()}
#: Kind, exactly as a stored object spells it -> plural (what :meth:`ObjectStore.touch` reads)
_PLURAL = {kind: plural for plural, (kind, _, _) in KINDS.items()}


class Conflict(Exception):
    """The object already exists (HTTP 409 AlreadyExists)."""


def clone(value: Any) -> Any:
    """Deep copy of JSON-like data (faster than ``copy.deepcopy``): dicts and lists are
    copied (subclasses become plain dicts and lists), anything else is shared."""
    kind = type(value)
    if kind is dict:
        return _clone_dict(value)
    if kind is list:
        return _clone_list(value)
    if isinstance(value, dict):
        return {k: clone(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clone(v) for v in value]
    return value


#: values :func:`clone` shares without a look (the common leaves of stored objects)
_LEAVES = frozenset({str, int, float, bool, type(None)})


def _clone_dict(value: dict[Any, Any]) -> dict[Any, Any]:
    out = value.copy()  # a shallow copy in C, then only the nested containers are replaced
    for k, v in value.items():
        kind = type(v)
        if kind is dict:
            out[k] = _clone_dict(v)
        elif kind is list:
            out[k] = _clone_list(v)
        elif kind not in _LEAVES:
            out[k] = clone(v)
    return out


def _clone_list(value: list[Any]) -> list[Any]:
    out = value.copy()
    for i, v in enumerate(value):
        kind = type(v)
        if kind is dict:
            out[i] = _clone_dict(v)
        elif kind is list:
            out[i] = _clone_list(v)
        elif kind not in _LEAVES:
            out[i] = clone(v)
    return out


def plural_of(kind_or_plural: str) -> str | None:
    """``Deployment`` / ``deployment`` / ``deployments`` -> ``deployments`` (None if unknown)."""
    if type(kind_or_plural) is str:
        return _plural_of_text(kind_or_plural)
    return _plural_of(kind_or_plural)


@functools.lru_cache(maxsize=4096)
def _plural_of_text(text: str) -> str | None:
    """:func:`plural_of` of a string, kept: every request, audit entry and stored write asks
    it of the same few dozen spellings (issue 30, session 8)."""
    return _plural_of(text)


def _plural_of(kind_or_plural: Any) -> str | None:
    word = kind_or_plural.strip().lower().split(".", 1)[0]
    if word in KINDS:
        return word
    return _BY_KIND.get(word)


def api_group(plural: str) -> str:
    version = KINDS[plural][1]
    return version.split("/", 1)[0] if "/" in version else ""


def namespaced(plural: str) -> bool:
    return KINDS[plural][2]


def labels_of(obj: dict[str, Any]) -> dict[str, str]:
    return obj.get("metadata", {}).get("labels") or {}


class ObjectStore:
    """All objects of one environment."""

    def __init__(self, clock: SimClock, ids: Ids):
        self.clock = clock
        self.ids = ids
        self._objs: dict[tuple[str, str, str], dict[str, Any]] = {}
        self._by: dict[str, dict[tuple[str, str], dict[str, Any]]] = {p: {} for p in KINDS}
        #: plural -> namespace (None: all) -> its (namespace, name) keys in order, kept until
        #: the resource's key set changes
        self._sorted: dict[str, dict[str | None, list[tuple[str, str]]]] = {}
        self._rv = 1000
        #: (plural, namespace) -> when a write last changed its objects (:meth:`mark`)
        self._marks: dict[tuple[str, str], int] = {}
        self._writes = 0
        #: (plural, namespace) -> how often its set of stored objects changed (insert,
        #: replace, delete: never a change in place), and the owner index made at one count
        self._members: dict[tuple[str, str], int] = {}
        self._owners: dict[tuple[str, str], tuple[int, dict[Any, list[dict[str, Any]]]]] = {}
        #: users in the system:masters group of this cluster (RBAC bypass)
        self.admins: set[str] = set()

    # ---- keys ---------------------------------------------------------------
    @staticmethod
    def key_of(obj: dict[str, Any]) -> tuple[str, str, str]:
        plural = plural_of(obj["kind"])
        if plural is None:
            raise KeyError(f"unknown kind {obj['kind']!r}")
        meta = obj["metadata"]
        ns = meta.get("namespace", "") if namespaced(plural) else ""
        return plural, ns or "", meta["name"]

    def _next_rv(self) -> str:
        self._rv += 1
        return str(self._rv)

    @property
    def writes(self) -> int:
        """How many writes the store has taken (insert, replace, touch, delete): while it
        stands, every object stands as stored (a change in place without a touch aside)."""
        return self._writes

    @property
    def resource_version(self) -> str:
        """The store's current resourceVersion (List metadata)."""
        return str(self._rv)

    # ---- reads --------------------------------------------------------------
    def get(self, plural: str, namespace: str | None, name: str) -> dict[str, Any] | None:
        obj = self.raw(plural, namespace, name)
        return clone(obj) if obj is not None else None

    def raw(self, plural: str, namespace: str | None, name: str) -> dict[str, Any] | None:
        ns = (namespace or "") if namespaced(plural) else ""
        return self._objs.get((plural, ns, name))

    def exists(self, plural: str, namespace: str | None, name: str) -> bool:
        return self.raw(plural, namespace, name) is not None

    def iter(self, plural: str, namespace: str | None = None) -> Iterator[dict[str, Any]]:
        """Stored objects (no copy) of a resource, in (namespace, name) order. Objects
        deleted meanwhile are skipped; objects created meanwhile are not visited."""
        bucket = self._by.get(plural, {})
        cached = self._sorted.get(plural)
        if cached is None:  # sorted once per change of the resource's key set, never mutated
            cached = self._sorted[plural] = {None: sorted(bucket)}
        keys = cached.get(namespace)
        if keys is None:
            keys = cached[namespace] = [k for k in cached[None] if k[0] == namespace]
        for key in keys:
            obj = bucket.get(key)
            if obj is not None:
                yield obj

    def mark(self, plural: str, namespace: str, listed: bool = False) -> int:
        """A watermark of the ``plural`` objects in ``namespace``: it moves with every
        insert, replace, touch and delete there, so while it stands their names and
        resourceVersions stand too (what the controllers' memo compares, ``settled.py``:
        issue 30, session 8; the versions themselves took a twentieth of a run to gather).
        ``listed``: fill :meth:`iter`'s caches for them as a listing would."""
        if listed:
            cached = self._sorted.get(plural)
            if cached is None:
                cached = self._sorted[plural] = {None: sorted(self._by.get(plural, {}))}
            if namespace not in cached:
                cached[namespace] = [k for k in cached[None] if k[0] == namespace]
        return self._marks.get((plural, namespace), 0)

    def marks(
        self, plurals: tuple[str, ...], namespace: str, listed: tuple[str, ...] = ()
    ) -> tuple[int, ...]:
        """:meth:`mark` of each of ``plurals`` in ``namespace`` in one call (the controllers'
        memo asks for six at every look), filling the listing caches of ``listed``."""
        for plural in listed:
            self.mark(plural, namespace, listed=True)
        get = self._marks.get
        return tuple([get((plural, namespace), 0) for plural in plurals])

    def _mark(self, plural: str, namespace: str, members: bool = False) -> None:
        self._writes += 1
        self._marks[(plural, namespace)] = self._writes
        if members:
            self._members[(plural, namespace)] = self._writes

    def owned(self, plural: str, namespace: str, uid: Any) -> builtins.list[dict[str, Any]]:
        """The stored ``plural`` objects in ``namespace`` with an owner reference to ``uid``,
        in listing order (a new list of the stored objects). Every controller pass asks it
        of each workload several times: the answer comes from an index of the namespace's
        owners, made again only when an object there is stored, replaced or deleted (an
        owner reference is never changed in place; issue 30, session 8). The listing caches
        are left as a listing leaves them."""
        key = (plural, namespace)
        count = self._members.get(key, 0)
        held = self._owners.get(key)
        if held is None or held[0] != count:
            held = self._owners[key] = (count, self._owner_index(plural, namespace))
        else:
            self.mark(plural, namespace, listed=True)
        try:
            return builtins.list(held[1].get(uid, ()))
        except TypeError:  # an owner uid that is not text (a malformed write): look at each
            return [
                obj
                for obj in self.iter(plural, namespace)
                if any(
                    ref.get("uid") == uid for ref in obj["metadata"].get("ownerReferences") or ()
                )
            ]

    def _owner_index(self, plural: str, namespace: str) -> dict[Any, builtins.list[dict[str, Any]]]:
        """owner uid -> the objects naming it, in listing order (an owner that cannot be a key
        is left out: :meth:`owned` looks at each object for it)."""
        index: dict[Any, builtins.list[dict[str, Any]]] = {}
        for obj in self.iter(plural, namespace):
            for ref in obj["metadata"].get("ownerReferences") or ():
                try:
                    group = index.setdefault(ref.get("uid"), [])
                except TypeError:
                    continue
                if not group or group[-1] is not obj:
                    group.append(obj)
        return index

    def list(
        self,
        plural: str,
        namespace: str | None = None,
        selector: str | None = None,
        field_selector: str | None = None,
    ) -> list[dict[str, Any]]:
        match = selectors.parse(selector)
        fields = _field_matcher(field_selector)
        return [clone(o) for o in self.iter(plural, namespace) if match(labels_of(o)) and fields(o)]

    def all_keys(self) -> builtins.list[tuple[str, str, str]]:
        return sorted(self._objs)

    def items(self) -> builtins.list[tuple[tuple[str, str, str], dict[str, Any]]]:
        """Every stored (key, object), no copy and no order (for whole-store scans)."""
        return list(self._objs.items())

    # ---- a copied platform (injection/platform.py) ------------------------------
    def counters(self) -> tuple[int, dict[tuple[str, str], int], int, dict[tuple[str, str], int]]:
        """The resourceVersion counter and the watermarks, as :meth:`adopt` takes them."""
        return self._rv, dict(self._marks), self._writes, dict(self._members)

    def adopt(
        self,
        objects: builtins.list[tuple[tuple[str, str, str], dict[str, Any]]],
        counters: tuple[int, dict[tuple[str, str], int], int, dict[tuple[str, str], int]],
    ) -> None:
        """Take ``objects`` (handed over, each its own copy) and the counters of the store
        they were copied from, into this empty store: the same versions and watermarks as
        there, so a settled pass there is settled here (issue 30, session 10)."""
        if self._objs:
            raise ValueError("a platform is adopted into an empty store only")
        for key, obj in objects:
            self._objs[key] = obj
            self._by[key[0]][key[1:]] = obj
        self._sorted.clear()
        self._owners.clear()
        rv, marks, writes, members = counters
        self._rv, self._writes = rv, writes
        self._marks, self._members = dict(marks), dict(members)

    # ---- writes -------------------------------------------------------------
    def create(self, obj: dict[str, Any]) -> dict[str, Any]:
        """Store a new object, filling server-side metadata; returns a copy of what was
        stored. Raises :class:`Conflict`."""
        return clone(self.insert(obj))

    def insert(self, obj: dict[str, Any], *, fresh: bool = False) -> dict[str, Any]:
        """:meth:`create` for the controllers: returns the stored object itself (no copy).
        ``fresh``: ``obj`` was just built by the caller, shares no container with anything
        else and is handed over, so it is stored as it is instead of copied (issue 30: the
        copy was a fifth of provisioning)."""
        plural = plural_of(obj.get("kind", ""))
        if plural is None:
            raise KeyError(f"unknown kind {obj.get('kind')!r}")
        kind, version, is_ns = KINDS[plural]
        if not fresh:
            obj = clone(obj)
        obj["apiVersion"] = obj.get("apiVersion") or version
        obj["kind"] = kind
        meta = obj.setdefault("metadata", {})
        if not is_ns:
            meta.pop("namespace", None)
        key = self.key_of(obj)
        if key in self._objs:
            raise Conflict(f'{plural} "{key[2]}" already exists')
        # a uid is drawn even for an object that has one (later uids stay where they are),
        # and the clock is read even when the object has its time; neither value is made
        # when it is not kept (issue 30: both were a twentieth of provisioning)
        if "uid" in meta:
            self.ids.skip_uid()
        else:
            meta["uid"] = self.ids.uid()
        meta["resourceVersion"] = self._next_rv()
        if "creationTimestamp" in meta:
            self.clock.catch_up()
        else:
            meta["creationTimestamp"] = self.clock.ts()
        if "spec" in obj or plural in ("deployments", "replicasets"):
            meta.setdefault("generation", 1)
        self._objs[key] = obj
        self._by[plural][key[1:]] = obj
        self._sorted.pop(plural, None)
        self._mark(plural, key[1], members=True)
        return obj

    def replace(self, obj: dict[str, Any], bump_generation: bool | None = None) -> dict[str, Any]:
        """Store a new version of an existing object (uid and creation time are kept)."""
        key = self.key_of(obj)
        old = self._objs.get(key)
        if old is None:
            raise KeyError(key)
        obj = clone(obj)
        meta = obj.setdefault("metadata", {})
        for field in ("uid", "creationTimestamp"):
            meta[field] = old["metadata"].get(field)
        changed = old.get("spec") != obj.get("spec") if bump_generation is None else bump_generation
        if "generation" in old["metadata"]:
            meta["generation"] = old["metadata"]["generation"] + (1 if changed else 0)
        meta["resourceVersion"] = self._next_rv()
        self._objs[key] = obj
        self._by[key[0]][key[1:]] = obj
        self._mark(key[0], key[1], members=True)
        return clone(obj)

    def touch(self, obj: dict[str, Any]) -> None:
        """Mark an in-place change of a stored object (new resourceVersion)."""
        meta = obj["metadata"]
        meta["resourceVersion"] = self._next_rv()
        kind = obj.get("kind", "")
        plural = _PLURAL.get(kind) or plural_of(kind)
        if plural is not None:
            self._mark(plural, (meta.get("namespace") or "") if namespaced(plural) else "")

    def delete(self, plural: str, namespace: str | None, name: str) -> dict[str, Any] | None:
        ns = (namespace or "") if namespaced(plural) else ""
        self._by.get(plural, {}).pop((ns, name), None)
        self._sorted.pop(plural, None)
        gone = self._objs.pop((plural, ns, name), None)
        if gone is not None:
            self._mark(plural, ns, members=True)
        return gone


def _field_matcher(text: str | None) -> Callable[[dict[str, Any]], bool]:
    """``metadata.name=x,status.phase!=Running,spec.nodeName=node-1`` (the common ones)."""
    if not text:
        return lambda obj: True
    tests: list[tuple[list[str], str, bool]] = []
    for part in text.split(","):
        neg = "!=" in part
        path, _, want = part.replace("!=", "=").replace("==", "=").partition("=")
        tests.append((path.strip().split("."), want.strip(), neg))

    def ok(obj: dict[str, Any]) -> bool:
        for path, want, neg in tests:
            cur: Any = obj
            for p in path:
                cur = cur.get(p) if isinstance(cur, dict) else None
            if (str(cur if cur is not None else "") == want) == neg:
                return False
        return True

    return ok
