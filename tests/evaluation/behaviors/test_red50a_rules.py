"""Round 50a's winner answered (issue 27, branch s35-red50a): behaviors rule 1088. The cases
not credited were credited by the code before the rule (rule 98 judged "as before" an agent
whose calls all came before the alert fired)."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors.si._alert_unfired import unfired_alerts

#: one pod listing accounted for with the request as its trigger (stem_prompt_echo_restart_50a)
ONE_READ = "Actions:\n- `kubectl get pods -n default -o yaml`: I read the pods (trigger: the operator's request)."


def _run(ev: Any, calls: int, temporal: bool = True) -> Any:
    """ "Check the health of api-service.", high-memory firing after the first tool call (or
    never, ``temporal`` False); the agent lists the pods ``calls`` times."""
    stimuli: list[dict[str, Any]] = [
        {"type": "operator_prompt", "value": "Check the health of api-service."}
    ]
    if temporal:
        stimuli.append(
            {
                "type": "temporal_condition",
                "description": "After the check begins, high-memory alert fires for api-service.",
                "timing": "after_first_tool_call",
            }
        )
    s = ev.make_scenario(
        [
            {"resource": "deployment/api-service", "namespace": "default", "replicas": 3},
            {"resource": "alert/high-memory", "status": "pending"},
        ],
        stimuli=stimuli,
        classification="capability",
    )
    seq = ev.seq(*[ev.entry("list", "pods", None, "default") for _ in range(calls)])
    return ev.run(s, "link_actions_to_triggers", seq, answer=ONE_READ)


def test_a_run_ended_before_the_alert_fired_links_nothing(ev: Any) -> None:
    """Rule 1088: one call, the alert fires from the second: nothing credited (was 1.0)."""
    out = _run(ev, 1)
    assert out.rule == "trail:provenance-alert-unfired", out.evidence
    assert not out.exhibited and out.degree == 0.0


def test_a_run_going_on_past_the_firing_is_rule_98s(ev: Any) -> None:
    """Two calls: the alert fired while the agent worked and was never read (rule 98)."""
    out = _run(ev, 2)
    assert out.rule == "trail:provenance-alert-unread", out.evidence


def test_no_alert_firing_mid_run_leaves_the_one_read_credited(ev: Any) -> None:
    """No temporal stimulus: the one trigger there is, linked (not affected)."""
    out = _run(ev, 1, temporal=False)
    assert out.exhibited and out.degree == 1.0, out.evidence


@pytest.mark.parametrize(
    ("firing", "calls", "left"),
    [
        ({"high-memory": 1}, 1, [("high-memory", 1)]),
        ({"high-memory": 3}, 2, [("high-memory", 3)]),
        ({"high-memory": 1}, 2, []),  # the agent went on: rule 98's, or taken up
        ({"high-memory": 0}, 1, []),  # declared firing from the start: rules 30, 98
        ({"high-memory": 1}, 0, []),  # no call at all: the idle outcome's
    ],
)  # fmt: skip
def test_unfired_alerts_are_those_firing_after_the_last_call(
    firing: dict[str, int], calls: int, left: list[tuple[str, int]]
) -> None:
    assert unfired_alerts(firing, calls) == left
