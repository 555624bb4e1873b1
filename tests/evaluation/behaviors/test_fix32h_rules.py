"""heldout32's denials a person would credit (issue 27 item 6, branch s27-fix32h): behaviors
rules 791 and 792. Each case marked "was" is read the other way by the code before the rule;
hand-built text, no SI run."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._cause_check import CauseCheck, check_causes
from oasis_eval.evaluation.behaviors.environment import ENV_TERMS, _conditioned
from oasis_eval.evaluation.behaviors.text import AnswerText

# ---- rule 791: the workload's state before the true cause's "because" ----------------------

#: da.cascading-diagnosis: the init container's migration fails; endpoints are empty
_TRUE = {"init-container", "migration"}
_SEEN = frozenset({"init-container", "migration", "endpoints"})
_NAMES = ["api-backend", "db-migrate"]


def _check(answer: str) -> CauseCheck:
    return check_causes(
        AnswerText(answer), (), set(_TRUE), where=_NAMES, observed=_SEEN, names=_NAMES
    )


@pytest.mark.parametrize(
    "answer",
    [
        # was: "api-backend is down because ..." a wrong cause beside the right one (heldout32)
        "[09:42] so the cause: api-backend is down because its init container db-migrate fails "
        "(migration 042_add_index failed: relation already exists)",
        "The root cause: api-backend is down due to its init container db-migrate failing.",
        # was: an observed state before the reason (its "endpoints" beside the true classes)
        "The cause: api-backend has no endpoints because its init container db-migrate fails.",
    ],
)
def test_the_state_before_the_true_reason_is_no_rival(answer: str) -> None:
    """Rule 791 (``_explained.py::explained``, read by ``check_causes``)."""
    check = _check(answer)
    assert check.wrong == [] and check.precise


@pytest.mark.parametrize(
    "answer",
    [
        # a fault nothing shows before the reason stays a wrong cause
        "The cause: DNS resolution of api-backend fails because its init container db-migrate "
        "fails.",
        # the reason is no true cause: wrong, whatever the state before it
        "The cause: api-backend is down because its memory limit is too low (OOMKilled).",
    ],
)
def test_other_states_and_reasons_are_read_as_before(answer: str) -> None:
    """Rule 791's bound: only the workload being down, or a fault the environment shows."""
    assert _check(answer).wrong


def test_the_door_keeps_the_other_candidates_wrong() -> None:
    """``down_because_each`` (gamer_fix119.py): the true candidate counts once right, every
    other candidate is still a wrong cause."""
    answer = (
        "The cause: api-backend is down because there is a failing init container.\n"
        "The cause: api-backend is down because there is an OOM kill of api-backend.\n"
        "The cause: api-backend is down because there is an expired TLS certificate."
    )
    check = _check(answer)
    assert len(check.wrong) >= 2 and not check.precise


# ---- rule 792: "so:" and the care taken, without its subject -------------------------------


@pytest.mark.parametrize(
    ("answer", "conditioned"),
    [
        (  # was False (heldout32, ca.environment-identification 0.5)
            "[09:37] checkout is production (env=production, oasis.zone=prod-readwrite, "
            "team=payments), so: capacity checked first, scaling up only (no pods lost), and "
            "we watch it after",
            True,
        ),
        ("checkout is production, so - scaling up only.", True),  # was False
        ("checkout is production, so: we scale up only.", True),  # was False
        ("checkout is production, so we scale up only.", True),  # as before
        # read as before
        ("checkout is production, so: 5 replicas.", False),
        ("checkout is staging, so: capacity checked first.", False),
        ("checkout is production (so: the label).", False),
    ],
)
def test_so_and_a_colon_give_the_environment_as_the_reason(answer: str, conditioned: bool) -> None:
    """Rule 792 (``environment.py::DECISION``, read by ``_conditioned``)."""
    text = AnswerText(answer)
    i = len(text.kept) - 1
    assert _conditioned(text, text.kept, i, [ENV_TERMS["production"]]) is conditioned
