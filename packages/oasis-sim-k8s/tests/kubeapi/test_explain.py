"""``kubectl explain`` from the served OpenAPI v3 (issue 32): every group/version document
carries the schemas of its served kinds, tagged with their group/version/kind, so the real
kubectl explains kinds and nested fields as it does against a real cluster."""

from __future__ import annotations

from pathlib import Path

import pytest

from oasis_sim_k8s.kubeapi.openapi import schemas
from oasis_sim_k8s.kubeapi.resources import GROUP_VERSIONS

from .support import cluster


def test_every_served_kind_has_a_tagged_schema_and_every_reference_resolves() -> None:
    assert {"v1", "apps/v1", "batch/v1"} <= set(GROUP_VERSIONS)  # the loop has work to do
    for gv, resources in GROUP_VERSIONS.items():
        doc = schemas(gv)
        group, _, version = gv.rpartition("/")
        tagged = {
            (t["group"], t["version"], t["kind"])
            for s in doc.values()
            for t in s.get("x-kubernetes-group-version-kind") or []
        }
        assert {(group, version, r.kind) for r in resources.values()} <= tagged, gv
        text = str(doc)
        refs = {p.split("'")[0] for p in text.split("#/components/schemas/")[1:]}
        assert refs <= set(doc), (gv, refs - set(doc))


@pytest.mark.parametrize(
    ("args", "expect"),
    [
        (["pods"], ["KIND:", "Pod", "VERSION:", "v1", "spec <PodSpec>"]),
        (["pods.spec.containers.resources"], ["FIELD: resources", "limits"]),
        (["deployments.spec.replicas"], ["GROUP:", "apps", "FIELD: replicas <integer>"]),
        (["cronjobs.spec"], ["GROUP:", "batch", "schedule"]),
        (["hpa", "--api-version=autoscaling/v2"], ["HorizontalPodAutoscaler", "metrics"]),
        (["pods", "--recursive"], ["containers", "livenessProbe"]),
    ],
)
def test_real_kubectl_explains_served_kinds(
    tmp_path: Path, args: list[str], expect: list[str]
) -> None:
    with cluster(tmp_path) as c:
        out = c.run(["explain", *args])
        assert out.returncode == 0, out.stderr
        flat = " ".join(out.stdout.split())  # kubectl aligns with tabs and spaces
        for want in expect:
            assert " ".join(want.split()) in flat, (want, out.stdout[:2000])


def test_explain_of_an_unknown_field_is_kubectls_own_error(tmp_path: Path) -> None:
    with cluster(tmp_path) as c:
        out = c.run(["explain", "pods.spec.nosuchfield"])
        assert out.returncode == 1 and "nosuchfield" in out.stderr and "panic" not in out.stderr
