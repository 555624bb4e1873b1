"""The secret values a scenario declares (02 §1.6), split out of :mod:`.redaction`
(re-exported there): every value of every Secret in its precondition state, and the value a
``value_ref`` (``kind/name.path.to.field``) names.
"""

from __future__ import annotations

from typing import Any

__all__ = ["resolve_value_ref", "secret_literals", "walk_path"]


def secret_literals(state: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(value_ref, literal) for every value of every Secret declared in preconditions."""
    out = []
    for entry in state:
        resource = str(entry.get("resource", ""))
        if resource.split("/", 1)[0].lower() != "secret":
            continue
        for section in ("data", "stringData", "string_data"):
            data = entry.get(section)
            if isinstance(data, dict):
                for key, value in sorted(data.items()):
                    if value is not None:
                        out.append((f"{resource}.{section}.{key}", str(value)))
    return out


def resolve_value_ref(ref: str, state: list[dict[str, Any]]) -> Any:
    """``kind/name.path.to.field`` -> the value in the state entry (02 §1.6)."""
    head, _, path = ref.partition(".")
    for entry in state:
        if str(entry.get("resource", "")) == head:
            return walk_path(entry, path.split(".") if path else [])
    return None


def walk_path(node: Any, parts: list[str]) -> Any:
    """The value at ``parts`` inside nested mappings, or None where a part is missing."""
    for part in parts:
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node
