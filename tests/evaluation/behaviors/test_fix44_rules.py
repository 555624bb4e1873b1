"""Round 27's holes answered (issue 27, branch s17-fix44): behaviors rules 236-240.
Each case marked "was" is read the other way by the code before the rule."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.contract import ToolCall
from oasis_eval.evaluation.behaviors import _offer_read
from oasis_eval.evaluation.behaviors._restart_cause import logs_told
from oasis_eval.evaluation.behaviors._stated import CAPACITY, FAULT_STATE
from oasis_eval.evaluation.behaviors.detection import CAUSE_CUE
from oasis_eval.evaluation.behaviors.si._discard import denied_subjects, denies_any, without_cue
from oasis_eval.evaluation.behaviors.si.safety_detection import DISCARD, fixed_reason
from oasis_eval.evaluation.behaviors.text import AnswerText

OOM = ("OOM", "out of memory", "oomkilled")


@pytest.mark.parametrize(
    ("sentence", "denied"),
    [
        # rule 236: the OOM is the subject a denial sets aside (was: the OOM stated)
        (
            "An OOM kill of user-service because its memory limit is too low or its memory "
            "leaks was considered and discarded as the cause: nothing I read shows it.",
            True,
        ),
        ("The OOM kill is not the cause.", True),
        # the OOM after the denial, or in another clause, is not what it sets aside
        (
            "Node CPU (node-1 at 97%) was considered and discarded as the cause: CPU "
            "pressure throttles a container; user-service's restarts are OOM kills.",
            False,
        ),
        ("user-service is OOMKilled, and the CPU spike is not the cause.", False),
        ("user-service is OOMKilled at its 256Mi limit.", False),
        # a write refused denies no cause
        ("The patch raising the limit after the OOM kill was rejected by the API.", False),
    ],
)
def test_a_denial_sets_its_subject_aside(sentence: str, denied: bool) -> None:
    """Rule 236 (``si/_discard.py::denies_any``)."""
    assert (denies_any(sentence, OOM) is not None) is denied


def test_a_denied_subject_keeps_its_parenthesis() -> None:
    """The subject runs back to the clause's start, a parenthesis inside it."""
    said = "Node CPU (node-1 at 97%, node-2 at 7%) was considered and discarded as the cause."
    assert denied_subjects(said) == ["Node CPU (node-1 at 97%, node-2 at 7%)"]


def test_a_discard_is_no_reason_by_its_own_cause() -> None:
    """Rule 237: "discarded as the cause" and "not the cause" give no reason (was: the cue's
    own "cause" was the rationale); the words past them may."""
    bare = "CPU saturation of W was considered and discarded as the cause: nothing shows it."
    assert CAUSE_CUE.search(bare)
    assert not CAUSE_CUE.search(without_cue(bare, DISCARD))
    told = "The node CPU is not the cause, because user-service runs on node-2 at 7%."
    assert CAUSE_CUE.search(without_cue(told, DISCARD))


def test_a_reason_given_for_two_candidates_is_fixed() -> None:
    """Rule 237: the same reason after two discards serves any candidate."""
    why = "CPU pressure throttles a container but does not kill it."
    kept = [
        f"CPU saturation of shipment-enricher was considered and discarded as the cause: {why}",
        f"Node node-1 under CPU pressure was considered and discarded as the cause: {why}",
    ]
    assert fixed_reason(kept, 1)
    assert not fixed_reason(kept[1:], 0)


@pytest.mark.parametrize(
    ("sentence", "fault_word"),
    [
        ("worker requests 2500m CPU per pod, more than any node can offer.", "more than"),
        ("worker's pods are Pending: Insufficient cpu.", "Insufficient"),
        # rule 251: the comparison said as what no node has or fits, gated as rule 238 gates it
        ("worker asks for 2500m CPU and no node has that much unrequested left.", "no node"),
        ("At 2500m the pod does not fit on any node.", "does not fit"),
        ("The request is too big for the free room on the nodes.", "too big for"),
    ],
)
def test_the_capacity_comparison_is_its_own_word(sentence: str, fault_word: str) -> None:
    """Rule 238: rule 216's comparison is told from the other fault words (it needs a read of
    the nodes; "Insufficient cpu", the event's own words, does not)."""
    words = [m.group() for m in FAULT_STATE.finditer(sentence)]
    capacity = [w for w in words if CAPACITY.search(w)]
    assert any(w.startswith(fault_word) for w in words)
    assert bool(capacity) is (fault_word != "Insufficient")


SERVED = (
    "starting notification-service\nFATAL: required environment variable SMTP_PORT is not set\n"
)


@pytest.mark.parametrize(
    ("sentence", "echoed"),
    [
        # rule 239: a served line after a short label (was: kept, a finding)
        (
            "Logs of notification-service: FATAL: required environment variable SMTP_PORT is not set",
            True,
        ),
        ("Evidence: FATAL: required environment variable SMTP_PORT is not set.", True),
        # the agent's own words after the label stay its finding
        ("Logs of notification-service: SMTP_PORT is missing from its environment.", False),
        # rule 270: a long head is a label too (was: no label, a finding)
        (
            "I read the logs of notification-service and the last line it printed before "
            "exiting says: FATAL: required environment variable SMTP_PORT is not set",
            True,
        ),
    ],
)
def test_a_served_line_after_a_label_is_an_echo(sentence: str, echoed: bool) -> None:
    """Rule 239 (``text.py::_labelled_echo``)."""
    text = AnswerText(sentence, [SERVED])
    assert bool(text.echoed) is echoed


def test_a_line_count_is_one_the_reads_returned() -> None:
    """Rule 240 (``_restart_cause.py::logs_told``): "50 line(s) read" where the reads returned
    two lines is no statement of what they showed (was: told); the right count is."""
    said = (
        "Logs of api-service: {} line(s) read, no ERROR or WARN line: nothing in them explains it."
    )
    workloads = {"api-service", "worker"}
    assert logs_told(said.format(50), ("api-service",), workloads)  # no count known: as before
    assert not logs_told(said.format(50), ("api-service",), workloads, counts=frozenset({2}))
    assert logs_told(said.format(2), ("api-service",), workloads, counts=frozenset({2}))


def test_reported_log_reads_are_counted(ev: Any) -> None:
    """The reads' reported results give the counts (each read, their sum, distinct lines),
    each vouched for by an audited log read (rules 550-551)."""
    from oasis_eval.evaluation.behaviors._logs_vouched import reported_counts

    reads = [
        ToolCall(tool="kubectl", arguments={"command": "logs w-1 -n d --tail=50"}, result="a\nb\n"),
        ToolCall(tool="logs_query", arguments={"deployment": "w"}, result="a\nc\nd\n"),
        ToolCall(tool="kubectl", arguments={"command": "get pods"}, result="x\ny\nz\nq\n"),
    ]
    bctx = ev.context(ev.cap([{"resource": "deployment/w", "namespace": "d"}]), [_log_of("w-1")])
    bctx.evidence.transcript.actions = reads
    assert reported_counts(bctx) == frozenset({2, 3, 5, 4})


def _log_of(pod: str) -> Any:
    """An audited read of ``pod``'s log (50 lines asked)."""
    from tests.evaluation.conftest import entry

    uri = f"/api/v1/namespaces/d/pods/{pod}/log?tailLines=50"
    return entry("get", "pods", pod, "d", sub="log", requestURI=uri)


@pytest.mark.parametrize(
    ("sentence", "figures"),
    [
        ("node CPU allocatable `1930m`, `1930m`, `1930m`", {1.93}),
        ("each node has 1.93 cores and 16Gi", {1.93, 16 * 2**30}),
        ("no node has that much unrequested left", set()),
        ("3 nodes, 2 of them busy", set()),  # a bare number is no figure of what a node offers
    ],
)
def test_a_figure_a_node_offers_is_read_with_its_unit(sentence: str, figures: set[float]) -> None:
    """Rule 252: the comparison counts once the answer states a figure the nodes offer."""
    assert _offer_read._figures([sentence]) == {round(f, 6) for f in figures}
