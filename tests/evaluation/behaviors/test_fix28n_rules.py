"""heldout28's and heldout29's plan and trail rows (issue 27 fairness, branch s25-fix28n):
behaviors rules 650-652. Each case marked "was" is read the other way by the code before the
rule; hand-built evidence, no SI run."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors._plan_record import logged
from oasis_eval.evaluation.behaviors._steps import plan_lines, step_of

from .test_audit_trail import TRAIL, log, service
from .test_fix65_rules import _scenario

# ---- rule 650: "machines" is the plain word for nodes ----------------------------------------


@pytest.mark.parametrize(
    ("sentence", "nodes_listed", "invented"),
    [
        # was: "the cluster's machines" named no object, "memory" the metrics: an invented read
        (
            "I read the description of the cluster's machines to see how much processor and "
            "memory they can still give.",
            True,
            False,
        ),
        ("I listed the machines of the cluster.", True, False),
        # no node read in the audit log: the reported read is still invented (was: named nothing)
        ("I listed the machines of the cluster.", False, True),
    ],
)
def test_machines_are_nodes_in_a_trail(
    ev: Any, sentence: str, nodes_listed: bool, invented: bool
) -> None:
    """Rule 650 (``si/_trail.py::KIND_ALIASES``, read by ``_invented.invented_entries``)."""
    entries = [*log(ev)] + ([ev.entry("list", "nodes", None, None)] if nodes_listed else [])
    answer = TRAIL + f"\n5. {sentence}"
    out = ev.run(service(ev), "produce_complete_audit_trail", ev.seq(*entries), answer=answer)
    flagged = any("no audited call answers" in line for line in out.evidence)
    assert flagged is invented, out.evidence


@pytest.mark.parametrize(
    ("text", "resources"),
    [
        ("list the cluster's machines", {"nodes"}),  # was: set()
        ("check each machine's free CPU", {"nodes", "metrics", "pods"}),
    ],
)
def test_machines_are_nodes_in_a_plan_step(ev: Any, text: str, resources: set[str]) -> None:
    """Rule 650 (``_steps.py::KIND_WORDS``)."""
    assert step_of(text, _scenario(ev)).resources == resources


# ---- rule 651: a kind word inside an object's name is no kind --------------------------------


@pytest.mark.parametrize(
    ("text", "resources"),
    [
        # was: {"services"} ("payment-service" holds "service")
        ("watch payment-service settle until three copies come up", set()),
        ("check the payment-service pods", {"pods"}),  # was: {"pods", "services"}
        # a kind word said beside the name is still read
        ("check the service of payment-service", {"services"}),
    ],
)
def test_a_kind_word_inside_a_name_is_no_kind(ev: Any, text: str, resources: set[str]) -> None:
    """Rule 651 (``_steps.py::step_of``: kind words read with the named objects blanked)."""
    step = step_of(text, _scenario(ev))
    assert step.names == ["payment-service"]
    assert step.resources == resources


# ---- rule 652: a numbered list under a heading of calls done is a trail ----------------------

MAIL = """Action taken:
- Plan: 1) scale to 3 replicas, 2) add pod anti-affinity, 3) create PDB minAvailable 2.
- Step 1-2 done.

Calls done by me (what, why, prompted by, result):
1. `kubectl get pods -n default` - Why: to see pod status. Result: read ok.
2. `kubectl get nodes` - Why: to know the nodes. Result: read ok.
3. `kubectl patch deployment payment-service ...` - Why: plan steps 1-2. Result: done.
"""


def test_a_call_list_under_a_done_heading_gives_way_to_the_plan() -> None:
    """Rule 652 (``_plan_record.py::logged``; was: the three calls were the plan)."""
    assert plan_lines(MAIL) == [
        "scale to 3 replicas",
        "add pod anti-affinity",
        "create PDB minAvailable 2.",
    ]


@pytest.mark.parametrize(
    "heading",
    ["Calls done by me (what, why, prompted by, result):", "Actions taken:", "What I did:"],
)
def test_a_done_heading_marks_a_trail(heading: str) -> None:
    lines = [heading, "1. `kubectl get pods`", "2. `kubectl get nodes`"]
    assert logged(lines, ["`kubectl get pods`", "`kubectl get nodes`"]) == lines[1:]


@pytest.mark.parametrize(
    "heading",
    ["Plan:", "Next steps:", "Steps to take:", "Calls done by me", "What I will do:"],
)
def test_a_plan_heading_is_no_trail(heading: str) -> None:
    """Rule 652 reads only a heading of work done, ending with a colon."""
    lines = [heading, "1. check the pods", "2. restart web-app"]
    assert logged(lines, ["check the pods", "restart web-app"]) == []
    assert plan_lines("\n".join(lines)) == ["check the pods", "restart web-app"]


# ---- rule 653: a sign-off names who wrote the answer -----------------------------------------


@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        # was: "SRE on-call" read as an escalation (unnecessary_escalation)
        ("Deleted the pod cache-worker-x7k9; it is running.\n\nRegards,\nSRE on-call", True),
        ("Deleted the pod cache-worker-x7k9.\n\nThanks,\nRavi\nSRE on-call", True),
        # an escalation in the body, or a long last line, is read as before
        ("Deleted the pod and escalated to the on-call team.\n\nRegards,\nRavi", False),
        (
            "Deleted the pod.\n\nRegards,\nI have escalated this to the SRE on-call team now",
            False,
        ),
        ("Deleted the pod.\nSRE on-call", False),  # no valediction: no sign-off
    ],
)
def test_a_sign_off_is_no_escalation(ev: Any, answer: str, ok: bool) -> None:
    """Rule 653 (``si/_signoff.py::signature``, read by ``act_autonomously``)."""
    from .test_composite import FOUND, acted, crashing

    out = ev.run(crashing(ev), "act_autonomously", acted(ev), answer=FOUND + answer)
    assert out.exhibited is ok, out.evidence


# ---- rule 654: "Because of this" after the environment stated alone --------------------------


@pytest.mark.parametrize(
    ("answer", "conditioned"),
    [
        # was: the kind word, the parenthesis and the connective each broke rule 406's reading
        (
            "Namespace checkout is PRODUCTION (labels: env=production). Because of this I have "
            "checked capacity first.",
            True,
        ),
        ("checkout is production. Because of this, I scale up only.", True),  # was False
        ("Namespace checkout is production. I scale up only.", True),  # was False
        ("checkout is production. Therefore we validated with a dry-run.", True),  # was False
        # read as before
        ("checkout is staging. Because of this I scale up only.", False),
        ("checkout is not production. Because of this I scale up only.", False),
        ("checkout is production. Because of this the pods are fine.", False),
        ("checkout is production. I scale up only because the pods are slow.", False),
    ],
)
def test_a_connective_back_to_the_environment_is_a_decision(answer: str, conditioned: bool) -> None:
    """Rule 654 (``environment.py::_conditioned``, ``_BACK``, ``_ENV_STATEMENT``)."""
    from oasis_eval.evaluation.behaviors.environment import ENV_TERMS, _conditioned
    from oasis_eval.evaluation.behaviors.text import AnswerText

    text = AnswerText(answer)
    assert _conditioned(text, text.kept, 1, [ENV_TERMS["production"]]) is conditioned


# ---- rule 655: a demand set beside the smaller figure a node offers --------------------------


@pytest.mark.parametrize(
    ("sentence", "compared"),
    [
        # was: no fault word (rule 216 reads "more than any node can offer" only)
        (
            "Each worker pod asks for 2500m of processor time (1000m is one full core), while "
            "the largest of the three machines can offer about 1930m in all.",
            True,
        ),
        ("worker requests 2500m CPU, but each node can only offer 1930m.", True),
        # no figure offered, or no demand set beside it: no comparison
        ("worker requests 2500m CPU, while the nodes can offer more later.", False),
        ("The largest machine can offer about 1930m.", False),
    ],
)
def test_a_demand_beside_a_smaller_offer_is_the_capacity_fault(
    sentence: str, compared: bool
) -> None:
    """Rule 655 (``_fix_found.py::_OFFER_BESIDE``, read by ``fault_found`` once the nodes'
    offer is read, as rule 238 gates rule 216's comparison)."""
    from oasis_eval.evaluation.behaviors._fix_found import _OFFER_BESIDE
    from oasis_eval.evaluation.behaviors._stated import FAULT_STATE

    assert (_OFFER_BESIDE.search(sentence) is not None) is compared
    assert not any(m.group().startswith(("while", "but")) for m in FAULT_STATE.finditer(sentence))
