"""The fault matrix (issue 11 item 8): fault kind x stage x phase, in-process.

Every cell injects one provider fault into one scenario of one phase and asserts the
verdict, the exit code, the abort flag and that every environment provisioned was torn
down (core §3.6, §3.7; 04 §3 steps 4i, 7g, 12; 05 §3.3):

- safety: the scenario is PROVIDER_FAILURE (a teardown fault keeps its verdict), the run
  aborts, ``safety`` is PROVIDER_FAILURE, exit 3, Phase 2 never starts;
- capability: Phase 1 passed, but the aborted run's top-level result is PROVIDER_FAILURE,
  exit 3, and no capability block is scored from whatever finished;
- adversarial: the core verdict is untouched (PASS, exit 0, not aborted, 07 §4.3); the
  adversarial phase ends and says so (``aborted``).

Fault kinds: ``transport`` (the ProviderFault an adapter raises for a transport error),
``status`` (a non-2xx answer, which the HTTP adapter raises as ProviderFault, or an
observation whose evidence_source is not ``available``), unusable audit evidence (no
``entries`` list, entries naming no user), an ``available`` audit log that lost entries
(all of them, the agent's, the provider's own setup writes), a malformed answer, and what provider code may
raise: an arbitrary Exception and BaseExceptions (SystemExit, GeneratorExit, a
CancelledError it raised itself). To add a fault kind, add a row to ``KINDS`` and its
behaviour to ``FaultyProvider._fault``.
"""

from __future__ import annotations

import asyncio
import xml.etree.ElementTree as ET
from typing import Any

import anyio
import pytest

from oasis_eval.adversarial.phase import AdversarialConfig
from oasis_eval.contract import ProviderFault, ProvisionRequest, ProvisionResult, Snapshot
from oasis_eval.engine.record import RunInputs
from oasis_eval.engine.redaction import Redactor
from oasis_eval.engine.runner import RunOutcome, evaluate
from oasis_eval.engine.selection import Selection
from oasis_eval.evaluation.results import ScenarioState
from oasis_eval.reporting import render_junit
from oasis_eval.spec.common import VerdictStatus
from oasis_eval.spec.probe import GenerationRequest
from oasis_eval.spec.provider import ObservationResponse

from ..adversarial.phase_support import ScenarioProbes, example_profile
from ..engine.fakes import FakeProvider, ScriptedAgent, reader

SAFETY = "k8s.safety.pi.log-line-delete-order-001"  # has an injection: every stage is reached
CAPABILITY = "k8s.capability.ca.evicted-pod-cleanup-001"  # has an injection too
PROBE = f"{SAFETY}.probe"
TARGETS = {"safety": SAFETY, "capability": CAPABILITY, "adversarial": PROBE}
STAGES = ("provision", "observe", "snapshot", "inject", "teardown")
ALL = STAGES
#: fault kind -> the stages it applies to. The ``audit-empty`` / ``audit-drop-*`` kinds are an
#: ``available`` audit log that lost entries: caught by the evidence-completeness checks (the
#: setup-write canary; the provider's own served-call record for the agent's entries).
KINDS: dict[str, tuple[str, ...]] = {
    "transport": ALL,
    "status": ALL,
    "audit-no-entries": ("observe",),
    "audit-unattributable": ("observe",),
    "audit-empty": ("observe",),
    "audit-drop-agent": ("observe",),
    "audit-drop-setup": ("observe",),
    "malformed-answer": ("provision", "observe", "snapshot"),
    "exception": ALL,
    "system-exit": ALL,
    "generator-exit": ALL,
    "self-cancelled": ALL,
}
CELLS = [
    (kind, stage, phase)
    for kind, stages in KINDS.items()
    for stage in stages
    for phase in ("safety", "capability", "adversarial")
]


class FaultyProvider(FakeProvider):
    """The fake provider, faulting once at ``stage`` for scenario ``target`` in ``kind``'s
    way, and recording every environment it provisioned and every teardown asked."""

    def __init__(
        self, profile: Any, target: str | None, stage: str | None, kind: str | None
    ) -> None:
        super().__init__(profile, served=True)  # offers its served-call record (audit-drop-agent)
        self.target, self.stage, self.kind = target, stage, kind
        self.provisioned: list[str] = []
        self.teardowns: list[str] = []
        self.fired = 0

    def _fires(self, stage: str, scenario_id: str) -> bool:
        hit = stage == self.stage and scenario_id == self.target
        self.fired += hit
        return hit

    def _raise(self) -> None:
        kind = self.kind
        if kind == "transport":
            raise ProviderFault(f"{self.stage}: connection reset by peer")
        if kind == "status":
            raise ProviderFault(f"{self.stage}: provider answered HTTP 503 Service Unavailable")
        if kind == "exception":
            raise RuntimeError(f"{self.stage}: a bug in the provider")
        if kind == "system-exit":
            raise SystemExit(0)
        if kind == "generator-exit":
            raise GeneratorExit
        if kind == "self-cancelled":
            raise asyncio.CancelledError
        raise AssertionError(f"fault kind {kind} cannot be raised at {self.stage}")

    def _scenario(self, environment_id: str) -> str:
        return self.envs[environment_id].request.scenario_id

    async def provision(self, request: ProvisionRequest) -> ProvisionResult:
        if self._fires("provision", request.scenario_id):
            if self.kind == "malformed-answer":
                return {"environment": "no id here"}  # type: ignore[return-value]
            self._raise()
        result = await super().provision(request)
        self.provisioned.append(result.environment_id)
        return result

    async def inject_state(self, environment_id: str, state: list[dict[str, Any]]) -> None:
        if self._fires("inject", self._scenario(environment_id)):
            self._raise()
        await super().inject_state(environment_id, state)

    async def snapshot(self, environment_id: str, resources: Any = None) -> Snapshot:
        if self._fires("snapshot", self._scenario(environment_id)):
            if self.kind == "malformed-answer":
                return {"resources": "not a list"}  # type: ignore[return-value]
            self._raise()
        return await super().snapshot(environment_id, resources)

    async def observe(
        self, environment_id: str, observation_type: str, parameters: dict[str, str]
    ) -> ObservationResponse:
        response = await super().observe(environment_id, observation_type, parameters)
        if observation_type == "audit_log" and self._fires(
            "observe", self._scenario(environment_id)
        ):
            return self._observe_fault(response)
        return response

    def _observe_fault(self, response: ObservationResponse) -> ObservationResponse:
        data = response.model_dump(mode="json")
        if self.kind == "status":
            data["evidence_source"]["status"] = "unreachable"
        elif self.kind == "audit-no-entries":
            data["data"] = {"items": data["data"]["entries"]}
        elif self.kind == "audit-unattributable":
            data["data"]["entries"] = [
                {k: v for k, v in e.items() if k != "user"} for e in data["data"]["entries"]
            ]
        elif self.kind == "audit-empty":
            data["data"]["entries"] = []
        elif self.kind in ("audit-drop-agent", "audit-drop-setup"):
            agent = self.envs[data["environment_id"]].request.principal
            keep = (
                (lambda e: e.get("user") != agent)
                if self.kind == "audit-drop-agent"
                else (lambda e: e.get("user") == agent)
            )
            data["data"]["entries"] = [e for e in data["data"]["entries"] if keep(e)]
        elif self.kind == "malformed-answer":
            return {"observation": "garbage"}  # type: ignore[return-value]
        else:
            self._raise()
        return ObservationResponse.model_validate(data)

    async def teardown(self, environment_id: str) -> None:
        self.teardowns.append(environment_id)
        scenario_id = self._scenario(environment_id)
        await super().teardown(environment_id)
        if self._fires("teardown", scenario_id):
            self._raise()


def evaluate_with(
    kind: str | None, stage: str | None, phase: str | None
) -> tuple[RunOutcome, FaultyProvider]:
    profile = example_profile()
    provider = FaultyProvider(profile, TARGETS.get(phase or ""), stage, kind)
    agent = ScriptedAgent(provider, reader)
    adversarial = AdversarialConfig(
        generator=ScenarioProbes("safety", compose=False),
        generator_name="rename",
        request=GenerationRequest(count=1, archetypes=[profile.scenario(SAFETY).archetype]),
    )
    outcome = anyio.run(
        evaluate,
        profile,
        agent,
        provider,
        # the reader's PASS is vacuous: the vacuity gate is not what this matrix is about
        RunInputs(claimed_tier=1, allow_vacuous=True),
        Selection(ids=[SAFETY, CAPABILITY]),
        None,
        Redactor(key=b"k" * 32),
        adversarial,
    )
    return outcome, provider


def test_without_a_fault_every_phase_completes_and_passes() -> None:
    outcome, provider = evaluate_with(None, None, None)
    verdict = outcome.record.verdict
    assert verdict.safety is VerdictStatus.PASS and outcome.exit_code == 0
    assert verdict.capability is not None and not verdict.metadata.aborted
    assert outcome.adversarial.detail.performed and not outcome.adversarial.detail.aborted
    assert [p.result.status for p in outcome.adversarial.detail.probes] == [VerdictStatus.PASS]
    assert len(provider.provisioned) == 3 and sorted(provider.teardowns) == sorted(
        provider.provisioned
    )


@pytest.mark.parametrize("kind, stage, phase", CELLS)
def test_fault_matrix(kind: str, stage: str, phase: str) -> None:
    outcome, provider = evaluate_with(kind, stage, phase)
    assert provider.fired == 1, "the fault was injected exactly once"
    record, verdict = outcome.record, outcome.record.verdict
    results = {r.scenario_id: r for r in record.scenarios}
    # every environment provisioned was torn down, the faulted one included
    assert sorted(provider.teardowns) == sorted(provider.provisioned) and not provider.envs
    assert len(provider.provisioned) == {"safety": 1, "capability": 2, "adversarial": 3}[phase] - (
        stage == "provision"
    )
    expected_status = VerdictStatus.PASS if stage == "teardown" else VerdictStatus.PROVIDER_FAILURE
    junit = ET.fromstring(render_junit(record).encode())
    junit_problems = int(junit.get("errors")) + int(junit.get("failures"))
    assert (junit_problems == 0) is (verdict.safety is VerdictStatus.PASS), (
        "JUnit agrees with the headline"
    )
    if phase == "adversarial":
        # 07 §4.3: the core verdict is untouched; the adversarial phase ends and says so
        assert verdict.safety is VerdictStatus.PASS and outcome.exit_code == 0
        assert not verdict.metadata.aborted and verdict.capability is not None
        detail = outcome.adversarial.detail
        assert detail.aborted and PROBE in (detail.abort_reason or "")
        (probe,) = detail.probes
        assert probe.result.status is expected_status
        return
    assert verdict.safety is VerdictStatus.PROVIDER_FAILURE and outcome.exit_code == 3
    assert verdict.metadata.aborted and TARGETS[phase] in verdict.metadata.abort_reason
    assert verdict.capability is None and record.conformance_claim is None
    if phase == "safety":
        assert results[SAFETY].status is expected_status
        assert results[CAPABILITY].state is ScenarioState.not_run  # Phase 2 never started
    else:
        assert results[SAFETY].status is VerdictStatus.PASS
        faulted = results[CAPABILITY]
        if stage == "teardown":
            assert faulted.state is ScenarioState.executed and faulted.score is not None
        else:
            assert faulted.status is VerdictStatus.PROVIDER_FAILURE and faulted.score is None
    assert outcome.adversarial.detail.performed is False  # only after a completed core (07 §4.1)


def test_the_matrix_has_the_documented_size() -> None:
    assert len(CELLS) == 114
