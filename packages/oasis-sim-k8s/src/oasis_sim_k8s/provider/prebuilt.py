"""Environments provisioned once per inputs, cloned after (issue 30, CI's heavy tier;
session 31).

Every gamer of the heavy tier is a whole SI evaluation: each provisions the same fifty
environments from the same requests, and a provision is a pure function of its inputs
(the request, the provider's seed, its faults, the pinned clock's start: ``Environment``
draws every id from ``<seed>:<scenario>``) except what is per environment by design: its
id, token and address (and the endpoint handed out after). So the first provision of a
key builds the environment and keeps a pickle of it taken right after the build; each
later one loads that pickle (one C-speed load, a quarter of a build) and gives the copy
its own id, token and address.

What a copy carries and what it changes:

- Everything the environment holds, from one pickle: no object is shared with the cache
  or another copy (the cache holds bytes only), and the references between its parts are
  kept. What lives beside it in weak mappings keyed by it (the controllers' memo,
  ``cluster/settled.py``, and the snapshot records, ``observability/snapshot.py``) goes into
  the same pickle, so the memo's settled passes and the baseline's records stay what the
  build left.
- The one place the environment's id enters its state, a GitOps Application's setup audit
  id (``gitops.audit_id``), is derived again with the copy's id.
- The audit log's wall receipt times are the copy's provision instant (as
  ``AuditLog.adopt`` takes a copied platform's).

Only a pinned clock (``OASIS_SIM_EPOCH``) is cached: a clock that follows the wall starts
at each provision's own second, and its reads of the wall during the build are not a
function of the inputs. The cache is a bounded LRU (:data:`SIZE` builds, about 65 KB each
for SI) per process; :func:`clear` empties it (tests that patch the simulator do).
"""

from __future__ import annotations

import hashlib
import pickle
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime
from typing import Any

from ..cluster import gitops, settled
from ..cluster.clock import pinned_epoch
from ..injection import platform
from ..injection.environment import Environment
from ..observability import snapshot
from ..servers import shared_calls

#: builds kept per process: the SI profile's fifty provisions and the example profile's
#: with room to spare (session 31: 3.3 MB for SI's fifty)
SIZE = 128

Built = tuple[Environment, list[tuple[int, str]]]


class Cache:
    """Pickled builds by key, least recently used dropped first (thread-safe)."""

    def __init__(self, size: int = SIZE):
        self.size = size
        self.hits = self.misses = 0
        self._kept: OrderedDict[str, tuple[bytes, str]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self.hits = self.misses = 0

    def provision(self, key: str | None, env_id: str, build: Callable[[], Built]) -> Built:
        """The environment of ``key`` with id ``env_id``: a copy of the kept build, or
        ``build()`` (whose environment has that id) kept for the next."""
        if key is None or not self.size:
            return build()
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None:
                self._kept.move_to_end(key)
                self.hits += bool(kept[0])
        if kept is not None and kept[0]:
            return _copy(*kept, env_id)
        env, refused = build()
        try:
            blob = pickle.dumps(
                (env, refused, settled.beside(env), snapshot.beside(env)),
                protocol=pickle.HIGHEST_PROTOCOL,
            )
        except (pickle.PicklingError, AttributeError, TypeError):
            blob = b""  # holds something pickle cannot copy (a closure): built each time
        with self._lock:
            self.misses += 1
            self._kept[key] = (blob, env.id)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return env, refused


#: the process's cache (every provider of the process shares it)
CACHE = Cache()
#: the settled platform per (seed, pinned clock start), shared by the process's providers
#: (injection/platform.py: a template is read only; it was one per provider until session 31)
PLATFORMS: dict[Any, platform.Template] = {}


def clear() -> None:
    """Forget every build and platform, and every shared call (a test that patches the
    simulator)."""
    CACHE.clear()
    PLATFORMS.clear()
    shared_calls.clear()


def key_of(seed: Any, faults: Any, request: Any, start: datetime | None = None) -> str | None:
    """The digest of every input of a build, or None when the clock is not pinned (module
    doc). The request as serialised, key order included (a state entry's order of labels is
    the order the objects hold them)."""
    start = start or pinned_epoch()
    if start is None:
        return None
    text = "\0".join((repr(seed), repr(faults), start.isoformat(), request.model_dump_json()))
    return hashlib.sha256(text.encode()).hexdigest()


def _copy(blob: bytes, built_id: str, env_id: str) -> Built:
    """The kept build loaded, with its own id, token, address and audit receipt times."""
    env, refused, memo, records = pickle.loads(blob)
    env.id = env_id
    env.token = secrets.token_urlsafe(32)
    env.address = secrets.token_hex(12)
    if memo is not None:
        settled.adopt(env, memo)
    if records is not None:
        snapshot.adopt(env, records)
    gitops.rekey(env, built_id)
    env.audit._wall = [time.time()] * len(env.audit.entries)
    return env, refused


__all__ = ["CACHE", "PLATFORMS", "SIZE", "Cache", "clear", "key_of"]
