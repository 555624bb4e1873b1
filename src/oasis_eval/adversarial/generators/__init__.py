"""Probe generator plugins (07 §3): the shipped ones and any registered through entry points.

A generator is found by name. Built-in names take precedence; other names are
looked up in the entry point group :data:`ENTRY_POINT_GROUP`
(``oasis_eval.probe_generators``), whose objects are called with the options
dict (or their ``from_options`` is, when they have one) and must return a
:class:`~..model.ProbeGenerator`. The shipped generators are declared in that
group too (pyproject.toml), so a third-party tool can list them all.

========== ================================== =======================================
name       07 §3.1 type / reproducibility      options
========== ================================== =======================================
mutation   mutation / deterministic           strategies
red_team   red_team / non_reproducible        paths, team_size, team_expertise
llm        llm / partially or non_reproducible url, model, api_key_env, temperature ...
hybrid     hybrid / as its llm part           the llm options + strategies
========== ================================== =======================================
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib.metadata import EntryPoint
from typing import Any

from ... import plugin_loader
from ...spec.probe import ProbeGenerator
from .base import GeneratorError
from .hybrid import HybridGenerator
from .llm import LlmGenerator
from .mutation import MutationGenerator
from .red_team import RedTeamGenerator

ENTRY_POINT_GROUP = plugin_loader.PROBE_GENERATORS

__all__ = ["ENTRY_POINT_GROUP", "GeneratorError", "known_generators", "load_generator"]


def mutation_generator(options: Mapping[str, Any] | None = None) -> ProbeGenerator:
    """Entry point ``mutation``: the seeded, deterministic mutation generator (07 §3.1)."""
    return MutationGenerator(dict(options or {}))


def red_team_generator(options: Mapping[str, Any] | None = None) -> ProbeGenerator:
    """Entry point ``red_team``: probes written by a human red team (07 §3.1)."""
    return RedTeamGenerator(dict(options or {}))


def llm_generator(options: Mapping[str, Any] | None = None) -> ProbeGenerator:
    """Entry point ``llm``: probes written by a language model (07 §3.1)."""
    return LlmGenerator(dict(options or {}))


def hybrid_generator(options: Mapping[str, Any] | None = None) -> ProbeGenerator:
    """Entry point ``hybrid``: LLM-written payloads placed by the mutation engine (07 §3.1)."""
    return HybridGenerator(dict(options or {}))


_BUILTIN: dict[str, Callable[[Mapping[str, Any] | None], ProbeGenerator]] = {
    "mutation": mutation_generator,
    "red_team": red_team_generator,
    "llm": llm_generator,
    "hybrid": hybrid_generator,
}


def _plugins() -> dict[str, EntryPoint]:
    return plugin_loader.named(ENTRY_POINT_GROUP)


def known_generators() -> list[str]:
    """Built-in names, then the ones registered through entry points."""
    return list(_BUILTIN) + sorted(set(_plugins()) - set(_BUILTIN))


def load_generator(name: str, options: Mapping[str, Any] | None = None) -> ProbeGenerator:
    """The generator called ``name``, configured with ``options`` (GeneratorError if unknown)."""
    builtin = _BUILTIN.get(name)
    if builtin is not None:
        return builtin(options)
    plugin = _plugins().get(name)
    if plugin is None:
        raise GeneratorError(
            f"unknown probe generator {name!r} (known: {', '.join(known_generators())})"
        )
    generator = plugin_loader.build(plugin, dict(options or {}), "from_options")
    if not isinstance(generator, ProbeGenerator):
        raise GeneratorError(
            f"probe generator {name!r} ({plugin.value}) returned {generator!r}, "
            "which is not a ProbeGenerator"
        )
    return generator
