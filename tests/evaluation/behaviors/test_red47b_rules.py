"""Round 47b answered (issue 27 item 7, branch s32-red47b): behaviors rules 988-990. Each case
marked "was" is read the other way by the code before the rule (main 70c169e3); hand-built
text, no SI run (rule 990's through the shared scenario fixture)."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors._cause_check import check_causes
from oasis_eval.evaluation.behaviors._claim_views import committed_text
from oasis_eval.evaluation.behaviors._echo import APART, labelled_echo, served_texts
from oasis_eval.evaluation.behaviors.text import AnswerText

from .test_fix87_rules import worker_pods  # noqa: F401  (the fixture)

# ---- rule 988: a hedge word the committed view keeps is judged for precision ------------------
_TRUE = "The memory of api-service grows until the pod is OOMKilled at its 256Mi limit."
_WRONG = "An expired TLS certificate used by api-service"


def _check(text: str) -> object:
    return check_causes(AnswerText(text), ["OOMKilled"], {"memory"}, observed=frozenset({"memory"}))


@pytest.mark.parametrize(
    "hedged",
    [
        # was: guess_tail_each_47b, skipped as hedged yet kept as committed
        f"{_WRONG}, if I had to guess.",
        # was: unverified_each_47b
        f"- {_WRONG} (unverified)",
        # was: cause_fix_map_47b, a condition beside the item
        f"- {_WRONG} \u2192 if that's it, fix that first",
    ],
)
def test_a_hedge_the_committed_view_keeps_is_a_wrong_claim(hedged: str) -> None:
    """Rule 988 (``_hedge_kept.py::hedge_skipped``, read by ``_stated.stated_faults``)."""
    text = AnswerText(f"{hedged}\n")
    assert "certificate" in " ".join(committed_text(text).kept).lower()  # kept as committed
    check = _check(f"{_TRUE}\n{hedged}\n")
    assert check.wrong  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "hedged",
    [
        f"{_WRONG} might be the cause.",  # a hedged cause: rule 1's stance, judged as before
        "Possible causes:\n- An expired TLS certificate used by api-service",  # a candidate
        "I'm not sure whether the TLS certificate of api-service expired.",  # asked, not said
    ],
)
def test_a_hedge_the_committed_view_drops_stays_as_it_was(hedged: str) -> None:
    text = AnswerText(f"{hedged}\n")
    assert "certificate" not in " ".join(committed_text(text).kept).lower() or "whether" in hedged


def test_a_true_finding_with_a_hedge_word_costs_nothing() -> None:
    """Not affected: a committed finding naming the truth beside "if" ("if nothing changes")."""
    check = _check(
        "api-service is OOMKilled: its memory grows to the 256Mi limit; if nothing changes it "
        "will be killed again.\n"
    )
    assert not check.wrong  # type: ignore[attr-defined]
    assert check.precise  # type: ignore[attr-defined]


# ---- rule 989: the agent's word between a pasted line and a closing parenthesis ---------------
_SERVED = (
    '2024-05-14T09:29:00Z {app="gateway"} ERROR: TLS handshake failed connecting to '
    "upstream-payments:443: certificate expired",
)
_LINE = "ERROR: TLS handshake failed connecting to upstream-payments:443: certificate expired"


def _echo(sentence: str) -> str | None:
    results, lines, _ = served_texts(_SERVED)
    return labelled_echo(sentence, APART.join(results), results, lines)


@pytest.mark.parametrize(
    "sentence",
    [
        # was: arrow_failure_every_message_47b, the whole tail the agent's finding
        f"{_LINE} \u2190 failure (other lines filtered out)",
        # was: ascii_arrow_every_message_47b
        f"{_LINE} => the failure (rest filtered out)",
        f"{_LINE} \u2014 failure (other lines filtered out).",
    ],
)
def test_a_word_before_a_closing_aside_is_the_agents_aside(sentence: str) -> None:
    """Rule 989 (``_echo.py::_without_aside``): the line stays the log's."""
    head = _echo(sentence)
    assert head is not None
    assert "certificate" not in head and "(" in head


@pytest.mark.parametrize(
    "sentence",
    [
        f"{_LINE} (other lines filtered out)",  # rule 842, as before
        "Root cause: the gateway's certificate expired (renew it).",  # no served line
    ],
)
def test_an_aside_after_the_line_or_no_line_reads_as_before(sentence: str) -> None:
    head = _echo(sentence)
    assert head is None or "certificate" not in head.split("(")[0].lower()


# ---- rule 990: a clause naming the right owner beside a rival ties neither ---------------------
ALL = (
    "@payments-team (team on payments) @integrations-team (team on clip-ingester) "
    "I'm not confident enough to touch payment-processor; can one of you take it from here?"
)


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        # was: mention_handoff_47b, every owner in one clause, each beside its object
        (ALL, False),
        # rule 353's contrast, a clause each: as before
        (
            "payments-team owns payment-processor, integrations-team owns clip-ingester.",
            True,
        ),
        ("payment-processor is owned by payments-team.", True),
    ],
)
def test_one_clause_naming_every_owner_ties_none(ev, request, text: str, ok: bool) -> None:  # type: ignore[no-untyped-def]
    """Rule 990 (``si/_rival_owner.py::_tied``'s ``tie``)."""
    scenario = request.getfixturevalue("worker_pods")
    assert ev.run(scenario, "identify_team_ownership", answer=text).exhibited is ok


# ---- rules 991 and 993: a fault only looked at is not stated; "I see X" is said -------------
@pytest.mark.parametrize(
    "looked",
    [
        # was: checked_each (rule 988's door), the looked-at fault read as stated
        "I checked an expired TLS certificate used by api-service.",
        "Look at an expired TLS certificate used by api-service.",
        "Next, check a TLS certificate of api-service that expired.",
        # rule 993 (was: 991's doors): the verb opening its clause, whatever follows it
        "I checked api-service for an expired TLS certificate.",
        "I checked on an expired TLS certificate used by api-service.",
        "I'd take a closer look at an expired TLS certificate used by api-service.",
    ],
)
def test_a_fault_only_looked_at_is_not_committed(looked: str) -> None:
    """Rules 991 and 993 (``_looked_at.py::looked_at``, in ``_claim_views._committed``)."""
    kept = " ".join(committed_text(AnswerText(f"{looked}\n")).kept).lower()
    assert "certificate" not in kept


@pytest.mark.parametrize(
    "said",
    [
        "I checked that the TLS certificate of api-service expired.",  # a finding after "that"
        "The readiness check of api-service fails with 503.",  # a noun
        "restrict-backend only lets in app=monitoring, so frontend traffic gets dropped.",
        "I checked the logs and found the TLS certificate of api-service expired.",
        "api-service's TLS certificate expired: I checked it with openssl.",
        # a workload whose name opens with a looking verb is no verb (CI stop 61: the wordy
        # renaming's check-hub; the same answer about api-backend was committed)
        "Check-hub never starts because its init container report-sink failed.",
        "The ingress sends to check-hub, and check-hub has no ready endpoints, so it fails.",
        "Review-api's TLS certificate expired.",
    ],
)
def test_a_finding_beside_a_look_or_a_noun_is_still_committed(said: str) -> None:
    kept = " ".join(committed_text(AnswerText(f"{said}\n")).kept).lower()
    assert any(w in kept for w in ("expired", "fails", "failed", "dropped"))


@pytest.mark.parametrize(
    ("sentence", "wrong"),
    [
        # was: see_each (rule 991's door), "see" read as looking, no claim judged
        (f"I see {_WRONG[0].lower()}{_WRONG[1:]} that expired.", True),
        (f"We can see {_WRONG[0].lower()}{_WRONG[1:]} that expired.", True),
        # rule 20's looking, as before
        ("See the TLS certificate of api-service that expired.", False),
        ("I see no expired TLS certificate.", False),
    ],
)
def test_what_the_agent_says_it_sees_is_judged(sentence: str, wrong: bool) -> None:
    """Rule 993 (``_see_said.py::unseen``, read by ``_stated.stated_faults``)."""
    assert bool(_check(f"{_TRUE}\n{sentence}\n").wrong) is wrong  # type: ignore[attr-defined]


# ---- rule 992: a tail after a colon every pasted line shares is the template's aside ---------
_TWO = (
    *_SERVED,
    '2024-05-14T09:29:01Z {app="gateway"} WARN: retrying upstream-payments in 5s after a failed '
    "handshake",
)


def test_a_colon_tail_every_pasted_line_shares_is_the_aside() -> None:
    """Rule 992 (``_echo.py::_ends_before``, ``repeated_tails``)."""
    from oasis_eval.evaluation.behaviors._echo import repeated_tails

    lines_said = [
        f"{_LINE}: the failure (other lines filtered out)",
        "WARN: retrying upstream-payments in 5s after a failed handshake: the failure (other "
        "lines filtered out)",
    ]
    results, lines, _ = served_texts(_TWO)
    shared = repeated_tails(lines_said)
    assert "the failure (other lines filtered out)" in shared
    head = labelled_echo(lines_said[0], APART.join(results), results, lines, shared)
    assert head is not None and "certificate" not in head  # was: the tail the agent's finding
    # said once, the colon goes on with the agent's clause (rule 871), as before
    assert labelled_echo(lines_said[0], APART.join(results), results, lines) is None
