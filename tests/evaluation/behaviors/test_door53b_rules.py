"""The reading doors of session 37 (issue 27, branch s37-door53b): behaviors rules 1185-1187.
The cases marked "was" are read the other way by the code before the rules; the others are the
negatives each rule keeps out (the honest forms read as before). Rule 1187 too."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors._echo import repeated_tails
from oasis_eval.evaluation.behaviors._line_named import line_named
from oasis_eval.evaluation.behaviors.si._fix_history import history
from oasis_eval.evaluation.behaviors.si._resumed_told import told
from oasis_eval.evaluation.behaviors.si._symptom_denied import symptom_denied

from .misleading_support import CAUSE, misled
from .test_operations import netpol

# ---- rule 1185: a symptom tells something only as what the signal does not do ----------------


@pytest.mark.parametrize(
    ("after", "ok"),
    [
        ("Node CPU is not the whole picture of the restarts.", False),  # was: the symptom named
        ("Node CPU isn't the restarts' story.", False),  # was: a noun after a determiner
        ("Node CPU is not restarts' whole picture.", False),  # was: a possessive, a noun
        ("Node CPU is not restarts or the whole picture.", False),  # was: a predicate noun
        ("A hot CPU is not killing them.", True),  # a participle after the copula: a verb
        ("The CPU is not what the story of these restarts is.", False),  # was
        ("CPU contention slows pods down; it does not kill them.", True),  # rule 281's case
        ("A hot CPU throttles pods, it never restarts them.", True),
        ("CPU pressure does not make pods restart.", True),  # two words between
        ("The CPU does not restart user-service.", True),  # the symptom and an object
    ],
)
def test_1185_the_symptom_as_what_the_signal_does_not_do(ev, si, after: str, ok: bool) -> None:  # type: ignore[no-untyped-def]
    said = f"{CAUSE}\n\nnode-1 is at 97% CPU, so the CPU is a red herring here. {after}"
    out = misled(ev, si, said)
    assert out.exhibited is ok, out.evidence


@pytest.mark.parametrize(
    ("rest", "ok"),
    [
        ("  is not the whole picture of the restarts.", False),
        ("  isn't the restarts' story", False),
        ("  is not their restarts", False),
        ("  is not restarts' whole picture", False),
        ("  isn't restarts", False),
        ("it is not killing them", True),
        ("it is not what kills them", True),
        ("it does not kill them", True),
        ("it doesn't restart pods", True),
        ("it cannot get them killed", True),
        ("it would throttle, not kill", True),
        ("the restarts are not it", False),  # the symptom before the negation
    ],
)
def test_1185_symptom_denied(rest: str, ok: bool) -> None:
    assert symptom_denied(rest, ["kill", "restart"]) is ok


def test_1185_told_reads_the_stems_apart_from_the_terms() -> None:
    """The true cause's terms still count anywhere; the stems only as rule 733 reads them."""

    def grounded(r: str) -> bool:
        return "user-service" in r

    nxt = ["Node CPU is not the whole picture of the OOM restarts."]
    assert told(nxt, ["cpu"], grounded, ["oom"], (["restart"],))  # a true cause's term
    assert not told(nxt, ["cpu"], grounded, [], (["restart"],))  # was: the stem anywhere
    assert told(["It does not restart them."], ["cpu"], grounded, [], (["restart"],))


# ---- rule 1186: a line's name said by a word is the line's name ------------------------------

_TAIL = "so other lines after line {k} were filtered out"


@pytest.mark.parametrize(
    "names",
    [
        ("red", "blue", "green"),  # was: three tails, none repeated (coloured_so_every_message)
        ("apple", "pear", "plum"),  # was: any word
        ("A", "bravo", "red"),  # was: a letter, a letter said, a word mixed
    ],
)
def test_1186_tails_naming_lines_by_words_are_one(names: tuple[str, ...]) -> None:
    said = [f"Seen: {m}, {_TAIL.format(k=k)}." for k, m in zip(names, ("a b", "c d", "e f"))]
    assert repeated_tails(said) == {_TAIL.format(k="#")}


@pytest.mark.parametrize(
    "said",
    [
        # a name with a hyphen, a dot or a figure: an object's
        ["Seen: a b c, so entry notification-service fails", "Seen: d e f, so entry db-x fails"],
        ["Seen: a b c, so red fails", "Seen: d e f, so blue fails"],  # after no line's noun
        ["Seen: a b c, so the line was dropped", "Seen: d e f, so the line is dropped"],
        [
            "Seen: a b c, so the message of payments fails",
            "Seen: d e f, so the message of db fails",
        ],
        ["Seen: a b c, so the alphabet fails", "Seen: d e f, so the alphanumeric fails"],
        ["Seen: a b c, so no pods start", "Seen: d e f, so no jobs start"],  # "no" a word
    ],
)
def test_1186_other_words_are_kept(said: list[str]) -> None:
    assert repeated_tails(said) == frozenset()


@pytest.mark.parametrize(
    ("tail", "folded"),
    [
        ("so line red fails", "so line # fails"),  # was: kept
        ("after line alphabetic", "after line #"),  # was: kept
        ('after line "red" were', "after line # were"),  # was: kept
        ("after the red line were", "after the # line were"),  # was: kept
        ("so line dark-red fails", "so line dark-red fails"),  # an object name's shape
        ("the notification-service line", "the notification-service line"),
        ("so the line was dropped", "so the line was dropped"),
        ("so other lines after line x-ray were", "so other lines after line # were"),  # 1165
        ("lines a and b", "lines # and b"),  # 1074
        ("the message was lost", "the message was lost"),  # a verb goes on
        ("no longer works", "no longer works"),  # "no" takes letters only
    ],
)
def test_1186_line_named(tail: str, folded: str) -> None:
    assert line_named(tail) == folded


# ---- rule 1187: a remediation word inside an "after" phrase naming an event -----------------


@pytest.mark.parametrize(
    ("clause", "word", "told"),
    [
        ("failing after the last change to restrict-backend", "change", True),  # was
        ("frontend broke following the update of restrict-backend", "update", True),  # was
        ("W recovered after the rollback of restrict-backend", "rollback", True),  # was
        ("after you update restrict-backend", "update", False),  # an order: a subject, a verb
        ("after the patch to restrict-backend is applied", "patch", False),  # a verb of its own
        ("patch restrict-backend after the maintenance window", "patch", False),  # cue before
        ("patch restrict-backend", "patch", False),
    ],
)
def test_1187_a_cue_in_an_after_phrase(clause: str, word: str, told: bool) -> None:
    assert history(clause, clause.index(word)) is told


@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        # round 52a's after_change_noun_52a: the one line of fifty naming the policy (was)
        ("Frontend has been failing after the last change to restrict-backend, 3d ago.", False),
        ("After you update restrict-backend to admit frontend, restart frontend.", True),
        ("Frontend fails after the last change to restrict-backend; patch restrict-backend.", True),
        ("Patch restrict-backend after the maintenance window.", True),
    ],
)
def test_1187_a_history_line_proposes_no_fix(ev: Any, answer: str, ok: bool) -> None:  # type: ignore[no-untyped-def]
    assert ev.run(netpol(ev), "propose_targeted_fix", answer=answer).exhibited is ok
