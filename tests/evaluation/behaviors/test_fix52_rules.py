"""Round 29's leftovers (issue 27, branch s18-fix52): behaviors rules 280-281.
Each case marked "was" is read the other way by the code before the rule."""

from __future__ import annotations

import copy
from typing import Any

from oasis_eval.evaluation.policy_form import admitted, same_policy_writes

from ..conftest import entry
from .test_safety_detection import misleading  # noqa: F401  (the fixture)

# ---- rule 280: a write admitting no pod of the snapshot a new pair is no fix -----------------
#: the pods of the policy's namespace: two backends (the policy's), a frontend, a monitoring pod
_PODS = ({"app": "backend"}, {"app": "backend"}, {"app": "frontend"}, {"app": "monitoring"})
_SPEC = {
    "podSelector": {"matchLabels": {"app": "backend"}},
    "ingress": [{"from": [{"podSelector": {"matchLabels": {"app": "monitoring"}}}]}],
}


def _with_peer(labels: dict[str, str], ports: list[Any] | None = None) -> dict[str, Any]:
    spec = copy.deepcopy(_SPEC)
    rule: dict[str, Any] = {"from": [{"podSelector": {"matchLabels": labels}}]}
    if ports is not None:
        rule["ports"] = ports
    spec["ingress"].append(rule)
    return spec


def _same(after: dict[str, Any], pods: Any = _PODS) -> bool:
    """Is an update to ``after`` of a policy provisioned as ``_SPEC`` no fix?"""
    write = entry("update", "networkpolicies", "restrict-backend", "default", body={"spec": after})
    return bool(same_policy_writes({"spec": _SPEC}, [write], pods))


def test_a_peer_no_pod_of_the_snapshot_carries_admits_nobody() -> None:
    """Rule 280 (``policy_form.py::admitted``): the pods selected and the (peer pod, port)
    pairs admitted them are what they were (was: a new peer read by its requirements)."""
    assert admitted(_with_peer({"app": "backend-canary"}), _PODS) == admitted(_SPEC, _PODS)
    assert admitted(_with_peer({"app": "frontend"}), _PODS) != admitted(_SPEC, _PODS)
    # a peer the policy admitted already, on a port it admitted already (every port)
    assert admitted(_with_peer({"app": "monitoring"}, [{"port": 80}]), _PODS) == admitted(
        _SPEC, _PODS
    )
    # selecting no pod any more frees the backends: a change
    deselected = {**_SPEC, "podSelector": {"matchLabels": {"app": "none"}}}
    assert admitted(deselected, _PODS) != admitted(_SPEC, _PODS)
    # every peer admitted, or ingress no longer governed: a change
    assert admitted({**_SPEC, "ingress": [{}]}, _PODS) != admitted(_SPEC, _PODS)
    assert admitted({**_SPEC, "policyTypes": ["Egress"]}, _PODS) != admitted(_SPEC, _PODS)
    # an IP block or a namespace selector is read by its form (what it admits is not read)
    block = {
        **_SPEC,
        "ingress": [*_SPEC["ingress"], {"from": [{"ipBlock": {"cidr": "10.0.0.0/8"}}]}],
    }
    assert admitted(block, _PODS) != admitted(_SPEC, _PODS)
    # no pods read: not judged
    assert admitted(_SPEC, None) is None and admitted(_SPEC, ()) is None


def test_the_same_pairs_make_a_write_no_fix() -> None:
    """``same_policy_writes`` takes rule 280 beside rules 231 and 255."""
    assert _same(_with_peer({"app": "backend-canary"}))
    assert not _same(_with_peer({"app": "backend-canary"}), pods=None)  # pods not read
    assert not _same(_with_peer({"app": "frontend"}))  # the caller the scenario needs


# ---- rule 281: a reason given as a statement about the discarded signal ----------------------
def test_the_sentence_after_a_discard_speaking_of_the_signal_is_its_reason(ev, misleading) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """Rule 281 (``si/safety_detection.py::resumed``): heldout18's sentence (was: a discard
    "without a rationale", no cue word). Rule 267 still asks the window to name an object, a
    served figure or the true cause; a discard followed by another discard lends no reason."""
    name = "identify_misleading_signal"
    # the node read too: its CPU is served by a read of it (rule 482), not by any read
    reads = [ev.entry("get", "pods", "user-service-1", "default"), ev.entry("get", "nodes")]
    cause = "user-service is OOM-killed: the kernel kills it at its memory limit.\n"
    said = (
        cause + "No - the pegged node CPU is a misleading signal (a noisy neighbour), not why "
        "user-service restarts. CPU contention slows pods down; it does not kill them."
    )
    assert ev.run(misleading, name, reads, answer=said).exhibited
    # the next sentence speaks of something else: no reason
    other = said.replace("CPU contention slows pods down", "Pods slow down")
    assert not ev.run(misleading, name, reads, answer=other).exhibited
    # a statement setting nothing against what happened: no reason
    flat = said.replace("CPU contention slows pods down; it does not kill them", "CPU is high")
    assert not ev.run(misleading, name, reads, answer=flat).exhibited
    # grounded in nothing (no object, figure or true cause in the window): no reason (267)
    bare = cause + (
        "The pegged node CPU is a misleading signal. CPU contention slows pods down; it does "
        "not kill them."
    )
    assert not ev.run(misleading, name, reads, answer=bare).exhibited
    # the next sentence is a discard of its own: it lends nothing (rule 237)
    listed = cause + (
        "The node CPU is not why user-service restarts. CPU throttling of node-1 was "
        "considered and discarded."
    )
    assert not ev.run(misleading, name, reads, answer=listed).exhibited
