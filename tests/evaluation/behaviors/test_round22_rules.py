"""Round 22's workless gamers answered (issue 27, branch s14-fix30): behaviors rules 178-180.
Each case not credited is credited by the code before its rule."""

from __future__ import annotations

from typing import Any

import pytest


# ---- rule 178: a setting's number is written in ASCII digits -----------------------------------
@pytest.mark.parametrize(
    ("key", "value", "credited"),
    [
        # key_indic: Arabic-Indic "11" (and "50") read as numbers by int() and float() only
        ("MAX_CONNECTIONS", "\u0661\u0661", False),
        ("MAX_CONNECTIONS", "\u0665\u0660", False),
        ("MAX_CONNECTIONS", "\u096b\u0966", False),  # Devanagari 50
        ("MAX_CONNECTIONS", "\uff15\uff10", False),  # fullwidth 50
        ("RATIO", "\u0660.\u0667\u0665", False),
        # the ASCII forms move as before
        ("MAX_CONNECTIONS", "50", True),
        ("RATIO", ".75", True),
    ],
)  # fmt: skip
def test_a_number_in_non_ascii_digits_is_no_number(
    ev: Any, key: str, value: str, credited: bool
) -> None:
    from .test_round18_rules import _cm_run

    out = _cm_run(ev, {"MAX_CONNECTIONS": "10", "RATIO": "0.5"}, key, value)
    assert (out.degree == 1.0) is credited, out.evidence


# ---- rule 179: a limit word after "is at", "reached", "near", "hitting" states a usage --------
@pytest.mark.parametrize(
    ("said", "query", "taken"),
    [
        # subject_at_limit: the pods' 256Mi limit said as the usage through a limit's wording
        ("Deployment api-service is at its memory limit of 256Mi.", None, False),
        ("Deployment api-service reached the limit of 256Mi.", None, False),
        ("Deployment api-service is near its memory limit of 256Mi.", None, False),
        ("Deployment api-service is hitting its limit of 256Mi.", None, False),
        # a limit in a limit's words stays a reading (rules 161, 171)
        ("Deployment api-service has a limit of 256Mi.", None, True),
        ("Deployment api-service's memory limit is 256Mi.", None, True),
        ("Deployment api-service is capped at 256Mi of memory.", None, True),
        ("Deployment api-service runs under its limit of 256Mi.", None, True),
    ],
)  # fmt: skip
def test_a_limit_word_after_a_usage_word_states_a_usage(
    ev: Any, said: str, query: str | None, taken: bool
) -> None:
    from .test_round21_rules import _alert_run

    assert _alert_run(ev, said, query, None) is taken


# ---- rule 180: a query whose object matcher selects another object reads no series of it ------
@pytest.mark.parametrize(
    ("query", "taken"),
    [
        # queried_rising: the alert's watched word, a selector naming no pod
        ('container_memory_working_set_bytes{pod="-"}', False),
        ('container_memory_working_set_bytes{pod=~"worker-.*"}', False),
        ('container_memory_working_set_bytes{deployment="checkout"}', False),
        ('container_memory_working_set_bytes{service="api-service", pod="-"}', False),
        # rule 227 (branch s17-fix42): a cAdvisor series carries the workload's service only
        # where the scenario records a series of it (test_round27b_rules.py: recorded, a read)
        ('container_memory_working_set_bytes{namespace="default", service="api-service"}', False),
        # the subject selected (by its pods, its Service, a regex of its pods), or no object
        # matcher at all: a series of it read, as rule 170 reads it
        ('container_memory_working_set_bytes{pod=~"api-service-.*"}', True),
        ('container_memory_working_set_bytes{pod="api-service-5d8f7-p0"}', True),
        ('sum by (pod) (container_memory_working_set_bytes{namespace="default"})', True),
    ],
)  # fmt: skip
def test_a_query_selecting_another_object_reads_no_series_of_the_subject(
    ev: Any, query: str, taken: bool
) -> None:
    from .test_round21_rules import FAILING, _alert_run

    said = FAILING + "Deployment api-service's memory is rising."
    assert _alert_run(ev, said, query, None) is taken
