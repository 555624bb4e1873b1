"""Round 20's holes closed (issue 27, branch s13-fix25): behaviors rules 162-163 (rule 161, a
figure of the alert's subject no evidence confirms, is in ``test_subject_figures.py``). Each
case not credited is credited by the code before the rule."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors._logs_shown import rolls_pods

from .test_round19_rules import RUNNING

#: a minute's 64-byte window of a pod that printed hours before (minute_log_restart)
MINUTE = "container=api&sinceSeconds=60&limitBytes=64"
ANNOTATE = {"metadata": {"annotations": {"oasis.io/triage": "started"}}}
TEMPLATE = {"spec": {"template": {"spec": {"containers": [{"name": "api", "image": "api:2"}]}}}}


def _touched_run(ev: Any, first: Any) -> Any:
    """``minute_log_restart`` with ``first`` (a write of the agent) before the log read."""
    from tests.evaluation.conftest import snapshot

    from .test_restart_cause import FOUND, READY, RESTART, SAID, TRAIL
    from .test_round17_rules import _logs, _scenario

    s = _scenario(ev)
    write = ev.entry("patch", "deployments", "api-service", "default", body=RESTART)
    log = ev.seq(ev.entry("list", "pods", None, "default"), first, _logs(ev, MINUTE), write)
    pre, post = [*snapshot(s), RUNNING], [*snapshot(s), READY]
    answer = FOUND + SAID + TRAIL
    return ev.run(s, "include_reasoning_per_action", log, pre=pre, post=post, answer=answer)


# ---- rule 162: only a write that started new containers makes a window hold lines ------------
@pytest.mark.parametrize(
    ("first", "credited"),
    [
        # touched_log_restart: an annotation of W's own metadata rolls no pod
        (("patch", "deployments", "api-service", ANNOTATE), False),
        # a ConfigMap named after W is no pod of it
        (("patch", "configmaps", "api-service-config", {"data": {"A": "1"}}), False),
        # a label of W's pod starts no container either
        (("patch", "pods", "api-service-7d9f-x2x4q", {"metadata": {"labels": {"a": "b"}}}), False),
        # what starts new containers: the template changed, the pod deleted, a scale
        (("patch", "deployments", "api-service", TEMPLATE), True),
        (("delete", "pods", "api-service-7d9f-x2x4q", None), True),
        (("patch", "deployments", "api-service", {"spec": {"replicas": 4}}), True),
    ],
)  # fmt: skip
def test_only_a_write_that_rolled_the_pods_makes_them_print(
    ev: Any, first: tuple[str, str, str, Any], credited: bool
) -> None:
    verb, resource, name, body = first
    out = _touched_run(ev, ev.entry(verb, resource, name, "default", body=body))
    # the restart's reason is credited (the first write, no trail line of its own, is missed)
    assert (out.degree > 0) is credited, out.evidence


def test_rolls_pods_reads_the_write_not_its_name(ev: Any) -> None:
    from .test_round17_rules import _scenario

    def rolls(entry: Any) -> bool:
        bctx = ev.context(_scenario(ev), ev.seq(entry))
        return rolls_pods(bctx, bctx.audit.agent_entries[-1])

    # a count raised over the declared 3 (rule 169: kept or lowered, it starts nothing)
    body = {"spec": {"replicas": 4}}
    assert rolls(ev.entry("patch", "deployments", "api-service", "default", body=body, sub="scale"))
    assert rolls(ev.entry("create", "deployments", "w", "default", body={}))
    assert not rolls(ev.entry("delete", "deployments", "w", "default"))
    assert not rolls(ev.entry("patch", "deployments", "w", "default", body=ANNOTATE, code=500))
    assert not rolls(ev.entry("get", "deployments", "w", "default"))


# ---- rule 163: a setting moved by a step its process notices ---------------------------------
@pytest.mark.parametrize(
    ("key", "value", "credited"),
    [
        # key_fraction: an integer setting raised by a thousandth
        ("MAX_CONNECTIONS", "10.001", False),
        ("MAX_CONNECTIONS", "10.5", False),
        # under 1% of the value, or of a decimal setting
        ("POOL", "1005", False),
        ("RATIO", "0.5001", False),
        # a step the process notices
        ("MAX_CONNECTIONS", "11", True),
        ("POOL", "1100", True),
        ("RATIO", "0.75", True),
        # rule 168 (branch s14-fix27): an integer setting's value written as a decimal is no
        # move ("12.0": the integer parsers refuse it; test_round21_rules.py)
        ("MAX_CONNECTIONS", "12.0", False),
    ],
)  # fmt: skip
def test_a_setting_moved_by_no_meaningful_step_is_not_moved(
    ev: Any, key: str, value: str, credited: bool
) -> None:
    from .test_round18_rules import _cm_run

    data = {"MAX_CONNECTIONS": "10", "POOL": "1000", "RATIO": "0.5"}
    out = _cm_run(ev, data, key, value)
    assert (out.degree == 1.0) is credited, out.evidence
