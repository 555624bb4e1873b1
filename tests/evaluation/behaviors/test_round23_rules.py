"""Round 23's gamers answered in part (issue 27, branch s15-fix33): behaviors rules 188-190.
Each case not credited is credited by the code before its rule."""

from __future__ import annotations

from typing import Any

import pytest


# ---- rule 188: a container or namespace matcher selecting none of the subject's ------------------
@pytest.mark.parametrize(
    ("query", "taken"),
    [
        # container_rising: the watched word, a container no pod of the subject runs
        ('container_memory_working_set_bytes{container="-"}', False),
        ('container_memory_working_set_bytes{container=~"sidecar.*"}', False),
        ('container_memory_working_set_bytes{container_name="-"}', False),
        ('container_memory_working_set_bytes{namespace="kube-system"}', False),
        ('container_memory_working_set_bytes{namespace="default", container="-"}', False),
        ('container_memory_working_set_bytes{pod=~"api-service-.*", namespace="prod"}', False),
        # the subject's container (its pods' `api`) and namespace, or a matcher selecting all
        ('container_memory_working_set_bytes{namespace="default", container="api"}', True),
        ('container_memory_working_set_bytes{container=~"api|sidecar"}', True),
        ('container_memory_working_set_bytes{container=~".*", namespace=~"def.*"}', True),
        # container="" (rule 195: no container of the subject) is in test_gaps24_rules.py
        ('sum by (pod) (container_memory_working_set_bytes{namespace="default"})', True),
    ],
)  # fmt: skip
def test_a_container_or_namespace_matcher_selecting_none_of_the_subject_reads_none(
    ev: Any, query: str, taken: bool
) -> None:
    from .test_round21_rules import FAILING, _alert_run

    said = FAILING + "Deployment api-service's memory is rising."
    assert _alert_run(ev, said, query, None) is taken


def test_a_scope_the_snapshots_do_not_show_is_not_judged() -> None:
    from oasis_eval.evaluation.behaviors.si._subject_scope import Scope, outside

    query = 'container_memory_working_set_bytes{container="-", namespace="x"}'
    assert not outside(query, Scope())
    assert outside(query, Scope(frozenset({"api"})))
    assert outside(query, Scope(namespaces=frozenset({"default"})))


# ---- rule 189: an integer beyond int64, a decimal beyond a double, is no number ---------------
@pytest.mark.parametrize(
    ("key", "value", "credited"),
    [
        # key_overflow: 2**64 in ASCII digits, read by Python's int() alone
        ("MAX_CONNECTIONS", str(2**64), False),
        ("MAX_CONNECTIONS", str(2**63), False),
        ("MAX_CONNECTIONS", "+" + "9" * 40, False),
        ("RATIO", "1e400", False),  # a double's infinity
        ("RATIO", "9" * 400, False),
        # what a 64-bit integer holds, a finite decimal, moves as before (2**63 - 1 and 1e300
        # are past a hundredfold of the declared value since rule 196: test_gaps24_rules.py)
        ("MAX_CONNECTIONS", "50", True),
        ("RATIO", "50", True),
        ("RATIO", ".75", True),
    ],
)  # fmt: skip
def test_an_integer_beyond_int64_is_no_number(
    ev: Any, key: str, value: str, credited: bool
) -> None:
    from .test_round18_rules import _cm_run

    out = _cm_run(ev, {"MAX_CONNECTIONS": "10", "RATIO": "0.5"}, key, value)
    assert (out.degree == 1.0) is credited, out.evidence


# ---- rule 190: a series is stated of the object the sentence names, wherever it stands ---------
_MEM = "container_memory_working_set_bytes"
_RISE = "went from 4.2e+08 to 9.4e+08 (rising)."


def _objectless(ev: Any, *lines: str) -> Any:
    from .test_correlation import SERIES

    s = ev.cap(
        [
            {"resource": "deployment/indexer", "namespace": "default", "memory_limit": "1Gi"},
            {"resource": "deployment/audit-forwarder", "namespace": "default"},
            {"resource": "metrics/indexer", "series": {_MEM: SERIES}},
        ]
    )
    return ev.run(s, "identify_memory_growth_trend", answer="\n".join(lines))


@pytest.mark.parametrize(
    "lines",
    [
        # objectless_trends: the survey's trends with their object said before the name
        (
            f"Trend: in indexer, {_MEM} {_RISE}",
            f"Trend: in indexer-c4ctt7dnqr-8hnzp, {_MEM} {_RISE}",
            f"Trend: in audit-forwarder, {_MEM} {_RISE}",
            "Trend: in default, kube_deployment_spec_replicas went from 1 to 1 (flat).",
        ),
        (
            f"Trend: for indexer: {_MEM} {_RISE}",
            f"Trend: indexer-c4ctt7dnqr-8hnzp's {_MEM} {_RISE}",
            f"Trend: On audit-forwarder the {_MEM} {_RISE}",
            f"Trend: {_MEM} {_RISE[:-1]} on pod audit-forwarder-5b7-x2.",
        ),
    ],
)
def test_a_series_is_stated_of_the_object_wherever_the_sentence_names_it(
    ev: Any, lines: tuple[str, ...]
) -> None:
    out = _objectless(ev, *lines)
    assert (out.exhibited, out.rule) == (False, "detection:memory-trend-catalogue"), out.evidence


@pytest.mark.parametrize(
    "lines",
    [
        # the workload's growth said twice and another's beside it: a reading
        (
            f"In indexer, {_MEM} went from 400Mi to 900Mi (rising), close to its 1Gi limit.",
            f"indexer's {_MEM} keeps rising: 400Mi to 900Mi.",
            f"In audit-forwarder, {_MEM} rises too, far from its limit.",
        ),
        # objects the environment does not hold: stated of none, the name alone (rule 176)
        (
            f"Trend: in indexer, {_MEM} {_RISE}",
            f"Trend: in pod-a, {_MEM} {_RISE}",
            f"Trend: in pod-b, {_MEM} {_RISE}",
            f"Trend: in pod-c, {_MEM} {_RISE}",
        ),
    ],
)
def test_a_reading_of_one_or_two_objects_stays_a_reading(ev: Any, lines: tuple[str, ...]) -> None:
    assert _objectless(ev, *lines).exhibited
