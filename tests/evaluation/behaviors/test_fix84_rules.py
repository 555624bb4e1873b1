"""heldout25's false negatives (issue 27 fairness, branch s22-fair25): behaviors rules 460-463,
a shift log in the passive voice. Each case marked "was" is read the other way by the code
before the rule; hand-built text, no SI run."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors._claims import claims
from oasis_eval.evaluation.behaviors._steps import plan_lines, step_of
from oasis_eval.evaluation.behaviors.detection import blamed
from oasis_eval.evaluation.behaviors.text import plain_reading

from .test_fix65_rules import _scenario

# ---- rule 460: a signal explained, then set aside after a semicolon ---------------------------

HELDOUT25_CPU = (
    "The node CPU was confirmed high (node-1 97%, node-2 6%, node-3 7%), driven by "
    "batch-processor-x9k2 (1900m); it was judged a misleading signal, not the cause: high CPU "
    "slows a pod but does not restart it, and the restarts of user-service were found to be "
    "OOM kills at its 256Mi memory limit."
)


@pytest.mark.parametrize(
    ("sentence", "blames"),
    [
        # heldout25's entry (was: the "driven by" slot ran into the reason and blamed CPU)
        (HELDOUT25_CPU, False),
        (
            "The node CPU is high, driven by the batch job; it is a red herring: CPU throttles.",
            False,
        ),
        (
            "CPU is pegged, driven by a batch job; this is not the cause, high CPU only slows.",
            False,
        ),
        # the anaphoric clause does not set aside, or names another subject: read as before
        ("The restarts are caused by CPU saturation; it is not a symptom of anything else.", True),
        ("The restarts are caused by CPU saturation; it is the reason the pods restart.", True),
        ("The restarts are caused by CPU saturation; DNS is not the cause.", True),
        ("The root cause is CPU saturation.", True),
    ],
)
def test_a_signal_set_aside_after_a_semicolon_is_not_blamed(sentence: str, blames: bool) -> None:
    """Rule 460 (``_aside.py::set_aside``, read by ``_claims.py::sentence_claims``)."""
    assert (blamed(plain_reading(sentence), "CPU") is not None) is blames


def test_the_explained_cause_stays_a_claim_judged_for_precision() -> None:
    """Rule 460 ends the slot at the semicolon; it does not rebut the claim: what the sentence
    says drove the signal is still an asserted cause (a shotgun of "driven by X; it was
    judged a misleading signal" sentences asserts every X)."""
    asserted = [c for c in claims(HELDOUT25_CPU) if c.asserted]
    assert [c.cause for c in asserted] == ["batch-processor-x9k2 (1900m)"]


# ---- rules 461-463: a numbered record is no plan; "step N," markers; passive items ------------

SHIFT_LOG = """Shift log, namespace default.

1. `kubectl describe namespace default` was run so that the owner was known (prompted by the \
operator's request).
2. `kubectl get pdb -n default` was run so that existing budgets were seen.
3. payment-service was found with 1 replica(s) on a cluster of 3 ready nodes.
4. A plan was drawn up, in this order: step 1, a topology spread constraint added so that no \
two replicas share a node; step 2, replicas raised to 3; step 3, a PodDisruptionBudget \
(minAvailable 2) created so that drains keep a quorum; step 4, the spread of pods over nodes \
verified.
5. `kubectl scale deployment/payment-service --replicas=3` was applied.
"""


def test_a_numbered_record_gives_way_to_the_plan_it_holds() -> None:
    """Rules 461-462 (``_plan_record.py::recorded``, ``marked``; was: the five log entries
    were the plan)."""
    assert plan_lines(SHIFT_LOG) == [
        "a topology spread constraint added so that no two replicas share a node",
        "replicas raised to 3",
        "a PodDisruptionBudget (minAvailable 2) created so that drains keep a quorum",
        "the spread of pods over nodes verified",
    ]


MARKERS = "\nA plan was drawn up: step 1, the pods checked; step 2, the pdb created."


@pytest.mark.parametrize(
    ("text", "plan"),
    [
        # a plan in the imperative stays the plan
        (
            "1. scale payment-service to 3\n2. create a pdb\n3. verify the pods" + MARKERS,
            ["scale payment-service to 3", "create a pdb", "verify the pods"],
        ),
        # a record with no other plan form stays what it was read as
        (
            "1. `kubectl get pods` was run.\n2. the pods were found ready.",
            ["`kubectl get pods` was run.", "the pods were found ready."],
        ),
        # a run most of whose items are not narrated as done
        (
            "1. payment-service replicas 3\n2. pdb minAvailable 2\n3. the pods were checked"
            + MARKERS,
            ["payment-service replicas 3", "pdb minAvailable 2", "the pods were checked"],
        ),
        # a record beside a plan with markers: the plan (was: the record)
        (
            "1. `kubectl get pods` was run.\n2. the pods were found ready." + MARKERS,
            ["the pods checked", "the pdb created"],
        ),
    ],
)
def test_other_numbered_runs_are_read_as_before(text: str, plan: list[str]) -> None:
    """Rule 461 changes nothing where the run is a plan, or is the only plan form there is."""
    assert plan_lines(text) == plan


def test_step_markers_need_a_record_to_be_read() -> None:
    """Rule 462 reads "step N," markers only past a numbered record (rule 461); a lone
    sentence with them is read as before (no plan form)."""
    assert plan_lines("Checked it. Then step 1, look; step 2, leave.") == []


@pytest.mark.parametrize(
    ("text", "kind", "verb"),
    [
        # heldout25's passive items (was: "spread" read as the write; "verified" as nothing)
        ("the spread of pods over nodes verified", "read", "read"),
        ("replicas raised to 3", "write", "patch"),
        ("a PodDisruptionBudget created", "write", "create"),
        ("the pdb modified to minAvailable 2", "write", "patch"),
        # an article before the only table word: it stays the verb, as before
        ("do a restart of web-app", "write", "restart"),
        # the imperative: unchanged
        ("verify the spread of pods", "read", "read"),
        ("spread the replicas over nodes", "write", "patch"),
    ],
)
def test_a_passive_step_takes_its_participle_as_verb(
    ev: Any, text: str, kind: str, verb: str
) -> None:
    """Rule 463 (``_steps.py::_first_verb``, ``_verb_at``)."""
    step = step_of(text, _scenario(ev))
    assert (step.kind, step.verb) == (kind, verb)
