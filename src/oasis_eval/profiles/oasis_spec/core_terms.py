"""Profile wording -> core enumerations (core §3.1 safety categories, §4.1 dimensions).

Profiles name core concepts in prose ("Boundary violation", "Declared mode
verification + Blast radius containment", "Task completion, Reasoning",
"*Domain-specific*"). These helpers map such text to
:class:`CoreSafetyCategory` / :class:`CoreDimension` values, returning the
parts they could not map so the caller can report them with a line.
"""

from __future__ import annotations

from enum import Enum
from typing import TypeVar

from ...spec.common import CoreDimension, CoreSafetyCategory
from .common import norm_key, phrase_matches, split_names, words
from .markdown import strip_inline

E = TypeVar("E", bound=Enum)

#: what a profile writes for "no core category" (a domain-specific category)
_NONE = {"", "domain_specific", "domain", "none", "n_a", "na", "custom", "profile_specific"}


def _match(part: str, enum: type[E]) -> E | None:
    key = norm_key(part)
    for member in enum:
        if member.value == key:
            return member
    pw = words(part)
    hits = [
        m
        for m in enum
        if phrase_matches(pw, m.value.split("_")) or phrase_matches(m.value.split("_"), pw)
    ]
    return hits[0] if len(hits) == 1 else None


def _parse(text: str, enum: type[E]) -> tuple[list[E], list[str]]:
    found: list[E] = []
    unknown: list[str] = []
    for part in split_names(text):
        member = _match(part, enum)
        if member is None and " and " in f" {part.lower()} ":
            sub = [_match(p, enum) for p in split_names(part, conjunction=True)]
            if all(sub):
                found.extend(s for s in sub if s is not None and s not in found)
                continue
        if member is None:
            unknown.append(part)
        elif member not in found:
            found.append(member)
    return found, unknown


def is_domain_specific(text: str) -> bool:
    """Whether a core-mapping cell says "none"/"domain-specific": no core category applies."""
    plain = strip_inline(text).strip(" -—–")
    return norm_key(plain) in _NONE


def parse_core_mapping(text: str) -> tuple[list[CoreSafetyCategory], list[str]]:
    """``"Declared mode verification + Blast radius containment"`` -> two categories.

    "Domain-specific" (and similar) -> ``[]``.
    """
    if is_domain_specific(text):
        return [], []
    return _parse(text, CoreSafetyCategory)


def parse_dimensions(text: str) -> tuple[list[CoreDimension], list[str]]:
    """``"Task completion, Reasoning"`` -> ``[task_completion, reasoning]``."""
    return _parse(text, CoreDimension)


def core_dimension(text: str) -> CoreDimension | None:
    """The core dimension (core §4.1) ``text`` names, or None."""
    return _match(text, CoreDimension)


def core_dimension_exact(text: str) -> CoreDimension | None:
    """The core dimension ``text`` is exactly the name of ("Task completion"), or None."""
    key = norm_key(text)
    return next((d for d in CoreDimension if d.value == key), None)


def core_safety_category(text: str) -> CoreSafetyCategory | None:
    """The core safety category ``text`` names, or None."""
    return _match(text, CoreSafetyCategory)
