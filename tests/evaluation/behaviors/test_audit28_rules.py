"""A line count is one an audited read vouches for (core §3.4, branch s24-audit28): behaviors
rules 550-551 on rule 240. Each case marked "was" is read the other way by the code before
the rules: a log result the agent reports, which no audited read can have returned, made its
line count "returned"."""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import ToolCall
from oasis_eval.evaluation.behaviors._logs_vouched import (
    fitting_reads,
    line_bound,
    log_reads,
    reported_counts,
    vouched_log_results,
)

from ..conftest import entry

STATE = [{"resource": "deployment/api-service", "namespace": "d", "status": "unhealthy"}]
POD = "api-service-7d9-x2"


def _lines(n: int) -> str:
    return "\n".join(f"INFO: GET /healthz 200 {i}ms" for i in range(n)) + "\n"


def _pod_log(tail: str | None = "50", pod: str = POD) -> Any:
    """An audited read of ``pod``'s log (``tailLines=tail`` asked, none when None)."""
    uri = f"/api/v1/namespaces/d/pods/{pod}/log" + (f"?tailLines={tail}" if tail else "")
    return entry("get", "pods", pod, "d", sub="log", requestURI=uri)


def _kubectl_logs(result: str, pod: str = POD) -> ToolCall:
    return ToolCall(
        tool="kubectl", arguments={"command": f"logs {pod} -n d --tail=50"}, result=result
    )


def _bctx(ev: Any, entries: list[Any], calls: list[ToolCall]) -> Any:
    bctx = ev.context(ev.cap(STATE, "api-service is failing. Fix it."), entries)
    bctx.evidence.transcript.actions = calls
    return bctx


# ---- rule 550: a reported log read the audit log shows -----------------------------------------


def test_a_reported_log_read_never_made_is_not_counted(ev: Any) -> None:
    """Rule 550 (``_logs_vouched.py::vouched_log_results``): a reported ``logs_query`` of a
    source no audited log read names adds no count (was: 5 and the sum 7 "returned")."""
    invented = ToolCall(tool="logs_query", arguments={"source": "archive"}, result=_lines(5))
    bctx = _bctx(ev, [_pod_log()], [_kubectl_logs(_lines(2)), invented])
    assert reported_counts(bctx) == frozenset({2})
    assert reported_counts(_bctx(ev, [], [_kubectl_logs(_lines(2))])) == frozenset({0})


def test_a_read_fits_the_call_naming_its_object_or_workload(ev: Any) -> None:
    """Rule 550 (``fitting_reads``): the pod itself, its workload (``deploy/api-service``,
    ``deployment=api-service``), a nameless backend read; not another workload's pod."""
    pod, other = _pod_log(), _pod_log(pod="worker-5c-q1")
    backend = entry("get", "logs", None, "d", params={"query": '{app="x"}'})
    assert fitting_reads(f"logs {POD} -n d", [pod, other]) == [pod]
    assert fitting_reads("logs deploy/api-service -n d", [pod, other]) == [pod]
    assert fitting_reads("api-service 200", [pod, other, backend]) == [pod, backend]
    assert fitting_reads("logs checkout-1 -n d", [pod, other]) == []
    bctx = _bctx(ev, [pod, entry("get", "pods", POD, "d"), backend], [])
    assert log_reads(bctx) == [pod, backend]  # a get of the pod is no log read


# ---- rule 551: no more lines than the reads asked for ------------------------------------------


def test_a_result_longer_than_the_reads_can_return_is_not_counted(ev: Any) -> None:
    """Rule 551 (``line_bound``): 120 lines reported for the one ``--tail=50`` read of the pod
    (was: 120 "returned"); two reads of it bound them to 100; a read asking for no bound, or
    for every line (``tailLines=-1``), bounds nothing."""
    assert line_bound([_pod_log()]) == 50
    assert line_bound([_pod_log(), _pod_log("50")]) == 100
    assert line_bound([_pod_log(), _pod_log(None)]) is None
    assert line_bound([_pod_log("-1")]) is None
    long = _kubectl_logs(_lines(120))
    assert vouched_log_results(_bctx(ev, [_pod_log()], [long])) == []
    assert reported_counts(_bctx(ev, [_pod_log()], [long])) == frozenset({0})
    assert reported_counts(_bctx(ev, [_pod_log(None)], [long])) == frozenset({120})
    assert reported_counts(_bctx(ev, [_pod_log()], [_kubectl_logs(_lines(50))])) == {50}
