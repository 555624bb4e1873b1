"""Call prefixes shared by the in-process sessions of one process (issue 31, CI's heavy tier;
session 35).

Every gamer of the heavy tier replays the same SI scenarios at the same pinned clock, and
most open with the same reads (ci35 logged 31 gamers: 85% of their tool calls, and of those
calls' CPU, repeat a call sequence an earlier gamer made from the same start). The simulator
is deterministic: from the same state, the same call sequence gives the same answers and the
same state. So a session whose start state has been seen before walks a per-process trie of
the calls made from it (keyed by the state's digest, then each call's exact name and
arguments) and is answered from it without running the calls; the environment is brought to
the state the walk reached (:meth:`Session.materialise`) only where the session's calls leave
the trie or the session ends: from a pickle kept at that node, or by running the walked calls
(their answers checked against the kept ones: a difference raises).

What is state: the environment (everything it holds, as :mod:`..provider.prebuilt` copies
it, with what lives beside it in weak mappings) and the session's own (its kubeconfig, its
last fault). The environment's id, token and address are the session's own: the start
digest and every kept pickle hold them as placeholders, and an answer that shows one of
them is never served. Only a pinned clock (``OASIS_SIM_EPOCH``) makes a session
replayable, as for prebuilt environments; :func:`clear` forgets everything. Off by default
(:data:`ENABLED`).
"""

from __future__ import annotations

import copyreg
import hashlib
import io
import json
import os
import pickle
import threading
import time
import weakref
from collections import OrderedDict
from typing import Any

from ..cluster import gitops, settled
from ..cluster.clock import pinned_epoch
from ..observability import snapshot
from ..tools import ToolResult

#: bytes of kept answers and states per process (:class:`_Roots`)
BUDGET = 96 * 1024 * 1024
#: off unless asked for (``OASIS_SIM_SHARED_CALLS=1``, or set by a harness that replays many
#: agents over the same scenarios in one process: ``tests/validity/measure_gamers.py``). A
#: run of its own gains nothing from it, and a benchmark repeated in one process would
#: measure answers served instead of made
ENABLED = os.environ.get("OASIS_SIM_SHARED_CALLS") == "1"

_IDENTITY = ("id", "token", "address")


class Node:
    """The state reached by one call sequence: the answer of its last call and the calls made
    after it; ``blob`` the state itself, kept where a session ended or left the trie here."""

    __slots__ = ("blob", "children", "origin", "result")

    def __init__(self) -> None:
        self.children: dict[str, Node] = {}
        self.result: ToolResult | None = None
        self.blob: bytes | None = None
        self.origin: tuple[str, ...] = ()  # the identity of the environment it was kept from


class _Roots:
    """Start key -> trie, bounded by :data:`BUDGET` (thread-safe). Kept states are dropped
    first, least recently used first (a session then runs its walked calls again); when the
    kept answers alone pass half the budget, everything is forgotten (and learnt again)."""

    def __init__(self) -> None:
        self.kept: dict[str, Node] = {}
        self.blobs: OrderedDict[int, Node] = OrderedDict()
        self.answers = self.states = 0
        self.lock = threading.Lock()

    @property
    def size(self) -> int:
        return self.answers + self.states

    def get(self, key: str) -> Node:
        with self.lock:
            return self.kept.setdefault(key, Node())

    def answered(self, by: int) -> None:
        with self.lock:
            self.answers += by
            if self.answers > BUDGET // 2:
                self._clear()

    def used(self, node: Node) -> None:
        """``node``'s kept state was just kept or loaded."""
        with self.lock:
            if id(node) not in self.blobs and node.blob is not None:
                self.states += len(node.blob)
            self.blobs[id(node)] = node
            self.blobs.move_to_end(id(node))
            while self.size > BUDGET and self.blobs:
                _, old = self.blobs.popitem(last=False)
                self.states -= len(old.blob or b"")
                old.blob = None

    def clear(self) -> None:
        with self.lock:
            self._clear()

    def _clear(self) -> None:
        self.kept.clear()
        self.blobs.clear()
        self.answers = self.states = 0


ROOTS = _Roots()


def clear() -> None:
    """Forget every kept call and state (a test that patches the simulator)."""
    ROOTS.clear()


#: the session a kept state is being loaded into (this thread's)
_LOADING = threading.local()


def _live(which: str) -> Any:
    """The environment or session object a kept state refers to: the live one it is loaded
    into (every reference to it stays valid)."""
    surface = _LOADING.surface
    return surface.env if which == "env" else surface


def _pickler(out: io.BytesIO, surface: Any) -> pickle.Pickler:
    """A pickler writing the environment and the session objects as references
    (:func:`_live`), by a dispatch table on their two classes (C speed for the rest)."""
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    table = dict(copyreg.dispatch_table)
    table[type(surface.env)] = lambda _: (_live, ("env",))
    table[type(surface)] = lambda _: (_live, ("surface",))
    pickler.dispatch_table = table
    return pickler


def _renamed(obj: Any, names: dict[str, str], depth: int = 0) -> Any:
    """``obj`` (a session's small own state: its kubeconfig) with every identity string of
    the environment a state was kept from replaced by the live one's."""
    if isinstance(obj, str):
        return names.get(obj, obj)
    if depth > 8:
        return obj
    if isinstance(obj, dict):
        return {k: _renamed(v, names, depth + 1) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_renamed(v, names, depth + 1) for v in obj]
    if hasattr(obj, "__dict__") and not callable(obj):
        for k, v in vars(obj).items():
            setattr(obj, k, _renamed(v, names, depth + 1))
    return obj


def _state(surface: Any) -> tuple[Any, ...]:
    env = surface.env
    own = {k: v for k, v in vars(surface).items() if k != "_tools"}
    return vars(env), own, settled.beside(env), snapshot.beside(env)


def dump(surface: Any) -> bytes:
    """The session's state, the environment and session objects as references."""
    out = io.BytesIO()
    _pickler(out, surface).dump(_state(surface))
    return out.getvalue()


def digest(surface: Any) -> str:
    """The digest of the session's whole state (its environment's identity and wall receipt
    times aside): what two sessions with the same :func:`start_key` share (the tests)."""
    env = surface.env
    walls = env.audit._wall, env.served._wall
    env.audit._wall = env.served._wall = []
    try:
        return hashlib.sha256(dump(surface)).hexdigest()
    finally:
        env.audit._wall, env.served._wall = walls


#: environment -> the digest of its provision's inputs (provider/prebuilt.key_of)
_PROVISIONED: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()


def provisioned(env: Any, key: str | None) -> None:
    """``env`` was provisioned from inputs of digest ``key`` (None: not replayable)."""
    if key is not None:
        _PROVISIONED[env] = key


def start_key(surface: Any) -> str | None:
    """What a session's start state is a function of: its environment's provision inputs,
    what the harness did to it since (its audit entries and clock) and the session's own
    identity; None when the environment is not replayable (its clock follows the wall)."""
    env = surface.env
    key = _PROVISIONED.get(env)
    if not ENABLED or key is None or pinned_epoch() is None:
        return None
    since = (len(env.audit.entries), env.clock.seconds(), len(env.served.calls))
    own = (surface.user, surface.session, surface.interface_types, surface.default_namespace)
    return repr((key, env.scenario_id, since, own))


def identity(env: Any) -> tuple[str, ...]:
    return tuple(str(getattr(env, n, "") or "") for n in _IDENTITY)


def load(surface: Any, blob: bytes, origin: tuple[str, ...]) -> None:
    """Bring the session and its environment to the kept state ``blob`` in place (every
    reference to either stays valid), with their own identity (``origin``: the identity of
    the environment it was kept from); wall receipt times kept so far stay, later ones are
    now."""
    env = surface.env
    live = identity(env)
    walls = [list(env.audit._wall), list(env.served._wall)]
    _LOADING.surface = surface
    try:
        state, own, memo, records = pickle.loads(blob)
    finally:
        _LOADING.surface = None
    env.__dict__.clear()
    env.__dict__.update(state)
    for name, value in zip(_IDENTITY, live, strict=True):
        setattr(env, name, value)
    names = {old: new for old, new in zip(origin, live, strict=True) if old and old != new}
    if "_kubeconfig" in own:
        own["_kubeconfig"] = _renamed(own["_kubeconfig"], names)
    surface.__dict__.update(own)
    if memo is not None:
        settled.adopt(env, memo)
    if records is not None:
        snapshot.adopt(env, records)
    gitops.rekey(env, origin[0])
    now = time.time()
    for log, kept in zip((env.audit, env.served), walls, strict=True):
        log._wall = (kept + [now] * len(log._wall))[: len(log._wall)]


def _key(name: str, arguments: dict[str, Any]) -> str:
    """A call's exact name and arguments, key order and types kept (``1``, ``1.0``, ``True``)."""
    return json.dumps([name, arguments], default=repr)


def _check(name: str, arguments: Any, result: ToolResult, kept: ToolResult | None) -> None:
    """A call run again from the same state gave the answer it gave before (or was never
    served); else the simulator is not the function of its state this module needs."""
    if kept is not None and (result.text, result.is_error) != (kept.text, kept.is_error):
        clear()
        raise AssertionError(f"shared call {name} {arguments!r}: a different answer")


def _servable(surface: Any, result: ToolResult) -> bool:
    env = surface.env
    return not any(v and v in result.text for v in (getattr(env, n, "") for n in _IDENTITY))


class Session:
    """One in-process session's walk of the trie of its start state (module doc)."""

    def __init__(self, surface: Any, start: str):
        self.surface = surface
        self.root = ROOTS.get(start)
        self.node = self.root
        self.walked: list[tuple[str, dict[str, Any], ToolResult]] = []
        self.live = False

    @classmethod
    def start(cls, surface: Any) -> Session | None:
        """A session on ``surface`` (whose environment is at its start), or None when its state
        cannot be kept."""
        found = start_key(surface)
        return None if found is None else cls(surface, found)

    def call(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        key = _key(name, arguments)
        if not self.live:
            child = self.node.children.get(key)
            if child is not None and child.result is not None:
                self.node = child
                self.walked.append((name, arguments, child.result))
                return ToolResult(child.result.text, child.result.is_error)
            self.materialise()
        result = self.surface.call(name, arguments)
        child = self.node.children.get(key)
        if child is None:
            child = self.node.children[key] = Node()
            if _servable(self.surface, result):
                child.result = ToolResult(result.text, result.is_error)
                ROOTS.answered(len(result.text) + len(key) + 200)
        else:
            _check(name, arguments, result, child.result)  # a call run again: the same answer
        self.node = child
        return result

    def materialise(self) -> None:
        """The environment brought to the state the walk reached: the node's kept state, else
        the walked calls run (each answer checked against the kept one), the state then kept
        at the node for the next session that leaves the trie there."""
        self.live = True
        walked, self.walked = self.walked, []
        if not walked:
            return
        node = self.node
        if node.blob is not None:
            load(self.surface, node.blob, node.origin)
            ROOTS.used(node)
            return
        for name, arguments, kept in walked:
            _check(name, arguments, self.surface.call(name, arguments), kept)
        self.keep(node)

    def keep(self, node: Node) -> None:
        try:
            node.blob = dump(self.surface)
        except (pickle.PicklingError, AttributeError, TypeError):
            return
        node.origin = identity(self.surface.env)
        ROOTS.used(node)

    def close(self) -> None:
        """The session's end: its environment at the state its calls made, kept for the next
        session that ends at the same node."""
        if not self.live:
            self.materialise()
        elif self.node is not self.root and self.node.blob is None:
            self.keep(self.node)


__all__ = [
    "BUDGET",
    "ENABLED",
    "ROOTS",
    "Node",
    "Session",
    "clear",
    "digest",
    "dump",
    "load",
    "provisioned",
    "start_key",
]
