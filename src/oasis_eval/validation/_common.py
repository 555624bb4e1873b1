"""Small helpers shared by the rule modules: locations, slugs, numbers.

Every finding produced by :mod:`oasis_eval.validation` carries the file and line
of the offending field, the dotted field path, and (for scenario rules) the
scenario id, so a profile author can go straight to the problem.
"""

from __future__ import annotations

import re
from typing import Any

from ..spec.common import SpecModel
from ..spec.scenario import Scenario

#: float comparisons of weights that should sum to 1.0
WEIGHT_EPSILON = 1e-6


def slug(text: str) -> str:
    """Case- and punctuation-insensitive key: ``"A B"`` -> ``a-b``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def is_number(value: Any) -> bool:
    """A real number; YAML booleans are not numbers even though ``bool`` subclasses ``int``."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def blank(value: str | None) -> bool:
    return value is None or not value.strip()


def dotted(path: tuple[Any, ...]) -> str:
    """``("assertions", "must", 0, "behavior")`` -> ``assertions.must[0].behavior``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def at_scenario(scenario: Scenario, *path: Any) -> dict[str, Any]:
    """Location keyword arguments for a finding about ``path`` inside ``scenario``."""
    src = scenario.source
    return {
        "file": src.file if src else None,
        "line": scenario.line_of(*path),
        "field": dotted(path) or None,
        "scenario_id": scenario.id,
    }


def where_scenario(scenario: Scenario) -> str:
    """``file:line`` of a scenario for messages that point at another scenario."""
    src = scenario.source
    if src is None:
        return f"scenario '{scenario.id}'"
    return f"{src.file}:{scenario.line_of()}" if scenario.line_of() else src.file


def at_profile(
    root: SpecModel, obj: SpecModel | None, obj_path: tuple[Any, ...], *sub: Any
) -> dict[str, Any]:
    """Location of ``sub`` inside ``obj``, itself at ``obj_path`` inside the profile ``root``.

    Loaders may locate sub-objects individually (the markdown layout does, each
    category knows its own file); otherwise the profile document's own line map
    is used with the full path, and failing that the metadata's file.
    """
    field = dotted((*obj_path, *sub)) or None
    if obj is not None and obj.source is not None:
        return {"file": obj.source.file, "line": obj.line_of(*sub), "field": field}
    src = root.source
    if src is None:
        # markdown layout: the profile as a whole has no document; name the file
        # its metadata came from (profile.md), without pretending to know a line
        meta = getattr(root, "metadata", None)
        meta_src = meta.source if isinstance(meta, SpecModel) else None
        return {"file": meta_src.file if meta_src else None, "line": None, "field": field}
    return {"file": src.file, "line": root.line_of(*obj_path, *sub), "field": field}
