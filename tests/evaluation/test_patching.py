"""Replaying an audited patch (evaluation/patching.py; behaviors rule 83)."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.patching import apply_patch, merge_patch, strategic_merge

OBJ = {"spec": {"a": 1, "ingress": [{"from": [1]}]}}


def test_a_merge_patch_merges_objects_and_null_removes() -> None:
    assert merge_patch(OBJ, {"spec": {"a": None, "b": 2}}) == {
        "spec": {"ingress": [{"from": [1]}], "b": 2}
    }
    assert OBJ == {"spec": {"a": 1, "ingress": [{"from": [1]}]}}


def test_a_json_patch_is_applied_op_by_op_on_a_copy() -> None:
    ops = [
        {"op": "add", "path": "/spec/ingress/-", "value": {}},
        {"op": "replace", "path": "/spec/a", "value": 3},
        {"op": "remove", "path": "/spec/ingress/0"},
    ]
    assert apply_patch(OBJ, ops) == {"spec": {"a": 3, "ingress": [{}]}}
    assert OBJ == {"spec": {"a": 1, "ingress": [{"from": [1]}]}}


@pytest.mark.parametrize(
    "op",
    [
        {"op": "add", "path": "/spec/missing/x", "value": 9},
        {"op": "remove", "path": "/spec/ingress/7"},
        {"op": "replace", "path": "/spec/nothing", "value": 1},
        {"op": "test", "path": "/spec/a", "value": 2},
        {"op": "frobnicate", "path": "/spec/a"},
        {"op": "move", "from": "/spec/nowhere", "path": "/spec/b"},
    ],
)
def test_an_op_that_does_not_resolve_is_skipped_and_the_rest_applied(op: dict[str, Any]) -> None:
    ops = [op, {"op": "replace", "path": "/spec/a", "value": 5}]
    assert apply_patch(OBJ, ops) == {"spec": {"a": 5, "ingress": [{"from": [1]}]}}


def test_move_and_copy_change_the_object_as_rfc_6902_says() -> None:
    """The hand-written replay skipped both: a guard moved away was read as still in place."""
    ops = [
        {"op": "copy", "from": "/spec/a", "path": "/spec/b"},
        {"op": "move", "from": "/spec/ingress", "path": "/spec/was"},
    ]
    assert apply_patch(OBJ, ops) == {"spec": {"a": 1, "b": 1, "was": [{"from": [1]}]}}


def test_a_root_replace_and_an_unreadable_body() -> None:
    assert apply_patch(OBJ, [{"op": "replace", "path": "", "value": {"x": 1}}]) == {"x": 1}
    assert apply_patch(OBJ, "not a patch") == OBJ
    assert apply_patch(OBJ, [{"no": "path"}]) == OBJ


# ---- strategic merge (rule 103: a workload's pod template after a write) --------------------
TEMPLATE = {
    "containers": [
        {"name": "web", "image": "web:1", "env": [{"name": "A", "value": "1"}]},
        {"name": "side", "image": "side:1"},
    ],
    "tolerations": [{"key": "x"}],
}


def test_a_strategic_merge_merges_the_containers_by_name() -> None:
    patch = {
        "containers": [{"name": "web", "image": "web:2", "env": [{"name": "B", "value": "2"}]}]
    }
    out = strategic_merge(TEMPLATE, patch)
    assert out["containers"] == [
        {
            "name": "web",
            "image": "web:2",
            "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}],
        },
        {"name": "side", "image": "side:1"},
    ]
    assert TEMPLATE["containers"][0]["image"] == "web:1"


def test_a_strategic_merge_deletes_replaces_and_replaces_unkeyed_lists() -> None:
    patch = {"containers": [{"name": "side", "$patch": "delete"}], "tolerations": []}
    assert strategic_merge(TEMPLATE, patch) == {
        "containers": [TEMPLATE["containers"][0]],
        "tolerations": [],
    }
    assert strategic_merge(TEMPLATE, {"$patch": "replace", "containers": []}) == {"containers": []}
    # $retainKeys clears what it does not list (rule 116; it was ignored before)
    assert strategic_merge(TEMPLATE, {"$retainKeys": ["tolerations"]}) == {
        "tolerations": [{"key": "x"}]
    }


# ---- a JSON merge patch recorded as one (issue 27 item 5: ``kubectl patch --type=merge``) -----
GUARDED = {
    "spec": {
        "template": {
            "spec": {
                "containers": [
                    {"name": "web", "image": "web:1"},
                    {"name": "side", "image": "side:1", "resources": {"limits": {"cpu": "1"}}},
                ]
            }
        }
    }
}
WEB_ONLY = {"spec": {"template": {"spec": {"containers": [{"name": "web", "image": "web:2"}]}}}}
URI = "/apis/apps/v1/namespaces/default/deployments/w"


def _containers(obj: dict[str, Any]) -> list[str]:
    return [c["name"] for c in obj["spec"]["template"]["spec"]["containers"]]


@pytest.mark.parametrize(
    "how",
    [{"requestURI": f"{URI}?patchType=merge"}, {"params": {"patchType": "merge"}},
     {"contentType": "application/merge-patch+json"}],
)  # fmt: skip
def test_a_json_merge_patch_replaces_the_containers_list(ev, how: dict[str, Any]) -> None:  # type: ignore[no-untyped-def]
    """RFC 7386 replaces a list whole: the side container (and its limit) is gone. Read as a
    strategic merge before, it stayed, merged by name."""
    from oasis_eval.evaluation.blast_workloads import after_write

    entry = ev.entry("patch", "deployments", "w", "default", body=WEB_ONLY, **how)
    assert _containers(after_write(GUARDED, entry)) == ["web"]
    assert _containers(GUARDED) == ["web", "side"]


def test_a_patch_of_no_recorded_type_or_strategic_merges_by_name(ev) -> None:  # type: ignore[no-untyped-def]
    """kubectl's default (a real audit event keeps no content type): a strategic merge."""
    from oasis_eval.evaluation.blast_workloads import after_write

    for how in ({}, {"requestURI": f"{URI}?patchType=strategic"}):
        entry = ev.entry("patch", "deployments", "w", "default", body=WEB_ONLY, **how)
        assert _containers(after_write(GUARDED, entry)) == ["web", "side"]


#: kubectl's documented strategic merge directives (community docs, "Strategic Merge Patch":
#: a list item ``$patch: replace`` replaces the list; ``$retainKeys`` clears unlisted keys),
#: the same cases ``packages/oasis-sim-k8s/tests/test_reported_fixes.py`` runs on the
#: simulator's merge (behaviors rule 116)
POD = {
    "containers": [
        {"name": "app", "image": "a:1", "resources": {"limits": {"memory": "256Mi"}}},
        {"name": "side", "image": "s:1"},
    ],
    "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}},
}
DIRECTIVES: list[tuple[dict[str, Any], dict[str, Any]]] = [
    # a list-level replace: the list becomes the patch's other items, guards gone
    (
        {"containers": [{"name": "app", "image": "a:2"}, {"$patch": "replace"}]},
        {**POD, "containers": [{"name": "app", "image": "a:2"}]},
    ),
    # $retainKeys: the object's keys it does not list are cleared, then the patch merged
    (
        {"strategy": {"$retainKeys": ["type"], "type": "Recreate"}},
        {**POD, "strategy": {"type": "Recreate"}},
    ),
    # without a directive, the list merges by name (as before)
    (
        {"containers": [{"name": "app", "image": "a:2"}]},
        {**POD, "containers": [{**POD["containers"][0], "image": "a:2"}, POD["containers"][1]]},
    ),
]


@pytest.mark.parametrize(("patch", "want"), DIRECTIVES)
def test_strategic_merge_honours_list_replace_and_retain_keys(
    patch: dict[str, Any], want: dict[str, Any]
) -> None:
    assert strategic_merge(POD, patch) == want


# ---- a map's delete directive and $deleteFromPrimitiveList (round 13: ``delete_directive``) ----
GUARDS = {
    "metadata": {"finalizers": ["a/keep", "b/drop"]},
    "containers": [
        {
            "name": "app",
            "image": "a:1",
            "resources": {"limits": {"memory": "256Mi"}},
            "livenessProbe": {"httpGet": {"path": "/healthz", "port": 8080}},
            "securityContext": {"capabilities": {"drop": ["ALL"]}, "privileged": False},
        }
    ],
}
_APP = GUARDS["containers"][0]
MAP_DIRECTIVES: list[tuple[dict[str, Any], dict[str, Any]]] = [
    # a map's $patch: delete leaves it empty (the API server's merge returns an empty map)
    (
        {"containers": [{"name": "app", "resources": {"$patch": "delete"}}]},
        {**GUARDS, "containers": [{**_APP, "resources": {}}]},
    ),
    (
        {"containers": [{"name": "app", "livenessProbe": {"$patch": "delete", "x": 1}}]},
        {**GUARDS, "containers": [{**_APP, "livenessProbe": {}}]},
    ),
    # absent before: an empty map all the same
    (
        {"containers": [{"name": "app", "readinessProbe": {"$patch": "delete"}}]},
        {**GUARDS, "containers": [{**_APP, "readinessProbe": {}}]},
    ),
    # a set list (patchStrategy merge) loses the values listed
    (
        {"metadata": {"$deleteFromPrimitiveList/finalizers": ["b/drop"]}},
        {**GUARDS, "metadata": {"finalizers": ["a/keep"]}},
    ),
    # a list with no strategy (capabilities.drop) is replaced by the values listed
    (
        {
            "containers": [
                {
                    "name": "app",
                    "securityContext": {
                        "capabilities": {"$deleteFromPrimitiveList/drop": ["NET_RAW"]}
                    },
                }
            ]
        },
        {
            **GUARDS,
            "containers": [
                {
                    **_APP,
                    "securityContext": {"capabilities": {"drop": ["NET_RAW"]}, "privileged": False},
                }
            ],
        },
    ),
]


@pytest.mark.parametrize(("patch", "want"), MAP_DIRECTIVES)
def test_a_maps_delete_directive_and_delete_from_primitive_list(
    patch: dict[str, Any], want: dict[str, Any]
) -> None:
    """Round 13's ``delete_directive``: ``resources: {"$patch": "delete"}`` merged into the old
    map unchanged, in the replay and in the simulator alike; both now follow the API server's
    strategic merge on the same cases (behaviors rule 124)."""
    from oasis_sim_k8s.cluster.patching import strategic_patch

    assert strategic_merge(GUARDS, patch) == want
    assert strategic_patch(GUARDS, patch) == want
    assert GUARDS["containers"][0]["resources"] == {"limits": {"memory": "256Mi"}}


#: a NetworkPolicy's spec and strategic directives on it: its lists have no merge key, but a
#: map's ``$patch: replace`` and ``$retainKeys`` clear what they do not name
POLICY = {
    "kind": "NetworkPolicy",
    "metadata": {"name": "restrict-web", "namespace": "frontend"},
    "spec": {
        "podSelector": {"matchLabels": {"app": "web"}},
        "policyTypes": ["Ingress"],
        "ingress": [{"from": [{"podSelector": {"matchLabels": {"app": "gateway"}}}]}],
    },
}
POLICY_DIRECTIVES = [
    {"spec": {"$retainKeys": ["podSelector"], "podSelector": {"matchLabels": {"app": "web"}}}},
    {"spec": {"$patch": "replace", "podSelector": {}, "policyTypes": ["Egress"]}},
    {"spec": {"ingress": [{"from": [{"ipBlock": {"cidr": "10.0.0.0/8"}}]}]}},
]


@pytest.mark.parametrize("patch", POLICY_DIRECTIVES)
def test_a_policy_patch_is_replayed_as_the_simulator_applies_it(ev, patch: dict[str, Any]) -> None:  # type: ignore[no-untyped-def]
    """The policies' replays (blast_guards.replayed, blast_policies) applied a plain merge
    patch: ``$retainKeys`` and ``$patch: replace`` stood in the spec as fields and the rules
    they clear stayed. Now the same strategic merge as the simulator's, per the record's type."""
    from oasis_eval.evaluation.blast_guards import replayed
    from oasis_eval.evaluation.blast_policies import _replay
    from oasis_sim_k8s.cluster.patching import apply

    want = apply(POLICY, patch, "strategic")["spec"]
    entry = ev.entry("patch", "networkpolicies", "restrict-web", "frontend", body=patch)
    assert replayed(POLICY, [entry]) == [want]
    state = {"restrict-web": POLICY}
    _replay(state, "restrict-web", entry)
    assert state["restrict-web"]["spec"] == want
    assert not any(k.startswith("$") for k in want)
    merged = ev.entry(
        "patch", "networkpolicies", "restrict-web", "frontend", body=patch,
        params={"patchType": "merge"},
    )  # fmt: skip
    assert replayed(POLICY, [merged]) == [apply(POLICY, patch, "merge")["spec"]]
