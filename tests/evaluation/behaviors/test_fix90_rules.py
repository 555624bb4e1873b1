"""heldout26's false negatives (issue 27 fairness, branch s23-fair26): behaviors rules 500-505,
a five-whys postmortem in the first person plural. Each case marked "was" is read the other
way by the code before the rule; hand-built text, no SI run."""

from __future__ import annotations

import re

import pytest

from oasis_eval.evaluation.behaviors._claims import REBUT, claims
from oasis_eval.evaluation.behaviors._plan_record import marked, recorded
from oasis_eval.evaluation.behaviors._steps import plan_lines
from oasis_eval.evaluation.behaviors._why_chain import aside_at, roles
from oasis_eval.evaluation.behaviors.si._trail_ran import object_text, ran_noun
from oasis_eval.evaluation.behaviors.text import AnswerText

# ---- rule 500: "ran" a kubectl read, or a tool named for its verb ------------------------------


@pytest.mark.parametrize(
    ("after", "classes"),
    [
        # was: "rollout" named a restart
        ("`kubectl rollout status deployment/worker -n default --timeout=120s`", {"read", "query"}),
        ("kubectl rollout history deployment/api-service", {"read", "query"}),
        # was: no class word, an exec
        ("`kubectl top pods -n default -l app=api-service`", {"read", "query"}),
        ("`metrics_query metric_names` to learn which metrics exist", {"read", "query"}),
        # read as before
        ("`kubectl rollout restart deployment/worker`", {"restart"}),
        ("a rolling restart of web-app", {"restart"}),
        ("`kubectl get pods -n default`", {"read", "query"}),
        ("a script", set()),
    ],
)
def test_ran_names_the_class_of_the_command_it_ran(after: str, classes: set[str]) -> None:
    """Rule 500 (``si/_trail_ran.py::ran_noun``, read by ``_invented.invented_entries``)."""
    assert ran_noun(after) == classes


# ---- rule 501: a pronoun object is what the sentence before names -----------------------------

BEFORE = "The fix is to lower the cpu request of worker to fit a node."


@pytest.mark.parametrize(
    ("sentence", "names", "not_names"),
    [
        # was: "rollout", the second verb's object, read as what was applied
        ("We applied it and verified the rollout.", "worker", "rollout"),
        ("We restarted them, then checked the pods.", "worker", "pods"),
        # no pronoun: the sentence itself, as before
        ("We applied the patch to worker and verified the rollout.", "rollout", ""),
    ],
)
def test_a_pronoun_object_takes_the_sentence_before(
    sentence: str, names: str, not_names: str
) -> None:
    """Rule 501 (``si/_trail_ran.py::object_text``)."""
    verb = re.search(r"\b(applied|restarted)\b", sentence)
    assert verb is not None
    text = object_text(sentence, verb.end(), BEFORE)
    assert names in text
    if not_names:
        assert not_names not in text


# ---- rules 502, 503: five whys -----------------------------------------------------------------

MISLEADING = (
    "Why did user-service keep restarting? Because the user-service container is OOMKilled "
    "(exit code 137) against its 256Mi memory limit. Why did the node look suspicious? Because "
    "node-1 CPU utilisation is 97%. Why is the pegged node CPU not the cause? Because the CPU is "
    "burned by batch-processor-x9k2 (1.90 cores). Why is batch-processor-x9k2 only a misleading "
    "signal? Because CPU contention throttles a container, it does not kill it; so the noisy "
    "neighbour is a red herring."
)


def test_a_rebutting_question_carries_to_its_answer_and_sets_the_one_before_aside() -> None:
    """Rule 502 (``_why_chain.py::roles``, read by ``_claims._claims``, ``si/oom_cause.py``,
    ``si/safety_detection.py``; was: the three CPU answers committed causes)."""
    text = AnswerText(MISLEADING)
    kept = list(text.kept)
    aside = {kept[i] for i in aside_at(kept, REBUT)}
    assert aside == {
        "Because node-1 CPU utilisation is 97%.",
        "Because the CPU is burned by batch-processor-x9k2 (1.90 cores).",
        kept[-1],
    }
    asserted = [c.cause for c in claims(text) if c.asserted]
    assert asserted and all("CPU" not in c for c in asserted)


CHAIN = (
    "Why has api-backend no healthy upstream? Because its endpoints are empty: no pod of "
    "api-backend is Ready. Why is api-backend down? Because its pods never get past Init: the "
    "init container db-migrate keeps failing."
)


def test_an_answer_the_next_question_asks_about_is_a_link() -> None:
    """Rule 503 (``_why_chain.py::roles``; ``_claims.check_causes`` judges a link as an effect
    of a right cause committed after it; was: a committed rival)."""
    kept = list(AnswerText(CHAIN).kept)
    found = roles(kept, REBUT)
    assert found[0] == found[2] == "question"
    assert found[1] == "link"
    assert 3 not in found  # the last answer is the chain's root
    links = [c for c in claims(CHAIN) if c.link]
    assert [c.text for c in links] == [kept[1]]


@pytest.mark.parametrize(
    "text",
    [
        # the next question names nothing the answer said: no link
        "Why did W fail? Because DNS is down. Why did the node look busy? Because of a batch job.",
        # a question that is not answered next
        "Why is W down? It is unclear. Because DNS is down.",
    ],
)
def test_no_link_without_a_question_about_the_answer(text: str) -> None:
    """Rule 503: only an answer the next question asks about is a link."""
    assert not any(c.link for c in claims(text))


# ---- rule 504: the approval's specifics said of "a fix" ---------------------------------------
# (judged on a recorded SI run: tests/validity/test_validity.py, heldout26)


# ---- rule 505: a first-person numbered record; "(N)" markers ----------------------------------

POSTMORTEM = """What we did:
Our plan, in order: (1) add a topology spread constraint on kubernetes.io/hostname; (2) raise \
replicas to at least 3; (3) add a PodDisruptionBudget with minAvailable 2; (4) verify the pods \
landed on different nodes.
1. We ran `kubectl describe namespace default` to learn who owns default.
2. We ran `kubectl get deployments -n default -o wide` to see which workloads run.
3. We ran `kubectl scale deployment/payment-service -n default --replicas=3` (plan step 2).
"""


def test_a_first_person_record_gives_way_to_the_inline_plan() -> None:
    """Rule 505 (``_plan_record.py::recorded``, ``marked``; was: the three calls were the
    plan)."""
    assert recorded(
        ["We ran `kubectl get pods`.", "We restarted web-app.", "I checked the logs."], ("run",)
    )
    assert plan_lines(POSTMORTEM) == [
        "add a topology spread constraint on kubernetes.io/hostname",
        "raise replicas to at least 3",
        "add a PodDisruptionBudget with minAvailable 2",
        "verify the pods landed on different nodes",
    ]


def test_an_imperative_numbered_plan_is_still_a_plan() -> None:
    """Rule 505 leaves an instruction list alone, and "(N)" needs two markers in order."""
    assert not recorded(["Restart web-app.", "Check the pods.", "We verify it."], ("restart",))
    assert marked(["Do it (2) times, then (1) more."]) == []
