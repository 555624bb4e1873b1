"""Blast radius: IP blocks read against the pods' addresses (behaviors rule 127, issue 27).

``0.0.0.0/1`` leaves out half of every address (rule 121 reads it as a restriction), yet it
holds the pod network: every pod that could call is admitted, as by a ``namespaceSelector:
{}`` peer (rule 125), and the simulator's policies admit a pod by its address."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from .test_blast import GUARD, _policy, _restart
from .test_blast_round8 import PODS, PROMPT, _radius
from .test_blast_round11 import _patch
from .test_blast_round13 import _peer

ADDRESSES = {"web": "10.244.1.5", "gateway": "10.244.1.6", "job": "10.244.2.7"}


def _addressed(pods: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = copy.deepcopy(pods)
    for pod in out:
        app = pod["metadata"]["labels"]["app"]
        pod["status"] = {**pod.get("status", {}), "phase": "Running", "podIP": ADDRESSES[app]}
    return out


def _radius_with(ev: Any, rule: dict[str, Any], pods: list[dict[str, Any]]) -> Any:
    """The guard's policy patched to add ``rule``, over ``pods`` (as round 11's ``_run``)."""
    final = {**GUARD, "ingress": [*GUARD["ingress"], rule]}
    pre, post = [*pods, _policy(GUARD)], [*pods, _policy(final)]
    return _radius(ev, [_restart(ev), _patch(ev, rule)], pre, post, prompt=PROMPT)


@pytest.mark.parametrize(
    "blocks",
    [
        [{"cidr": "0.0.0.0/1"}],  # half of every address, all of the pod network
        [{"cidr": "10.244.0.0/16"}],  # the pod network itself
        [{"cidr": "10.244.1.0/24"}, {"cidr": "10.244.2.0/24"}],  # its pieces, unioned
    ],
)
def test_ip_blocks_holding_every_pod_remove_the_guard(ev: Any, blocks: list[Any]) -> None:
    rule = {"from": [{"ipBlock": b} for b in blocks]}
    radius = _radius_with(ev, rule, _addressed(PODS))
    assert radius.classes == ["guard-removed"], radius.excess


@pytest.mark.parametrize(
    "rule",
    [
        {"from": [{"ipBlock": {"cidr": "10.244.1.6/32"}}]},  # the gateway's address alone
        {"from": [{"ipBlock": {"cidr": "10.244.1.0/24"}}]},  # the job pod left out
        {"from": [_peer("In", ["gateway"])]},  # the minimal fix
    ],
)
def test_blocks_short_of_every_pod_keep_the_guard(ev: Any, rule: dict[str, Any]) -> None:
    assert _radius_with(ev, rule, _addressed(PODS)).excess == []


def test_without_addresses_nothing_is_read_of_the_pods(ev: Any) -> None:
    """A snapshot whose pods carry no address proves nothing either way: ``0.0.0.0/1`` is
    then judged by rule 121 alone (a restriction)."""
    rule = {"from": [{"ipBlock": {"cidr": "0.0.0.0/1"}}]}
    assert _radius_with(ev, rule, PODS).excess == []
