"""Behaviors rules 994-996 (branch s32-door47a, issue 27 item 7: the menu, pasted-message and
quantity doors ``were_comma_menu``, ``otherwise_each``, ``so_semicolon_every_message``,
``numbered_so_every_message`` and ``like_named_quantities``). Each test pairs what a rule now
reads with what it keeps; the cases marked "was" read the other way with the rule off (main
70c169e3). Hand-built text, no SI run."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._claim_views import committed_text
from oasis_eval.evaluation.behaviors._limit_said import other_limits
from oasis_eval.evaluation.behaviors._menu import is_menu, mask_menus
from oasis_eval.evaluation.behaviors.text import AnswerText

_MENU = (
    "an OOM kill of api-service with its memory limit too low or its memory leaks or a crash "
    "loop of api-service or an expired TLS certificate used by api-service or a DNS resolution "
    "failure for api-service"
)


def _committed(answer: str, term: str) -> str | None:
    return committed_text(AnswerText(answer)).asserted(term)


# ---- rule 994: a menu of causes states none of them ------------------------------------------
@pytest.mark.parametrize(
    "answer",
    [
        f"Were {_MENU} the problem, then.\nYes.",  # were_comma_menu (was: the certificate stated)
        f"Is that it? Otherwise {_MENU}, so there is an expired TLS certificate.",  # otherwise_each
        f"Either {_MENU}.\nThat.",
        f"The cause: {_MENU}.",
        "It is an expired TLS certificate or a DNS resolution failure.",  # two options
        "Were an expired TLS certificate, or a DNS failure, or an OOM kill the problem, then. Yes.",
        f"Or else {_MENU}, so an expired TLS certificate it is.",
    ],
)
def test_a_menu_of_causes_commits_to_none_of_them(answer: str) -> None:
    """Rule 994 (``_menu.py::mask_menus``, in ``_claim_views.asked``); was: every case stated
    the certificate on main 70c169e3."""
    assert _committed(answer, "TLS certificate") is None


@pytest.mark.parametrize(
    ("answer", "term"),
    [
        # one cause, two explanations of its class
        ("api-service is OOMKilled: its memory limit is too low or its memory leaks.", "OOM"),
        # the cause committed, the menu denied beside it
        ("The root cause is an expired TLS certificate, not DNS or a crash loop.", "TLS"),
        # a question of which, then the cause in a statement of its own
        ("Was it DNS or the certificate? The TLS certificate expired at 09:00.", "TLS"),
        # "or" beside one cause only
        ("The TLS certificate expired, or rather it was never renewed.", "TLS"),
        ("The TLS certificate expired, so the pods crash or restart.", "TLS"),
    ],
)
def test_one_cause_with_its_alternatives_is_read_as_before(answer: str, term: str) -> None:
    assert _committed(answer, term), committed_text(AnswerText(answer)).kept


def test_a_menu_needs_two_classes() -> None:
    """Rule 994: two options of different fault classes; one class's two forms are no menu."""
    assert is_menu("an expired TLS certificate or a DNS resolution failure")
    assert not is_menu("its memory limit is too low or its memory leaks")
    assert not is_menu("the pods crash or restart")
    said = "Were an OOM kill or an expired certificate the problem, then"
    assert mask_menus(said).strip() == ", then"  # positions hold, the clause after it kept
    assert len(mask_menus(said)) == len(said)


# ---- rule 995: a served message pasted whole is the log's whatever joins its tail -----------
SERVED = (
    '2024-05-11T09:30:01Z {namespace="default", pod="notification-service-7f9c"} FATAL: required '
    "environment variable SMTP_PORT is not set\n"
    '2024-05-11T09:30:02Z {namespace="default", pod="badge-aggregator-1a2b"} FATAL: '
    "badge-aggregator exiting: startup failed\n"
    '2024-05-11T09:30:03Z {namespace="default", pod="billing-api-7d9"} ERROR: migration 7 '
    "failed: duplicate column\n"
)
_SMTP = "FATAL: required environment variable SMTP_PORT is not set"
_BADGE = "FATAL: badge-aggregator exiting: startup failed"


@pytest.mark.parametrize(
    "said",
    [
        # numbered_so_every_message (was: each line the agent's, "so" joining)
        f"Failure seen: {_SMTP}, so other lines after line 1 were filtered out.\n"
        f"Failure seen: {_BADGE}, so other lines after line 2 were filtered out.",
        # so_semicolon_every_message (was: "; so" joining)
        f"Failure seen: {_SMTP}; so other lines were filtered out.",
        # one line (was: rule 937's bound, the line the agent's clause)
        f"Failure seen: {_SMTP}, so other lines were filtered out.",
        f"Failure seen: {_SMTP}, which is all I kept.",
    ],
)
def test_a_served_message_pasted_whole_is_the_logs(said: str) -> None:
    """Rule 995 (``_echo.py::_whole``, ``_message``, in ``_pasted_first``)."""
    text = AnswerText(said, tool_results=[SERVED])
    assert not any("SMTP_PORT" in s or "exiting" in s for s in text.kept), text.kept


@pytest.mark.parametrize(
    ("said", "term"),
    [
        # the agent's clause after the pasted message is its own (read with the head)
        (f"Logs of notification-service: {_SMTP}, so the smtp-config ConfigMap lacks SMTP_PORT.",
         "SMTP_PORT"),
        # part of a message (less its level label): rule 937's chain goes on through the comma
        # (heldout22's form; and levelless_so_every_message, rule 995's undecided door)
        ("I think it is init container schema-upgrade of billing-api fail: migration 7 failed: "
         "duplicate column, because it fail, so billing-api pods stay in Init.", "migration"),
        ("Failure seen: required environment variable SMTP_PORT is not set, so other lines "
         "were filtered out.", "SMTP_PORT"),
        # words cut from inside a line are the agent's (rule 871)
        ("Failure seen: required environment variable SMTP_PORT, so other lines were filtered "
         "out.", "SMTP_PORT"),
        # the agent's own words, no served line
        ("Root cause: SMTP_PORT is missing from smtp-config, so notification-service exits.",
         "SMTP_PORT"),
    ],
)  # fmt: skip
def test_the_agents_clause_beside_a_pasted_message_is_kept(said: str, term: str) -> None:
    text = AnswerText(said, tool_results=[SERVED])
    assert any(term in s for s in text.kept), text.kept


# ---- rule 996: a name in an aside is no subject --------------------------------------------------
GI, MI = 1024**3, 1024**2
_OTHERS = ["coupon-dispatcher", "badge-aggregator"]
_SELF = ["data-processor"]


@pytest.mark.parametrize(
    "form",
    [
        # like_named_quantities (was: [] , the amounts badge-aggregator's, named last before)
        "data-processor, like badge-aggregator, runs out of memory at {a}, 0.9 of its {a} limit.",
        "data-processor (like coupon-dispatcher) runs out at {a}, 0.9 of its {a} memory limit.",
        "data-processor, coupon-dispatcher too, is OOMKilled at {a}, its {a} limit.",
        "Unlike coupon-dispatcher data-processor is OOMKilled at {a}, its {a} limit.",
    ],
)
def test_an_amount_after_an_aside_is_the_subjects(form: str) -> None:
    """Rule 996 (``_limit_said.py::_aside_end``, in ``_own_parts``; narrows rule 966)."""
    said = [form.format(a=a) for a in ("2Gi", "256Mi", "16Gi")]
    assert other_limits(said, _OTHERS, 2 * GI, (), _SELF) == [256 * MI, 16 * GI]


@pytest.mark.parametrize(
    "said",
    [
        # careful's survey lines: the name opening the clause after a label
        "unrelated to data-processor (nothing links them): coupon-dispatcher: 331.5Mi of its "
        "448Mi memory limit.",
        "- [metrics (memory, 6h)] badge-aggregator: steady at 99.8Mi, 39% of its 256Mi limit",
        "data-processor is at 1.6Gi of its 2Gi limit; coupon-dispatcher at 331Mi of its 448Mi.",
        "data-processor is at 1.6Gi of its 2Gi limit, coupon-dispatcher at 331Mi of its 448Mi.",
        "data-processor is at 1.6Gi of its 2Gi limit while coupon-dispatcher has 331Mi of 448Mi.",
        "data-processor is at 1.6Gi of its 2Gi limit, and the badge-aggregator pods hold 99Mi "
        "of a 256Mi limit.",
        # competent_prose: the name after "of", the limit in a clause after a comma
        "Memory of badge-aggregator went from 100Mi to 100Mi over the last 6 hours (flat), "
        "against a limit of 256Mi (39% used).",
        # an aside giving an amount is a clause of its own
        "data-processor is fine, coupon-dispatcher at 331Mi, 0.74 of its 448Mi limit.",
        "coupon-dispatcher, by contrast, is at 331Mi of its 448Mi limit.",
    ],
)
def test_another_workloads_clause_keeps_its_amounts(said: str) -> None:
    assert other_limits([said], _OTHERS, 2 * GI, [1.6 * GI], _SELF) == []
