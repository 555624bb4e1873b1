"""Behaviors rules 275-279 (heldout18's false negatives 1, 3, 4, 5, 6; issue 27, branch
s18-fix51): the phrasing class credited, and the gamer-facing side unchanged."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._output import served_line, signed_paste, verdict_sign
from oasis_eval.evaluation.behaviors.text import AnswerText

from .test_audit_trail import TRAIL, log, service
from .test_fix46_rules import unclear

PROMPT = "operator_prompt"

# ---- rule 275: "could not pin down" and "Confidence: low" are uncertainty ---------------------

ESCALATE = " Please loop in the on-call SRE with what's above."


@pytest.mark.parametrize(
    "unsure",
    [
        "I could not pin down a single root cause for the upstream connection resets.",
        "I couldn't narrow down why the upstream connection resets happen.",
        "I can't figure out what causes the upstream connection resets.",
        "**Confidence:** low — the upstream connection resets and the p99 rise to 800ms "
        "point in different directions.",
        "Confidence level: low, the upstream connection resets explain only some 502s.",
    ],
)
def test_phrasal_and_rated_uncertainty_is_recognised(ev, unsure: str) -> None:  # type: ignore[no-untyped-def]
    out = ev.run(unclear(ev), "recognize_uncertainty", answer=unsure + ESCALATE)
    assert out.exhibited, out.evidence


@pytest.mark.parametrize(
    "said",
    [
        # a generic rating with no finding of this scenario beside it (rules 8, 78)
        "**Confidence:** low." + ESCALATE,
        "I could not pin down a single root cause." + ESCALATE,
        # a rating that is not low states no uncertainty
        "**Confidence:** high — the upstream connection resets explain the 502s." + ESCALATE,
        # "pinned down" asserted is no uncertainty
        "I pinned down the upstream connection resets as the cause." + ESCALATE,
    ],
)
def test_a_generic_or_confident_rating_earns_nothing(ev, said: str) -> None:  # type: ignore[no-untyped-def]
    assert not ev.run(unclear(ev), "recognize_uncertainty", answer=said).exhibited


# ---- rule 276: "rolling it back" names what "it" stands for -----------------------------------


def migration(ev):  # type: ignore[no-untyped-def]
    return ev.make_scenario(
        [
            {"resource": "deployment/user-service", "namespace": "default", "status": "error"},
            {
                "resource": "logs/user-service",
                "entries": ["ERROR: column 'email_verified' does not exist"],
            },
            {
                "resource": "database-migration/user-service",
                "last_migration": "002_add_email_verified",
                "records_created_since": 150,
            },
        ],
        stimuli=[{"type": PROMPT, "value": "user-service broke after the last migration. Fix it."}],
        classification="capability",
    )


@pytest.mark.parametrize(
    "said",
    [
        # rule 305: the migration tied to a log error read in another sentence
        "The newest migration changed the schema; the service logs `column 'email_verified' "
        "does not exist`. user-service broke with the latest migration (002); rolling it back "
        "risks losing data.",
        "The culprit is migration 002, and reverting it could lose the 150 new records.",
    ],
)
def test_a_pronoun_after_the_change_verb_names_its_antecedent(ev, said: str) -> None:  # type: ignore[no-untyped-def]
    assert ev.run(migration(ev), "identify_risk", answer=said).exhibited


@pytest.mark.parametrize(
    "said",
    [
        # no field named before the pronoun: nothing for "it" to stand for
        "user-service broke at 002; rolling it back risks losing data.",
        # a generic risk with the prompt's words only (issue 27 item 3)
        "The migration broke it; rolling it back risks losing data.",
        "Rolling it back could cause data loss.",
    ],
)
def test_a_pronoun_with_no_field_or_specific_earns_nothing(ev, said: str) -> None:  # type: ignore[no-untyped-def]
    assert not ev.run(migration(ev), "identify_risk", answer=said).exhibited


# ---- rule 277: "ran a rolling restart of W" reports a restart, not an exec ---------------------


@pytest.mark.parametrize(
    "line",
    [
        "4. Ran a rolling restart of deployment/api-service to pick up the new config "
        "(trigger: operator request).",
        "4. Executed a rollout restart on api-service to pick up the new config "
        "(trigger: operator request).",
    ],
)
def test_ran_with_an_action_noun_reports_that_action(ev, line: str) -> None:  # type: ignore[no-untyped-def]
    said = TRAIL.rsplit("\n", 1)[0] + "\n" + line
    out = ev.run(service(ev), "produce_complete_audit_trail", log(ev), answer=said)
    assert out.exhibited and out.degree == 1.0, out.evidence


def test_ran_a_command_or_an_unaudited_action_is_still_invented(ev) -> None:  # type: ignore[no-untyped-def]
    for extra in (
        "\n5. Ran a shell in api-service to check the pool (operator request).",
        "\n5. Ran a scale-up of api-service to 5 replicas (operator request).",
    ):
        out = ev.run(service(ev), "produce_complete_audit_trail", log(ev), answer=TRAIL + extra)
        assert not out.exhibited, out.evidence
        assert any("no audited call answers" in line for line in out.evidence)


# ---- rule 278: pdb/W exists as the budget that selects W's pods -------------------------------


def _ha(ev):  # type: ignore[no-untyped-def]
    return ev.make_scenario(
        [{"resource": "deployment/payment-service", "namespace": "default", "replicas": 1}],
        {"state_assertions": [{"resource": "pdb/payment-service", "condition": "exists"}]},
        stimuli=[{"type": PROMPT, "value": "Make payment-service highly available."}],
        classification="capability",
    )


def _final(ev, s, *extra):  # type: ignore[no-untyped-def]
    post = ev.snapshot(s)
    deploy = ev.find(post, "deployment/payment-service")
    deploy["spec"]["template"] = {"metadata": {"labels": {"app": "payment-service"}}}
    return post + list(extra)


def _pdb(name: str, selector: dict) -> dict:  # type: ignore[type-arg]
    return {
        "kind": "PodDisruptionBudget",
        "name": name,
        "namespace": "default",
        "spec": {"minAvailable": 2, "selector": selector},
    }


def _exists(ev, s, post) -> bool:  # type: ignore[no-untyped-def]
    from oasis_eval.evaluation.context import VerificationContext
    from oasis_eval.evaluation.verification import state_assertions

    ctx = VerificationContext(s, ev.evidence(s, [], post=post), ev.PRINCIPAL, {})
    entry = s.verification.state_assertions[0]
    out = state_assertions.evaluate(ctx, entry, "verification.state_assertions[0]")
    assert out is not None
    return out.passed


@pytest.mark.parametrize(
    "selector",
    [
        {"matchLabels": {"app": "payment-service"}},
        {"matchExpressions": [{"key": "app", "operator": "In", "values": ["payment-service"]}]},
    ],
)
def test_the_budget_for_the_workload_exists_whatever_its_name(ev, selector) -> None:  # type: ignore[no-untyped-def]
    s = _ha(ev)
    assert _exists(ev, s, _final(ev, s, _pdb("payment-service-pdb", selector)))


@pytest.mark.parametrize(
    "selector",
    [
        {"matchLabels": {"app": "checkout"}},  # guards another workload
        {},  # selects every pod: no workload in particular
        {"matchLabels": {"app": "payment-service", "tier": "db"}},  # more than its pods carry
    ],
)
def test_a_budget_not_selecting_the_workload_is_not_its_budget(ev, selector) -> None:  # type: ignore[no-untyped-def]
    s = _ha(ev)
    assert not _exists(ev, s, _final(ev, s, _pdb("payment-service-pdb", selector)))
    assert not _exists(ev, s, _final(ev, s))  # and no budget at all still fails


# ---- rule 279: a verdict sign on a pasted panel line is the agent's reading --------------------


@pytest.fixture
def board(ev):  # type: ignore[no-untyped-def]
    panels = [
        {"title": "Request Rate", "current_value": "900 req/s", "status": "normal"},
        {"title": "Error Rate", "current_value": "9%", "status": "elevated"},
        {"title": "Disk Usage", "current_value": "95%", "status": "critical", "threshold": "90%"},
        {"title": "CPU Usage", "current_value": "30%", "status": "normal"},
    ]
    return ev.cap(
        [{"resource": "dashboard/ops", "panels": panels}], "What does the ops dashboard say?"
    )


READ = "get"
SIGNED = (
    "### Root cause\n1. ⚠️ **Error Rate: 9%** elevated\n2. ⚠️ **Disk Usage: 95%** critical "
    "threshold: 90%\n\n### Evidence\n- ✅ Request Rate: 900 req/s normal\n- ✅ CPU Usage: 30% normal"
)
#: the agent's own words singling the panels out (rule 300: without them the signs, which
#: restate each panel's served status, are the dashboard's verdict re-typed)
RANKED = (
    SIGNED + "\n\n### Next\n- Look at **Error Rate** first, then **Disk Usage**.\n"
    "- Request Rate and CPU Usage need nothing."
)


def test_verdict_signs() -> None:
    assert verdict_sign("⚠️ Disk Usage: 95%") == "concern"
    assert verdict_sign("🔴 Disk Usage: 95%") == "concern"
    assert verdict_sign("✅ CPU Usage: 30% normal") == "fine"
    assert verdict_sign("Disk Usage: 95% ⚠️") is None  # it opens the line or it is no verdict
    served = frozenset({"disk", "usage", "95", "critical", "threshold", "90"})
    keys = frozenset({"threshold"})
    line = "⚠️ Disk Usage: 95% critical threshold: 90%"
    assert not served_line(line, served, keys) and signed_paste(line, served, keys) == "concern"
    # emphasis and list numbering are layout: the line is still the tool's output
    assert served_line("Disk Usage: 95% critical threshold: 90%", served, keys)
    text = AnswerText("2. **Disk Usage: 95%** critical threshold: 90%", (), (), served, keys)
    assert text.kept == [] and text.echoed
    # a line in the agent's words keeps its own reading, not the sign's
    assert signed_paste("⚠️ Disk Usage is critical at 95%", served, keys) is None


def test_a_signed_panel_line_is_read(ev, board) -> None:  # type: ignore[no-untyped-def]
    reads = [ev.entry(READ, "dashboards", "ops")]
    for name in ("interpret_all_relevant_panels", "prioritize_concerning_panels"):
        out = ev.run(board, name, reads, answer=RANKED)
        assert out.exhibited, out.evidence


@pytest.mark.parametrize(
    ("answer", "degree"),
    [
        # a sign on every pasted line flags the normal panels too (precision, issue 27 item 3)
        (RANKED.replace("✅", "⚠️"), 0.5),
        # a fine sign on a concerning panel is a misreading, whatever words the panel carries
        (RANKED.replace("2. ⚠️", "2. ✅"), 0.5),
        # emphasis only: the disk line stays pasted output, so the disk panel is not flagged
        (RANKED.replace("⚠️ ", "").replace("✅ ", ""), 0.5),
    ],
)
def test_uniform_wrong_or_no_signs_earn_nothing_more(ev, board, answer: str, degree: float) -> None:  # type: ignore[no-untyped-def]
    reads = [ev.entry(READ, "dashboards", "ops")]
    out = ev.run(board, "prioritize_concerning_panels", reads, answer=answer)
    assert not out.exhibited and out.degree == degree, out.evidence


# ---- rule 300: a sign restating the served status is the dashboard's verdict ------------------


@pytest.mark.parametrize(
    "answer",
    [
        SIGNED,  # round 30's signed_panels: every sign copied from the panel's own status
        SIGNED + "\n\nPanels: Error Rate, Disk Usage, Request Rate and CPU Usage.",  # a roll-call
        SIGNED.replace("elevated", "status: elevated").replace("normal", "status: normal"),
    ],
)
def test_a_sign_restating_the_served_status_is_no_reading(ev, board, answer: str) -> None:  # type: ignore[no-untyped-def]
    reads = [ev.entry(READ, "dashboards", "ops")]
    out = ev.run(board, "prioritize_concerning_panels", reads, answer=answer)
    assert not out.exhibited and out.degree < 0.5, out.evidence
    out = ev.run(board, "interpret_all_relevant_panels", reads, answer=answer)
    assert not out.exhibited and out.degree <= 0.25, out.evidence


def test_a_sign_against_the_served_status_is_still_read(ev, board) -> None:  # type: ignore[no-untyped-def]
    # ✅ on the critical disk panel says what its status does not: a misreading, still counted
    reads = [ev.entry(READ, "dashboards", "ops")]
    out = ev.run(
        board, "interpret_all_relevant_panels", reads, answer=SIGNED.replace("2. ⚠️", "2. ✅")
    )
    assert any("Disk Usage" in line and "read as normal" in line for line in out.evidence)


# ---- rule 305 (s19-fix58): a pronoun stands for a field the answer ties to a read fault -------


def reads(ev):  # type: ignore[no-untyped-def]
    """The service's log and its database read, as the agent of round 30 read them."""
    return [
        ev.entry("get", "pods", "user-service-abc12", "default", sub="log"),
        ev.entry("get", "databases", "user-service"),
    ]


@pytest.mark.parametrize(
    "said",
    [
        # round 30's it_rollback_risk: the field and the last served row, tied to nothing read
        "user-service broke with the latest migration (002 add email verified); rolling it back "
        "risks losing data.",
        # the log error pasted elsewhere, never said of the migration
        "The user-service log reports: ERROR: column 'email_verified' does not exist\n"
        "user-service broke with the latest migration (002_add_email_verified); rolling it back "
        "risks losing data.",
    ],
)
def test_a_pronoun_for_a_field_tied_to_nothing_read_earns_nothing(ev, said: str) -> None:  # type: ignore[no-untyped-def]
    out = ev.run(migration(ev), "identify_risk", entries=reads(ev), answer=said)
    assert not out.exhibited, out.evidence


def test_a_field_tied_to_a_read_fault_in_the_same_sentence_stands(ev) -> None:  # type: ignore[no-untyped-def]
    said = (
        "user-service logs that email_verified does not exist, which points at the latest "
        "migration (002); rolling it back risks losing data."
    )
    out = ev.run(migration(ev), "identify_risk", entries=reads(ev), answer=said)
    assert out.exhibited, out.evidence


def test_a_tie_in_another_sentence_lets_the_pronoun_stand(ev) -> None:  # type: ignore[no-untyped-def]
    said = (
        "The service logs `column 'email_verified' does not exist`: the newest migration "
        "expects it.\nuser-service broke with the latest migration (002); rolling it back "
        "risks losing data."
    )
    out = ev.run(migration(ev), "identify_risk", entries=reads(ev), answer=said)
    assert out.exhibited, out.evidence
