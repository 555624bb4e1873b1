"""One controller pass over a settled cluster derives each pod's status once (issue 30: the
rolling loop and the deployment's final pass re-derived every settled pod two or three
times, a third of provisioning), and gives the same cluster as before."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.cluster import controllers, podstatus, settled, workloads
from oasis_sim_k8s.injection.environment import PROVIDER_USER
from tests.sim_k8s.support import provision, scenario_ids

from .env_digest import digest


@pytest.mark.parametrize("sid", scenario_ids("example")[:3])
def test_a_pass_over_a_settled_cluster_derives_each_pod_once(
    sid: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, env = provision(SimK8sProvider(seeded_ids=True), "example", sid)
    derived: Counter[str] = Counter()
    real = podstatus.derive

    def counted(env: Any, pod: dict[str, Any], hints: dict[str, Any]) -> Any:
        derived[f"{pod['metadata']['namespace']}/{pod['metadata']['name']}"] += 1
        return real(env, pod, hints)

    monkeypatch.setattr(podstatus, "derive", counted)
    # every workload derived (since session 30 the first pass after provisioning skips what
    # provisioning settled): each pod once within the pass
    monkeypatch.setattr(settled, "INCREMENTAL", False)
    before = env.store.resource_version
    controllers.reconcile(env)
    assert env.store.resource_version == before  # settled: the pass stores nothing
    # a finished pod (the ambient batch run) is never derived again
    pods = {
        f"{p['metadata']['namespace']}/{p['metadata']['name']}"
        for p in env.store.iter("pods")
        if not env.facts.get(workloads._key(p), {}).get("terminal")
    }
    assert set(derived) == pods
    assert max(derived.values()) == 1, derived.most_common(3)


def _after_writes(sid: str, which: str) -> str:
    """An environment's digest after an operator's writes that keep the kubelet busy (an
    image the registry lacks, a scale-up, a deleted pod) and a minute of simulated time."""
    _, env = provision(SimK8sProvider(seeded_ids=True), which, sid)
    for dep in list(env.store.iter("deployments")):
        if dep["metadata"]["namespace"] in env.system_namespaces:
            continue
        new = env.store.get("deployments", dep["metadata"]["namespace"], dep["metadata"]["name"])
        new["spec"]["template"]["spec"]["containers"][0]["image"] = "registry.invalid/none:1"
        new["spec"]["replicas"] = int(new["spec"].get("replicas", 1)) + 1
        ns, name = new["metadata"]["namespace"], new["metadata"]["name"]
        assert env.api.request(PROVIDER_USER, "update", "deployments", ns, name, body=new).ok
        for pod in list(env.store.iter("pods", ns))[:1]:
            env.api.request(PROVIDER_USER, "delete", "pods", ns, pod["metadata"]["name"])
        env.advance(7)
    env.advance(60)
    return digest(env)


WRITES = ["infra.safety.sc.partial-operation-001", *scenario_ids("example")[:2]]


@pytest.mark.parametrize(
    "sid", [s for s in WRITES if s in scenario_ids("si") + scenario_ids("example")]
)
def test_skipped_passes_change_nothing_after_writes(
    sid: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same environment, byte for byte, with and without the skipped repeat passes: a
    pod's status that moves on every kubelet pass (ErrImagePull, then ImagePullBackOff) is
    refreshed as often as before."""
    which = "si" if sid in scenario_ids("si") else "example"
    skipping = _after_writes(sid, which)
    real = workloads.reconcile_replicaset

    def every_time(env: Any, rs: Any, hints: Any, passes: Any = None) -> None:
        real(env, rs, hints, None)

    monkeypatch.setattr(workloads, "reconcile_replicaset", every_time)
    assert _after_writes(sid, which) == skipping


def test_a_replicaset_passs_inputs_start_with_the_stores_resource_version() -> None:
    """``reconcile_replicaset`` reads the store's resourceVersion alone to tell that a pass
    which stored something is not settled: it must stay the inputs' first element."""
    from oasis_sim_k8s.cluster.replicas import reconcile_inputs

    _, env = provision(SimK8sProvider(seeded_ids=True), "example", scenario_ids("example")[0])
    pods = list(env.store.iter("pods"))
    inputs = reconcile_inputs(env, {}, pods, {})
    assert inputs[0] == env.store.resource_version
    env.store.touch(pods[0])
    assert reconcile_inputs(env, {}, pods, {})[0] == env.store.resource_version != inputs[0]
