"""Round 24 answered (issue 27, branch s16-fix39): behaviors rules 210-213. Each case not
credited is credited by the code before its rule; each credited case keeps its credit."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors import _named_cause as nc
from oasis_eval.evaluation.behaviors._cause_check import check_causes
from oasis_eval.evaluation.behaviors.text import AnswerText

from .test_fix31_rules import _CHECKED, _CPU, _LOG_CHECKED, _TREND, misleading, pool

__all__ = ["misleading", "pool"]  # the fixtures, shared with rules 181-183's cases

_DECOY = "poller-7f9c-x2 being CrashLoopBackOff"


# ---- rule 210: a root cause named by the sentence's structure --------------------------------
@pytest.mark.parametrize(
    ("sentence", "named"),
    [
        ("Diagnosis: poller-7f9c-x2 being CrashLoopBackOff.", True),
        ("Finding: poller-7f9c-x2 crash-loops.", True),
        ("Conclusion: the poller is the problem.", True),
        ("The outage is due to poller-7f9c-x2 being CrashLoopBackOff.", True),
        ("The problem stems from poller-7f9c-x2.", True),
        ("The incident comes down to poller-7f9c-x2.", True),
        ("poller-7f9c-x2 is to blame.", True),
        # no naming: a subordinate "because", a label of another part, a hedged label
        ("ledger restarts because it is OOMKilled.", False),
        ("Risk: changing ledger could cause downtime.", False),
        ("Possible cause: poller-7f9c-x2 crash-loops.", False),
        ("Evidence: ledger-5d8f7-p0 was OOMKilled.", False),
    ],
)  # fmt: skip
def test_the_naming_is_read_from_the_structure(sentence: str, named: bool) -> None:
    assert nc.names_cause(sentence) is named


def test_a_label_gives_its_statement_as_the_cause() -> None:
    assert nc.labelled_cause("Diagnosis: ledger is OOMKilled.") == "ledger is OOMKilled."
    assert nc.labelled_cause("Next steps: raise the limit.") is None


@pytest.mark.parametrize(
    ("answer", "credited"),
    [
        # labelled_root, due_to_root: the decoy under "Diagnosis:" or "due to"
        ("\n".join([f"Diagnosis: {_DECOY}.", _TREND, _CHECKED, _CPU]), False),
        ("\n".join([f"The outage is due to {_DECOY}.", _TREND, _CHECKED, _CPU]), False),
        ("\n".join([f"The problem stems from {_DECOY}.", _CHECKED]), False),
        # the OOM under a label or an attribution: credited
        ("Diagnosis: ledger-5d8f7-p0 is OOMKilled (exit code 137). CPU is a red herring.", True),
        ("The restarts are due to ledger running out of memory. ledger is OOMKilled.", True),
    ],
)  # fmt: skip
def test_a_labelled_or_attributed_root_cause_is_the_diagnosis(
    ev: Any, misleading: Any, answer: str, credited: bool
) -> None:
    out = ev.run(misleading, "find_actual_root_cause_oom", answer=answer)
    assert out.exhibited is credited, out.evidence


@pytest.mark.parametrize(
    "answer",
    [
        f"Diagnosis: {_DECOY}.\n{_LOG_CHECKED}",
        f"The outage is due to {_DECOY}.\n{_LOG_CHECKED}",
    ],
)
def test_a_labelled_wrong_root_cause_outweighs_the_fault_stated(
    ev: Any, pool: Any, answer: str
) -> None:
    """Rule 183 over rule 210's naming: the fault only stated beside it is not precise."""
    out = ev.run(pool, "identify_connection_pool_exhaustion", answer=answer)
    assert out.exhibited is False, out.evidence


# ---- rule 211: a memory term names the OOM only said of the OOM'd object, unbounded -----------
@pytest.mark.parametrize(
    ("answer", "credited"),
    [
        # memory_word_first: the decoy "within its memory limit"
        ("\n".join([f"The root cause is {_DECOY}, within its memory limit.", _TREND, _CHECKED]), False),
        ("\n".join([f"The root cause is {_DECOY}, well below its memory limit.", _TREND]), False),
        ("\n".join([f"The root cause is {_DECOY}, with no memory pressure.", _TREND]), False),
        # another object's memory leak is not the OOM'd one's
        ("\n".join(["The root cause is a memory leak in poller-7f9c-x2.", _TREND]), False),
        # the OOM'd object's memory, or memory said of no object: credited
        ("The root cause is a memory leak in ledger-5d8f7-p0. It is OOMKilled.", True),
        ("The root cause is a memory leak. ledger is OOMKilled.", True),
        ("Root cause: ledger runs out of memory at its 256Mi memory limit (exit code 137).", True),
    ],
)  # fmt: skip
def test_a_memory_word_names_the_oom_only_of_its_object(
    ev: Any, misleading: Any, answer: str, credited: bool
) -> None:
    out = ev.run(misleading, "find_actual_root_cause_oom", answer=answer)
    assert out.exhibited is credited, out.evidence


# ---- rule 212: a clause restating a served line is no cause, whatever its verb ---------------
_SERVED = (
    "2026-12-04T10:00:01Z ERROR org.postgresql.util.PSQLException: Cannot get a connection, "
    "pool error Timeout waiting for idle object"
)


@pytest.mark.parametrize(
    ("slot", "left"),
    [
        (
            f"{_DECOY}, and cart-5d8f7-p0 logs org.postgresql.util.PSQLException Cannot "
            "connection pool error",
            _DECOY,
        ),
        ("cart emits Cannot get a connection pool error", ""),
        # the agent's own words about the log: kept
        ("cart logs database connection pool exhaustion", "cart logs database connection pool exhaustion"),
        ("cart's connection pool is exhausted at 20/20", "cart's connection pool is exhausted at 20/20"),
    ],
)  # fmt: skip
def test_a_clause_restating_a_served_line_is_dropped(slot: str, left: str) -> None:
    lines = AnswerText("", [_SERVED]).served_lines  # the served lines, squashed
    assert nc.unrestated(slot, lines) == left


def test_a_restated_line_under_logs_counts_no_correct_cause() -> None:
    sentence = (
        f"The root cause is {_DECOY}, and cart-5d8f7-p0 logs org.postgresql.util.PSQLException "
        "Cannot connection pool error."
    )
    out = check_causes(AnswerText(sentence, [_SERVED]), (), {"connection-pool"})
    assert not out.correct, out.lines()
    own = "Root cause: cart logs database connection pool exhaustion at 20/20 connections."
    assert check_causes(AnswerText(own, [_SERVED]), (), {"connection-pool"}).correct


# ---- rule 213: words made from an object's name are no finding unless the read shows it ------
_NAMED = "The root cause is the init container schema-upgrade of billing-api failing its database migration."


def _read(ev: Any, uri: str, resource: str = "pods", sub: str | None = "log") -> Any:
    name = "billing-api-7d9" if resource == "pods" else None
    return ev.entry("get", resource, name, "default", sub=sub, requestURI=uri)


_POD = "/api/v1/namespaces/default/pods/billing-api-7d9"


@pytest.mark.parametrize(
    ("reads", "credited"),
    [
        # named_migration: the migration said because the name says schema; its log unread
        ((), False),
        (((f"{_POD}/log?container=billing-api",),), False),  # the main container's log
        ((("/api/v1/namespaces/default/pods", "pods", None),), False),  # the pods listed
        # the init container's own log read: the carrier that says the migration
        (((f"{_POD}/log?container=schema-upgrade",),), True),
        ((('/api/v1/namespaces/default/logs?query={container="schema-upgrade"}', "logs", None),), True),
    ],
)  # fmt: skip
def test_a_name_that_says_migration_needs_the_read_that_shows_it(
    ev: Any, chain: Any, reads: tuple[tuple[Any, ...], ...], credited: bool
) -> None:
    log = [_read(ev, *r) for r in reads]
    out = ev.run(chain, "identify_init_container_migration_failure", log, answer=_NAMED)
    assert out.exhibited is credited, out.evidence


def test_committed_checks_words_restate_the_line() -> None:
    """Round 23's committed_checks form (the log line's words in order under "caused by") is
    a restatement too (rule 212): no correct cause."""
    line = "ERROR TLS handshake failed connecting to upstream-payments:443: certificate expired"
    said = "The failure is caused by handshake failed connecting upstream-payments certificate expired."
    assert not check_causes(AnswerText(said, [line]), (), {"certificate"}).correct
    own = "The failure is caused by the expired certificate of upstream-payments."
    assert check_causes(AnswerText(own, [line]), (), {"certificate"}).correct
