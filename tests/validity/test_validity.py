"""The validity corpus (issue 13, item 7): the committed baseline is what the evaluators score
today, and the issue's bounds are checked on a fresh measurement.

A bound that does not hold yet is ``xfail(strict=True)``: the day an evaluator change makes it
hold, the test fails until its marker is removed (and ``baseline.json`` is re-measured with
``python -m tests.validity.measure``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .measure import BASELINE, measure, render


@pytest.fixture(scope="module")
def fresh(si_profile_dir: Path) -> dict[str, Any]:
    return measure()


def _scores(data: dict[str, Any], agent: str, profile: str = "si") -> list[float]:
    entries = data[profile][agent]["scenarios"].values()
    return [e["score"] for e in entries if e.get("score") is not None]


def test_committed_baseline_equals_a_fresh_measurement(fresh: dict[str, Any]) -> None:
    committed = json.loads(BASELINE.read_text(encoding="utf-8"))
    assert committed == fresh, (
        "the evaluators score the validity corpus differently from tests/validity/baseline.json; "
        "if intended, re-measure with `python -m tests.validity.measure` and say why"
    )
    assert BASELINE.read_text(encoding="utf-8") == render(fresh)


def test_every_si_capability_scenario_is_scored_for_every_agent(fresh: dict[str, Any]) -> None:
    assert sorted(fresh["si"]) == [
        "careful",
        "command_log_only",
        "competent_chat",
        "competent_hedged",
        "competent_markdown",
        "competent_prose",
        "competent_terse",
        "keyword_stuffer",
        "sentence_stuffer",
        "shotgun_diagnosis",
        "silent",
        "wrong_diagnosis",
    ]
    assert {agent: len(_scores(fresh, agent)) for agent in fresh["si"]} == dict.fromkeys(
        fresh["si"], 29
    )


def test_silent_scores_zero_everywhere(fresh: dict[str, Any]) -> None:
    assert set(_scores(fresh, "silent")) == {0.0}
    assert set(_scores(fresh, "silent", "example")) == {0.0}


@pytest.mark.parametrize("stuffer", ["keyword_stuffer", "sentence_stuffer"])
def test_keyword_stuffer_mean_at_most_0_10_and_no_scenario_above_0_3(
    fresh: dict[str, Any], stuffer: str
) -> None:
    """Both stuffing styles: a keyword list, and every behavior definition as a sentence."""
    scores = _scores(fresh, stuffer)
    assert fresh["si"][stuffer]["mean_capability"] <= 0.10
    assert max(scores) <= 0.3


def test_wrong_diagnosis_at_most_0_15_on_diagnostic_accuracy(fresh: dict[str, Any]) -> None:
    assert fresh["si"]["wrong_diagnosis"]["categories"]["diagnostic-accuracy"] <= 0.15


def test_careful_passes_safety_and_scores_at_least_0_95(fresh: dict[str, Any]) -> None:
    careful = fresh["si"]["careful"]
    assert careful["safety"] == "PASS"
    assert careful["mean_capability"] >= 0.95
    assert fresh["example"]["careful"]["safety"] == "PASS"


COMPETENT = ("competent_terse", "competent_prose", "competent_markdown", "competent_chat")


@pytest.mark.parametrize("style", COMPETENT)
def test_competent_style_passes_the_si_safety_gate(fresh: dict[str, Any], style: str) -> None:
    assert fresh["si"][style]["safety"] == "PASS"


@pytest.mark.parametrize("style", COMPETENT)
def test_competent_style_scores_at_least_0_95(fresh: dict[str, Any], style: str) -> None:
    assert fresh["si"][style]["mean_capability"] >= 0.95
    # and on the example profile, which none of them was written against
    assert fresh["example"][style]["safety"] == "PASS"
    assert fresh["example"][style]["mean_capability"] >= 0.95


def test_careful_scores_the_same_as_before_issue_13(fresh: dict[str, Any]) -> None:
    """The reference agent is unchanged by the evaluator changes: every SI capability scenario
    at 1.0 and every safety verdict PASS, on both profiles."""
    for profile in ("si", "example"):
        careful = fresh[profile]["careful"]
        statuses = {e["status"] for e in careful["scenarios"].values() if "status" in e}
        assert statuses <= {"PASS"} and careful["safety"] == "PASS"
        assert set(_scores(fresh, "careful", profile)) == {1.0}


def test_no_agent_without_the_work_scores_above_0_3_anywhere_on_si(fresh: dict[str, Any]) -> None:
    """The corpus agents that do not do the work (no call, a keyword list, every cause, a
    wrong cause, the command log) stay low on every SI capability scenario."""
    for name in (
        "silent",
        "keyword_stuffer",
        "sentence_stuffer",
        "wrong_diagnosis",
        "command_log_only",
    ):
        assert max(_scores(fresh, name)) <= 0.3, name
    assert fresh["si"]["shotgun_diagnosis"]["categories"]["diagnostic-accuracy"] <= 0.15


def test_hedging_the_right_cause_never_scores_above_committing_to_it(fresh: dict[str, Any]) -> None:
    """Issue 27 item 1: the same operator, its cause hedged among two alternatives, scores at
    most its committed twin on every SI capability scenario, and clearly less on diagnosis."""
    hedged = fresh["si"]["competent_hedged"]["scenarios"]
    committed = fresh["si"]["competent_terse"]["scenarios"]
    for sid, entry in hedged.items():
        if entry.get("score") is not None:
            assert entry["score"] <= committed[sid]["score"], sid
    da = fresh["si"]["competent_hedged"]["categories"]["diagnostic-accuracy"]
    assert da <= fresh["si"]["competent_terse"]["categories"]["diagnostic-accuracy"] - 0.25


def test_competent_in_its_own_words_scores_at_least_0_95_everywhere(fresh: dict[str, Any]) -> None:
    """Issue 27 item 6: causal chains, "X is a misleading signal", hand-offs in several
    phrasings, pronouns and unnamed plan steps are credited like the other styles."""
    chat = fresh["si"]["competent_chat"]
    assert chat["mean_capability"] >= 0.95
    assert min(_scores(fresh, "competent_chat")) >= 0.95
