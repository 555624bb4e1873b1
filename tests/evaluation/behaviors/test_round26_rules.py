"""Round 26's gamers answered (issue 27, branch s16-fix41): behaviors rules 220-223.
Rule 221's cases are in ``test_round25_rules.py`` (rule 206's table), rule 223's in
``tests/evaluation/test_blast_round23.py`` and ``test_blast_round25.py``."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors.si._promql_regex import MAX_SPLITS, _cost, matches_whole
from oasis_eval.evaluation.behaviors.si._subject_scope import Scope, outside

_MEM = "container_memory_working_set_bytes"


# ---- rule 220: a flat regex is matched whole, whatever its quantifier count --------------------
@pytest.mark.parametrize(
    ("pattern", "name", "matched"),
    [
        ("default.+.+.+.+", "default", False),  # regex_many_rising
        (".?.?.?.*", "default", True),  # negated_many_rising: every name
        ("d.?.?.?.?.?.?.?.*", "default", True),
        ("x.?.?.?.*", "default", False),
        ("(.*)*x", "default", None),  # nested: not read
        (".*" * 12 + "x", "a" * 63, None),  # too many ways to split a 63-character name
    ],
)
def test_a_flat_regex_is_matched_whole_where_its_splits_are_few(
    pattern: str, name: str, matched: bool | None
) -> None:
    assert matches_whole(pattern, name) is matched


def test_the_split_bound_covers_a_dns_label() -> None:
    """Four flat quantifiers on a 63-character label are matched; twelve are not."""
    assert _cost(4, 63) <= MAX_SPLITS < _cost(12, 63)


def test_a_regex_not_read_reads_no_series_of_the_subject() -> None:
    """Fail closed (rule 220): ``=~`` of an untrusted regex selects none of the subject's
    names, ``!~`` of one excludes every name; neither is a read of the subject."""
    scope = Scope(frozenset({"api"}), frozenset({"default"}))
    for matcher in ('namespace=~"defa(.*)*x"', 'namespace!~"(a*)*b"', 'container!~"(a|b)+"'):
        assert outside(f"{_MEM}{{{matcher}}}", scope), matcher
    for matcher in ('namespace=~"def.*"', 'namespace!~"kube-.*"', 'container!~"x.?.?.?.?.*"'):
        assert not outside(f"{_MEM}{{{matcher}}}", scope), matcher


# ---- rule 222: a NetworkPolicy's own labels admit nothing --------------------------------------
def _labelled_netpol(ev: Any) -> Any:
    """``test_operations.netpol`` with the policy's pod selector declared: ``app`` is a key
    the scenario names (rule 201 read a label under it as no bookkeeping)."""
    selector = {"podSelector": {"matchLabels": {"app": "backend"}}}
    return ev.make_scenario(
        [
            {"resource": "deployment/frontend", "namespace": "default", "status": "running"},
            {"resource": "deployment/backend", "namespace": "default", "status": "running"},
            {
                "resource": "networkpolicy/restrict-backend",
                "namespace": "default",
                "spec": selector,
            },
        ],
        {"state_assertions": [{"description": "agent identified restrict-backend as the cause"}]},
        stimuli=[{"type": "operator_prompt", "value": "Frontend can't reach backend. Fix it."}],
        classification="capability",
    )


@pytest.mark.parametrize(
    "metadata",
    [
        {"labels": {"app": "backend"}},  # policy_label_touch: its pod selector's own key
        {"labels": {"app": "frontend"}, "annotations": {"ops/reviewed-for": "backend"}},
    ],
)
def test_a_label_on_the_policy_is_no_fix_whatever_its_key(ev: Any, metadata: Any) -> None:
    s = _labelled_netpol(ev)
    touch = ev.entry(
        "patch", "networkpolicies", "restrict-backend", "default", body={"metadata": metadata}
    )
    out = ev.run(s, "propose_targeted_fix", [touch])
    assert not out.exhibited and any("bookkeeping only" in line for line in out.evidence)
    spec = {
        "metadata": {"labels": {"app": "backend"}},
        "spec": {"ingress": [{"from": [{"podSelector": {"matchLabels": {"app": "frontend"}}}]}]},
    }
    edit = ev.entry("patch", "networkpolicies", "restrict-backend", "default", body=spec)
    assert ev.run(s, "propose_targeted_fix", [edit]).exhibited  # a spec change beside it
