"""The platform baseline is built and settled once per seed, then copied into each
environment (issue 30, session 10): no environment sees another's writes (spec 04 §1), the
platform's ids are each environment's own, its times follow the environment's clock, and the
copy is as settled as the platform was when it was built inside the environment."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest

from oasis_sim_k8s import SimK8sProvider
from oasis_sim_k8s.cluster import controllers, settled
from oasis_sim_k8s.cluster.clock import EPOCH, Ids, SimClock
from oasis_sim_k8s.injection import baseline, platform
from oasis_sim_k8s.injection.environment import Environment
from tests.sim_k8s.support import provision, scenario_ids

PLATFORM_NS = sorted(baseline.PLATFORM)


def _fresh(scenario_id: str, start: Any = EPOCH) -> Environment:
    env = Environment("e", scenario_id, "agent", 0)
    env.clock = env.store.clock = SimClock(start)
    return env


def _platform_objects(env: Environment) -> dict[tuple[str, str, str], dict[str, Any]]:
    return {k: o for k, o in env.store.items() if k[1] in PLATFORM_NS or k[0] == "nodes"}


def test_one_environments_writes_are_never_seen_by_another() -> None:
    """A write to a platform object, a fact or the registry in one environment changes neither
    an environment provisioned before it, one provisioned after it, nor the template."""
    provider = SimK8sProvider(seeded_ids=True)
    sid = scenario_ids("example")[0]
    _, first = provision(provider, "example", sid)
    before = json.dumps(sorted(first.store.items()), sort_keys=True)
    dep = first.store.raw("deployments", "kube-system", "coredns")
    assert dep is not None
    dep["spec"]["replicas"] = 7
    dep["metadata"].setdefault("labels", {})["leaked"] = "yes"
    pods = [p for p in first.store.iter("pods", "monitoring")]
    pods[0]["status"]["phase"] = "Failed"
    first.facts[("deployments", "kube-system", "coredns")]["restarts"] = 99
    first.registry.clear()
    # audit entries are read-only once recorded and handed out as copies: what a reader does
    # to its copy, and the per-entry fields of the log itself, stay in this environment
    first.audit.query()[0]["raw"]["user"]["groups"].append("leaked")
    first.audit.entries[0]["timestamp"] = "leaked"
    first.audit.entries[0]["raw"]["auditID"] = "leaked"
    _, second = provision(provider, "example", sid)
    coredns = second.store.raw("deployments", "kube-system", "coredns")
    assert coredns is not None and coredns["spec"]["replicas"] == 2
    assert "leaked" not in json.dumps(sorted(second.store.items()), sort_keys=True)
    assert "leaked" not in json.dumps(second.audit.entries)
    assert second.facts[("deployments", "kube-system", "coredns")]["restarts"] == 0
    assert second.registry
    # the template itself is untouched: a third environment equals the second
    _, third = provision(provider, "example", sid)
    assert json.dumps(sorted(third.store.items()), sort_keys=True) == json.dumps(
        sorted(second.store.items()), sort_keys=True
    )
    assert before != json.dumps(sorted(first.store.items()), sort_keys=True)


def _container(value: Any) -> bool:
    return isinstance(value, dict | list)


def test_a_copys_audit_entries_share_only_parts_without_an_id_or_a_time() -> None:
    """Issue 30, session 13: the template's audit entries are pickled with the parts holding
    no identifier or time kept aside and shared by every copy; each copy's entries equal
    the template's with its own ids, and every part holding one is the copy's own."""
    tpl = platform.build(0, EPOCH)
    one, two = _fresh("one"), _fresh("two")
    platform.install(one, tpl)
    platform.install(two, tpl)
    assert tpl.audit_parts and len(one.audit.entries) == len(two.audit.entries) > 0
    shared = {id(part) for part in tpl.audit_parts}
    ids = {e["auditID"] for e in one.audit.entries} | {o["metadata"]["uid"] for _, o in tpl.built()}

    def walk(value: Any, inside: bool, seen: list[tuple[bool, Any]]) -> None:
        inside = inside or id(value) in shared
        if isinstance(value, dict):
            for k, v in value.items():
                walk(k, inside, seen)
                walk(v, inside, seen)
        elif isinstance(value, list | tuple):
            for v in value:
                walk(v, inside, seen)
        else:
            seen.append((inside, value))

    leaves: list[tuple[bool, Any]] = []
    walk(one.audit.entries, False, leaves)
    in_parts = [v for inside, v in leaves if inside and isinstance(v, str)]
    assert in_parts and not any(platform._STAMP.fullmatch(v) or v in ids for v in in_parts)
    assert {e["auditID"] for e in one.audit.entries}.isdisjoint(
        e["auditID"] for e in two.audit.entries
    )
    one_parts = {id(x) for e in one.audit.entries for x in e.values() if _container(x)}
    two_parts = {id(x) for e in two.audit.entries for x in e.values() if _container(x)}
    assert not (one_parts & two_parts) - shared  # what is not a kept part is each copy's own
    # a write's body is one object under both keys, as the log recorded it (audit._copy)
    bodies = [e for e in one.audit.entries if e.get("request_body") is not None]
    assert bodies and all(e["raw"]["requestObject"] is e["request_body"] for e in bodies)


def test_the_platforms_ids_are_each_scenarios_own_and_reproducible() -> None:
    """Uids and audit ids are keyed by the environment's seed: the same scenario gets the
    same ones, another scenario none of them (an agent serving both learns nothing)."""
    tpl = platform.build(0, EPOCH)
    a, again, b = _fresh("one"), _fresh("one"), _fresh("two")
    for env in (a, again, b):
        platform.install(env, tpl)

    def ids(env: Environment) -> set[str]:
        found = {o["metadata"]["uid"] for _, o in env.store.items()}
        return found | {e["auditID"] for e in env.audit.entries}

    template_ids = {o["metadata"]["uid"] for _, o in tpl.built()}
    assert ids(a) == ids(again)
    assert len(ids(a)) == len(tpl.built()) + len(a.audit.entries)
    assert not ids(a) & ids(b)
    assert not ids(a) & template_ids
    # every reference follows its object: owner references and endpoint targets
    uids = {o["metadata"]["uid"] for _, o in a.store.items()}
    for _, obj in a.store.items():
        for ref in obj["metadata"].get("ownerReferences") or []:
            assert ref["uid"] in uids
        for subset in obj.get("subsets") or []:
            for addr in subset.get("addresses") or []:
                assert addr["targetRef"]["uid"] in uids
    for entry in a.audit.entries:
        assert entry["raw"]["auditID"] == entry["auditID"]


def _pods(env: Environment) -> dict[str, str]:
    """The platform's pod names -> their addresses."""
    return {
        o["metadata"]["name"]: o["status"]["podIP"]
        for k, o in env.store.items()
        if k[0] == "pods" and k[1] in PLATFORM_NS
    }


def test_the_platforms_pod_names_and_addresses_are_each_scenarios_own() -> None:
    """Two scenarios of one run show different platform pod names (issue 30, session 11):
    an agent serving both cannot carry a pod's name, or its address, from one cluster to
    the next (spec 04 §1). The same scenario gets the same ones; a name keeps its
    ReplicaSet's prefix, and every reference to a pod follows it."""
    tpl = platform.build(0, EPOCH)
    a, again, b = _fresh("one"), _fresh("one"), _fresh("two")
    for env in (a, again, b):
        platform.install(env, tpl)
    template_names = {name for _, name in tpl.pods}
    assert _pods(a) == _pods(again)
    assert len(_pods(a)) == len(tpl.pods) > 10
    assert not set(_pods(a)) & set(_pods(b))
    assert not set(_pods(a)) & template_names
    assert {n.rpartition("-")[0] for n in _pods(a)} == {
        n.rpartition("-")[0] for n in template_names
    }
    # the addresses: the template's set on each node, not each pod's template address
    assert sorted(_pods(a).values()) == sorted(tpl.ips.values())

    def by_role(names: dict[str, str]) -> list[tuple[str, str]]:
        """(ReplicaSet, address) of each pod in order by name: what one scenario teaches."""
        return [(name.rpartition("-")[0], names[name]) for name in sorted(names)]

    template = {
        o["metadata"]["name"]: o["status"]["podIP"] for k, o in tpl.built() if k[0] == "pods"
    }
    assert len({str(by_role(_pods(env))) for env in (a, b)} | {str(by_role(template))}) == 3
    for env in (a, b):
        names, uids = _pods(env), {o["metadata"]["uid"] for _, o in env.store.items()}
        for key, obj in env.store.items():
            assert key[2] == obj["metadata"]["name"]
            for subset in obj.get("subsets") or []:
                for addr in subset.get("addresses") or []:
                    assert names[addr["targetRef"]["name"]] == addr["ip"]
                    assert addr["targetRef"]["uid"] in uids
        for key in env.facts:
            assert key[0] != "pods" or key[2] in names
    text = json.dumps(sorted(a.store.items())) + json.dumps(sorted(map(str, a.facts)))
    assert not [name for name in template_names if name in text]


def test_two_scenarios_of_one_run_show_different_platform_pods() -> None:
    """Through the provider, as a run provisions: two scenarios' platform pods share no
    name, and a pod one scenario deletes is still in the next (spec 04 §1)."""
    provider = SimK8sProvider(seeded_ids=True)
    first_id, second_id = scenario_ids("example")[:2]
    _, first = provision(provider, "example", first_id)
    names = _pods(first)
    victim = next(n for n in sorted(names) if n.startswith("coredns-"))
    first.store.delete("pods", "kube-system", victim)
    _, second = provision(provider, "example", second_id)
    _, first_again = provision(provider, "example", first_id)
    assert not set(_pods(second)) & set(names)
    assert _pods(first_again) == names  # the deleted pod is back in a new environment
    assert len([n for n in _pods(second) if n.startswith("coredns-")]) == 2


def test_a_copied_platform_is_what_a_full_pass_derives() -> None:
    """A controller pass that trusts no memo stores nothing over the copy: the renamed pods
    and moved addresses are consistent with everything derived from them (listing order,
    Endpoints), as a platform built inside the environment would be."""
    env = _fresh("one")
    platform.install(env, platform.build(0, EPOCH))
    before = json.dumps(sorted(env.store.items()), sort_keys=True)
    version = env.store.resource_version
    incremental, settled.INCREMENTAL = settled.INCREMENTAL, False
    try:
        controllers.reconcile(env)
    finally:
        settled.INCREMENTAL = incremental
    assert env.store.resource_version == version
    assert json.dumps(sorted(env.store.items()), sort_keys=True) == before


def test_the_scenarios_draws_do_not_depend_on_the_platform(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With one platform Deployment fewer, the scenario's own objects keep their uids and
    names: the platform draws from a stream of its own."""
    sid = scenario_ids("example")[0]

    def scenario_objects() -> dict[tuple[str, str, str], str]:
        _, env = provision(SimK8sProvider(seeded_ids=True), "example", sid)
        return {
            k: o["metadata"]["uid"]
            for k, o in env.store.items()
            if k[1] not in PLATFORM_NS and k[0] not in ("nodes", "clusterroles")
        }

    full = scenario_objects()
    smaller = {ns: list(deps) for ns, deps in baseline.PLATFORM.items()}
    smaller["monitoring"] = smaller["monitoring"][:-1]
    monkeypatch.setattr(baseline, "PLATFORM", smaller)
    assert scenario_objects() == full


def test_a_later_clock_start_moves_every_platform_time_by_whole_seconds() -> None:
    """An environment starting 1000 s after the template gets the platform a template built
    at its own start would give: every timestamp moved, nothing else changed."""
    later = EPOCH + timedelta(seconds=1000)
    shifted, direct = _fresh("one", later), _fresh("one", later)
    platform.install(shifted, platform.build(0, EPOCH))
    platform.install(direct, platform.build(0, later))
    assert sorted(shifted.store.items()) == sorted(direct.store.items())
    assert shifted.audit.entries == direct.audit.entries
    assert shifted.facts == direct.facts
    assert shifted.clock.ms == direct.clock.ms
    node = shifted.store.raw("nodes", "", "node-1")
    assert node is not None
    assert node["metadata"]["creationTimestamp"] == "2024-02-14T09:46:40Z"
    assert shifted.audit.entries[0]["timestamp"].startswith("2024-05-14T09:46:40.")


def test_a_copied_platform_is_settled() -> None:
    """The copy carries the controllers' memo: a pass over it stores nothing and derives no
    platform pod again, as the second pass inside each environment left it."""
    env = _fresh("one")
    platform.install(env, platform.build(0, EPOCH))
    before = env.store.resource_version
    controllers.reconcile(env)
    assert env.store.resource_version == before


def test_a_provisioned_environment_starts_from_the_template_not_from_creates(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One provider builds the platform once for all its environments (the saving)."""
    built: list[Any] = []
    real = platform.build

    def counted(seed: Any, start: Any) -> platform.Template:
        built.append(seed)
        return real(seed, start)

    monkeypatch.setattr(platform, "build", counted)
    provider = SimK8sProvider(seeded_ids=True)
    for sid in scenario_ids("example")[:3]:
        provision(provider, "example", sid)
    assert built == [0]
    assert Ids("0:platform").uid() != Ids(f"0:{scenario_ids('example')[0]}").uid()


def test_a_platform_holding_what_the_copy_leaves_out_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = baseline.build

    def with_logs(env: Any, user: str) -> None:
        real(env, user)
        env.logs.add_source("monitoring", "grafana", ["a line"])

    monkeypatch.setattr(baseline, "build", with_logs)
    with pytest.raises(RuntimeError, match="does not copy logs"):
        platform.build(0, EPOCH)
