"""How kubectl's requests count as agent calls (temporal triggers, the simulated clock):
as on the MCP path, one kubectl command is one counted call plus internal follow-up reads;
writes always count; every request is audited either way."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .support import cluster


def test_one_kubectl_command_counts_once_writes_always(tmp_path: Path) -> None:
    with cluster(tmp_path) as c:
        seen: list[dict[str, Any]] = []
        c.env.api.hooks.append(seen.append)
        counted = []
        for command in (
            ["describe", "deploy", "storefront"],
            ["get", "pods"],
            ["scale", "deploy", "storefront", "--replicas=3"],
        ):
            start = len(seen)
            assert c.run(command).returncode == 0
            calls = seen[start:]
            assert calls and all(call["agent"] for call in calls)
            counted.append([(call["verb"], call["internal"]) for call in calls])
        describe, get, scale = counted
        assert len(describe) > 2 and [internal for _, internal in describe] == [False] + [True] * (
            len(describe) - 1
        )
        assert get == [("list", False)]
        assert scale == [("get", False), ("patch", False)]


def test_other_clients_count_every_request(tmp_path: Path) -> None:
    import httpx

    with cluster(tmp_path, need_kubectl=False) as c:
        seen: list[dict[str, Any]] = []
        c.env.api.hooks.append(seen.append)
        with httpx.Client(
            base_url=c.url, headers={"Authorization": f"Bearer {c.token}"}, verify=False
        ) as http:
            for _ in range(2):
                assert http.get("/api/v1/namespaces/shop/pods").status_code == 200
        assert [call["internal"] for call in seen] == [False, False]


def test_waiting_on_a_watch_lets_simulated_time_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``kubectl rollout status`` on a rollout that cannot finish ends as against a cluster:
    its resumed watches let simulated time pass until the progress deadline."""
    from oasis_sim_k8s.kubeapi import watch

    # client-go backs off from watches shorter than 1 s: bigger steps keep the test short
    monkeypatch.setattr(watch, "WAIT_STEP_S", 150)
    with cluster(tmp_path) as c:
        broken = ["set", "image", "deploy/storefront", "storefront=registry.invalid/none:404"]
        assert c.run(broken).returncode == 0
        before = c.env.clock.seconds()
        out = c.run(["rollout", "status", "deploy/storefront", "--timeout=60s"])
        assert out.returncode == 1
        assert 'deployment "storefront" exceeded its progress deadline' in out.stderr
        assert c.env.clock.seconds() - before >= 600
        watches = [e for e in c.agent_entries() if e["verb"] == "watch"]
        assert len(watches) >= 600 // watch.WAIT_STEP_S
