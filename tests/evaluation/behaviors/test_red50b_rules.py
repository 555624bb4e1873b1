"""Round 50b answered (issue 27, branch s35-red50b): behaviors rules 1094 (a course said for
every memory series read is a catalogue, the series told apart by their served values) and 1095
(a "since" giving the changed object as a reason, and a clause a list of options continues,
state no change). Each case marked "was" is read the other way by the code before the rules."""

from __future__ import annotations

import json

import pytest

from oasis_eval.contract import SELECTED_SERIES, SERVED_VALUES
from oasis_eval.evaluation.behaviors.si._since_reason import list_head, reasons_out
from oasis_eval.evaluation.behaviors.si.concurrency import _changed
from oasis_eval.evaluation.behaviors.text import clauses, term_regex
from tests.evaluation.behaviors.memory_leak_support import MEMORY, _leak, _row


def _wide(ev):  # type: ignore[no-untyped-def]
    """A namespace-wide range read: the workload's series, a rising worker's and a flat one's."""
    rows = [
        _row("data-processor-7c9f8d6b5-x2k4q", [500, 800, 1229, 1638]),
        _row("coupon-dispatcher-5d8f7c9b6-q8w2e", [209, 270, 332]),
        _row("coupon-dispatcher-5d8f7c9b6-z7m3n", [209, 270, 332]),
        _row("badge-aggregator-6b7c8d9f5-k2j4h", [100, 100, 100]),
    ]
    notes = {
        SERVED_VALUES: json.dumps(rows),
        SELECTED_SERIES: json.dumps([r["metric"] for r in rows]),
    }
    q = f'{MEMORY}{{namespace="default"}}'
    return [ev.entry("get", "metrics", params={"query": q}, raw={"annotations": notes})]


_OWN = "data-processor went from 500Mi to 1.6Gi over the last six hours, steadily."
_RISING = "coupon-dispatcher went from 209Mi to 332Mi over the last six hours, steadily."
_FLAT = "badge-aggregator went from 100Mi to 100Mi over the last six hours, steadily."


@pytest.mark.parametrize(
    "said",
    [
        f"The worry is memory. {_RISING} The worry is memory. {_FLAT} The worry is memory. {_OWN}",
        # in words (rule 1082), each course said of "it" after the workload's memory (1083)
        "The worry is the memory of data-processor. It went from two hundred nine megs to three "
        "hundred thirty two megs over the last six hours, steadily.\n\nThe worry is the memory "
        "of data-processor. It went from one hundred megs to one hundred megs over the last six "
        "hours, steadily.\n\nThe worry is the memory of data-processor. It went from five "
        "hundred megs to one point six gigs over the last six hours, steadily.",
    ],
)
def test_a_course_for_every_series_read_is_a_catalogue(ev, said) -> None:  # type: ignore[no-untyped-def]
    """Was: the workload's own course among them was its growth (exhibited)."""
    out = ev.run(_leak(ev), "identify_memory_growth_trend", _wide(ev), answer=said)
    assert not out.exhibited, out.evidence
    assert "catalogue" in out.rule, out.rule


@pytest.mark.parametrize(
    "said",
    [
        f"The worry is memory. {_OWN}",
        # rule 94's honest form: another worker's rise beside the workload's
        f"coupon-dispatcher's memory rises too: {_RISING} The worry is memory. {_OWN}",
        # the workload's course weighed by its limit (rule 886's reading): the door left
        f"{_RISING} {_FLAT} The worry is memory. data-processor went from 500Mi to 1.6Gi of "
        "its 2Gi limit.",
        # the Deployment's two pods serve one course: one other series
        f"{_RISING} The other pod of coupon-dispatcher as well. The worry is memory. {_OWN}",
    ],
)
def test_the_workloads_course_beside_one_other_stays_credited(ev, said) -> None:  # type: ignore[no-untyped-def]
    out = ev.run(_leak(ev), "identify_memory_growth_trend", _wide(ev), answer=said)
    assert out.exhibited, out.evidence


# ---- rule 1095 ---------------------------------------------------------------------------------


def test_a_since_before_the_object_gives_a_reason() -> None:
    node = term_regex("node-2")
    assert reasons_out("since node node-2 under CPU", node).strip() == "node node-2 under CPU"
    # the time a change began, said after the object, stays a cue
    assert "since" in reasons_out("node-2 has had DiskPressure since 09:31", node)
    assert reasons_out("since 09:31", node) == "since 09:31"  # no object: as before


def test_a_clause_a_list_of_options_continues_is_one_option() -> None:
    parts = clauses("Memory, since node node-2 under CPU, memory or disk pressure explains it.")
    head = next(i for i, c in enumerate(parts) if "node-2" in c)
    assert list_head(parts, head)
    parts = clauses("Since 09:31 node-2 is under disk pressure, so I paused the rollout.")
    assert not any(list_head(parts, i) for i in range(len(parts)))


@pytest.mark.parametrize(
    ("sentence", "changed"),
    [
        # was: "since" read as a time, the node named: a change stated
        ("An OOM kill of web-app, since node node-2 under CPU, memory or disk pressure "
         "explains it.", False),
        ("Image pull failure, since node node-2 explains it.", False),
        ("node node-2 changed just now.", True),  # another cue: the fallback as before
        ("node-2 has been tainted since 09:31.", True),
        ("Since 09:31, node-2 is new to the pool.", True),
    ],
)  # fmt: skip
def test_the_fallback_reads_no_reason_as_a_change(sentence: str, changed: bool) -> None:
    assert _changed(sentence, term_regex("node-2")) is changed
