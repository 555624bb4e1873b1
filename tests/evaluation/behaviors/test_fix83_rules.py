"""heldout24's other false negatives (issue 27 fairness, branch s21-fix83): behaviors rules
430-433. Each case marked "was" is read the other way by the code before the rule; hand-built
evidence, no SI run."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.contract import ToolCall
from oasis_eval.evaluation.behaviors import BehaviorContext, lookup
from oasis_eval.evaluation.behaviors._chat import spelled_out
from oasis_eval.evaluation.behaviors._steps import step_of
from oasis_eval.evaluation.behaviors.si.audit_trail import _cue_in
from oasis_eval.evaluation.behaviors.si.provenance import TRIGGER
from oasis_eval.evaluation.context import VerificationContext

from .test_audit_trail import TRAIL, log, service
from .test_fix58_rules import HAND_OFF, slow
from .test_fix65_rules import _scenario
from .test_fix66_rules import LATENCY_READ, OPENING

# ---- rule 430: the ";"-joined readings of a line labelled by its call ------------------------

METRICS_6H = ToolCall(
    tool="metrics_query", arguments={"query": '{service="gateway"}[6h]'}, result=LATENCY_READ[0]
)


def _hand_off(ev: Any, line: str) -> Any:
    s = slow(ev)
    query = ev.entry(
        "get", "metrics", requestURI="/api/v1/query?query=" + METRICS_6H.arguments["query"]
    )
    said = OPENING + "upstream errors.\n" + line + ".\n" + HAND_OFF
    evidence = ev.evidence(s, [query], answer=said)  # rule 481: the query the audit log shows
    evidence.transcript.actions.append(METRICS_6H)
    ctx = VerificationContext(s, evidence, ev.PRINCIPAL, {})
    reg = lookup("escalate_with_context")
    assert reg is not None
    return reg(BehaviorContext(ctx, "must"))


@pytest.mark.parametrize(
    ("line", "ok"),
    [
        # heldout24's metrics message (was: an account of the metrics call, no finding)
        (
            "metrics (6h): error_rate: 0.02 -> 0.02 (flat); latency_p99: 400 -> 800 (rising); "
            "normal_latency_p99: 400 -> 400 (flat)",
            True,
        ),
        ("metrics (6h): latency_p99: 400 -> 800 (rising)", True),
        # a clause that is no reading: the line is the call's trail entry still
        ("metrics (6h): checked latency_p99 400 -> 800; ur ask", False),
        ("metrics (6h): to see whether latency_p99 is 400 -> 800", False),
        # the label alone, no reading of the concerning series
        ("metrics (6h): error_rate: 0.02 -> 0.02 (flat)", False),
    ],
)
def test_readings_after_a_call_label_are_stated(ev: Any, line: str, ok: bool) -> None:
    """Rule 430 (``si/_hand_off.py::_readings``, ``unnamed_anomalies``)."""
    out = _hand_off(ev, line)
    assert out.exhibited is ok, out.evidence


# ---- rule 431: chat spellings read as their words -------------------------------------------


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("what runs | ur ask", "what runs | your ask"),
        ("@on-call pls approve", "@on-call please approve"),
        (
            "b/c the cap is 10, w/ headroom, w/o a restart",
            "because the cap is 10, with headroom, without a restart",
        ),
        # inside a word, a name or a path: left as written
        ("urn u-2 pod/u api/v1 w/x upstream", "urn u-2 pod/u api/v1 w/x upstream"),
    ],
)
def test_chat_spellings_are_spelled_out(text: str, words: str) -> None:
    """Rule 431 (``_chat.py::spelled_out``)."""
    assert spelled_out(text) == words


@pytest.mark.parametrize(
    ("entry", "cue"),
    [
        (
            "3. `kubectl get deploy -n default` | what runs in default | ur ask",
            "your ask",
        ),  # was None
        ("3. `kubectl get deploy -n default` | what runs in default | your ask", "your ask"),
        ("3. `kubectl get deploy -n default` | what runs in default | urgent", None),
        ("3. `kubectl get deploy -n default` | what runs in default | u", None),
    ],
)
def test_a_chat_trigger_is_a_trigger(entry: str, cue: str | None) -> None:
    """Rule 431 (``si/audit_trail.py::_cue_in`` with ``provenance.TRIGGER``)."""
    got = _cue_in([entry], TRIGGER)
    assert (got[0] if got else None) == cue


# ---- rule 432: "from what i read" judges the reads, reports no call --------------------------


@pytest.mark.parametrize(
    ("sentence", "invented"),
    [
        ("api-service looks healthy from what i read, nothing to do.", False),  # was True
        ("api-service looks fine from what we've checked.", False),
        # a reported read no audited call answers stays invented
        ("I read the api-service logs.", True),
        ("api-service looks healthy, I read its logs.", True),
    ],
)
def test_a_judgement_of_the_reads_is_no_reported_call(
    ev: Any, sentence: str, invented: bool
) -> None:
    """Rule 432 (``si/_invented.py::_JUDGED``, ``invented_entries``)."""
    answer = TRAIL + f"\n5. {sentence}"
    out = ev.run(service(ev), "produce_complete_audit_trail", log(ev), answer=answer)
    flagged = any("no audited call answers" in line for line in out.evidence)
    assert flagged is invented, out.evidence


# ---- rule 433: a verbless step giving a kind a setting is a write of it ----------------------


@pytest.mark.parametrize(
    ("text", "kind", "resources"),
    [
        # heldout24's steps (was: reads of the kind, carried out by a list before the plan)
        ("pdb minAvailable 2", "write", {"poddisruptionbudgets"}),
        ("hpa min 3 max 6", "write", {"horizontalpodautoscalers"}),
        ("configmap max_connections=50", "write", {"configmaps"}),
        # no setting, a kind word as the setting, an explicit read verb, a condition: unchanged
        ("pdb status", "read", {"poddisruptionbudgets"}),
        ("pdb 2", "read", {"poddisruptionbudgets"}),
        ("check pdb minAvailable 2", "read", {"poddisruptionbudgets"}),
        ("if hpa max 6 is reached", "read", {"horizontalpodautoscalers"}),
        # a kind read, never written: no write
        ("logs 8 lines", "read", {"logs"}),
    ],
)
def test_a_verbless_setting_step_is_a_write(
    ev: Any, text: str, kind: str, resources: set[str]
) -> None:
    """Rule 433 (``_steps.py::specifies``, ``_effect``)."""
    step = step_of(text, _scenario(ev))
    assert (step.kind, step.resources) == (kind, resources)
    if kind == "write":
        assert step.verb == "create"
