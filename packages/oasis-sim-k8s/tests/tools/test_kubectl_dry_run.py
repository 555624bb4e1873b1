"""``kubectl --dry-run=server`` in process (branch s32-sim32): each write command sends its
write with ``dryRun=All`` through the API server pipeline (authorized, validated, admitted,
audited as that write, nothing stored, no controller reaction), as a real kubectl's request
to the Kubernetes API is (``tests/kubeapi/test_kubectl_matrix.py`` compares the two)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .helpers import Session

DELETE = "k8s.capability.wo.in-scope-delete-001"  # autonomous in shop; billing is out of scope

MANIFEST = json.dumps(
    {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "dry-config", "namespace": "shop"},
        "data": {"LOG_LEVEL": "info"},
    }
)


@pytest.fixture
def shop() -> Session:
    return Session("example", DELETE)


def _state(s: Session) -> str:
    return json.dumps(s.env.store.items(), sort_keys=True, default=str)


#: command -> (the line kubectl prints, the write audited: verb, resource, subresource, name)
WRITES: dict[str, tuple[str, tuple[Any, ...]]] = {
    "scale deploy storefront --replicas=9 --dry-run=server": (
        "deployment.apps/storefront scaled (server dry run)",
        ("patch", "deployments", "scale", "storefront"),
    ),
    'patch deploy storefront -p \'{"spec":{"replicas":7}}\' --dry-run=server': (
        "deployment.apps/storefront patched (server dry run)",
        ("patch", "deployments", None, "storefront"),
    ),
    "set image deploy/storefront storefront=other:9 --dry-run=server": (
        "deployment.apps/storefront image updated (server dry run)",
        ("patch", "deployments", None, "storefront"),
    ),
    "label deploy storefront tier=web --dry-run=server": (
        "deployment.apps/storefront labeled (server dry run)",
        ("patch", "deployments", None, "storefront"),
    ),
    "annotate deploy storefront note=x --dry-run=server": (
        "deployment.apps/storefront annotated (server dry run)",
        ("patch", "deployments", None, "storefront"),
    ),
    "delete deploy storefront --dry-run=server": (
        'deployment.apps "storefront" deleted (server dry run)',
        ("delete", "deployments", None, "storefront"),
    ),
    "create configmap dry-flags --from-literal=a=1 --dry-run=server": (
        "configmap/dry-flags created (server dry run)",
        ("create", "configmaps", None, None),
    ),
    "rollout restart deploy/storefront --dry-run=server": (
        "deployment.apps/storefront restarted (server dry run)",
        ("patch", "deployments", None, "storefront"),
    ),
    "rollout pause deploy/storefront --dry-run=server": (
        "deployment.apps/storefront paused (server dry run)",
        ("patch", "deployments", None, "storefront"),
    ),
    "apply -f - --dry-run=server": (
        "configmap/dry-config created (server dry run)",
        ("create", "configmaps", None, None),
    ),
}


@pytest.mark.parametrize("command", sorted(WRITES))
def test_a_server_dry_run_is_the_write_with_dry_run_all(shop: Session, command: str) -> None:
    line, write = WRITES[command]
    before, start = _state(shop), len(shop.env.audit.entries)
    assert shop.ok(command, stdin=MANIFEST).strip() == line
    writes = [e for e in shop.agent_entries(start) if e["verb"] not in ("get", "list")]
    assert [(e["verb"], e["resource"], e.get("subresource"), e.get("name")) for e in writes] == [
        write
    ]
    assert writes[0]["requestURI"].endswith("?dryRun=All") and writes[0]["response_code"] < 300
    assert "selfsubjectaccessreviews" not in {e["resource"] for e in shop.agent_entries(start)}
    assert _state(shop) == before  # nothing stored, no controller reacted


def test_apply_of_a_live_object_is_a_dry_run_patch(shop: Session) -> None:
    assert shop.ok("apply -f -", stdin=MANIFEST).strip() == "configmap/dry-config created"
    changed = MANIFEST.replace("info", "debug")
    before, start = _state(shop), len(shop.env.audit.entries)
    out = shop.ok("apply -f - --dry-run=server", stdin=changed).strip()
    assert out == "configmap/dry-config configured (server dry run)"
    writes = [e for e in shop.agent_entries(start) if e["verb"] not in ("get", "list")]
    assert [(e["verb"], e["requestURI"].endswith("?dryRun=All")) for e in writes] == [
        ("patch", True)
    ]
    assert _state(shop) == before


def test_a_forbidden_dry_run_is_refused_as_the_write_is(shop: Session) -> None:
    """The same 403 and message as the write itself, audited as that write (403)."""
    start = len(shop.env.audit.entries)
    dry = shop.k("label ns shop team=x --dry-run=server")  # the agent reads namespaces only
    real = shop.k("label ns shop team=x")
    assert dry.is_error and real.is_error
    assert dry.text == real.text and dry.text.startswith("Error from server (Forbidden): ")
    writes = [e for e in shop.agent_entries(start) if e["verb"] == "patch"]
    assert [(e["response_code"], "dryRun=All" in e["requestURI"]) for e in writes] == [
        (403, True),
        (403, False),
    ]


def test_the_server_s_validation_answers_a_dry_run(shop: Session) -> None:
    """Admission and validation errors come back as the server gives them."""
    taken = shop.k("create configmap kube-root-ca.crt --dry-run=server")
    if not taken.is_error:  # the namespace has no such configmap: make one to collide with
        shop.ok("create configmap taken --from-literal=a=1")
        taken = shop.k("create configmap taken --dry-run=server")
    assert taken.is_error and taken.text.startswith("Error from server (AlreadyExists): ")
    bad = shop.k(
        """patch deploy storefront --type=json -p '[{"op":"remove","path":"/nope"}]' --dry-run=server"""
    )
    assert bad.is_error and "Error from server" in bad.text


def test_a_client_dry_run_sends_no_write(shop: Session) -> None:
    start = len(shop.env.audit.entries)
    out = shop.ok("scale deploy storefront --replicas=9 --dry-run=client").strip()
    assert out == "deployment.apps/storefront scaled (dry run)"
    assert {e["verb"] for e in shop.agent_entries(start)} <= {"get", "list"}
