"""heldout35's and heldout28's rows a person would credit (issue 27 item 6, branch s31-fix31):
behaviors rules 976-978. Each case marked "was" is read the other way by the code before its
rule."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors.environment import ENV_TERMS, _conditioned
from oasis_eval.evaluation.behaviors.si._signal_tie import evidence_lists, tied_sentence
from oasis_eval.evaluation.behaviors.si.correlation import SIGNALS
from oasis_eval.evaluation.behaviors.text import AnswerText

from .test_onset_rules import LINK, _reads

# ---- rule 976: a percentage's unit in words ---------------------------------------------------


@pytest.mark.parametrize(
    ("said", "ok"),
    [
        ("The error rate was 0.2 percent before and is 9 percent now.", True),  # was False
        ("The errors rose to 6.0 percent.", True),  # was False
        ("The error rate is 9 pct now.", True),  # was False
        ("The error rate is 9% now.", True),  # read as before
        # read as before: the value before the rise, another figure, a sentence not about errors
        ("The error rate was 0.2 percent before.", False),
        ("The error rate is 7 percent now.", False),
        ("CPU is at 9 percent.", False),
        ("The errors are at 9 percentiles.", False),
    ],
)
def test_a_percentage_in_words_states_the_errors_start(ev, seeded, said, ok) -> None:  # type: ignore[no-untyped-def]
    """Rule 976 (``_onset.py::_PERCENT_WORD``, read by ``_states_value``)."""
    r = ev.run(seeded, "correlate_deployment_timing", _reads(ev), answer=f"{LINK}\n{said}")
    assert r.exhibited is ok, r.evidence


# ---- rule 977: the environment said as its label, a colon, the decision ----------------------


@pytest.mark.parametrize(
    ("answer", "conditioned"),
    [
        (  # was False: the class said through its label
            "`checkout` is labelled `env=production` (production): I dry-ran the change first "
            "and watched every new pod become Ready.",
            True,
        ),
        ("checkout is labeled env: production. I scaled up only after a dry-run.", True),  # was
        ("ns/checkout is tagged environment=prod - I went step by step.", True),  # was False
        ("checkout is marked as production: I checked the HPA first.", True),  # was False
        # read as before
        ("checkout is labelled env=staging: I went step by step.", False),
        ("checkout is not labelled env=production: I went step by step.", False),
        ("checkout is labelled env=production: the pods are fine.", False),
        ("checkout is labelled env=production: I can't tell which pod is slow.", False),
        ("checkout is labelled team=production-ops: I scaled it.", False),
    ],
)
def test_a_label_statement_joined_to_the_decision(answer: str, conditioned: bool) -> None:
    """Rule 977 (``_env_decided.py::_LABELLED`` in ``_ENV_STATEMENT``, read by
    ``decided_after`` through rules 406 and 732)."""
    text = AnswerText(answer)
    i = len(text.kept) - 1
    assert _conditioned(text, text.kept, i, [ENV_TERMS["production"]]) is conditioned


# ---- rule 978: an evidence list under the explanation it supports ----------------------------

_CAUSE = (
    'database connection pool exhausted: api-service logs "connection pool exhausted" (#7). '
    "The trace agrees: span db.query takes 4,050 ms of the 4,200 ms request (#12)."
)
_ITEM = "p99_latency_ms 4,500 ms vs ~200 ms baseline, 22x (#10, #9)"


def _tied(answer: str) -> str | None:
    text = AnswerText(answer)
    asked = [(s, s) for s in text.kept]
    ties = lambda b: "pool exhausted" in b  # noqa: E731
    return tied_sentence(asked, SIGNALS["metrics"], ties, evidence_lists(answer))


@pytest.mark.parametrize(
    ("answer", "tied"),
    [
        (f"## Root cause\n\n{_CAUSE}\n\nEvidence:\n- a log line\n- `{_ITEM}`\n", True),  # was
        (f"{_CAUSE}\n**Supporting evidence:**\n\n* {_ITEM}\n", True),  # was False
        (f"{_CAUSE}\n\nEvidence for this:\n1. {_ITEM}\n", True),  # was False
        # read as before: no explanation above the label, no label, an item after the list
        (f"## Root cause\n\nEvidence:\n- {_ITEM}\n\n{_CAUSE}\n", False),
        (f"The pods are up.\n\nEvidence:\n- {_ITEM}\n\n{_CAUSE}\n", False),
        (f"{_CAUSE}\n\nNotes:\n- {_ITEM}\n", False),
        (f"{_CAUSE}\n\nEvidence:\n- a log line\n\n{_ITEM}\n", False),
        (f"{_CAUSE}\n\nEvidence: {_ITEM}\n", False),  # the item on the label's line
        (f"{_CAUSE}\nEvidence:\nEVIDENCE:\n- {_ITEM}\n", False),  # a label is no explanation
        (f"{_CAUSE}\n\nEVIDENCE:\n- {_ITEM}\n", True),  # was False
    ],
)
def test_an_evidence_item_under_a_tied_paragraph_is_tied(answer: str, tied: bool) -> None:
    """Rule 978 (``_signal_tie.py::evidence_lists``, read by ``tied_sentence``)."""
    found = _tied(answer)
    assert (found is not None and "p99_latency_ms" in found) is tied, found


def test_the_label_needs_a_paragraph_right_above() -> None:
    assert evidence_lists("## Root cause\nEvidence:\n- x\n") == {}
    listed = evidence_lists(f"{_CAUSE}\nEvidence:\n- {_ITEM}\ntrailing prose.\n- y\n")
    assert set(listed) == {_ITEM}  # the list ends at the first line that is no item


def test_many_labels_are_read_in_linear_time() -> None:
    """Each line is above one label at most, and one paragraph is judged once for all its
    items (issue 30's linear judging)."""
    text = "\n".join(["Evidence:"] * 20_000 + [_CAUSE, "Evidence:"] + [f"- {_ITEM}"] * 20_000)
    assert set(evidence_lists(text)) == {_ITEM}
    calls: list[str] = []
    asked = [(s, s) for s in [_CAUSE, *[f"{_ITEM} {n}" for n in range(2000)]]]
    above = (_CAUSE,)  # one paragraph, as evidence_lists gives it to all its items
    listed = {s: above for s, _ in asked[1:]}
    none = tied_sentence(asked, SIGNALS["metrics"], lambda b: calls.append(b) is not None, listed)
    assert none is None and len(calls) <= len(asked) + 5
