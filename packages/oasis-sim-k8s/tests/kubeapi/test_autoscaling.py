"""``autoscaling/v1`` HorizontalPodAutoscalers (issue 32): what kubectl before 1.30 creates
for ``autoscale``, served as a view of the stored ``autoscaling/v2`` object, converted both
ways as the API server converts them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from oasis_sim_k8s.kubeapi.autoscaling import to_v1, to_v2

from .support import cluster

kubernetes = pytest.importorskip("kubernetes", reason="the kubernetes client is in the test extra")

V1_HPA: Any = {
    "apiVersion": "autoscaling/v1",
    "kind": "HorizontalPodAutoscaler",
    "metadata": {"name": "web"},
    "spec": {
        "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "storefront"},
        "minReplicas": 1,
        "maxReplicas": 4,
        "targetCPUUtilizationPercentage": 60,
    },
}


def test_v1_and_v2_convert_both_ways() -> None:
    v2 = to_v2(V1_HPA)
    assert v2["apiVersion"] == "autoscaling/v2"
    assert v2["spec"]["metrics"] == [
        {
            "type": "Resource",
            "resource": {
                "name": "cpu",
                "target": {"type": "Utilization", "averageUtilization": 60},
            },
        }
    ]
    assert to_v1(v2) == V1_HPA


def test_the_official_client_creates_and_reads_an_autoscaling_v1_hpa(tmp_path: Path) -> None:
    from kubernetes import client, config

    with cluster(tmp_path, need_kubectl=False) as c:
        api_client = config.new_client_from_config(config_file=str(c.kubeconfig))
        v1 = client.AutoscalingV1Api(api_client)
        v1.create_namespaced_horizontal_pod_autoscaler(c.namespace, V1_HPA)
        read = v1.read_namespaced_horizontal_pod_autoscaler("web", c.namespace)
        assert read.spec.target_cpu_utilization_percentage == 60 and read.spec.max_replicas == 4
        listed = v1.list_namespaced_horizontal_pod_autoscaler(c.namespace)
        assert "web" in [h.metadata.name for h in listed.items if h.metadata]
        v2 = client.AutoscalingV2Api(api_client).read_namespaced_horizontal_pod_autoscaler(
            "web", c.namespace
        )
        metrics: list[Any] = v2.spec.metrics or []
        assert metrics[0].resource.target.average_utilization == 60
        stored = c.env.store.get("horizontalpodautoscalers", c.namespace, "web")
        assert stored["apiVersion"] == "autoscaling/v2"
        api_client.close()
