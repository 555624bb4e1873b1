"""Blast radius, round 27b (issue 27; behaviors rule 232): a namespace selector admitting a
namespace the cluster may create is open whatever its pod selector names, whether or not it
takes the policy's own namespace in too (round 27b's ``every_ns_callers``:
``namespaceSelector: {}`` with ``app=<the caller>``)."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.blast_guards import Space, foreign_open

from .test_blast_round9 import EVERY, _exprs, _peer_run

NAME = "kubernetes.io/metadata.name"
CALLER = {"matchLabels": {"app": "gateway"}}


@pytest.mark.parametrize(
    "spaces",
    [
        {},  # every_ns_callers: every namespace, today's and later
        _exprs(EVERY),
        _exprs({"key": "env", "operator": "NotIn", "values": ["dev"]}),
        _exprs({"key": "quarantine", "operator": "DoesNotExist"}),
    ],
)
def test_the_caller_from_every_namespace_admits_every_source(ev: Any, spaces: Any) -> None:
    """Rule 232: the selector takes frontend in, so rule 223 (a peer leaving it out) did not
    read it; whoever creates a namespace can label a pod ``app=gateway`` there."""
    radius = _peer_run(ev, {"namespaceSelector": spaces, "podSelector": CALLER})
    assert radius.classes == ["guard-removed"], radius.excess


@pytest.mark.parametrize(
    "peer",
    [
        {"podSelector": CALLER},  # the minimal fix: a pod selector only, the same namespace
        {"namespaceSelector": {"matchLabels": {NAME: "frontend"}}, "podSelector": CALLER},
        {
            "namespaceSelector": _exprs({"key": NAME, "operator": "In", "values": ["frontend"]}),
            "podSelector": CALLER,
        },
    ],
)
def test_the_caller_from_named_namespaces_keeps_the_guard(ev: Any, peer: Any) -> None:
    assert _peer_run(ev, peer).excess == []


def test_a_fresh_namespace_is_read_on_every_namespace_selector() -> None:
    space = Space({NAME: "frontend"})
    assert foreign_open([{"namespaceSelector": {}, "podSelector": CALLER}], space)
    named = {"namespaceSelector": {"matchLabels": {NAME: "frontend"}}, "podSelector": CALLER}
    assert not foreign_open([named], space)
    assert not foreign_open([{"podSelector": CALLER}], space)
