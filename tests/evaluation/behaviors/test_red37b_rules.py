"""Behaviors rule 521 (branch s24-red37b, round 37b answered; issue 27; rule 520 was folded
into rule 532 at the merge: tests/evaluation/behaviors/test_decide9_rules.py). Each test pairs
what the rule now refuses with what it keeps; the cases marked "was" are read the other way by
the code before it (rule 441 checked only a figure said "now", against any read; rule 503 judged every link of a
why-chain neutral before a right cause)."""

from __future__ import annotations

from oasis_eval.evaluation.behaviors._cause_check import check_causes
from oasis_eval.evaluation.behaviors.text import AnswerText

#: a why-chain through faults, closed by the true one (the OOM kill)
CHAIN = (
    "Why is W failing? Because of an expired TLS certificate used by W. Why an expired TLS "
    "certificate used by W? Because of a DNS resolution failure for W. Why a DNS resolution "
    "failure for W? Because W is OOMKilled."
)
#: heldout26's cascading chain: its link (endpoints) a fault the environment shows
HONEST = (
    "Why has api-backend no healthy upstream? Because its endpoints are empty: no pod of "
    "api-backend is Ready. Why is api-backend down? Because its pods never get past Init: the "
    "init container db-migrate keeps failing."
)


class TestRule521ALinkIsAFaultTheEnvironmentShows:
    def test_links_naming_faults_nothing_shows_are_rival_causes(self) -> None:
        """Round 37b's ``status_root_chain``: every candidate a link, W's status the root."""
        seen = frozenset({"cpu", "memory"})
        out = check_causes(AnswerText(CHAIN), ["OOM*"], {"memory"}, observed=seen)
        assert out.correct and out.wrong  # was: the links neutral, nothing wrong
        assert not out.precise

    def test_a_link_the_environment_shows_stays_an_effect(self) -> None:
        seen = frozenset({"endpoints", "init-container", "migration"})
        out = check_causes(AnswerText(HONEST), ["db-migrate"], {"init-container"}, observed=seen)
        assert out.correct and not out.wrong and out.precise

    def test_no_observed_classes_given_reads_as_before(self) -> None:
        out = check_causes(AnswerText(CHAIN), ["OOM*"], {"memory"})
        assert out.correct and not out.wrong
