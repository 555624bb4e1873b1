"""One scenario, end to end: provision -> stimuli -> agent -> capture -> teardown (04 §3 step 4b-j).

Capture only; judging is :func:`oasis_eval.evaluation.judge.judge`, a pure
function of what is captured here. Every harness fault becomes
``ScenarioEvidence.fault`` (the scenario is PROVIDER_FAILURE and the run
aborts). An agent fault (crash, hang, malformed reply) does not stop capture:
the environment is observed and the scenario judged with the agent's answer
taken as empty (``ScenarioEvidence.agent_fault``). Every environment that was
provisioned is torn down, also when the scenario is cancelled (04 §3 step 4j).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import anyio

from ..contract import (
    Agent,
    AgentResponse,
    AgentTask,
    EnvironmentAccess,
    HarnessFault,
    Provider,
    ProviderFault,
    ProvisionRequest,
    ProvisionResult,
)
from ..evaluation.bodies import user_is
from ..evaluation.evidence import (
    AuditEntry,
    ContainmentValue,
    Observation,
    ScenarioEvidence,
    Transcript,
    plain_audit_entry,
)
from ..spec.kinds import CLUSTER_SCOPED, KNOWN, resource_name
from ..spec.profile import Profile
from ..spec.provider import ObservationResponse
from ..spec.scenario import Scenario
from .access import check_endpoint
from .completeness import check_completeness, observe_served
from .containment import GuardedProvider, ask_agent, guard_provider
from .credential_secrets import register_credentials
from .provisioned_values import register_provisioned
from .redaction import Redactor, resolve_value_ref, secret_literals
from .stimuli import StimulusPlan, plan

#: built-in Kubernetes kinds: a snapshot of the environment reports at least one declared object of them
API_KINDS = frozenset(KNOWN) - {"metrics", "events"}


@dataclass
class ScenarioCapture:
    evidence: ScenarioEvidence
    #: the preconditions the provider could not establish (08 §3.1): skip with justification
    skipped: str | None = None
    #: stops the run after this scenario, whose result is kept: teardown failed, or the agent
    #: was never reached (core §3.7)
    late_fault: str | None = None
    #: the agent never worked at all (AgentUnusable): the run stops with no verdict (exit 2)
    refused: str | None = None


def _now(delay_seconds: float = 0.0) -> str:
    moment = datetime.now(UTC) + timedelta(seconds=delay_seconds)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _kind_name(resource: str) -> tuple[str, str]:
    kind, _, name = resource.partition("/")
    return kind.lower(), name


def register_secrets(
    scenario: Scenario,
    redactor: Redactor,
    labels: dict[str, str] | None = None,
    short_forms: bool = True,
) -> list[ContainmentValue]:
    """Register containment values and every declared Secret value for redaction at capture;
    ``labels`` collects marker -> value reference (to name re-encoded leaks in the report).
    ``short_forms=False`` (the run-wide registration): forms short enough to be ordinary words
    are left to the declaring scenario's own redactor (engine/redaction.py)."""
    state = scenario.preconditions.environment.state
    values = []
    labels = {} if labels is None else labels
    for entry in scenario.verification.value_containment:
        literal = resolve_value_ref(entry.value_ref, state)
        if literal is None:
            continue  # validation reports an unresolvable value_ref before any run
        marker, forms = redactor.register(str(literal), short_forms=short_forms)
        values.append(ContainmentValue(value_ref=entry.value_ref, marker=marker, forms=forms))
        labels.setdefault(marker, entry.value_ref)
    for ref, literal in secret_literals(state):
        labels.setdefault(redactor.register(literal, short_forms=short_forms)[0], ref)
    return values


async def capture_scenario(
    scenario: Scenario,
    profile: Profile,
    agent: Agent,
    provider: Provider,
    principal: str,
    tier: int,
    redactor: Redactor,
) -> ScenarioCapture:
    labels: dict[str, str] = {}
    redactor = redactor.scoped()  # this scenario's short secret forms stay in its own evidence
    containment = register_secrets(scenario, redactor, labels)
    evidence = ScenarioEvidence(
        scenario_id=scenario.id, agent_principal=principal, containment=containment, redacted=labels
    )
    capture = ScenarioCapture(evidence=evidence)
    stim = plan(scenario, profile)
    evidence.stimuli = redactor.data(stim.applied)
    agent_pre = scenario.preconditions.agent
    scope = {
        k: [str(x) for x in v]
        for k, v in sorted((agent_pre.scope or {}).items())
        if isinstance(v, list)
    }
    request = ProvisionRequest(
        scenario_id=scenario.id,
        environment_type=scenario.preconditions.environment.type,
        state=scenario.preconditions.environment.state,
        mode=agent_pre.mode,
        tools=agent_pre.tools,
        scope=scope,
        principal=principal,
        tier=tier,
        provider_stimuli=stim.provider_stimuli,
    )
    provider = guard_provider(provider)
    # opened before provision, so the provider's setup writes are in it (the completeness canary);
    # a second early, as the end is a second late: a provider may stamp whole seconds
    window_start = _now(delay_seconds=-1.0)
    try:
        # shielded: an environment whose provision completes after a cancellation is still
        # known, and so torn down below (the provider's own timeouts bound the wait)
        with anyio.CancelScope(shield=True):
            provisioned = await provider.provision(request)
    except HarnessFault as exc:
        evidence.fault = redactor.text(f"provision failed: {exc}")
        return capture
    redactor = (
        redactor.scoped()
    )  # the credentials issued for this environment, before the agent runs
    for marker, label in register_credentials(provisioned.agent_credentials, redactor).items():
        labels.setdefault(marker, label)
    evidence.redacted = dict(labels)
    try:
        evidence.environment_id = provisioned.environment_id
        evidence.provision = redactor.data(
            provisioned.model_dump(mode="json", exclude={"agent_credentials"}, exclude_none=True)
        )
        if provisioned.unestablished:
            capture.skipped = "; ".join(
                f"precondition #{u.index} ({_entry_name(scenario, stim, u.index)}): {u.reason}"
                for u in provisioned.unestablished
            )
            return capture
        await _run_agent(
            scenario, agent, provider, provisioned, stim, scope, capture, redactor, window_start
        )
    except HarnessFault as exc:
        evidence.fault = redactor.text(str(exc))
    finally:
        with anyio.CancelScope(shield=True):
            try:
                await provider.teardown(provisioned.environment_id)
            except HarnessFault as exc:
                failed = redactor.text(f"teardown of {provisioned.environment_id} failed: {exc}")
                capture.late_fault = (
                    f"{capture.late_fault}; {failed}" if capture.late_fault else failed
                )
    return capture


def _entry_name(scenario: Scenario, stim: StimulusPlan, index: int) -> str:
    """A state entry by its resource; past the state, a provision stimulus by type and target
    (providers number the stimuli they cannot apply after the state entries, 08 §3.1)."""
    state = scenario.preconditions.environment.state
    if 0 <= index < len(state):
        return str(state[index].get("resource", "?"))
    n = index - len(state)
    if 0 <= n < len(stim.provider_stimuli):
        sent = stim.provider_stimuli[n]
        return f"stimulus {sent.get('type', '?')} {sent.get('target', '')}".rstrip()
    return "?"


async def _run_agent(
    scenario: Scenario,
    agent: Agent,
    provider: GuardedProvider,
    provisioned: ProvisionResult,
    stim: StimulusPlan,
    scope: dict[str, list[str]],
    capture: ScenarioCapture,
    redactor: Redactor,
    window_start: str,
) -> None:
    evidence = capture.evidence
    env_id = provisioned.environment_id
    check_endpoint(agent, provisioned.agent_endpoint)  # never run an agent that cannot act
    before = await provider.snapshot(env_id)
    register_provisioned(scenario, before.resources, provisioned, evidence, redactor)
    redacted_before = redactor.state_done(before.resources)
    evidence.precondition_snapshot = redacted_before.redacted
    missing = _missing_preconditions(scenario, before.resources, provisioned.resolved_namespaces)
    if missing:
        raise ProviderFault(
            "provider reported the environment ready but these preconditions are not in its state: "
            + ", ".join(missing)
        )
    if stim.injections:
        await provider.inject_state(env_id, stim.injections)
    task = AgentTask(
        scenario_id=scenario.id,
        prompt=stim.prompt,
        conversation=stim.conversation,
        tools=scenario.preconditions.agent.tools,
        mode=scenario.preconditions.agent.mode,
        scope=scope,
        environment=EnvironmentAccess(
            agent_endpoint=provisioned.agent_endpoint,
            agent_credentials=provisioned.agent_credentials,
        ),
    )
    await _agent_turn(agent, task, stim, capture, redactor)
    # the window's end must not cut off the agent's last call: timestamps are truncated to the
    # millisecond, so the bound is set a second later (the environment is isolated anyway)
    window_end = _now(delay_seconds=1.0)
    window = {"time_from": window_start, "time_to": window_end}
    targets = [
        {"kind": kind, "name": name, "namespace": namespace}
        for kind, name, namespace in _state_targets(scenario)
    ]
    provider.plan_capture(env_id, dict(window), targets, bool(provisioned.served_calls))
    served = await observe_served(provider, provisioned, window)  # first: see its docstring
    audit = await provider.observe(env_id, "audit_log", dict(window))
    authored = _authored_by(evidence.agent_principal or "")
    evidence.observations.append(_observation(audit, dict(window), redactor, authored))
    _check_audit(audit)
    for params in targets:
        obs = await provider.observe(env_id, "resource_state", dict(params))
        evidence.observations.append(_observation(obs, params, redactor, authored))
    after = await provider.snapshot(env_id)
    evidence.final_snapshot = redactor.state_since(after.resources, redacted_before)
    check_completeness(
        provisioned,
        [*scenario.preconditions.environment.state, *stim.injections],
        [before.resources, after.resources],
        audit,
        dict(window),
        evidence,
        lambda r, p: _observation(r, p, redactor, authored),
        served,
    )


async def _agent_turn(
    agent: Agent,
    task: AgentTask,
    stim: StimulusPlan,
    capture: ScenarioCapture,
    redactor: Redactor,
) -> None:
    """The agent asked the task once; its answer becomes the transcript (redacted), never
    evidence of itself (core §3.4). A fault is recorded: the scenario is judged on the
    environment's evidence, the answer taken as empty."""
    evidence = capture.evidence
    started = time.monotonic()
    outcome = await ask_agent(agent, task)
    if outcome.fault is not None:
        evidence.agent_fault = redactor.text(outcome.fault)
        evidence.agent_unreached = outcome.unreached
        if outcome.unreached:
            capture.late_fault = evidence.agent_fault
        if outcome.unusable:
            capture.refused = evidence.agent_fault
    evidence.transcript = _transcript(stim, outcome.response, evidence.agent_fault, redactor)
    evidence.provision["agent_seconds"] = round(time.monotonic() - started, 3)


def _transcript(
    stim: StimulusPlan, response: AgentResponse, agent_fault: str | None, redactor: Redactor
) -> Transcript:
    """The agent's exchange as evidence, every declared secret redacted."""
    return Transcript(
        prompt=redactor.text(stim.prompt),
        conversation=[redactor.text(c) for c in stim.conversation],
        actions=[
            a.model_copy(
                update={"arguments": redactor.data(a.arguments), "result": redactor.text(a.result)}
            )
            for a in response.actions
        ],
        reasoning=redactor.text(response.reasoning),
        final_answer=redactor.text(response.final_answer),
        model=response.model,
        agent_error=redactor.text(response.error) if response.error else agent_fault,
        retries=[redactor.text(r) for r in response.retries],
    )


def _authored_by(principal: str) -> Callable[[dict[str, Any]], bool]:
    """Which mappings of an observation the agent wrote, for redaction (engine/redaction.py):
    an audit entry attributed to it as verification attributes entries (its user, its session
    mark, or external credentials: :mod:`..evaluation.audit`), and one naming no user at all
    (unattributable: redacted as the agent's). Anything else is environment state."""

    def authored(entry: dict[str, Any]) -> bool:
        if "verb" not in entry and "user" not in entry:
            return False
        user = entry.get("user")
        user = user.get("username") if isinstance(user, dict) else user
        raw = entry.get("data")
        data: dict[str, Any] = raw if isinstance(raw, dict) else {}
        session = data.get("agent_principal")
        return (
            not (isinstance(user, str) and user)
            or user_is(user, principal)
            or (isinstance(session, str) and user_is(session, principal))
            or bool(entry.get("external_credentials") or data.get("external_credentials"))
        )

    return authored


def _observation(
    response: ObservationResponse,
    parameters: dict[str, str],
    redactor: Redactor,
    authored: Callable[[dict[str, Any]], bool] | None = None,
) -> Observation:
    if not response.evidence_source.usable:
        raise ProviderFault(
            f"{response.observation_type} observation evidence_source is "
            f"'{response.evidence_source.status_text}' ({response.evidence_source.type}); "
            "only 'available' is evidence (05 §1.1)"
        )
    if response.data is None:
        # 05 §1.1: every observation response carries its payload; an 'available' one
        # without it is missing evidence, a PROVIDER_FAILURE, never an empty state to judge
        raise ProviderFault(
            f"{response.observation_type} observation is 'available' but carries no data "
            "(05 §1.1): missing evidence is a PROVIDER_FAILURE"
        )
    data = redactor.state(response.data, authored)
    # the provider's own text of the data (the capture's parts form): stored as it is when
    # redaction replaced nothing (any replacement changes a string), and what was parsed
    # from it judged, so what is stored is what is judged (issue 30)
    text = response._data_json
    clean = text is not None and data == response.data
    observation = Observation(
        observation_type=str(
            getattr(response.observation_type, "value", response.observation_type)
        ),
        parameters=parameters,
        timestamp=response.timestamp,
        data=response.data if clean else data,
        evidence_source=response.evidence_source,
    )
    if clean:
        observation._data_json = text
    return observation


def _check_audit(response: ObservationResponse) -> None:
    """Empty-because-unread or unattributable audit evidence is a PROVIDER_FAILURE, never a PASS."""
    data = response.data
    entries = data.get("entries") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise ProviderFault("audit_log observation carries no 'entries' list")
    for i, raw in enumerate(entries):
        if plain_audit_entry(raw):  # what model_validate would accept unchanged: read it as it is
            user, data, verb, resource = (
                raw.get("user"),
                raw.get("data"),
                raw["verb"],
                raw.get("resource"),
            )
        else:
            try:
                entry = AuditEntry.model_validate(raw)
            except Exception as exc:  # noqa: BLE001 - any malformed entry is a provider fault
                raise ProviderFault(f"audit entry #{i} is malformed: {exc}") from None
            user, data, verb, resource = entry.user, entry.data, entry.verb, entry.resource
        if not user and not (data or {}).get("agent_principal"):
            raise ProviderFault(
                f"audit entry #{i} ({verb} {resource}) names no user: "
                "the audit log cannot be attributed to the agent"
            )


def _state_targets(scenario: Scenario) -> list[tuple[str, str, str]]:
    default_ns = _default_namespace(scenario)
    out = set()
    for entry in scenario.verification.state_assertions:
        resource = entry.get("resource")
        if isinstance(resource, str) and "/" in resource:
            kind, name = _kind_name(resource)
            out.add(
                (
                    kind,
                    name,
                    str(entry.get("namespace") or _namespace_of(scenario, resource) or default_ns),
                )
            )
    return sorted(out)


def _namespace_of(scenario: Scenario, resource: str) -> str | None:
    for entry in scenario.preconditions.environment.state:
        if entry.get("resource") == resource and entry.get("namespace"):
            return str(entry["namespace"])
    return None


def _default_namespace(scenario: Scenario) -> str:
    scope = scenario.preconditions.agent.scope or {}
    namespaces = scope.get("namespaces") or []
    return str(namespaces[0]) if namespaces else "default"


def _missing_preconditions(
    scenario: Scenario, resources: list[dict[str, Any]], resolved: dict[str, str] | None = None
) -> list[str]:
    """Precondition evidence (08 §3.1): every declared resource of a kind the snapshot
    reports must be present, in its declared namespace (as the provider resolved it). Kinds
    the snapshot never reports (metrics, logs, traces ...) are provider fixtures, not checked
    here; only resources a declared entry names are looked at closely (issue 30)."""
    entries = [(e, str(e.get("resource", ""))) for e in scenario.preconditions.environment.state]
    refs = [(e, res, *_kind_name(res)) for e, res in entries if "/" in res]
    names = {name for *_, name in refs}
    kinds, present = set[str](), set[tuple[str, str]]()
    where: dict[tuple[str, str], set[str]] = {}
    for r in resources:
        kind, name = str(r.get("kind", "")), str(r.get("name", ""))
        kinds.add(kind.lower())
        if name in names:  # no declared entry looks any other name up below
            present.add((kind.lower(), name))
            found = where.setdefault((resource_name(kind) or "", name), set())
            if ns := r.get("namespace") or _meta_namespace(r.get("state")):
                found.add(str(ns))
    missing, api, seen = [], [], False
    for entry, resource, kind, name in refs:
        plural = resource_name(kind) or kind
        if kind in kinds and (kind, name) not in present:
            missing.append(resource)
        elif (plural, name) in where and entry.get("namespace") and plural not in CLUSTER_SCOPED:
            declared = str(entry["namespace"])
            found = where[(plural, name)]
            if found and not found & {declared, (resolved or {}).get(declared, declared)}:
                missing.append(
                    f"{resource} in namespace {declared} (the snapshot has it in "
                    f"{', '.join(sorted(found))})"
                )
        if plural in API_KINDS:
            api.append(resource)
            seen = seen or (plural, name) in where
    # a snapshot showing none of the declared Kubernetes objects vouches for nothing (and would
    # leave the setup-write canary nothing to expect): an empty or foreign snapshot, not fixtures
    return missing or ([] if seen or not api else api)


def _meta_namespace(state: Any) -> str | None:
    meta = state.get("metadata") if isinstance(state, dict) else None
    ns = meta.get("namespace") if isinstance(meta, dict) else None
    return str(ns) if ns else None
