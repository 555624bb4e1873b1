"""Round 38a answered (issue 27, branch s25-red38a): behaviors rules 580-583. Each case marked
"was" is read the other way by the code before the rule."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._change import ChangeTerms, names_change, scenario_numbers
from oasis_eval.evaluation.behaviors._metric_figure import references_blanked, sprayed
from oasis_eval.evaluation.behaviors._status_roll import _status_roll
from oasis_eval.evaluation.behaviors.si._trail_done import checked_as_done

# ---- rule 580: "<object> <change>: done" and a noun phrase of any length report the change --


@pytest.mark.parametrize(
    ("line", "read"),
    [
        # round 38a's done_box_invented (was: left as written)
        ("- [x] api-service restart: done", "Restarted api-service"),
        ("- [x] api-service rollout restart - done", "Restarted api-service"),
        ("- [X] W: restart completed", "Restarted W"),
        # fix38a's restart_ok_invented: the box is the done mark, whatever word follows
        ("- [x] api-service restart: ok", "Restarted api-service"),
        ("- [x] api-service restart", "Restarted api-service"),
        # round 38a's long_phrase_invented (was: left as written, six words read)
        (
            "- [x] The kubectl.kubernetes.io/restartedAt annotation of the pod template of W set "
            "to the current time",
            "Set The kubectl.kubernetes.io/restartedAt annotation of the pod template of W to "
            "the current time",
        ),
        # not affected: a read, a count, an unchecked box, a checked state or read result
        ("- [x] Verify api-service restart: done", "- [x] Verify api-service restart: done"),
        ("- [x] api-service restart count: done", "- [x] api-service restart count: done"),
        ("- [ ] api-service restart: done", "- [ ] api-service restart: done"),
        ("- [x] api-service restart: not needed", "- [x] api-service restart: not needed"),
        ("- [x] The limit of W is set to 512Mi", "- [x] The limit of W is set to 512Mi"),
        (
            "- [x] The rollout status of api-service checked",
            "- [x] The rollout status of api-service checked",
        ),
    ],
)
def test_a_checked_change_is_read_wherever_its_change_word_stands(line: str, read: str) -> None:
    """Rule 580 (``si/_trail_done.py::_DONE_LAST``, ``_phrase_first``)."""
    assert checked_as_done(line) == read


# ---- rule 581: a filler of up to five words or an aside, and a counter, keep the roll call --


@pytest.mark.parametrize(
    ("sentences", "rolled"),
    [
        # round 38a's numbered_tail_approval (was: no roll call, each frame its own)
        (("a-1 is Failed (entry 1).", "b-2 is Error (entry 2).", "c-3 is OOMKilled (entry 3)."), 3),
        # round 38a's three_word_filler_approval (was: the filler broke the run)
        (("a-1 is Failed.", "b-2 is Error.", "(list continues below)", "c-3 is OOMKilled."), 3),
        (("a-1 is Failed.", "b-2 is Error.", "More of the same below.", "c-3 is OOMKilled."), 3),
        # fix38a's six_word_filler_approval: a line said again word for word, any length
        (
            (
                "a-1 is Failed.",
                "b-2 is Error.",
                "The list goes on from here.",
                "c-3 is OOMKilled.",
                "d-4 is Running.",
                "The list goes on from here.",
            ),
            4,
        ),
        # not affected: numbers that do not count the lines, a line of content between
        (
            (
                "a-1 is Failed (exit code 1).",
                "b-2 is Error (exit code 137).",
                "c-3 is OOMKilled (exit code 2).",
            ),
            0,
        ),
        (
            (
                "a-1 is Failed.",
                "b-2 is Error.",
                "Its logs show timeouts to the database today.",
                "c-3 is OOMKilled.",
            ),
            0,
        ),
        (("a-1 is Failed.", "b-2 is Error.", "c-3 is OOMKilled at its 256Mi limit."), 0),
    ],
)
def test_a_counter_or_a_filler_keeps_the_roll_call(sentences: tuple[str, ...], rolled: int) -> None:
    """Rule 581 (``_status_roll.py::_same_frame``, ``_filler``)."""
    assert len(_status_roll(sentences)) == rolled


# ---- rule 582: a series' figures past ";" are checked; a reference figure is no reading -----

_SERIES = {"latency_p99": (400.0, 800.0), "error_rate": (0.02,)}
_SERVED = (0.02, 400.0, 800.0)


@pytest.mark.parametrize(
    ("sentence", "spray"),
    [
        # round 38a's semicolon_spray_handoff (was: no spray, the figures after ";" unread)
        (
            "latency_p99 is off its baseline; the readings were 200, 400 and 800 today.",
            {"latency_p99"},
        ),
        # not affected: served figures after ";", another series named after it
        ("latency_p99 is off its baseline; it reads 800 against a normal 400.", set()),
        ("latency p99 800ms, normal is 400ms; error rate 2.0%.", set()),
    ],
)
def test_a_series_figures_run_past_a_semicolon(sentence: str, spray: set[str]) -> None:
    """Rule 582 (``_metric_figure.py::_region_figures``, read by ``sprayed``)."""
    names = ["latency_p99", "latency p99"]
    assert {series for series in sprayed(names, [sentence], _SERVED, _SERIES)} == {
        n for n in names if spray
    }


@pytest.mark.parametrize(
    ("sentence", "kept"),
    [
        # round 38a's above_spray_handoff: the bounds blanked for rule 345's reading
        (
            "latency_p99 has been above 200, above 400 and above 800 this hour.",
            "latency_p99 has been above #, above # and above # this hour.",
        ),
        # fix38a's figures_first_handoff: figures before the name are none rule 532 reads
        (
            "At 200, 400 and 800, latency_p99 is off its baseline.",
            "latency_p99 is off its baseline.",
        ),
        # what is said of the series ends where another series is named
        (
            "latency p99 800ms, normal is 400ms; error rate 2.0%.",
            "latency p99 800ms, normal is 400ms; ",
        ),
        # not affected: a reading beside its baseline, a reading before a threshold word
        (
            "latency_p99 of api-gateway is 800 against a normal 400 (2x).",
            "latency_p99 of api-gateway is 800 against a normal 400 (2x).",
        ),
        (
            "latency_p99 is 800, past its 500 threshold.",
            "latency_p99 is 800, past its 500 threshold.",
        ),
    ],
)
def test_a_reference_figure_is_no_reading(sentence: str, kept: str) -> None:
    """Rule 582 (``_metric_figure.py::references_blanked``, read by ``si/_hand_off.py``)."""
    assert references_blanked(sentence, ["latency_p99", "latency p99"], _SERIES) == kept


# ---- rule 583: a change of a namespace alone names none -------------------------------------

_TERMS = ChangeTerms(
    vocabulary=frozenset({"version", "migration", "replicas"}),
    numbers=scenario_numbers("user-service 002_add_email_verified replicas: 3"),
    namespaces=frozenset({"default"}),
)


@pytest.mark.parametrize(
    ("span", "named"),
    [
        # round 38a's scale_size_risk (was: a change named, the size a quantity)
        ("Scaling default down to 50% drops the data written since it ran.", False),
        # fix93's previous_version_risk, rule 530's door (was: a change named, the field word)
        ("Rolling back default to the previous version drops the data written.", False),
        # not affected: a workload, a field of the namespace's, a migration in it
        ("Scale user-service to 50%.", True),
        ("Roll back default migration 002.", True),
        ("Rolling back default's migration 002 drops the email column.", True),
        ("Roll back the migration 002 in default.", True),
    ],
)
def test_a_change_of_a_namespace_alone_names_none(span: str, named: bool) -> None:
    """Rule 583 (``_change.py::of_namespace``, in ``ChangeTerms._scenario``)."""
    assert names_change(span, _TERMS) is named
