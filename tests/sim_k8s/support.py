"""Helpers for the sim-k8s tests: profiles, provision requests, agent-visible text."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import anyio
import pytest
import uvicorn

from oasis_eval.adapters.providers.http import HttpProvider
from oasis_eval.contract import ProvisionRequest
from oasis_eval.engine.record import RunInputs
from oasis_eval.engine.redaction import Redactor
from oasis_eval.engine.runner import evaluate
from oasis_eval.engine.stimuli import plan
from oasis_eval.examples import EXAMPLE_PROFILE_DIR
from oasis_eval.profiles.loader import load_profile
from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.provider.petri_api import create_app

REPO_ROOT = Path(__file__).resolve().parents[2]
PRINCIPAL = "oasis-agent"


def si_dir() -> Path:
    configured = os.environ.get("OASIS_SPEC_DIR")
    base = Path(configured) if configured else (REPO_ROOT.parent / "shared" / "oasis-spec")
    return base / "profiles" / "software-infrastructure"


@cache
def profile(which: str) -> Any:
    """The example profile, or the public SI profile (a test needing it is skipped, as every
    other SI test is, when ``OASIS_SPEC_DIR`` holds no spec)."""
    if which != "example" and not (si_dir() / "profile.md").is_file():
        pytest.skip(f"the SI profile is not at {si_dir()} (set OASIS_SPEC_DIR)")
    path = EXAMPLE_PROFILE_DIR if which == "example" else si_dir()
    return load_profile(path).profile


def scenario_ids(which: str) -> list[str]:
    if which == "si" and not (si_dir() / "profile.md").is_file():
        return []
    return [s.id for s in profile(which).scenarios]


def scenario(which: str, sid: str) -> Any:
    return next(s for s in profile(which).scenarios if s.id == sid)


def request(
    which: str, sid: str, principal: str = PRINCIPAL, state: list[dict[str, Any]] | None = None
) -> tuple[ProvisionRequest, Any]:
    s = scenario(which, sid)
    p = profile(which)
    stim = plan(s, p)
    agent = s.preconditions.agent
    scope = {k: [str(x) for x in v] for k, v in (agent.scope or {}).items() if isinstance(v, list)}
    req = ProvisionRequest(
        scenario_id=s.id,
        environment_type=s.preconditions.environment.type,
        state=state if state is not None else s.preconditions.environment.state,
        mode=agent.mode,
        tools=agent.tools,
        scope=scope,
        principal=principal,
        tier=1,
        provider_stimuli=stim.provider_stimuli,
    )
    return req, stim


def run(fn: Any, *args: Any) -> Any:
    return anyio.run(fn, *args)


def provision(provider: SimK8sProvider, which: str, sid: str, **kw: Any) -> tuple[Any, Any]:
    """Provision + the engine's environmental injections; returns (result, environment)."""
    req, stim = request(which, sid, **kw)

    async def go() -> Any:
        res = await provider.provision(req)
        if stim.injections:
            await provider.inject_state(res.environment_id, stim.injections)
        return res

    res = run(go)
    return res, provider.environment(res.environment_id)


def agent_visible_text(env: Any) -> str:
    """Everything an agent can read: objects, logs, metrics, traces, alerts, dashboards, runbooks."""
    parts = [json.dumps(env.store.raw(*k), sort_keys=True) for k in env.store.all_keys()]
    for pod in env.store.iter("pods"):
        for c in (pod["spec"].get("containers") or []) + (pod["spec"].get("initContainers") or []):
            parts += [ln for _, ln in env.logs.lines(pod, c["name"])]
    parts += [ln for v in env.logs.sources.values() for _, ln in v]
    parts += [json.dumps({"n": s.name, "l": s.labels, "u": s.unit}) for s in env.metrics.series]
    parts.append(json.dumps(env.metrics.facts, default=str))
    parts += [json.dumps(t, default=str) for t in env.traces.traces.values()]
    parts.append(json.dumps(env.alerts.alerts))
    parts += [json.dumps(env.dashboards.get(uid), default=str) for uid in env.dashboards.boards]
    parts.append(json.dumps(env.database.dbs))
    return "\n".join(parts).lower()


def pods_of(env: Any, ns: str, prefix: str) -> list[dict[str, Any]]:
    return [p for p in env.store.iter("pods", ns) if p["metadata"]["name"].startswith(prefix + "-")]


def reasons(pod: dict[str, Any]) -> set[str]:
    out = set()
    st = pod.get("status") or {}
    for cs in (st.get("containerStatuses") or []) + (st.get("initContainerStatuses") or []):
        for bag in (cs.get("state") or {}, cs.get("lastState") or {}):
            for detail in bag.values():
                if isinstance(detail, dict) and detail.get("reason"):
                    out.add(detail["reason"])
    if st.get("reason"):
        out.add(st["reason"])
    return out


@contextmanager
def live(app: Any) -> Iterator[str]:
    """Serve ``app`` with uvicorn on 127.0.0.1 (ephemeral port) in a thread; yields the URL."""
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", lifespan="on")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(10)


def served_example_run(
    provider: SimK8sProvider, agent: Any, evaluator: str, token: str | None = None
) -> Any:
    """The example profile evaluated with ``agent`` against ``provider`` served over HTTP
    (petri's ``/v1`` API, with ``token`` or the app's own runner token): the run's outcome."""
    app = create_app(provider) if token is None else create_app(provider, token=token)
    with live(app) as url:

        async def go() -> Any:
            async with HttpProvider(url, token=token or app.state.runner_token) as http:
                return await evaluate(
                    profile("example"),
                    agent,
                    http,
                    RunInputs(evaluator=evaluator, claimed_tier=1),
                    None,
                    None,
                    Redactor(key=b"k" * 32),
                )

        return anyio.run(go)
