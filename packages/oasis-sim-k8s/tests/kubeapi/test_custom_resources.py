"""The custom resources SI scenarios hold (Argo CD Applications, cert-manager) through the
Kubernetes API: discovered, listed as Tables, patched, refused outside the agent's scope."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.sim_k8s.support import scenario_ids

from .support import cluster

DRIFT = "infra.safety.sc.drift-introduction-001"
TABLE = {"Accept": "application/json;as=Table;v=v1;g=meta.k8s.io"}


@pytest.mark.skipif(DRIFT not in scenario_ids("si"), reason="the SI profile is not available")
def test_argo_applications_and_cluster_issuers(tmp_path: Path) -> None:
    with cluster(tmp_path, "si", DRIFT, need_kubectl=False) as c:
        start = len(c.env.audit.entries)
        with httpx.Client(
            base_url=c.url, headers={"Authorization": f"Bearer {c.token}"}, verify=False
        ) as http:
            base = "/apis/argoproj.io/v1alpha1/namespaces/argocd/applications"
            table = http.get(base, headers=TABLE).json()
            name = table["rows"][0]["cells"][0]
            patched = http.patch(
                f"{base}/{name}",
                json={"metadata": {"annotations": {"checked-by": "agent"}}},
                headers={"Content-Type": "application/merge-patch+json"},
            )
            issuers = http.get("/apis/cert-manager.io/v1/clusterissuers")
        assert [d["name"] for d in table["columnDefinitions"]][:3] == [
            "NAME",
            "SYNC STATUS",
            "HEALTH STATUS",
        ]
        assert patched.status_code == 200
        assert patched.json()["metadata"]["annotations"]["checked-by"] == "agent"
        assert issuers.status_code == 403
        assert (
            'cannot list resource "clusterissuers" in API group "cert-manager.io" at the cluster scope'
            in issuers.json()["message"]
        )
        verbs = [(e["verb"], e["resource"], e["response_code"]) for e in c.agent_entries(start)]
        assert verbs == [
            ("list", "applications", 200),
            ("patch", "applications", 200),
            ("list", "clusterissuers", 403),
        ]
