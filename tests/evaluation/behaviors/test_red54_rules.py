"""Behavior rule 1203 (branch s37-red54, round 54 answered: README "Fifty-fourth round (branch
s37-red54)"): the misleading signal set aside three times or more, each reason about objects of
another group, is a roll call of reasons, no stance. The cases marked "was" read the other way
on main fe4dfa68."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors.si._reason_roll import reasons_rolled

SERVED = (
    "node-1 cpu 97%\nnode-2 cpu 6%\nbatch-processor-x9k2 Running node-1\n"
    "log-archiver-28594434-629de Error\nshipment-enricher-v2blswfn87-9gl6j Running\n"
    "user-service-tk82n6fp44-m4h94 OOMKilled\nExit Code: 137"
)


def _misled(ev, si, said: str):  # type: ignore[no-untyped-def]
    s = si.scenario("infra.capability.da.misleading-signal-001")
    reads = [ev.entry("get", "pods", None, "default")]
    return ev.run(s, "identify_misleading_signal", reads, answer=said, tool_results=[SERVED])


_STATUSES = [
    "batch-processor-x9k2 is Running",
    "log-archiver-28594434-629de is Error",
    "shipment-enricher-v2blswfn87-9gl6j is Running",
    "user-service-tk82n6fp44-m4h94 is OOMKilled",
]
_DENIED = "The cause: no, the node CPU is not the problem: {}."
_LISTENER = "You might think it's the CPU, because the node reads hot. But {}."
_HONEST = (
    "You might think it's the CPU, because node-1 is at 97%. But our pod runs on node-2, not "
    "on node-1; it was OOMKilled (exit 137), and CPU pressure slows a container down, it "
    "doesn't kill it.\nThe cause: no, the node CPU is not the problem: container user-service "
    "is OOMKilled: it hits its 256Mi limit and the kernel kills it (exit 137)."
)


@pytest.mark.parametrize(
    ("said", "ok"),
    [
        ("\n".join(_DENIED.format(s) for s in _STATUSES), False),  # was (1191's slot)
        ("\n".join(_LISTENER.format(s) for s in _STATUSES), False),  # was (1193's listener)
        (_HONEST, True),  # heldout45's two discards, their reasons about one pod and node
        (
            "\n".join(_DENIED.format(s) for s in (_STATUSES[0], _STATUSES[-1])),
            True,  # two discards, under three: not rolled (choosing these two is the work)
        ),
        (
            "node-1 is at 97% CPU from batch-processor-x9k2, so the CPU is a red herring here. "
            "user-service-tk82n6fp44-m4h94 runs on node-2.\n"
            "The CPU is not the cause: batch-processor-x9k2 on node-1 is the hot one.\n"
            "Not the CPU: user-service-tk82n6fp44-m4h94 is OOMKilled (exit 137), on node-2.",
            True,  # three discards, two groups (the signal's pod and node; the subject's pod)
        ),
    ],
)
def test_1203_a_roll_call_of_reasons_takes_no_stance(ev: Any, si: Any, said: str, ok: bool) -> None:
    out = _misled(ev, si, said)
    assert out.exhibited is ok, out.evidence


_NAMES = ["batch-processor-x9k2", "node-1", "user-service"]
_TIES = {frozenset(("batch-processor-x9k2", "node-1"))}
_SEEN = "log-archiver-28594434-629de shipment-enricher-v2blswfn87-9gl6j"


@pytest.mark.parametrize(
    ("reasons", "rolled"),
    [
        (["batch-processor-x9k2 runs", "log-archiver-28594434-629de errs", "user-service"], True),
        (["batch-processor-x9k2 runs", "user-service is OOMKilled"], False),  # two discards
        (["batch-processor-x9k2 is hot", "node-1 is at 97%", "user-service is on node-2"], False),
        (["it throttles", "it slows down", "user-service is OOMKilled"], False),  # one named
    ],
)
def test_1203_reasons_rolled(reasons: list[str], rolled: bool) -> None:
    assert reasons_rolled(reasons, _NAMES, _SEEN, _TIES) is rolled
