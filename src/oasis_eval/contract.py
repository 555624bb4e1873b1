"""The contract agent and provider authors implement (spec 04 §1 and §2.2).

Everything an adapter, provider or agent package needs and nothing more: the Agent and
Provider protocols, the task and response, tool calls, provision and snapshot shapes,
the harness faults, and how a provider is served over HTTP. It imports only the spec
model (observation and conformance wire shapes), never the engine.

Adapters implement these; the orchestrator only ever talks to them. Both are
async so that waiting on agents and providers overlaps under ``--parallel``.

Faults: an adapter raises :class:`ProviderFault` / :class:`AgentFault` for a
*harness* fault (transport error, protocol violation, evidence unavailable).
A :class:`ProviderFault` is PROVIDER_FAILURE and aborts the run (core §3.7); a harness
fault never becomes FAIL. An :class:`AgentFault` during a scenario (crash, hang,
malformed reply) is the agent's fault, never PROVIDER_FAILURE: the environment is still
observed and the scenario judged on that evidence with the agent's answer taken as
empty. :class:`AgentUnreachable` (nothing was exchanged) stops the run after the
scenario, which keeps a FAIL its environment shows and is otherwise not judged.
:class:`AgentUnusable` (the agent's own first call to its backend was refused: a wrong
model URL or key) stops the run before any verdict, as an agent that cannot start does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field

from .errors import OasisError
from .spec.common import ConfigValue
from .spec.profile import Profile
from .spec.provider import ConformanceResponse, ObservationResponse


class HarnessFault(OasisError):
    """A fault of the evaluation harness, not of the agent: aborts the run."""


class ProviderFault(HarnessFault):
    """Runtime provider fault (core §3.7): transport, non-2xx after retries, bad evidence."""


class AgentFault(HarnessFault):
    """The agent crashed, hung, or answered outside the protocol (it was reached).

    ``partial``: what the agent had done before the fault, as it reports it (its tool calls
    carry the parameters value containment reads); the answer is still taken as empty."""

    def __init__(self, *args: object, partial: AgentResponse | None = None) -> None:
        super().__init__(*args)
        self.partial = partial


class AgentUnreachable(AgentFault):
    """The agent was never reached: nothing was exchanged (connection refused before the
    request was sent, a command or server that cannot start)."""


class AgentUnusable(AgentUnreachable):
    """The agent never worked at all: its very first call to its own backend (an LLM agent's
    model API) was refused — connection refused, DNS, 401/403/404 (issue 26). Like a command
    that cannot start, the run stops with no verdict (exit 2); the same failure later in a
    run is an :class:`AgentFault` of that scenario."""


class ToolCall(BaseModel):
    """One tool call as the agent reported it (oasisctl's ``actions[]`` entry)."""

    model_config = ConfigDict(extra="allow")

    id: str | None = None
    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    result: str = ""
    error: str | None = None
    error_code: str | int | None = None
    duration_ms: float | None = None


# ---- agent side (04 §1) ---------------------------------------------------


class AgentIdentity(BaseModel):
    """Who the agent is: its name, version and an optional description (04 §1)."""

    name: str
    version: str
    description: str | None = None


class AgentReport(BaseModel):
    """Identity and system-level configuration, reported once per run (04 §1)."""

    identity: AgentIdentity
    configuration: dict[str, ConfigValue] = Field(default_factory=dict)
    #: tools and operating mode the agent declares for itself, when it does
    declared_tools: list[str] | None = None
    declared_mode: str | None = None


class EnvironmentAccess(BaseModel):
    """How the agent reaches this scenario's environment (provision's agent_endpoint)."""

    model_config = ConfigDict(extra="allow")

    agent_endpoint: str | None = None
    agent_credentials: dict[str, Any] | None = None


def network_address(endpoint: str | None) -> bool:
    """Whether ``endpoint`` names an explicit ``host:port`` (``db://127.0.0.1:5432/x``,
    ``redis://h:6379``): another process reaches it over the network whatever its scheme,
    unlike an in-process one (``sim-k8s://env``: no port). Issue 34 step 2; spec 04 §2.2."""
    if not endpoint or "://" not in endpoint:
        return False
    try:
        parts = urlsplit(endpoint)
        return bool(parts.hostname) and parts.port is not None
    except ValueError:  # a port that is not a number, or out of range
        return False


class AgentTask(BaseModel):
    """One execute call: a fresh conversation per scenario (04 §1, stateless)."""

    scenario_id: str
    prompt: str
    #: conversation_context stimuli, in order, before the prompt
    conversation: list[str] = Field(default_factory=list)
    tools: list[str] = Field(default_factory=list)
    mode: str
    scope: dict[str, list[str]] = Field(default_factory=dict)
    environment: EnvironmentAccess | None = None


class AgentResponse(BaseModel):
    """What the agent reported: its own account, never evidence for an action (core §3.4)."""

    actions: list[ToolCall] = Field(default_factory=list)
    reasoning: str = ""
    final_answer: str = ""
    model: str | None = None
    #: the agent answered with an error, or timed out after acting
    error: str | None = None
    #: calls the agent retried in place after a transient fault (a model API's 429, 5xx,
    #: timeout), one line each: its own account, counted in the report (issue 17)
    retries: list[str] = Field(default_factory=list)


@runtime_checkable
class Agent(Protocol):
    """The agent under test (04 §1), as the engine calls it.

    An in-process agent handed to :func:`oasis_eval.evaluate` needs only ``identify()`` and
    ``execute(task)``, sync or async (it is wrapped like ``python:module:attr``); ``aclose()``
    is optional there.
    """

    async def identify(self) -> AgentReport: ...

    async def execute(self, task: AgentTask) -> AgentResponse: ...

    async def aclose(self) -> None: ...


# ---- provider side (04 §2.2, 08 §3.8) ---------------------------------------


class ProvisionRequest(BaseModel):
    """Scenario-shaped request; wire adapters translate (e.g. petri's state shape)."""

    scenario_id: str
    environment_type: str
    state: list[dict[str, Any]]
    mode: str
    tools: list[str]
    scope: dict[str, list[str]] = Field(default_factory=dict)
    principal: str
    tier: int
    #: stimuli the provider owns (tool_output_injection, temporal_condition), and each
    #: environmental_state marked ``delivery: inject-state``: sent to be checked at provision
    #: (08 §3.1), applied only when inject-state delivers it
    provider_stimuli: list[dict[str, Any]] = Field(default_factory=list)


class UnestablishedPrecondition(BaseModel):
    """A precondition the provider says it cannot establish (08 §3.1: skipped with justification)."""

    index: int
    reason: str


class ProvisionResult(BaseModel):
    model_config = ConfigDict(extra="allow")

    environment_id: str
    agent_endpoint: str | None = None
    agent_credentials: dict[str, Any] | None = None
    resolved_namespaces: dict[str, str] = Field(default_factory=dict)
    tier_evidence: dict[str, Any] | str | None = None
    unestablished: list[UnestablishedPrecondition] = Field(default_factory=list)
    #: the provider serves this environment's agent tools and keeps its own record of the calls
    #: it served, answered by ``observe served_calls`` (the runner checks the audit log covers it)
    served_calls: bool | None = None


class Snapshot(BaseModel):
    environment_id: str
    timestamp: str | None = None
    resources: list[dict[str, Any]] = Field(default_factory=list)


@runtime_checkable
class Provider(Protocol):
    """An environment provider (04 §2.2). Raise :class:`ProviderFault` on runtime faults."""

    async def conformance(self, profile_id: str) -> ConformanceResponse: ...

    async def provision(self, request: ProvisionRequest) -> ProvisionResult: ...

    async def inject_state(self, environment_id: str, state: list[dict[str, Any]]) -> None: ...

    async def snapshot(
        self, environment_id: str, resources: list[dict[str, Any]] | None = None
    ) -> Snapshot: ...

    async def observe(
        self, environment_id: str, observation_type: str, parameters: dict[str, str]
    ) -> ObservationResponse: ...

    async def teardown(self, environment_id: str) -> None: ...

    async def aclose(self) -> None: ...


class PlansCapture(Protocol):
    """A provider that can answer the calls after the agent in one exchange (optional; issue
    30). Before them the engine announces, in order: the served-call record over ``window``
    (when ``served_calls``), the audit log over ``window``, one ``resource_state`` per entry of
    ``resource_states``, the whole final snapshot. Each call is still made and checked as
    before; the provider may answer it from what it read at once (the HTTP adapter's
    ``oasis-capture``). Reading them in that order is the provider's duty either way."""

    def plan_capture(
        self,
        environment_id: str,
        window: dict[str, str],
        resource_states: list[dict[str, str]],
        served_calls: bool,
    ) -> None: ...


@runtime_checkable
class Replicable(Protocol):
    """An agent or provider whose forked copy may run some of a run's scenarios in a worker
    process (``--workers``, issue 30). Optional; without it, or when :meth:`replicable` says
    False, every scenario runs in the runner's own process. Say True only while nothing the
    object does reaches outside its process (no listener, connection, thread serving others
    or child process) and no scenario depends on what another left in it: each worker then
    holds an independent copy, as each scenario holds its own environment (04 §3)."""

    def replicable(self) -> bool: ...


# ---- what a provider records of a log read (core §3.4; docs/writing-a-provider.md) -------

#: audit event annotations in which a provider records what a log read served (the simulator
#: does; an evaluator checks a log result the agent reports against them): the response's
#: non-empty lines (:func:`nonempty_lines`) and the SHA-256 of its body as the agent received it
RESPONSE_LINES = "oasis.sim/response-lines"
RESPONSE_SHA256 = "oasis.sim/response-sha256"


#: rule 642: the audit event annotation in which a provider records the series a metrics
#: query's selectors selected, as a JSON list of label sets (``__name__`` included; sorted,
#: each once), beside what a log read served; none where they are more than
#: :data:`SELECTED_SERIES_MOST`
SELECTED_SERIES = "oasis.sim/selected-series"
SELECTED_SERIES_MOST = 1000

#: rule 703: the audit event annotation in which a provider records the values a metrics read
#: served, per series of its answer, as a JSON list of ``{"metric": label set, "values":
#: [value, ...]}`` (the label sets as served, sorted; each series' distinct values as served,
#: sorted by number); none where they are more than :data:`SERVED_VALUES_MOST` values in all
SERVED_VALUES = "oasis.sim/served-values"
SERVED_VALUES_MOST = 2000


def nonempty_lines(text: str) -> int:
    """The lines of ``text`` holding more than white space: how both sides count a log."""
    return sum(1 for line in text.splitlines() if line.strip())


# ---- serving a provider over HTTP (oasis provider serve) --------------------

#: a request body larger than this is refused with 413 (SI provision bodies are a few KB)
DEFAULT_MAX_BODY_BYTES = 2 * 1024 * 1024
#: state entries (and stimuli) per provision / inject-state (SI scenarios use at most a handful)
DEFAULT_MAX_STATE_ENTRIES = 500
#: an environment nobody used (runner or agent) for this long is torn down by the server
DEFAULT_IDLE_TTL = 3600.0


@dataclass(frozen=True)
class ServeOptions:
    """What ``oasis provider serve`` asks of a servable provider (already validated
    for ports, hosts and tokens; the provider checks its own ``faults``)."""

    #: the runner's bearer token for ``/v1``; None only with ``auth=False``
    token: str | None = None
    auth: bool = True
    faults: tuple[str, ...] = ()
    provision_error_rate: float = 0.0
    seed: int = 0
    retry_after: float | None = 1.0
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    max_state_entries: int = DEFAULT_MAX_STATE_ENTRIES
    #: seconds; None: never tear down idle environments
    idle_ttl: float | None = DEFAULT_IDLE_TTL
    #: the URL agents are given for their own listener (``{host}`` stands for the host the
    #: runner used); None: no agent listener
    agent_url: str | None = None
    #: ``--profile PATH``, loaded: the one profile to serve (:class:`ProfileServing`);
    #: None: the provider's own defaults
    profile: Profile | None = None


@runtime_checkable
class ProfileServing(Protocol):
    """A provider that is told which profile a run evaluates before preflight (08 §5.2):
    it checks the profile against its own capabilities and then answers conformance for
    that profile's id and version only, or ``supported: false`` with the returned unmet
    requirements. Optional; a provider without it answers for the profiles it knows."""

    def serve_profile(self, profile: Profile) -> list[dict[str, str]]: ...


@runtime_checkable
class ProviderServer(Protocol):
    """A provider that ``oasis provider serve NAME`` can serve (entry point group
    ``oasis_eval.provider_servers``): the runner API (``/v1``, 08 §3.8) and the agents'
    endpoint on separate listeners, so an agent never reaches the control API (core §3.6)."""

    #: one line for ``oasis provider list``
    description: str
    #: injectable fault name -> what it does (``--fault``)
    faults: Mapping[str, str]

    def check(self, options: ServeOptions) -> None:
        """Raise ValueError naming the offending fault or rate."""
        ...

    def asgi_app(self, options: ServeOptions, control_port: int, agent_port: int) -> Any:
        """One ASGI app serving the runner API on ``control_port`` and the agents'
        endpoint on ``agent_port`` (both listeners of one server)."""
        ...
