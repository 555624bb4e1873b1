"""Semantic versions with pre-release tags, and the small range language profiles use.

OASIS versions carry pre-release tags with dotted parts (``1.0.0-rc1.5``), and
profiles state their core dependency as a range (``>=1.0.0-rc1.5``; the SI prose
writes ``≥ 1.0.0-rc1``). This module parses both; it is pure and has no
dependencies.

Ordering follows SemVer 2.0.0 §11 (a release sorts after its pre-releases; pre-release
identifiers compare field by field, numeric below alphanumeric, and a longer list wins
when all shared fields are equal, so ``1.0.0-rc1 < 1.0.0-rc1.5 < 1.0.0-rc2 < 1.0.0``),
with one deliberate difference: alphanumeric identifiers compare *naturally* (digit
runs as numbers), so ``rc10`` sorts after ``rc9`` as every reader expects rather than
before it as strict ASCII order would. Build metadata (``+...``) is ignored.

Range grammar (whitespace or commas separate comparators that must all hold; ``||``
separates alternatives)::

    range       := alternative ("||" alternative)*
    alternative := comparator ([ ,] comparator)*
    comparator  := op? version
    op          := ">=" | ">" | "<=" | "<" | "=" | "==" | "^" | "~" | "≥" | "≤"

A bare version means equality. ``^1.2.3`` means ``>=1.2.3 <2.0.0`` (``<0.3.0`` for
``^0.2.x``); ``~1.2.3`` means ``>=1.2.3 <1.3.0``. Versions may omit trailing parts
(``1.0`` is ``1.0.0``) and carry a leading ``v``. Pre-releases are ordinary points on
the line: ``>=1.0.0-rc1.5`` accepts ``1.0.0-rc2``, ``1.0.0`` and ``1.1.0-beta``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import total_ordering

__all__ = [
    "SEMVER",
    "Version",
    "VersionRange",
    "is_semver",
    "parse_range",
    "parse_version",
    "satisfies",
]

_VERSION_RE = re.compile(
    r"^v?(?P<major>0|[1-9]\d*)(?:\.(?P<minor>0|[1-9]\d*))?(?:\.(?P<patch>0|[1-9]\d*))?"
    r"(?:-(?P<pre>[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?"
    r"(?:\+(?P<build>[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$"
)
_CHUNK_RE = re.compile(r"\d+|\D+")

#: semver 2.0.0 (https://semver.org), anchored
SEMVER = re.compile(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
    r"(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$"
)


def is_semver(value: str) -> bool:
    """A strict SemVer 2.0.0 string (what a profile, scenario or suite `version` must be)."""
    return bool(SEMVER.match(value.strip()))


def _natural(identifier: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key of an alphanumeric identifier: digit runs as numbers, text as text."""
    return tuple((0, int(c)) if c.isdigit() else (1, c) for c in _CHUNK_RE.findall(identifier))


@total_ordering
@dataclass(frozen=True, eq=False)
class Version:
    major: int
    minor: int = 0
    patch: int = 0
    prerelease: tuple[str, ...] = ()
    #: build metadata: kept for display, ignored by comparisons
    build: str = ""

    def __str__(self) -> str:
        text = f"{self.major}.{self.minor}.{self.patch}"
        if self.prerelease:
            text += "-" + ".".join(self.prerelease)
        if self.build:
            text += "+" + self.build
        return text

    @property
    def release(self) -> tuple[int, int, int]:
        return (self.major, self.minor, self.patch)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        return self.release == other.release and self.prerelease == other.prerelease

    def __hash__(self) -> int:
        return hash((self.release, self.prerelease))

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        if self.release != other.release:
            return self.release < other.release
        if not self.prerelease or not other.prerelease:
            # exactly one of them is a release (equal case handled by ==)
            return bool(self.prerelease) and not other.prerelease
        for mine, theirs in zip(self.prerelease, other.prerelease):
            if mine == theirs:
                continue
            mine_num, theirs_num = mine.isdigit(), theirs.isdigit()
            if mine_num and theirs_num:
                return int(mine) < int(theirs)
            if mine_num != theirs_num:
                return mine_num  # numeric identifiers sort below alphanumeric ones
            a, b = _natural(mine), _natural(theirs)
            if a != b:
                return a < b
            return mine < theirs  # e.g. "rc01" vs "rc1": fall back to ASCII
        return len(self.prerelease) < len(other.prerelease)


def parse_version(text: str) -> Version:
    """Parse ``1.0.0-rc1.5`` (also ``v1.0``, ``1``); raise ValueError otherwise."""
    if not isinstance(text, str):
        raise ValueError(f"not a version: {text!r}")
    match = _VERSION_RE.match(text.strip())
    if not match:
        raise ValueError(f"not a semantic version: {text!r}")
    pre = match.group("pre")
    return Version(
        int(match.group("major")),
        int(match.group("minor") or 0),
        int(match.group("patch") or 0),
        tuple(pre.split(".")) if pre else (),
        match.group("build") or "",
    )


_OPS = {"≥": ">=", "≤": "<=", "==": "=", "": "="}
_COMPARATOR_RE = re.compile(r"(>=|<=|==|>|<|=|\^|~|≥|≤)?\s*(v?\d[0-9A-Za-z.+-]*)")


@dataclass(frozen=True)
class _Comparator:
    op: str  # one of >=, >, <=, <, =
    version: Version

    def test(self, version: Version) -> bool:
        if self.op == ">=":
            return version >= self.version
        if self.op == ">":
            return version > self.version
        if self.op == "<=":
            return version <= self.version
        if self.op == "<":
            return version < self.version
        return version == self.version

    def __str__(self) -> str:
        return f"{self.op}{self.version}"


@dataclass(frozen=True)
class VersionRange:
    """A parsed range: any alternative whose comparators all hold."""

    text: str
    alternatives: tuple[tuple[_Comparator, ...], ...]

    def contains(self, version: Version | str) -> bool:
        if isinstance(version, str):
            version = parse_version(version)
        return any(all(c.test(version) for c in alt) for alt in self.alternatives)

    __contains__ = contains

    def __str__(self) -> str:
        return self.text


def _expand(op: str, version: Version) -> list[_Comparator]:
    if op == "^":
        if version.major > 0:
            upper = Version(version.major + 1, 0, 0)
        elif version.minor > 0:
            upper = Version(0, version.minor + 1, 0)
        else:
            upper = Version(0, 0, version.patch + 1)
        return [_Comparator(">=", version), _Comparator("<", upper)]
    if op == "~":
        return [
            _Comparator(">=", version),
            _Comparator("<", Version(version.major, version.minor + 1, 0)),
        ]
    return [_Comparator(_OPS.get(op, op), version)]


def parse_range(text: object) -> VersionRange:
    """Parse a range such as ``>=1.0.0-rc1.5`` or ``>=1.0.0 <2.0.0 || ^3``; ValueError if malformed.

    ``text`` comes from YAML, so anything but a non-blank string is a ValueError too.
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"empty version range: {text!r}")
    alternatives: list[tuple[_Comparator, ...]] = []
    for part in text.split("||"):
        comparators: list[_Comparator] = []
        pos = 0
        part = part.strip()
        while pos < len(part):
            if part[pos] in " \t,":
                pos += 1
                continue
            match = _COMPARATOR_RE.match(part, pos)
            if not match:
                raise ValueError(f"cannot parse version range {text!r} at {part[pos:]!r}")
            comparators.extend(_expand(match.group(1) or "", parse_version(match.group(2))))
            pos = match.end()
        if not comparators:
            raise ValueError(f"empty alternative in version range {text!r}")
        alternatives.append(tuple(comparators))
    return VersionRange(text.strip(), tuple(alternatives))


def satisfies(version: str | Version, range_text: str | VersionRange) -> bool:
    """True when ``version`` lies in the range; an unparseable version never does."""
    rng = parse_range(range_text) if isinstance(range_text, str) else range_text
    try:
        return rng.contains(version)
    except ValueError:
        return False
