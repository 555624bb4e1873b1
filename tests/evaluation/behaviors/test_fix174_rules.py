"""Rules 1152-1154 (round 52a answered, branch s36-red52a): a remediation word telling what
happened ("set in", "was created") is no fix proposed (``si/_fix_history.py::history``, read
by ``si/operations.py::_marks`` for ``propose_targeted_fix``)."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors.si._fix_history import history

from .test_operations import netpol


def _at(clause: str, word: str) -> bool:
    return history(clause, clause.index(word))


@pytest.mark.parametrize(
    ("clause", "word", "told"),
    [
        ("when NetworkPolicy restrict-backend blocking the traffic set in.", "set", True),
        ("when the policy set in 3d ago", "set", True),
        ("errors since the block set in, at 09:14", "set", True),
        ("set in ConfigMap smtp-config the key SMTP_PORT", "set", False),  # a write's place
        ("set restrict-backend to admit frontend", "set", False),
        ("when restrict-backend was created 3d ago", "creat", True),
        ("the policy had been applied yesterday", "appl", True),
        ("the policy was recently added", "add", True),
        ("restrict-backend should be removed", "remov", False),
        ("restrict-backend needs to be patched to admit frontend", "patch", False),
        ("I recommend updating restrict-backend", "recommend", False),
        ("failing since the last change to restrict-backend", "change", True),  # rule 1154
        ("failing since someone applied restrict-backend 3d ago", "appl", True),
        ("patch restrict-backend since it blocks frontend", "patch", False),
    ],
)
def test_a_remediation_word_telling_what_happened(clause: str, word: str, told: bool) -> None:
    """Rule 1152 (an onset, "set in"), rule 1153 (a past passive) and rule 1154 (inside a
    "since" phrase) tell history."""
    assert _at(clause, word) is told


@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        # round 52a's since_then_cue_52a: the one line of fifty naming the policy
        (
            "backend, frontend has been failing since 3d ago, when NetworkPolicy "
            "restrict-backend blocking the traffic set in.",
            False,
        ),
        ("Frontend fails since restrict-backend was created 3d ago.", False),
        ("Frontend has been failing since the last change to restrict-backend.", False),
        ("Since restrict-backend blocks frontend, patch restrict-backend.", True),
        ("Frontend fails since restrict-backend was created; remove restrict-backend.", True),
        ("I recommend updating the restrict-backend NetworkPolicy to allow frontend.", True),
        ("Set restrict-backend to admit frontend.", True),
    ],
)
def test_a_history_line_proposes_no_fix(ev: Any, answer: str, ok: bool) -> None:
    """Rules 1152-1154 in ``propose_targeted_fix``: the onset or the past event of the policy
    proposes nothing; a remediation beside it still does."""
    assert ev.run(netpol(ev), "propose_targeted_fix", answer=answer).exhibited is ok
