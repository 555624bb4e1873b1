"""The platform baseline provisioned and settled once, then copied into each environment
(SI profile.md §8; issue 30, session 10).

Every environment starts from the same Tier 1 platform (:mod:`.baseline`: nodes, built-in
roles, the platform namespaces and their twelve Deployments, settled by the controllers).
Building it through the API server and settling it took about 10 ms of each scenario's
provision; a :class:`Template` builds it once per provider seed and pinned clock, and
:func:`install` gives each new environment its own copy before the scenario's state goes in.

What a copy keeps and changes:

- Nothing is shared that an environment may change (spec 04 §1: one scenario's writes are
  never seen by another): stored objects, facts and audit entries are deep copies, each
  loaded from one pickle with its identifiers and times filled in (the audit entries shared
  their parts without one until session 13: rewriting each identifier's path in Python cost
  more than the C loader's copy, issue 30).
- The platform draws its uids and pod suffixes from a stream of its own (``<seed>:platform``),
  so the scenario's draws do not depend on them. What an agent can read of them still
  differs per scenario (an agent serving several scenarios cannot carry an identifier from
  one cluster to the next, spec 04 §1): each uid and audit id is a keyed hash of the
  environment's seed and the template's id, each pod's name suffix likewise (issue 30,
  session 11; a ReplicaSet's pods keep their order by name, so every listing and Endpoints
  object is the one a pass would build), and the pods' addresses are the template's,
  permuted within each node's range by the same key (the scenario's pods still get the
  addresses after them).
- Times: the template runs on a frozen clock; an environment whose clock starts later
  (the wall-following clock, issue 32) gets every timestamp of the copy moved by the whole
  seconds between the two starts, and its clock starts where the template's stopped, so
  every age and every simulated offset is the template's.
- The controllers' memo of the settled platform passes is carried over (re-keyed by the new
  uids, its inputs read again in the copy), so the scenario's first controller pass builds
  the scenario's workloads and leaves the settled platform alone, as a second pass did.
"""

from __future__ import annotations

import functools
import hashlib
import io
import ipaddress
import pickle
import re
import threading
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from ..cluster import controllers, settled
from ..cluster.clock import EPOCH, K8S_ALPHABET, Ids, SimClock, _uuid4_text, fmt, parse_ts
from ..cluster.store import clone
from . import baseline
from .environment import PROVIDER_USER, Environment

#: a timestamp the simulator writes: seconds (objects), milliseconds (audit), microseconds (raw)
_STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3}|\.\d{6})?Z")
UID, STAMP, DERIVED, NAME, ADDRESS = 0, 1, 2, 3, 4
#: a run of hex digits as long as an ``ids_for`` id or its first half
_HEX = re.compile(r"[0-9a-f]{128}|[0-9a-f]{64}")
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


@dataclass
class Template:
    """One settled platform: what :func:`install` copies, with where its ids and times are."""

    start: datetime
    ms: int
    #: the stored objects and the facts, ``[(key, value)]`` each, and the audit entries,
    #: pickled with every uid, pod name, pod address, timestamp and derived id in a
    #: :class:`_Slot` (``slots``: (kind, text))
    objects: bytes
    counters: tuple[Any, ...]
    #: the entries' parts without such a string are not in the pickle but ``audit_parts``,
    #: referenced by their index (shared by every copy: read-only once recorded)
    audit: bytes
    facts: bytes
    registry: frozenset[str]
    system_namespaces: frozenset[str]
    notes: dict[str, Any]
    ips: dict[tuple[str, str], str]
    cidr_next: dict[str, int]
    #: (memo key, fact keys, listed resources, namespace, horizon, images) of settled passes
    passes: list[tuple[tuple[str, str], tuple[Any, ...], tuple[str, ...], str, Any, Any]]
    endpoints: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    #: an id ``Environment.ids_for`` made in the template (and its first half) -> its text
    derived: dict[str, str] = field(default_factory=dict)
    #: the platform's pods: (namespace, name), sorted
    pods: tuple[tuple[str, str], ...] = ()
    slots: tuple[tuple[int, str], ...] = ()
    audit_parts: tuple[Any, ...] = ()

    def built(self) -> list[tuple[tuple[str, str, str], dict[str, Any]]]:
        """The stored objects as the template built them (its own ids and names)."""
        loaded: list[tuple[tuple[str, str, str], dict[str, Any]]]
        loaded = _Filled(self.objects, [text for _, text in self.slots]).load()
        return loaded


_LOCK = threading.Lock()


def provision(env: Environment, seed: Any, cache: dict[Any, Template]) -> None:
    """Give ``env``, new, the platform of ``seed`` (its template built once, kept in ``cache``)."""
    pinned = env.clock.start if env.clock.wall is None else None
    install(env, template(seed, pinned, cache))


def template(seed: Any, start: datetime | None, cache: dict[Any, Template]) -> Template:
    """The platform of ``seed`` (``start``: the pinned clock's, None: a wall-following one),
    built once and kept in ``cache`` (the provider's own)."""
    key = (str(seed), start)
    with _LOCK:
        found = cache.get(key)
        if found is None:
            found = cache[key] = build(seed, start or EPOCH)
    return found


def build(seed: Any, start: datetime) -> Template:
    """Provision the platform alone on a frozen clock and settle it (two controller passes,
    as ``provisioning.finalize`` settled it inside each environment)."""
    env = Environment("platform", "platform", "platform", seed)
    env.seed = f"{seed}:platform"
    env.clock = env.store.clock = SimClock(start)
    env.ids = env.store.ids = Ids(env.seed)
    derived: dict[str, str] = {}  # what Environment.ids_for made -> from which text
    plain = env.ids_for

    def recorded(text: str) -> str:
        made = plain(text)
        derived[made] = derived[made[:64]] = text
        return made

    env.ids_for = recorded  # type: ignore[method-assign]
    baseline.build(env, PROVIDER_USER)
    controllers.reconcile(env)
    controllers.reconcile(env)
    _only_copied_parts(env)
    store = env.store
    exact = dict.fromkeys(env._ips.values(), ADDRESS)
    pods = tuple(sorted(key[1:] for key, _ in store.items() if key[0] == "pods"))
    if len({name for _, name in pods}) != len(pods):  # a name is renamed wherever it is
        raise RuntimeError("the platform template needs its pod names distinct across namespaces")
    exact.update(dict.fromkeys((name for _, name in pods), NAME))
    exact.update(dict.fromkeys((obj["metadata"]["uid"] for _, obj in store.items()), UID))
    exact.update(dict.fromkeys((entry["auditID"] for entry in env.audit.entries), UID))
    memo = settled.memo(env)
    passes = []
    for key, (fact_keys, walked, _, horizon, images, _) in sorted(memo.settled.items()):
        obj = next((o for _, o in store.items() if o["metadata"]["uid"] == key[1]), None)
        ns = (obj or {}).get("metadata", {}).get("namespace", "")
        if obj is not None and memo.skip(env, key, ns):  # still settled as the copy starts
            passes.append((key, fact_keys, walked, ns, horizon, images))
    slots: dict[str, _Slot] = {}

    def kind_of(text: str) -> int | None:
        return _kind(text, exact, derived)

    def pickled(value: Any) -> bytes:
        return pickle.dumps(_slotted(value, slots, kind_of), protocol=pickle.HIGHEST_PROTOCOL)

    objects = pickled(sorted(store.items()))
    facts = pickled(list(env.facts.items()))
    kept: set[int] = set()
    done: dict[int, Any] = {}
    entries = [_slotted_keeping(e, slots, kind_of, kept, done) for e in env.audit.entries]
    audit, parts = _pickled_sharing(entries, kept)
    made = Template(
        slots=tuple((_kind(text, exact, derived) or 0, text) for text in slots),
        derived=derived,
        pods=pods,
        start=start,
        ms=env.clock.ms,
        objects=objects,
        counters=store.counters(),
        audit=audit,
        audit_parts=parts,
        facts=facts,
        registry=frozenset(env.registry),
        system_namespaces=frozenset(env.system_namespaces),
        notes=clone(env.notes),
        ips=dict(env._ips),
        cidr_next=dict(env._cidr_next),
        passes=passes,
        endpoints=dict(memo.endpoints),
    )
    del env.ids_for  # the recording closure holds the environment
    env.dispose()  # and so do its parts: no cycle left behind
    return made


def _only_copied_parts(env: Environment) -> None:
    """Refuse a platform that keeps state :func:`install` does not copy (a later change to
    the baseline that adds logs, metrics or GitOps applications must copy them too)."""
    left = {
        "logs": env.logs.pods or env.logs.workloads or env.logs.sources,
        "metrics": env.metrics.series or env.metrics.facts,
        "traces": env.traces.traces,
        "alerts": env.alerts.alerts,
        "dashboards": env.dashboards.boards,
        "database": env.database.dbs,
        "gitops": env.gitops.desired or env.gitops.syncs,
        "events": env._events,
        "reserved": env.reserved,
        "served": env.served.calls,
    }
    kept = sorted(name for name, value in left.items() if value)
    if kept:
        raise RuntimeError(f"the platform template does not copy {', '.join(kept)}")


def _kind(value: str, exact: dict[str, int], derived: dict[str, str]) -> int | None:
    """What a string of the platform is, of what a copy changes: a platform uid, pod name
    or pod address (``exact``: the value -> its kind), a timestamp or an id the environment
    derives from its seed (``Environment.ids_for``: container and image ids); None: kept."""
    kind = exact.get(value)
    if kind is not None:
        return kind
    if _STAMP.fullmatch(value):
        return STAMP
    if any(run in derived for run in _HEX.findall(value)):
        return DERIVED
    return None


class _Slot:
    """Where the pickled platform holds a string a copy changes (one per distinct string:
    the pickle's memo makes every other occurrence a reference to the first)."""

    __slots__ = ("index",)

    def __init__(self, index: int):
        self.index = index

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return (_slot, (self.index,))


def _slot(index: int) -> str:
    raise RuntimeError("a platform's strings are filled in by install only")


def _slotted(value: Any, slots: dict[str, _Slot], kind_of: Any) -> Any:
    """``value`` with each string a copy changes (keys too) replaced by its :class:`_Slot`."""
    if isinstance(value, dict):
        return {_slotted(k, slots, kind_of): _slotted(v, slots, kind_of) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_slotted(v, slots, kind_of) for v in value)
    if isinstance(value, str) and kind_of(value) is not None:
        found = slots.get(value)
        if found is None:
            found = slots[value] = _Slot(len(slots))
        return found
    return value


def _slotted_keeping(
    value: Any, slots: dict[str, _Slot], kind_of: Any, kept: set[int], done: dict[int, Any]
) -> Any:
    """``value`` as :func:`_slotted` makes it, but a dict or list holding no string a copy
    changes is itself, its id in ``kept`` (:func:`_pickled_sharing` pickles it by reference);
    a container met twice is made once (``done``), so a body an entry holds under two keys
    (``request_body``, ``raw.requestObject``) stays one in the copy."""
    if id(value) in done:
        return done[id(value)]
    if isinstance(value, dict):
        made: Any = {
            _slotted_keeping(k, slots, kind_of, kept, done): _slotted_keeping(
                v, slots, kind_of, kept, done
            )
            for k, v in value.items()
        }
        same = all(
            m is k and made[m] is v for m, k, v in zip(made, value, value.values(), strict=True)
        )
    elif isinstance(value, list | tuple):
        made = type(value)(_slotted_keeping(v, slots, kind_of, kept, done) for v in value)
        same = all(a is b for a, b in zip(made, value, strict=True))
    else:
        return _slotted(value, slots, kind_of)
    if same:
        made = value
        if isinstance(value, dict | list):
            kept.add(id(value))
    done[id(value)] = made
    return made


def _pickled_sharing(value: Any, kept: set[int]) -> tuple[bytes, tuple[Any, ...]]:
    """``value`` pickled with each outermost container of ``kept`` as a reference to its
    index in the parts returned beside it (issue 30, session 13: the audit entries' parts
    without an identifier or a time, most of their bytes, stay shared; the rest loads in C)."""
    parts: list[Any] = []
    index: dict[int, int] = {}
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)

    def persistent_id(obj: Any) -> int | None:
        if id(obj) not in kept and type(obj) is not str:
            return None
        found = index.get(id(obj))
        if found is None:
            found = index[id(obj)] = len(parts)
            parts.append(obj)
        return found

    pickler.persistent_id = persistent_id  # type: ignore[method-assign]
    pickler.dump(value)
    return out.getvalue(), tuple(parts)


class _Filled(pickle.Unpickler):
    """Loads a pickled platform (C) with each slot's string this environment's: one call of
    ``strings.__getitem__`` per distinct string (issue 30, session 11: cloning the objects
    and rewriting each occurrence in Python were most of a copy's CPU)."""

    def __init__(self, blob: bytes, strings: list[str], parts: tuple[Any, ...] = ()):
        super().__init__(io.BytesIO(blob))
        self.strings = strings
        self.persistent_load = parts.__getitem__  # type: ignore[method-assign]

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == (__name__, "_slot"):
            return self.strings.__getitem__
        raise pickle.UnpicklingError(f"the platform template holds no {module}.{name}")


def install(env: Environment, tpl: Template) -> None:
    """Copy the platform into ``env``, a new environment nothing has been written to."""
    delta = round((env.clock.start - tpl.start).total_seconds())
    rename = _Renamer(env.seed)
    names = _pod_names(rename.key, tpl.pods)
    addresses = _addresses(rename.key, tpl.ips)

    def new(kind: int, old: str) -> str:
        if kind == UID:
            return rename(old)
        if kind == STAMP:
            return _shifted(old, delta)
        if kind == NAME:
            return names[old]
        if kind == ADDRESS:
            return addresses[old]
        return _HEX.sub(lambda m: rederive(m.group()), old)

    def key_of(key: tuple[str, str, str]) -> tuple[str, str, str]:
        return (key[0], key[1], names[key[2]]) if key[0] == "pods" else key

    def rederive(run: str) -> str:
        """The id this environment derives from the same text, its uids renamed."""
        text = tpl.derived.get(run)
        if text is None:
            return run
        made = env.ids_for(_UUID.sub(lambda m: rename(m.group()), text))
        return made if len(run) == len(made) else made[: len(run)]

    strings = [new(kind, text) for kind, text in tpl.slots]

    def copied(blob: bytes) -> Any:
        return _Filled(blob, strings).load()

    env.store.adopt(copied(tpl.objects), tpl.counters)
    env.audit.adopt(_Filled(tpl.audit, strings, tpl.audit_parts).load())
    env.facts.update(copied(tpl.facts))
    env.registry |= tpl.registry
    env.system_namespaces |= tpl.system_namespaces
    env.notes.update(clone(tpl.notes))
    env._ips.update({(rename(uid), cidr): addresses[ip] for (uid, cidr), ip in tpl.ips.items()})
    env._cidr_next.update(tpl.cidr_next)
    env.clock.ms = max(env.clock.ms, tpl.ms)
    _carry_memo(env, tpl, rename, key_of)


def _carry_memo(env: Environment, tpl: Template, rename: _Renamer, key_of: Any) -> None:
    """The settled platform passes, re-keyed and with their inputs read in the copy (the
    same objects, marks and facts as the template's, names and times moved): still settled."""
    memo = settled.begin(env)
    for (kind, uid), old_keys, walked, ns, horizon, images in tpl.passes:
        fact_keys = tuple(key_of(k) for k in old_keys)
        inputs = settled.inputs(env, ns, fact_keys, walked)
        # settled while the template provisioned, as this environment is now
        memo.settled[(kind, rename(uid))] = (fact_keys, walked, inputs, horizon, images, True)
    memo.endpoints.update({rename(uid): inputs for uid, inputs in tpl.endpoints.items()})


class _Renamer:
    """A platform uid -> this environment's: a keyed hash of its seed and the uid."""

    def __init__(self, seed: str):
        self.key = seed.encode() + b"\0"
        self.made: dict[str, str] = {}

    def __call__(self, uid: str) -> str:
        known = self.made.get(uid)
        if known is None:
            digest = hashlib.sha256(self.key + uid.encode()).digest()
            known = self.made[uid] = _uuid4_text(int.from_bytes(digest[:16], "big"))
        return known


def _pod_names(key: bytes, pods: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """A platform pod's name -> this environment's: its ReplicaSet's name and a suffix
    keyed by the seed (spec 04 §1: no name learnt in one scenario is valid in the next).
    A ReplicaSet's new suffixes go to its pods in their order by name, so listings and
    Endpoints keep the order a controller pass gives them."""
    groups: dict[tuple[str, str], list[str]] = {}
    for ns, name in pods:
        groups.setdefault((ns, name.rpartition("-")[0]), []).append(name)
    renamed: dict[str, str] = {}
    for (ns, owner), olds in sorted(groups.items()):
        made: set[str] = set()
        for old in olds:
            text, n = f"{ns}\0{old}", 0
            while (suffix := _suffix(key + text.encode())) in made:
                n += 1
                text = f"{ns}\0{old}\0{n}"
            made.add(suffix)
        for old, suffix in zip(sorted(olds), sorted(made), strict=True):
            renamed[old] = f"{owner}-{suffix}"
    return renamed


def _suffix(data: bytes, n: int = 5) -> str:
    """Five characters of Kubernetes' name alphabet from a hash of ``data``."""
    digest = hashlib.sha256(data).digest()
    return "".join(K8S_ALPHABET[b % len(K8S_ALPHABET)] for b in digest[:n])


def _addresses(key: bytes, ips: dict[tuple[str, str], str]) -> dict[str, str]:
    """A platform pod's address -> this environment's: the addresses of each node's range
    permuted by a keyed hash (the same set, so the next free address is unchanged)."""
    by_range: dict[str, list[str]] = {}
    for (_, cidr), ip in sorted(ips.items()):
        by_range.setdefault(cidr, []).append(ip)
    moved: dict[str, str] = {}
    for cidr in sorted(by_range):
        olds = sorted(by_range[cidr], key=ipaddress.IPv4Address)
        news = sorted(olds, key=lambda ip: hashlib.sha256(key + ip.encode()).digest())
        moved.update(zip(olds, news, strict=True))
    return moved


@functools.lru_cache(maxsize=4096)
def _shifted(text: str, seconds: int) -> str:
    """A timestamp moved by whole seconds, in its own precision."""
    if not seconds:
        return text
    when = parse_ts(text.replace("Z", "+00:00"))
    assert when is not None  # the plan holds only what _STAMP matched
    moved = when + timedelta(seconds=seconds)
    if len(text) == 20:
        return fmt(moved)
    ms = fmt(moved, ms=True)
    return ms if len(text) == 24 else ms[:-1] + text[-4:]


__all__ = ["Template", "build", "install", "provision", "template"]
