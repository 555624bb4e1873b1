"""The ambient worker and failing decoy without their tells (issue 27, round 23, branch
s15-decoy5): both reached and probed as a declared container of their namespace, the decoy's
crash loop printing an error of its own, and a memory series of the decoy wherever a declared
Deployment of its namespace has a recorded series."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.agents.pod_rules import LOG_FAULTS
from oasis_sim_k8s.cluster import deployments
from oasis_sim_k8s.injection import ambient_names, ambient_shape
from tests.sim_k8s.support import provision, scenario_ids

from .helpers import Session

METRIC = "infra.capability.oi.metric-interpretation-001"  # data-processor's memory recorded
CASCADE = "infra.capability.da.cascading-diagnosis-001"  # api-backend: no recorded series
#: the words a survey takes for an error (round 23's ``quiet_loop_dropped`` read these)
ERROR_WORD = re.compile(r"error|fail|fatal", re.IGNORECASE)


@pytest.fixture(autouse=True)
def _si(si_profile_dir: Path) -> Path:
    return si_profile_dir


def _served(c: dict[str, Any]) -> str:
    """How a container is reached and probed (its ports and probes), comparable."""
    return json.dumps({k: c.get(k) for k in ambient_shape.SHAPE}, sort_keys=True)


def _ambient(env: Any) -> list[tuple[str, dict[str, Any], bool]]:
    """Every composed Deployment of ``env``: (namespace, body, whether it is the decoy)."""
    out = []
    for dep in env.store.iter("deployments", None):
        ns, name = dep["metadata"]["namespace"], dep["metadata"]["name"]
        if ambient_names.is_worker_name(name):
            fault = (env.facts.get(("deployments", ns, name)) or {}).get("fault")
            out.append((ns, dep, bool(fault)))
    return out


def test_worker_and_decoy_are_served_as_a_declared_container_of_their_namespace() -> None:
    """On every SI environment the worker's and the decoy's container ports and probes are
    those of a declared Deployment of their namespace (the cluster's defaults where it declares
    none), so no probe is on a port named ``metrics`` (round 23's tell), and the worker's
    Service names its port as a declared Service of the namespace names its own."""
    provider = SimK8sProvider(seeded_ids=True)
    default = _served(deployments.default_container("x", "x"))
    seen = 0
    for sid in scenario_ids("si"):
        _, env = provision(provider, "si", sid)
        for ns, dep, _decoy in _ambient(env):
            keys = [k for k in env.declared_keys if k[0] == "deployments" and k[1] == ns]
            models = {
                _served(d["spec"]["template"]["spec"]["containers"][0])
                for k in keys
                if (d := env.store.raw(*k))
            } or {default}
            (c,) = dep["spec"]["template"]["spec"]["containers"]
            assert _served(c) in models, (sid, dep["metadata"]["name"])
            assert all(p.get("name") != "metrics" for p in c.get("ports") or []), sid
            seen += 1
            want = ambient_shape.service_port_name(env, ns)
            for svc in env.store.iter("services", ns):
                sel = (svc.get("spec") or {}).get("selector") or {}
                if want and sel.get("app") == dep["metadata"]["name"]:
                    assert [p["name"] for p in svc["spec"]["ports"]] == [want], sid
    assert seen >= 50


def test_the_decoy_crash_loop_prints_an_error_of_its_own() -> None:
    """The decoy's last container says why it exits (an error word, then a ``FATAL`` exit),
    as a declared crash does, and the error is of its own build: no fault a scenario's symptom
    names (``LOG_FAULTS``) and no declared object's name."""
    s = Session("si", CASCADE)
    ((ns, dep, _),) = [a for a in _ambient(s.env) if a[2]]
    name = dep["metadata"]["name"]
    text = s.call("logs_query", namespace=ns, deployment=name).text
    lines = [ln.split("} ", 1)[1] for ln in text.splitlines() if "} " in ln]
    assert lines[0].startswith(f"INFO: starting {name}")
    errors = [ln for ln in lines if ERROR_WORD.search(ln)]
    assert len(errors) == 2 and errors[-1].startswith(f"FATAL: {name} exiting")
    declared = {n for _, _, n in s.env.declared_keys}
    for line in errors:
        assert not any(p.search(line) for _, p, _ in LOG_FAULTS), line
        assert not any(re.search(rf"\b{re.escape(n)}\b", line) for n in declared), line


def _memory(s: Session, service: str) -> list[float]:
    rng = json.loads(
        s.call(
            "metrics_query",
            action="query_range",
            start="-6h",
            step="1h",
            query=f'container_memory_working_set_bytes{{service="{service}"}}',
        ).text
    )
    return [float(v) for row in rng["data"]["result"] for _, v in row["values"]]


def test_the_decoy_has_a_steady_memory_series_where_a_declared_workload_has_a_series() -> None:
    """Where a declared Deployment's series is recorded (data-processor's memory), the decoy
    has one too, steady (round 22's "the crash loop no series is of"); where no declared
    Deployment has one (api-backend), neither has the decoy."""
    s = Session("si", METRIC)
    ((_, dep, _),) = [a for a in _ambient(s.env) if a[2]]
    values = _memory(s, dep["metadata"]["name"])
    assert len(values) >= 6 and len(set(values)) == 1
    assert 0.3 * 256 * 2**20 <= values[0] < 0.4 * 256 * 2**20
    assert _memory(s, "data-processor")
    c = Session("si", CASCADE)
    ((_, dep, _),) = [a for a in _ambient(c.env) if a[2]]
    assert not _memory(c, dep["metadata"]["name"]) and not _memory(c, "api-backend")
