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


def test_official_client_lists_and_reads_nodes_of_a_current_release(tmp_path: Path) -> None:
    """Issue 32: ``list_node``/``read_node`` deserialize a full NodeStatus (``nodeInfo``
    with bootID, machineID, systemUUID; addresses, allocatable, conditions) and the server
    reports a current release."""
    from kubernetes import client, config

    with cluster(tmp_path, need_kubectl=False) as c:
        api_client = config.new_client_from_config(config_file=str(c.kubeconfig))
        core = client.CoreV1Api(api_client)
        nodes = core.list_node().items
        assert nodes
        node = core.read_node(nodes[0].metadata.name)
        info = node.status.node_info
        assert info.boot_id and info.machine_id and info.system_uuid and info.kubelet_version
        assert {a.type for a in node.status.addresses} >= {"InternalIP", "Hostname"}
        assert node.status.allocatable["cpu"] and node.status.conditions
        # stable: the same node reads the same ids
        assert core.read_node(nodes[0].metadata.name).status.node_info.boot_id == info.boot_id
        version = client.VersionApi(api_client).get_code()
        assert (int(version.major), int(version.minor.rstrip("+"))) >= (1, 33)
        api_client.close()


def test_official_client_holds_a_4s_watch_and_streams_a_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 32: ``timeout_seconds=4`` holds ~4 s (it ended after ~1 s), a change made
    meanwhile is streamed, and the held watch is one audited request that does not move the
    clock ahead of the wall."""
    import threading
    import time
    from datetime import UTC, datetime, timedelta

    from kubernetes import client, config, watch

    from oasis_sim_k8s.cluster.clock import EPOCH_ENV

    monkeypatch.delenv(EPOCH_ENV)  # the cluster's clock follows the wall
    with cluster(tmp_path, need_kubectl=False) as c:
        api_client = config.new_client_from_config(config_file=str(c.kubeconfig))
        apps = client.AppsV1Api(api_client)
        start = len(c.env.audit.entries)
        seen: list[tuple[str, str, int]] = []

        def follow() -> None:
            for event in watch.Watch().stream(
                apps.list_namespaced_deployment, "shop", timeout_seconds=4
            ):
                obj = event["object"]
                seen.append((event["type"], obj.metadata.name, obj.spec.replicas))

        began = time.monotonic()
        watcher = threading.Thread(target=follow)
        watcher.start()
        time.sleep(1.5)
        apps.patch_namespaced_deployment("storefront", "shop", {"spec": {"replicas": 4}})
        watcher.join(timeout=30)
        held = time.monotonic() - began
        assert not watcher.is_alive() and 3.5 <= held < 10, held
        assert ("MODIFIED", "storefront", 4) in seen
        verbs = [(e["verb"], e["resource"]) for e in c.agent_entries(start)]
        assert verbs.count(("watch", "deployments")) == 1 and ("patch", "deployments") in verbs
        # the held watch moved no clock: it leads the wall by the steps of the calls alone
        assert c.env.clock.now() <= datetime.now(UTC) + timedelta(seconds=4)
        api_client.close()
