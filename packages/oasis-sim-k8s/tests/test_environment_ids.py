"""An environment's pod addresses and derived ids (``injection/environment.py``): the
per-process caches behind them (issue 30) give each environment and each CIDR its own."""

from __future__ import annotations

from typing import Any

from oasis_sim_k8s.injection.environment import UNSCHEDULED_POD_CIDR, Environment


def _env(seed: str = "s") -> Environment:
    return Environment("env-1", "scenario-1", "agent", seed)


def _pod(env: Environment, uid: str, node: str) -> dict[str, Any]:
    return {"metadata": {"uid": uid, "name": uid, "namespace": "n"}, "spec": {"nodeName": node}}


def _node(env: Environment, name: str, cidr: str) -> None:
    env.store.insert({"kind": "Node", "metadata": {"name": name}, "spec": {"podCIDR": cidr}})


def test_pod_addresses_come_from_each_nodes_cidr_in_allocation_order() -> None:
    env = _env()
    _node(env, "a", "10.1.0.0/24")
    _node(env, "b", "10.2.0.0/24")
    _node(env, "tiny", "10.3.0.0/30")
    _node(env, "bad", "not-a-cidr")
    first_a = env.pod_ip(_pod(env, "p1", "a"))
    assert first_a == "10.1.0.2"
    assert env.pod_ip(_pod(env, "p2", "b")) == "10.2.0.2"
    assert env.pod_ip(_pod(env, "p3", "a")) == "10.1.0.3"
    assert env.pod_ip(_pod(env, "p1", "a")) == first_a  # stable for the pod's lifetime
    # a /30 has one pod address: it is reused rather than overflowing the network
    assert env.pod_ip(_pod(env, "t1", "tiny")) == env.pod_ip(_pod(env, "t2", "tiny")) == "10.3.0.2"
    unscheduled = UNSCHEDULED_POD_CIDR.rsplit(".", 1)[0]
    assert env.pod_ip(_pod(env, "x1", "bad")).startswith(unscheduled + ".")
    assert env.pod_ip(_pod(env, "x2", "missing")) == f"{unscheduled}.3"
    # another environment allocates from the start of the same CIDR again
    other = _env()
    _node(other, "a", "10.1.0.0/24")
    assert other.pod_ip(_pod(other, "q1", "a")) == "10.1.0.2"


def test_ids_differ_per_seed_and_text_and_repeat_for_the_same() -> None:
    one, two = _env("s1"), _env("s2")
    assert one.ids_for("image:1") == one.ids_for("image:1")
    assert one.ids_for("image:1") != two.ids_for("image:1")
    assert one.ids_for("image:1") != one.ids_for("image:2")
    assert one.ids_for("image:1")[64:] == two.ids_for("image:1")[64:]  # the seedless half
