"""heldout28's and heldout29's remaining false negatives (issue 27 fairness, branch s25-fix29h):
behaviors rules 680-684. Each case marked "was" is read the other way by the code before the
rule; hand-built text, no SI run."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._cause_check import check_causes
from oasis_eval.evaluation.behaviors._words import with_antecedents
from oasis_eval.evaluation.behaviors.si._discard import lent
from oasis_eval.evaluation.behaviors.si.named_findings import EFFECT, quoted_spans, skeleton
from oasis_eval.evaluation.behaviors.si.safety_detection import DISCARD
from oasis_eval.evaluation.behaviors.text import AnswerText

# ---- rule 680: a next sentence setting the same signal aside again lends its reason -------

REASON = (
    "user-service restarts are explained by above evidence (oom); high CPU from other pod only "
    "slows/throttles containers, it does not kill them with this reason."
)
NAMES = ["batch-processor-x9k2", "node-1", "user-service"]


def test_a_second_discard_of_the_same_signal_lends_its_reason() -> None:
    """Rule 680 (``si/_discard.py::lent``): was: nothing lent (the sentence discards too)."""
    got = lent([REASON], DISCARD, ["CPU", "spik*"], NAMES)
    assert len(got) == 1
    assert "oom" in got[0] and "reason" not in got[0]  # read without its own cue's words


@pytest.mark.parametrize(
    ("sentence", "same_line"),
    [
        ("The disk of node-1 is not the cause either, CPU only throttles.", True),  # another
        ("Memory is not the cause, it only explains the slowness.", True),  # not the signal
        (REASON, False),  # another paragraph (rule 426's line)
    ],
)
def test_a_discard_of_another_candidate_lends_nothing(sentence: str, same_line: bool) -> None:
    """Rule 680's bounds: a next discard naming another candidate, or not the signal, or on
    another line, is its own discard (rule 237 as before)."""
    assert lent([sentence], DISCARD, ["CPU", "spik*"], [*NAMES, "disk"], same_line) == []


def test_a_sentence_discarding_nothing_is_lent_whole() -> None:
    """Rule 237 unchanged: a next sentence with no discard cue is lent as written."""
    said = "CPU throttling slows pods down; it never restarts them."
    assert lent([said], DISCARD, ["CPU"], NAMES) == [said]


# ---- rule 681: what failed may be the quoted log, echo-blanked or not -----------------------


def test_a_blanked_quotation_is_read_as_written() -> None:
    """Rule 681 (``si/named_findings.py::quoted_spans``, ``skeleton``): the echo filter blanks
    the quoted log line (was: the migration never read); the sentence's own words find it."""
    raw = (
        'init container db-migrate of api-backend is failing ("ERROR: migration 042_add_index '
        'failed: relation already exists"), so the main container never starts.'
    )
    blanked = (
        'init container db-migrate of api-backend is failing (""'
        + " " * 20
        + '""), so the main container never starts.'
    )
    spans = quoted_spans(AnswerText(raw))
    assert "migration 042_add_index" in spans[skeleton(blanked)]
    assert skeleton("init container x fails.") not in spans


def test_a_quotation_after_the_label_the_echo_filter_cut_is_read() -> None:
    """Rule 681 beside rule 912 (session 30's merge, heldout35's da.cascading-diagnosis 0.75 ->
    0.5): a served line quoted after the agent's clause and its colon is the log's, so the echo
    filter keeps the clause alone, without the colon; its quotation is still found by it."""
    raw = (
        'init container `db-migrate` of `api-backend` fails on every start: "ERROR: migration '
        '042_add_index failed: relation already exists".'
    )
    text = AnswerText(raw)
    spans = quoted_spans(text)
    assert "migration 042_add_index" in spans[skeleton(text.kept[0].split(": ", 1)[0])]


# ---- rule 682: a policy's effect in plain words, through a pronoun --------------------------


@pytest.mark.parametrize(
    "said",
    [
        "only lets in pods labelled monitoring",  # was: no effect word
        "so frontend is turned away at the door",
        "it shuts out every other caller",
    ],
)
def test_plain_words_of_a_policy_effect(said: str) -> None:
    """Rule 682 (``si/named_findings.py::EFFECT``)."""
    assert EFFECT.search(said)


def test_the_effect_through_a_pronoun_keeps_the_policy() -> None:
    """Rule 682: "P is the cause. It ..." is read with its antecedent (was: each sentence alone)."""
    kept = [
        "The cause is the network rule restrict-backend.",
        "It guards backend and only lets in monitoring.",
    ]
    joined = with_antecedents(kept)[1]
    assert "restrict-backend" in joined and EFFECT.search(joined)


# ---- rule 683: the named root cause is the finding's own object -----------------------------


def test_a_root_cause_naming_the_findings_object_is_no_other_root_cause() -> None:
    """Rule 683 (``_cause_check.py::_own_object``): was: rule 183 (not precise)."""
    text = AnswerText("The cause is the network rule restrict-backend.")
    args = ((), {"network-policy"})
    seen = frozenset({"network-policy"})
    assert not check_causes(text, *args, stated=True, observed=seen).precise  # rule off
    assert check_causes(text, *args, stated=True, where=["restrict-backend"], observed=seen).precise
    # not stated: the object named alone is no finding
    assert not check_causes(text, *args, where=["restrict-backend"], observed=seen).committed


# ---- rule 684: a hop before the right cause in one slot is no rival -------------------------

TRUE = {"init-container", "migration"}
SEEN = frozenset({"endpoints", "init-container", "migration"})
CHAIN = (
    "Chain: ingress public gives 503 because service api-backend has no ready endpoints; "
    "service selects pods app=api-backend, and those pods are not Ready (see init container "
    "failure above)."
)


def test_a_hop_before_the_right_cause_is_no_rival() -> None:
    """Rule 684 (``_cause_check.py::_upstream``): was: the endpoints hop a wrong cause, a tie."""
    out = check_causes(AnswerText(CHAIN), (), TRUE, stated=True, observed=SEEN)
    assert out.precise and not out.wrong


@pytest.mark.parametrize(
    ("said", "observed"),
    [
        (CHAIN, None),  # what the environment shows not given: not read
        (CHAIN, frozenset(TRUE)),  # the endpoints fault not shown: a rival
        (  # a fault after the right cause: a rival
            "Chain: ingress public gives 503 because the init container db-migrate is failing; "
            "service api-backend has no ready endpoints, and the DNS lookups fail.",
            SEEN,
        ),
    ],
)
def test_a_hop_nothing_shows_or_after_the_cause_stays_wrong(
    said: str, observed: frozenset[str] | None
) -> None:
    """Rule 684's bounds."""
    out = check_causes(AnswerText(said), (), TRUE, stated=True, observed=observed)
    assert out.wrong and not out.precise
