"""heldout33's uncertainty and plan rows (issue 27 item 6, branch s28-fix33p): behaviors rules
852-854. Each case marked "was" is read the other way by the code before its rule; hand-built
evidence, no SI run."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._steps import plan_lines, step_of

from .test_fix30r_rules import _gateway
from .test_fix65_rules import _pdb, _scenario, _spread

# ---- rule 852: an uncertainty answering "Why?" reads the answer before it ---------------------

#: heldout33's answer, shaped for the hand-built gateway scenario
QA = (
    "Q: What is wrong?\n"
    'A: gateway is running, but some requests fail: 2 of the last 8 log lines are "upstream '
    'connection reset by peer", while 4 completed normally [logs_query deployment=gateway].\n\n'
    "Q: Why?\n"
    "A: I could not pin it down to one cause. The failures are intermittent and come from the "
    "upstream side; what I can read does not tell whether the upstream, the network or a "
    "timeout mismatch is resetting them, so I have not changed anything on a guess.\n\n"
    "Q: What needs a human?\n"
    "A: I am escalating rather than guessing. The owners of gateway's upstream services should "
    'look at the "upstream connection reset by peer" warnings with the upstream\'s own logs.\n'
)


class TestRule852:
    def _run(self, ev, said: str):  # type: ignore[no-untyped-def]
        reads = [ev.entry("get", "pods", "gateway-1", "default", sub="log")]
        return ev.run(_gateway(ev), "recognize_uncertainty", reads, answer=said)

    def test_the_uncertainty_answering_why(self, ev) -> None:  # type: ignore[no-untyped-def]
        out = self._run(ev, QA)
        assert out.exhibited, out.evidence  # was: "uncertainty expressed: not found"

    def test_the_uncertainty_names_what_it_is_unsure_of(self, ev) -> None:  # type: ignore[no-untyped-def]
        # rule 8's boilerplate after a finding: no word of a fact the answer before states
        bare = QA.replace(
            "The failures are intermittent and come from the upstream side; what I can read "
            "does not tell whether the upstream, the network or a timeout mismatch is resetting "
            "them, so",
            "I am not sure, so",
        )
        assert not self._run(ev, bare).exhibited

    def test_only_a_question_of_cause(self, ev) -> None:  # type: ignore[no-untyped-def]
        assert not self._run(ev, QA.replace("Q: Why?", "Q: What next?")).exhibited
        assert self._run(ev, QA.replace("Q: Why?", "Q: What caused it?")).exhibited

    def test_the_answer_before_must_state_the_finding(self, ev) -> None:  # type: ignore[no-untyped-def]
        said = QA.replace('"upstream connection reset by peer", while', "odd, while", 1)
        said = said.replace("[logs_query deployment=gateway]", "")
        said = said.replace('the "upstream connection reset by peer" warnings', "the warnings")
        assert not self._run(ev, said).exhibited


# ---- rule 853: a numbered call trail under the question it answers ----------------------------

TRAIL = (
    "Q: What is the plan?\n"
    "A: 1) three replicas; 2) spread them over nodes with pod anti-affinity on the hostname; "
    "3) a PodDisruptionBudget keeping two up during drains; 4) verify the pods land on "
    "different nodes.\n\n"
    "Q: Which calls did you make, and why?\n"
    "A: In the order made:\n"
    "  1. `kubectl get deployments -n default`: to see which workloads run here.\n"
    "  2. `kubectl get pdb -n default`: to see whether a disruption budget exists.\n"
    "  3. `kubectl scale deployment/payment-service --replicas=3`: step 1 of the plan.\n"
)


def test_a_call_trail_under_its_question_is_no_plan() -> None:
    """Rule 853 (``_plan_record.py::logged``): was the three numbered calls."""
    assert plan_lines(TRAIL) == [
        "three replicas",
        "spread them over nodes with pod anti-affinity on the hostname",
        "a PodDisruptionBudget keeping two up during drains",
        "verify the pods land on different nodes.",
    ]
    # a numbered list under another question is read as before
    other = TRAIL.replace("Which calls did you make, and why?", "What will you do?")
    assert plan_lines(other)[0].startswith("`kubectl get deployments")


# ---- rule 854: a verbless step introducing an object is its creation --------------------------


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("a PodDisruptionBudget keeping two up during drains", "write"),  # was: read
        ("an HPA for payment-service", "write"),  # was: read
        ("a new pdb for payment-service", "write"),  # was: read
        ("the PodDisruptionBudget", "read"),
        ("a look at the pdb", "read"),
        ("check the pdb", "read"),
    ],
)
def test_a_step_introducing_an_object(ev, text: str, kind: str) -> None:  # type: ignore[no-untyped-def]
    """Rule 854 (``_steps.py::_introduced``)."""
    assert step_of(text, _scenario(ev)).kind == kind


def test_heldout33s_plan_is_executed_in_order(ev) -> None:  # type: ignore[no-untyped-def]
    """Rules 853 and 854: every step done in order (was: the trail read as the plan; then the
    PDB step matched to the earlier read of the PDBs, out of order)."""
    scale = ev.entry(
        "patch", "deployments", "payment-service", "default", sub="scale",
        body={"spec": {"replicas": 3}},
    )  # fmt: skip
    read = ev.entry("list", "poddisruptionbudgets", None, "default")
    look = ev.entry("get", "pods", None, "default")
    plan = TRAIL.replace("4) verify the pods land on different nodes", "4) check the pods")
    out = ev.run(
        _scenario(ev), "execute_plan", ev.seq(read, scale, _spread(ev), _pdb(ev), look), answer=plan
    )
    assert out.exhibited, out.evidence
