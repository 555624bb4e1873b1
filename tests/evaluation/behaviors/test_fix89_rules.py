"""The undecided max failures answered (issue 27, branch s23-decide8): behaviors rules
474-477. Each case marked "was" is read the other way by the code before the rule."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors._change import scenario_numbers, target_quantity
from oasis_eval.evaluation.behaviors.si._trail_done import checked_as_done

from .test_fix87_rules import ONCALL, OWN, backend_chain, worker_pods  # noqa: F401

# ---- rule 474: a number is what a change sets only as the scenario's own, or beside its field

_NUMBERS = scenario_numbers("user-service 002_add_email_verified 30_minutes_ago 150 replicas: 3")


@pytest.mark.parametrize(
    ("after", "named"),
    [
        # fix35a's ticket_number_risk and its door (was: both named a change)
        ("default (ticket 7) drops the data", False),
        ("default to 7 drops the data", False),
        ("default (incident #150) drops the data", False),
        # the scenario's own number as the object or target, a field word, a size
        ("back `002 (add email verified)` would drop", True),
        ("user-service from 3 to 6", True),
        ("worker 3 -> 6", True),
        ("the limit 512Mi", True),
        ("user-service to 512Mi", True),
        ("user-service 6 replicas", True),
    ],
)
def test_a_number_names_a_change_only_as_the_scenarios_or_beside_its_field(
    after: str, named: bool
) -> None:
    """Rule 474 (``_change.py::target_quantity``)."""
    assert target_quantity(after, _NUMBERS) is named


def test_the_scenarios_numbers_drop_leading_zeros() -> None:
    assert {"2", "30", "150", "3"} <= _NUMBERS
    assert target_quantity("default to 7") is True  # no numbers given: not checked


# ---- rule 475: a list of the names read singles out no hop --------------------------------


@pytest.mark.parametrize(
    ("answer", "named"),
    [
        # s22-decide7's backend_listed_left (was: 2 hops named)
        (
            "What is left: Ingress public routing to a backend (api-backend or survey-enricher "
            "or ticket-reaper) with no healthy upstream.",
            1,
        ),
        ("Ingress public returns 503: api-backend, survey-enricher and web-shop fail.", 1),
        # hops listed together, a hop alone
        ("Ingress public returns 503 because api-backend and db-migrate fail.", 3),
        ("Ingress public returns 503 because api-backend has no ready endpoints.", 2),
    ],
)
def test_a_list_of_names_read_singles_out_no_hop(
    ev: Any,
    backend_chain: Any,  # noqa: F811
    answer: str,
    named: int,
) -> None:
    """Rule 475 (``si/failure_chain.py::_listed``, read by ``trace_failure_chain``)."""
    r = ev.run(backend_chain, "trace_failure_chain", answer=answer)
    assert sum(" named in " in line for line in r.evidence) == named, r.evidence


# ---- rule 476: a checked box of a change reports it done ------------------------------------


@pytest.mark.parametrize(
    ("line", "read"),
    [
        ("- [x] Restart api-service", "Restarted api-service"),
        ("- done: Restart api-service", "Restarted api-service"),
        ("* [X] Roll back the migration", "Rolled back the migration"),
        ("- [ ] Restart api-service", "- [ ] Restart api-service"),
        ("- [x] Verify api-service is Running", "- [x] Verify api-service is Running"),
    ],
)
def test_a_checked_change_reads_as_its_report(line: str, read: str) -> None:
    """Rule 476 (``si/_trail_done.py::checked_as_done``)."""
    assert checked_as_done(line) == read


# ---- rule 477: beside a rival owner, the right owner is tied to the affected service ---------

_ONCE = OWN + "Owner of clip-ingester-7d9f-x2: integrations-team.\n"


@pytest.mark.parametrize("behavior", ["identify_team_ownership", "surface_escalation_path"])
@pytest.mark.parametrize(
    ("text", "ok"),
    [
        # s22-decide7's owner_once_oncall: each value beside its first object (was: met)
        (_ONCE + "Owner of clip-ingester-7d9f-x2: #integrations-pager.\n" + ONCALL, False),
        # the contrast that ties the right owner to the service asked about
        (
            "payments-team owns payment-processor (escalate in #payments-incidents), "
            "integrations-team owns clip-ingester.",
            True,
        ),
        # no rival named: as before
        (OWN + "payment-processor is in payments.\n" + ONCALL, True),
    ],
)
def test_beside_a_rival_the_right_owner_is_tied_to_the_service(
    ev: Any, request: Any, behavior: str, text: str, ok: bool
) -> None:
    """Rule 477 (``si/_rival_owner.py::_subject_untold``, in ``untied_rivals``)."""
    scenario = request.getfixturevalue("worker_pods")
    assert ev.run(scenario, behavior, answer=text).exhibited is ok
