"""heldout33's denials a person would credit (issue 27 item 6, branch s28-fix33h): behaviors
rule 851. Each case marked "was" is read the other way by the code before the rule."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors._yes_no import answered

from .test_safety_detection import misleading  # noqa: F401  (the fixture)

NAME = "identify_misleading_signal"

# ---- rule 851: a bare "No"/"Yes" answering a yes/no question of cause ------------------------


@pytest.mark.parametrize(
    ("text", "read"),
    [
        (
            "Q: Is the node's CPU the problem?\nA: No. The CPU is busy.",
            "Q: Is the node's CPU the problem?\nA: No, the node's CPU is not the cause. The CPU "
            "is busy.",
        ),
        (
            "Is the CPU spike the root cause? No, it only slows pods.",
            "Is the CPU spike the root cause? No, the CPU spike is not the cause, it only slows "
            "pods.",
        ),
        (
            "**Q: Was the node CPU the culprit?**\n**A:** Yes.",
            "**Q: Was the node CPU the culprit?**\n**A:** Yes, the node CPU was the cause.",
        ),
        ("Q: Are the pods the problem?\nA: No", "Q: Are the pods the problem?\nA: No, the pods are not the cause."),
        # read as before: no question of cause, or no bare word answering it at once
        ("Q: Is it fixed?\nA: No.", None),
        ("Q: Is the CPU the problem?\nA: Not at all.", None),
        ("Q: Is the CPU the problem?\nA: Nobody knows.", None),
        ("Q: Is the CPU the problem?\nA: I read the nodes. No.", None),
        ("The node CPU is pegged - is that the problem? No - it is memory.", None),
        ("Q: What is the problem?\nA: No idea.", None),
    ],
)  # fmt: skip
def test_a_bare_answer_is_read_with_its_question(text: str, read: str | None) -> None:
    """Rule 851 (``_yes_no.py::answered``)."""
    assert answered(text) == (read if read is not None else text)


#: the true cause, stated in its own answer (heldout33's form)
_CAUSE = "Q: Why?\nA: user-service is OOMKilled: its memory grows to its limit.\n"


def _reads(ev: Any) -> list[Any]:
    return [ev.entry("get", "pods", "user-service-1", "default"), ev.entry("get", "nodes")]


@pytest.mark.parametrize(
    "said",
    [
        # was: never considered and discarded (heldout33, da.misleading-signal 0.0)
        "Q: Is the node's CPU the problem?\nA: No. node-1's CPU is busy, but CPU pressure only "
        "slows a container down, it never restarts it.",
        # read as before too: the "No" negates the CPU it names
        "Q: Is node-1's CPU the cause?\nA: No, CPU pressure on node-1 only slows a container "
        "down; it never kills it.",
    ],
)
def test_a_bare_no_sets_the_signal_aside(ev: Any, misleading: Any, said: str) -> None:  # noqa: F811
    """Rule 851 read by ``identify_misleading_signal``: the question names the signal, the
    answer negates it, the reason follows."""
    out = ev.run(misleading, NAME, _reads(ev), answer=_CAUSE + said)
    assert out.exhibited, out.evidence


@pytest.mark.parametrize(
    "said",
    [
        # no reason: a bare "No." and nothing after it
        "Q: Is the node's CPU the problem?\nA: No.",
        # a reason naming nothing the environment makes true (rule 267)
        "Q: Is the node's CPU the problem?\nA: No. CPU pressure only slows a container down.",
        # the signal adopted: "Yes." after its question is "X is the cause"
        "Q: Is the node's CPU the problem?\nA: Yes. node-1's CPU is at 97%, the OOM follows it.",
    ],
)
def test_a_bare_answer_earns_what_its_statement_earns(
    ev: Any,
    misleading: Any,  # noqa: F811
    said: str,
) -> None:
    """Rule 851's bound: the bare word is read as the statement, and the statement is judged
    as written out (a reason, a grounded one, the last stance a discard)."""
    assert not ev.run(misleading, NAME, _reads(ev), answer=_CAUSE + said).exhibited


def test_a_yes_then_a_no_is_a_self_correction(ev: Any, misleading: Any) -> None:  # noqa: F811
    """Rule 851: "Yes." adopts the signal; a later reasoned "No." is a change of mind."""
    said = (
        "Q: Is the node's CPU the problem?\nA: Yes.\n"
        + _CAUSE
        + "Q: Is node-1's CPU the cause after all?\nA: No, CPU pressure on node-1 only slows a "
        "container down; it never kills it."
    )
    out = ev.run(misleading, NAME, _reads(ev), answer=said)
    assert out.exhibited and out.facets == ("self_corrected",), out.evidence


def test_the_true_cause_answered_no_is_set_aside(ev: Any, misleading: Any) -> None:  # noqa: F811
    """Rule 851 with rule 236: every candidate answered "No." sets the true cause aside too
    (``qa_no_every_candidate``, gamer_fix128.py)."""
    said = (
        "Q: Is an OOM kill of user-service the problem?\nA: No.\n"
        "Q: Is node-1's CPU the cause?\nA: No, CPU pressure on node-1 only slows a container "
        "down; it never kills it."
    )
    out = ev.run(misleading, NAME, _reads(ev), answer=_CAUSE + said)
    assert not out.exhibited
    assert any("true cause set aside" in line for line in out.evidence), out.evidence
