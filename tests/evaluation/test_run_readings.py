"""evaluation/reading.py's run readings: a run's judgements share their readings of plain
texts, and only those (issue 30, session 32)."""

from __future__ import annotations

from typing import Any

from oasis_eval.evaluation import reading
from oasis_eval.evaluation.behaviors._cue import Cue
from oasis_eval.evaluation.reading import RunReadings, judgement_memo, per_judgement


def _counted(calls: list[Any]) -> Any:
    @per_judgement
    def split(text: Any, *rest: Any) -> list[str]:
        calls.append((text, *rest))
        return str(text).split()

    return split


class _Thing:
    """An object argument (hashed by identity): read once per judgement, never per run."""

    def __str__(self) -> str:
        return "a thing"


def test_a_plain_reading_is_shared_by_the_judgements_of_one_run() -> None:
    calls: list[Any] = []
    split = _counted(calls)
    run = RunReadings()
    for _ in range(3):
        with run.judging(), judgement_memo({}):
            got = split("a b", 2, ("x",), frozenset({"y"}), None)
            got.append("changed by a caller")  # each caller its own copy, across judgements too
            assert split("a b", 2, ("x",), frozenset({"y"}), None) == ["a", "b"]
    assert calls == [("a b", 2, ("x",), frozenset({"y"}), None)]


def test_an_object_argument_is_read_per_judgement_and_kept_out_of_the_run() -> None:
    calls: list[Any] = []
    split = _counted(calls)
    thing, run = _Thing(), RunReadings()
    for _ in range(2):
        with run.judging(), judgement_memo({}):
            assert split(thing) == ["a", "thing"] and split(thing) == ["a", "thing"]
            assert split("x", thing) == ["x"]
    assert calls == [(thing,), ("x", thing)] * 2
    assert len(run) == 0  # nothing of an object in the run's readings


def test_another_run_and_no_run_read_again() -> None:
    calls: list[Any] = []
    split = _counted(calls)
    for run in (RunReadings(), RunReadings()):
        with run.judging(), judgement_memo({}):
            split("a b")
    with judgement_memo({}):  # a judgement outside any run: its own readings only
        split("a b")
    with RunReadings().judging():  # a run open but no judgement: computed as before
        split("a b")
    assert calls == [("a b",)] * 4
    assert reading._RUN.get() is None and reading._CURRENT.get() is None


def test_the_run_drops_its_readings_past_its_bound() -> None:
    calls: list[Any] = []
    split = _counted(calls)
    run = RunReadings(limit=2)
    with run.judging(), judgement_memo({}):
        for text in ("a", "b", "c"):
            split(text)
    assert len(run) == 3
    with run.judging(), judgement_memo({}):  # over the bound: dropped, read again
        split("a")
    with run.judging(), judgement_memo({}):
        split("a")
    assert calls == [("a",), ("b",), ("c",), ("a",)]


def test_a_run_keyed_reader_is_kept_like_a_text() -> None:
    calls: list[Any] = []

    @reading.run_keyed
    class Reader:
        @per_judgement
        def read(self, text: str) -> int:
            calls.append(text)
            return len(text)

    reader, run = Reader(), RunReadings()
    for _ in range(2):
        with run.judging(), judgement_memo({}):
            assert reader.read("abc") == 3
    assert calls == ["abc"]


def test_a_cue_answers_once_per_run() -> None:
    """A cue's prefilter answer for a text is the run's (:meth:`.Cue._none`): the same
    matches whether the answer is new or kept."""
    cue = Cue(r"\bpool\s+exhausted\b", 2)  # re.IGNORECASE
    texts = ["The pool exhausted its connections.", "Nothing here.", "POOL  Exhausted"]
    plain = [[m.span() for m in cue.finditer(t)] for t in texts]
    run, memos = RunReadings(), []
    for _ in range(2):
        memo: dict[Any, Any] = {}
        memos.append(memo)
        with run.judging(), judgement_memo(memo):
            assert [[m.span() for m in cue.finditer(t)] for t in texts] == plain
    assert memos[0][cue] is memos[1][cue]  # one dict of answers for the run
    assert set(memos[0][cue]) == set(texts)
