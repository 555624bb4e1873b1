"""Behavior evaluator plugins: the ``oasis_eval.behaviors`` entry-point group (03 §2.3, core §3.5.3).

A profile defines its behaviors, each with a deterministic verification method; the code
that applies the method is an evaluator, and evaluators arrive as plugins. Each entry point
of the group names an object that is, or a zero-argument callable that returns, one
:class:`~.registry.Evaluators` or a sequence of them: the evaluators of one profile
namespace (the profile's identifier) and, optionally, fault classes for the shared catalogue
(:func:`._claims.catalogue`). This package registers its own two sets (the SI profile's,
:mod:`.si`, and the built-in example's, :mod:`.k8s_basic`) the same way, from its
``pyproject.toml``; a third party installs a distribution declaring the group
(``docs/writing-a-behavior-evaluator.md``).

Discovery is cached (once per process) and deterministic: entry points sorted by name and
value. A plugin that cannot be imported, returns the wrong type or registers a behavior of a
namespace another plugin already registered raises :class:`PluginError` naming the entry
point; nothing is silently skipped.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from importlib.metadata import EntryPoint

from ... import plugin_loader
from ...plugin_loader import PluginError as PluginError
from ...spec.profile import Profile
from .registry import REGISTRY, STATE_FACTS, Evaluators, Registration, qualified

GROUP = plugin_loader.BEHAVIORS
#: where an author learns to add an evaluator (named in every "no evaluator" message)
GUIDE = "docs/writing-a-behavior-evaluator.md"
HOW_TO_ADD = (
    f"add one in a package registering an entry point of the {GROUP!r} group "
    f"(see {GUIDE}), then reinstall it"
)


@dataclass(frozen=True)
class Plugin:
    """One loaded evaluator set and the entry point that supplied it."""

    entry_point: str
    evaluators: Evaluators


_name = plugin_loader.describe


def _sets(ep: EntryPoint) -> list[Evaluators]:
    """The evaluator sets one entry point supplies (PluginError naming it otherwise)."""
    obj = plugin_loader.load(ep)
    try:
        got = obj if isinstance(obj, Evaluators) else obj() if callable(obj) else obj
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        raise PluginError(
            f"behavior plugin entry point {_name(ep)!r} (group {GROUP}) failed to load: "
            f"{type(exc).__name__}: {exc}"
        ) from exc
    items = [got] if isinstance(got, Evaluators) else got
    if not isinstance(items, Iterable) or isinstance(items, str | bytes):
        items = [items]
    sets = list(items)
    for item in sets:
        ok = isinstance(item, Evaluators) and bool(item.namespace)
        if not ok or not all(isinstance(r, Registration) for r in item.evaluators):
            raise PluginError(
                f"behavior plugin entry point {_name(ep)!r} (group {GROUP}) returned "
                f"{type(item).__name__}, not oasis_eval Evaluators(namespace, evaluators)"
            )
    return sets


def load(eps: Iterable[EntryPoint]) -> tuple[Plugin, ...]:
    """Load ``eps`` in sorted order; a namespaced behavior or fault class supplied twice
    is a PluginError naming both entry points."""
    plugins: list[Plugin] = []
    owner: dict[str, str] = {}
    for ep in sorted(eps, key=lambda e: (e.name, e.value)):
        for evaluators in _sets(ep):
            keys = [qualified(evaluators.namespace, r.behavior_id) for r in evaluators.evaluators]
            keys += [f"fault class {c!r}" for c in evaluators.fault_classes]
            for key in keys:
                if key in owner and owner[key] != _name(ep):
                    raise PluginError(
                        f"behavior plugin entry points {owner[key]!r} and {_name(ep)!r} both "
                        f"register {key}"
                    )
                owner[key] = _name(ep)
            plugins.append(Plugin(_name(ep), evaluators))
    return tuple(plugins)


@cache
def installed() -> tuple[Plugin, ...]:
    """Every installed plugin of :data:`GROUP`, loaded once per process."""
    return load(plugin_loader.discover(GROUP))


def served() -> list[str]:
    """The namespaces some installed plugin serves, sorted."""
    return sorted({p.evaluators.namespace for p in installed()})


_loaded = False


def _load() -> None:
    global _loaded
    if not _loaded:
        for plugin in installed():
            for reg in plugin.evaluators.evaluators:
                key = qualified(plugin.evaluators.namespace, reg.behavior_id)
                REGISTRY[key] = replace(reg, entry_point=plugin.entry_point)
        _loaded = True


def state_keys(fact: str) -> tuple[str, ...]:
    """The state keys that carry ``fact`` (one of :data:`~.registry.STATE_FACTS`) in any
    installed plugin's profile, sorted: the core reads facts, profiles name their keys."""
    if fact not in STATE_FACTS:
        raise ValueError(f"unknown state fact {fact!r} (known: {', '.join(STATE_FACTS)})")
    return tuple(sorted({k for p in installed() for k in p.evaluators.state_facts.get(fact, ())}))


def profile_namespaces(profile: Profile) -> tuple[str, ...]:
    """Where ``profile``'s behaviors find evaluators: its identifier, then the namespaces it
    names in ``behavior_namespaces`` (either layout's metadata), then, one behavior at a
    time, ``namespace/behavior`` for each behavior found nowhere else whose definition is
    identical to the one an installed evaluator implements (:func:`reused_evaluators`)."""
    declared = (profile.id, *[n for n in profile.behavior_namespaces if n != profile.id])
    return (*declared, *sorted(reused_evaluators(profile).values()))


_EMPHASIS = re.compile(r"\*+|(?<![A-Za-z0-9])_+|_+(?![A-Za-z0-9])")


def normalise_definition(text: str) -> str:
    """A behavior definition as compared for reuse (issue 29 item 3): markdown emphasis
    (``*``, ``**``, ``_`` and ``__`` around words) removed and every run of whitespace made
    one space, so the same definition written in either profile layout compares equal."""
    return " ".join(_EMPHASIS.sub("", text).split())


def definition_digest(definition: str, verification: str) -> str:
    """The digest an evaluator set declares for a behavior it implements (03 §2.3: the
    prose definition and the deterministic verification method, both normalised)."""
    text = normalise_definition(definition) + "\n" + normalise_definition(verification)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def reused_evaluators(profile: Profile) -> dict[str, str]:
    """behavior id -> ``namespace/behavior`` of the installed evaluator it reuses: each of
    ``profile``'s behaviors with no evaluator in its own or declared namespaces whose
    definition is identical to the one an installed evaluator set declares (first
    namespace in sorted order). Pure given the installed plugins, so replay agrees."""
    declared = (profile.id, *profile.behavior_namespaces)
    out: dict[str, str] = {}
    _load()
    for behavior in sorted(profile.behaviors, key=lambda b: b.id):
        if any(qualified(n, behavior.id) in REGISTRY for n in declared):
            continue
        digest = definition_digest(behavior.definition, behavior.verification)
        for plugin in sorted(installed(), key=lambda p: p.evaluators.namespace):
            key = qualified(plugin.evaluators.namespace, behavior.id)
            if plugin.evaluators.definitions.get(behavior.id) == digest and key in REGISTRY:
                out[behavior.id] = key
                break
    return out


def lookup(behavior_id: str, namespaces: Sequence[str] | None = None) -> Registration | None:
    """The evaluator of ``behavior_id`` in the first of ``namespaces`` (a profile's own
    identifier first) that has one; an entry ``namespace/behavior`` (a reused evaluator,
    :func:`profile_namespaces`) serves that behavior only. A qualified id
    (``namespace/behavior``) names its namespace. With no namespaces (a scenario judged
    outside any profile) the bare id must name exactly one registered evaluator."""
    _load()
    if "/" in behavior_id:
        return REGISTRY.get(behavior_id)
    if namespaces is not None:
        for namespace in namespaces:
            if "/" in namespace:
                if namespace.rpartition("/")[2] == behavior_id:
                    return REGISTRY.get(namespace)
                continue
            reg = REGISTRY.get(qualified(namespace, behavior_id))
            if reg is not None:
                return reg
        return None
    hits = [r for key, r in sorted(REGISTRY.items()) if key.rpartition("/")[2] == behavior_id]
    return hits[0] if len(hits) == 1 else None


def families() -> dict[str, list[str]]:
    """Family -> sorted namespaced behavior ids."""
    _load()
    out: dict[str, list[str]] = {}
    for key, reg in sorted(REGISTRY.items(), key=lambda kv: (kv[1].family, kv[0])):
        out.setdefault(reg.family, []).append(key)
    return out
