"""The one loader of every entry-point group oasis-eval reads (issue 31).

Agents, providers, servable providers, tool-endpoint connectors, behavior evaluators and
probe generators all arrive as entry points (CONTRIBUTING.md, "Extending oasis-eval"). Each
group is read here, the same way: discovery is deterministic (sorted by name, then value;
when two distributions register one name, the first in that order is used), and a plugin
that cannot be imported is a :class:`PluginError` naming its group and entry point, never a
bare traceback. What a loaded object must be is checked by its group's own module, which
knows the type.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from .errors import OasisError

__all__ = [
    "AGENTS",
    "BEHAVIORS",
    "GROUPS",
    "PROBE_GENERATORS",
    "PROVIDERS",
    "PROVIDER_SERVERS",
    "TOOL_ENDPOINTS",
    "PluginError",
    "build",
    "describe",
    "discover",
    "load",
    "named",
]

AGENTS = "oasis_eval.agents"
PROVIDERS = "oasis_eval.providers"
PROVIDER_SERVERS = "oasis_eval.provider_servers"
TOOL_ENDPOINTS = "oasis_eval.tool_endpoints"
BEHAVIORS = "oasis_eval.behaviors"
PROBE_GENERATORS = "oasis_eval.probe_generators"

#: every group, and what one of its entry points is called in messages
GROUPS: Mapping[str, str] = {
    AGENTS: "agent type",
    PROVIDERS: "provider type",
    PROVIDER_SERVERS: "servable provider",
    TOOL_ENDPOINTS: "tool endpoint connector",
    BEHAVIORS: "behavior plugin",
    PROBE_GENERATORS: "probe generator",
}


class PluginError(OasisError, RuntimeError):
    """An installed plugin that cannot be used: it fails to import, fails to build, returns
    the wrong type, or clashes with another; the message names its entry point."""


def describe(ep: EntryPoint) -> str:
    """``name = module:attr``, the entry point as its distribution declares it."""
    return f"{ep.name} = {ep.value}"


def discover(group: str) -> list[EntryPoint]:
    """Every entry point of ``group``, sorted by name, then value."""
    if group not in GROUPS:
        raise ValueError(f"unknown entry-point group {group!r} (known: {', '.join(GROUPS)})")
    return sorted(entry_points(group=group), key=lambda e: (e.name, e.value))


def named(group: str) -> dict[str, EntryPoint]:
    """The entry points of ``group`` by name; of two with one name, the first of
    :func:`discover`'s order (a group whose names select one plugin: agents, providers)."""
    found: dict[str, EntryPoint] = {}
    for ep in discover(group):
        found.setdefault(ep.name, ep)
    return found


def load(ep: EntryPoint) -> Any:
    """The object ``ep`` names; PluginError naming it when it cannot be imported."""
    try:
        return ep.load()
    except Exception as exc:
        raise PluginError(
            f"{GROUPS.get(ep.group, 'plugin')} entry point {describe(ep)!r} "
            f"(group {ep.group}) failed to load: {type(exc).__name__}: {exc}"
        ) from exc


def build(ep: EntryPoint, config: Any, hook: str) -> Any:
    """Load ``ep`` and call its ``hook`` (e.g. ``from_config``) when it has one, else the
    object itself, with ``config``. What the call raises is the plugin's answer to
    ``config`` (a bad option, say) and passes through unchanged."""
    factory = load(ep)
    return getattr(factory, hook, factory)(config)
