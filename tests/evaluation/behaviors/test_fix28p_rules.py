"""heldout28's plain-English causes and spelled units (issue 27 fairness, branch s25-fix28p):
behaviors rules 600 (a root cause named in plain words, beside its evidence) and 601 (a figure
with its unit spelled out). Each case marked "was" is read the other way by the code before
the rule; hand-built text, no SI run."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._cause_check import check_causes
from oasis_eval.evaluation.behaviors._claims import claims
from oasis_eval.evaluation.behaviors._plain_cause import head_class
from oasis_eval.evaluation.behaviors._spelled_units import readings, symbolic
from oasis_eval.evaluation.behaviors._words import term_regex
from oasis_eval.evaluation.behaviors.si.oom_cause import named_root
from oasis_eval.evaluation.behaviors.text import AnswerText

SETTING = (
    "The cause is a missing setting. The notification-service program expects a key called "
    "SMTP_PORT in the smtp-config ConfigMap, but that ConfigMap only holds SMTP_HOST."
)
MEMORY = (
    "The root cause is memory. The user-service container was last stopped as OOMKilled, "
    "against a limit of 256 mebibytes."
)


# ---- rule 600 -------------------------------------------------------------------------------


def test_a_plain_setting_beside_the_missing_key_is_the_configuration_cause() -> None:
    """Was: "a missing setting" named no class, a named root cause not the fault (rule 183)."""
    check = check_causes(AnswerText(SETTING), ["SMTP_PORT"], {"configuration"}, stated=True)
    assert check.correct and check.named_other == 0
    assert check.precise


def test_plain_memory_beside_the_oom_kill_is_the_oom_root_cause() -> None:
    """Was: "memory" was a root cause named without OOM (rule 181), every OOM sentence set
    aside."""
    right, wrong = named_root(AnswerText(MEMORY), ("user-service",))
    assert right and not wrong
    check = check_causes(AnswerText(MEMORY), ["OOMKilled"], {"memory"}, stated=True)
    assert check.precise


@pytest.mark.parametrize(
    "text",
    [
        # the plain word alone: no evidence
        "The root cause is memory.",
        # the evidence is the plain word again ("its memory limit"), no catalogue words
        "The root cause is memory. Its memory use is 250 mebibytes of 256.",
        # the evidence hedged, or denied
        "The root cause is memory. It might have been OOMKilled.",
        "The root cause is memory. It was not OOMKilled.",
        # not a short noun phrase headed by the plain word
        "The root cause is memory shared with the batch job on node-1 and its neighbours. "
        "It was OOMKilled.",
    ],
)
def test_a_plain_word_without_its_evidence_names_nothing(text: str) -> None:
    """Rule 600 reads the plain word only beside a statement of its class: these stay a root
    cause named that is not the fault (rule 183)."""
    check = check_causes(AnswerText(text), ["OOMKilled"], {"memory"}, stated=True)
    assert not check.correct and check.named_other
    assert not check.precise


def test_a_plain_word_of_another_class_is_a_wrong_cause() -> None:
    """A plain root cause read as its class is judged as that class: beside the OOM, "a
    missing setting" with a ConfigMap stated is a wrong cause, not a neutral one."""
    text = AnswerText("The cause is a missing setting. A ConfigMap key is missing.")
    check = check_causes(text, ["OOMKilled"], {"memory"}, stated=True)
    assert check.wrong and not check.precise


def test_a_word_holding_the_plain_word_is_evidence() -> None:
    """The plain word is masked as a word of its own: "ImagePullBackOff" states the image
    class beside "the image", "the image pull" does not (the plain word again)."""
    own = AnswerText("The root cause is the image. Its pods are in ImagePullBackOff.")
    again = AnswerText("The root cause is the image. The image pull fails.")
    assert check_causes(own, ["ImagePullBackOff"], {"image"}, stated=True).precise
    assert not check_causes(again, ["ImagePullBackOff"], {"image"}, stated=True).precise


def test_the_evidence_joins_the_slot_read() -> None:
    """The claim's slot carries the evidence's catalogue words ("memory (OOM)")."""
    slots = [c.cause for c in claims(AnswerText(MEMORY)) if c.asserted]
    assert slots[0] == "memory (OOM)"


@pytest.mark.parametrize(
    ("slot", "cls"),
    [
        ("memory.", "memory"),
        ("a missing setting.", "configuration"),
        ("the network rule restrict-backend.", "network-policy"),
        ("too few database connections", "connection-pool"),
        ("memory shared by every pod of the node", None),
        ("the new version of ledger", None),
    ],
)
def test_the_head_noun_names_the_class(slot: str, cls: str | None) -> None:
    head = head_class(slot)
    assert (head[0] if head else None) == cls


# ---- rule 601 -------------------------------------------------------------------------------


def test_spelled_figures_read_as_the_served_notation() -> None:
    s = (
        "It grew from 500 mebibytes six hours ago to 1.6 gibibytes now; its limit is 2.0 "
        "gibibytes, 80 percent used, p99 at 190 milliseconds, three seconds apart."
    )
    assert symbolic(s) == (
        "It grew from 500Mi 6h ago to 1.6Gi now; its limit is 2Gi, 80% used, p99 at 190ms, "
        "3s apart."
    )


@pytest.mark.parametrize("fact", ["500Mi", "1.6Gi", "2Gi", "2.0Gi"])
def test_a_served_figure_is_stated_in_words(fact: str) -> None:
    """Was: "2.0 gibibytes" stated no ``2Gi`` (evidence:not-stated, oi.metric-interpretation)."""
    s = "From 500 mebibytes to 1.6 gibibytes; the limit is 2.0 gibibytes, 80 percent used."
    assert term_regex(fact).search(s) is None
    assert any(term_regex(fact).search(r) for r in readings([s]))


@pytest.mark.parametrize(
    ("spelled", "fact"),
    [
        # megabytes are decimal: 500 megabytes is not 500Mi
        ("500 megabytes", "500Mi"),
        ("2 gigabytes", "2Gi"),
        # no rounding: 1.6 gibibytes is not 2Gi, 1.55 is not 1.6
        ("1.6 gibibytes", "2Gi"),
        ("1.55 gibibytes", "1.6Gi"),
        # a number without a unit is no figure
        ("one of its pods", "1"),
    ],
)
def test_only_an_equal_figure_is_read(spelled: str, fact: str) -> None:
    assert not any(term_regex(fact).search(r) for r in readings([f"It is {spelled}."]))


def test_the_evidence_gate_reads_a_spelled_figure(monkeypatch: pytest.MonkeyPatch) -> None:
    """Was: the gate (``_reads.py::states_fact``) found the served ``2Gi`` in no sentence of
    "Its memory limit is 2.0 gibibytes" (``evidence:not-stated``); ``500M`` stays unstated by
    "500 mebibytes" (binary and decimal units are different figures)."""
    from oasis_eval.evaluation.behaviors import _reads

    text = AnswerText("It used 500 mebibytes. Its memory limit is 2.0 gibibytes.")
    monkeypatch.setattr(_reads, "series_reading", lambda ctx, c: (frozenset(), []))  # rule 700
    monkeypatch.setattr(_reads, "carrier_facts", lambda ctx, c: {"2Gi", "data-processor"})
    assert _reads._states_fact(None, text, None) == "2Gi (spelled)"  # type: ignore[arg-type]
    monkeypatch.setattr(_reads, "carrier_facts", lambda ctx, c: {"500M"})
    assert _reads._states_fact(None, text, None) is None  # type: ignore[arg-type]
