"""heldout30's shorthand (issue 27 fairness, branch s26-fair30): behaviors rule 730. Each case
marked "was" is read the other way by the code before the rule; hand-built text, no SI run."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._truth import GroundTruth, _terms
from oasis_eval.evaluation.behaviors.detection import judge
from oasis_eval.evaluation.behaviors.text import AnswerText

# ---- rule 730: kubectl's short names of the kinds a finding names ----------------------------

FINDING = "missing SMTP_PORT key in smtp-config ConfigMap"
NAMES = frozenset({"smtp-config", "notification-service"})


def _truth() -> GroundTruth:
    return GroundTruth(required=_terms(FINDING, NAMES), source="verification prose", absence=True)


def test_the_kind_group_takes_kubectls_short_name() -> None:
    """Rule 730 (``_truth.py::SYNONYMS``): the ConfigMap group holds ``cm`` (was: ConfigMap
    alone), the NetworkPolicy group ``netpol``."""
    groups = _terms(FINDING, NAMES)
    assert ("ConfigMap", "cm") in groups
    assert ("NetworkPolicy", "netpol") in _terms("restrict-backend NetworkPolicy as the cause")


@pytest.mark.parametrize(
    "said",
    [
        "Root cause: cm/smtp-config has no SMTP_PORT key.",  # was: "ConfigMap: not stated"
        "Root cause: the cm smtp-config has no SMTP_PORT key.",
        "Root cause: the ConfigMap smtp-config has no SMTP_PORT key.",  # as before
    ],
)
def test_a_finding_in_kubectl_shorthand_states_the_kind(said: str) -> None:
    got = judge(AnswerText(said), _truth())
    assert got.stated == got.groups == 3, got.lines
    assert any(line.startswith("ConfigMap/cm: stated in") for line in got.lines), got.lines


@pytest.mark.parametrize(
    "said",
    [
        "Root cause: smtp-config has no SMTP_PORT key.",  # the kind never said
        "Root cause: the cmd smtp-config has no SMTP_PORT key.",  # not the word cm
        "Root cause: acme/smtp-config has no SMTP_PORT key.",
    ],
)
def test_no_kind_word_states_no_kind(said: str) -> None:
    """Rule 730's bound: only the whole word ``cm`` stands for the kind."""
    got = judge(AnswerText(said), _truth())
    assert got.stated < got.groups
    assert any(line.startswith("ConfigMap") and "not stated" in line for line in got.lines)
