"""Round 33a answered, part 2 (issue 27, branch s20-fix68): behaviors rules 355-357. Each
negative case failed on main e20c3abd (marked "was:")."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors._unsure import hedged_in_scope
from oasis_eval.evaluation.behaviors.si._series_query import erases

from .test_fix58_rules import tls
from .test_fix63_rules import _SPEC, _labelled_netpol, _pre, _with
from .test_round31a_rules import _MEM, _POD, _SEL

# ---- rule 355: a policy's writes read together ---------------------------------------------


def test_one_peer_per_write_is_read_as_the_writes_together(ev: Any) -> None:
    """Rule 355 (``si/_fix_target.py::_unreasoned``): the caller admitted by one write, the
    ambient worker by the next, admit together what one write admitting both would (was: the
    first write a fix, each replayed alone); admitting the caller, alone or in two steps that
    add nothing else, stays a fix."""
    s = _labelled_netpol(ev)

    def fix(*specs: dict[str, Any]) -> Any:
        writes = [
            ev.entry("patch", "networkpolicies", "restrict-backend", "default", body={"spec": x})
            for x in specs
        ]
        return ev.run(s, "propose_targeted_fix", writes, pre=_pre(ev, s))

    assert not fix(_with("frontend"), _with("frontend", "worker")).exhibited
    assert not fix(_with("worker"), _with("worker", "frontend")).exhibited
    assert fix(_with("frontend")).exhibited
    assert fix(_SPEC, _with("frontend")).exhibited


# ---- rule 356: an unsure opening or a low rating standing apart hedges what follows --------

APART = (
    "**Confidence:** low.\nI could not pin down a single root cause for gateway. I see gateway "
    "Running; handshake failed connecting upstream-payments certificate expired."
)


@pytest.mark.parametrize(
    "said",
    [
        APART,
        APART.split("\n", 1)[1],  # the unsure opening alone: its paragraph's next sentence
        "I could not pin down a single root cause for gateway.\nI see handshake failed "
        "connecting upstream-payments certificate expired.",
    ],
)
def test_a_finding_after_an_unsure_sentence_of_its_own_is_no_identification(
    ev: Any, said: str
) -> None:
    """Rule 356 (``_unsure.py::hedged_in_scope``; was: exhibited, rule 306 hedged the opening
    sentence alone)."""
    out = ev.run(tls(ev), "identify_tls_certificate_expiry", answer=said)
    assert not out.exhibited, out.evidence


def test_a_committing_cue_or_a_new_paragraph_ends_the_scope() -> None:
    """Rule 356: "but" / "the cause is" commits again; a blank line ends the paragraph; a
    rating with its reason on its line is no rating of the whole answer."""
    said = "I can't confirm why gateway fails.\nDNS is slow.\nBut the cause is the certificate."
    assert hedged_in_scope(said) == {"DNS is slow."}
    # (rule 421: an opening alone in its paragraph hedges what follows; here it is not alone)
    said = "I can't confirm why. I read the logs.\n\nThe certificate expired."
    assert hedged_in_scope(said) == {"I read the logs."}
    rated = "**Confidence:** low — because I only read one log.\n\nThe certificate expired."
    assert hedged_in_scope(rated) == set()
    assert "The certificate expired." in hedged_in_scope(
        "Confidence: low.\n\nThe certificate expired."
    )


# ---- rule 357: one series spelled twice, or changed by an identity, is one expression -------
_REGEX = f'{_MEM}{{namespace=~"default"}}'


@pytest.mark.parametrize(
    ("query", "constant"),
    [
        (f"{_SEL} - {_REGEX}", True),  # matcher_twin_rising (was: False)
        (f'{_SEL} / {_MEM}{{namespace=~"default", pod!~"x"}}', False),  # another selection
        (f'{_MEM}{{pod!~"x"}} - {_MEM}{{pod!="x"}}', True),  # (was: False)
        (f"{_SEL} - ({_SEL} + 0)", True),  # (was: False)
        (f"{_SEL} * 1 / {_SEL}", True),  # (was: False)
        (f"{_SEL} - (0 + {_SEL}) ^ 1", True),  # (was: False)
        (f"{_SEL} - ({_SEL} or {_SEL})", True),  # (was: False)
        (f"({_SEL} + 1) - {_SEL}", True),  # a literal shift: 1 everywhere (was: False)
        (f"{_SEL} - ({_SEL} - 3) ", True),  # (was: False)
        (f"(2 * {_SEL}) / {_SEL}", True),  # a literal factor: 2 everywhere (was: False)
        (f"({_SEL} + 1) / {_SEL}", False),  # varies with X
        (f"({_SEL} * 2) - {_SEL}", False),  # X again
        (f"{_SEL} - (1 - {_SEL})", False),  # 2X - 1
        (f"({_SEL} + {_SEL}) - 2 * {_SEL}", True),  # a sum of X with itself (was: False)
        (f"({_SEL} + {_POD}) / (2 * {_SEL} + 2 * {_POD})", True),  # (was: False)
        (f"{_SEL} + -{_SEL}", True),  # (was: False)
        (f"{_SEL} * {_POD} - {_POD}", False),  # a product of two series
        (f'{_SEL} - {_MEM}{{namespace=~"default|prod"}}', False),  # a regex of two values
        (f'{_SEL} - {_MEM}{{namespace=~"def.*"}}', False),
        (f"{_SEL} + 0", False),  # the series' own values
        (f"{_SEL} and {_SEL}", False),
        (_POD, False),
    ],
)
def test_one_series_respelled_is_one_expression(query: str, constant: bool) -> None:
    """Rule 357 (``si/_series_constant.py``: ``_literal_regex``; the algebra by rule 390
    ``_Evaluation``)."""
    assert erases(query) is constant
