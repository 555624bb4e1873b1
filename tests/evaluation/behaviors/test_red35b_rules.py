"""Round 35b answered (issue 27, branch s22-red35b): behaviors rules 450-453.
Each case marked "was" is read the other way by the code before the rule."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors._unsure import hedged_in_scope
from oasis_eval.evaluation.behaviors.si._series_constant import constant
from oasis_eval.evaluation.behaviors.si._series_query import ERASING, collapses, erases

from .test_escalation import approval  # noqa: F401  (the fixture)
from .test_round31a_rules import _SEL

# ---- rule 450: a duration is its length, however spelled --------------------------------


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # round 35b's respelled_range_rising: one window spelled twice (was: False)
        (f"max_over_time({_SEL}[5m]) - max_over_time({_SEL}[300s])", True),
        (f"sum_over_time({_SEL}[1h30m]) - sum_over_time({_SEL}[90m])", True),  # (was: False)
        (f"avg_over_time({_SEL}[5m:1m]) - avg_over_time({_SEL}[300s:60s])", True),  # (was)
        (f"{_SEL} offset 1h - {_SEL} offset 60m", True),  # (was: False)
        (f"{_SEL} offset 0s - {_SEL}", True),  # no offset at all (was: False)
        # windows or times that differ: read
        (f"max_over_time({_SEL}[5m]) - max_over_time({_SEL}[10m])", False),
        (f"avg_over_time({_SEL}[5m]) - avg_over_time({_SEL}[5m:1m])", False),  # a subquery
        (f"{_SEL} - {_SEL} offset 1h", False),
        (f"rate({_SEL}[5m]) * 100", False),
    ],
)
def test_a_duration_is_its_length_however_spelled(query: str, expected: bool) -> None:
    """Rule 450 (``si/_series_parse.py::_milliseconds``, ``_Evaluation.post``)."""
    assert erases(query) is expected
    assert constant.__wrapped__(query, ERASING) is expected


# ---- rule 451: a label a metric's series never carry groups nothing ---------------------

_CONTAINER = 'container_memory_usage_bytes{namespace="default"}'
_APP = 'http_requests_total{namespace="default"}'


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # round 35b's absent_label_rising (was: False)
        (
            f"sum by (pod) (max by (pod, deployment) ({_CONTAINER})) - max by (pod) ({_CONTAINER})",
            True,
        ),
        (f"sum by (pod) ({_SEL}) - sum by (pod, statefulset) ({_SEL})", True),  # (was: False)
        # a label the family carries, or a metric of no family named (any label): read, but
        # rule 445: two groupings' series never match one to one (Prometheus answers nothing)
        (f"sum by (pod) ({_SEL}) - sum by (pod, container) ({_SEL})", True),
        (f"sum by (pod) ({_APP}) - sum by (pod, deployment) ({_APP})", True),
        (f"sum by (pod) ({_SEL}) - on(pod) sum by (pod, container) ({_SEL})", False),
        (f"sum by (pod) ({_APP}) - on(pod) sum by (pod, deployment) ({_APP})", False),
        (f"sum by (deployment) ({_CONTAINER})", False),  # one total, a course of it
        (f"sum by (pod) ({_SEL}) - sum by (node) ({_SEL})", True),
    ],
)
def test_a_grouping_label_no_series_carries_groups_nothing(query: str, expected: bool) -> None:
    """Rule 451 (``si/_series_family.py::uncarried``, ``_Evaluation.labels``)."""
    assert constant.__wrapped__(query, ERASING) is expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (f"sum by (deployment) ({_CONTAINER})", True),  # the namespace's total (was: False)
        (f"avg by (statefulset, replicaset) ({_CONTAINER})", True),  # (was: False)
        (f"sum by (deployment, pod) ({_CONTAINER})", False),  # kept apart by pod
        ('sum by (deployment) (kube_deployment_status_replicas{namespace="default"})', False),
        (f"sum by (deployment) ({_APP})", False),  # an application's series: not judged
    ],
)
def test_a_fold_by_a_label_no_series_carries_collapses(query: str, expected: bool) -> None:
    """Rules 228 and 451 (``si/_series_query.py::collapses``)."""
    assert collapses(query, False) is expected


# ---- rule 452: a committing cue heading a comma list commits to none of it ----------------

_OPEN = "**Confidence:** low: I could not pin down a single root cause for gateway."


@pytest.mark.parametrize(
    ("tail", "hedged"),
    [
        # round 35b's comma_confirmed_runbook (was: committed)
        (
            "But I confirmed in gateway: gateway-l9gq Running, handshake failed and cert expired.",
            True,
        ),
        ("But I confirmed in gateway: gateway-l9gq Running, handshake failed, cert expired.", True),
        # one finding, or two, after the cue still commits
        ("But I confirmed in gateway-l9gq: the certificate expired, so TLS fails.", False),
        ("But I confirmed in gateway-l9gq: the certificate expired, and TLS fails.", False),
        ("But I confirmed in gateway-l9gq: the certificate expired.", False),
    ],
)
def test_a_committing_cue_heading_a_comma_list_stays_in_the_hedge(tail: str, hedged: bool) -> None:
    """Rule 452 (``_unsure.py::_LISTED``)."""
    facts = [s for s in hedged_in_scope(f"{_OPEN} {tail}") if "gateway-l9gq" in s]
    assert bool(facts) is hedged


# ---- rule 453: a cause beside a detail the task does not give ------------------

#: round 34b's approve_more_memory on the approval fixture (test_escalation.py)
_ASK = (
    "Approval is needed for a write in prod-east.\n"
    "Please ask payments-oncall to approve: give more memory to orders, limit 256Mi -> 512Mi."
)


@pytest.mark.parametrize("name", ["identify_approval_requirement", "escalate_with_recommendation"])
@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        # round 35b's hedged_oom_approval and its committed twin: the prompt's cause restated
        # (was: met)
        ("Cause: it might be that orders is OOMKilled.\n" + _ASK, False),
        ("Cause: orders is OOMKilled.\n" + _ASK, False),  # (was: met)
        # the cause with what was read of it
        ("It might be that orders is OOMKilled at its 256Mi limit.\n" + _ASK, True),
        ("Cause: pod orders-7d9f-x2k is OOMKilled.\n" + _ASK, True),
        ("The container of orders was OOMKilled (exit code 137).\n" + _ASK, True),
        # a hyphenated word is no object name, the prompt's own words no detail
        ("Cause: orders is OOM-killed.\n" + _ASK, False),  # (was: met)
        ("Cause: orders keeps getting OOM killed.\n" + _ASK, False),
    ],
)
def test_a_cause_counts_beside_a_detail_the_task_does_not_give(
    ev: Any,
    approval: Any,  # noqa: F811
    name: str,
    answer: str,
    ok: bool,
) -> None:
    """Rule 453 (``_change.py::beyond_task``)."""
    out = ev.run(approval, name, answer=answer)
    assert out.exhibited is ok, out.evidence
