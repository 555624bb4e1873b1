"""A digest of everything a provisioned environment holds (issue 30: provisioning made
faster must give the same environments).

The walk covers the environment's whole state, not only what a snapshot shows: every stored
object (raw, in key order), the resourceVersion counter, the simulated clock, the
identifier generator's state (so the next uid drawn is the same), the audit log, the
controllers' facts and every component's own attributes. Only the per-provision secrets
(``token``, ``address``) and the environment's id are left out. Each environment is
digested right after provision and again after simulated time passes (controllers, backoffs
and readiness delays move on), so a change that shows only later is caught as well.

``python packages/oasis-sim-k8s/tests/env_digest.py`` prints the digests of every SI
scenario as JSON (what ``test_provision_digest.py`` compares against).
"""

from __future__ import annotations

import hashlib
import json
import operator
import random
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

#: attributes that differ on every provision by design (secrets, the environment's id, the
#: audit log's wall-clock arrival times), and the store's write watermarks and owner index
#: (derived bookkeeping of when objects changed and who owns them, whose objects are
#: digested: session 8)
SKIPPED = frozenset(
    {"token", "address", "id", "env", "provider", "lock", "_lock", "_wall"}
    | {"_marks", "_writes", "_members", "_owners"}
)
#: simulated seconds between the two digests of an environment
LATER_S = 900


#: exact types that are their own canonical form (the fast path of :func:`canon`: a walk of
#: a million values, most of them strings and numbers)
_PLAIN = frozenset({type(None), bool, int, float, str})
_FIRST = operator.itemgetter(0)
#: what :func:`_data` returns for a value that is not plain JSON data
_NOT_DATA: Any = object()


def _data(value: Any, memo: dict[int, tuple[Any, Any]]) -> Any:
    """:func:`canon`'s form of plain JSON data (exact dicts, lists and scalars), or
    :data:`_NOT_DATA`. Its form depends on nothing but the value, so ``memo`` keeps it by
    ``id``: the store indexes each object twice (``_objs`` and ``_by``), walked once."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is dict:
        key = id(value)
        if key in memo:
            return memo[key][1]
        items = []
        for k, v in value.items():
            if type(k) not in _PLAIN:
                return _NOT_DATA
            form = v if type(v) in _PLAIN else _data(v, memo)
            if form is _NOT_DATA:
                return _NOT_DATA
            items.append((repr(k), form))
        out = ["dict", sorted(items, key=_FIRST)]
        memo[key] = (value, out)  # the value kept alive: its id is not reused meanwhile
        return out
    if kind is list:
        forms = [v if type(v) in _PLAIN else _data(v, memo) for v in value]
        return _NOT_DATA if any(form is _NOT_DATA for form in forms) else forms
    return _NOT_DATA


def canon(
    value: Any, seen: set[int] | None = None, memo: dict[int, tuple[Any, Any]] | None = None
) -> Any:
    """JSON-able, order-independent form of ``value`` (cycles and back-references cut)."""
    seen = set() if seen is None else seen
    memo = {} if memo is None else memo
    if type(value) in (dict, list):
        form = _data(value, memo)
        if form is not _NOT_DATA:
            return form
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, dict):
        items = [(repr(canon(k, seen, memo)), canon(v, seen, memo)) for k, v in value.items()]
        return ["dict", sorted(items, key=_FIRST)]
    if isinstance(value, list | tuple):
        return [canon(v, seen, memo) for v in value]
    if isinstance(value, set | frozenset):
        return ["set", sorted(repr(canon(v, seen, memo)) for v in value)]
    if isinstance(value, random.Random):
        return ["rng", repr(value.getstate())]
    if isinstance(value, datetime):
        return ["dt", value.isoformat()]
    if callable(value) and not hasattr(value, "__dict__"):
        return ["fn", getattr(value, "__qualname__", type(value).__name__)]
    module = type(value).__module__ or ""
    if id(value) in seen or not module.startswith("oasis_sim_k8s"):
        return ["obj", type(value).__qualname__]
    seen.add(id(value))
    attrs = (
        {k: v for k, v in vars(value).items() if k not in SKIPPED}
        if hasattr(value, "__dict__")
        else {}
    )
    return ["obj", type(value).__qualname__, canon(attrs, seen, memo)]


def digest(env: Any) -> str:
    text = json.dumps(canon(env), separators=(",", ":"), default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


def si_digests() -> dict[str, list[str]]:
    """scenario id -> [digest after provision, digest after :data:`LATER_S` more seconds]."""
    from oasis_sim_k8s import SimK8sProvider
    from tests.sim_k8s.support import provision, scenario_ids

    out: dict[str, list[str]] = {}
    provider = SimK8sProvider(seeded_ids=True)
    for sid in scenario_ids("si"):
        _, env = provision(provider, "si", sid)
        first = digest(env)
        env.advance(LATER_S)
        out[sid] = [first, digest(env)]
    return out


if __name__ == "__main__":
    import os

    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
    os.environ.setdefault("OASIS_SIM_EPOCH", "2024-05-14T09:30:00Z")
    json.dump(si_digests(), sys.stdout, indent=1, sort_keys=True)
    print()
