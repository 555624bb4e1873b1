"""``SimK8sProvider``: the async OASIS Provider over simulated clusters (spec 04 §2.2,
08 §3.8; SI provider guide §4; interop §2).

Honest by construction: the conformance answer says ``simulated: true`` and names
its evidence sources ``sim-k8s-audit`` / ``sim-k8s-state``; the declared
capabilities are the ones this package implements and tests (state injection
for every SI precondition pattern, an audit log of every request, enforced
NetworkPolicy, Tier 1 baseline). Faults can be injected (:class:`Faults`) to
exercise the runner's PROVIDER_FAILURE paths. Provisioning takes milliseconds.
"""

from __future__ import annotations

import hashlib
import random
import secrets
import time
import weakref
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from oasis_eval.contract import (
    ProviderFault,
    ProvisionRequest,
    ProvisionResult,
    Snapshot,
    UnestablishedPrecondition,
)
from oasis_eval.spec.profile import Profile
from oasis_eval.spec.provider import ConformanceResponse, ObservationResponse

from ..cluster import controllers
from ..cluster.kinds import normalize_resource
from ..injection import ambient, baseline, platform, provisioning, stimuli
from ..injection.environment import PROVIDER_USER, Environment
from ..injection.inject import Context, InjectionError, ensure_namespace
from ..injection.state import apply_state
from ..observability.snapshot import changes, find, fixture, projection
from ..servers import handoff, shared_calls
from ..servers.connect import register_provider
from ..tools import SUPPORTED_INTERFACE_TYPES
from . import prebuilt
from .faults import Faults
from .profile_support import unmet_requirements

PROVIDER_NAME = "sim-k8s"
PROVIDER_VERSION = "0.1.0"
CORE_VERSIONS = ["1.0.0-rc1.5"]
DEFAULT_PROFILES = {
    "oasis-profile-software-infrastructure": "0.2.0-rc3",
    "oasis-eval-example-k8s": "0.1.0",
}
SUPPORTED_STIMULI = ["environmental_state", "tool_output_injection", "temporal_condition"]
#: the interface types the agent tool surface implements (tools/__init__.py), nothing more
INTERFACE_TYPES = list(SUPPORTED_INTERFACE_TYPES)
REQUIREMENTS: dict[str, Any] = {
    "environment_type": "kubernetes-cluster",
    "complexity_tier_supported": 1,
    "oasis_core_spec_version": CORE_VERSIONS,
    "evidence_sources_available": [
        "audit_log",
        "resource_state",
        "state_diff",
        "value_containment",
    ],
    "value_containment_support": True,
    "state_injection": True,
    "audit_policy_installation": True,
    "network_policy_enforcement": True,
}
AUDIT_SOURCE = "sim-k8s-audit"
STATE_SOURCE = "sim-k8s-state"
#: the tool surface's own record of the calls it served to the agent (observation ``served_calls``)
TOOLS_SOURCE = "sim-k8s-tools"
SERVED_CALLS = "served_calls"
#: the parameters naming the one object a resource_state / state_diff observation is about
TARGET_PARAMETERS = ("kind", "name")


def principal_of(env: Environment) -> dict[str, str]:
    """``{agent_principal}`` for the top of an ``audit_log`` observation's data: the user the
    agent's calls are audited under, which oasisctl matches against each entry's ``user``
    (petri's shape, interop §5a). Always known here: the agent reaches a simulated cluster
    only with the token provision handed out, which maps to this user."""
    return {"agent_principal": env.agent_user} if env.agent_user else {}


class SimK8sProvider(handoff.AgentAccess):
    """In-process simulated Kubernetes provider. Sync helpers for the tools layer:
    :meth:`environment` (the :class:`Environment`) and :meth:`authenticate`."""

    name = PROVIDER_NAME
    #: every snapshot's resources are clones (snapshot.record): the harness need not copy them
    snapshots_detached = True

    def __init__(
        self,
        faults: Faults | None = None,
        seed: int = 0,
        profiles: dict[str, str] | None = None,
        mcp: bool = False,
        mcp_host: str = "127.0.0.1",
        mcp_port: int = 0,
        seeded_ids: bool = False,
    ):
        self.faults = faults or Faults()
        self.seed = seed
        #: tests only: ``sim-<n>-<hash(seed, scenario, n)>`` ids instead of unguessable ones
        self.seeded_ids = seeded_ids
        #: environment id -> monotonic time of its last use (control call or agent call), for reaping
        self.last_used: dict[str, float] = {}
        self.profiles = dict(DEFAULT_PROFILES if profiles is None else profiles)
        #: profile id -> why it cannot be served (a profile :meth:`serve_profile` refused)
        self.refused: dict[str, list[dict[str, str]]] = {}
        #: profiles given explicitly (config ``profiles``): served as given, never replaced
        self.pinned = profiles is not None
        self.envs: dict[str, Environment] = {}
        self._rng = random.Random(seed)
        self._count = 0
        #: opt-in: serve the agents' tools over MCP (streamable HTTP) and hand out that endpoint
        self.mcp = mcp
        self._mcp_bind = (mcp_host, mcp_port)
        self._mcp: tuple[str, Any] | None = None
        self.kube = None
        self._stop_kube = None
        #: told the id of each environment torn down (held weakly: a listener never outlives its owner)
        self._teardown_listeners: list[weakref.WeakMethod[Callable[[str], None]]] = []

        register_provider(self)

    def on_teardown(self, listener: Callable[[str], None]) -> None:
        """Call the bound method ``listener(environment_id)`` whenever an environment is torn
        down, so a serving layer drops what it keeps per environment (no leak, issue 15)."""
        self._teardown_listeners.append(weakref.WeakMethod(listener))

    def replicable(self) -> bool:
        """A forked copy may serve some of a run's scenarios (oasis_eval.contract.Replicable):
        not once it serves agents over a listener (MCP, the Kubernetes API) its copies would not
        own, nor with seeded provision faults, whose draws follow the order of provisions."""
        return (
            not self.mcp
            and self._mcp is None
            and self.kube is None
            and not self._teardown_listeners
            and not self.faults.provision_error_rate
        )

    def mcp_apps(self) -> list[Any]:
        """The live MCP apps serving this provider's environments (those listening for teardowns)."""
        owners = (getattr(ref(), "__self__", None) for ref in self._teardown_listeners)
        return [app for app in owners if app is not None and hasattr(app, "live_surfaces")]

    def _released(self, env: Environment) -> None:
        alive = [ref for ref in self._teardown_listeners if ref() is not None]
        self._teardown_listeners = alive
        for listener in filter(None, (ref() for ref in alive)):
            listener(env.id)
        env.dispose()  # its reference cycles broken: freed now, not at a full collection

    def mcp_url(self) -> str:
        """The MCP endpoint of this provider's tool surfaces (started on first use)."""
        if self._mcp is None:
            from ..servers.mcp import serve_mcp_in_thread

            self._mcp = serve_mcp_in_thread(self, *self._mcp_bind)
        return self._mcp[0]

    def stop_mcp(self) -> None:
        served, self._mcp = self._mcp, None
        if served is not None:
            served[1]()

    # ---- sync helpers -----------------------------------------------------------------
    def environment(self, environment_id: str) -> Environment:
        env = self.envs.get(environment_id)
        if env is None:
            raise ProviderFault(f"unknown environment {environment_id!r}")
        self.touch(environment_id)
        return env

    def authenticate(self, token: str) -> tuple[Environment, str] | None:
        """(environment, user) for a bearer token handed out at provision (a use: resets its idle time)."""
        for env in self.envs.values():
            if token and env.token and secrets.compare_digest(token.encode(), env.token.encode()):
                self.touch(env.id)
                return env, env.agent_user
        return None

    def addressed(self, address: str) -> Environment | None:
        """The environment whose agent URLs carry ``/env/<address>`` (:mod:`.gate`)."""
        for env in self.envs.values():
            if address and env.address and secrets.compare_digest(address, env.address):
                return env
        return None

    def touch(self, environment_id: str) -> None:
        if environment_id in self.envs:
            self.last_used[environment_id] = time.monotonic()

    def idle(self, ttl_seconds: float) -> list[str]:
        """Environments unused for longer than ``ttl_seconds`` (sorted), for a server's reaper."""
        limit = time.monotonic() - ttl_seconds
        return sorted(env_id for env_id in self.envs if self.last_used.get(env_id, limit) < limit)

    def _new_id(self, scenario_id: str) -> str:
        """Unguessable by default (issue 11 H1: an agent must not name another environment);
        ``seeded_ids`` keeps the old reproducible form for tests that compare ids."""
        if not self.seeded_ids:
            return f"sim-{secrets.token_hex(16)}"
        digest = hashlib.sha256(f"{self.seed}:{scenario_id}:{self._count}".encode()).hexdigest()[:8]
        return f"sim-{self._count:04d}-{digest}"

    # ---- Provider protocol ----------------------------------------------------------------
    def serve_profile(self, profile: Profile) -> list[dict[str, str]]:
        """Serve ``profile`` and nothing else when the simulator can (08 §5.2: preflight then
        answers for its id and version only); otherwise answer ``supported: false`` with the
        returned unmet requirements for it (:mod:`.profile_support`)."""
        if self.pinned:
            return []
        unmet = unmet_requirements(profile, REQUIREMENTS, SUPPORTED_STIMULI, INTERFACE_TYPES)
        self.profiles = {} if unmet else {profile.id: profile.version}
        self.refused = {profile.id: unmet} if unmet else {}
        return unmet

    async def conformance(self, profile_id: str) -> ConformanceResponse:
        version = self.profiles.get(profile_id)
        unmet = (
            None
            if version
            else self.refused.get(profile_id)
            or [
                {
                    "requirement": "profile",
                    "reason": (
                        f"{PROVIDER_NAME} is built against {', '.join(sorted(self.profiles)) or 'no profile'}; "
                        f"it does not implement {profile_id!r}"
                    ),
                }
            ]
        )
        return ConformanceResponse.model_validate(
            {
                "provider": PROVIDER_NAME,
                "provider_version": PROVIDER_VERSION,
                "oasis_core_spec_versions": CORE_VERSIONS,
                "profile": profile_id,
                "profile_version": version or "0.0.0",
                "supported": version is not None,
                "requirements": dict(REQUIREMENTS),
                "unmet_requirements": unmet,
                "supported_stimuli": SUPPORTED_STIMULI,
                "interface_types": INTERFACE_TYPES,
                "simulated": True,
            }
        )

    async def provision(self, request: ProvisionRequest) -> ProvisionResult:
        if (
            self.faults.provision_error_rate
            and self._rng.random() < self.faults.provision_error_rate
        ):
            raise ProviderFault(
                f"provision of {request.scenario_id} failed: injected provider fault"
            )
        if request.environment_type != "kubernetes-cluster":
            raise ProviderFault(
                f"{PROVIDER_NAME} provisions kubernetes-cluster, not {request.environment_type!r}"
            )
        if request.tier > REQUIREMENTS["complexity_tier_supported"]:
            raise ProviderFault(
                f"{PROVIDER_NAME} supports up to tier 1, tier {request.tier} was requested"
            )
        self._count += 1
        env_id = self._new_id(request.scenario_id)
        try:
            # built once per inputs in a process, copied after (session 31)
            key = prebuilt.key_of(self.seed, self.faults, request)
            env, refused = prebuilt.CACHE.provision(
                key, env_id, partial(self._build, env_id, request)
            )
        except InjectionError as exc:
            raise ProviderFault(f"provision of {request.scenario_id} failed: {exc}") from exc
        self.envs[env_id] = env
        shared_calls.provisioned(env, key)
        self.touch(env_id)
        scope_ns = list(request.scope.get("namespaces") or [])
        namespaces = sorted(
            set(scope_ns) | {str(e["namespace"]) for e in request.state if e.get("namespace")}
        )
        endpoint, credentials = self.hand_off(env_id, self.agent_root() if self.mcp else None)
        return ProvisionResult(
            environment_id=env_id,
            agent_endpoint=endpoint,
            agent_credentials=credentials,
            resolved_namespaces={ns: ns for ns in namespaces},
            tier_evidence=baseline.tier_evidence(env),
            unestablished=[
                # a stimulus has no state index: it is numbered after the state entries
                UnestablishedPrecondition(index=len(request.state) + n, reason=reason)
                for n, reason in refused
            ],
            served_calls=True,
            # the instant the simulated clock started: scenario times are offsets from it (issue 32)
            simulated_clock=env.clock.record(),
        )

    def _build(
        self, env_id: str, request: ProvisionRequest
    ) -> tuple[Environment, list[tuple[int, str]]]:
        """The environment, and the provider stimuli it cannot apply (08 §3.1)."""
        env = Environment(env_id, request.scenario_id, request.principal, self.seed)
        scope_ns = [str(x) for x in request.scope.get("namespaces") or []]
        scope_zones = [str(x) for x in request.scope.get("zones") or []]
        env.agent_ns, env.agent_sa = provisioning.agent_identity(
            request.principal, request.state, scope_ns
        )
        env.agent_user = f"system:serviceaccount:{env.agent_ns}:{env.agent_sa}"
        platform.provision(env, self.seed, prebuilt.PLATFORMS)  # once per seed in a process
        ctx = Context(env, PROVIDER_USER, scope_ns, scope_zones, request.mode)
        for ns in scope_ns:
            ensure_namespace(ctx, ns)
        apply_state(ctx, list(request.state))
        env.declared_keys = {(family, ns, name) for family, ns, name in ctx.declared}
        env.notes["agent_rbac"] = provisioning.grant_agent(ctx, list(request.tools))
        provisioning.finalize(ctx)
        ambient.add(ctx)
        env.provisioning = False
        env.ready_at = env.clock.seconds()
        refused = stimuli.register(ctx, list(request.provider_stimuli), list(request.tools))
        env.token = secrets.token_urlsafe(32)
        env.address = secrets.token_hex(12)
        env.baseline = env.snapshot()
        env.scope = (scope_ns, scope_zones, request.mode)
        #: the interface types the scenario gives its agent (the tools layer offers exactly these)
        env.tools = list(request.tools)
        return env, refused

    async def inject_state(self, environment_id: str, state: list[dict[str, Any]]) -> None:
        env = self.environment(environment_id)
        scope_ns, scope_zones, mode = env.scope
        ctx = Context(env, PROVIDER_USER, scope_ns, scope_zones, mode)
        try:
            apply_state(ctx, list(state))
            controllers.reconcile(env)
        except InjectionError as exc:
            raise ProviderFault(f"inject-state into {environment_id} failed: {exc}") from exc

    async def snapshot(
        self, environment_id: str, resources: list[dict[str, Any]] | None = None
    ) -> Snapshot:
        env = self.environment(environment_id)
        return Snapshot(
            environment_id=environment_id,
            timestamp=env.clock.stamp(),
            resources=env.snapshot(resources),
        )

    async def observe(
        self, environment_id: str, observation_type: str, parameters: dict[str, str]
    ) -> ObservationResponse:
        env = self.environment(environment_id)
        if self.faults.observe_error:
            raise ProviderFault(
                f"observe {observation_type} on {environment_id}: injected provider fault"
            )
        # over the wire a parameter may arrive as null (or the whole mapping may be absent)
        given: Mapping[str, Any] = parameters or {}
        params = {k: str(v) for k, v in given.items() if v is not None}
        source = {
            "type": AUDIT_SOURCE if observation_type == "audit_log" else STATE_SOURCE,
            "status": "available",
        }
        if observation_type == "audit_log":
            if self.faults.audit_unreachable:
                data: Any = None
                source["status"] = "unreachable"
            else:
                entries = env.audit.query(
                    params.get("time_from"),
                    params.get("time_to"),
                    params.get("namespace"),
                    params.get("verb"),
                    params.get("resource_type"),
                )
                data = {**principal_of(env), "entries": self.faults.audit(env, entries)}
        elif observation_type == SERVED_CALLS:
            source["type"] = TOOLS_SOURCE
            data = {"calls": env.served.query(params.get("time_from"), params.get("time_to"))}
        elif observation_type == "resource_state":
            data = self._resource_state(env, params)
        elif observation_type == "state_diff":
            data = self._state_diff(env, params)
        else:
            raise ProviderFault(f"unsupported observation type {observation_type!r}")
        return ObservationResponse.model_validate(
            {
                "environment_id": environment_id,
                "observation_type": observation_type,
                "timestamp": env.clock.stamp(),
                "data": data,
                "evidence_source": source,
            }
        )

    @staticmethod
    def _lookup(env: Environment, params: dict[str, str]) -> dict[str, Any] | None:
        missing = [p for p in TARGET_PARAMETERS if not params.get(p)]
        if missing:  # never "exists: false" for a question that was not asked (interop §5d)
            raise ValueError(
                f"missing parameter(s) {', '.join(missing)}: resource_state and state_diff "
                "observe one object, named by kind and name (SI provider guide §4.5)"
            )
        kind, name, ns = (
            params.get("kind", ""),
            params.get("name", ""),
            params.get("namespace") or None,
        )
        hit = find(env, kind, name, ns)
        if hit is None and ns is not None:
            hit = (
                find(env, kind, name, None)
                if kind.lower() in ("gitops-application", "application")
                else None
            )
        return hit or fixture(env, kind, name, ns)

    def _resource_state(self, env: Environment, params: dict[str, str]) -> dict[str, Any]:
        hit = self._lookup(env, params)
        out = {
            "kind": params.get("kind"),
            "name": params.get("name"),
            "namespace": params.get("namespace"),
            "exists": hit is not None,
            "object": hit["state"] if hit else None,
        }
        if hit:
            out.update(
                {k: v for k, v in hit.items() if k not in ("state", "kind", "name", "namespace")}
            )
        return out

    def _state_diff(self, env: Environment, params: dict[str, str]) -> dict[str, Any]:
        after = self._lookup(env, params)
        kind, name, ns = (
            params.get("kind", ""),
            params.get("name", ""),
            params.get("namespace") or None,
        )

        plural = normalize_resource(kind)
        before = next(
            (
                r
                for r in env.baseline
                if normalize_resource(r["kind"]) == plural
                and r["name"] == name
                and (ns is None or r.get("namespace") in (ns, None))
            ),
            None,
        )
        b = before["state"] if before else None
        a = after["state"] if after else None
        return {
            "kind": kind,
            "name": name,
            "namespace": ns,
            "exists_before": b is not None,
            "exists_after": a is not None,
            "before": b,
            "after": a,
            "changes": changes(projection(b), projection(a)),
        }

    async def teardown(self, environment_id: str) -> None:
        self.last_used.pop(environment_id, None)
        if (env := self.envs.pop(environment_id, None)) is None:
            raise ProviderFault(f"teardown: unknown environment {environment_id!r}")
        self._released(env)

    async def aclose(self) -> None:
        for environment_id in sorted(self.envs):
            self._released(self.envs[environment_id])
        self.envs.clear()
        self.last_used.clear()
        self.stop_mcp()
        self.stop_kube()
