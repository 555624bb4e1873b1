"""Agent configuration logic: condition matching, configuration enumeration, access levels.

Pure functions over plain data, shared by validation and (later) the runner:

- :func:`matches` — does a reported configuration satisfy an ``applicability``
  map or a conditional ``when`` map (02 §1.9, §1.10)?
- :func:`value_domain` / :func:`enumerate_configurations` — every configuration
  an agent could report over a set of dimensions, used to prove that at most
  one conditional entry can match (02 §1.10).
- :func:`access_level` — whether a mode or configuration value name denotes a
  read-only or a writing posture, used for the applicability / ``preconditions.agent.mode``
  consistency check (03 §2.16.3). It reads the value *names* only, so it works
  for any profile, not just the software-infrastructure one.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterator, Mapping, Sequence
from enum import Enum
from typing import Any

from ..spec.profile import AgentConfigurationSchema, ConfigDimension

#: a value no condition names: stands for "any other value" of an open dimension
OTHER = object()

#: enumeration guard; scenarios mention a handful of dimensions, this is far above
MAX_CONFIGURATIONS = 100_000


def _same(a: Any, b: Any) -> bool:
    """Value equality that keeps YAML booleans apart from numbers (``True != 1``)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    return a == b


def allowed_values(condition_value: Any) -> list[Any]:
    """The values a condition accepts: any-of lists as given, an exact value as a singleton."""
    return list(condition_value) if isinstance(condition_value, list) else [condition_value]


def accepts(condition_value: Any, value: Any) -> bool:
    """Whether ``value`` is one of the values a configuration condition allows."""
    return any(_same(v, value) for v in allowed_values(condition_value))


def effective_value(
    dimension: str, config: Mapping[str, Any], schema: AgentConfigurationSchema | None
) -> Any:
    """The reported value of ``dimension``, else the schema default, else ``None`` (unreported)."""
    if dimension in config and config[dimension] is not None:
        return config[dimension]
    dim = schema.dimension(dimension) if schema is not None else None
    return dim.default if dim is not None else None


def matches(
    condition: Mapping[str, Any],
    config: Mapping[str, Any],
    schema: AgentConfigurationSchema | None = None,
) -> bool:
    """True when every condition holds for ``config`` (02 §1.9).

    Exact match for a scalar, any-of for a list. A dimension the agent does not
    report takes the schema default; with no default the condition does not
    hold (the scenario is NOT_APPLICABLE / the conditional entry does not match).
    An empty condition matches everything.
    """
    for dimension, wanted in condition.items():
        value = effective_value(dimension, config, schema)
        if value is None or not accepts(wanted, value):
            return False
    return True


def dimension_values(dim: ConfigDimension) -> list[Any]:
    """The declared value set of a dimension: ``[True, False]`` for booleans."""
    if dim.type == "boolean":
        return [True, False]
    return list(dim.values)


def value_domain(
    dimension: str,
    schema: AgentConfigurationSchema | None,
    conditions: Sequence[Mapping[str, Any]] = (),
) -> list[Any]:
    """Every value an agent could report for ``dimension``.

    For a schema dimension, its declared values (plus the default, should it be
    missing from them). For a dimension the schema does not know, the values the
    ``conditions`` mention plus :data:`OTHER` — unless they are all booleans.
    """
    dim = schema.dimension(dimension) if schema is not None else None
    if dim is not None:
        values = dimension_values(dim)
        if dim.default is not None and not any(_same(dim.default, v) for v in values):
            values.append(dim.default)
        return values
    mentioned: list[Any] = []
    for cond in conditions:
        if dimension in cond:
            for v in allowed_values(cond[dimension]):
                if not any(_same(v, m) for m in mentioned):
                    mentioned.append(v)
    if mentioned and all(isinstance(v, bool) for v in mentioned):
        return [True, False]
    return [*mentioned, OTHER]


def enumerate_configurations(
    dimensions: Sequence[str],
    schema: AgentConfigurationSchema | None,
    conditions: Sequence[Mapping[str, Any]] = (),
) -> Iterator[dict[str, Any]]:
    """The product of the value domains of ``dimensions`` (each a full configuration over them).

    Raises :class:`ValueError` above :data:`MAX_CONFIGURATIONS` combinations.
    """
    names = sorted(dimensions)
    domains = [value_domain(name, schema, conditions) for name in names]
    total = 1
    for domain in domains:
        total *= max(len(domain), 1)
    if total > MAX_CONFIGURATIONS:
        raise ValueError(f"{total} configurations to enumerate (limit {MAX_CONFIGURATIONS})")
    for combo in itertools.product(*domains):
        yield dict(zip(names, combo, strict=True))


def overlapping_conditions(
    conditions: Sequence[Mapping[str, Any]], schema: AgentConfigurationSchema | None
) -> list[tuple[int, int, dict[str, Any]]]:
    """Pairs ``(i, j, example)`` of conditions that match a common configuration (02 §1.10).

    Enumerates the product of the value sets of the dimensions the conditions
    mention (defaults included, :func:`value_domain`); each overlapping pair is
    reported once, with the first configuration both match.
    """
    dims = sorted({d for cond in conditions for d in cond})
    found: dict[tuple[int, int], dict[str, Any]] = {}
    for config in enumerate_configurations(dims, schema, conditions):
        hits = [i for i, cond in enumerate(conditions) if matches(cond, config, schema)]
        for i, j in itertools.combinations(hits, 2):
            found.setdefault((i, j), {k: v for k, v in config.items() if v is not OTHER})
    return [(i, j, example) for (i, j), example in sorted(found.items())]


class AccessLevel(str, Enum):
    """The access an agent configuration grants (read-only, read-write, unknown)."""

    read_only = "read_only"
    read_write = "read_write"
    unknown = "unknown"


_READ_ONLY_WORDS = {
    "readonly",
    "ro",
    "observe",
    "observation",
    "observer",
    "observeonly",
    "viewonly",
}
_WRITE_WORDS = {
    "readwrite",
    "rw",
    "write",
    "writes",
    "writer",
    "autonomous",
    "supervised",
    "mutating",
}


_CAMEL = re.compile(r"([a-z])([A-Z])")
_NOT_WORD = re.compile(r"[^a-z0-9]+")


def access_level(name: Any) -> AccessLevel:
    """Classify a mode or configuration value *name* as read-only or writing.

    ``read-only``, ``read_only``, ``ReadOnly``, ``observe`` -> read-only;
    ``read-write``, ``read_write``, ``write``, ``autonomous``, ``supervised`` -> writing.
    Anything else (including booleans) is unknown.
    """
    if not isinstance(name, str):
        return AccessLevel.unknown
    return _text_access_level(name)


@functools.lru_cache(maxsize=256)
def _text_access_level(name: str) -> AccessLevel:
    """:func:`access_level` of a string: a pure function of it, kept (every judgement asks
    it of its scenario's mode; each asked ``re``'s pattern cache, which a run's rules
    outgrow, and expanded a template, issue 30, session 31)."""
    words = [w for w in _NOT_WORD.split(_CAMEL.sub(r"\1_\2", name).lower()) if w]
    joined = "".join(words)
    if (
        ("read" in words and "only" in words)
        or joined in _READ_ONLY_WORDS
        or any(w in _READ_ONLY_WORDS for w in words)
    ):
        return AccessLevel.read_only
    if joined in _WRITE_WORDS or any(w in _WRITE_WORDS for w in words):
        return AccessLevel.read_write
    return AccessLevel.unknown


def required_access(condition_value: Any) -> AccessLevel:
    """The access level an applicability condition requires, when all its values agree."""
    levels = {access_level(v) for v in allowed_values(condition_value)}
    return levels.pop() if len(levels) == 1 else AccessLevel.unknown
