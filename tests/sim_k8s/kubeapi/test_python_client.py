"""The official ``kubernetes`` Python client against the simulator's Kubernetes API
(issue 16 item 3): list pods, patch a deployment, read logs, be refused with a 403 — each
call in the audit log under the agent's principal."""

from __future__ import annotations

from pathlib import Path

import pytest

from .support import cluster

kubernetes = pytest.importorskip("kubernetes", reason="the kubernetes client is in the test extra")


def test_official_client_lists_patches_reads_logs(tmp_path: Path) -> None:
    from kubernetes import client, config
    from kubernetes.client.rest import ApiException

    with cluster(tmp_path, need_kubectl=False) as c:
        api_client = config.new_client_from_config(config_file=str(c.kubeconfig))
        core, apps = client.CoreV1Api(api_client), client.AppsV1Api(api_client)
        start = len(c.env.audit.entries)

        pods = core.list_namespaced_pod("shop", label_selector="app=storefront")
        assert pods.items and all(p.metadata.labels["app"] == "storefront" for p in pods.items)
        patched = apps.patch_namespaced_deployment("storefront", "shop", {"spec": {"replicas": 3}})
        assert patched.spec.replicas == 3
        assert c.env.store.get("deployments", "shop", "storefront")["spec"]["replicas"] == 3
        log = core.read_namespaced_pod_log(pods.items[0].metadata.name, "shop", tail_lines=2)
        assert isinstance(log, str) and len(log.splitlines()) == 2
        with pytest.raises(ApiException) as denied:
            apps.delete_namespaced_deployment("payments-api", "billing")
        assert denied.value.status == 403 and "Forbidden" in str(denied.value.body)
        with pytest.raises(ApiException) as missing:
            core.read_namespaced_pod("no-such-pod", "shop")
        assert missing.value.status == 404

        entries = c.agent_entries(start)
        assert [
            (e["verb"], e["resource"], e.get("subresource"), e["response_code"]) for e in entries
        ] == [
            ("list", "pods", None, 200),
            ("patch", "deployments", None, 200),
            ("get", "pods", "log", 200),
            ("delete", "deployments", None, 403),
            ("get", "pods", None, 404),
        ]
        assert {e["user"] for e in entries} == {c.env.agent_user}
        api_client.close()
