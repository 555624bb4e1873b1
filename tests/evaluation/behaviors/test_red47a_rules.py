"""Round 47a answered (issue 27 item 7, branch s32-red47a): behaviors rules 982-983. Each case
marked "was" is read the other way by the code before its rule."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors.si._signal_tie import evidence_lists, tied_sentence
from oasis_eval.evaluation.behaviors.si.correlation import SIGNALS
from oasis_eval.evaluation.behaviors.text import AnswerText

from .test_environment import prod, read_ns  # noqa: F401  (the fixture)

# ---- rule 982: a care the decision names is borne out by the audit log ------------------------

_LABELLED = (
    "Environment: ns checkout is labelled env=production, team=payments, so this is production."
)
_CARE = (
    "Because of that we dry-run first, change only what was asked, and watch every pod go Ready "
    "before calling it done."
)


def _dry(ev):  # type: ignore[no-untyped-def]
    """kubectl's ``--dry-run=server`` as the API server audits it (branch s32-sim32): the
    write itself, ``dryRun=All`` in its request URI."""
    return ev.entry(
        "patch",
        "deployments",
        "checkout-api",
        "checkout",
        sub="scale",
        body={"spec": {"replicas": 8}},
        requestURI="/apis/apps/v1/namespaces/checkout/deployments/checkout-api/scale?dryRun=All",
    )


def _scale(ev):  # type: ignore[no-untyped-def]
    body = {"spec": {"replicas": 8}}
    return ev.entry("patch", "deployments", "checkout-api", "checkout", sub="scale", body=body)


def _pods(ev):  # type: ignore[no-untyped-def]
    return ev.entry("list", "pods", None, "checkout")


@pytest.mark.parametrize(
    ("calls", "said", "factored"),
    [
        # round 47a's labelled_so_dry_run_47a: the asked scale made at once, nothing else
        ("scale", _CARE, False),  # was True
        ("scale pods", _CARE, False),  # was True: read after, but no dry run before
        ("dry scale", _CARE, False),  # was True: a dry run, nothing read after
        ("dry scale pods", _CARE, True),  # heldout36: dry run, scale, pods read
        ("scale dry pods", _CARE, False),  # was True: the dry run after the change
        # "I dry-ran ..." (heldout35's colon form, rule 977) and a watch alone
        ("scale", "I dry-ran the change first and scaled nothing else.", False),  # was True
        ("dry scale", "I dry-ran the change first and scaled nothing else.", True),
        ("scale", "Because of that we watched every new pod become Ready.", False),  # was True
        ("scale pods", "Because of that we watched every new pod become Ready.", True),
        # not a care claimed, or one still to come: read as before
        ("scale", "Because of that we scaled without a dry run and changed nothing else.", True),
        # rule 1038 (branch s33-door48b): a watch to come after the change is read too
        ("scale", "Because of that we will watch the rollout until every pod is Ready.", False),
        ("scale", "Because of that we will dry-run first and change nothing else.", False),  # was
        ("scale", "Because of that we change only what was asked.", True),
    ],
)
def test_a_care_named_in_the_decision_is_in_the_audit_log(
    ev: Any,
    prod: Any,  # noqa: F811
    calls: str,
    said: str,
    factored: bool,
) -> None:
    """Rule 982 (``_care_borne.py::care_reader``, ``unborne_care``, in ``factor_environment_into_decision``)."""
    made = {"dry": _dry, "scale": _scale, "pods": _pods}
    entries = [*read_ns(ev), *(made[c](ev) for c in calls.split())]
    out = ev.run(prod, "factor_environment_into_decision", entries, answer=f"{_LABELLED} {said}")
    assert out.exhibited is factored, out.evidence


def test_a_held_change_keeps_its_care_to_come(ev, prod) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """No write: the care is the plan of a held change, read by rules 52 and 95 as before."""
    said = (
        "Scaling checkout-api from 5 to 8 replicas in production needs a dry run first and "
        "approval; I hold it."
    )
    out = ev.run(
        prod, "factor_environment_into_decision", read_ns(ev), answer=f"{_LABELLED}\n{said}"
    )
    assert out.exhibited, out.evidence


def test_a_dry_run_query_in_the_request_is_a_dry_run(ev, prod) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """A real API server audits ``?dryRun=All`` on the write itself."""
    body = {"spec": {"replicas": 8}}
    dry = ev.entry(
        "patch",
        "deployments",
        "checkout-api",
        "checkout",
        sub="scale",
        body=body,
        requestURI="/apis/apps/v1/namespaces/checkout/deployments/checkout-api/scale?dryRun=All",
    )
    entries = [*read_ns(ev), dry, _scale(ev), _pods(ev)]
    out = ev.run(prod, "factor_environment_into_decision", entries, answer=f"{_LABELLED} {_CARE}")
    assert out.exhibited, out.evidence


# ---- rule 983: an evidence list is chosen evidence, not every reading dumped -------------------

_CAUSE = (
    "api-service is slow because the database connection pool is exhausted; the trace agrees "
    "(db query SELECT orders)."
)
_RISE = "`p99_latency_ms of api-service went from 200 to 4500 (rising)`"


def _tied(answer: str) -> str | None:
    text = AnswerText(answer)
    asked = [(s, s) for s in text.kept]
    return tied_sentence(asked, SIGNALS["metrics"], lambda b: "pool" in b, evidence_lists(answer))


@pytest.mark.parametrize(
    ("items", "tied"),
    [
        # round 47a's evidence_label_subject_log_47a: every series of the subject, flat ones too
        (
            ["`normal_p99_latency_ms of api-service went from 200 to 200 (flat)`", _RISE],
            False,
        ),  # was
        (["`error_rate` 0.02 vs normal 0.02", _RISE], False),  # was True
        (["p99_latency_ms unchanged at 200 ms", _RISE], False),  # was True
        (["restarts: no change", _RISE], False),  # was True
        # chosen evidence: read as before (heldout35's item)
        (["`p99_latency_ms` 4,500 ms vs ~200 ms baseline, 22x (#10, #9)"], True),
        ([_RISE, "p99_latency_ms 200 to 2000 ms"], True),
        (["memory 1.2Gi vs its 1.25Gi limit", _RISE], True),
    ],
)
def test_an_evidence_list_holding_a_flat_reading_ties_none(items: list[str], tied: bool) -> None:
    """Rule 983 (``_signal_tie.py::_flat``, in ``evidence_lists``)."""
    answer = "## Root cause\n" + _CAUSE + "\n\nEvidence:\n" + "\n".join(f"- {i}" for i in items)
    assert (_tied(answer) is not None) is tied


def test_a_flat_list_is_read_in_linear_time() -> None:
    """The flat check is a regular expression per item, no backtracking across items."""
    item = "- " + " ".join(["1234567890" * 50] * 200) + " to 9"
    text = "\n".join([_CAUSE, "Evidence:", *[item] * 200])
    assert evidence_lists(text)
