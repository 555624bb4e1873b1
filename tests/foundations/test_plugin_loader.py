"""One loader for every entry-point group (issue 31): discovery is sorted, a plugin that
cannot be imported is a PluginError naming its group and entry point, and no other module
reads entry points itself."""

from __future__ import annotations

import ast
from importlib.metadata import EntryPoint, EntryPoints
from pathlib import Path
from typing import Any

import pytest

import oasis_eval
from oasis_eval import plugin_loader
from oasis_eval.plugin_loader import PluginError

SRC = Path(oasis_eval.__file__).resolve().parent


def _calls_entry_points(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module == "importlib.metadata"
            and any(alias.name == "entry_points" for alias in node.names)
        ):
            return True
        if isinstance(node, ast.Attribute) and node.attr == "entry_points":
            return True
    return False


def test_no_module_but_the_loader_reads_entry_points() -> None:
    readers = sorted(
        str(path.relative_to(SRC)) for path in SRC.rglob("*.py") if _calls_entry_points(path)
    )
    assert readers == ["plugin_loader.py"]


def test_every_group_declared_by_an_installed_distribution_is_known() -> None:
    from importlib.metadata import distributions

    ours = {
        ep.group
        for dist in distributions()
        for ep in dist.entry_points
        if ep.group.startswith("oasis_eval.")
    }
    assert ours, "no oasis_eval entry points installed"
    assert sorted(ours - set(plugin_loader.GROUPS)) == []


def _fake(monkeypatch: pytest.MonkeyPatch, *eps: EntryPoint) -> None:
    def entry_points(*, group: str) -> EntryPoints:
        return EntryPoints(ep for ep in eps if ep.group == group)

    monkeypatch.setattr(plugin_loader, "entry_points", entry_points)


def test_discovery_is_sorted_and_the_first_of_one_name_is_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    group = plugin_loader.AGENTS
    _fake(
        monkeypatch,
        EntryPoint("zeta", "b:z", group),
        EntryPoint("alpha", "b:second", group),
        EntryPoint("alpha", "a:first", group),
        EntryPoint("other", "x:y", plugin_loader.PROVIDERS),
    )
    assert [plugin_loader.describe(e) for e in plugin_loader.discover(group)] == [
        "alpha = a:first",
        "alpha = b:second",
        "zeta = b:z",
    ]
    assert {k: v.value for k, v in plugin_loader.named(group).items()} == {
        "alpha": "a:first",
        "zeta": "b:z",
    }


def test_an_unknown_group_is_refused() -> None:
    with pytest.raises(ValueError, match=r"unknown entry-point group 'oasis_eval\.agent'"):
        plugin_loader.discover("oasis_eval.agent")


@pytest.mark.parametrize("group", sorted(plugin_loader.GROUPS))
def test_a_plugin_that_cannot_be_imported_names_its_group_and_entry_point(group: str) -> None:
    ep = EntryPoint("gone", "no_such_module_xyz:thing", group)
    with pytest.raises(PluginError) as caught:
        plugin_loader.load(ep)
    message = str(caught.value)
    assert f"'gone = no_such_module_xyz:thing' (group {group}) failed to load" in message
    assert "ModuleNotFoundError" in message
    assert message.startswith(plugin_loader.GROUPS[group])
    assert isinstance(caught.value, oasis_eval.OasisError)


class _WithHook:
    @staticmethod
    def from_config(config: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        return ("hook", config)


def _plain(config: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return ("plain", config)


def test_build_calls_the_hook_when_there_is_one() -> None:
    group = plugin_loader.PROVIDERS
    hooked = EntryPoint("h", f"{__name__}:_WithHook", group)
    plain = EntryPoint("p", f"{__name__}:_plain", group)
    assert plugin_loader.build(hooked, {"a": 1}, "from_config") == ("hook", {"a": 1})
    assert plugin_loader.build(plain, {"a": 1}, "from_config") == ("plain", {"a": 1})


def test_a_broken_agent_plugin_is_a_plugin_error_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from oasis_eval.adapters.agents import agent_from_config

    _fake(monkeypatch, EntryPoint("grpc", "no_such_module_xyz:make", plugin_loader.AGENTS))
    with pytest.raises(PluginError, match=r"agent type entry point 'grpc = no_such_module_xyz"):
        agent_from_config({"type": "grpc"})
