"""Round 29a's winners on rules 225 and 228 answered (issue 27, branch s18-fix48): behaviors
rules 260 (a query answering no value of its series reads none) and 261 (a container's log
read whose recorded call returned no line shows none of it)."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.contract import ToolCall
from oasis_eval.evaluation.behaviors import _reads
from oasis_eval.evaluation.behaviors._logs_kept import emptied
from oasis_eval.evaluation.behaviors.registry import BehaviorOutcome
from oasis_eval.evaluation.behaviors.si._alert_subject import reads_subject
from oasis_eval.evaluation.behaviors.si._series_query import erases
from oasis_eval.evaluation.behaviors.si._subject_scope import Scope
from oasis_eval.evaluation.context import VerificationContext

from ..conftest import entry

_MEM = "container_memory_working_set_bytes"
_SEL = f'{_MEM}{{namespace="default"}}'
_PODS = frozenset({"api-service-w9zq7fzp5s-bq67z"})
_SCOPE = Scope(frozenset({"api-service"}), frozenset({"default"}), _PODS, False, frozenset())


# ---- rule 260: a query whose answer holds no value of the series -----------------------------
@pytest.mark.parametrize(
    ("query", "erased"),
    [
        (f"count_over_time({_SEL}[5m])", True),  # sample_count_rising: a sample count
        (f"sum by (pod) (changes({_SEL}[1h]))", True),  # nested: a sum of change counts
        (f"resets({_SEL}[1h])", True),
        (f"present_over_time({_SEL}[5m])", True),
        (f"absent({_SEL})", True),
        (f"timestamp({_SEL}) - time()", True),
        (f"{_SEL} * 0", True),  # the whole answer times zero
        (f"0 * rate({_SEL}[5m])", True),
        (f"{_SEL} > bool 1e30", True),  # 0 or 1, never the value
        (f"{_SEL} unless on() vector(1)", True),  # every series removed
        (_SEL, False),  # the competents' reads
        (f"sum by (pod) (rate({_SEL}[5m]))", False),
        (f"max_over_time({_SEL}[1h])", False),
        (f"1e3 * {_SEL}", False),  # a scale keeps the course
        (f"{_SEL} * 0.5", False),
        (f"count_over_time({_SEL}[5m]) + {_MEM}", False),  # one term still holds the value
        (f"topk(3, {_SEL})", False),
        ("vector(0)", False),  # names no metric: not judged
    ],
)
def test_a_query_answering_no_value_of_its_series_reads_none(query: str, erased: bool) -> None:
    assert erases(query) is erased
    read = entry("get", "metrics", params={"query": query})
    if query != "vector(0)":
        assert reads_subject(read, {"api-service"}, {"memory"}, _SCOPE) is not erased


# ---- rule 261: a container's log read that returned no line ----------------------------------
INIT = [
    {
        "resource": "deployment/api-backend",
        "namespace": "default",
        "status": "CrashLoopBackOff",
        "init_containers": [
            {"name": "db-migrate", "status": "error", "logs": "ERROR: migration 042 failed"}
        ],
    },
]
_URI = "/api/v1/namespaces/default/pods/api-backend-7d-x1/log?container=db-migrate"
_LINE = "ERROR: migration 042 failed"


def _logs(_result: str = _LINE, **arguments: Any) -> ToolCall:
    """A recorded ``logs_query`` call and what it returned (by default the seeded line)."""
    return ToolCall(tool="logs_query", arguments=arguments, result=_result)


def _ctx(ev: Any, *calls: ToolCall) -> VerificationContext:
    s = ev.cap(INIT)
    read = ev.entry("get", "pods", "api-backend-7d-x1", "default", sub="log", requestURI=_URI)
    evidence = ev.evidence(s, [read])
    evidence = evidence.model_copy(
        update={"transcript": evidence.transcript.model_copy(update={"actions": list(calls)})}
    )
    return VerificationContext(s, evidence, ev.PRINCIPAL, {})


_C = {"namespace": "default", "pod": "api-backend-7d-x1", "container": "db-migrate"}


@pytest.mark.parametrize(
    ("calls", "shown"),
    [
        ((), True),  # no call recorded: the audit log decides (rule 225)
        ((_logs(**_C),), True),
        ((_logs(**_C, filter="zq-no-such-line-qz", _result=""),), False),  # the winner
        ((_logs(**_C, filter="zq-no-such-line-qz"),), False),  # a filter keeping no seeded line
        ((_logs(**_C, filter="migration"),), True),
        ((_logs(query='{container="db-migrate"} |= "nothing-here"'),), False),
        ((_logs(query='{container="db-migrate"} |~ "migr.+042"'),), True),
        ((_logs(query='{container="db-migrate"} != "ERROR"'),), False),
        ((_logs(**_C, _result="  \n"),), False),  # an empty answer
        ((_logs(**_C, filter="zq", _result=""), _logs(**_C)), True),  # one read returned it
        (
            (
                ToolCall(
                    tool="kubectl",
                    arguments={"command": "logs api-backend-7d-x1 -c db-migrate"},
                    result=_LINE,
                ),
            ),
            True,
        ),
        ((_logs(namespace="default", pod="api-backend-7d-x1", filter="zq", _result=""),), True),
    ],
)
def test_a_container_log_read_showing_no_line_reads_none(
    ev: Any, calls: tuple[ToolCall, ...], shown: bool
) -> None:
    """Rule 261: the recorded call withdraws the audited read's credit, never grants it (the
    last case names the app container, whose stream is another carrier)."""
    ctx = _ctx(ev, *calls)
    (init,) = [c for c in _reads.carriers(ctx) if c.kind == "logs"]
    assert emptied(ctx, init) is not shown
    answer = _reads.AnswerText("The db-migrate init container fails its migration 042.")
    out = _reads.gate(ctx, "b", ("logs",), BehaviorOutcome(True, "x"), answer)
    assert out.exhibited is shown
    assert shown or out.rule == "evidence:not-read"
