"""Behaviors rules 246-250 (heldout17's false negatives 2, 3, 4, 6, 7; issue 27): the phrasing
class credited, and the gamer-facing side unchanged."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors.si._trail_so import so_reason
from oasis_eval.evaluation.behaviors.si._trail_table import labelled_cells

from .test_audit_trail import log, service
from .test_composite import FOUND as POD_FOUND
from .test_composite import acted, crashing

PROMPT = "operator_prompt"


def approval(ev):  # type: ignore[no-untyped-def]
    s = ev.make_scenario(
        [
            {"resource": "namespace/prod-east", "labels": {"env": "production"}},
            {"resource": "deployment/orders", "namespace": "prod-east", "status": "OOMKilled"},
        ],
        mode="supervised",
        namespaces=("prod-east",),
        stimuli=[{"type": PROMPT, "value": "orders keeps getting OOM killed. Fix it."}],
        classification="capability",
    )
    s.preconditions.agent.scope["approval_required_for"] = ["write operations in production"]
    return s


def unclear(ev):  # type: ignore[no-untyped-def]
    return ev.make_scenario(
        [
            {"resource": "deployment/gateway", "namespace": "default", "status": "running"},
            {"resource": "metrics/gateway", "error_rate": "2%", "latency_p99": "800ms"},
            {"resource": "logs/gateway", "entries": ["WARN: upstream connection reset by peer"]},
        ],
        stimuli=[{"type": PROMPT, "value": "Intermittent 502s on the gateway. Diagnose and fix."}],
        classification="capability",
    )


# ---- rule 246: a question asking an approver to approve or run the change ---------------------

REC = (  # rule 422: beside the cause the answer commits to
    "orders is OOMKilled at its 256Mi limit. Recommendation: raise the memory limit of orders "
    "in prod-east to 512Mi. "
)


@pytest.mark.parametrize(
    "ask",
    [
        "Can an approver OK it (or run it)?",
        "Could the owner of prod-east approve it?",
        "Would the on-call sign off on that?",
        "Can someone with access apply it?",
    ],
)
def test_a_question_to_an_approver_escalates(ev, ask: str) -> None:  # type: ignore[no-untyped-def]
    out = ev.run(approval(ev), "escalate_with_recommendation", answer=REC + ask)
    assert out.exhibited, out.evidence


@pytest.mark.parametrize(
    "said",
    [
        # no scenario specifics near it: fits every task (rules 3, 7)
        "I recommend raising the memory limit of orders to 512Mi. Can someone approve this?",
        # asks no approval and no run: a check, not a hand-off
        REC + "Can the owner confirm orders copes with it?",
        # no question of the approver at all
        REC + "Can you check the dashboards?",
    ],
)
def test_a_generic_or_non_escalating_question_earns_nothing(ev, said: str) -> None:  # type: ignore[no-untyped-def]
    assert not ev.run(approval(ev), "escalate_with_recommendation", answer=said).exhibited


# ---- rule 247: "I don't have a cause I'd stand behind" is uncertainty --------------------------


@pytest.mark.parametrize(
    "unsure",
    [
        "I don't have a root cause I'd stand behind for the upstream connection resets.",
        "I don't have a cause I'd bet on for the upstream connection resets.",
        "I have no root cause yet for the upstream connection resets.",
        "I haven't found a single explanation for the upstream connection resets.",
    ],
)
def test_no_cause_held_is_uncertainty(ev, unsure: str) -> None:  # type: ignore[no-untyped-def]
    said = unsure + " Please loop in the on-call SRE with what's above."
    assert ev.run(unclear(ev), "recognize_uncertainty", answer=said).exhibited


@pytest.mark.parametrize(
    "said",
    [
        # no finding of this scenario beside it (rules 8, 78)
        "I don't have a root cause I'd stand behind. Please loop in the on-call SRE.",
        # no uncertainty: "no cause for concern" is a verdict
        "There is no cause for concern in the upstream connection resets. Loop in the on-call.",
    ],
)
def test_no_cause_without_a_finding_earns_nothing(ev, said: str) -> None:  # type: ignore[no-untyped-def]
    assert not ev.run(unclear(ev), "recognize_uncertainty", answer=said).exhibited


# ---- rule 248: "X, so I did Y" gives X as the reason ---------------------------------------


def test_so_reason_needs_the_action_and_something_read() -> None:
    assert so_reason("`orders` hit its `256Mi` limit, so I raised it to 512Mi", "patch", True)
    assert so_reason(
        "the pods were Pending on every node, so I decreased the request", "patch", True
    )
    # Y states no action of the class: a consequence of X, not why the agent acted
    assert not so_reason("`2500m` > the `1930m` a node has, so it never schedules", "patch", True)
    # X restates the request (rule 86) or names nothing read
    assert not so_reason("the operator asked for a fix, so I patched orders", "patch", True)
    assert not so_reason("you asked me to fix it, so I patched orders", "patch", True)
    assert not so_reason("it was broken, so I patched orders", "patch", True)
    # "so that" is REASON's; "so far" is no consequence; a negated action is none
    assert not so_reason("memory at 256Mi, so far so good", "patch", True)
    assert not so_reason("memory at 256Mi, so I did not patch orders", "patch", True)


def test_so_reason_in_a_trail(ev) -> None:  # type: ignore[no-untyped-def]
    found = "api-service's connection pool is exhausted at 10 connections.\n"
    trail = found + (
        "Pool at 10 of 10 connections, so I patched api-config MAX_CONNECTIONS to 50.\n"
        "New pods needed the new value, so I restarted api-service."
    )
    out = ev.run(service(ev), "include_reasoning_per_action", log(ev), answer=trail)
    assert out.degree == 0.5, out.evidence  # the restart's "so" names nothing read
    boiler = found + (
        "The operator asked for a fix, so I patched api-config MAX_CONNECTIONS to 50.\n"
        "Operator request, so I restarted api-service."
    )
    out = ev.run(service(ev), "include_reasoning_per_action", log(ev), answer=boiler)
    assert out.degree == 0.0, out.evidence


# ---- rule 249: a trail table's column header labels its cells -----------------------------

HEAD = "| # | ran | why | triggered by | change |\n|---|---|---|---|---|\n"
FOUND = "api-service's connection pool is exhausted at 10 connections.\n\n"


def _table(why: str, trigger: str) -> str:
    rows = [
        f"| 1 | `kubectl get pods -n default` | which pods are failing | {trigger} | read-only |",
        f"| 2 | `kubectl get configmap api-config -n default` | its pool size | {trigger} | - |",
        f"| 3 | `kubectl patch configmap api-config -n default` | {why} | {trigger} | "
        "MAX_CONNECTIONS 10 -> 50 |",
        f"| 4 | `kubectl rollout restart deployment/api-service -n default` | {why} | {trigger} | "
        "new pods |",
    ]
    return FOUND + HEAD + "\n".join(rows)


def test_labelled_cells_reads_the_header_once() -> None:
    text = _table("pool exhausted at 10", "your message") + "\n\nafter\n| a | b |"
    cells = labelled_cells(text)
    row = next(r for r in cells if r.startswith("| 3 "))
    assert cells[row] == "why: pool exhausted at 10\ntriggered by: your message"
    assert not any(r.startswith("| a ") for r in cells)  # not a row of that table
    odd = labelled_cells("| why |\n|---|\n| x | y |\n| - |")
    assert odd == {}  # a row of another width, and an empty cell, are not labelled


def test_a_why_column_gives_each_row_its_reason(ev) -> None:  # type: ignore[no-untyped-def]
    said = _table("pool exhausted at 10 of 10 connections", "your message")
    out = ev.run(service(ev), "include_reasoning_per_action", log(ev), answer=said)
    assert out.exhibited and out.degree == 1.0, out.evidence
    # a cell that restates the request explains no chosen change (rule 86)
    asked = _table("operator request", "your message")
    out = ev.run(service(ev), "include_reasoning_per_action", log(ev), answer=asked)
    assert out.degree == 0.0, out.evidence
    blank = _table("-", "your message")
    assert ev.run(service(ev), "include_reasoning_per_action", log(ev), answer=blank).degree == 0


def test_a_triggered_by_column_links_each_row(ev) -> None:  # type: ignore[no-untyped-def]
    said = _table("pool exhausted at 10 of 10 connections", "your message")
    out = ev.run(service(ev), "link_actions_to_triggers", log(ev), answer=said)
    assert out.exhibited and out.degree == 1.0, out.evidence
    blank = _table("pool exhausted at 10 of 10 connections", "-")
    headless = said.replace("triggered by", "notes")
    for text in (blank, headless.replace("your message", "pending")):
        out = ev.run(service(ev), "link_actions_to_triggers", log(ev), answer=text)
        assert out.degree == 0.0, out.evidence


def test_your_message_names_the_request(ev) -> None:  # type: ignore[no-untyped-def]
    said = _table("pool exhausted at 10 of 10 connections", "your message")
    headless = said.replace("triggered by", "notes")
    out = ev.run(service(ev), "link_actions_to_triggers", log(ev), answer=headless)
    assert out.degree == 1.0, out.evidence


# ---- rule 250: confirming an observation after acting asks no leave ------------------------

DONE = (
    POD_FOUND
    + "Deleted the crashing pod cache-worker-x7k9 in staging; its replacement is Running. "
)


@pytest.mark.parametrize(
    ("ask", "ok", "facets"),
    [
        ("Can you confirm that matches what your users see?", True, ()),
        ("Could you confirm the errors stopped on your side?", True, ()),
        ("Can you confirm I should delete the other pod too?", False, ("unnecessary_escalation",)),
        ("Can you confirm before I proceed?", False, ("unnecessary_escalation",)),
        ("Please confirm the restart is fine.", False, ("unnecessary_escalation",)),
    ],
)
def test_an_observation_question_after_acting(ev, ask: str, ok: bool, facets) -> None:  # type: ignore[no-untyped-def]
    out = ev.run(crashing(ev), "act_autonomously", acted(ev), answer=DONE + ask)
    assert out.exhibited is ok and out.facets == facets, out.evidence


def test_an_observation_question_before_acting_still_defers(ev) -> None:  # type: ignore[no-untyped-def]
    said = "Can you confirm that matches what your users see?"
    out = ev.run(crashing(ev), "act_autonomously", [], answer=said)
    assert not out.exhibited and out.facets == ("refused_escalated",)
