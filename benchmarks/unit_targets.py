"""Speed targets of single components, moved here from unit tests (issue 12).

The unit tests check what these components do; how fast they do it depends on the machine
and its load, so the time is measured here and compared with the same bounds the tests
used to assert.
"""

from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from .common import Row, samples, timed

if TYPE_CHECKING:
    from .suite import Context

#: an example scenario whose agent RBAC is generated from its scope (shop, read-write)
SCALE_SCENARIO = "k8s.capability.wo.in-scope-delete-001"
SCALE_REPLICAS = 3000
INDEX_ENTRIES = 200_000
INDEX_QUERIES = 200
HTTP_TOKEN = "benchmark-token"


# ---- audit index ------------------------------------------------------------------------------


def _index_log(size: int) -> list[Any]:
    from oasis_eval.evaluation.evidence import AuditEntry

    base = AuditEntry.model_validate(
        {
            "auditID": "0",
            "stage": "ResponseComplete",
            "verb": "get",
            "resource": "pods",
            "name": "p",
            "namespace": "n",
            "user": "oasis-agent",
            "timestamp": "2025-01-01T00:00:00Z",
            "response_code": 200,
        }
    )
    return [
        base.model_copy(
            update={
                "audit_id": f"{i:07d}",
                "verb": "get" if i % 10 else "delete",
                "name": f"p{i}",
                "namespace": f"ns{i % 50}",
                "timestamp": f"2025-01-01T{i // 3600 % 24:02d}:{i // 60 % 60:02d}:{i % 60:02d}Z",
            }
        )
        for i in range(size)
    ]


def bench_audit_index(ctx: Context) -> list[Row]:
    """Build an ``AuditIndex`` over 200k entries, then 200 action queries on it."""
    from oasis_eval.evaluation.actions import parse_action
    from oasis_eval.evaluation.audit import AuditIndex

    log = _index_log(INDEX_ENTRIES)
    actions = [
        parse_action(f"delete pod/p{i * 10} namespace=ns{(i * 10) % 50}")
        for i in range(INDEX_QUERIES)
    ]
    builds, index = samples(lambda: AuditIndex(log, "oasis-agent"), ctx.repeat, warmup=0)
    queries, found = samples(
        lambda: [len(index.find(action)) for action in actions], ctx.repeat, warmup=0
    )
    detail = {"entries": len(log), "writes": len(index.writes()), "found": sum(found)}
    return [
        Row(
            "audit_index_build_200k",
            builds,
            "s",
            "<",
            3.0,
            f"AuditIndex over {INDEX_ENTRIES} parsed entries (10% deletes, 50 namespaces)",
            detail,
        ),
        Row(
            "audit_index_queries_200",
            queries,
            "s",
            "<",
            2.0,
            f"{INDEX_QUERIES} index.find() of one delete each on the 200k-entry index "
            "(a query must not rescan the log)",
            detail,
        ),
    ]


# ---- simulator scheduling at scale ------------------------------------------------------------


def bench_sim_scale(ctx: Context) -> list[Row]:
    """Scale a deployment of the simulated cluster to 3000 replicas and let it settle 5 s."""
    from oasis_sim_k8s import SimK8sProvider

    values: list[float] = []
    detail: dict[str, Any] = {}
    for _ in range(ctx.repeat):
        provider = SimK8sProvider()
        env = provider.environment(_provision(provider, "example", SCALE_SCENARIO).environment_id)

        def scale(env: Any = env) -> int:
            res = env.api.request(
                env.agent_user,
                "scale",
                "deployments",
                "shop",
                "storefront",
                params={"replicas": SCALE_REPLICAS},
            )
            env.advance(5)
            return int(res.code)

        seconds, code = timed(scale)
        values.append(seconds)
        pods = [
            p
            for p in env.store.iter("pods", "shop")
            if p["metadata"]["name"].startswith("storefront-")
        ]
        detail = {
            "code": code,
            "pods": len(pods),
            "placed": sum(1 for p in pods if p["spec"].get("nodeName")),
        }
    return [
        Row(
            "sim_scale_3000_replicas",
            values,
            "s",
            "<",
            20,
            f"sim-k8s: scale a deployment to {SCALE_REPLICAS} replicas and advance 5 s "
            "(scheduling against node capacity)",
            detail,
        )
    ]


# ---- provisioning over HTTP ---------------------------------------------------------------------


def _request(which: str, sid: str) -> Any:
    from oasis_eval.contract import ProvisionRequest
    from oasis_eval.engine.stimuli import plan

    profile = _profile(which)
    scenario = profile.scenario(sid)
    agent = scenario.preconditions.agent
    scope = {k: [str(x) for x in v] for k, v in (agent.scope or {}).items() if isinstance(v, list)}
    return ProvisionRequest(
        scenario_id=scenario.id,
        environment_type=scenario.preconditions.environment.type,
        state=scenario.preconditions.environment.state,
        mode=agent.mode,
        tools=agent.tools,
        scope=scope,
        principal="oasis-agent",
        tier=1,
        provider_stimuli=plan(scenario, profile).provider_stimuli,
    )


def _profile(which: str) -> Any:
    from oasis_eval.examples import EXAMPLE_PROFILE_DIR

    from .common import load_si_profile

    if which == "si":
        return load_si_profile()
    from oasis_eval.profiles.loader import load_profile

    return load_profile(EXAMPLE_PROFILE_DIR).profile


def _provision(provider: Any, which: str, sid: str) -> Any:
    import anyio

    return anyio.run(provider.provision, _request(which, sid))


@contextmanager
def _served(app: Any) -> Iterator[str]:
    """Serve ``app`` with uvicorn on an ephemeral port in a thread; yields its URL."""
    import uvicorn

    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(10)


def bench_http_provision(ctx: Context) -> list[Row]:
    """Provision (and tear down) SI scenarios through ``HttpProvider`` against the served sim."""
    import anyio

    from oasis_eval.adapters.providers.http import HttpProvider
    from oasis_sim_k8s import SimK8sProvider
    from oasis_sim_k8s.provider.petri_api import create_app

    ids = sorted(s.id for s in ctx.get_profile().scenarios)
    if ctx.quick:
        ids = ids[:10]
    requests = [_request("si", sid) for sid in ids]
    provider = SimK8sProvider()
    times: list[float] = []

    async def all_of_them(url: str) -> None:
        async with HttpProvider(url, token=HTTP_TOKEN) as http:
            for req in requests:
                started = time.perf_counter()
                result = await http.provision(req)
                times.append(time.perf_counter() - started)
                await http.teardown(result.environment_id)

    with _served(create_app(provider, token=HTTP_TOKEN)) as url:
        anyio.run(all_of_them, url)
    ordered = sorted(times)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return [
        Row(
            "si_provision_http_p90",
            [p90],
            "s",
            "<",
            2.0,
            "p90 of one provision request per SI scenario through HttpProvider against "
            "sim-k8s served by uvicorn on 127.0.0.1",
            {
                "scenarios": len(ordered),
                "median_ms": round(statistics.median(ordered) * 1000, 1),
                "max_ms": round(ordered[-1] * 1000, 1),
                "left_over_environments": len(provider.envs),
            },
        )
    ]
