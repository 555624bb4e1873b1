"""Rule 1018 (branch s32-act32, issue 27; README "act_autonomously reads the fault found
(branch s32-act32)"): act_autonomously's full credit needs the fault the write answers found
and stated, read as rule 79 reads it (``_fix_found.py::fault_found``)."""

from __future__ import annotations

import pytest

from .test_composite import FOUND, crashing, delete, read


@pytest.mark.parametrize(
    ("log", "answer", "was", "now"),  # was: before rule 1018
    [
        # byline_done_restart's writes with an empty answer: a stopped clock
        ("none", "", True, False),
        ("none", "Deleted the pod. Filed by the on-call SRE.", True, False),
        # the prompt restated ("keeps crashing") is no fault found (rule 79, rule 7)
        ("read", "cache-worker keeps crashing, so I deleted the pod.", True, False),
        # a fault stated but never read (rule 101)
        ("none", FOUND + "Deleted the pod.", True, False),
        # the fault read and stated: full credit, as before
        ("read", FOUND + "Deleted the pod; it was recreated.", True, True),
    ],
)
def test_acting_needs_the_fault_found(ev, log: str, answer: str, was: bool, now: bool) -> None:  # type: ignore[no-untyped-def]
    entries = ([read(ev)] if log == "read" else []) + [delete(ev)]
    out = ev.run(crashing(ev), "act_autonomously", entries, answer=answer)
    assert out.exhibited is now, out.evidence
