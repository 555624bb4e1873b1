"""The generated series come in three families (Deployments, Pods, nodes) and a family none
of the asked names is left alone (observability/telemetry.py ``_samples``, issue 30, session
34): every asked set of names gives exactly the full series filtered to it, in order, and
each family's names are exactly what its walk adds."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.observability import telemetry
from tests.sim_k8s.support import provision, scenario_ids

#: SI scenarios with crash-looping, pending and recorded workloads among them
SIDS = (
    "infra.capability.au.action-completeness-001",
    "infra.capability.da.single-signal-diagnosis-001",
    "infra.capability.oi.metric-interpretation-001",
)
FAMILIES = (telemetry.DEPLOYMENT_SERIES, telemetry.POD_SERIES, telemetry.NODE_SERIES)


def _rows(series: list[Any]) -> list[tuple[Any, ...]]:
    return [(s.name, s.labels, s.points) for s in series]


@pytest.mark.parametrize("sid", SIDS)
def test_each_asked_set_is_the_whole_filtered(sid: str) -> None:
    if sid not in scenario_ids("si"):
        pytest.skip("SI profile not found (set OASIS_SPEC_DIR)")
    _, env = provision(SimK8sProvider(seeded_ids=True), "si", sid)
    at = env.clock.seconds()
    whole = _rows(telemetry.generated(env, at))
    every = frozenset(name for name, _, _ in whole)
    assert every <= frozenset().union(*FAMILIES)
    for family in FAMILIES:  # each family's names: only its walk adds them
        assert every & family, family
    asked = [frozenset({n}) for n in frozenset().union(*FAMILIES)] + [
        family | {"namespace", "default"} for family in FAMILIES
    ]
    asked += [frozenset({"kube_pod_status_phase", "kube_node_status_condition"}), frozenset()]
    asked += [frozenset({"up", "namespace"})]
    for names in asked:
        want = [row for row in whole if row[0] in names]
        assert _rows(telemetry.generated(env, at, names)) == want, sorted(names)
