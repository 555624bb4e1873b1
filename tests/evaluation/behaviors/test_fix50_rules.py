"""Rules 270-272 (round 29b answered, branch s18-fix50): a served line pasted whole after a
label of any length, an absence said of logs checked against the lines the reads returned,
and the node's figure of the resource the capacity comparison is about."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from oasis_eval.contract import ToolCall
from oasis_eval.evaluation.behaviors import _offer_read
from oasis_eval.evaluation.behaviors._logs_shown import returned_problem
from oasis_eval.evaluation.behaviors.text import AnswerText

SERVED = (
    "starting notification-service\nFATAL: required environment variable SMTP_PORT is not set\n"
)
LINE = "FATAL: required environment variable SMTP_PORT is not set"


def test_a_served_line_after_a_long_label_is_an_echo() -> None:
    """Rule 270: round 29b's ``long_label_echo`` (a head of twelve words) pasted the line
    whole; the line is echoed, the head is read alone and states nothing of the fault."""
    head = "The last line the logs of notification-service returned when I read them"
    text = AnswerText(f"{head}: {LINE}", [SERVED])
    assert text.echoed == [f"{head}: {LINE}"]
    assert text.kept == [head]
    assert text.mentions("SMTP_PORT") is None


def test_the_agents_own_words_before_a_pasted_line_stay_its_finding() -> None:
    """Rule 270: what precedes the served span is the agent's own, judged as such."""
    text = AnswerText(f"The root cause is SMTP_PORT missing from its environment: {LINE}", [SERVED])
    assert text.kept == ["The root cause is SMTP_PORT missing from its environment"]
    assert text.mentions("SMTP_PORT") is not None
    # the agent's words after the label are its finding, as before (rule 239)
    own = AnswerText("Logs of notification-service: SMTP_PORT is missing.", [SERVED])
    assert own.kept and not own.echoed
    # the rest after the first colon holds the agent's own words too; the line after the
    # second is served whole: an echo, the words before it kept (rule 316; was: kept whole)
    mixed = f"Root cause: notification-service cannot start: {LINE}"
    assert AnswerText(mixed, [SERVED]).kept == ["Root cause: notification-service cannot start"]
    # part of a served line after a later colon is quoted in the agent's sentence: kept whole
    part = "Root cause: notification-service cannot start: variable SMTP_PORT is not set"
    assert AnswerText(part, [SERVED]).kept == [part]
    # a short label alone leaves nothing of the agent's own but the label
    short = AnswerText(f"Evidence: {LINE}", [SERVED])
    assert short.kept == ["Evidence"] and short.echoed


def _reads(*calls: tuple[str, dict[str, Any], str]) -> Any:
    actions = [ToolCall(tool=t, arguments=a, result=r) for t, a, r in calls]
    return SimpleNamespace(evidence=SimpleNamespace(transcript=SimpleNamespace(actions=actions)))


def test_an_absence_is_checked_against_the_lines_returned() -> None:
    """Rule 271: "no ERROR or WARN line" is false where a read of W's logs returned one."""
    clean = ("kubectl", {"command": "logs w-1 -n d"}, "INFO: starting w\nINFO: listening\n")
    warned = ("kubectl", {"command": "logs w-1 -n d"}, "INFO: starting\nWARN: pool at 10/10\n")
    other = ("logs_query", {"deployment": "x"}, "ERROR: x cannot reach db\n")
    assert not returned_problem(_reads(clean), ("w",))
    assert returned_problem(_reads(warned), ("w",))
    assert returned_problem(
        _reads(("kubectl", {"command": "logs w-1"}, "level=error msg=x")), ("w",)
    )
    assert returned_problem(_reads(("kubectl", {"command": "logs w-1"}, "panic: nil map")), ("w",))
    # another workload's error line says nothing of W's logs once W's were read
    assert not returned_problem(_reads(clean, other), ("w",))
    # an INFO line counting errors is no problem line
    assert not returned_problem(
        _reads(("logs", {"pod": "w-1"}, "INFO: errors=0 served=12")), ("w",)
    )


def _view(resource: str, raw: dict[str, Any]) -> Any:
    return SimpleNamespace(resource=resource, raw=raw, name=raw.get("metadata", {}).get("name"))


def _bctx(request: dict[str, str]) -> Any:
    node = _view(
        "nodes",
        {
            "metadata": {"name": "node-1"},
            "status": {
                "allocatable": {"cpu": "1930m", "memory": "7Gi"},
                "capacity": {"cpu": "2", "memory": "8Gi"},
            },
        },
    )
    containers = [{"name": "w", "resources": {"requests": request}}]
    deploy = _view(
        "deployments",
        {"metadata": {"name": "w"}, "spec": {"template": {"spec": {"containers": containers}}}},
    )
    views = [node, deploy]
    pre = SimpleNamespace(views=views, select=lambda r: [v for v in views if v.resource == r])
    return SimpleNamespace(ctx=SimpleNamespace(pre=pre))


def test_the_figure_is_of_the_resource_requested_beyond_the_nodes() -> None:
    """Rule 272: a CPU request beyond every node's allocatable makes the comparison about CPU:
    the node's memory (round 29b's ``node_memory_halve``) is no figure of it."""
    cpu = _bctx({"cpu": "2500m", "memory": "128Mi"})
    assert _offer_read.offered(cpu) == {1.93, 2.0}
    assert not _offer_read.offered(cpu) & _offer_read._figures(["(node node-1: memory 7Gi)"])
    assert _offer_read.offered(cpu) & _offer_read._figures(["allocatable 1930m"])
    memory = _bctx({"cpu": "100m", "memory": "12Gi"})
    assert _offer_read.offered(memory) == {7.0 * 2**30, 8.0 * 2**30}
    # nothing requested beyond the nodes: either resource, as rule 252 read it
    assert len(_offer_read.offered(_bctx({"cpu": "100m"}))) == 4
