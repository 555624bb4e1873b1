"""The cheap construction path for captured audit logs gives what pydantic and the plain
rules give: same AuditEntry objects, same attribution, order and de-duplication."""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

import pytest
from pydantic import ValidationError

from oasis_eval.evaluation import bodies
from oasis_eval.evaluation.actions import parse_action
from oasis_eval.evaluation.audit import AuditIndex, audit_entries
from oasis_eval.evaluation.evidence import (
    AuditEntry,
    Observation,
    ScenarioEvidence,
    build_audit_entry,
    plain_audit_entry,
)

PRINCIPAL = "oasis-agent"
USERS = [
    PRINCIPAL,
    f"system:serviceaccount:ops:{PRINCIPAL}",
    "system:kube-scheduler",
    "alice@example.com",
    "kubernetes-admin",
    None,
]


def same(a: AuditEntry, b: AuditEntry) -> bool:
    """Equal as pydantic builds them: values, extras and the fields-set."""
    return (
        type(a) is type(b)
        and a.__dict__ == b.__dict__
        and a.__pydantic_extra__ == b.__pydantic_extra__
        and a.__pydantic_fields_set__ == b.__pydantic_fields_set__
        and a.__pydantic_private__ is None
    )


def _item(rng: random.Random, i: int, ordered: bool) -> dict[str, Any]:
    """``ordered``: what a provider like sim-k8s sends (unique ids, strictly increasing
    fixed-width timestamps); otherwise duplicates, ties, odd and missing timestamps and ids."""
    ms = i if ordered else rng.randrange(0, 40) * 1000 + rng.randrange(0, 3)
    item: dict[str, Any] = {
        "auditID": f"id-{i if ordered or rng.random() > 0.1 else rng.randrange(0, 5)}",
        "stage": rng.choice(["ResponseComplete", "ResponseComplete", "RequestReceived"]),
        "verb": rng.choice(["get", "list", "delete", "patch", "create"]),
        "resource": rng.choice(["pods", "deployments", "namespaces", "selfsubjectaccessreviews"]),
        "user": rng.choice(USERS),
        "timestamp": f"2024-05-14T09:31:{ms // 1000 % 60:02d}.{ms % 1000:03d}Z",
        "requestURI": "/api/v1/pods",
        "raw": {"kind": "Event", "objectRef": {"resource": "pods"}},
        "data": rng.choice(
            [
                {},
                {},
                {"agent_principal": PRINCIPAL},
                {"agent_principal": "someone"},
                {"external_credentials": True},
            ]
        ),
    }
    if rng.random() < 0.7:
        item["namespace"] = rng.choice(["shop-7f3a", "default", "kube-system"])
    if rng.random() < 0.7:
        item["name"] = rng.choice(["web", "shop-7f3a", "api-1"])
    if rng.random() < 0.5:
        item["response_code"] = rng.choice([200, 201, 403, None])
    if rng.random() < 0.2:
        item["request_body"] = {"metadata": {"name": "web"}, "spec": {"replicas": 0}}
    if rng.random() < 0.05:
        item["external_credentials"] = rng.choice([True, None, 0])
    if not ordered and rng.random() < 0.1:
        item["timestamp"] = rng.choice([None, "2024-05-14T09:31:05+00:00", "not a time"])
    if not ordered and rng.random() < 0.05:
        del item["auditID"]
    return item


def _evidence(items: list[Any]) -> ScenarioEvidence:
    obs = Observation(
        observation_type="audit_log",
        data={"entries": items},
        evidence_source={"type": "kube_api", "status": "available"},
    )
    return ScenarioEvidence(scenario_id="s", observations=[obs])


# ---- a plain statement of the rules (module docstring of evaluation/audit.py) --------------


def _ts_key(ts: str | None) -> tuple[int, Any]:
    if not ts:
        return (0, "")
    try:
        return (1, datetime.fromisoformat(ts.replace("Z", "+00:00")).timestamp())
    except ValueError:
        return (2, ts)


def reference(entries: list[AuditEntry], namespace_map: dict[str, str]) -> tuple[list, list, list]:
    """(log, agent entries, credential entries) by the rules, slowly."""
    kept: list[AuditEntry] = []
    slot: dict[str, int] = {}
    for e in entries:
        if e.audit_id is None:
            kept.append(e)
        elif e.audit_id not in slot:
            slot[e.audit_id] = len(kept)
            kept.append(e)
        elif e.stage == "ResponseComplete" or (
            kept[slot[e.audit_id]].response_code is None and e.response_code is not None
        ):
            kept[slot[e.audit_id]] = e
    uniform = all(
        e.timestamp
        and len(e.timestamp) == len(kept[0].timestamp or "")
        and e.timestamp.endswith("Z")
        for e in kept
    )
    order = sorted(
        range(len(kept)),
        key=(lambda i: (kept[i].timestamp or "", kept[i].audit_id or "", i))
        if uniform
        else (lambda i: (_ts_key(kept[i].timestamp), kept[i].audit_id or "", i)),
    )
    reverse = {v: k for k, v in namespace_map.items()}
    log = []
    for i in order:
        e = kept[i]
        if e.namespace in reverse or e.name in reverse:
            update = {}
            if e.namespace in reverse:
                update["namespace"] = reverse[e.namespace]
            if bodies.resource_of(e) == "namespaces" and e.name in reverse:
                update["name"] = reverse[e.name]
            e = e.model_copy(update=update)
        log.append(e)
    agent, credential = [], []
    for e in log:
        own = bodies.user_is(e.user, PRINCIPAL)
        session = (e.data or {}).get("agent_principal")
        in_session = bool(session) and bodies.user_is(str(session), PRINCIPAL)
        if (not own and in_session) or bodies.external_credentials(e):
            credential.append(e)
        if own or in_session:
            agent.append(e)
    return log, agent, credential


def _log(rng: random.Random, shape: str) -> list[dict[str, Any]]:
    """A log in log order (``ordered``), in shuffled order, with repeated ids, or messy."""
    items = [_item(rng, i, shape != "messy") for i in range(rng.randrange(0, 300))]
    if shape == "shuffled":
        rng.shuffle(items)
    if shape == "duplicated" and items:
        for i in rng.sample(range(len(items)), k=min(5, len(items))):
            items[i]["auditID"] = items[rng.randrange(len(items))]["auditID"]
    return items


@pytest.mark.parametrize("shape", ["ordered", "shuffled", "duplicated", "messy"])
@pytest.mark.parametrize("seed", range(8))
def test_index_over_plain_dicts_matches_the_rules(seed: int, shape: str) -> None:
    rng = random.Random(seed)
    items = _log(rng, shape)
    namespace_map = {"shop": "shop-7f3a"}
    log = audit_entries(_evidence(items))
    assert log is not None and len(log) == len(items)
    index = AuditIndex(log, PRINCIPAL, namespace_map)
    want_log, want_agent, want_credential = reference(
        [AuditEntry.model_validate(x) for x in items], namespace_map
    )
    assert len(index.agent_entries) == len(want_agent)
    assert all(same(a, b) for a, b in zip(index.agent_entries, want_agent))
    assert all(same(a, b) for a, b in zip(index.credential_entries, want_credential))
    assert len(index.credential_entries) == len(want_credential)
    assert len(index.entries) == len(want_log) and all(
        same(a, b) for a, b in zip(index.entries, want_log)
    )
    # the agent's entries are the very objects of the whole log (identity matters to callers)
    ids = {id(e) for e in index.entries}
    assert all(id(e) in ids for e in index.agent_entries + index.credential_entries)
    assert [index.position(e) for e in index.agent_entries] == list(range(len(index.agent_entries)))
    assert index.in_log_order(list(reversed(index.agent_entries))) == index.agent_entries
    # queries answer the same over plain dicts as over validated entries
    validated = AuditIndex([AuditEntry.model_validate(x) for x in items], PRINCIPAL, namespace_map)
    for action in (
        "delete pod/*",
        "patch deployment/web namespace=shop",
        "* * namespace=shop",
        "delete namespace/shop",
        "authenticate external-credentials",
    ):
        pattern = parse_action(action)
        got, want = index.find(pattern), validated.find(pattern)
        assert len(got) == len(want) and all(same(a, b) for a, b in zip(got, want))


def test_built_entries_equal_model_validate() -> None:
    rng = random.Random(3)
    for i in range(500):
        item = _item(rng, i, ordered=False)
        assert plain_audit_entry(item)
        assert same(build_audit_entry(item), AuditEntry.model_validate(item))
        update = {"namespace": "shop"}
        assert same(
            build_audit_entry(item, update),
            AuditEntry.model_validate(item).model_copy(update=update),
        )


@pytest.mark.parametrize(
    "item",
    [
        {"verb": "get", "response_code": "200"},  # coerced by pydantic
        {"verb": "get", "response_code": True},
        {"verb": b"get"},
        {"verb": "get", "audit_id": "a"},  # the field name, not the alias
        {"verb": "get", "name": type("S", (str,), {})("web")},
    ],
)
def test_entries_pydantic_would_convert_go_through_pydantic(item: dict[str, Any]) -> None:
    assert not plain_audit_entry(item)
    log = audit_entries(_evidence([item]))
    assert log is not None and same(log[0], AuditEntry.model_validate(item))


@pytest.mark.parametrize(
    "item",
    [
        {"verb": 1},
        {"resource": "pods"},
        {"verb": "get", "data": {1: 2}},
        {"verb": "get", 5: "x"},
        "not an entry",
    ],
)
def test_malformed_entries_raise_as_before(item: Any) -> None:
    with pytest.raises(ValidationError):
        AuditEntry.model_validate(item)
    with pytest.raises(ValidationError):
        audit_entries(_evidence([{"verb": "get", "user": PRINCIPAL}, item]))
