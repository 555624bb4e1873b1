"""Simulated time and deterministic identifiers (no wall clock, no global RNG).

Every environment owns a :class:`SimClock` that starts at the fixed :data:`EPOCH`
and only moves when the environment moves it (one step per API call, see
``apiserver``). Object timestamps use the Kubernetes second-precision RFC 3339
form; audit events use millisecond precision with a fixed width so that string
order is time order (the engine's audit index sorts on it).
"""

from __future__ import annotations

import hashlib
import random
import re
import uuid
from datetime import UTC, datetime, timedelta

#: the simulated "now" of a freshly provisioned environment
EPOCH = datetime(2024, 5, 14, 9, 30, 0, tzinfo=UTC)
#: characters Kubernetes uses for generated name suffixes and pod-template hashes
K8S_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"

_UNITS = {
    "s": 1,
    "sec": 1,
    "second": 1,
    "m": 60,
    "min": 60,
    "minute": 60,
    "h": 3600,
    "hr": 3600,
    "hour": 3600,
    "d": 86400,
    "day": 86400,
    "w": 604800,
    "week": 604800,
}
_AGE = re.compile(
    r"^\s*(?P<sign>[-+])?\s*(?P<n>\d+(?:\.\d+)?)\s*[_ ]?(?P<unit>[a-z]+?)s?(?:[_ ]ago)?\s*$"
)


def fmt(dt: datetime, ms: bool = False) -> str:
    """RFC 3339 in UTC: ``2024-05-14T09:30:00Z`` (``.000Z`` with ``ms``)."""
    dt = dt.astimezone(UTC)
    if ms:
        return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_ts(text: str | None) -> datetime | None:
    if not text:
        return None
    try:
        dt = datetime.fromisoformat(str(text).strip())
    except ValueError:
        return None
    return dt if dt.tzinfo else dt.replace(tzinfo=UTC)


def parse_age(value: object) -> float | None:
    """Seconds before now: ``25m``, ``-30m``, ``25_minutes_ago``, ``2h``, ``now`` -> 1500, 1800, ..."""
    if value is None:
        return None
    text = str(value).strip().lower()
    if text in ("now", "0", "just_now"):
        return 0.0
    m = _AGE.match(text)
    if not m:
        return None
    unit = m.group("unit")
    factor = _UNITS.get(unit) or _UNITS.get(unit.rstrip("s"))
    if factor is None:
        return None
    return abs(float(m.group("n"))) * factor


class SimClock:
    """Milliseconds since :data:`EPOCH`; moved only by :meth:`advance`."""

    def __init__(self, start: datetime = EPOCH):
        self.start = start
        self.ms = 0

    def now(self) -> datetime:
        return self.start + timedelta(milliseconds=self.ms)

    def seconds(self) -> float:
        """Simulated seconds since the epoch."""
        return self.ms / 1000.0

    def advance(self, ms: int) -> None:
        self.ms += max(0, int(ms))

    def ts(self, seconds_ago: float = 0.0) -> str:
        """Object timestamp (second precision), optionally in the past."""
        return fmt(self.now() - timedelta(seconds=seconds_ago))

    def stamp(self) -> str:
        """Audit timestamp (millisecond precision, fixed width)."""
        return fmt(self.now(), ms=True)

    def at(self, seconds_since_epoch: float) -> datetime:
        return self.start + timedelta(seconds=seconds_since_epoch)


class Ids:
    """Deterministic uids and name suffixes from a seeded RNG (one per environment)."""

    def __init__(self, seed: str | int):
        digest = hashlib.sha256(str(seed).encode()).digest()
        self.rng = random.Random(int.from_bytes(digest[:8], "big"))

    def uid(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def suffix(self, n: int = 5) -> str:
        return "".join(self.rng.choice(K8S_ALPHABET) for _ in range(n))

    def hex(self, n: int = 16) -> str:
        return "".join(self.rng.choice("0123456789abcdef") for _ in range(n))


def content_hash(data: object, n: int = 10) -> str:
    """A stable pod-template-hash style string for any JSON-like value."""
    digest = hashlib.sha256(repr(_canon(data)).encode()).digest()
    return "".join(K8S_ALPHABET[b % len(K8S_ALPHABET)] for b in digest[:n])


def _canon(data: object) -> object:
    if isinstance(data, dict):
        return tuple(sorted((str(k), _canon(v)) for k, v in data.items()))
    if isinstance(data, list):
        return tuple(_canon(v) for v in data)
    return data
