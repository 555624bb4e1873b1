"""An environment provisioned from the inputs of an earlier build is a copy of that build
(provider/prebuilt.py, session 31): the same environment a build gives, its own id, token
and address, and no object shared with the cache or another copy."""

from __future__ import annotations

import types
from collections.abc import Iterator
from typing import Any

import pytest

from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.cluster import gitops, settled
from oasis_sim_k8s.observability import snapshot
from oasis_sim_k8s.provider import prebuilt
from tests.sim_k8s.support import request, run, scenario_ids

from .env_digest import LATER_S, digest

GITOPS = "infra.safety.sc.drift-introduction-001"


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    prebuilt.clear()
    yield
    prebuilt.clear()


def _provision(provider: SimK8sProvider, sid: str, **kw: Any) -> Any:
    req, _ = request("si", sid, **kw)
    res = run(lambda: provider.provision(req))
    return provider.environment(res.environment_id)


def _mutable(value: Any, seen: dict[int, Any], skip: set[int]) -> None:
    """Every mutable object reachable from ``value`` (by id), not entering ``skip``."""
    stack = [value]
    while stack:
        item = stack.pop()
        if id(item) in seen or id(item) in skip:
            continue
        if isinstance(item, str | bytes | int | float | bool | type(None) | type):
            continue
        if isinstance(item, types.ModuleType | types.FunctionType | types.BuiltinFunctionType):
            continue
        if not isinstance(item, tuple | frozenset):
            seen[id(item)] = item
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend(item)
        elif hasattr(item, "__dict__"):
            stack.append(vars(item))
        elif hasattr(item, "__slots__"):
            stack.extend(getattr(item, s) for s in item.__slots__ if hasattr(item, s))


def _reachable(env: Any) -> dict[int, Any]:
    seen: dict[int, Any] = {}
    # the clock's start and the seeded generator's state are immutable values
    _mutable((env, settled.beside(env), snapshot.beside(env)), seen, set())
    return seen


@pytest.mark.parametrize("later", [False, pytest.param(True, marks=pytest.mark.heavy)])
def test_a_copy_is_the_environment_a_build_gives(later: bool) -> None:
    """Every SI environment and its copy: the same digest (objects, uids, resourceVersions,
    audit, facts, clock, generator state), right after provision; the heavy tier: every one,
    and 900 s later (the default tier: every fourth, and the one with a GitOps setup write)."""
    sids = scenario_ids("si")
    if not sids:
        pytest.skip("SI profile not found (set OASIS_SPEC_DIR)")
    if not later:
        sids = sorted({*sids[::4], GITOPS})
    # two providers of seeded ids: each copy has its build's id (the setup audit id that
    # follows the id: test_the_setup_audit_id_is_derived_from_the_copys_own_id)
    built, copied = SimK8sProvider(seeded_ids=True), SimK8sProvider(seeded_ids=True)
    for sid in sids:
        fresh = _provision(built, sid)
        copy = _provision(copied, sid)
        assert copy.token != fresh.token and copy.address != fresh.address
        assert digest(copy) == digest(fresh), sid
        if later:
            fresh.advance(LATER_S)
            copy.advance(LATER_S)
            assert digest(copy) == digest(fresh), sid
    assert prebuilt.CACHE.hits == len(sids)  # every SI build pickles (no closure in it)


def test_two_copies_share_no_mutable_object() -> None:
    """Two environments from one cached build, and the build itself: no dict, list, set or
    part in common; a write to one leaves the other and the cache as they were."""
    if not scenario_ids("si"):
        pytest.skip("SI profile not found (set OASIS_SPEC_DIR)")
    provider = SimK8sProvider(seeded_ids=True)
    sid = scenario_ids("si")[0]
    first, second, third = (_provision(provider, sid) for _ in range(3))
    assert prebuilt.CACHE.hits == 2
    assert len({first.id, second.id, third.id}) == len({first.token, second.token}) + 1 == 3
    ours = _reachable(second)
    for other in (first, third):
        shared = ours.keys() & _reachable(other).keys()
        assert not shared, [type(ours[i]).__name__ for i in list(shared)[:5]]
    before = digest(third)
    second.store.create(
        {"kind": "ConfigMap", "metadata": {"name": "x", "namespace": "default"}, "data": {}}
    )
    second.advance(60)
    next(iter(second.facts.values()))["poked"] = True
    assert digest(third) == before
    assert digest(_provision(provider, sid)) == before  # the cache unchanged


def test_other_inputs_miss_the_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """A different seed, request or fault setting is another build; a clock that follows the
    wall is never cached."""
    if not scenario_ids("si"):
        pytest.skip("SI profile not found (set OASIS_SPEC_DIR)")
    sid = scenario_ids("si")[0]
    _provision(SimK8sProvider(), sid)
    _provision(SimK8sProvider(seed=1), sid)
    _provision(SimK8sProvider(), sid, principal="someone-else")
    faulty = SimK8sProvider()
    faulty.faults.audit_drop_setup = True
    _provision(faulty, sid)
    assert (prebuilt.CACHE.hits, prebuilt.CACHE.misses) == (0, 4)
    _provision(SimK8sProvider(), sid)
    assert (prebuilt.CACHE.hits, prebuilt.CACHE.misses) == (1, 4)
    monkeypatch.delenv("OASIS_SIM_EPOCH")
    req, _ = request("si", sid)
    assert prebuilt.key_of(0, faulty.faults, req) is None
    _provision(SimK8sProvider(), sid)
    assert (prebuilt.CACHE.hits, prebuilt.CACHE.misses, len(prebuilt.CACHE)) == (1, 4, 4)


def test_the_setup_audit_id_is_derived_from_the_copys_own_id() -> None:
    """The one place an environment's id enters its state (a GitOps Application's setup write)
    is derived again for the copy."""
    if GITOPS not in scenario_ids("si"):
        pytest.skip("SI profile not found (set OASIS_SPEC_DIR)")
    provider = SimK8sProvider(seeded_ids=True)
    first, second = _provision(provider, GITOPS), _provision(provider, GITOPS)
    assert prebuilt.CACHE.hits == 1

    def setup_ids(env: Any) -> list[tuple[str, str]]:
        return [
            (e["auditID"], e["raw"]["auditID"])
            for e in env.audit.entries
            if e["resource"] == "applications" and e["verb"] == "create"
        ]

    name = next(iter(second.gitops.desired))
    want = gitops.setup_audit_id(second.seed, second.id, name)
    assert setup_ids(second) == [(want, want)]
    assert setup_ids(first) != setup_ids(second)


class _Built:
    """What the cache needs of an environment (an id, an audit log) and nothing else."""

    def __init__(self, env_id: str):
        self.id, self.token, self.address, self.seed = env_id, "", "", "s"
        self.audit = types.SimpleNamespace(entries=[], _wall=[])


def test_a_bounded_cache_drops_the_least_recently_used() -> None:
    cache = prebuilt.Cache(size=2)
    built: list[str] = []

    def build(key: str) -> Any:
        def made() -> Any:
            built.append(key)
            return _Built(key), []

        return made

    for key in ("a", "b", "a", "c", "b"):
        cache.provision(key, key, build(key))
    assert built == ["a", "b", "c", "b"]
    assert len(cache) == 2
