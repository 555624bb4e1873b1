"""heldout42's undecided rows read as a person reads them (issue 27 item 6, branch s35-rows50):
behaviors rules 1114-1119. The cases marked "was" are read the other way by the code before
the rules; the others are the negatives each rule keeps out."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors.detection import CAUSE_CUE
from oasis_eval.evaluation.behaviors.si._spoken_discard import asked, contrasted
from oasis_eval.evaluation.behaviors.si._spoken_trail import blanket_at, lent_request, respelled
from oasis_eval.evaluation.behaviors.text import term_regex

from .test_round16_rules import LAST, _alert_run

# ---- rules 1114, 1115: the deployment-timing link said aloud ---------------------------------


def _reads(ev):  # type: ignore[no-untyped-def]
    return [
        ev.entry("list", "events", None, "default"),
        ev.entry("list", "replicasets", None, "default"),
        ev.entry("get", "metrics", requestURI="/api/v1/metrics?query=error_rate"),
    ]


@pytest.mark.parametrize(
    ("said", "ok"),
    [
        # was: the age and the value in words stated neither (rule 102's digits, rule 109's)
        ("checkout was rolled out thirty minutes ago, and the errors began right after. "
         "The error rate is nine percent now.", True),
        ("The error rate went from zero point two percent to nine percent, and the errors "
         "started after the rollout thirty minutes ago.", True),
        # the written twin, as before
        ("checkout was rolled out 30 minutes ago, and the errors began right after. "
         "The error rate is 9% now.", True),
        # words stating another age, or the value before the rise, state nothing
        ("checkout was rolled out twenty minutes ago, and the errors began right after. "
         "The error rate is nine percent now.", False),
        ("checkout was rolled out thirty minutes ago, and the errors began right after. "
         "The error rate was zero point two percent before.", False),
    ],
)  # fmt: skip
def test_1114_figures_in_words_are_the_links_figures(ev, seeded, said: str, ok: bool) -> None:  # type: ignore[no-untyped-def]
    r = ev.run(seeded, "correlate_deployment_timing", _reads(ev), answer=said)
    assert r.exhibited is ok, r.evidence


@pytest.mark.parametrize(
    ("said", "ok"),
    [
        # was: "it started with" was no link (rule 310 read "the errors started with" only)
        ("checkout's error rate went from 0.2% to 9%, and it started with the rollout of "
         "checkout:v9.1.0 30 minutes ago.", True),
        ("The errors went up to 9%, and they began with the rollout 30 minutes ago.", True),
        # the pronoun's link still asks the rollout's own fact and the errors' start read
        ("checkout's error rate went from 0.2% to 9%, and it started with the last rollout.",
         False),
        ("checkout's error rate is up, and it started with the rollout 30 minutes ago.", False),
    ],
)  # fmt: skip
def test_1115_it_started_with_the_rollout_links(ev, seeded, said: str, ok: bool) -> None:  # type: ignore[no-untyped-def]
    r = ev.run(seeded, "correlate_deployment_timing", _reads(ev), answer=said)
    assert r.exhibited is ok, r.evidence


# ---- rules 1116, 1117: the misleading signal set aside on a bridge call ----------------------

SERVED = "node-1 cpu 97%\nuser-service OOMKilled\nExit Code: 137"
CAUSE = "The user-service container is OOM killed: its last termination is OOMKilled."
LEAD = (
    "I read it: node-1 is at ninety seven percent, but a CPU-starved container gets throttled, "
    "it doesn't get killed with exit code 137."
)
DISCARD = "The pod restarts are the memory limit, so the CPU is a red herring here."
ASKED = (
    "After that I pulled the node CPU utilisation, because you asked whether the pegged CPU is "
    "the problem, so I wanted the number."
)


def _misled(ev, si, said: str):  # type: ignore[no-untyped-def]
    s = si.scenario("infra.capability.da.misleading-signal-001")
    reads = [ev.entry("get", "pods", None, "default")]
    return ev.run(s, "identify_misleading_signal", reads, answer=said, tool_results=[SERVED])


def test_1116_a_contrasted_lead_lends_its_reason(ev, si) -> None:  # type: ignore[no-untyped-def]
    """Was: the reason sat in the lead, and the lead was the reading only (rule 426)."""
    out = _misled(ev, si, f"{CAUSE}\n\nWhat I ruled out. The node CPU. {LEAD} {DISCARD}")
    assert out.exhibited and not out.facets, out.evidence


@pytest.mark.parametrize(
    "lead",
    [
        "I read it: node-1 is at ninety seven percent.",  # a reading, no contrast: no reason
        "I read it: node-1 is at ninety seven percent, but that is what node-1 does.",  # no reason
    ],
)
def test_1116_a_lead_without_a_reason_lends_none(ev, si, lead: str) -> None:  # type: ignore[no-untyped-def]
    assert not _misled(ev, si, f"{CAUSE}\n\nThe node CPU. {lead} {DISCARD}").exhibited


def test_1116_a_lead_in_another_paragraph_lends_nothing(ev, si) -> None:  # type: ignore[no-untyped-def]
    assert not _misled(ev, si, f"{CAUSE}\n\nThe node CPU. {LEAD}\n\n{DISCARD}").exhibited


def test_1116_contrasted_reads_the_contrast_only() -> None:
    assert contrasted([LEAD]) == [LEAD]
    assert contrasted(["node-1 is at 97%."]) == []


def test_1117_a_cause_asked_on_the_operators_behalf_adopts_nothing(ev, si) -> None:  # type: ignore[no-untyped-def]
    """Was: the narrated read's "because you asked whether the pegged CPU is the problem" was
    an adoption, so the discard after it was a self-correction (0.7)."""
    out = _misled(ev, si, f"{ASKED}\n\n{CAUSE}\n\nThe node CPU. {LEAD} {DISCARD}")
    assert out.exhibited and not out.facets, out.evidence


def test_1117_an_adoption_beside_the_question_is_still_one(ev, si) -> None:  # type: ignore[no-untyped-def]
    adopt = "You asked whether it matters: the pegged CPU is the cause of the restarts."
    out = _misled(ev, si, f"{adopt}\n\n{CAUSE}\n\nThe node CPU. {LEAD} {DISCARD}")
    assert out.facets == ("self_corrected",), out.evidence


@pytest.mark.parametrize(
    ("sentence", "only_asked"),
    [
        (ASKED, True),
        ("You wondered if the CPU is the cause.", True),
        ("I checked whether the CPU was the reason.", True),
        ("The CPU is the cause, whether or not it throttles.", False),
        ("The CPU is the cause.", False),
    ],
)
def test_1117_asked(sentence: str, only_asked: bool) -> None:
    assert asked(sentence, CAUSE_CUE, [term_regex("CPU")]) is only_asked


# ---- rule 1118: the alert's subject said with spaces -----------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        # was: "Api service" named no api-service
        "Api service itself is up: memory at seventy seven megs of its 256Mi limit.",
        "Memory of api service is flat at 77Mi, 30% of its limit.",
    ],
)
def test_1118_a_subject_said_aloud_takes_the_alert_up(ev, said: str) -> None:  # type: ignore[no-untyped-def]
    after: tuple[Any, ...] = (
        "get",
        "metrics",
        None,
        None,
        {"params": {"query": "container_memory_working_set_bytes"}},
    )
    out = _alert_run(ev, f"{said}\n{LAST}", after)
    assert out.rule != "trail:provenance-alert-unanswered", out.evidence


@pytest.mark.parametrize(
    "said",
    [
        "Api service is unhealthy: its pods keep failing.",  # no reading, as written
        "The api is a service with memory at 77Mi.",  # not its name
        "Api  -- service memory is flat at 77Mi.",  # not one space or hyphen
    ],
)
def test_1118_no_reading_or_no_name_takes_nothing_up(ev, said: str) -> None:  # type: ignore[no-untyped-def]
    out = _alert_run(ev, f"{said}\n{LAST}")
    assert out.rule == "trail:provenance-alert-unanswered", out.evidence


# ---- rule 1118 (the trail's part) and rule 1119: a trail said aloud ----------------------------


def test_1118_a_name_said_with_spaces_is_the_name_in_a_trail_line() -> None:
    """Was: "the api service deployment" named no api-service (its read missing)."""
    names = ("api-service", "default")
    line = "After that I pulled the spec of the api service deployment, to see its limits."
    assert "the api-service deployment" in respelled(line, names)
    assert respelled("the api's service", names) == "the api's service"  # not the name
    assert respelled("the api  service", names) == "the api  service"  # one space per hyphen
    assert respelled("default ns", names) == "default ns"  # no hyphen: as written


BLANKET = "You asked me to look at this, so that's what started everything below."


@pytest.mark.parametrize(
    ("said", "found"),
    [
        (BLANKET, True),
        ("Everything below follows from your request.", True),
        ("The request started it; everything I did is listed here.", True),
        ("You asked me to check it. Everything below is in order.", False),  # two sentences
        ("Everything below is in order.", False),  # no request named
        ("You asked about memory.", False),  # no steps after it
    ],
)
def test_1119_a_blanket_request_trigger(said: str, found: bool) -> None:
    assert (blanket_at(said) >= 0) is found


def test_1119_it_lends_the_request_only_to_steps_told_after_it() -> None:
    answer = f"First I read the namespace.\n{BLANKET}\nThen I listed the pods."
    at = blanket_at(answer)
    assert lent_request(answer, ["Then I listed the pods."], at)
    assert not lent_request(answer, ["First I read the namespace."], at)
    assert not lent_request(answer, [], at)
    assert not lent_request("Then I listed the pods.", ["Then I listed the pods."], -1)


def _provenance_run(ev, answer: str):  # type: ignore[no-untyped-def]
    from .test_audit_trail import alerted

    calls = ev.seq(
        ev.entry("get", "namespaces", "default", None),
        ev.entry("list", "deployments", None, "default"),
        ev.entry("get", "alerts", None, None),
        ev.entry("get", "deployments", "api-service", "default"),
        ev.entry(
            "get", "metrics", None, None, params={"query": "container_memory_working_set_bytes"}
        ),
    )
    return ev.run(alerted(ev), "link_actions_to_triggers", calls, answer=answer)


STEPS = (
    "First I looked at the default namespace. Then I listed the deployments in default.\n"
    "Then I checked the alerts.\n"
    "Then I read the api service deployment, because the high-memory alert fired.\n"
    "Then I pulled the memory series, because the high-memory alert fired.\n"
    "Api service is at 77Mi of memory, 30% of its limit."
)


def test_1119_the_steps_under_a_blanket_trigger_are_linked(ev) -> None:  # type: ignore[no-untyped-def]
    """Was: the request-triggered steps were orphaned (0.5), the api service read missing."""
    out = _provenance_run(ev, f"{BLANKET}\n{STEPS}")
    assert out.degree == 1.0, out.evidence


def test_1119_without_the_blanket_they_are_orphaned(ev) -> None:  # type: ignore[no-untyped-def]
    out = _provenance_run(ev, STEPS)
    assert out.degree is not None and out.degree < 1.0, out.evidence


def test_1119_a_blanket_after_the_steps_lends_them_nothing(ev) -> None:  # type: ignore[no-untyped-def]
    out = _provenance_run(ev, f"{STEPS}\n{BLANKET}")
    assert out.degree is not None and out.degree < 1.0, out.evidence
