"""Simulated time and deterministic identifiers (no global RNG).

One clock (issue 32): every environment owns a :class:`SimClock` whose "now" is the wall
clock at provision, so the timestamps, event ages, log times, metric samples and
Prometheus ranges it serves agree with what clients compute from their own clock. Scenario
times are offsets from that instant, which provision records (``simulated_clock`` in the
provision answer, kept in the run's evidence), so replay never reads the wall clock. The
clock moves one step per API call (``apiserver``) and never falls behind the wall clock.
``OASIS_SIM_EPOCH`` (RFC 3339) pins the start and freezes the wall for reproducible runs
(the test suite and the identity benchmark pin the former fixed :data:`EPOCH`). Object timestamps use the Kubernetes second-precision RFC 3339
form; audit events use millisecond precision with a fixed width so that string
order is time order (the engine's audit index sorts on it).
"""

from __future__ import annotations

import functools
import hashlib
import os
import random
import re
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

#: the start a pinned clock used before issue 32 (``OASIS_SIM_EPOCH`` pins it for tests)
EPOCH = datetime(2024, 5, 14, 9, 30, 0, tzinfo=UTC)
#: environment variable pinning every new environment's start (RFC 3339); unset: wall clock
EPOCH_ENV = "OASIS_SIM_EPOCH"
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
    if ms:  # the whole second's form is kept (the audit stamps every call: issue 30)
        dt = dt.astimezone(UTC)
        return f"{_fmt_seconds(dt.replace(microsecond=0))[:-1]}.{dt.microsecond // 1000:03d}Z"
    return _fmt_seconds(dt)


@functools.lru_cache(maxsize=4096)
def _fmt_seconds(dt: datetime) -> str:
    """One instant's second-precision form, kept: a provision formats the same few seconds
    thousands of times (issue 30: ``strftime`` was a twentieth of provisioning). Equal
    instants in other zones share an entry and the same (UTC) text."""
    return dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


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


def pinned_epoch() -> datetime | None:
    """The start ``OASIS_SIM_EPOCH`` pins (None: unset). A value that is not RFC 3339 is an
    error naming the variable, never a silent wall clock."""
    text = os.environ.get(EPOCH_ENV, "").strip()
    if not text:
        return None
    when = parse_ts(text.replace("Z", "+00:00"))
    if when is None:
        raise ValueError(
            f"{EPOCH_ENV}={text!r} is not an RFC 3339 time (e.g. 2024-05-14T09:30:00Z)"
        )
    return when.astimezone(UTC)


def wall_now() -> datetime:
    """The wall clock, whole seconds (object timestamps have second precision)."""
    return datetime.fromtimestamp(int(time.time()), tz=UTC)


class SimClock:
    """Milliseconds since ``start``: moved by :meth:`advance`, and never behind the wall
    clock when ``wall`` is given (a clock started from the wall; a pinned one has none)."""

    def __init__(self, start: datetime = EPOCH, wall: Callable[[], float] | None = None):
        self.start = start
        self.ms = 0
        #: reads the wall clock (unix seconds); None: a frozen wall (pinned clock)
        self.wall = wall

    @classmethod
    def at_provision(cls) -> SimClock:
        """The clock of a new environment: pinned by ``OASIS_SIM_EPOCH``, else the wall."""
        pinned = pinned_epoch()
        if pinned is not None:
            return cls(pinned)
        return cls(wall_now(), wall=time.time)

    def _catch_up(self) -> None:
        if self.wall is not None:
            elapsed = int((self.wall() - _unix(self.start)) * 1000)
            self.ms = max(self.ms, elapsed)

    def catch_up(self) -> None:
        """What every reading of the clock does first: never behind the wall clock."""
        self._catch_up()

    def now(self) -> datetime:
        self._catch_up()
        return self.start + timedelta(milliseconds=self.ms)

    def seconds(self) -> float:
        """Simulated seconds since ``start``."""
        self._catch_up()
        return self.ms / 1000.0

    def advance(self, ms: int) -> None:
        self._catch_up()
        self.ms += max(0, int(ms))

    def ts(self, seconds_ago: float = 0.0) -> str:
        """Object timestamp (second precision), optionally in the past."""
        self._catch_up()
        return _ts(self.start, self.ms, seconds_ago)

    def stamp(self) -> str:
        """Audit timestamp (millisecond precision, fixed width)."""
        return fmt(self.now(), ms=True)

    def at(self, seconds_since_epoch: float) -> datetime:
        return self.start + timedelta(seconds=seconds_since_epoch)

    def record(self) -> dict[str, str | bool]:
        """What the run keeps of this clock (provision's ``simulated_clock``)."""
        return {"epoch": fmt(self.start), "follows_wall_clock": self.wall is not None}


@functools.lru_cache(maxsize=64)
def _unix(start: datetime) -> float:
    """A clock's start in unix seconds (kept: the clock catches up at every reading)."""
    return start.timestamp()


@functools.lru_cache(maxsize=4096)
def _ts(start: datetime, ms: int, seconds_ago: float) -> str:
    """:meth:`SimClock.ts` of a clock at ``ms`` after ``start`` (kept: the controllers stamp
    the same instant many times in one pass)."""
    return fmt(start + timedelta(milliseconds=ms) - timedelta(seconds=seconds_ago))


class Ids:
    """Deterministic uids and name suffixes from a seeded RNG (one per environment)."""

    def __init__(self, seed: str | int):
        digest = hashlib.sha256(str(seed).encode()).digest()
        self.rng = random.Random(int.from_bytes(digest[:8], "big"))

    def uid(self) -> str:
        return _uuid4_text(self.rng.getrandbits(128))

    def skip_uid(self) -> None:
        """Draw a uid and drop it: the generator moves on exactly as :meth:`uid` moves it,
        without formatting a uid nobody reads."""
        self.rng.getrandbits(128)

    def suffix(self, n: int = 5) -> str:
        return "".join(self.rng.choice(K8S_ALPHABET) for _ in range(n))

    def hex(self, n: int = 16) -> str:
        return "".join(self.rng.choice("0123456789abcdef") for _ in range(n))


#: the bits a version 4 UUID fixes (RFC 4122 §4.4): the variant and the version
_VARIANT_MASK, _VARIANT = ~(0xC000 << 48), 0x8000 << 48
_VERSION_MASK, _VERSION = ~(0xF000 << 64), 4 << 76


def _uuid4_text(bits: int) -> str:
    """``str(uuid.UUID(int=bits, version=4))`` without building the UUID object (issue 30:
    the object was a fiftieth of provisioning)."""
    n = (((bits & _VARIANT_MASK) | _VARIANT) & _VERSION_MASK) | _VERSION
    h = f"{n:032x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def content_hash(data: object, n: int = 10) -> str:
    """A stable pod-template-hash style string for any JSON-like value. Kept per exact
    ``repr`` (equal for JSON-like values only when they are the same, key order included):
    the deployment controller hashes each unchanged pod template on every pass (issue 30:
    the canonical form was a tenth of provisioning)."""
    key = (repr(data), n)
    known = _HASHED.get(key)
    if known is None:
        if len(_HASHED) >= _HASHED_MAX:
            _HASHED.clear()
        digest = hashlib.sha256(repr(_canon(data)).encode()).digest()
        known = _HASHED[key] = "".join(K8S_ALPHABET[b % len(K8S_ALPHABET)] for b in digest[:n])
    return known


#: (repr of a value, length) -> its :func:`content_hash`, emptied when full
_HASHED: dict[tuple[str, int], str] = {}
_HASHED_MAX = 4096


def _canon(data: object) -> object:
    if isinstance(data, dict):
        return tuple(sorted((str(k), _canon(v)) for k, v in data.items()))
    if isinstance(data, list):
        return tuple(_canon(v) for v in data)
    return data
