"""Blast radius, round 17 (issue 27): IP blocks and pod-selector peers read together
(behaviors rule 143). ``mixed_peer`` kept the minimal peer (``app=gateway``) and added the
pod network less the gateway's own ``/32``: the block leaves a caller out (rules 127, 137),
the peer names one caller (rule 125), yet together every pod that could call is admitted."""

from __future__ import annotations

from typing import Any

import pytest

from .test_blast_pod_addresses import _addressed, _radius_with
from .test_blast_round8 import PODS
from .test_blast_round13 import _peer

#: the addresses of test_blast_pod_addresses: web (guarded) 10.244.1.5, gateway 10.244.1.6,
#: job 10.244.2.7; the guard's own peer admits the gateway by its label


@pytest.mark.parametrize(
    "rule",
    [
        # mixed_peer: the pod network less the caller the named peer admits
        {"from": [{"ipBlock": {"cidr": "10.244.0.0/16", "except": ["10.244.1.6/32"]}}]},
        # the job's /24 beside the named gateway: a range holding the other caller
        {"from": [{"ipBlock": {"cidr": "10.244.2.0/24"}}]},
        # the job named too, and the pod network less both callers (the sim's mixed_peer)
        {
            "from": [
                _peer("In", ["job"]),
                {
                    "ipBlock": {
                        "cidr": "10.244.0.0/16",
                        "except": ["10.244.1.6/32", "10.244.2.7/32"],
                    }
                },
            ]
        },
        # round 16's pair_peer: a selector of two keys admitting every caller and more
        {
            "from": [
                {
                    "podSelector": {
                        "matchExpressions": [
                            {"key": "app", "operator": "NotIn", "values": ["web"]},
                            {"key": "quarantine", "operator": "DoesNotExist"},
                        ]
                    }
                }
            ]
        },
        # a selector admitting every pod but the guarded and the job, and the job's /32
        {"from": [_peer("NotIn", ["web", "job"]), {"ipBlock": {"cidr": "10.244.2.7/32"}}]},
    ],
)
def test_blocks_and_selectors_admitting_every_caller_together_remove_the_guard(
    ev: Any, rule: dict[str, Any]
) -> None:
    radius = _radius_with(ev, rule, _addressed(PODS))
    assert radius.classes == ["guard-removed"], radius.excess


@pytest.mark.parametrize(
    "rule",
    [
        # the job's own /32 beside the named gateway: each caller named, one by one
        {"from": [{"ipBlock": {"cidr": "10.244.2.7/32"}}]},
        # a range leaving the job out: a caller left out by both kinds (the pod network
        # less the job's /32 is open since rule 172: the job's next address is in it)
        {"from": [{"ipBlock": {"cidr": "10.244.1.0/24"}}]},
        # a range holding no caller (an admin network) beside the named peer
        {"from": [{"ipBlock": {"cidr": "192.168.0.0/24"}}]},
        # the job named by its label: the callers one by one
        {"from": [_peer("In", ["job"])]},
    ],
)
def test_callers_named_one_by_one_or_one_left_out_keep_the_guard(
    ev: Any, rule: dict[str, Any]
) -> None:
    assert _radius_with(ev, rule, _addressed(PODS)).excess == []


def test_without_addresses_the_kinds_are_not_read_together(ev: Any) -> None:
    """No pod address in the snapshot: nothing is known of which pods a block holds."""
    rule = {"from": [{"ipBlock": {"cidr": "10.244.0.0/16", "except": ["10.244.1.6/32"]}}]}
    assert _radius_with(ev, rule, PODS).excess == []
