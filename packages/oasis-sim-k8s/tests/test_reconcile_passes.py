"""One controller pass over a settled cluster derives each pod's status once (issue 30: the
rolling loop and the deployment's final pass re-derived every settled pod two or three
times, a third of provisioning), and gives the same cluster as before."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.cluster import controllers, podstatus
from tests.sim_k8s.support import provision, scenario_ids


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
    before = env.store.resource_version
    controllers.reconcile(env)
    assert env.store.resource_version == before  # settled: the pass stores nothing
    pods = {f"{p['metadata']['namespace']}/{p['metadata']['name']}" for p in env.store.iter("pods")}
    assert set(derived) == pods
    assert max(derived.values()) == 1, derived.most_common(3)
