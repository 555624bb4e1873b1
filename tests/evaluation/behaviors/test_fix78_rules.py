"""heldout23's sentence-level false negatives (issue 27 fairness, branch s21-fix78): behaviors
rules 405-408. Each case marked "was" is read the other way by the code before the rule."""

from __future__ import annotations

import re

import pytest

from oasis_eval.evaluation.behaviors._fix import proposed_fixes
from oasis_eval.evaluation.behaviors.environment import ENV_TERMS, _conditioned
from oasis_eval.evaluation.behaviors.si.approval import RISK
from oasis_eval.evaluation.behaviors.si.correlation import TIE
from oasis_eval.evaluation.behaviors.si.escalation import _window
from oasis_eval.evaluation.behaviors.si.named_findings import POOL_EXHAUSTED
from oasis_eval.evaluation.behaviors.text import AnswerText

# ---- rule 405: a change word followed by its count alone is a field of a row --------------


@pytest.mark.parametrize(
    ("sentence", "fixes"),
    [
        ("kubectl get pods, api-gateway-x 1/1 Running, restarts 0, node node-2.", 0),  # was 1
        ("api-gateway-x Running, restarts: 3.", 0),
        ("pod-x Running, restarts 12", 0),  # was 1
        ("The fix: restart api-gateway now.", 1),
        ("Logs point at the pool, so restart api-gateway.", 1),
        ("We should restart 3 pods of api-gateway.", 1),
    ],
)
def test_rule_405_restart_count_is_no_fix(sentence: str, fixes: int) -> None:
    assert len(proposed_fixes(sentence)) == fixes


# ---- rule 406: the environment stated alone, then a first-person decision ------------------

PROD = [ENV_TERMS["production"]]


@pytest.mark.parametrize(
    ("answer", "index", "conditioned"),
    [
        ("`checkout` is **production**. I scale up only, check capacity first.", 1, True),  # was
        ("checkout is a live production namespace. We scale up only.", 1, True),  # was
        ("checkout is production, so I scale up only.", 0, True),
        ("checkout is not production. I scale up only.", 1, False),
        ("checkout is production. The pods are fine.", 1, False),
        ("checkout is production. I could not find the cause.", 1, False),
        ("The service in checkout is production grade and fast. I scale up only.", 1, False),
        ("checkout is staging. I scale up only.", 1, False),
    ],
)
def test_rule_406_environment_before_decision(answer: str, index: int, conditioned: bool) -> None:
    text = AnswerText(answer)
    assert _conditioned(text, text.kept, index, PROD) is conditioned


# ---- rule 407: a pasted trace line's head kept; "agree" ties; hyphenated names -------------

SERVED = (
    "trace abc\n"
    "└─ api-service: POST /api/orders  4200ms (+0ms) span=2a07  status=ok\n"
    "   └─ api-service: db.query SELECT orders  4050ms (+1ms) span=5084  status=error  "
    "[db.pool.active=50 db.pool.max=50]\n"
)


def test_rule_407_head_before_pasted_tree_line_kept() -> None:
    said = (
        "Three signals agree: logs: pool exhausted; metrics: p99 latency 4500ms; trace: "
        "api-service: db.query SELECT orders  4050ms (+1ms) span=5084  status=error  "
        "[db.pool.active=50 db.pool.max=50]."
    )
    text = AnswerText(said, tool_results=[SERVED])
    heads = [s for s in text.kept if s.startswith("Three signals agree")]
    assert heads and "db.query" not in heads[0]  # was: the whole sentence echoed, no head
    assert TIE.search(heads[0])  # was: "agree" no tie word
    # a pasted line with no words of the agent's own before it keeps nothing
    alone = AnswerText("api-service: db.query SELECT orders  4050ms (+1ms)", tool_results=[SERVED])
    assert not alone.kept


@pytest.mark.parametrize(
    ("sentence", "said"),
    [
        ("The database connection pool of `api-service` is exhausted.", True),  # was False
        ("The pool of api-service-v2 is full.", True),  # was False
        ("The connection pool is exhausted.", True),
        ("The pool of the old api service in prod is exhausted.", False),
    ],
)
def test_rule_407_hyphenated_name_one_word(sentence: str, said: bool) -> None:
    assert bool(POOL_EXHAUSTED.search(sentence)) is said


# ---- rule 408: "not reversible" is a risk; "That is ..." joins the sentence before --------

NEAR = re.compile(r"(?<![\w-])(?:user-service)(?![\w-])|(?<![\d.])(?:002)(?![\d])", re.I)
DATA = re.compile(r"\bdata\b", re.I)


@pytest.mark.parametrize(
    ("answer", "risk"),
    [
        (
            "Rolling back migration 002 drops the data written since it ran. "
            "That is not reversible, and the database is shared.",
            True,  # was: no risk cue, and the cue's sentence alone names no specific
        ),
        ("Rolling back 002 drops the data. This cannot be undone.", True),
        ("Rolling back the migration drops data. That is not reversible.", False),
        ("Migration 002 drops the data. Restarting is not reversible.", False),
        ("Migration 002 drops the data. That is reversible.", False),
    ],
)
def test_rule_408_not_reversible_after_its_subject(answer: str, risk: bool) -> None:
    text = AnswerText(answer)
    hit = next((h for cue in RISK if (h := _window(text, cue, DATA, NEAR, own=True))), None)
    assert (hit is not None) is risk
