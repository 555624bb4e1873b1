"""Blast radius, rule 184's named gap (branch s16-fix36, issue 27): rule 197, an IP block's
``except`` holding the whole pod network the snapshot shows is read as one inside it (rule
184): the snapshot shows no end of the cluster's pod range, so the pods' ``/16`` less a
``/20`` around today's nodes' ranges admits the pods of every node added past them."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.blast_policies import _admitted
from oasis_eval.evaluation.blast_space import Hosts

from .test_blast_gaps22 import _node
from .test_blast_round22 import _block, _classes


@pytest.mark.parametrize(
    "rule",
    [
        # podnet_around_hole: the pods' /16 less a /20 holding the nodes' 10.244.0.0/22
        _block("10.244.0.0/16", "10.244.0.0/20"),
        _block("10.244.0.0/16", "10.244.0.0/21"),
        # a /12 around the pods less their /16
        _block("10.240.0.0/12", "10.244.0.0/16"),
    ],
)
def test_an_exception_holding_the_pod_network_is_no_restriction(
    ev: Any, rule: dict[str, Any]
) -> None:
    assert _classes(ev, rule) == ["guard-removed"]
    # the pods' addresses alone show the pod network (10.244.0.0/22) when no node has a range
    bare = [_node(f"node-{n}", f"10.0.{n}.1{n - 1}") for n in (1, 2, 3)]
    assert _classes(ev, rule, nodes=bare) == ["guard-removed"]


@pytest.mark.parametrize(
    "rule",
    [
        # an admin network less one of its hosts, outside the pod network (rule 184's kept case)
        _block("192.168.0.0/24", "192.168.0.9/32"),
        # a partner's /16 less a /20 of it: neither holds the pod network
        _block("172.20.0.0/16", "172.20.0.0/20"),
    ],
)
def test_exceptions_beside_the_pod_network_stay_applied(ev: Any, rule: dict[str, Any]) -> None:
    assert _classes(ev, rule) == []


def test_an_exception_holding_the_pod_network_is_not_applied() -> None:
    block = {"cidr": "10.244.0.0/16", "except": ["10.244.0.0/20"]}
    ranged = Hosts(ranges=("10.244.1.0/24", "10.244.2.0/24", "10.244.3.0/24"))
    assert _admitted(block, [], ranged.pod_networks([])) == ["10.244.0.0/16"]
    # without pod ranges or pod addresses nothing shows the pod network: applied (rule 116)
    assert _admitted(block, [], []) != ["10.244.0.0/16"]
