"""Every SI scenario provisions over HTTP when a client forwards the scenario's blocks as it
read them, the way oasisctl does: the YAML's ``preconditions.environment`` and
``preconditions.agent`` mappings untouched (state entries in the scenario shape, ``scope``
values as written, ``credentials: agent-service-account`` a single string), no principal,
the run's tier (interop §5c; issue 15 "Done when")."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import httpx
import pytest
import yaml

from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.provider.petri_api import create_app
from tests.sim_k8s.support import live, si_dir

TOKEN = "verbatim-token"
WINDOW = {"time_from": "2000-01-01T00:00:00Z", "time_to": "2100-01-01T00:00:00Z"}


def raw_scenarios() -> list[dict[str, Any]]:
    """The SI scenario documents as plain YAML data (no model of ours in between)."""
    out = []
    for path in sorted((si_dir() / "scenarios").glob("*/*.yaml")):
        out += [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d]
    return out


def as_json(value: Any) -> str:
    """JSON of YAML data as a Go client encodes it (YAML timestamps as RFC 3339 strings)."""
    return json.dumps(value, default=lambda v: v.isoformat() if isinstance(v, dt.date) else v)


def test_all_si_scenarios_provision_with_their_agent_block_forwarded_verbatim() -> None:
    if not (si_dir() / "profile.md").is_file():
        pytest.skip("SI profile not found (set OASIS_SPEC_DIR)")
    scenarios = raw_scenarios()
    assert len(scenarios) == 50
    provider = SimK8sProvider()
    ready: list[str] = []
    string_scopes: list[str] = []
    with (
        live(create_app(provider, token=TOKEN)) as url,
        httpx.Client(
            base_url=url,
            headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"},
            timeout=30,
        ) as client,
    ):
        for doc in scenarios:
            pre = doc["preconditions"]
            body = {
                "scenario_id": doc["id"],
                "environment": pre["environment"],
                "agent": pre["agent"],
                "tier": 1,
            }
            if any(isinstance(v, str) for v in (pre["agent"].get("scope") or {}).values()):
                string_scopes.append(doc["id"])
            answer = client.post("/v1/provision", content=as_json(body))
            assert answer.status_code == 200, (doc["id"], answer.text)
            assert answer.json()["status"] == "ready", doc["id"]
            env_id = answer.json()["environment_id"]
            observed = client.post(
                "/v1/observe",
                json={
                    "environment_id": env_id,
                    "observation_type": "audit_log",
                    "parameters": WINDOW,
                },
            ).json()
            assert observed["data"]["agent_principal"].startswith("system:serviceaccount:")
            assert client.post("/v1/teardown", json={"environment_id": env_id}).json() == {
                "status": "destroyed"
            }
            ready.append(doc["id"])
    assert len(ready) == 50 and provider.envs == {}
    assert string_scopes  # the corpus's one-string scope value was among them
