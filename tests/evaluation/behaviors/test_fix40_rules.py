"""heldout16's false negatives answered (issue 27, branch s16-fix40): behaviors rules 215-218.
Each case marked "was" is read the other way by the code before the rule."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.contract import ToolCall
from oasis_eval.evaluation.behaviors._claims import claims
from oasis_eval.evaluation.behaviors._restart_cause import logs_told
from oasis_eval.evaluation.behaviors._stated import FAULT_STATE
from oasis_eval.evaluation.behaviors.text import AnswerText

LOGS = ToolCall(
    tool="logs_query",
    arguments={"deployment": "api-service", "namespace": "default", "tail": 300},
    result="",
)
METRIC = ToolCall(
    tool="metrics_query",
    arguments={"action": "query", "query": "instance:node_cpu_utilisation:rate5m"},
    result="",
)
PODS = ToolCall(tool="kubectl", arguments={"command": "get pods -n default -o json"}, result="")


def _account(sentence: str) -> bool:
    return AnswerText(sentence, actions=[LOGS, METRIC, PODS]).account(sentence)


@pytest.mark.parametrize(
    ("sentence", "account"),
    [
        # rule 215: a source noun qualified ("Logs of W") labels what the source showed (was True)
        (
            "Logs of api-service: 10 line(s) read, no ERROR or WARN line: nothing in them "
            "explains it.",
            False,
        ),
        ("Metrics for api-service: memory flat at 120 MiB.", False),
        # rule 18 unchanged: a call word then only the call's arguments paraphrases the call
        ("Query logs with deployment api-service, namespace default: I ran this read.", True),
        ("Logs api-service default: read before concluding anything.", True),
        # rule 217: the call reproduced whole, then its reason in parentheses (was False)
        (
            "metrics_query action=query query=instance:node_cpu_utilisation:rate5m (reason: "
            "check the node CPU the operator mentioned; trigger: operator request)",
            True,
        ),
        ("kubectl get pods -n default -o json (reason: see which pods are unhealthy)", True),
        # a finding with a parenthesis is not a call reproduced
        ("api-service restarts (OOMKilled): its memory reaches the limit.", False),
    ],
)
def test_a_trail_entry_is_a_call_reproduced_not_a_source_named(
    sentence: str, account: bool
) -> None:
    """Behaviors rules 215 and 217 (``AnswerText.account``)."""
    assert _account(sentence) is account


def test_a_source_label_says_what_the_logs_showed() -> None:
    """Rule 215 through rule 146's ``own_sentences``: the label's sentence is kept, so the
    logs' absence of errors is said of api-service (was: set aside as a trail entry)."""
    said = (
        "Logs of api-service: 10 line(s) read, no ERROR or WARN line: nothing in them explains it."
    )
    text = AnswerText(said, actions=[LOGS])
    own = "\n".join(s for s in text.kept if not text.account(s))
    assert logs_told(own, ("api-service",), {"api-service", "worker"})
    # the trail entry of the read, paraphrased, still states nothing
    trail = "Query logs with deployment api-service, namespace default: no errors."
    text = AnswerText(trail, actions=[LOGS])
    assert not "\n".join(s for s in text.kept if not text.account(s))


@pytest.mark.parametrize(
    ("clause", "fault"),
    [
        ("worker requests 2500m CPU per pod, more than any node can offer", True),  # was False
        ("the request is more than what the nodes could allocate", True),
        ("worker requests 2500m CPU, which exceeds node allocatable", True),
        ("worker runs more than three replicas", False),
        ("the node can offer more than 1930m", False),
    ],
)
def test_a_demand_against_what_capacity_offers_is_a_fault_state(clause: str, fault: bool) -> None:
    """Behaviors rule 216 (``_stated.FAULT_STATE``, read by rule 79's ``fault_found``)."""
    assert bool(FAULT_STATE.search(clause)) is fault


@pytest.mark.parametrize(
    ("answer", "rebutted"),
    [
        # rule 218: the rationale of a discard commits no cause (was: two wrong causes)
        (
            "Node CPU was considered and discarded as the cause: it comes from batch-x9 on "
            "node-1, and CPU pressure throttles a container but does not kill it.",
            True,
        ),
        ("CPU was discarded as a likely cause: the batch job runs on another node.", True),
        # "discarded" of something else is no rebuttal
        ("Requests are discarded because the connection pool is exhausted.", False),
        ("The cause is CPU pressure from batch-x9.", False),
    ],
)
def test_a_discarded_cause_is_rebutted(answer: str, rebutted: bool) -> None:
    found = [c for c in claims(AnswerText(answer)) if c.causal]
    assert found and all(c.rebutted is rebutted for c in found), found


@pytest.fixture
def misleading(ev: Any) -> Any:
    return ev.make_scenario(
        [
            {"resource": "deployment/user-service", "namespace": "default", "status": "OOMKilled"},
            {"resource": "node/node-1", "cpu_usage": "97%"},
        ],
        verification={
            "state_assertions": [
                {"description": "agent identified OOM kill as root cause, not CPU spike"}
            ]
        },
        assertions={"must": [{"behavior": "identify_misleading_signal"}]},
        classification="capability",
    )


_RULED_OUT = (
    "user-service is OOMKilled: its memory reaches the 256Mi limit.\n"
    "Node CPU (node-1 at 97%) was considered and discarded as the cause: it comes from "
    "batch-x9 on node-1; user-service's restarts are OOM kills, which only memory explains.\n"
)


@pytest.mark.parametrize(
    ("trail", "exhibited"),
    [
        # rule 217: the trail entry's "reason:" names CPU and adopts nothing (was an adoption)
        ("1. kubectl top nodes (reason: check the node CPU the operator mentioned)", True),
        # a committed blame after the discard is still an adoption
        ("On reflection the CPU spike is the root cause of the restarts.", False),
    ],
)
def test_a_trail_entry_after_a_discard_adopts_nothing(
    ev: Any, misleading: Any, trail: str, exhibited: bool
) -> None:
    """Behaviors rules 217 and 218 (``identify_misleading_signal``): "considered and discarded
    as the cause" is a discard (was an adoption: no discard cue), and a trail entry after it
    is no change of mind."""
    reads = [ev.entry("get", "pods", "user-service-1", "default"), ev.entry("get", "metrics")]
    out = ev.run(
        misleading,
        "identify_misleading_signal",
        reads,
        answer=_RULED_OUT + trail,
        tool_args=[{"command": "top nodes"}],
    )
    assert out.exhibited is exhibited, out.evidence
