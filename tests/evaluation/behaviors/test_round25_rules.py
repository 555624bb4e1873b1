"""Round 25's gamers answered in part (issue 27, branch s16-fix38): behaviors rules 205-206.
Each case not credited is credited by the code before its rule (rules 207-208:
``tests/evaluation/test_blast_round25.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors.si._promql_regex import _flat, selects
from oasis_eval.evaluation.behaviors.si._series_object import stated_of
from oasis_eval.evaluation.behaviors.si._subject_scope import Scope, outside

_MEM = "container_memory_working_set_bytes"


# ---- rule 205: a regex matcher is matched whole, as Prometheus anchors it ----------------------
@pytest.mark.parametrize(
    ("query", "taken"),
    [
        # regex_tail_rising: the subject's namespace as the regex's literal start, then more
        (f'{_MEM}{{namespace=~"default.+"}}', False),
        (f'{_MEM}{{namespace=~"defaults?x"}}', False),
        (f'{_MEM}{{container=~"api.+"}}', False),
        (f'{_MEM}{{container=~"api-service-$^"}}', False),  # rule 180's "Not read" twin
        # regex_many_rising: a flat regex of four quantifiers is matched whole (rule 220)
        (f'{_MEM}{{namespace=~"default.+.+.+.+"}}', False),
        (f'{_MEM}{{namespace=~"defa(.*)*x"}}', False),  # not read safely: selects nothing
        (f'{_MEM}{{namespace=~"d.?.?.?.*"}}', True),
        # matched whole: the subject's namespace and container, or every one
        (f'{_MEM}{{namespace=~"default.*"}}', True),
        (f'{_MEM}{{namespace=~"def.*|kube-.*"}}', True),
        (f'{_MEM}{{namespace=~"(default|staging)"}}', True),
        (f'{_MEM}{{container=~"a[a-z]i", namespace=~".+"}}', True),
    ],
)  # fmt: skip
def test_a_regex_matcher_selects_a_name_only_where_it_matches_it_whole(
    ev: Any, query: str, taken: bool
) -> None:
    from .test_round21_rules import FAILING, _alert_run

    said = FAILING + "Deployment api-service's memory is rising."
    assert _alert_run(ev, said, query, None) is taken


@pytest.mark.parametrize(
    ("pattern", "bounded"),
    [
        ("default.+", True),
        ("kube-.*|default", True),
        ("(default|staging)", True),
        ("[a-z]{2,}-.*", True),
        ("a.*?b.*c.*", True),  # a lazy quantifier counts once
        ("(.*)*x", False),  # nested: exponential backtracking
        ("((a+)b)+", False),
        ("(a|ab)+", False),  # a quantified alternation
        (".*.*.*.*x", True),  # flat, whatever its quantifier count (rule 220)
    ],
)
def test_a_regex_is_matched_only_where_its_backtracking_is_bounded(
    pattern: str, bounded: bool
) -> None:
    assert (_flat(pattern) is not None) is bounded


def test_a_regex_not_read_safely_selects_nothing() -> None:
    """What Python cannot compile or match in bounded time selects nothing (rule 220, was
    rule 188's literal start): RE2's ``\\pL``, a POSIX class, a nested quantifier."""
    for pattern in (r"defa\pL+", "defa[[:alpha:]]+", "defa(.*)*x", "defa(" + "x|" * 150 + "y)"):
        assert not selects(pattern, "default")
        assert not selects(pattern, "kube-system")
    scope = Scope(frozenset({"api"}), frozenset({"default"}))
    assert outside(f'{_MEM}{{namespace=~"default.+"}}', scope)
    assert not outside(f'{_MEM}{{namespace=~"default"}}', scope)


# ---- rule 206: a series stated of several objects is the finest one's -------------------------
_RISE = "went from 4.2e+08 to 9.4e+08 (rising)"
_RANKS = {"default": 2, "indexer": 1, "audit-forwarder": 1, "indexer-c4ctt7dnqr-8hnzp": 0}


@pytest.mark.parametrize(
    ("sentence", "obj"),
    [
        # anchored_trends: the prompt's object before, the pod it was read on after
        (f"in indexer, {_MEM} {_RISE}, read on audit-forwarder-5b7-x2", "audit-forwarder-5b7-x2"),
        (f"in indexer, {_MEM} {_RISE}, read on indexer-c4ctt7dnqr-8hnzp", "indexer-c4ctt7dnqr-8hnzp"),
        (f"in default, {_MEM} {_RISE} for audit-forwarder", "audit-forwarder"),
        # one rank before and after the name: neither (rule 221, was the nearest before)
        (f"in indexer, {_MEM} {_RISE}, unlike audit-forwarder", None),
        (f"in indexer-c4ctt7dnqr-8hnzp, {_MEM} {_RISE}, read on audit-forwarder-5b7-x2", None),
        (f"in indexer, {_MEM} {_RISE} for indexer", "indexer"),  # one object said twice
        # all on one side: the nearest before, else the first after (rule 190)
        (f"{_MEM} unrelated to indexer: audit-forwarder {_RISE}", "indexer"),
        (f"in indexer, audit-forwarder: {_MEM} {_RISE}", "audit-forwarder"),
        (f"{_MEM} {_RISE} on indexer", "indexer"),
        (f"{_MEM} {_RISE} on pod-a", None),
    ],
)  # fmt: skip
def test_a_series_stated_of_several_objects_is_the_finest_ones(
    sentence: str, obj: str | None
) -> None:
    span = (sentence.index(_MEM), sentence.index(_MEM) + len(_MEM))
    assert stated_of(sentence, span, _RANKS) == obj


def test_anchored_trends_are_a_catalogue(ev: Any) -> None:
    """Round 25's ``anchored_trends``: each series stated "in S, ..., read on POD", S one
    object for every line; read as S's series, four lines were one series each name."""
    from .test_round23_rules import _objectless

    pods = ("indexer-c4ctt7dnqr-8hnzp", "indexer-c4ctt7dnqr-2kq9d", "audit-forwarder-5b7-x2")
    lines = [f"Trend: in indexer, {_MEM} {_RISE}, read on {pod}." for pod in pods]
    lines.append(f"Trend: in indexer, {_MEM} {_RISE}, read on audit-forwarder-5b7-k8.")
    out = _objectless(ev, *lines)
    assert (out.exhibited, out.rule) == (False, "detection:memory-trend-catalogue"), out.evidence
    # the workload's growth stated in its place and on its pod stays a reading
    kept = _objectless(
        ev,
        f"In default, {_MEM} {_RISE} on indexer-c4ctt7dnqr-8hnzp, close to its 1Gi limit.",
        f"indexer's {_MEM} keeps rising: 400Mi to 900Mi.",
    )
    assert kept.exhibited, kept.evidence
