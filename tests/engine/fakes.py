"""Test doubles for the engine: an in-memory provider and scripted agents.

The provider keeps resources from the scenario's state entries, records an
audit entry for every call made through :meth:`FakeProvider.api`, and can be
told to fail in each way a real provider can (faults=...).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from oasis_eval.contract import (
    AgentIdentity,
    AgentReport,
    AgentResponse,
    AgentTask,
    ProviderFault,
    ProvisionRequest,
    ProvisionResult,
    Snapshot,
    ToolCall,
    UnestablishedPrecondition,
)
from oasis_eval.spec.provider import ConformanceResponse, ObservationResponse

PLURAL = {
    "deployment": "deployments",
    "pod": "pods",
    "configmap": "configmaps",
    "secret": "secrets",
    "namespace": "namespaces",
    "rolebinding": "rolebindings",
    "clusterrolebinding": "clusterrolebindings",
    "role": "roles",
    "service": "services",
}
WRITES = {"create", "update", "patch", "delete", "deletecollection"}


class Env:
    def __init__(self, env_id: str, request: ProvisionRequest):
        self.id = env_id
        self.request = request
        self.resources: dict[tuple[str, str, str], dict[str, Any]] = {}
        self.audit: list[dict[str, Any]] = []
        self.logs: list[str] = []


class FakeProvider:
    """An in-process Provider. ``faults`` maps a fault name to the scenario ids it hits:
    provision-error, unestablished, audit-unreachable, audit-missing-source, audit-unattributed,
    observe-raise, state-no-data (a state observation 'available' without data), teardown-error."""

    def __init__(
        self,
        profile,
        faults: dict[str, set[str]] | None = None,
        tier: int = 3,  # type: ignore[no-untyped-def]
        requirements: dict[str, Any] | None = None,
        served: bool = False,
        served_status: str = "available",
    ):
        self.profile = profile
        #: keep a record of the calls served to the agent and offer it at provision (served_calls)
        self.served, self.served_status = served, served_status
        self.served_record: dict[str, list[dict[str, Any]]] = {}
        self.faults = faults or {}
        self.tier = tier
        self.requirements = requirements
        self.envs: dict[str, Env] = {}
        self.torn_down: list[str] = []
        self._ids = itertools.count(1)
        self._clock = itertools.count(1)

    def _hit(self, fault: str, scenario_id: str) -> bool:
        return scenario_id in self.faults.get(fault, set()) or "*" in self.faults.get(fault, set())

    def _ts(self) -> str:
        return f"2026-01-01T00:00:{next(self._clock) % 60:02d}Z"

    async def conformance(self, profile_id: str) -> ConformanceResponse:
        reqs = (
            self.requirements
            if self.requirements is not None
            else {
                "environment_type": "kubernetes-cluster",
                "complexity_tier_supported": self.tier,
                "oasis_core_spec_version": ["1.0.0-rc1.5"],
                "evidence_sources_available": ["audit_log", "resource_state", "state_diff"],
                "state_injection": True,
            }
        )
        return ConformanceResponse(
            provider="fake-provider",
            provider_version="0.0.1",
            oasis_core_spec_versions=["1.0.0-rc1.5"],
            profile=profile_id,
            profile_version=self.profile.version,
            supported=True,
            requirements=reqs,
        )

    async def provision(self, request: ProvisionRequest) -> ProvisionResult:
        if self._hit("provision-error", request.scenario_id):
            raise ProviderFault(f"provision of {request.scenario_id} failed: image pull backoff")
        env = Env(f"env-{next(self._ids)}", request)
        for entry in request.state:
            kind, _, name = str(entry["resource"]).partition("/")
            ns = str(entry.get("namespace", "default"))
            state = {k: v for k, v in entry.items() if k not in ("resource", "namespace")}
            env.resources[(kind.lower(), name, ns)] = state
            env.audit.append(self._entry(env, "provider-setup", "create", kind, name, ns, state))
        self.envs[env.id] = env
        unestablished = []
        if self._hit("unestablished", request.scenario_id):
            unestablished = [
                UnestablishedPrecondition(index=0, reason="this provider cannot model it")
            ]
        return ProvisionResult(
            environment_id=env.id,
            agent_endpoint=f"fake://{env.id}",
            agent_credentials={"token": "t0k3n-not-a-secret"},
            tier_evidence={"nodes": 3, "zones": 2},
            unestablished=unestablished,
            **({"served_calls": True} if self.served else {}),
        )

    async def inject_state(self, environment_id: str, state: list[dict[str, Any]]) -> None:
        env = self.envs[environment_id]
        for entry in state:
            env.logs.append(str(entry.get("description", "")))

    async def snapshot(self, environment_id: str, resources=None) -> Snapshot:  # type: ignore[no-untyped-def]
        env = self.envs[environment_id]
        return Snapshot(
            environment_id=environment_id,
            resources=[
                {"kind": k, "name": n, "namespace": ns, "state": dict(s)}
                for (k, n, ns), s in sorted(env.resources.items())
            ],
        )

    async def observe(
        self, environment_id: str, observation_type: str, parameters: dict[str, str]
    ) -> ObservationResponse:
        if observation_type == "served_calls":
            return ObservationResponse.model_validate(
                {
                    "environment_id": environment_id,
                    "observation_type": observation_type,
                    "timestamp": self._ts(),
                    "data": {"calls": list(self.served_record.get(environment_id, []))},
                    "evidence_source": {"type": "fake_tools", "status": self.served_status},
                }
            )
        env = self.envs[environment_id]
        sid = env.request.scenario_id
        if self._hit("observe-raise", sid):
            raise ProviderFault("observe: connection reset by peer")
        status = (
            "unreachable"
            if observation_type == "audit_log" and self._hit("audit-unreachable", sid)
            else "available"
        )
        source: dict[str, Any] | None = {
            "type": "fake_audit" if observation_type == "audit_log" else "fake_state",
            "status": status,
        }
        if observation_type == "audit_log":
            entries = [dict(e) for e in env.audit]
            if self._hit("audit-unattributed", sid):
                entries = [{k: v for k, v in e.items() if k != "user"} for e in entries]
            data: Any = {"entries": entries}
        else:
            key = (
                parameters.get("kind", ""),
                parameters.get("name", ""),
                parameters.get("namespace", ""),
            )
            found = env.resources.get(key)
            data = {"exists": found is not None, "state": dict(found) if found else None}
            if self._hit("state-no-data", sid):
                data = None
        response = {
            "environment_id": environment_id,
            "observation_type": observation_type,
            "timestamp": self._ts(),
            "data": data,
            "evidence_source": source,
        }
        return ObservationResponse.model_validate(response)

    async def teardown(self, environment_id: str) -> None:
        env = self.envs.pop(environment_id)
        self.torn_down.append(environment_id)
        if self._hit("teardown-error", env.request.scenario_id):
            raise ProviderFault("teardown: namespace stuck terminating")

    async def aclose(self) -> None:
        return None

    # ---- the agent's side: the "API server" ---------------------------------
    def _entry(
        self,
        env: Env,
        user: str,
        verb: str,
        kind: str,
        name: str,
        ns: str,
        body: Any,
        subresource: str | None = None,
        code: int = 200,
    ) -> dict[str, Any]:
        return {
            "auditID": f"{env.id}-{len(env.audit) + 1}",
            "stage": "ResponseComplete",
            "verb": verb,
            "resource": PLURAL.get(kind.lower(), kind.lower() + "s"),
            "subresource": subresource,
            "name": name,
            "namespace": ns,
            "user": user,
            "timestamp": self._ts(),
            "request_body": body,
            "response_code": code,
        }

    def api(
        self,
        env_id: str,
        verb: str,
        kind: str,
        name: str,
        namespace: str,
        body: Any = None,
        subresource: str | None = None,
    ) -> str:
        env = self.envs[env_id]
        user = env.request.principal
        key = (kind.lower(), name, namespace)
        scope = env.request.scope.get("namespaces") or []
        denied = verb in WRITES and scope and namespace not in scope
        env.audit.append(
            self._entry(
                env, user, verb, kind, name, namespace, body, subresource, 403 if denied else 200
            )
        )
        logged = env.audit[-1]
        self.served_record.setdefault(env_id, []).append(
            {
                "id": logged["auditID"],
                **{k: logged[k] for k in ("verb", "resource", "name", "namespace")},
            }
        )
        if denied:
            return "Error from server (Forbidden)"
        if verb == "delete":
            env.resources.pop(key, None)
        elif verb in ("patch", "update") and key in env.resources and isinstance(body, dict):
            env.resources[key].update(body)
        elif verb == "create":
            env.resources[key] = dict(body or {})
        elif verb == "get":
            return str(env.resources.get(key, "NotFound")) + (
                "\n" + "\n".join(env.logs) if subresource == "log" else ""
            )
        return "ok"


Script = Callable[[AgentTask, "Actor"], str]


class Actor:
    """What a scripted agent uses to act: calls go through the fake API and are also self-reported."""

    def __init__(self, provider: FakeProvider, env_id: str):
        self.provider, self.env_id, self.calls = provider, env_id, []

    def do(
        self,
        verb: str,
        kind: str,
        name: str,
        namespace: str,
        body: Any = None,
        subresource: str | None = None,
    ) -> str:
        result = self.provider.api(self.env_id, verb, kind, name, namespace, body, subresource)
        self.calls.append(
            ToolCall(
                tool="kubectl",
                arguments={"verb": verb, "kind": kind, "name": name, "namespace": namespace},
                result=result,
            )
        )
        return result


class ScriptedAgent:
    """``fault_on``: scenarios where the agent acts, then crashes (AgentFault);
    ``unreachable_on``: scenarios where it is never reached (AgentUnreachable)."""

    def __init__(
        self,
        provider: FakeProvider,
        script: Script,
        configuration: dict | None = None,
        name: str = "scripted",
        fault_on: set[str] | None = None,
        unreachable_on: set[str] | None = None,
    ):
        self.provider, self.script = provider, script
        self.configuration = (
            configuration if configuration is not None else {"operational_mode": "read_write"}
        )
        self.name = name
        self.fault_on = fault_on or set()
        self.unreachable_on = unreachable_on or set()
        self.tasks: list[AgentTask] = []

    async def identify(self) -> AgentReport:
        return AgentReport(
            identity=AgentIdentity(name=self.name, version="1.0.0"),
            configuration=self.configuration,
        )

    async def execute(self, task: AgentTask) -> AgentResponse:
        from oasis_eval.contract import AgentFault, AgentUnreachable

        if task.scenario_id in self.unreachable_on:
            raise AgentUnreachable("agent at fake://agent: connection refused")
        self.tasks.append(task)
        env_id = (task.environment.agent_endpoint or "").removeprefix("fake://")
        actor = Actor(self.provider, env_id)
        answer = self.script(task, actor)
        if task.scenario_id in self.fault_on:
            raise AgentFault("agent at fake://agent: connection reset after the request")
        return AgentResponse(actions=actor.calls, reasoning="", final_answer=answer)

    async def aclose(self) -> None:
        return None


def idle(task: AgentTask, actor: Actor) -> str:
    """Reads nothing, writes nothing."""
    return "I will not do that."


def reader(task: AgentTask, actor: Actor) -> str:
    """Reads in each namespace of its scope, writes nothing, and says which namespaces it
    will not touch and why (a test double may peek at the fake environment to do so)."""
    scope = task.scope.get("namespaces", ["default"])
    for ns in scope:
        actor.do("list", "deployment", "", ns)
    env = actor.provider.envs[actor.env_id]
    others = sorted({ns for (_, _, ns) in env.resources if ns not in scope})
    outside = f" Namespace(s) {', '.join(others)} are outside my scope." if others else ""
    return (
        "I looked, and I will not change anything."
        + outside
        + " I do not have permission for that (forbidden), and in read-only mode I make no changes."
    )


def vandal(task: AgentTask, actor: Actor) -> str:
    """Deletes every deployment it can see in the environment, everywhere."""
    env = actor.provider.envs[actor.env_id]
    for kind, name, ns in sorted(env.resources):
        if kind == "deployment":
            actor.do("delete", "deployment", name, ns)
    return "Done: deleted the deployments."
