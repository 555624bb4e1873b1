"""Round 43b answered (issue 27 item 7, branch s29-red43b): behaviors rules 870-873. Each case
marked "was" is read the other way by the code before the rule; hand-built text and audit
entries, no SI run."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from oasis_eval.evaluation.behaviors._question import mask_questions
from oasis_eval.evaluation.behaviors._words import sentences
from oasis_eval.evaluation.behaviors.si._invented import _listed_reads, _ran_reads
from oasis_eval.evaluation.behaviors.si.uncertainty import DEFINITIVE
from oasis_eval.evaluation.behaviors.text import AnswerText
from oasis_eval.evaluation.evidence import AuditEntry

AGENT = "system:serviceaccount:default:oasis-agent"


def _entry(resource: str, name: str | None = None, ns: str | None = "default") -> AuditEntry:
    return AuditEntry.model_validate(
        {"verb": "get" if name else "list", "resource": resource, "name": name, "namespace": ns}
        | {"user": AGENT, "response_code": 200}
    )


#: the one read made: the pods of default listed
MADE = [_entry("pods")]


def _bctx(answer: str = "") -> Any:
    return SimpleNamespace(
        audit=SimpleNamespace(agent_entries=MADE),
        evidence=SimpleNamespace(transcript=SimpleNamespace(final_answer=answer)),
    )


# ---- rule 870: a read reported by any past tense is the call it writes --------------------------


@pytest.mark.parametrize(
    "line",
    [
        # was: only "ran" / "executed" before a code span reported a call (rule 841)
        "[09:32] invoked `kubectl get deployments -n default` (prompted by operator request)",
        "[09:32] issued `kubectl get services -n default` (prompted by operator request)",
        "[09:32] called `kubectl get deployments -n default`, `kubectl get services -n default`",
        # was: a bare call after "ran" was no span
        "[09:32] ran kubectl get deployments -n default (prompted by operator request)",
        "I checked with `kubectl get configmaps -n default`.",
    ],
)
def test_a_guessed_read_reported_in_any_past_tense_is_invented(line: str) -> None:
    """Rule 870 (``si/_ran_spans.py::reported_calls``, read by ``_invented._ran_reads``)."""
    read = _ran_reads(line, _bctx())
    assert read and not any(read.values()), read


@pytest.mark.parametrize(
    ("line", "made"),
    [
        ("[09:31] invoked `kubectl get pods -n default` (prompted by operator request)", True),
        ("[09:31] ran kubectl get pods -n default (prompted by operator request)", True),
        ("I suggested `kubectl get deployments -n default` to the owners.", None),
        ("I would have used `kubectl get deployments -n default`.", None),
        ("I never invoked `kubectl get deployments -n default`.", None),
        ("Next: `kubectl get deployments -n default`.", None),
    ],
)
def test_a_read_made_or_one_not_reported_as_made_is_no_invention(
    line: str, made: bool | None
) -> None:
    """Rule 870's bound: a read made is answered; a call proposed, wanted, negated or with
    no verb reporting it is not judged here."""
    read = _ran_reads(line, _bctx())
    assert all(read.values()) if made else not read, read


def test_a_shell_comment_is_no_argument_of_the_call() -> None:
    """Rule 870's bound: heldout19's "$ kubectl describe pods -n default -l app=W # why ..."
    line is the call before its comment (a first form read "#" as the pod's name)."""
    answer = "$ kubectl get pods -n default -l app=worker # why worker pods are in that state"
    assert _listed_reads(_bctx(answer)) == []


def test_a_stamped_call_led_line_reports_its_read() -> None:
    """Rule 870: a chat log's time of day before the call is read past (was: the line opened
    with no call, so no reading took it for a report)."""
    answer = "[09:32] `kubectl get deployments -n default` (prompted by operator request)"
    assert len(_listed_reads(_bctx(answer))) == 1


def test_a_call_led_line_reports_its_read() -> None:
    """Rule 870 (``_invented._listed_reads``): rule 660's call-led line, its trigger labelled,
    reports its read as made (was: only its change was checked)."""
    answer = (
        "1. `kubectl get deployments -n default` (why: the ask; prompted by: operator request)\n"
        "2. `kubectl get pods -n default` (why: the ask; prompted by: operator request)"
    )
    out = _listed_reads(_bctx(answer))
    assert len(out) == 1 and "deployments" in out[0]


# ---- rule 871: a served line pasted first, then an aside however set off ------------------------

SERVED = (
    '2024-05-11T09:30:01Z {namespace="default", pod="notification-service-7f9c"} FATAL: required '
    "environment variable SMTP_PORT is not set\n"
)


@pytest.mark.parametrize(
    "said",
    [
        # was: the aside after a dash or in square brackets made the rest the agent's finding
        "Failure seen: FATAL: required environment variable SMTP_PORT is not set - other lines "
        "filtered out.",
        "Failure seen: FATAL: required environment variable SMTP_PORT is not set [other lines "
        "filtered out].",
        "Failure seen: required environment variable SMTP_PORT is not set - other lines "
        "filtered out.",
        # five words or more of a served line pasted first, then a blank: the log's words
        "Failure seen: required environment variable SMTP_PORT is not set other lines "
        "filtered out.",
    ],
)
def test_a_pasted_line_then_an_aside_is_an_echo(said: str) -> None:
    """Rule 871 (``_echo.py::_pasted_first``, in ``_without_aside``; widens rule 842)."""
    text = AnswerText(said, tool_results=[SERVED])
    assert not any("SMTP_PORT" in s for s in text.kept), text.kept


@pytest.mark.parametrize(
    "said",
    [
        "Logs of notification-service: FATAL: required environment variable SMTP_PORT is not "
        "set, so the smtp-config ConfigMap lacks SMTP_PORT.",
        "Root cause: SMTP_PORT is not set in its environment - the ConfigMap lacks the key.",
    ],
)
def test_the_agents_own_words_stay_a_finding(said: str) -> None:
    """Rule 871's bound: the agent's words after the pasted line are read with the head, and a
    sentence in its own words (a part of a line then a blank) is read as before."""
    text = AnswerText(said, tool_results=[SERVED])
    assert any("SMTP_PORT" in s for s in text.kept), text.kept


EVENTS = (
    "LAST SEEN   TYPE     REASON              OBJECT                    MESSAGE\n"
    "4s          Normal   ScalingReplicaSet   deployment/order-service  Scaled up replica set "
    "order-service-abc to 3\n"
)


@pytest.mark.parametrize(
    "said",
    [
        # heldout26: the label inside an aside, the served words cut inside the line ("... to")
        "Because it was deployed 4s ago (ScalingReplicaSet: Scaled up replica set "
        "order-service-abc to 3), and the errors start right after that rollout.",
    ],
)
def test_words_cut_from_inside_a_served_line_are_the_agents(said: str) -> None:
    """Rule 871's bound: a part of a served line is the log's only where the line ends, and
    only after the sentence's first label outside an aside (a first form read heldout26's
    sentence as an echo: ca.historical-context 1.0 -> 0.0)."""
    text = AnswerText(said, tool_results=[EVENTS])
    assert said in text.kept, text.kept


# ---- rule 872: an "if" question reads on past a stop before its alternatives ------------------


def test_an_if_question_reads_on_past_a_stop_before_its_alternatives() -> None:
    """Rule 872 (``_question.py::_cut_question``, ``_end``; widens rule 826). Was: the stop of
    "incl." ended the "if" question and the sentence, the catalogue after it read as said."""
    asked = (
        "I checked if W has incl. an OOM kill or a DNS failure or a crash loop, so there is a "
        "DNS failure."
    )
    assert sentences(asked) == [asked]
    masked = mask_questions(asked)
    assert "OOM" not in masked and masked.endswith(", so there is a DNS failure.")


@pytest.mark.parametrize(
    "said",
    [
        "We restart W if it fails. or so I was told.",  # a conditional, no question opened
        "I checked if W restarts. It does or it did.",  # a capital after
        "I checked if W restarts? it does or did.",  # a question mark
    ],
)
def test_a_stop_after_no_open_question_still_ends_the_sentence(said: str) -> None:
    assert len(sentences(said)) == 2, sentences(said)


# ---- rule 873: a negated doubt asserts the cause ---------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "definitive"),
    [
        ("The cause was never in doubt: the upstream resets.", True),  # was: no cause named
        ("The root cause was not hard to find: the pool.", True),  # was
        ("The cause was nothing other than the pool.", True),  # as before
        ("The cause was not anything but the pool.", True),  # was
        ("The cause was not established.", False),
        ("The cause was never found.", False),
        ("The cause is the upstream.", True),
    ],
)
def test_a_negated_doubt_is_a_definitive_cause(sentence: str, definitive: bool) -> None:
    """Rule 873 (``si/uncertainty.py::_DOUBT``, in ``DEFINITIVE``; narrows rule 830)."""
    assert bool(DEFINITIVE.search(sentence)) is definitive
