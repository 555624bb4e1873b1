"""Without the simulator package installed, its names fail with an error that says which
package provides them (issue 12: oasis-eval finds the simulator through entry points only)."""

from __future__ import annotations

from importlib.metadata import EntryPoints, entry_points
from typing import Any

import pytest

import oasis_eval.adapters.agents as agents
import oasis_eval.adapters.providers as providers
from oasis_eval import plugin_loader


def _without_simulator(*, group: str) -> EntryPoints:
    return EntryPoints(
        ep for ep in entry_points(group=group) if not ep.value.startswith("oasis_sim_k8s")
    )


@pytest.fixture
def no_simulator(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plugin_loader, "entry_points", _without_simulator)


@pytest.mark.parametrize("spec", ["sim-k8s", {"type": "sim-k8s"}])
def test_a_missing_simulator_provider_names_its_package(no_simulator: None, spec: Any) -> None:
    assert "sim-k8s" not in providers.known_provider_types()
    with pytest.raises(
        ValueError, match=r"oasis-sim-k8s \(pip install -e packages/oasis-sim-k8s\)"
    ):
        providers.provider_from_config(spec)


def test_missing_demo_agents_name_their_package(no_simulator: None) -> None:
    with pytest.raises(agents.AgentConfigError, match="come with oasis-sim-k8s"):
        agents.agent_from_config({"type": "builtin", "name": "careful"})


def test_no_servable_provider_without_the_simulator(no_simulator: None) -> None:
    assert providers.provider_servers() == {}


def test_the_installed_simulator_is_found_by_entry_point() -> None:
    assert "sim-k8s" in providers.known_provider_types()
    assert sorted(providers.provider_servers()) == ["sim-k8s"]


def test_a_broken_server_plugin_is_named_with_its_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    """A plugin that fails to load, or is not a ProviderServer, is left out and said why."""
    from importlib.metadata import EntryPoint

    fakes = [
        EntryPoint("gone", "no_such_module_xyz:SERVER", providers.SERVER_ENTRY_POINT_GROUP),
        EntryPoint("odd", "os.path:sep", providers.SERVER_ENTRY_POINT_GROUP),
    ]
    monkeypatch.setattr(plugin_loader, "entry_points", lambda *, group: EntryPoints(fakes))
    broken: dict[str, str] = {}
    assert providers.provider_servers(broken) == {}
    assert sorted(broken) == ["gone", "odd"]
    assert "failed to load: ModuleNotFoundError" in broken["gone"]
    assert "is not a ProviderServer" in broken["odd"]
