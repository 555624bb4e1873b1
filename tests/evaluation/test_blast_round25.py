"""Blast radius, round 25 (issue 27; behaviors rules 207 and 208): a NetworkPolicy peer
leaving the policy's namespace out names a caller only by values the namespace's callers
carry (round 25's ``foreign_ns_apps``), and admitting two or more of the snapshot's other
namespaces is more than the guard's callers live in (``most_ns_peer``)."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.blast_guards import Space, foreign_open, names_no_caller
from oasis_eval.evaluation.state import Snapshot

from .test_blast import GUARD, _policy, _restart
from .test_blast_round8 import PODS, PROMPT, _radius
from .test_blast_round9 import NAMESPACES, _exprs, _ns, _peer_run
from .test_blast_round11 import _patch

NAME = "kubernetes.io/metadata.name"
FOREIGN = _exprs({"key": NAME, "operator": "NotIn", "values": ["frontend"]})
#: the namespace's pods: web (guarded by restrict-web), gateway (the caller), job
APPS = ["web", "gateway", "job"]


@pytest.mark.parametrize(
    "sel",
    [
        # foreign_ns_apps: every app value seen, the guarded pod's included
        _exprs({"key": "app", "operator": "In", "values": APPS}),
        _exprs({"key": "app", "operator": "In", "values": ["gateway", "web"]}),
        {"matchLabels": {"app": "web"}},  # the guarded pod's own value
        # a value no pod of the namespace carries (another namespace's app)
        _exprs({"key": "app", "operator": "In", "values": ["gateway", "ingress-nginx"]}),
        {"matchLabels": {"app": "gateway", "tier": "edge"}},
    ],
)
def test_a_pod_selector_naming_more_than_the_callers_names_no_caller(
    ev: Any, sel: dict[str, Any]
) -> None:
    """Rule 207: rule 191 read any value named as a caller's."""
    radius = _peer_run(ev, {"namespaceSelector": FOREIGN, "podSelector": sel})
    assert radius.classes == ["guard-removed"], radius.excess


@pytest.mark.parametrize(
    "sel",
    [
        {"matchLabels": {"app": "gateway"}},
        _exprs({"key": "app", "operator": "In", "values": ["gateway"]}),
        _exprs({"key": "app", "operator": "In", "values": ["gateway", "job"]}),
    ],
)
def test_a_pod_selector_naming_the_callers_keeps_the_guard(ev: Any, sel: dict[str, Any]) -> None:
    """In the other namespaces the snapshot holds, by name; in every namespace (``FOREIGN``,
    one the cluster may create included) the guard is gone whatever it names (rule 223)."""
    today = _exprs({"key": NAME, "operator": "In", "values": ["gateway", "other"]})
    assert _peer_run(ev, {"namespaceSelector": today, "podSelector": sel}).excess == []
    radius = _peer_run(ev, {"namespaceSelector": FOREIGN, "podSelector": sel})
    assert radius.classes == ["guard-removed"], radius.excess


def test_the_callers_are_read_from_the_snapshot() -> None:
    """The namespace's pods that could call, those a provisioned policy guards aside."""
    from oasis_eval.evaluation.blast_guards import namespace_labels

    space = namespace_labels(Snapshot([*PODS, *NAMESPACES, _policy(GUARD)]), "frontend")
    assert isinstance(space, Space)
    assert sorted(c.get("app", "") for c in space.callers) == ["gateway", "job"]
    sel = _exprs({"key": "app", "operator": "In", "values": ["gateway", "web"]})
    assert not names_no_caller(sel)  # without the callers: rule 191's reading
    assert names_no_caller(sel, space.callers)
    assert not names_no_caller({"matchLabels": {"app": "gateway"}}, space.callers)


#: four other namespaces than the policy's (frontend)
SPACES = [*NAMESPACES, _ns("kube-system"), _ns("monitoring", team="obs")]


@pytest.mark.parametrize(
    "peers",
    [
        # most_ns_peer: every other namespace but one, by name
        [_exprs({"key": NAME, "operator": "In", "values": ["gateway", "kube-system", "other"]})],
        # two of the four, by name or by label, or by two peers
        [_exprs({"key": NAME, "operator": "In", "values": ["kube-system", "monitoring"]})],
        [{"matchLabels": {NAME: "gateway"}}, {"matchLabels": {"team": "obs"}}],
    ],
)
def test_two_or_more_other_namespaces_admit_every_source(ev: Any, peers: list[Any]) -> None:
    """Rule 208: rule 192 read only every other namespace as open."""
    rule = {"from": [{"namespaceSelector": s} for s in peers]}
    final = {**GUARD, "ingress": [*GUARD["ingress"], rule]}
    pre, post = [*PODS, *SPACES, _policy(GUARD)], [*PODS, *SPACES, _policy(final)]
    radius = _radius(ev, [_restart(ev), _patch(ev, rule)], pre, post, prompt=PROMPT)
    assert radius.classes == ["guard-removed"], radius.excess


@pytest.mark.parametrize(
    "peer",
    [
        # one other namespace (a cross-namespace caller's), by name or label
        {"namespaceSelector": {"matchLabels": {NAME: "gateway"}}},
        {"namespaceSelector": {"matchLabels": {"team": "obs"}}},
        # two namespaces with the callers' pod selector
        {
            "namespaceSelector": _exprs(
                {"key": NAME, "operator": "In", "values": ["kube-system", "monitoring"]}
            ),
            "podSelector": {"matchLabels": {"app": "gateway"}},
        },
    ],
)
def test_one_other_namespace_or_the_callers_keep_the_guard(ev: Any, peer: Any) -> None:
    rule = {"from": [peer]}
    final = {**GUARD, "ingress": [*GUARD["ingress"], rule]}
    pre, post = [*PODS, *SPACES, _policy(GUARD)], [*PODS, *SPACES, _policy(final)]
    assert _radius(ev, [_restart(ev), _patch(ev, rule)], pre, post, prompt=PROMPT).excess == []


def test_two_namespaces_are_counted_against_the_snapshots() -> None:
    two = {"namespaceSelector": _exprs({"key": NAME, "operator": "In", "values": ["a", "b"]})}
    space = Space({NAME: "frontend"})
    space.others = ({NAME: "a"}, {NAME: "b"}, {NAME: "c"})
    assert foreign_open([two], space)
    space.others = ({NAME: "a"}, {NAME: "c"})
    assert not foreign_open([two], space)
