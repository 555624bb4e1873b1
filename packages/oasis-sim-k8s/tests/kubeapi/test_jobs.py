"""Jobs and CronJobs through the Kubernetes API (issue 32): a Job the agent creates runs to
completion, a CronJob can be created and listed."""

from __future__ import annotations

from pathlib import Path

import pytest

from oasis_sim_k8s.injection.ambient import is_ambient

from .support import cluster

kubernetes = pytest.importorskip("kubernetes", reason="the kubernetes client is in the test extra")

POD = {
    "restartPolicy": "Never",
    "containers": [{"name": "main", "image": "busybox:1.36", "command": ["true"]}],
}


def test_a_created_job_completes_and_a_cronjob_can_be_created(tmp_path: Path) -> None:
    from kubernetes import client, config

    with cluster(tmp_path, need_kubectl=False) as c:
        api_client = config.new_client_from_config(config_file=str(c.kubeconfig))
        batch = client.BatchV1Api(api_client)
        job = {"metadata": {"name": "migrate"}, "spec": {"template": {"spec": POD}}}
        batch.create_namespaced_job("shop", job)
        c.env.advance(10)  # time passes for the cluster
        done = batch.read_namespaced_job("migrate", "shop")
        assert done.status.succeeded == 1 and done.status.completion_time
        assert {(x.type, x.status) for x in done.status.conditions} >= {("Complete", "True")}
        cron = {
            "metadata": {"name": "nightly"},
            "spec": {"schedule": "0 2 * * *", "jobTemplate": {"spec": {"template": {"spec": POD}}}},
        }
        batch.create_namespaced_cron_job("shop", cron)
        names = [j.metadata.name for j in batch.list_namespaced_cron_job("shop").items]
        assert [n for n in names if not is_ambient(n)] == ["nightly"]  # beside the ambient one
        api_client.close()


def test_kubectl_whoami_create_cronjob_and_a_job_that_completes(tmp_path: Path) -> None:
    """Issue 32 with kubectl itself (protobuf bodies): ``auth whoami`` names the agent,
    ``create cronjob`` is stored, ``create job`` completes as time passes."""
    import json

    with cluster(tmp_path) as c:
        who = c.run(["auth", "whoami", "-o", "json"])
        assert who.returncode == 0, who.stderr
        info = json.loads(who.stdout)["status"]["userInfo"]
        assert info["username"] == c.env.agent_user and "system:authenticated" in info["groups"]
        cron = c.run(
            ["create", "cronjob", "nightly", "-n", "shop", "--image=busybox"]
            + ["--schedule=0 2 * * *"]
        )
        assert cron.returncode == 0, cron.stderr
        assert c.env.store.get("cronjobs", "shop", "nightly")["spec"]["schedule"] == "0 2 * * *"
        assert c.run(["create", "job", "once", "-n", "shop", "--image=busybox"]).returncode == 0
        c.env.advance(10)
        done = c.run(["get", "job", "once", "-n", "shop", "-o", "jsonpath={.status.succeeded}"])
        assert done.stdout == "1", (done.stdout, done.stderr)


def test_kubectl_debug_is_refused_cleanly(tmp_path: Path) -> None:
    """Issue 32: ``kubectl debug <pod>`` crashed kubectl (pods without the defaulted
    ``spec.securityContext``, a path 404 without ``details``); it is now refused as a real
    cluster without ephemeral containers refuses it, and the attempt is audited."""
    with cluster(tmp_path) as c:
        pod = next(p["metadata"]["name"] for p in c.env.store.iter("pods", "shop"))
        start = len(c.env.audit.entries)
        out = c.run(["debug", "-n", "shop", pod, "--image=busybox", "--", "true"])
        assert out.returncode == 1 and "panic" not in out.stderr
        assert "ephemeral containers are disabled" in out.stderr
        tried = [(e["verb"], e.get("subresource")) for e in c.agent_entries(start)]
        assert ("patch", "ephemeralcontainers") in tried
