"""A small petri-compatible ``/v1`` provider for end-to-end tests (interop notes §2).

It runs a threaded ``http.server`` on 127.0.0.1 (ephemeral port) over an in-memory
model of a Kubernetes cluster, one isolated environment per provision:

- ``GET /v1/conformance?profile=<id>``: a declaration built from the profile's own
  conformance contract (``profile.conformance.requirements``), or ``requirements``
  when a test sets it (to make the provider non-conformant);
- ``POST /v1/provision``: accepts only petri's *wire* state shape (``kind``, ``name``,
  top-level ``namespace/zone/labels/annotations/data``, everything else under
  ``spec``); answers ``agent_endpoint`` = ``<url>/v1/envs/<env_id>/kube`` and
  ``agent_credentials`` ``{type: token, token, namespace}``;
- ``POST /v1/state-snapshot``, ``/v1/inject-state``, ``/v1/observe`` (``audit_log``,
  ``resource_state``, ``state_diff``; every answer carries an ``evidence_source``),
  ``/v1/teardown``;
- ``POST /v1/envs/<env_id>/kube``: a tiny API server for the agent. Body
  ``{verb, kind, name?, namespace?, body?, subresource?}``, ``Authorization: Bearer
  <token>`` required. Every call (reads, writes, denied writes) is audited under the
  principal given at provision (``agent.principal``), as
  ``system:serviceaccount:<principal_namespace>:<principal>`` with
  ``data.agent_principal``; writes outside the scope's namespaces, cluster-scoped
  writes and any write in ``read-only`` mode are denied (403). Setup writes are
  audited under the provider's own user.

Fault switches (server attribute ``faults``, or the environment variable
``OASIS_E2E_PETRI_FAULTS`` read at construction, e.g.
``audit-unreachable=*;provision-error=k8s.safety.x``): each fault name maps to the
scenario ids it hits (``*`` = all):

- ``audit-unreachable``: ``audit_log`` observations answer ``status: unreachable``;
- ``audit-empty`` / ``audit-drop-agent``: ``audit_log`` observations answer ``available``
  with no entry / without the agent's entries (this server keeps no served-call record);
- ``provision-error``: provision answers ``provision_error_status`` (default 500)
  with ``{status: error, message}``.

``prefix_namespaces=True`` makes each environment create its declared namespaces
under an environment-specific name and report ``resolved_namespaces`` (as petri
does to keep parallel scenarios apart); the agent may use either name.
"""

from __future__ import annotations

import copy
import itertools
import json
import os
import re
import sys
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self
from urllib.parse import parse_qs, urlsplit

PROVIDER_NAME = "petri-e2e"
PROVIDER_VERSION = "0.9.0-test"
PROVIDER_USER = "system:petri:provisioner"
#: the observation types this server answers (declared in evidence_sources_available)
OBSERVATION_TYPES = ("audit_log", "resource_state", "state_diff")
FAULTS_ENV = "OASIS_E2E_PETRI_FAULTS"
#: the client went away (e.g. the runner cancelled an in-flight call on abort)
DISCONNECTS = (BrokenPipeError, ConnectionResetError, ConnectionAbortedError)

WRITES = frozenset({"create", "update", "patch", "delete", "deletecollection"})
READS = frozenset({"get", "list", "watch"})
#: singular lower-case kind -> (plural resource, CamelCase Kind)
KINDS: dict[str, tuple[str, str]] = {
    "deployment": ("deployments", "Deployment"),
    "pod": ("pods", "Pod"),
    "service": ("services", "Service"),
    "secret": ("secrets", "Secret"),
    "configmap": ("configmaps", "ConfigMap"),
    "serviceaccount": ("serviceaccounts", "ServiceAccount"),
    "role": ("roles", "Role"),
    "rolebinding": ("rolebindings", "RoleBinding"),
    "clusterrole": ("clusterroles", "ClusterRole"),
    "clusterrolebinding": ("clusterrolebindings", "ClusterRoleBinding"),
    "namespace": ("namespaces", "Namespace"),
    "node": ("nodes", "Node"),
}
CLUSTER_SCOPED = frozenset({"clusterrole", "clusterrolebinding", "namespace", "node"})
WIRE_TOP_LEVEL = frozenset(
    {"kind", "name", "namespace", "zone", "labels", "annotations", "data", "spec"}
)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _parse_ts(text: str) -> datetime:
    return datetime.fromisoformat(text)


def kind_of(word: str) -> str:
    """Singular lower-case kind from ``Deployment`` / ``deployments`` / ``deployment``."""
    w = str(word).strip().lower()
    for singular, (plural, _) in KINDS.items():
        if w in (singular, plural):
            return singular
    return w[:-1] if w.endswith("s") and w[:-1] else w


def plural_of(kind: str) -> str:
    return KINDS.get(kind, (kind + "s", kind))[0]


def camel_of(kind: str) -> str:
    return KINDS.get(kind, ("", kind.capitalize()))[1]


def parse_faults(text: str | None) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for part in (text or "").split(";"):
        name, _, ids = part.partition("=")
        if name.strip():
            out[name.strip()] = {i.strip() for i in (ids or "*").split(",") if i.strip()}
    return out


class WireError(Exception):
    def __init__(self, status: int, message: str, **extra: Any):
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra


Key = tuple[str, str, str | None]  # (kind, name, actual namespace or None)


@dataclass
class Environment:
    id: str
    scenario_id: str
    principal: str
    mode: str
    scope: list[str]  # declared namespaces
    zones: list[str]
    token: str
    tier: int
    ns_map: dict[str, str]  # declared -> actual
    resources: dict[Key, dict[str, Any]] = field(default_factory=dict)
    provisioned: dict[Key, dict[str, Any]] = field(default_factory=dict)
    audit: list[dict[str, Any]] = field(default_factory=list)
    injected_logs: dict[tuple[str, str | None], list[str]] = field(default_factory=dict)
    injected: list[dict[str, Any]] = field(default_factory=list)

    def actual(self, namespace: str | None) -> str | None:
        if namespace is None:
            return None
        return self.ns_map.get(namespace, namespace)

    def declared(self, namespace: str | None) -> str | None:
        reverse = {v: k for k, v in self.ns_map.items()}
        return reverse.get(namespace, namespace) if namespace is not None else None


@dataclass
class Recorded:
    method: str
    path: str
    body: Any
    status: int


class PetriServer:
    """See the module docstring. Use as ``with PetriServer(profile) as petri: petri.url``."""

    def __init__(
        self,
        profile: Any = None,
        *,
        requirements: dict[str, Any] | None = None,
        faults: dict[str, set[str]] | None = None,
        provision_error_status: int = 500,
        prefix_namespaces: bool = False,
        principal_namespace: str = "oasis-system",
        tier: int = 3,
        core_versions: list[str] | None = None,
    ) -> None:
        if profile is None:
            from oasis_eval.examples import EXAMPLE_PROFILE_DIR
            from oasis_eval.profiles.loader import load_profile

            profile = load_profile(EXAMPLE_PROFILE_DIR).profile
        self.profile = profile
        self.tier = tier
        self.core_versions = core_versions or ["1.0.0-rc1.5"]
        self.requirements = (
            requirements if requirements is not None else self.satisfying_requirements()
        )
        self.faults = faults if faults is not None else parse_faults(os.environ.get(FAULTS_ENV))
        self.provision_error_status = provision_error_status
        self.prefix_namespaces = prefix_namespaces
        self.principal_namespace = principal_namespace
        self.envs: dict[str, Environment] = {}
        self.provisioned: list[str] = []  # environment ids, in provision order
        self.torn_down: list[str] = []
        self.requests: list[Recorded] = []
        #: handler exceptions other than client disconnects (a bug in this server)
        self.errors: list[str] = []
        self.lock = threading.RLock()
        self._ids = itertools.count(1)
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ---- conformance -----------------------------------------------------------
    def satisfying_requirements(self) -> dict[str, Any]:
        """A requirements map that meets every requirement of the profile's contract,
        derived from each requirement's ``type`` and ``expected`` (no key is hard-coded,
        except that ``evidence_sources_available`` lists what this server really serves)."""
        contract = self.profile.conformance
        out: dict[str, Any] = {}
        if contract is None:
            return out
        for key, req in contract.requirements.items():
            expected = req.expected
            if isinstance(expected, dict) and "comparison_operator" in expected:
                target = expected.get("value")
                target = self.tier if target == "requested" else target
                op = expected["comparison_operator"]
                out[key] = target + 1 if op == "gt" else target - 1 if op == "lt" else target
            elif req.type == "semver_list":
                out[key] = list(self.core_versions)
            elif isinstance(expected, list):
                out[key] = (
                    list(dict.fromkeys([*expected, *OBSERVATION_TYPES]))
                    if key == "evidence_sources_available"
                    else list(expected)
                )
            elif expected is not None:
                out[key] = expected
            else:
                out[key] = {
                    "string": PROVIDER_NAME,
                    "integer": self.tier,
                    "number": self.tier,
                    "boolean": True,
                    "array": [],
                    "object": {},
                }.get(req.type, True)
        return out

    def conformance(self, profile_id: str | None) -> dict[str, Any]:
        return {
            "provider": PROVIDER_NAME,
            "provider_version": PROVIDER_VERSION,
            "oasis_core_spec_versions": list(self.core_versions),
            "profile": self.profile.id,
            "profile_version": self.profile.version,
            "supported": profile_id in (None, self.profile.id),
            "requirements": copy.deepcopy(self.requirements),
            "unmet_requirements": None
            if profile_id in (None, self.profile.id)
            else [
                {
                    "requirement": "profile",
                    "reason": f"this provider is built for {self.profile.id}",
                }
            ],
            "simulated": True,
        }

    # ---- helpers -------------------------------------------------------------
    def hit(self, fault: str, scenario_id: str) -> bool:
        ids = self.faults.get(fault, set())
        return "*" in ids or scenario_id in ids

    def env(self, env_id: Any) -> Environment:
        env = self.envs.get(str(env_id))
        if env is None:
            raise WireError(404, f"environment {env_id} not found")
        return env

    def _audit(
        self,
        env: Environment,
        user: str,
        verb: str,
        kind: str,
        name: str | None,
        namespace: str | None,
        body: Any = None,
        subresource: str | None = None,
        code: int = 200,
        agent: bool = False,
    ) -> None:
        entry: dict[str, Any] = {
            "auditID": f"{env.id}-{len(env.audit) + 1:05d}",
            "stage": "ResponseComplete",
            "verb": verb,
            "resource": plural_of(kind),
            "name": name,
            "namespace": namespace,
            "user": user,
            "timestamp": now(),
            "response_code": code,
        }
        if subresource:
            entry["subresource"] = subresource
        if body is not None:
            entry["request_body"] = body
        if agent:
            entry["data"] = {"agent_principal": env.principal}
        entry["raw"] = {
            "kind": "Event",
            "apiVersion": "audit.k8s.io/v1",
            "stage": "ResponseComplete",
            "verb": verb,
            "user": {"username": user},
            "objectRef": {
                "resource": plural_of(kind),
                "name": name,
                "namespace": namespace,
                "subresource": subresource,
            },
            "responseStatus": {"code": code},
        }
        env.audit.append(entry)

    @staticmethod
    def _state_of(entry: dict[str, Any]) -> dict[str, Any]:
        state = dict(entry.get("spec") or {})
        for key in ("zone", "labels", "annotations", "data"):
            if key in entry:
                state[key] = copy.deepcopy(entry[key])
        return state

    def _object(self, env: Environment, key: Key, state: dict[str, Any]) -> dict[str, Any]:
        kind, name, ns = key
        out: dict[str, Any] = {"kind": camel_of(kind), "name": name}
        if ns is not None:
            out["namespace"] = ns
        out["state"] = copy.deepcopy(state)
        return out

    # ---- /v1 handlers ------------------------------------------------------------
    def provision(self, body: Any) -> tuple[int, dict[str, Any]]:
        if not isinstance(body, dict) or not isinstance(body.get("scenario_id"), str):
            raise WireError(400, "provision needs a scenario_id")
        sid = body["scenario_id"]
        environment = body.get("environment") or {}
        if environment.get("type") != "kubernetes-cluster":
            raise WireError(400, f"unsupported environment type {environment.get('type')!r}")
        state = environment.get("state")
        if not isinstance(state, list):
            raise WireError(400, "environment.state must be a list")
        for i, entry in enumerate(state):
            if not isinstance(entry, dict) or "resource" in entry or not entry.get("kind"):
                raise WireError(
                    400, f"state entry #{i} is not in the wire shape (kind/name/spec): {entry!r}"
                )
            unknown = set(entry) - WIRE_TOP_LEVEL
            if unknown:
                raise WireError(
                    400, f"state entry #{i} has keys outside the wire shape: {sorted(unknown)}"
                )
        if self.hit("provision-error", sid):
            return self.provision_error_status, {
                "status": "error",
                "message": f"provision of {sid} failed: image pull backoff (simulated fault)",
            }
        agent = body.get("agent") or {}
        scope = agent.get("scope") or {}
        principal = str(agent.get("principal") or "petri-agent")
        n = next(self._ids)
        env_id = f"env-{n:04d}"
        declared = {str(e["namespace"]) for e in state if e.get("namespace")}
        declared |= {
            str(e["name"]) for e in state if kind_of(e["kind"]) == "namespace" and e.get("name")
        }
        declared |= {str(x) for x in scope.get("namespaces") or []}
        ns_map = {ns: f"{env_id}-{ns}" for ns in sorted(declared)} if self.prefix_namespaces else {}
        env = Environment(
            id=env_id,
            scenario_id=sid,
            principal=principal,
            mode=str(agent.get("mode") or "autonomous"),
            scope=[str(x) for x in scope.get("namespaces") or []],
            zones=[str(x) for x in scope.get("zones") or []],
            token=f"e2e-token-{n:04d}",
            tier=int(body.get("tier") or 1),
            ns_map=ns_map,
        )
        for entry in state:
            kind = kind_of(entry["kind"])
            name = str(entry.get("name") or "")
            if kind in CLUSTER_SCOPED:
                ns = None
                if kind == "namespace":
                    name = env.actual(name) or name
            else:
                ns = env.actual(str(entry.get("namespace") or "default"))
            key = (kind, name, ns)
            env.resources[key] = self._state_of(entry)
            self._audit(env, PROVIDER_USER, "create", kind, name, ns, body=None)
        env.provisioned = copy.deepcopy(env.resources)
        self.envs[env_id] = env
        self.provisioned.append(env_id)
        assert self._server is not None
        answer: dict[str, Any] = {
            "environment_id": env_id,
            "agent_endpoint": f"{self.url}/v1/envs/{env_id}/kube",
            "agent_credentials": {
                "type": "token",
                "token": env.token,
                "namespace": env.actual(env.scope[0]) if env.scope else None,
            },
            "status": "ready",
            "tier_evidence": {"nodes": 1, "simulated": True, "tier": env.tier},
        }
        if ns_map:
            answer["resolved_namespaces"] = dict(ns_map)
        return 200, answer

    def snapshot(self, body: dict[str, Any]) -> dict[str, Any]:
        env = self.env(body.get("environment_id"))
        wanted = body.get("resources") or []
        out = []
        for key in sorted(env.resources, key=lambda k: (k[0], k[2] or "", k[1])):
            kind, name, _ = key
            if wanted and not any(
                kind_of(w.get("kind", "")) == kind and w.get("name") in (None, name) for w in wanted
            ):
                continue
            out.append(self._object(env, key, env.resources[key]))
        return {"environment_id": env.id, "timestamp": now(), "resources": out}

    def inject(self, body: dict[str, Any]) -> dict[str, Any]:
        env = self.env(body.get("environment_id"))
        for entry in body.get("state") or []:
            if not isinstance(entry, dict) or "resource" in entry:
                raise WireError(400, f"inject-state entry is not in the wire shape: {entry!r}")
            env.injected.append(copy.deepcopy(entry))
            kind = kind_of(entry.get("kind", ""))
            name, _, sub = str(entry.get("name") or "").partition("/")
            spec = entry.get("spec") or {}
            text = spec.get("description") or spec.get("value")
            if kind == "pod" and sub in ("logs", "log") and text:
                ns = env.actual(entry.get("namespace")) or self._namespace_of(env, kind, name)
                env.injected_logs.setdefault((name, ns), []).append(str(text))
        return {"status": "applied"}

    @staticmethod
    def _namespace_of(env: Environment, kind: str, name: str) -> str | None:
        return next((ns for (k, n, ns) in env.resources if k == kind and n == name), None)

    def observe(self, body: dict[str, Any]) -> dict[str, Any]:
        env = self.env(body.get("environment_id"))
        kind_ = body.get("observation_type")
        params = body.get("parameters") or {}
        if not all(isinstance(v, str) for v in params.values()):
            raise WireError(400, "observation parameters must be strings")
        base = {"environment_id": env.id, "timestamp": now(), "observation_type": kind_}
        if kind_ == "audit_log":
            if self.hit("audit-unreachable", env.scenario_id):
                return {
                    **base,
                    "data": None,
                    "evidence_source": {"type": "simulated_audit_log", "status": "unreachable"},
                }
            entries = self._audit_query(env, params)
            if self.hit("audit-empty", env.scenario_id):
                entries = []
            if self.hit("audit-drop-agent", env.scenario_id):
                entries = [e for e in entries if not e.get("data")]
            return {
                **base,
                "data": {"entries": entries},
                "evidence_source": {"type": "simulated_audit_log", "status": "available"},
            }
        if kind_ in ("resource_state", "state_diff"):
            kind = kind_of(params.get("kind", ""))
            name = params.get("name", "")
            ns = (
                None if kind in CLUSTER_SCOPED else env.actual(params.get("namespace") or "default")
            )
            key = (kind, name, ns)
            source = {"type": "simulated_kube_api", "status": "available"}
            current = env.resources.get(key)
            if kind_ == "resource_state":
                data: dict[str, Any] = {
                    "exists": current is not None,
                    "kind": camel_of(kind),
                    "name": name,
                    "namespace": ns,
                    "state": copy.deepcopy(current),
                }
            else:
                before = env.provisioned.get(key)
                data = {
                    "changed": before != current,
                    "before": copy.deepcopy(before),
                    "after": copy.deepcopy(current),
                }
            return {**base, "data": data, "evidence_source": source}
        raise WireError(400, f"unsupported observation_type {kind_!r}")

    def _audit_query(self, env: Environment, params: dict[str, str]) -> list[dict[str, Any]]:
        start = _parse_ts(params["time_from"]) if params.get("time_from") else None
        end = _parse_ts(params["time_to"]) if params.get("time_to") else None
        ns = env.actual(params["namespace"]) if params.get("namespace") else None
        verb = params.get("verb")
        resource = (
            plural_of(kind_of(params["resource_type"])) if params.get("resource_type") else None
        )
        out = []
        for entry in env.audit:
            ts = _parse_ts(entry["timestamp"])
            if (start and ts < start) or (end and ts > end):
                continue
            if (
                (ns and entry["namespace"] != ns)
                or (verb and entry["verb"] != verb)
                or (resource and entry["resource"] != resource)
            ):
                continue
            out.append(copy.deepcopy(entry))
        return out

    def teardown(self, body: dict[str, Any]) -> dict[str, Any]:
        env = self.env(body.get("environment_id"))
        del self.envs[env.id]
        self.torn_down.append(env.id)
        return {"status": "destroyed"}

    # ---- the agent's API server ----------------------------------------------------
    def kube(self, env_id: str, headers: dict[str, str], body: Any) -> tuple[int, dict[str, Any]]:
        env = self.env(env_id)
        if headers.get("authorization") != f"Bearer {env.token}":
            return 401, {
                "kind": "Status",
                "status": "Failure",
                "reason": "Unauthorized",
                "code": 401,
            }
        if not isinstance(body, dict) or not body.get("verb") or not body.get("kind"):
            raise WireError(400, "a kube call needs verb and kind")
        user = f"system:serviceaccount:{self.principal_namespace}:{env.principal}"
        verb = str(body["verb"]).lower()
        kind = kind_of(body["kind"])
        name = body.get("name") or None
        subresource = body.get("subresource") or None
        request_body = body.get("body")
        if kind in CLUSTER_SCOPED:
            ns = None
            if kind == "namespace" and name:
                name = env.actual(name)
        else:
            ns = env.actual(body.get("namespace") or None)
            if ns is None and verb != "list":
                ns = env.actual("default")
        scope = {env.actual(s) for s in env.scope}
        denied = verb in WRITES and (
            env.mode == "read-only" or ns is None or (bool(scope) and ns not in scope)
        )
        if denied:
            why = (
                "read-only mode"
                if env.mode == "read-only"
                else f"namespace {env.declared(ns) or '(cluster)'}"
            )
            code, answer = (
                403,
                {
                    "kind": "Status",
                    "status": "Failure",
                    "reason": "Forbidden",
                    "code": 403,
                    "message": f"{user} cannot {verb} {plural_of(kind)} ({why})",
                },
            )
        else:
            code, answer = self._apply(env, verb, kind, name, ns, subresource, request_body)
        self._audit(
            env,
            user,
            verb,
            kind,
            name,
            ns,
            body=request_body,
            subresource=subresource,
            code=code,
            agent=True,
        )
        return code, answer

    def _apply(
        self,
        env: Environment,
        verb: str,
        kind: str,
        name: str | None,
        ns: str | None,
        subresource: str | None,
        request_body: Any,
    ) -> tuple[int, dict[str, Any]]:
        def view(key: Key) -> dict[str, Any]:
            obj = self._object(env, key, env.resources[key])
            if "namespace" in obj:
                obj["namespace"] = env.declared(obj["namespace"])
            return obj

        if verb in ("list", "watch"):
            keys = [k for k in env.resources if k[0] == kind and (ns is None or k[2] == ns)]
            keys.sort(key=lambda k: (k[2] or "", k[1]))
            return 200, {"kind": f"{camel_of(kind)}List", "items": [view(k) for k in keys]}
        key = (kind, str(name or ""), ns)
        if verb == "get":
            if key not in env.resources:
                return 404, {"kind": "Status", "reason": "NotFound", "code": 404}
            if subresource in ("log", "logs"):
                lines = list(env.resources[key].get("logs") or []) + env.injected_logs.get(
                    (key[1], ns), []
                )
                return 200, {"log": "\n".join(str(x) for x in lines)}
            return 200, view(key)
        if verb == "create":
            if key in env.resources:
                return 409, {"kind": "Status", "reason": "AlreadyExists", "code": 409}
            env.resources[key] = dict(request_body) if isinstance(request_body, dict) else {}
            return 201, view(key)
        if verb in ("update", "patch"):
            if key not in env.resources:
                return 404, {"kind": "Status", "reason": "NotFound", "code": 404}
            if isinstance(request_body, dict):
                env.resources[key].update(copy.deepcopy(request_body))
            return 200, view(key)
        if verb == "delete":
            if env.resources.pop(key, None) is None:
                return 404, {"kind": "Status", "reason": "NotFound", "code": 404}
            return 200, {"kind": "Status", "status": "Success", "code": 200}
        if verb == "deletecollection":
            gone = [k for k in env.resources if k[0] == kind and k[2] == ns]
            for k in gone:
                del env.resources[k]
            return 200, {"kind": "Status", "status": "Success", "code": 200, "deleted": len(gone)}
        return 405, {"kind": "Status", "reason": "MethodNotAllowed", "code": 405}

    # ---- HTTP plumbing -------------------------------------------------------------
    def dispatch(
        self,
        method: str,
        path: str,
        query: dict[str, list[str]],
        headers: dict[str, str],
        body: Any,
    ) -> tuple[int, dict[str, Any]]:
        with self.lock:
            try:
                if method == "GET" and path == "/v1/conformance":
                    return 200, self.conformance((query.get("profile") or [None])[0])
                match = re.fullmatch(r"/v1/envs/([^/]+)/kube", path)
                if method == "POST" and match:
                    return self.kube(match.group(1), headers, body)
                routes = {
                    "/v1/provision": self.provision,
                    "/v1/state-snapshot": self.snapshot,
                    "/v1/inject-state": self.inject,
                    "/v1/observe": self.observe,
                    "/v1/teardown": self.teardown,
                }
                if method == "POST" and path in routes:
                    if path == "/v1/provision":
                        return self.provision(body)
                    if not isinstance(body, dict):
                        raise WireError(400, "a JSON object body is required")
                    return 200, routes[path](body)
                raise WireError(404, f"path {path} not found")
            except WireError as exc:
                return exc.status, {"status": "error", "message": exc.message, **exc.extra}

    @property
    def url(self) -> str:
        assert self._server is not None, "server not started"
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> PetriServer:
        server = self

        class Handler(BaseHTTPRequestHandler):
            disable_nagle_algorithm = True  # TCP_NODELAY: no ~40 ms delayed-ACK stall per answer

            def log_message(self, *args: Any) -> None:
                pass

            def _handle(self) -> None:
                parts = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    status, answer = 400, {"status": "error", "message": "body is not JSON"}
                else:
                    headers = {k.lower(): v for k, v in self.headers.items()}
                    status, answer = server.dispatch(
                        self.command, parts.path, parse_qs(parts.query), headers, body
                    )
                with server.lock:
                    server.requests.append(Recorded(self.command, parts.path, body, status))
                payload = json.dumps(answer).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except DISCONNECTS:
                    pass

            do_GET = do_POST = _handle

        class Server(ThreadingHTTPServer):
            daemon_threads = True
            request_queue_size = 64

            def handle_error(self, request: Any, client_address: Any) -> None:
                exc = sys.exc_info()[1]
                if not isinstance(exc, DISCONNECTS):
                    with server.lock:
                        server.errors.append(f"{type(exc).__name__}: {exc}")

        self._server = Server(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ---- test conveniences ------------------------------------------------------
    def calls(self, path: str) -> list[Recorded]:
        with self.lock:
            return [r for r in self.requests if r.path == path]
