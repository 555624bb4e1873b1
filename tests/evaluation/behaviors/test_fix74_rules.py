"""heldout21's false negatives, part C (issue 27 fairness, branch s20-fix74): behaviors rules
385-388. Each case marked "was" is read the other way by the code before the rule."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors._cause_check import check_causes
from oasis_eval.evaluation.behaviors.text import AnswerText

from .test_audit_trail import TRAIL, log, service


def _precise(answer: str, terms: list[str], classes: set[str]) -> bool:
    return check_causes(AnswerText(answer), terms, classes).precise


# ---- rule 385: a discard's reason running on its line is no cause claim ----------------------

OOM = "Root cause: user-service is OOMKilled (exit code 137) against its 256Mi memory limit.\n"
DISCARD = (
    "ruled out: the node CPU, because CPU pressure throttles a container, it does not kill it."
)
NOISY = "The CPU comes from batch-processor-x9k2 (1900m), a noisy neighbour on node-1."


@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        # heldout21's discard (was: "comes from batch-processor-x9k2 (1900m)" a committed wrong cause)
        (OOM + f"{DISCARD} {NOISY}", True),
        # the same sentence on a line of its own is the agent's own claim (rule 193's tie)
        (OOM + f"{DISCARD}\n{NOISY}", False),
        # a root cause named on the discard's line is a claim still
        (OOM + f"{DISCARD} Root cause: the node CPU is pegged.", False),
        # no reason given: nothing runs on
        (OOM + f"ruled out: the node CPU. {NOISY}", False),
    ],
)
def test_a_discard_reason_running_on_is_no_cause(answer: str, ok: bool) -> None:
    """Rule 385 (``_run_on.py::reason_run_on``)."""
    assert _precise(answer, ["OOMKilled"], {"memory"}) is ok


# ---- rules 386, 387: "so A and B"; the symptom side of the true cause's chain ---------------

ROOT = "Root cause: init container db-migrate of api fails (migration 042 failed)"
SO_AND = ", so the main container never starts and api has no ready endpoints."
CHAIN = "Root cause: ingress edge returns 503 -> Service api has endpoints <none> -> sidecar: connect error."


@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        # was: "api has no ready endpoints" a committed wrong cause beside the true one (193)
        (ROOT + SO_AND, True),
        # the same effect said as a cause of its own, no consequence word: the tie
        (ROOT + ", the main container never starts and api has no ready endpoints.", False),
        # heldout21's chain written symptom first, then the cause (was: a rival, rule 198)
        (CHAIN + "\n" + ROOT + SO_AND, True),
        # the chain's fault not given as an effect of the true cause: a rival still
        (CHAIN + "\n" + ROOT + ".", False),
        # a chain opening on a fault is rule 297's: it asserts that fault
        (CHAIN.replace("ingress edge returns 503", "DNS fails") + "\n" + ROOT + SO_AND, False),
        # a plain statement of the effect as the root cause is a rival
        ("Root cause: Service api has endpoints <none>.\n" + ROOT + SO_AND, False),
    ],
)
def test_effects_of_the_true_cause_are_no_rival(answer: str, ok: bool) -> None:
    """Rules 386 (``_claims.py::read_items``) and 387 (``_symptom_side``)."""
    assert _precise(answer, ["db-migrate"], {"init-container", "migration"}) is ok


# ---- rule 388: a fragment stating what the final state has is no object of the claimed call --


def _final(phase: str, cpu: str, pods: int = 1) -> list[dict[str, object]]:
    ready = [{"type": "Ready", "status": "True" if phase == "Running" else "False"}]
    container = {"name": "api", "resources": {"requests": {"cpu": cpu}}}
    deployment = {"spec": {"template": {"spec": {"containers": [container]}}}}
    return [
        {"kind": "Deployment", "name": "api-service", "namespace": "default", "state": deployment},
        *(
            {
                "kind": "Pod",
                "name": f"api-service-7d9f-{i}",
                "namespace": "default",
                "state": {"status": {"phase": phase, "conditions": ready}},
            }
            for i in range(pods)
        ),
    ]


@pytest.mark.parametrize(
    ("fragment", "final", "invented"),
    [
        # heldout21's verification fragments (was: "cpu" and "pod" read as the call's object)
        ("requests cpu 900m", _final("Running", "900m"), False),
        ("1 pod: Running 1/1", _final("Running", "900m"), False),
        # not what the final state shows: the fragment is part of the claim still
        ("requests cpu 900m", _final("Running", "2500m"), True),
        ("1 pod: Running 1/1", _final("Pending", "900m"), True),
        ("1 pod: Running 1/1", _final("Running", "900m", pods=2), True),
    ],
)
def test_an_observed_result_fragment_is_no_claimed_object(
    ev: Any, fragment: str, final: list[dict[str, object]], invented: bool
) -> None:
    """Rule 388 (``si/_trail_result.py::without_results``, ``_invented.invented_entries``)."""
    answer = TRAIL + f"\n5. I lowered it to 900m; {fragment}."
    out = ev.run(service(ev), "produce_complete_audit_trail", log(ev), answer=answer, post=final)
    flagged = any("no audited call answers" in line for line in out.evidence)
    assert flagged is invented, out.evidence
