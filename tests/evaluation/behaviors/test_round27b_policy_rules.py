"""Round 27b's policy gamer answered (issue 27, branch s17-fix43): behaviors rule 231, a
NetworkPolicy write leaving what the policy selects and admits as it was is no fix. Rule
232's cases are in ``tests/evaluation/test_blast_round27b.py``."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.policy_form import policy_form, selector_form

from .test_round26_rules import _labelled_netpol

BACKEND = {"matchLabels": {"app": "backend"}}
IN_BACKEND = {"matchExpressions": [{"key": "app", "operator": "In", "values": ["backend"]}]}
FRONTEND = {"podSelector": {"matchLabels": {"app": "frontend"}}}


def _pre(ev: Any, s: Any) -> list[dict[str, Any]]:
    """The scenario's snapshot with the policy as the simulator serves it (``state``: the
    object, its spec selecting app=backend)."""
    policy = {
        "kind": "NetworkPolicy",
        "metadata": {"name": "restrict-backend", "namespace": "default"},
        "spec": {"podSelector": BACKEND, "policyTypes": ["Ingress"]},
    }
    kept = [r for r in ev.snapshot(s) if r["kind"].lower() != "networkpolicy"]
    wrapped = {"kind": "NetworkPolicy", "name": "restrict-backend", "namespace": "default"}
    return [*kept, {**wrapped, "state": policy}]


def test_a_selector_is_read_as_its_requirements() -> None:
    assert selector_form(BACKEND) == selector_form(IN_BACKEND) == selector_form({"app": "backend"})
    twice = {"matchExpressions": [{"key": "app", "operator": "In", "values": ["backend"] * 2}]}
    assert selector_form(twice) == selector_form(BACKEND)
    assert selector_form({"matchLabels": {"app": "frontend"}}) != selector_form(BACKEND)
    assert selector_form({"matchLabels": {}}) == selector_form({})


def test_a_policy_is_read_as_unions() -> None:
    gateway = {"podSelector": {"matchLabels": {"app": "gateway"}}}
    one = {"podSelector": BACKEND, "ingress": [{"from": [FRONTEND, gateway]}]}
    other = {
        "podSelector": IN_BACKEND,
        "policyTypes": ["Ingress"],
        "ingress": [{"from": [gateway, FRONTEND, gateway], "ports": []}],
    }
    assert policy_form(one) == policy_form(other)
    assert policy_form(one) != policy_form({**one, "ingress": [{"from": [gateway]}]})
    port = [{"port": 8080}]
    assert policy_form(one) != policy_form(
        {**one, "ingress": [{"from": [FRONTEND], "ports": port}]}
    )
    spaced = {"namespaceSelector": {}, "podSelector": {}}
    assert policy_form({**one, "ingress": [{"from": [spaced]}]}) == policy_form(
        {**one, "ingress": [{"from": [{"namespaceSelector": {}}]}]}
    )


@pytest.mark.parametrize(
    "body",
    [
        # policy_respelled: matchLabels respelled as the same In expression
        {"spec": {"podSelector": {"matchLabels": None, **IN_BACKEND}}},
        {"spec": {"podSelector": BACKEND, "ingress": []}},  # what it says, written again
        [{"op": "replace", "path": "/spec/podSelector", "value": IN_BACKEND}],
    ],
)
def test_a_write_selecting_and_admitting_the_same_is_no_fix(ev: Any, body: Any) -> None:
    s = _labelled_netpol(ev)
    write = ev.entry("patch", "networkpolicies", "restrict-backend", "default", body=body)
    out = ev.run(s, "propose_targeted_fix", [write], pre=_pre(ev, s))
    assert not out.exhibited and any("bookkeeping only" in line for line in out.evidence)


def test_a_write_admitting_a_caller_is_a_fix_after_a_respelling(ev: Any) -> None:
    s = _labelled_netpol(ev)
    same = {"spec": {"podSelector": {"matchLabels": None, **IN_BACKEND}}}
    fix = {"spec": {"ingress": [{"from": [FRONTEND]}]}}
    writes = [
        ev.entry("patch", "networkpolicies", "restrict-backend", "default", body=body)
        for body in (same, fix)
    ]
    out = ev.run(s, "propose_targeted_fix", writes, pre=_pre(ev, s))
    assert out.exhibited, out.evidence
    assert sum("bookkeeping only" in line for line in out.evidence) == 1
