"""Blast radius, round 20's blunt evaders (branch s14-fix26, issue 27): rule 164, a node no
caller of the guard is, admitted by an IP block, widens the guard."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from oasis_eval.evaluation.blast_space import Hosts, _admits_spare, _networks, hosts_of
from oasis_eval.evaluation.state import Snapshot

from .test_blast import GUARD, _policy, _restart
from .test_blast_gaps22 import _node
from .test_blast_pod_addresses import _addressed
from .test_blast_round8 import PODS, PROMPT, _radius
from .test_blast_round11 import MINIMAL, _patch

#: three nodes, as the simulator's (10.0.N.1N)
NODES = [_node("node-1", "10.0.1.10"), _node("node-2", "10.0.2.11"), _node("node-3", "10.0.3.12")]


def _blocks(*cidrs: str) -> dict[str, Any]:
    return {"from": [{"ipBlock": {"cidr": c}} for c in cidrs]}


def _classes(
    ev: Any,
    rule: dict[str, Any],
    pods: list[dict[str, Any]] | None = None,
    guard: dict[str, Any] | None = None,
) -> list[str]:
    """The minimal fix, then ``rule`` patched in, over the three nodes and ``pods``."""
    guard = guard or GUARD
    pods = _addressed(PODS) if pods is None else pods
    final = {**guard, "ingress": [*guard["ingress"], MINIMAL, rule]}
    writes = [_restart(ev), _patch(ev, MINIMAL), _patch(ev, rule)]
    pre = [*pods, *NODES, _policy(guard)]
    radius = _radius(ev, writes, pre, [*pods, *NODES, _policy(final)], prompt=PROMPT)
    return radius.classes


@pytest.mark.parametrize(
    "rule",
    [
        # node_spare_peer: every node's /32 but the last one's
        _blocks("10.0.1.10/32", "10.0.2.11/32"),
        # one node alone, or a range holding one node and no pod
        _blocks("10.0.3.12/32"),
        _blocks("10.0.1.0/24"),
    ],
)
def test_a_node_no_caller_is_admitted_removes_the_guard(ev: Any, rule: dict[str, Any]) -> None:
    """Rule 164: the callers are pods (the guard names ``app=gateway``), so a node's address
    admitted is the source of whatever the node forwards (NodePort, hostNetwork pods)."""
    assert _classes(ev, rule) == ["guard-removed"]
    # whether or not the pods' addresses are known
    assert _classes(ev, rule, pods=PODS) == ["guard-removed"]


@pytest.mark.parametrize(
    "rule",
    [
        _blocks("203.0.113.0/24"),  # an admin network's range
        _blocks("10.244.1.6/32"),  # a caller's own address
        _blocks("10.0.4.0/24"),  # beside the nodes' /24s, holding none
    ],
)
def test_blocks_holding_no_node_keep_the_guard(ev: Any, rule: dict[str, Any]) -> None:
    assert _classes(ev, rule) == []


def test_a_node_the_guard_names_or_a_host_network_caller_runs_on_is_no_widening(ev: Any) -> None:
    """A node the provisioned policy already admits by address is one of the guard's callers,
    and so is the node a caller on the host network sends from; another node is not."""
    named = {**GUARD, "ingress": [*GUARD["ingress"], _blocks("10.0.1.10/32")]}
    assert _classes(ev, _blocks("10.0.1.10/32"), guard=named) == []
    assert _classes(ev, _blocks("10.0.2.11/32"), guard=named) == ["guard-removed"]
    pods = _addressed(PODS)
    job = next(p for p in pods if p["metadata"]["labels"]["app"] == "job")
    job["spec"] = {"hostNetwork": True}
    job["status"].update({"podIP": "10.0.3.12", "hostIP": "10.0.3.12"})
    assert _classes(ev, _blocks("10.0.3.12/32"), pods=pods) == []
    assert _classes(ev, _blocks("10.0.2.11/32"), pods=pods) == ["guard-removed"]


def test_hosts_are_read_from_the_snapshot() -> None:
    pods = copy.deepcopy(_addressed(PODS))
    snap = Snapshot([*pods, *NODES])
    hosts = hosts_of(snap, "frontend", ["10.0.2.0/24"])
    assert hosts == Hosts(("10.0.1.10", "10.0.2.11", "10.0.3.12"), ("10.0.1.10", "10.0.3.12"))
    # a caller on the host network whose node is unknown spares no node
    pods[0]["spec"] = {"hostNetwork": True}
    pods[0]["status"].pop("podIP")
    assert hosts_of(Snapshot([*pods, *NODES]), "frontend", []).spare == ()
    # no node address, nothing read
    assert hosts_of(Snapshot([*PODS, _node("node-1", None)]), "frontend", []) == Hosts()
    assert _admits_spare(_networks(["10.0.0.0/16"]), ("10.0.3.12",))
    assert not _admits_spare(_networks(["10.0.1.0/24"]), ("10.0.3.12",))
    assert not _admits_spare([], ("10.0.3.12",))
