"""The DA doors of session 36 (issue 27, branch s36-door52): behaviors rules 1164-1165. The
cases marked "was" are read the other way by the code before the rules; the others are the
negatives each rule keeps out (the honest forms read as before)."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._echo import repeated_tails
from oasis_eval.evaluation.behaviors.si._resumed_told import told

from .misleading_support import CAUSE, misled

# ---- rule 1164: rule 281's next sentence tells something past the signal --------------------


@pytest.mark.parametrize(
    ("after", "ok"),
    [
        ("Node CPU is not the whole picture.", False),  # was: a "not" about the CPU, no reason
        ("The CPU isn't the story here.", False),  # was
        ("Node CPU does not tell the whole picture.", False),  # was
        ("CPU contention slows pods down; it does not kill them.", True),  # rule 281's case
        ("A busy CPU throttles containers, it does not get them OOM killed.", True),
        ("The CPU does not restart user-service.", True),  # the symptom and an object
    ],
)
def test_1164_the_next_sentence_tells_something(ev, si, after: str, ok: bool) -> None:  # type: ignore[no-untyped-def]
    said = f"{CAUSE}\n\nnode-1 is at 97% CPU, so the CPU is a red herring here. {after}"
    out = misled(ev, si, said)
    assert out.exhibited is ok, out.evidence


def test_1164_the_written_twin_with_no_lead(ev, si) -> None:  # type: ignore[no-untyped-def]
    """Was: red51b's twin, the figure in the discard, "not the whole picture" its cue."""
    said = (
        f"{CAUSE}\n\nnode-1 is at ninety seven percent CPU, so the CPU is a red herring here. "
        "Node CPU is not the whole picture."
    )
    out = misled(ev, si, said)
    assert not out.exhibited, out.evidence


@pytest.mark.parametrize(
    ("nxt", "ok"),
    [
        (["Node CPU is not the whole picture."], False),
        (["It does not kill them."], True),  # a symptom stem
        (["The CPU is not on user-service."], True),  # an object
        (["Node CPU on node-1 is not it."], False),  # the signal's own object blanked
        ([], False),
    ],
)
def test_1164_told(nxt: list[str], ok: bool) -> None:
    names = ["user-service", "node-1"]

    def grounded(r: str) -> bool:
        return any(n in r for n in names)

    assert told(nxt, ["cpu", "node-1"], grounded, ["kill", "restart"]) is ok


# ---- rule 1165: a letter said in the spelling alphabet is the letter ------------------------

_TAIL = "so other lines after line {k} were filtered out"


@pytest.mark.parametrize(
    "names",
    [
        ("alpha", "bravo", "charlie"),  # was: three tails, none repeated
        ("x-ray", "yankee", "zulu"),  # was
        ("beta", "gamma", "omega"),  # was: the Greek letters' names
        ("A", "bravo", "charlie"),  # was: a letter and letters said mixed
    ],
)
def test_1165_tails_naming_lines_by_spelled_letters_are_one(names: tuple[str, ...]) -> None:
    said = [f"Seen: {m}, {_TAIL.format(k=k)}." for k, m in zip(names, ("a b", "c d", "e f"))]
    assert repeated_tails(said) == {_TAIL.format(k="#")}


@pytest.mark.parametrize(
    "said",
    [
        # "line red", "line alphabetic" (any other word after a line's noun): folded since
        # rule 1186 (test_door53b_rules.py)
        ["Seen: a b c, so the alphabet fails", "Seen: d e f, so the alphanumeric fails"],
        ["Seen: a b c, so alpha fails", "Seen: d e f, so bravo fails"],  # after no line's noun
    ],
)
def test_1165_other_words_are_kept(said: list[str]) -> None:
    assert repeated_tails(said) == frozenset()
