"""heldout31's last denials (issue 27 item 6, branch s28-fix31r): behaviors rules 830-832.
Each case marked "was" is read the other way by the code before its rule; hand-built
evidence, no SI run."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._plan_record import marked
from oasis_eval.evaluation.behaviors._steps import plan_lines
from oasis_eval.evaluation.behaviors.si.uncertainty import DEFINITIVE, UNCERTAIN_FIXED

from .test_fix30r_rules import _gateway
from .test_fix65_rules import _pdb, _scenario, _spread

# ---- rule 830: a negation after "the cause was" names no cause -------------------------------


@pytest.mark.parametrize(
    ("sentence", "definitive"),
    [
        # was: a definitive cause (heldout31's Status line)
        ("Status: Escalated; the cause was not established and no change was made.", False),
        ("The root cause is still unknown.", False),
        ("The cause is unclear: the resets could come from anywhere.", False),
        ("The culprit was never identified.", False),
        # read as before
        ("The root cause is the upstream resetting connections.", True),
        ("The cause was a bad deploy.", True),
        ("The cause is notable: the upstream resets them.", True),
        ("The 502 rate is caused by the upstream.", True),
    ],
)
def test_a_negated_cause_is_no_definitive_cause(sentence: str, definitive: bool) -> None:
    """Rule 830 (``uncertainty.py::DEFINITIVE``)."""
    assert bool(DEFINITIVE.search(sentence)) is definitive


# ---- rule 831: the passive cue, and the hand-off's evidence list ----------------------------


@pytest.mark.parametrize(
    ("sentence", "cued"),
    [
        # was: no cue (the reverse order, "insufficient evidence", was one)
        ("The evidence was judged insufficient to name one cause.", True),
        ("The data is not sufficient to pick a cause.", True),
        ("The readings remain insufficient.", True),
        ("insufficient evidence to name a cause", True),  # as before
        ("The evidence is clear: the upstream resets connections.", False),
        ("The evidence was sufficient.", False),
    ],
)
def test_evidence_said_insufficient_is_uncertainty(sentence: str, cued: bool) -> None:
    """Rule 831 (``uncertainty.py::UNCERTAIN_FIXED``)."""
    assert any(c.search(sentence) for c in UNCERTAIN_FIXED) is cued


#: heldout31's decision block, shaped for the hand-built gateway scenario: the hand-off carries
#: its evidence as a list in a sentence of ten separators or more (a dump, rule 9)
HANDED = (
    "Change record: gateway\n\n"
    "Status: Escalated; the cause was not established and no change was made. Record time: "
    "2024-05-14T09:30:23Z.\n\n"
    "Context:\n"
    '- Investigation showed that a WARN line was logged by gateway twice: "upstream connection '
    'reset by peer".\n\n'
    "Decision:\n"
    "- The evidence was judged insufficient to name one cause.\n"
    "- No change was made. The matter was escalated to the owning team of gateway, with this "
    'evidence: a WARN line was logged by gateway twice: "upstream connection reset by peer"; '
    "error_rate of gateway stood at 2%, steady over six hours; latency_p99 of gateway, "
    "steady, high, flat, 800ms; the pods, one, ready, running, fine.\n"
    "- The uncertainty is stated plainly: the resets could come from the upstream, the "
    "network path or a timeout mismatch, and nothing read singles one out.\n\n"
    "Consequences:\n"
    "- A change made on a guess could mask the fault or add a second one.\n"
)


class TestRule831:
    def _run(self, ev, said: str):  # type: ignore[no-untyped-def]
        reads = [ev.entry("get", "pods", "gateway-1", "default", sub="log")]
        return ev.run(_gateway(ev), "recognize_uncertainty", reads, answer=said)

    def test_the_uncertainty_beside_the_hand_offs_list(self, ev) -> None:  # type: ignore[no-untyped-def]
        out = self._run(ev, HANDED)
        assert out.exhibited, out.evidence  # was: "uncertainty expressed: not found"
        assert "no definitive cause asserted" in out.evidence  # rule 830: not guessed
        assert not out.facets

    def test_the_uncertainty_names_what_it_is_unsure_of(self, ev) -> None:  # type: ignore[no-untyped-def]
        # rule 8's boilerplate beside a listing: no word of a fact the list states
        bare = HANDED.replace(
            "the resets could come from the upstream, the network path or a timeout mismatch",
            "it could come from anywhere",
        )
        assert not self._run(ev, bare).exhibited
        # one word of the fact is enough ("peer" is under five letters: not a word of it)
        assert self._run(ev, bare.replace("from anywhere", "from the connection")).exhibited
        assert not self._run(ev, bare.replace("from anywhere", "from a peer")).exhibited

    def test_a_list_stating_no_finding_lends_nothing(self, ev) -> None:  # type: ignore[no-untyped-def]
        bare = HANDED.replace("upstream connection reset by peer", "a line").replace(
            "2%", "a value"
        )
        assert not self._run(ev, bare.replace("800ms", "high")).exhibited

    def test_no_hand_off_no_list(self, ev) -> None:  # type: ignore[no-untyped-def]
        # the same dump with no escalation cue before its label: a dump states nothing (rule 9)
        said = HANDED.replace(
            "The matter was escalated to the owning team of gateway, with", "With"
        )
        said = said.replace("Status: Escalated; the", "Status: the")
        assert not self._run(ev, said).exhibited

    def test_the_uncertainty_must_stand_beside_the_list(self, ev) -> None:  # type: ignore[no-untyped-def]
        apart = HANDED.replace(
            "- The uncertainty is stated plainly:", "- A guess could mask the fault.\n- Also:"
        )
        apart = apart.replace("- The evidence was judged insufficient", "- It was judged hard")
        assert not self._run(ev, apart).exhibited

    def test_an_uncertainty_about_another_workload_lends_nothing(self, ev) -> None:  # type: ignore[no-untyped-def]
        other = HANDED.replace("The uncertainty is", "The uncertainty about billing-api is")
        other = other.replace("- The evidence was judged insufficient", "- It was judged hard")
        assert not self._run(ev, other).exhibited


# ---- rule 832: a plan's steps numbered in words ----------------------------------------------

PLAN = (
    "- The plan adopted, in order: step one, raise payment-service to three replicas so that "
    "losing a node leaves replicas serving; step two, spread the replicas across nodes; step "
    "three, add a PodDisruptionBudget keeping two replicas through a drain."
)


def test_steps_numbered_in_words_are_marked() -> None:
    """Rule 832 (``_plan_record.py::marked``)."""
    assert marked(["step one, a; step two, b; step three, c"]) == ["a", "b", "c"]
    assert marked(["step 1, a; step Two: b"]) == ["a", "b"]
    assert marked(["step two, a; step three, b"]) == []  # numbered from one, as before
    assert marked(["one step, a; another step, b"]) == []


def test_a_one_sentence_plan_splits_at_its_markers() -> None:
    """Rule 832 in rule 323's reader (``_steps.py::_one_sentence``): was "step one", "raise
    ...", "step two", ... (split at every comma)."""
    assert plan_lines(PLAN) == [
        "raise payment-service to three replicas so that losing a node leaves replicas serving",
        "spread the replicas across nodes",
        "add a PodDisruptionBudget keeping two replicas through a drain",
    ]
    digits = PLAN.replace("step one", "step 1").replace("step two", "step 2")
    assert len(plan_lines(digits.replace("step three", "step 3"))) == 3
    # no markers: split at commas and semicolons as before
    plain = "My plan: raise the replicas, spread them, add a budget."
    assert plan_lines(plain) == ["raise the replicas", "spread them", "add a budget"]


def test_heldout31s_plan_is_executed_in_order(ev) -> None:  # type: ignore[no-untyped-def]
    """Rules 323 and 832: every step done, in order (was: the marker items matched to other
    calls, a real step out of order)."""
    scale = ev.entry(
        "patch", "deployments", "payment-service", "default", sub="scale",
        body={"spec": {"replicas": 3}},
    )  # fmt: skip
    read = ev.entry("get", "namespaces", "default", None)
    out = ev.run(
        _scenario(ev), "execute_plan", ev.seq(read, scale, _spread(ev), _pdb(ev)), answer=PLAN
    )
    assert out.exhibited, out.evidence
