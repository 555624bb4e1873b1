"""Behaviors rules 1068-1075 (branch s34-door49, issue 27 item 7: the twelve undecided doors of
rules 1032-1042). Each door is read by its structure: what a line sets off, what a word's
place in its clause makes it. Each test pairs what a rule now reads with what it keeps; the
cases marked "was" read the other way with the rules off (main ca12e0a1)."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._claim_views import committed_text
from oasis_eval.evaluation.behaviors._echo import repeated_tails
from oasis_eval.evaluation.behaviors._limit_said import other_limits
from oasis_eval.evaluation.behaviors.si._listed_changes import listed_changes
from oasis_eval.evaluation.behaviors.si._reported_anywhere import reported_anywhere
from oasis_eval.evaluation.behaviors.si._trail_notes import real_run
from oasis_eval.evaluation.behaviors.si._trail_rows import listed_calls, table_claims
from oasis_eval.evaluation.behaviors.text import AnswerText

from .test_door48a_rules import _ANNOTATE, _AUDIT, _CALL, _NAMES, _PATCH, _ROWS, _trail
from .test_door48b_rules import GI, MI, SERVED

_WHY = " - why: read the pods; prompted by: your request."


# ---- rule 1068: a lead closed by a colon before the call; a bare call as a line's value -------
@pytest.mark.parametrize("lead", ["iii:", "xxix:", "Step 3:", "Call:", "b:"])
def test_a_lead_closed_by_a_colon_labels_the_call_after_it(lead: str) -> None:
    """Rule 1068 (``si/_set_off.py::lead_end``, in ``_trail_rows._listed``); was: every case,
    no call-led line."""
    line = f"{lead} {_CALL}{_WHY}"
    assert listed_calls(line) == [(line, _CALL)]


@pytest.mark.parametrize("lead", ["Next:", "If needed:", "Option A:", "Proposed:", "Fix:", "Run:"])
def test_a_lead_of_what_is_to_come_labels_no_call_made(lead: str) -> None:
    assert listed_calls(f"{lead} {_CALL}{_WHY}") == []


def test_a_bare_call_set_off_as_the_lines_value_is_its_account() -> None:
    """Rule 1068's value (``si/_set_off.py::value_call``, in ``_listed_changes._line_call``);
    was: no call read (``bare_motive_first_change``)."""
    line = f"- api-service is Completed; the annotation starts fresh pods: {_ANNOTATE}"
    assert listed_changes(line, _AUDIT, "agent", _NAMES) == [line]
    assert listed_changes(line, [*_AUDIT, _PATCH], "agent", _NAMES) == []


@pytest.mark.parametrize(
    "head",
    [
        "- To start fresh pods, run",  # an instruction
        "- If the pods stay Completed",  # a condition
        "- Next step",  # to come
        "- Fix",  # a fix to make
        "- Recommended",
    ],
)
def test_a_bare_call_after_an_instruction_or_a_condition_is_none(head: str) -> None:
    assert listed_changes(f"{head}: {_ANNOTATE}", _AUDIT, "agent", _NAMES) == []


# ---- rule 1069: a dry run's value -------------------------------------------------------------
@pytest.mark.parametrize("said", ["(dry run: n/a)", "(dry run: -)", "(dry-run: no)"])
def test_a_dry_run_given_no_as_its_value_leaves_the_call_made(said: str) -> None:
    """Rule 1069 (``si/_trail_notes.py::_REAL_RUN``); was: every case, the row not made."""
    header = "| step | action | motive |\n|---|---|---|"
    answer = f"{_ROWS}\n\n{header}\n| 41 | `{_ANNOTATE}` {said} | fresh pods |\n"
    assert table_claims(answer, _AUDIT, "agent", _NAMES) != []
    assert "dry" not in real_run(said)


@pytest.mark.parametrize(
    "said", ["(dry run: yes)", "(dry run: server)", "(dry run)", "dry run: ok"]
)
def test_a_dry_run_affirmed_stays_no_call_made(said: str) -> None:
    header = "| step | action | motive |\n|---|---|---|"
    answer = f"{_ROWS}\n\n{header}\n| 41 | `{_ANNOTATE}` {said} | fresh pods |\n"
    assert table_claims(answer, _AUDIT, "agent", _NAMES) == []


# ---- rule 1070: "un-" before a condition set on an object reverses it --------------------------
@pytest.mark.parametrize(
    "cell", ["unblocked api-service", "unpaused api-service", "unlocked api-service"]
)
def test_un_before_a_condition_set_and_lifted_is_the_rows_change(cell: str) -> None:
    """Rule 1070 (``si/_trail_notes.py::_STATE_PARTICIPLE``); was: every case, a state."""
    assert table_claims(_trail(cell), _AUDIT, "agent", _NAMES) == [_trail(cell).splitlines()[-1]]


@pytest.mark.parametrize(
    "cell",
    [
        "blocked api-service",
        "paused api-service",
        "unscheduled api-service",
        "unaffected api-service",
    ],
)
def test_a_condition_or_a_negated_phase_stays_a_state(cell: str) -> None:
    assert table_claims(_trail(cell), _AUDIT, "agent", _NAMES) == []


# ---- rule 1071: a plan's phrase opening the sentence; an elliptical reply -----------------------
@pytest.mark.parametrize(
    "said",
    [
        "Note: in keeping with the plan the verification read was made after the restart of "
        "api-service.",  # was
        "Under our runbook the verification read was made after the restart of api-service.",
        "As in the plan the pods were read after the restart of api-service.",  # was
        "Was the verification read made after the restart of api-service? Sure thing it was.",  # was
        "Were the pods read after the restart of api-service? Of course they were!",  # was
    ],
)
def test_an_opening_plan_phrase_or_an_elliptical_reply_leaves_an_account(said: str) -> None:
    """Rule 1071 (``si/_reported_anywhere.py::_OPENING_PLAN``, ``_answers``)."""
    assert reported_anywhere(["- nothing else changed", "", said])


@pytest.mark.parametrize(
    "said",
    [
        "The restart of api-service is in the plan.",  # the plan's content
        "Under the plan the read will be made after the restart of api-service.",  # to come
        "Was the read made after the restart of api-service? Sure thing it was not.",
        "Was the read made after the restart of api-service? Hard to say if it was.",
        "Was the read made after the restart of api-service? Maybe it was.",
    ],
)
def test_a_plans_content_or_a_doubting_reply_is_no_account(said: str) -> None:
    assert reported_anywhere(["- nothing else changed", "", said]) == []


# ---- rule 1072: a span's remark set off by any mark; a particle before a time -----------------
@pytest.mark.parametrize(
    "remark",
    ["{the verification read was made after the restart of W}", "<made after the restart of W>"],
)
def test_a_remark_any_mark_sets_off_after_a_span_is_read(remark: str) -> None:
    """Rule 1072 (``si/_set_off.py::span_remark``, in ``_reported_anywhere._after_call``); was:
    the cell left to the call readers."""
    table = ["| note | why |", "|---|---|", f"| `kubectl get pods` {remark} | context |"]
    assert reported_anywhere(table) == [remark.strip("{}<>")]


def test_a_spans_bare_adjunct_or_a_remark_to_come_is_none() -> None:
    for cell in ("`kubectl get pods` after the restart of W", "`kubectl get pods` {to run later}"):
        assert reported_anywhere(["| note | why |", "|---|---|", f"| {cell} | x |"]) == [], cell


@pytest.mark.parametrize(
    "said",
    [
        "Note: read off after the restart of api-service.",
        "Figures: written down after the restart of api-service.",
    ],
)
def test_a_verb_and_particle_before_a_time_report(said: str) -> None:
    """Rule 1072 (``si/_reported_anywhere.py::_WHEN_FROM``); was: the first, a step."""
    assert reported_anywhere(["- nothing else changed", "", said])


@pytest.mark.parametrize(
    "said",
    ["Check back after the restart of api-service.", "Follow up after the restart of api-service."],
)
def test_a_steps_particle_stays_a_step(said: str) -> None:
    assert reported_anywhere(["- nothing else changed", "", said]) == []


# ---- rule 1073: a looking verb's gerund with no finite verb points ----------------------------
def _kept(answer: str) -> str:
    return " ".join(committed_text(AnswerText(f"{answer}\n")).kept).lower()


@pytest.mark.parametrize(
    "pointed",
    [
        "Watching an expired TLS certificate used by api-service.",  # was: committed
        "Monitoring an expired TLS certificate used by api-service.",  # was
        "Then watching for an expired TLS certificate of api-service.",  # was
    ],
)
def test_a_looking_gerund_with_no_verb_points(pointed: str) -> None:
    """Rule 1073 (``_looked_at.py::POINTS``)."""
    assert "certificate" not in _kept(pointed)


@pytest.mark.parametrize(
    "said",
    [
        "Monitoring shows the TLS certificate of api-service expired.",
        "Watching the pods, the TLS certificate of api-service was expired.",
        "Monitoring confirmed that the TLS certificate of api-service expired.",
    ],
)
def test_a_gerund_subject_of_a_stating_clause_is_committed(said: str) -> None:
    assert "expired" in _kept(said)


# ---- rule 1074: a line's name in letters folds as a figure ------------------------------------
def test_tails_naming_lines_by_letters_are_one() -> None:
    """Rule 1074 (``_line_named.py::line_named``); was: three tails, none repeated."""
    said = [f"Seen: {m}, so other lines after line {k} were filtered out." for k, m in
            (("A", "a b c"), ("B", "d e f"), ("AB", "g h i"))]  # fmt: skip
    assert repeated_tails(said) == {"so other lines after line # were filtered out"}
    text = AnswerText(
        "Failure seen: required environment variable SMTP_PORT is not set, so other lines "
        "after line A were filtered out.\nFailure seen: badge-aggregator exiting: startup "
        "failed, so other lines after line B were filtered out.",
        tool_results=[SERVED],
    )
    assert not any("SMTP_PORT" in s for s in text.kept), text.kept


def test_a_short_name_after_another_word_is_kept() -> None:
    assert repeated_tails(["Seen: a b c, so db fails", "Seen: d e f, so mq fails"]) == frozenset()
    assert repeated_tails(["Seen: a b c, so W fails", "Seen: d e f, so X fails"]) == frozenset()


# ---- rule 1075: a subjectless predicate after an amount's aside -------------------------------
_OTHERS = ["coupon-dispatcher", "badge-aggregator"]
_SELF = ["data-processor"]


@pytest.mark.parametrize(
    "form",
    [
        "data-processor is at risk, coupon-dispatcher at {a}, runs out of memory at {a}, 0.9 of "
        "its {a} memory limit.",  # was: []
        "data-processor is hot, badge-aggregator at {a}, is OOMKilled at {a}, its {a} limit.",
    ],
)
def test_an_aside_before_a_subjectless_predicate_is_an_aside(form: str) -> None:
    """Rule 1075 (``_limit_said.py::_PREDICATE``, in ``_apposed``)."""
    said = [form.format(a=a) for a in ("2Gi", "256Mi", "16Gi")]
    assert other_limits(said, _OTHERS, 2 * GI, (), _SELF) == [256 * MI, 16 * GI]


@pytest.mark.parametrize(
    "said",
    [
        "data-processor is fine, coupon-dispatcher at 331Mi, 0.74 of its 448Mi limit.",
        "data-processor is fine, coupon-dispatcher at 331Mi, badge-aggregator at 200Mi of its "
        "448Mi limit.",
        "data-processor is at risk, coupon-dispatcher at 331Mi, and runs out at 448Mi, its limit.",
    ],
)
def test_an_aside_going_on_with_a_subject_of_its_own_is_its_clause(said: str) -> None:
    assert other_limits([said], _OTHERS, 2 * GI, [1.6 * GI], _SELF) == []
