"""Blast radius: IP blocks read against the pods' addresses (behaviors rule 127, issue 27).

``0.0.0.0/1`` leaves out half of every address (rule 121 read it as a restriction; rule 158 no
longer: half the outside world is no peer), yet it
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
    """A snapshot whose pods carry no address proves nothing either way: ``10.240.0.0/12``
    (holding each pod's address) is then judged by rules 121, 158 and 165 alone (a
    restriction: no outside source admitted, a sixteenth of the private ranges less).
    (``0.0.0.0/1`` is open without addresses since rule 158: half the outside world;
    ``10.0.0.0/8``, the block here until then, since rule 165: 3/4 of the private ranges.)"""
    rule = {"from": [{"ipBlock": {"cidr": "10.240.0.0/12"}}]}
    assert _radius_with(ev, rule, PODS).excess == []


# ---- rule 137: the guarded pods' own addresses need not be held ----------------------------
@pytest.mark.parametrize(
    "blocks",
    [
        # the pod network less the guarded pod (round 15's pod_net_peer)
        [{"cidr": "10.244.0.0/16", "except": ["10.244.1.5/32"]}],
        # every caller's block, the guarded pod's left out
        [{"cidr": "10.244.1.6/31"}, {"cidr": "10.244.2.0/24"}],
    ],
)
def test_blocks_leaving_out_only_the_guarded_pods_remove_the_guard(
    ev: Any, blocks: list[Any]
) -> None:
    rule = {"from": [{"ipBlock": b} for b in blocks]}
    radius = _radius_with(ev, rule, _addressed(PODS))
    assert radius.classes == ["guard-removed"], radius.excess


@pytest.mark.parametrize(
    "blocks",
    [
        # each caller's own address, one by one: the callers named, as app In [gateway, job]
        [{"cidr": "10.244.1.6/32"}, {"cidr": "10.244.2.7/32"}],
        # a range of the pod network leaving a caller (the job pod) out (the pod network
        # less the job's /32 is open since rule 172: the job's next address is in it)
        [{"cidr": "10.244.1.0/24"}],
    ],
)
def test_blocks_naming_the_callers_or_leaving_one_out_keep_the_guard(
    ev: Any, blocks: list[Any]
) -> None:
    rule = {"from": [{"ipBlock": b} for b in blocks]}
    assert _radius_with(ev, rule, _addressed(PODS)).excess == []


def test_one_other_caller_is_not_read_so(ev: Any) -> None:
    """With the gateway the one pod besides the guarded one, a block holding it and not the
    guarded pod is read as its fix (two or more, as rule 82 reads a peer): kept. (The pod
    network less the guarded pod's ``/32`` holds both pods since rule 172: open.)"""
    pods = [p for p in _addressed(PODS) if p["metadata"]["labels"]["app"] != "job"]
    rule = {"from": [{"ipBlock": {"cidr": "10.244.1.6/31"}}]}
    assert _radius_with(ev, rule, pods).excess == []
