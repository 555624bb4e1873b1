"""The object store's copies and listing order (the fast paths keep the plain semantics)."""

from __future__ import annotations

from collections import OrderedDict

import pytest

from oasis_sim_k8s.cluster.clock import Ids, SimClock
from oasis_sim_k8s.cluster.store import ObjectStore, clone


def _store() -> ObjectStore:
    return ObjectStore(SimClock(), Ids("test"))


def test_clone_is_deep_for_dicts_and_lists_and_shares_the_rest() -> None:
    leaf = ("tuple", ["inside"])
    value = {"a": [{"b": [1, 2.5, None, True, "s"]}, []], "t": leaf, "o": OrderedDict(x={"y": 1})}
    copy = clone(value)
    assert copy == value
    assert copy["a"] is not value["a"] and copy["a"][0] is not value["a"][0]
    assert copy["a"][0]["b"] is not value["a"][0]["b"]
    assert copy["t"] is leaf  # anything but dicts and lists is shared, as before
    assert type(copy["o"]) is dict and copy["o"]["x"] is not value["o"]["x"]
    copy["a"][0]["b"].append(9)
    assert value["a"][0]["b"] == [1, 2.5, None, True, "s"]


def test_create_returns_a_copy_and_insert_the_stored_object() -> None:
    store = _store()
    body = {"kind": "ConfigMap", "metadata": {"name": "a", "namespace": "n"}, "data": {"k": "v"}}
    returned = store.create(body)
    stored = store.raw("configmaps", "n", "a")
    assert returned == stored and returned is not stored and body["data"] is not stored["data"]
    inserted = store.insert({"kind": "ConfigMap", "metadata": {"name": "b", "namespace": "n"}})
    assert inserted is store.raw("configmaps", "n", "b")


def test_iter_follows_creates_and_deletes_in_key_order() -> None:
    store = _store()
    for ns, name in (("n2", "b"), ("n1", "z"), ("n1", "a")):
        store.create({"kind": "ConfigMap", "metadata": {"name": name, "namespace": ns}})

    def names(ns: str | None = None) -> list[tuple[str, str]]:
        return [
            (o["metadata"]["namespace"], o["metadata"]["name"])
            for o in store.iter("configmaps", ns)
        ]

    assert names() == [("n1", "a"), ("n1", "z"), ("n2", "b")]
    assert names("n1") == [("n1", "a"), ("n1", "z")]
    store.create({"kind": "ConfigMap", "metadata": {"name": "m", "namespace": "n1"}})
    store.delete("configmaps", "n1", "a")
    assert names("n1") == [("n1", "m"), ("n1", "z")]
    assert names() == [("n1", "m"), ("n1", "z"), ("n2", "b")]
    # an iteration in progress skips what is deleted meanwhile and does not visit what is created
    seen = []
    for obj in store.iter("configmaps"):
        seen.append(obj["metadata"]["name"])
        if obj["metadata"]["name"] == "m":
            store.delete("configmaps", "n1", "z")
            store.create({"kind": "ConfigMap", "metadata": {"name": "c", "namespace": "n1"}})
    assert seen == ["m", "b"]


def test_insert_fresh_stores_the_built_object_itself_and_fills_its_metadata() -> None:
    """Controllers hand over objects they just built (issue 30): no copy, same metadata."""
    store = _store()
    built = {"kind": "ConfigMap", "metadata": {"name": "c", "namespace": "n"}, "data": {"k": "v"}}
    stored = store.insert(built, fresh=True)
    assert stored is built and store.raw("configmaps", "n", "c") is built
    assert built["apiVersion"] == "v1" and built["metadata"]["uid"]
    assert built["metadata"]["resourceVersion"] == store.resource_version
    kept = {"kind": "ConfigMap", "metadata": {"name": "d", "namespace": "n"}, "data": {"k": "v"}}
    copied = store.insert(kept)  # the default still copies the caller's body
    assert (
        copied is not kept and copied["data"] is not kept["data"] and "uid" not in kept["metadata"]
    )


def test_insert_draws_a_uid_for_an_object_that_has_one_and_keeps_its_time() -> None:
    """The uid an object brings is kept, yet a uid is drawn as before (issue 30: drawn
    without being formatted), so every later uid is the one it always was."""
    store, plain = _store(), Ids("test")
    given = store.insert(
        {
            "kind": "ConfigMap",
            "metadata": {"name": "a", "namespace": "n", "uid": "u-1", "creationTimestamp": "t"},
        }
    )
    assert given["metadata"]["uid"] == "u-1" and given["metadata"]["creationTimestamp"] == "t"
    plain.uid()  # the draw the given uid replaced
    drawn = store.insert({"kind": "ConfigMap", "metadata": {"name": "b", "namespace": "n"}})
    assert drawn["metadata"]["uid"] == plain.uid()
    assert drawn["metadata"]["creationTimestamp"] == store.clock.ts()


def test_uids_are_the_version_4_uuids_of_the_drawn_bits() -> None:
    import random
    import uuid

    ids, plain = Ids("uuid"), Ids("uuid")
    for _ in range(200):
        assert ids.uid() == str(uuid.UUID(int=plain.rng.getrandbits(128), version=4))
    for bits in (0, 2**128 - 1, random.Random(7).getrandbits(128)):
        ids.rng = random.Random(0)
        ids.rng.getrandbits = lambda _k, bits=bits: bits  # type: ignore[method-assign]
        assert ids.uid() == str(uuid.UUID(int=bits, version=4))


def test_a_watermark_moves_with_every_write_to_its_resource_and_namespace_only() -> None:
    """``mark`` stands for the names and resourceVersions of a resource in a namespace (the
    controllers' memo compares it, ``settled.py``): every write there moves it, a read or a
    write elsewhere does not."""
    store = _store()
    seen = [store.mark("configmaps", "n")]

    def moved() -> bool:
        seen.append(store.mark("configmaps", "n"))
        return seen[-1] != seen[-2]

    cm = store.insert({"kind": "ConfigMap", "metadata": {"name": "a", "namespace": "n"}})
    assert moved()
    store.insert({"kind": "ConfigMap", "metadata": {"name": "a", "namespace": "m"}})
    store.insert({"kind": "Secret", "metadata": {"name": "a", "namespace": "n"}})
    store.get("configmaps", "n", "a")
    list(store.iter("configmaps", "n"))
    assert not moved()
    store.touch(cm)
    assert moved()
    store.replace({"kind": "ConfigMap", "metadata": {"name": "a", "namespace": "n"}, "data": {}})
    assert moved()
    store.delete("configmaps", "n", "absent")
    assert not moved()
    store.delete("configmaps", "n", "a")
    assert moved()
    node = store.insert({"kind": "Node", "metadata": {"name": "node-1"}})
    before = store.mark("nodes", "")
    store.touch(node)
    assert store.mark("nodes", "") != before


def test_a_listed_watermark_fills_the_listing_cache_as_a_listing() -> None:
    store, other = _store(), _store()
    for s in (store, other):
        for ns, name in (("n2", "b"), ("n1", "z"), ("n1", "a")):
            s.insert({"kind": "Pod", "metadata": {"name": name, "namespace": ns}})
    store.mark("pods", "n1", listed=True)
    list(other.iter("pods", "n1"))
    assert store._sorted == other._sorted


def test_plural_of_is_kept_per_spelling_and_refuses_what_is_not_text() -> None:
    from oasis_sim_k8s.cluster import store as store_module

    store_module._plural_of_text.cache_clear()
    for _ in range(3):
        assert store_module.plural_of(" Deployment.apps ") == "deployments"
        assert store_module.plural_of("deploy") is None
    assert store_module._plural_of_text.cache_info().hits == 4
    with pytest.raises(AttributeError):
        store_module.plural_of(["Pod"])  # type: ignore[arg-type]


def _scan(store: ObjectStore, plural: str, ns: str, uid: object) -> list[object]:
    return [
        o
        for o in store.iter(plural, ns)
        if any(r.get("uid") == uid for r in o["metadata"].get("ownerReferences") or ())
    ]


def test_the_owner_index_answers_as_a_scan_through_every_kind_of_write() -> None:
    """``owned`` is kept per namespace until an object there is stored, replaced or deleted:
    after each write it answers what a look at every object answers, in listing order."""
    store = _store()

    def pod(name: str, *owners: object, ns: str = "n") -> dict[str, object]:
        refs = [{"uid": u, "kind": "ReplicaSet", "name": "rs"} for u in owners]
        return {"kind": "Pod", "metadata": {"name": name, "namespace": ns, "ownerReferences": refs}}

    owners = ("a", "b", "c", ["not", "text"])

    def agrees() -> None:
        for ns in ("n", "m"):
            for uid in owners:
                got = store.owned("pods", ns, uid)
                assert got == _scan(store, "pods", ns, uid)
                assert all(x is y for x, y in zip(got, _scan(store, "pods", ns, uid), strict=True))

    agrees()
    store.insert(pod("p2", "a"))
    agrees()
    store.insert(pod("p1", "a", "b", "a"))  # named twice: listed once
    store.insert(pod("p3", ["not", "text"]))
    store.insert(pod("q", "a", ns="m"))
    agrees()
    assert [p["metadata"]["name"] for p in store.owned("pods", "n", "a")] == ["p1", "p2"]
    store.touch(store.raw("pods", "n", "p1"))
    agrees()
    store.replace(pod("p2", "c"))
    agrees()
    store.delete("pods", "n", "p1")
    agrees()
    got = store.owned("pods", "n", "c")
    got.clear()  # a new list each time
    assert store.owned("pods", "n", "c")


def test_the_owner_index_leaves_the_listing_caches_as_a_listing() -> None:
    store, other = _store(), _store()
    for s in (store, other):
        s.insert({"kind": "Pod", "metadata": {"name": "a", "namespace": "n"}})
    store.owned("pods", "n", "x")
    for s in (store, other):
        s.insert({"kind": "Pod", "metadata": {"name": "b", "namespace": "m"}})
    store.owned("pods", "n", "x")  # the index is kept; the caches are filled again
    list(other.iter("pods", "n"))
    assert store._sorted == other._sorted
