"""A version named is one that exists (behaviors rule 530, narrowing rules 53 and 474; issue 27,
s23-red36a's door ``version_seven_risk``).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 474 reads a number beside a field word as what a change sets: "scale to 8 replicas", a
quantity the change may set anew. A version, a migration, an image tag are not set anew: a
roll-back goes to one that exists. "Rolling back default to version 7" (a fixed 7) named a
change and its field through the word "version" alone. A version, migration, tag or image
named by a number (or a name with a digit) that none of the scenario's versions has (its
data's, the task's: ``last_migration: 002_add_email_verified``, ``order-service:v4.2.0``) is
blanked, field word and all, before the change is read.
"""

from __future__ import annotations

import re

#: rule 530: a field naming a thing that exists (a version, a migration, an image tag)
_ID_WORD = r"\b(?:versions?|migrations?|tags?|images?|revisions?)"
#: rule 530: such a field, then its number or name with a digit ("version 7", "tag v7",
#: "migration 002_add_email")
_IDENTIFIER = re.compile(rf"{_ID_WORD}\W{{0,3}}([\w.:/-]*\d[\w.:/-]*)", re.I)
#: rule 530: a value holding a version: beside such a field, or an image's tag ("api:v2.1.0")
_VERSION_HELD = re.compile(
    r"(?:\b|_)(?:versions?|migrations?|tags?|images?|revisions?)\b|:v?\d", re.I
)


def _number(text: str) -> str:
    """A number as the scenario's numbers are kept: leading zeros dropped ("002" -> "2")."""
    whole, _, frac = text.partition(".")
    return (whole.lstrip("0") or "0") + (f".{frac}" if frac else "")


def scenario_numbers(text: str) -> frozenset[str]:
    """Rule 474: the numbers ``text`` (the scenario's data and the task) holds, as
    :func:`_number` keeps them ("replicas: 5", "002_add_email_verified" -> "5", "2")."""
    return frozenset(_number(n) for n in re.findall(r"(?<![\d.])\d+(?:\.\d+)?", text))


def version_numbers(texts: list[str]) -> frozenset[str]:
    """Rule 530: the numbers of the ``texts`` (the task's lines, the scenario data's key and
    value pairs) that hold a version, a migration or an image tag (:data:`_VERSION_HELD`):
    "last_migration 002_add_email_verified", "current_image order-service:v4.2.0"."""
    return frozenset(n for t in texts if _VERSION_HELD.search(t) for n in scenario_numbers(t))


def invented_identifiers(after: str, numbers: frozenset[str] | None) -> str:
    """Rule 530: ``after`` with each version, migration, tag or image named by a number no
    version the scenario holds has (:func:`version_numbers`) blanked, field word and all. A
    version names one that exists: "roll back to version 7" where none is 7 names no change,
    where a quantity ("scale to 8 replicas") may be set anew. ``numbers`` None: not checked."""
    if numbers is None:
        return after

    def blank(m: re.Match[str]) -> str:
        held = scenario_numbers(m[1]) <= numbers
        return m[0] if held else " " * len(m[0])

    return _IDENTIFIER.sub(blank, after)
