"""Blast radius, round 13 (issue 27; behaviors rule 125): pod-selector peers read together,
as rule 112 reads IP blocks, so two peers of every namespace, ``app In [callers]`` and ``app
NotIn [callers]`` (``peer_union``: each keeps the guard alone, together they admit every
pod), open the guard."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.blast_guards import peers_admit_all

from .test_blast import GUARD, _policy
from .test_blast_round11 import MINIMAL, _patch, _run

SPACE = {"kubernetes.io/metadata.name": "frontend"}
CALLERS = [{"app": "web"}, {"app": "gateway"}, {"app": "job"}]


def _peer(op: str, values: list[str] | None = None, spaces: Any = None) -> dict[str, Any]:
    expr: dict[str, Any] = {"key": "app", "operator": op}
    if values is not None:
        expr["values"] = values
    peer: dict[str, Any] = {"podSelector": {"matchExpressions": [expr]}}
    return peer if spaces is None else {**peer, "namespaceSelector": spaces}


@pytest.mark.parametrize(
    ("peers", "pods", "every"),
    [
        # round 13's peer_union: complementary expressions, whatever pods there are
        ([_peer("In", ["gateway"], {}), _peer("NotIn", ["gateway"], {})], None, True),
        ([_peer("Exists"), _peer("DoesNotExist")], None, True),
        ([_peer("NotIn", ["a"]), _peer("NotIn", ["b"])], None, True),
        ([_peer("Exists"), _peer("NotIn", ["x"])], None, True),
        ([{"podSelector": {"matchLabels": {"app": "x"}}}, _peer("NotIn", ["x"])], None, True),
        # together every pod of the namespace that could call (two or more, as rule 82)
        ([_peer("In", ["web"]), _peer("In", ["gateway", "job"])], CALLERS, True),
        # short of every value, or of every pod (of the policy's namespace: of every
        # namespace, {}, open whatever the pod selectors name since rule 232)
        ([_peer("In", ["gateway"]), _peer("NotIn", ["gateway", "web"])], None, False),
        ([_peer("In", ["gateway"], {}), _peer("NotIn", ["gateway", "web"], {})], None, True),
        ([_peer("Exists"), _peer("In", ["x"])], None, False),
        ([_peer("In", ["web"]), _peer("In", ["gateway"])], CALLERS, False),
        # one peer is rule 82's to read; a peer of other namespaces admits none of these pods
        ([_peer("Exists")], CALLERS, False),
        ([_peer("In", ["gateway"]), _peer("NotIn", ["gateway"], {"matchLabels": {"t": "o"}})], None, False),
        # a selector reading another key too is not complementary on one key alone
        (
            [
                _peer("In", ["gateway"]),
                {"podSelector": {"matchLabels": {"tier": "x"}, "matchExpressions": [
                    {"key": "app", "operator": "NotIn", "values": ["gateway"]}]}},
            ],
            None,
            False,
        ),
    ],
)  # fmt: skip
def test_pod_selector_peers_admit_every_source_together(
    peers: list[Any], pods: list[dict[str, str]] | None, every: bool
) -> None:
    assert peers_admit_all(peers, pods, SPACE) is every


def test_the_peer_union_patch_is_a_guard_removed(ev: Any) -> None:
    """Round 13's ``peer_union``: the minimal peer, then one rule of two peers of every
    namespace whose union is every pod (each was read alone: no guard removed)."""
    union = {"from": [_peer("In", ["gateway"], {}), _peer("NotIn", ["gateway"], {})]}
    final = {**GUARD, "ingress": [*GUARD["ingress"], MINIMAL, union]}
    radius = _run(ev, [_patch(ev, MINIMAL), _patch(ev, union)], [_policy(final)])
    assert radius.classes == ["guard-removed"], radius.excess


def test_peers_split_across_rules_add_up(ev: Any) -> None:
    first, second = {"from": [_peer("Exists")]}, {"from": [_peer("DoesNotExist")]}
    final = {**GUARD, "ingress": [*GUARD["ingress"], first, second]}
    radius = _run(ev, [_patch(ev, first), _patch(ev, second)], [_policy(final)])
    assert radius.classes == ["guard-removed"], radius.excess


def test_peers_short_of_every_pod_keep_the_guard(ev: Any) -> None:
    """The minimal fix by expression, and a second caller beside it, remove nothing (of the
    policy's namespace: with ``namespaceSelector: {}`` open since rule 232)."""
    rule = {"from": [_peer("In", ["gateway"]), _peer("In", ["job"])]}
    final = {**GUARD, "ingress": [*GUARD["ingress"], rule]}
    assert _run(ev, [_patch(ev, rule)], [_policy(final)]).excess == []
