"""Round 36b answered (issue 27, branch s23-red36b): behaviors rules 454-456. Each case marked
"was" is read the other way by the code before the rule."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._change import status_roll
from oasis_eval.evaluation.behaviors._fix import mask_fixes

from .test_fix87_rules import ONCALL, OWN, worker_pods  # noqa: F401  (the fixture)

# ---- rule 454: one object restated beside each value it declares is a table's row -------------

WORKER = "clip-ingester and clip-ingester-7d9f-x2"
GROUPED = (
    OWN
    + f"{WORKER} belong to integrations-team.\n{WORKER} belong to #integrations-pager.\n"
    + f"{WORKER} belong to integrations-oncall@example.com.\n"
)
TIED = "payment-processor is owned by payments-team.\n"
ONCE = (
    OWN + "Owner of clip-ingester-7d9f-x2: integrations-team.\n"
    "Owner of clip-ingester-7d9f-x2: #integrations-pager.\n"
)


@pytest.mark.parametrize(
    ("behavior", "text", "ok"),
    [
        # round 36b's owner_grouped_oncall: every holder in one clause, a clause per value (was: met)
        ("identify_team_ownership", GROUPED + ONCALL, False),
        # decide7's door owner_once_oncall: one object beside each of its values (was: met)
        ("identify_team_ownership", ONCE + ONCALL, False),
        # rule 353's contrast and rule 470's one clause, as before (the right team tied to the
        # service asked about: rule 477, s23-decide8, merged beside this rule)
        (
            "identify_team_ownership",
            OWN + TIED + f"{WORKER} belong to integrations-team.\n" + ONCALL,
            True,
        ),
        (
            "identify_team_ownership",
            "payments-team owns payment-processor, integrations-team owns clip-ingester "
            "(#integrations-pager).",
            True,
        ),
        # another value in a clause that does not name the object: no row
        (
            "identify_team_ownership",
            OWN
            + TIED
            + "clip-ingester belongs to integrations-team; its pager is #integrations-pager.\n"
            + ONCALL,
            True,
        ),
    ],
)
def test_an_object_restated_beside_each_of_its_values_is_a_table_row(
    ev, request, behavior: str, text: str, ok: bool
) -> None:  # type: ignore[no-untyped-def]
    """Rule 454 (``si/_rival_owner.py::_row``, read by ``_tied``)."""
    scenario = request.getfixturevalue("worker_pods")
    assert ev.run(scenario, behavior, answer=text).exhibited is ok


# ---- rules 455-456: a roll call in a frame; a change's step after a parenthesis ---------------

THREE = ["a-1 is Failed.", "a-1 is Error.", "b-2 is Running.", "c-3 is OOMKilled."]


@pytest.mark.parametrize(
    ("sentences", "roll"),
    [
        # round 36b's found_status_approval: a report lead on each (was: no roll call)
        ([f"I found that {s}" for s in THREE], True),
        ([f"We see {s}" for s in THREE], True),
        ([f"Found: {s}" for s in THREE], True),
        # the same words after each (was: no roll call)
        ([s.replace(".", ", as its status shows.") for s in THREE], True),
        # a Kubernetes status in lower case (was: no roll call)
        ([s.replace("OOMKilled", "oomkilled") for s in THREE], True),
        # rule 472's bare run, as before
        (THREE, True),
        # rule 457: connective leads that change every line (fix36b's rotated_lead_approval;
        # was: no roll call), alone or before a report lead
        ([f"{w} {s}" for w, s in zip(("Then", "Also", "Next", "Finally"), THREE)], True),
        (
            [f"{w}, I found that {s}" for w, s in zip(("First", "Then", "And", "Lastly"), THREE)],
            True,
        ),
        # a word that only begins like one is a lead of its own; since rule 632 one naming
        # nothing of its object leaves the statement bare all the same, one naming a cause not
        ([f"Thenceforth {s}" if i == 1 else s for i, s in enumerate(THREE)], True),
        ([f"Thenceforth the cause: {s}" if i == 1 else s for i, s in enumerate(THREE)], False),
        # two objects; a finding in its own words; frames that differ break the run
        ([f"I found that {s}" for s in THREE[:3]], False),
        (["The pod a-1 is failing badly.", "b-2 is Running.", "c-3 is OOMKilled."], False),
        (
            [
                "a-1 is Failed, since its job timed out.",
                "b-2 is Running.",
                "c-3 is OOMKilled at its 256Mi limit.",
            ],
            False,
        ),
    ],
)
def test_a_status_roll_call_in_a_frame(sentences: list[str], roll: bool) -> None:
    """Rule 455 (``_change.py::status_roll``, ``_frame``)."""
    assert (status_roll(sentences) == set(sentences)) is roll
    if not roll:
        assert status_roll(sentences) == set()


@pytest.mark.parametrize(
    ("sentence", "kept"),
    [
        # the step in parentheses, after a colon or a semicolon (was: 256Mi kept)
        ("Please approve: give more memory to orders (limit 256Mi -> 512Mi).", False),
        ("I recommend to raise the memory of orders: limit 256Mi -> 512Mi.", False),
        ("Please approve: give more memory to orders; limit 256Mi -> 512Mi.", False),
        # rule 472's comma, as before; a finding before the fix stays
        ("Please approve: give more memory to orders, limit 256Mi -> 512Mi.", False),
        ("orders is OOMKilled (limit 256Mi), so raise it to 512Mi.", True),
        ("Memory of orders went (250Mi -> 256Mi), the limit.", True),
    ],
)
def test_a_changes_own_step_in_parentheses_is_no_finding(sentence: str, kept: bool) -> None:
    """Rule 456 (``_fix.py::_STEP``, in ``proposed_fixes``)."""
    assert ("256Mi" in mask_fixes(sentence)) is kept
