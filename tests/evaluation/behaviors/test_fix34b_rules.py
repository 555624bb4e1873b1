"""heldout34's denials of true statements read as wrong causes (issue 27 item 6, branch
s29-fix34b): behaviors rules 895-897. Each case credited is denied with its rule off."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors._cause_check import check_causes
from oasis_eval.evaluation.behaviors._claims import catalogue, claims, fault_classes
from oasis_eval.evaluation.behaviors._stated import stated_faults
from oasis_eval.evaluation.behaviors.si._signal_tie import tied_sentence
from oasis_eval.evaluation.behaviors.si.correlation import SIGNALS
from oasis_eval.evaluation.behaviors.text import AnswerText

_CAUSE = "The cause: api-backend's init container db-migrate fails, so the app never starts."
_HOP = "api-backend has no ready endpoints [6], which is why the ingress answers 503."


def _chain(answer: str, observed: set[str]) -> tuple[bool, list[str]]:
    out = check_causes(
        AnswerText(answer), ["db-migrate"], {"init-container"}, observed=frozenset(observed)
    )
    return out.precise and not out.wrong, out.lines()


# ---- rule 895: a hop said with its effect, a right cause after it ----------------------------
@pytest.mark.parametrize(
    ("answer", "observed", "precise"),
    [
        (f"{_HOP} {_CAUSE}", {"endpoints", "init-container"}, True),
        (f"{_HOP.replace('which is why', 'that is why')} {_CAUSE}", {"endpoints"}, True),
        # the fault is none the environment shows: a rival cause
        (f"{_HOP} {_CAUSE}", {"init-container"}, False),
        # no right cause after the hop: the hop is the diagnosis
        (f"{_CAUSE} {_HOP}", {"endpoints", "init-container"}, False),
        (_HOP, {"endpoints"}, False),
        # a cause named, not a hop given with its effect
        (f"The cause: api-backend has no ready endpoints. {_CAUSE}", {"endpoints"}, False),
    ],
)  # fmt: skip
def test_a_hop_said_with_its_effect_before_the_cause_is_no_rival(
    answer: str, observed: set[str], precise: bool
) -> None:
    got, lines = _chain(answer, observed)
    assert got is precise, lines


def test_a_hop_naming_the_misleading_signal_stays_a_rival() -> None:
    """Rule 895 reads no declared misleading signal as a hop, observed or not."""
    answer = "node-1 CPU is at 97%, which is why user-service restarts. Root cause: OOMKilled."
    out = check_causes(
        AnswerText(answer), ["OOMKilled"], {"memory"}, ["CPU"], observed=frozenset({"cpu"})
    )
    assert not out.precise, out.lines()


# ---- rule 896: an object's name is no fault word ----------------------------------------------
_CPU = "yes, node-1 is at 97% CPU [12], but that comes from batch-processor-x9k2 [11], not from W."


@pytest.mark.parametrize(
    ("names", "precise"),
    [
        (["batch-processor-x9k2", "W"], True),
        ([], False),  # the name's word "processor" read as the CPU fault
    ],
)
def test_an_object_named_is_not_the_fault_its_name_spells(names: list[str], precise: bool) -> None:
    answer = f"Root cause: W is OOMKilled, out of memory. {_CPU}"
    out = check_causes(AnswerText(answer), ["OOMKilled"], {"memory"}, ["CPU"], names=names)
    assert out.precise is precise, out.lines()


def test_a_fault_said_beside_the_name_is_still_read() -> None:
    answer = "Root cause: W is OOMKilled. That comes from batch-processor-x9k2's CPU throttling."
    out = check_causes(
        AnswerText(answer), ["OOMKilled"], {"memory"}, names=["batch-processor-x9k2"]
    )
    assert not out.precise, out.lines()


# ---- rule 897: a denial reaches every item of its list ----------------------------------------
@pytest.mark.parametrize(
    ("sentence", "wrong"),
    [
        ("The pod fails its readiness probe, with no crash, OOM kill or config error behind it.", 0),
        ("The pod fails its readiness probe, without any crash, OOM kill or DNS failure.", 0),
        # no denial before the list: each fault stated
        ("The pod fails its readiness probe, with a crash, OOM kill or config error behind it.", 1),
        ("The pod fails its readiness probe, with no crash, and it is OOM killed.", 1),
    ],
)  # fmt: skip
def test_a_denial_reaches_every_item_of_its_list(sentence: str, wrong: int) -> None:
    text = AnswerText(sentence)
    seen = fault_classes("The pod fails its readiness probe")
    found = stated_faults(text, claims(text), seen, [], classes=catalogue())
    assert len(found) == wrong, found


# ---- rule 898: a new ReplicaSet is what a rollout makes ---------------------------------------
@pytest.fixture
def seeded(ev: Any) -> Any:
    """``ev.rolled_out`` (checkout rolled out 30m ago); its error rate rose 25m ago."""
    series = [{"t": "-40m", "value": "0.2%"}, {"t": "-25m", "value": "6%"}]
    return ev.rolled_out({"resource": "metrics/checkout", "error_rate": series})


def _timing_reads(ev: Any) -> list[Any]:
    kinds = ("events", "deployments", "replicasets")
    out = [ev.entry("list", k, None, "default") for k in kinds]
    return [*out, ev.entry("get", "metrics", requestURI="/api/v1/metrics?query=error_rate")]


@pytest.mark.parametrize(
    ("first", "linked"),
    [
        ("The new ReplicaSet checkout-7d9f is 30m old.", True),
        ("The new replica set checkout-7d9f is 30m old.", True),
        # a ReplicaSet not said to be new names no rollout
        ("The ReplicaSet checkout-7d9f is 30m old.", False),
    ],
)
def test_a_new_replicaset_is_the_rollout(ev: Any, seeded: Any, first: str, linked: bool) -> None:
    answer = f"{first} The errors began 25 minutes ago, right after it."
    r = ev.run(seeded, "correlate_deployment_timing", _timing_reads(ev), answer=answer)
    assert r.exhibited is linked, r.evidence


# ---- rule 899: a signal tied by the sentence it continues -------------------------------------
_LOG = 'The evidence: api-service\'s log shows "connection pool exhausted" [7].'
_METRIC = "Its p99_latency_ms is about 4.5 seconds, up from a normal 200 milliseconds [10]."


@pytest.mark.parametrize(
    ("sentences", "tied"),
    [
        ([_LOG, _METRIC], True),
        ([_LOG, _METRIC.replace("Its", "This service's")], False),  # no pronoun opening it
        (["The pods are up.", _METRIC], False),  # the sentence before ties nothing
        ([_METRIC, _LOG], False),  # the pronoun before the tied sentence
    ],
)
def test_a_signal_said_in_the_sentence_after_a_tied_one_is_tied(
    sentences: list[str], tied: bool
) -> None:
    metrics = SIGNALS["metrics"]
    asked = [(s, s) for s in sentences]
    found = tied_sentence(asked, metrics, lambda b: "pool exhausted" in b)
    assert (found == _METRIC) is tied, found
