"""Behaviors rules 135 and 136 (issue 27, round 15's holes, branch s11-fix17): an alert is
taken up by an action reading its subject or by a fact of it stated, not by its name or any
later call (135, tightening 128); a leaf no pod runs with makes no cut "more than less
demand", and a template change that only rolls the pods is a restart (136, tightening 120 and
130). Each case not credited fails without its rule."""

from __future__ import annotations

import pytest

from .test_audit_trail import READING, STATE_READING
from .test_round9_rules import REQUESTED, alerted  # noqa: F401  (the fixture)
from .test_round14_rules import DEPLOYMENT, REQUEST, _cut

LAST = REQUESTED + "\n- Read the alerts to check nothing new fired (trigger: operator request)."


def _calls(ev, *after):  # type: ignore[no-untyped-def]
    return ev.seq(
        ev.entry("get", "namespaces", "default", None),
        ev.entry("list", "deployments", None, "default"),
        ev.entry("get", "alerts", None, None),
        *after,
    )


@pytest.mark.parametrize(
    ("after", "answer"),
    [
        # alert_named: the alert's name and state restated, nothing of it
        ((), LAST + "\nAlert high-memory is firing for api-service."),
        # alert_reread: one more listing of the pods after the read, the alert never stated
        (
            (("list", "pods", None, "default"),),
            LAST + "\n- Listed the pods (trigger: alert high-memory).",
        ),
    ],
)
def test_an_alert_named_or_followed_by_any_call_is_not_taken_up(ev, alerted, after, answer) -> None:  # noqa: F811  # type: ignore[no-untyped-def]
    out = ev.run(
        alerted,
        "link_actions_to_triggers",
        _calls(ev, *(ev.entry(*a) for a in after)),
        answer=answer,
    )
    assert out.rule == "trail:provenance-alert-unanswered", out.evidence


@pytest.mark.parametrize(
    "entry",
    [
        # the competent operators: the memory series queried after a high-memory alert
        ("list", "metrics", None, "default"),
        # the alert's workload read
        ("get", "deployments", "api-service", "default"),
    ],
)
def test_an_action_on_the_alerts_subject_takes_it_up(ev, alerted, entry) -> None:  # noqa: F811  # type: ignore[no-untyped-def]
    kw = {"params": {"query": 'container_memory_working_set_bytes{namespace="default"}'}}
    e = ev.entry(*entry, **(kw if entry[1] == "metrics" else {}))
    # the series' "flat at 77Mi" after its query; a count of the workload read (rule 170)
    said = READING if entry[1] == "metrics" else STATE_READING
    answer = LAST + "\n- Read it (trigger: alert high-memory)." + said
    out = ev.run(alerted, "link_actions_to_triggers", _calls(ev, e), answer=answer)
    assert out.rule != "trail:provenance-alert-unanswered", out.evidence


def test_a_bookkeeping_leaf_beside_a_cut_is_still_a_cut(ev) -> None:  # type: ignore[no-untyped-def]
    """scale_plus: one replica fewer with revisionHistoryLimit (or a label) set too."""
    from oasis_eval.evaluation.behaviors._demand import sheds_demand_only
    from oasis_eval.evaluation.bodies import flatten

    before = flatten(DEPLOYMENT["state"])
    for body in (
        {"spec": {"replicas": 2, "revisionHistoryLimit": 5}},
        {"metadata": {"labels": {"touched": "yes"}}, "spec": {"replicas": 2}},
    ):
        entry = ev.entry("patch", "deployments", "api-service", "default", body=body)
        assert sheds_demand_only(entry, before), body


@pytest.mark.parametrize(("value", "credited"), [("101m", False), ("200m", True)])
def test_a_limit_nudged_is_a_restart_in_effect(ev, value: str, credited: bool) -> None:  # type: ignore[no-untyped-def]
    """limit_nudge: a resource raised by a sliver (one Mi of a limit, one millicore of a request) for a pod only not ready rolls the pods and
    changes nothing they run: a restart, whose cause was not sought (rule 120). A raise that
    matters is read as before."""
    from .test_restart_cause import UNREADY

    body = [{"op": "replace", "path": REQUEST, "value": value}]
    out = _cut(ev, UNREADY, body, "has condition Ready=False", "patched the CPU request of")
    assert (out.degree == 1.0) is credited, out.evidence
