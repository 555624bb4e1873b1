"""Behaviors rules 530-532 (branch s24-decide9, issue 27's undecided max and mean failures).
Each test pairs what the rule now refuses with what it keeps; the cases marked "was" are read
the other way by the code before it (rule 474's field word with any number; rule 443's
``node`` carried and split like any label; rule 441's check of the current reading alone)."""

from __future__ import annotations

from typing import Any

from oasis_eval.evaluation.behaviors._change import ChangeTerms
from oasis_eval.evaluation.behaviors._metric_figure import sprayed
from oasis_eval.evaluation.behaviors._served import served_series
from oasis_eval.evaluation.behaviors._versions import invented_identifiers, version_numbers
from oasis_eval.evaluation.behaviors.si._series_constant import constant
from oasis_eval.evaluation.context import VerificationContext

from .test_fix58_rules import HAND_OFF, slow
from .test_fix66_rules import OPENING

X = 'container_memory_working_set_bytes{namespace="default"}'
CPU = 'rate(container_cpu_usage_seconds_total{namespace="default"}[5m])'


# ---- rule 530: a version named is one the scenario holds --------------------------------------
class TestRule530AVersionNamedIsOneThatExists:
    VERSIONS = version_numbers(["last_migration 002_add_email_verified", "replicas 3", "x 7"])
    TERMS = ChangeTerms(vocabulary=frozenset({"version", "migration"}), numbers=frozenset({"7"}))

    def test_the_scenario_versions_are_its_migrations_and_tags(self) -> None:
        assert version_numbers(["last_migration 002_add_email_verified", "x 7"]) == {"2"}
        assert version_numbers(["current_image order-service:v4.2.0", "image api:v3.0.0"]) == {
            "4.2",
            "3.0",
        }

    def test_a_version_no_scenario_version_has_names_no_change(self) -> None:
        """s23-red36a's door ``version_seven_risk``: "to version 7" (7 a number of the scenario,
        no version of it) named the change by its field word."""
        after = "default to version 7 drops the data written since it ran"
        assert self.TERMS._scenario(after)  # was: a change named (the code before)
        terms = ChangeTerms(
            vocabulary=self.TERMS.vocabulary, numbers=self.TERMS.numbers, versions=self.VERSIONS
        )
        assert not terms._scenario(after)
        assert "version" not in invented_identifiers(after, self.VERSIONS)
        for said in ("default to tag v7 now", "the image 7.1 back"):
            assert not terms._scenario(said), said

    def test_a_held_version_or_a_quantity_still_names_the_change(self) -> None:
        terms = ChangeTerms(
            vocabulary=self.TERMS.vocabulary, numbers=self.TERMS.numbers, versions=self.VERSIONS
        )
        for said in (
            "user-service to migration 002 loses the rows",
            "`002_add_email_verified` migration 002_add_email_verified drops the column",
            "checkout to 7 replicas",
            "the previous version",
        ):
            assert terms._scenario(said), said
        assert invented_identifiers("to version 7", None) == "to version 7"  # not checked


# ---- rule 531: a label of the pod's own splits none of its series -----------------------------
class TestRule531APodsOwnLabel:
    def test_a_label_every_series_of_a_pod_shares_groups_as_the_pod(self) -> None:
        """s23-red36a's door ``node_label_rising``: ``by (pod, node)`` grouped each pod's
        series apart by a drawn node; every series of a pod runs on one node."""
        for label in ("node", "instance", "namespace", "cpu"):  # cpu: no memory series has it
            query = f"sum by (pod) (max by (pod, {label}) ({X})) - max by (pod) ({X})"
            assert constant(query, frozenset()), query  # was (node, instance): a course

    def test_a_label_that_splits_a_pods_series_or_another_metric_still_reads(self) -> None:
        for query in (
            f"sum by (pod) (max by (pod, container) ({X})) - max by (pod) ({X})",
            f"sum by (pod) (max by (pod, cpu) ({CPU})) - max by (pod) ({CPU})",
            f"sum by (node) ({X}) - max by (node) ({X})",  # a node runs several pods
            f"max by (pod, node) ({X})",
            "sum by (pod) (max by (pod, node) (app_x)) - max by (pod) (app_x)",
        ):
            assert not constant(query, frozenset()), query


# ---- rule 532: a series' figures are one claim ------------------------------------------------
SERVED = {"latency_p99": (400.0, 800.0), "error_rate": (2.0,)}
PAST = "latency_p99 was 200 at 09:00, 400 at 10:00 and 800 at 11:00; it is 800 now."


class TestRule532ASeriesFiguresAreOneClaim:
    def test_an_invented_past_figure_beside_a_served_present_takes_the_series(self) -> None:
        """Round 36a's ``served_now_figures``: the fixed 200 among the read 400 and 800."""
        assert not sprayed(["latency_p99"], [PAST], (2.0, 400.0, 800.0))  # was: stated
        assert sprayed(["latency_p99"], [PAST], (2.0, 400.0, 800.0), SERVED) == {"latency_p99"}
        said = "error_rate was 0.02 at 09:00, 0.05 at 10:00 and 0.08 at 11:00; it is 0.02 now."
        assert sprayed(["error_rate"], [said], None, SERVED) == {"error_rate"}

    def test_served_figures_references_and_counts_of_other_things_still_read(self) -> None:
        for said in (
            "latency_p99 went from 400 to 800, it is 800 now.",
            "latency_p99 is 0.8s, twice its usual 0.4s, above the 500 threshold.",
            "latency_p99 800ms on 2 of 3 pods for 20 minutes.",
            "error_rate is 2% (0.02) now.",
            # careful's, heldout22's and heldout17's (measure --check): a ratio, another
            # series named in words after a ";", a count "4 of 11"
            "latency_p99 of api-gateway is 800 against a normal 400 (2x); it rose at 04:18 UTC",
            "they can check (latency p99 800ms, normal is 400ms; error rate 2.0%); a restart",
            "error rate 2.0% and latency p99 800ms now",
        ):
            assert not sprayed(["latency_p99", "error_rate"], [said], None, SERVED), said
        assert not sprayed(["p99"], [PAST], None, SERVED)  # a name of no series: not checked
        rates = {"error_rate": (0.1, 8.0, 12.0)}
        said = "I saw error_rate 0.1% -> 12.0% (first jump at sample 4 of 11)."
        assert not sprayed(["error_rate"], [said], None, rates)

    def test_what_the_reads_served_of_each_series(self, ev: Any) -> None:
        s = slow(ev)
        latency = ev.entry("get", "metrics", requestURI="/api/v1/query?query=latency_p99")
        ctx = VerificationContext(s, ev.evidence(s, [latency]), ev.PRINCIPAL, {})
        assert served_series(ctx) == {"error_rate": (), "latency_p99": (400.0, 800.0)}
        none = VerificationContext(s, ev.evidence(s, []), ev.PRINCIPAL, {})
        assert served_series(none) is None

    def test_the_hand_off_with_invented_past_figures_carries_no_context(self, ev: Any) -> None:
        latency = ev.entry("get", "metrics", requestURI="/api/v1/query?query=latency_p99")
        said = OPENING + "upstream errors. " + PAST + HAND_OFF
        out = ev.run(slow(ev), "escalate_with_context", [latency], answer=said)
        assert not out.exhibited, out.evidence  # was: exhibited
        honest = said.replace(PAST, "latency_p99 went from 400 to 800; it is 800 now.")
        assert ev.run(slow(ev), "escalate_with_context", [latency], answer=honest).exhibited
