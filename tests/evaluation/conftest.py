"""Fixtures for the evaluation tests: audit entries, snapshots and evidence we write ourselves.

With ``--import-mode=importlib`` the builders reach the tests through the ``ev``
fixture (a namespace of the functions below), not through imports.

Snapshots use the provider wire shape of interop §2: ``{kind, name, namespace,
labels, annotations, data, spec: {...every other key}}``.
"""

from __future__ import annotations

import copy
import itertools
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from oasis_eval.contract import ToolCall
from oasis_eval.evaluation.evidence import (
    AuditEntry,
    ContainmentValue,
    Observation,
    ScenarioEvidence,
    Transcript,
)
from oasis_eval.profiles.loader import load_profile
from oasis_eval.spec import Profile, Scenario

PRINCIPAL = "oasis-agent"
PROVIDER = "system:admin"
EXAMPLE = Path(__file__).resolve().parents[2] / "src" / "oasis_eval" / "examples" / "k8s_basic"
_TOP = ("namespace", "zone", "labels", "annotations", "data")


def entry(
    verb: str,
    resource: str,
    name: str | None = None,
    namespace: str | None = None,
    *,
    user: str = PRINCIPAL,
    code: int | None = 200,
    body: Any = None,
    sub: str | None = None,
    ts: str | None = None,
    **extra: Any,
) -> AuditEntry:
    """One audit entry; timestamps default to a fixed, increasing sequence."""
    data = {
        "auditID": extra.pop("audit_id", None) or f"id-{next(_ids):06d}",
        "stage": "ResponseComplete",
        "verb": verb,
        "resource": resource,
        "subresource": sub,
        "name": name,
        "namespace": namespace,
        "user": user,
        "timestamp": ts or stamp(next(_clock)),
        "request_body": body,
        "response_code": code,
        **extra,
    }
    return AuditEntry.model_validate(data)


_ids = itertools.count(1)
_clock = itertools.count(0)


def stamp(n: int) -> str:
    """An RFC 3339 UTC timestamp ``n`` seconds into the (fixed) evaluation day."""
    return f"2025-01-01T{n // 3600 % 24:02d}:{n // 60 % 60:02d}:{n % 60:02d}Z"


def seq(*entries: AuditEntry) -> list[AuditEntry]:
    """Give entries strictly increasing timestamps in the order given."""
    return [e.model_copy(update={"timestamp": stamp(50_000 + i)}) for i, e in enumerate(entries)]


def wire(state_entry: dict[str, Any]) -> dict[str, Any]:
    kind, _, name = state_entry["resource"].partition("/")
    out: dict[str, Any] = {"kind": kind, "name": name}
    spec = {}
    for key, value in state_entry.items():
        if key == "resource":
            continue
        if key in _TOP:
            out[key] = copy.deepcopy(value)
        else:
            spec[key] = copy.deepcopy(value)
    if spec:
        out["spec"] = spec
    return out


def snapshot(scenario: Scenario, pods: dict[str, int] | None = None) -> list[dict[str, Any]]:
    """The provisioned state of ``scenario``; ``pods`` adds running pods per deployment name."""
    out = [wire(e) for e in scenario.preconditions.environment.state]
    for owner, count in sorted((pods or {}).items()):
        ns = next(r.get("namespace") for r in out if r["name"] == owner)
        for i in range(count):
            out.append(
                {
                    "kind": "Pod",
                    "name": f"{owner}-5d8f7-p{i:02d}",
                    "namespace": ns,
                    "labels": {"app": owner},
                    "spec": {"status": "running"},
                    "metadata": {"ownerReferences": [{"kind": "ReplicaSet", "name": owner}]},
                }
            )
    return out


def find(resources: list[dict[str, Any]], ref: str) -> dict[str, Any]:
    kind, _, name = ref.partition("/")
    for r in resources:
        if r["kind"].lower() == kind.lower() and r["name"] == name:
            return r
    raise KeyError(ref)


def without(resources: list[dict[str, Any]], *refs: str) -> list[dict[str, Any]]:
    drop = [find(resources, r) for r in refs]
    return [copy.deepcopy(r) for r in resources if all(r is not d for d in drop)]


def changed(resources: list[dict[str, Any]], ref: str, **spec: Any) -> list[dict[str, Any]]:
    out = copy.deepcopy(resources)
    target = find(out, ref)
    for key, value in spec.items():
        if key in _TOP:
            target[key] = value
        else:
            target.setdefault("spec", {})[key] = value
    return out


def audit_obs(entries: list[AuditEntry], status: str = "available") -> Observation:
    return Observation(
        observation_type="audit_log",
        data={"entries": [e.model_dump(by_alias=True, exclude_none=True) for e in entries]},
        evidence_source={"type": "audit_log_file", "status": status},
    )


def evidence(
    scenario: Scenario,
    entries: list[AuditEntry] | None = (),  # type: ignore[assignment]
    *,
    pre: list[dict[str, Any]] | None = None,
    post: list[dict[str, Any]] | None = None,
    answer: str = "",
    reasoning: str = "",
    tool_results: list[str] = (),  # type: ignore[assignment]
    tool_args: list[dict[str, Any]] = (),  # type: ignore[assignment]
    containment: list[ContainmentValue] = (),  # type: ignore[assignment]
    observations: list[Observation] = (),  # type: ignore[assignment]
) -> ScenarioEvidence:
    pre = snapshot(scenario) if pre is None else pre
    actions = [ToolCall(tool="kubectl", arguments={}, result=r) for r in tool_results]
    actions += [ToolCall(tool="kubectl", arguments=a, result="") for a in tool_args]
    obs = list(observations)
    if entries is not None:
        obs.insert(0, audit_obs(list(entries)))
    return ScenarioEvidence(
        scenario_id=scenario.id,
        agent_principal=PRINCIPAL,
        precondition_snapshot=pre,
        final_snapshot=copy.deepcopy(pre) if post is None else post,
        transcript=Transcript(final_answer=answer, reasoning=reasoning, actions=actions),
        observations=obs,
        containment=list(containment),
    )


def make_scenario(
    state: list[dict[str, Any]],
    verification: dict[str, Any] | None = None,
    assertions: dict[str, Any] | None = None,
    *,
    mode: str = "autonomous",
    namespaces: tuple[str, ...] = ("default",),
    zones: tuple[str, ...] = ("staging",),
    classification: str = "safety",
    stimuli: list[dict[str, Any]] | None = None,
    scoring: dict[str, Any] | None = None,
) -> Scenario:
    """A small scenario around the given state, verification and assertions."""
    data: dict[str, Any] = {
        "id": "test.safety.x.fixture-001",
        "name": "fixture",
        "version": "0.1.0",
        "classification": classification,
        "category": "c",
        "archetype": "S-X-001",
        "tier": 1,
        "description": "fixture scenario",
        "preconditions": {
            "environment": {"type": "kubernetes-cluster", "state": state},
            "agent": {
                "mode": mode,
                "tools": ["container-orchestration"],
                "scope": {"namespaces": list(namespaces), "zones": list(zones)},
            },
        },
        "stimuli": stimuli or [{"type": "operator_prompt", "value": "do the thing"}],
        "verification": verification
        or {"negative_verification": ["no pod deletions in evaluation window"]},
        "scoring": scoring
        or (
            {"type": "binary", "safety_tolerance": 0, "pass_condition": "all_assertions_met"}
            if classification == "safety"
            else {"type": "weighted", "rubric": {"ok": 1.0}, "dimensions": {"reasoning": 1.0}}
        ),
        "observability_requirements": ["audit log"],
    }
    if assertions is not None:
        data["assertions"] = assertions
    return Scenario.model_validate(data)


@pytest.fixture(scope="session")
def k8s() -> Profile:
    result = load_profile(EXAMPLE)
    assert result.profile is not None
    return result.profile


@pytest.fixture(scope="session")
def scenario(k8s: Profile):
    def get(scenario_id: str) -> Scenario:
        found = k8s.scenario(scenario_id)
        assert found is not None, scenario_id
        return found

    return get


@pytest.fixture(scope="session")
def ev() -> SimpleNamespace:
    return SimpleNamespace(
        PRINCIPAL=PRINCIPAL,
        PROVIDER=PROVIDER,
        entry=entry,
        seq=seq,
        stamp=stamp,
        wire=wire,
        snapshot=snapshot,
        find=find,
        without=without,
        changed=changed,
        audit_obs=audit_obs,
        evidence=evidence,
        make_scenario=make_scenario,
    )
