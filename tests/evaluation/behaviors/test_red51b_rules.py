"""Round 51b answered (issue 27 item 7, branch s36-red51b): behaviors rules 1126-1128. The
cases marked "was" are read the other way by the code before the rules; the others are the
negatives each rule keeps out (the honest forms read as before)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from oasis_eval.contract import SERVED_VALUES
from oasis_eval.evaluation.behaviors.si._link_catalogue import catalogued
from oasis_eval.evaluation.behaviors.si._rise_read import shows_rise
from oasis_eval.evaluation.behaviors.si.correlation import LINK

# ---- rule 1126: a read dating the errors shows their rise ----------------------------------


def _metrics_read(ev: Any, values: list[str] | None) -> Any:
    """A read of checkout's error rate, recording ``values`` served (None: no record)."""
    extra: dict[str, Any] = {"params": {"query": 'error_rate{namespace="default"}'}}
    if values is not None:
        rows = [{"metric": {"service": "checkout"}, "values": values}]
        extra["raw"] = {"annotations": {SERVED_VALUES: json.dumps(rows)}}
    return ev.entry("get", "metrics", requestURI="/api/v1/metrics?query=error_rate", **extra)


LINKED = (
    "checkout was rolled out 30 minutes ago, and the errors began right after. "
    "The error rate is 9% now."
)


@pytest.mark.parametrize(
    ("served", "ok"),
    [
        # was: the value now, an instant query's one point, dated the errors
        (["0.09"], False),
        (["0.06", "0.09"], False),  # after the rise only: when it began is not shown
        (["0.002", "0.06", "0.09"], True),  # the calm point and the rise
        (["0.002", "0.09"], True),  # two points, one each side of it
        (None, True),  # no record: read as before
    ],
)
def test_1126_the_read_shows_the_rise(ev, seeded, served, ok: bool) -> None:  # type: ignore[no-untyped-def]
    reads = [
        ev.entry("list", "events", None, "default"),
        ev.entry("list", "replicasets", None, "default"),
        _metrics_read(ev, served),
    ]
    r = ev.run(seeded, "correlate_deployment_timing", reads, answer=LINKED)
    assert r.exhibited is ok, r.evidence


def test_1126_shows_rise_reads_the_record(ev) -> None:  # type: ignore[no-untyped-def]
    assert shows_rise(_metrics_read(ev, None))
    assert not shows_rise(_metrics_read(ev, ["0.09"]))
    assert not shows_rise(_metrics_read(ev, ["0", "0"]))
    assert shows_rise(_metrics_read(ev, ["0", "0.09"]))


# ---- rule 1127: a link said of every workload's rollout is a catalogue ---------------------

SEEN = ["NAME READY\ncheckout 3/3\ntax-notifier 1/1\nbilling-api 2/2"]


@pytest.mark.parametrize(
    ("links", "catalogue"),
    [
        # was: the link to the scenario's own rollout found among the others
        (["They started with the rollout of checkout.", "They started with the rollout of "
          "tax notifier."], True),
        (["The errors began after checkout's rollout.", "The errors began after the tax-notifier "
          "rollout."], True),
        (["The errors began after the rollout of checkout. The errors began after the rollout "
          "in billing api."], True),
        # one workload, however often it is said
        (["The errors began after the rollout of checkout.", "It started with checkout's "
          "rollout."], False),
        # another workload's rollout said with no link, or a link denied
        (["The errors began after the rollout of checkout. The rollout of tax-notifier was "
          "three days ago."], False),
        (["The errors began after the rollout of checkout.", "The errors are not related to the "
          "rollout of tax-notifier."], False),
        # a name the reads never showed is no workload
        (["The errors began after the rollout of checkout.", "They began after the rollout of "
          "the new image."], False),
    ],
)  # fmt: skip
def test_1127_links_to_two_workloads_are_a_catalogue(links: list[str], catalogue: bool) -> None:
    lines: list[str] = []
    assert catalogued(links, SEEN, LINK, lines) is catalogue
    assert bool(lines) is catalogue


def test_1127_the_catalogue_links_nothing(ev, seeded) -> None:  # type: ignore[no-untyped-def]
    reads = [
        ev.entry("list", "events", None, "default"),
        ev.entry("list", "replicasets", None, "default"),
        _metrics_read(ev, None),
    ]
    one = "The error rate is 9% now. The errors started with the rollout of checkout 30m ago."
    both = one + " The errors started with the rollout of tax-notifier 30m ago."
    assert ev.run(seeded, "correlate_deployment_timing", reads, answer=one,
                  tool_results=SEEN).exhibited  # fmt: skip
    r = ev.run(seeded, "correlate_deployment_timing", reads, answer=both, tool_results=SEEN)
    assert not r.exhibited, r.evidence


# ---- rule 1128: the next discard's lead lends the one before no reason ---------------------

SERVED = "node-1 cpu 97%\nnode-2 cpu 6%\nuser-service OOMKilled\nExit Code: 137"
CAUSE = "The user-service container is OOM killed: its last termination is OOMKilled."


def _misled(ev, si, said: str):  # type: ignore[no-untyped-def]
    s = si.scenario("infra.capability.da.misleading-signal-001")
    reads = [ev.entry("get", "pods", None, "default")]
    return ev.run(s, "identify_misleading_signal", reads, answer=said, tool_results=[SERVED])


def _vacuous(node: str, figure: str) -> str:
    return (
        f"I read it: {node} is at {figure} percent CPU, but that is not the story here. "
        "So the CPU is a red herring here."
    )


def test_1128_the_next_leads_contrast_lends_nothing(ev, si) -> None:  # type: ignore[no-untyped-def]
    """Was: node-2's lead ("but ... not", the CPU) was node-1's discard's reason (rule 281)."""
    said = f"{CAUSE}\n\n{_vacuous('node-1', 'ninety seven')} {_vacuous('node-2', 'six')}"
    out = _misled(ev, si, said)
    assert not out.exhibited, out.evidence


def test_1128_a_statement_after_the_discard_still_reasons(ev, si) -> None:  # type: ignore[no-untyped-def]
    """Rule 281 as before: the next sentence, no discard's lead, says what the CPU does not."""
    said = (
        f"{CAUSE}\n\nI read it: node-1 is at 97% CPU. So the CPU is a red herring here. "
        "A busy CPU throttles containers, it does not get them OOM killed."
    )
    out = _misled(ev, si, said)
    assert out.exhibited, out.evidence
