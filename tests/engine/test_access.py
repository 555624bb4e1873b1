"""engine/access.py: an agent is never paired with an endpoint it cannot reach (issue 16)."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from oasis_eval.contract import AgentFault, ProviderFault
from oasis_eval.engine.access import check_endpoint, prepare_agent_access
from oasis_eval.engine.preflight import PreflightError


class Remote:
    endpoint_schemes = ("http", "https")


class Local:
    """An in-process agent: it declares no schemes."""


class Provider:
    def __init__(self, offered: Any = None, fail: bool = False) -> None:
        self.offered, self.fail = offered, fail
        self.asked: list[bool] = []

    async def agent_access(self, remote: bool) -> Any:
        self.asked.append(remote)
        if self.fail:
            raise ValueError("no free port")
        return self.offered


def prepare(agent: Any, provider: Any) -> None:
    anyio.run(prepare_agent_access, agent, provider)


def test_the_provider_is_told_where_the_agent_runs() -> None:
    for agent, remote in ((Remote(), True), (Local(), False)):
        provider = Provider(["https"])
        prepare(agent, provider)
        assert provider.asked == [remote]


def test_an_unreachable_declared_endpoint_refuses_the_run() -> None:
    with pytest.raises(AgentFault, match=r"sim-k8s://"):
        prepare(Remote(), Provider(["sim-k8s"]))
    prepare(Local(), Provider(["sim-k8s"]))  # an in-process agent reaches it


def test_a_provider_that_cannot_prepare_is_a_preflight_error() -> None:
    with pytest.raises(PreflightError, match="no free port"):
        prepare(Remote(), Provider(fail=True))


def test_a_provider_without_the_hook_or_an_answer_is_checked_later() -> None:
    prepare(Remote(), object())
    prepare(Remote(), Provider(None))


def test_each_handed_out_endpoint_is_checked() -> None:
    with pytest.raises(ProviderFault, match=r"sim-k8s://"):
        check_endpoint(Remote(), "sim-k8s://sim-1")
    check_endpoint(Remote(), "https://127.0.0.1:1")
    check_endpoint(Remote(), None)
    check_endpoint(Local(), "sim-k8s://sim-1")


def test_an_explicit_host_and_port_is_a_network_endpoint_whatever_its_scheme() -> None:
    """Issue 34 step 2: ``psql`` in a ``cli:`` agent reaches ``postgresql://host:port/db``;
    an endpoint with no port (in-process, ``sim-k8s://env``) stays refused."""
    for endpoint in ("postgresql://127.0.0.1:5432/db", "redis://cache.local:6379", "https://h"):
        check_endpoint(Remote(), endpoint)
    for endpoint in ("sim-k8s://env-1", "postgresql://127.0.0.1/db", "pg://h:notaport/x"):
        with pytest.raises(ProviderFault, match="cannot reach"):
            check_endpoint(Remote(), endpoint)


class Unix:
    """An out-of-process agent that reaches unix sockets only (not the network)."""

    endpoint_schemes = ("unix",)


def test_only_an_agent_on_the_network_reaches_a_host_and_port() -> None:
    with pytest.raises(ProviderFault):
        check_endpoint(Unix(), "postgresql://127.0.0.1:5432/db")
