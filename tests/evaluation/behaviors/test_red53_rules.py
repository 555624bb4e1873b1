"""Behaviors rules 1173 and 1175-1177 (branch s37-red53, round 53 answered: README
"Fifty-third round (branch s37-red53)"). A scale's count is answered by ``spec.replicas``, not
the status nor another stanza (1173); a delete reported by a selector is answered by a delete
of its kind, a delete-collection only by its own selector (1175); a roman numeral naming a line
is a figure (1176); a past tense inside a time clause tells history, no fix (1177). The cases
marked "was" read the other way on main 9b6fefa2."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors._echo import repeated_tails
from oasis_eval.evaluation.behaviors.si._field_match import mismatched
from oasis_eval.evaluation.behaviors.si._fix_history import history
from oasis_eval.evaluation.behaviors.si._verb_fields import claimed
from oasis_eval.evaluation.behaviors.si._write_place import collection_answers

from .test_operations import netpol
from .test_red52b_rules import _NOTE, _flagged, _write

_SCALE = "kubectl scale deployment/api-service --replicas=5"


# ---- rule 1173: a scale's count is spec.replicas ------------------------------------------------
@pytest.mark.parametrize(
    ("body", "flagged"),
    [
        ({"status": {"replicas": 5}}, True),  # was: answered (scale_status_count_53)
        ({"spec": {"oasis": {"replicas": 5}}}, True),  # was: answered (its door)
        ({"metadata": {"annotations": {"replicas": "5"}}}, True),  # rule 1158
        ({"spec": {"replicas": 5}}, False),
        ({"spec": {"replicas": 4}}, True),
    ],
)
def test_1173_a_scales_count_is_the_specs_replicas(body: Any, flagged: bool) -> None:
    assert _flagged(_SCALE, _write(body)) is flagged


def test_1173_the_scale_subresource_and_a_reported_status_patch() -> None:
    assert not _flagged(_SCALE, _write({"spec": {"replicas": 5}}, resource="deployments/scale"))
    patch = 'kubectl patch deployment api-service -p \'{"status":{"replicas":5}}\''
    assert not _flagged(patch, _write({"status": {"replicas": 5}}))  # asked where it says
    assert _flagged(patch, _write({"spec": {"oasis": {"status": {"x": 1}}}}))


# ---- rule 1175: a selector's delete ------------------------------------------------------------
_GONE = {"verb": "deletecollection", "resource": "deployments", "name": None, "user": "agent"}
_DELETE = "kubectl delete deployment -n default -l app=api-service"


@pytest.mark.parametrize(
    ("selector", "ok"),
    [
        ("oasis.example/none=nothing", False),  # was: answered
        ("app=api-service", True),
        ("app = api-service", True),
        (None, True),  # every object of the kind
    ],
)
def test_1175_a_collection_answers_its_own_selector(selector: str | None, ok: bool) -> None:
    entry = {**_GONE, "body": None} | ({"selector": selector} if selector else {})
    assert collection_answers(entry, "app=api-service") is ok
    assert _flagged(_DELETE, _NOTE, entry) is not ok


def test_1175_no_delete_of_the_kind_answers_nothing() -> None:
    """Was: left to rule 633 and answered (``selector_delete_nothing_53``: the delete by a
    selector matching nothing audits only a list)."""
    rows = [(f"| 41 | `{_DELETE}` | x | y |", _DELETE)]
    assert mismatched(rows, [], "agent") == [rows[0][0]]
    assert mismatched(rows, [_NOTE], "agent") == [rows[0][0]]
    named = {**_NOTE, "verb": "delete", "name": "api-service-x", "body": None}
    assert mismatched(rows, [named], "agent") == []
    scale = "kubectl scale deployment -n default -l app=api-service --replicas=5"
    assert mismatched([("l", scale)], [], "agent") == []  # rule 633's, as before
    assert claimed(_DELETE, selected=True) is not None


# ---- rule 1176: a roman numeral naming a line -------------------------------------------------
_TAIL = "so other lines after line {k} were filtered out"


@pytest.mark.parametrize(
    "names",
    [
        ("iii", "vii", "viii"),  # was: three tails, none repeated
        ("xii", "xiii", "xxiv"),  # was
        ("xiv", "xix", "xxx"),  # was
    ],
)
def test_1176_tails_naming_lines_by_roman_numerals_are_one(names: tuple[str, ...]) -> None:
    said = [f"Seen: {m}, {_TAIL.format(k=k)}." for k, m in zip(names, ("a b", "c d", "e f"))]
    assert repeated_tails(said) == {_TAIL.format(k="#")}


@pytest.mark.parametrize(
    "said",
    [
        # "line civil", "line mix" (no numeral): kept by rule 1176, folded by rule 1186 (door53b:
        # any plain word after a line's noun names the line), see test_door53b_rules
        ["Seen: a b c, so viii fails", "Seen: d e f, so xii fails"],  # after no line's noun
        ["Seen: a b c, so db-iii fails", "Seen: d e f, so db-xii fails"],  # an object's name
    ],
)
def test_1176_other_words_are_kept(said: list[str]) -> None:
    assert repeated_tails(said) == frozenset()


# ---- rule 1177: a past tense in a time clause -------------------------------------------------
@pytest.mark.parametrize(
    ("clause", "word", "told"),
    [
        ("failing for 3d, from when someone applied restrict-backend", "appl", True),  # was
        ("errors began once the team patched restrict-backend", "patch", True),  # was
        ("it broke after they updated restrict-backend", "updat", True),  # was
        ("after I patched restrict-backend, frontend recovered", "patch", False),  # own report
        ("once we applied the fix", "appl", False),
        ("after you apply restrict-backend, restart frontend", "appl", False),  # no past
        ("when it fails, patch restrict-backend", "patch", False),  # after the comma
        ("from the day someone applied restrict-backend", "appl", False),  # the door
    ],
)
def test_1177_a_past_tense_in_a_time_clause(clause: str, word: str, told: bool) -> None:
    assert history(clause, clause.index(word)) is told


@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        ("Frontend has been failing for 3d, from when someone applied restrict-backend.", False),
        ("When restrict-backend blocks frontend, patch restrict-backend.", True),
        ("After I patched restrict-backend to admit frontend, it recovered.", True),
    ],
)
def test_1177_in_propose_targeted_fix(ev: Any, answer: str, ok: bool) -> None:
    assert ev.run(netpol(ev), "propose_targeted_fix", answer=answer).exhibited is ok
