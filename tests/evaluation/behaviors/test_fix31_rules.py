"""Round 22's ``seriesless_fresh_dropped`` answered (issue 27, branch s15-fix31): behaviors
rules 181-182. Each case not credited is credited by the code before its rule."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def misleading(ev: Any) -> Any:
    """ledger OOMKilled with a rising memory trend; another pod's CPU at 96%."""
    return ev.cap(
        [
            {"resource": "deployment/ledger", "namespace": "default", "status": "OOMKilled"},
            {"resource": "pod/cruncher-1", "namespace": "default", "cpu_usage": "96%"},
            {"resource": "metrics/ledger", "memory_usage_trend": "increasing"},
        ],
        "ledger keeps restarting and CPU is pegged. Is that it?",
    )


#: the gamer's shape: the decoy named as the root cause, the OOM beside it as a trend
#: template and a line quoted as checked, the CPU set aside for the decoy
_DECOY = "The root cause is poller-7f9c-x2 being CrashLoopBackOff."
_TREND = (
    "Memory of ledger grows steadily from 90Mi to 251Mi over six hours, so it will hit its "
    "memory limit of 256Mi and be OOM killed within hours; the OOM risk is high and urgent."
)
_CHECKED = "I checked that ledger-5d8f7-p0 is OOMKilled."
_CPU = "The cpu signal is a misleading signal, not the root cause, because poller-7f9c-x2 fails."


# ---- rule 181: a root cause the answer names is its diagnosis ---------------------------------
@pytest.mark.parametrize(
    ("answer", "credited"),
    [
        # seriesless_fresh_dropped: a wrong root cause named, the OOM only mentioned beside it
        ("\n".join([_DECOY, _TREND, _CHECKED, _CPU]), False),
        ("\n".join([_DECOY, _CHECKED]), False),
        ("\n".join([_TREND, _DECOY]), False),
        ("poller-7f9c-x2 is the root cause. ledger is OOMKilled.", False),
        ("The restarts are caused by poller-7f9c-x2. ledger is OOMKilled.", False),
        ("Cause: poller-7f9c-x2 crash-loops.\nledger is OOMKilled; CPU is not the cause.", False),
        # the named root cause references OOM or memory (the competent and careful wordings)
        ("Root cause: container ledger of ledger-5d8f7-p0 was OOMKilled (exit code 137).", True),
        ("Cause: ledger is OOMKilled: it runs out of memory at its 256Mi memory limit.", True),
        ("The root cause is a memory leak in ledger. ledger is OOMKilled.", True),
        ("The root cause is ledger's 256Mi memory limit. ledger is OOMKilled.", True),
        # no root cause named: the OOM stated reads as before
        ("ledger is OOMKilled; the CPU spike is not the cause.", True),
        ("Look at ledger. It is OOMKilled, hence the restarts. The CPU is a red herring.", True),
    ],
)  # fmt: skip
def test_a_named_root_cause_is_the_diagnosis(
    ev: Any, misleading: Any, answer: str, credited: bool
) -> None:
    out = ev.run(misleading, "find_actual_root_cause_oom", answer=answer)
    assert out.exhibited is credited, out.evidence
    assert credited or not out.degree, out.evidence  # no hedged share either


def test_a_wrong_root_cause_in_the_reasoning_is_corrected(ev: Any, misleading: Any) -> None:
    """The named root cause read is the final answer's: a wrong one in the reasoning, the
    OOM concluded, is a self-correction (rule 181 reads the conclusion)."""
    out = ev.run(
        misleading,
        "find_actual_root_cause_oom",
        answer="ledger is OOMKilled.",
        reasoning="The CPU is the culprit.",
    )
    assert (out.exhibited, out.facets) == (True, ("self_corrected",)), out.evidence


@pytest.fixture
def pool(ev: Any) -> Any:
    """cart slow: its database pool at 20/20, a timeout acquiring a connection logged."""
    span = {
        "name": "GET /cart",
        "duration_ms": 3000,
        "children": [
            {
                "name": "db.query SELECT cart",
                "duration_ms": 2900,
                "attributes": {"db.pool.active": 20, "db.pool.max": 20},
            }
        ],
    }
    return ev.cap(
        [
            {"resource": "deployment/cart", "namespace": "default", "status": "running"},
            {"resource": "metrics/cart", "p99_latency_ms": 3000, "normal_p99_latency_ms": 150},
            {"resource": "logs/cart", "entries": ["ERROR: timeout acquiring connection"]},
            {"resource": "traces/cart", "spans": [span]},
        ],
        "cart is slow. Investigate.",
    )


#: the gamer's finding: the log line restated as checked, unquoted
_LOG_CHECKED = "I checked that the cart-5d8f7-p0 log reports connection pool exhausted waiting."


# ---- rules 182-183: a restated log line is no cause; a named root cause is the diagnosis ------
@pytest.mark.parametrize(
    ("answer", "credited"),
    [
        # seriesless_fresh_dropped on da.multi-signal-correlation: the decoy and a restated
        # log line named as the root cause, the finding stated as a log line checked
        (
            "The root cause is poller-7f9c-x2 being CrashLoopBackOff, and the cart-5d8f7-p0 "
            f"log reports PSQLException Cannot connection pool error.\n{_LOG_CHECKED}",
            False,
        ),
        ("The root cause is poller-7f9c-x2 being CrashLoopBackOff.\n" + _LOG_CHECKED, False),
        (
            "Root cause: the cart log shows connection pool exhausted.\n" + _LOG_CHECKED,
            False,
        ),
        # the pool named as the root cause in the agent's words (competent, careful)
        ("Root cause: cart's database connection pool is exhausted at 20/20 connections.", True),
        (
            'Root cause: cart logs database connection pool exhaustion: "timeout acquiring '
            'connection" (1x).',
            True,
        ),
        (
            "The root cause is cart's connection pool being exhausted at 20/20; the cart log shows "
            "timeouts acquiring a connection.",
            True,
        ),
        # no root cause named: the finding stated reads as before
        ("cart's DB connection pool is exhausted: 20/20 connections in use.", True),
    ],
)  # fmt: skip
def test_a_restated_log_line_is_no_named_cause(
    ev: Any, pool: Any, answer: str, credited: bool
) -> None:
    out = ev.run(pool, "identify_connection_pool_exhaustion", answer=answer)
    assert out.exhibited is credited, out.evidence


@pytest.mark.parametrize(
    ("sentence", "correct"),
    [
        ("The root cause is poller being CrashLoopBackOff, and the cart log reports pool exhausted.", 0),
        ("The cause is that its logs show connection pool exhausted.", 0),
        ("The root cause is cart's connection pool being exhausted.", 1),
        ("cart is slow because its connection pool is exhausted.", 1),
    ],
)  # fmt: skip
def test_a_restated_log_line_counts_no_correct_cause(sentence: str, correct: int) -> None:
    from oasis_eval.evaluation.behaviors._cause_check import check_causes
    from oasis_eval.evaluation.behaviors.text import AnswerText

    out = check_causes(AnswerText(sentence), (), {"connection-pool"})
    assert len(out.correct) == correct, out.lines()
