"""Applying a scenario's state entries (SI provider guide §5): each entry to the handler of its
kind (configuration and access objects, workloads and capacity, observability and other
fixtures), in dependency order; an ``environmental_state`` stimulus sent as a state entry
goes to :mod:`.environmental`.
"""

from __future__ import annotations

from typing import Any

from . import fixtures as inject_fixtures
from . import objects as inject_objects
from . import workloads as inject_workloads
from .environmental import environmental
from .inject import ORDER, Context, InjectionError, Target, normalize, parse_resource


def apply_state(ctx: Context, entries: list[dict[str, Any]]) -> None:
    """Apply state entries (scenario or wire shape) in dependency order."""
    handlers = {**inject_objects.HANDLERS, **inject_workloads.HANDLERS, **inject_fixtures.HANDLERS}
    parsed: list[tuple[int, dict[str, Any], Target]] = []
    for i, raw in enumerate(entries):
        if not isinstance(raw, dict):
            raise InjectionError(i, "?", f"state entry must be a mapping, got {type(raw).__name__}")
        entry = normalize(raw)
        if entry.get("stimulus") == "environmental_state":
            environmental(ctx, i, entry)
            continue
        resource = entry.get("resource")
        if not isinstance(resource, str) or not resource.strip():
            raise InjectionError(i, "?", "entry has no `resource` (or `kind`)")
        target = parse_resource(resource)
        if target is None or target.family not in handlers:
            raise InjectionError(
                i, resource, f"unsupported resource kind {resource.split('/')[0]!r}"
            )
        if target.sub:
            raise InjectionError(
                i,
                resource,
                "a state entry cannot target a sub-path; use an environmental_state stimulus",
            )
        ns = entry.get("namespace")
        ctx.declared[(target.family, str(ns or ""), target.name)] = i
        parsed.append((i, entry, target))
    rank = {family: n for n, family in enumerate(ORDER)}
    for i, entry, target in sorted(parsed, key=lambda x: (rank.get(x[2].family, len(ORDER)), x[0])):
        try:
            handlers[target.family](ctx, i, entry, target)
        except InjectionError:
            raise
        except (ValueError, TypeError, KeyError) as exc:
            raise InjectionError(i, entry["resource"], f"cannot be established: {exc}") from exc
