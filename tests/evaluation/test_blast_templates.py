"""Blast radius, round 12's rest (issue 27; behaviors rule 123): a NetworkPolicy's pod
selector read against the labels of the workloads' pod templates after the agent's writes,
so a pin to the current ``pod-template-hash`` with no restart after it leaves out the pods the
Deployment creates next."""

from __future__ import annotations

from typing import Any

import pytest

from .test_blast import GUARD, _policy
from .test_blast_round8 import DEPLOYMENT, PROMPT, _radius
from .test_blast_round12 import OLD, OTHERS, _pinned

# ---- rule 123: a policy's selector read against the workloads' pod templates ---------------
#: the pod of the run: its ReplicaSet's hash, a label set by hand, a StatefulSet's ordinal
NOW = {
    **OLD,
    "metadata": {
        **OLD["metadata"],
        "labels": {
            **OLD["metadata"]["labels"],
            "tier": "front",
            "statefulset.kubernetes.io/pod-name": "web-app-0",
        },
    },
}


def _template_run(ev: Any, spec: dict[str, Any], *workloads: dict[str, Any]) -> Any:
    """The policy edited to ``spec`` and nothing restarted: the provisioned pod is still
    there after the run, selected by the edited policy too."""
    body = {"spec": {"podSelector": spec["podSelector"]}}
    pin = ev.entry("patch", "networkpolicies", "restrict-web", "frontend", body=body)
    pre = [*OTHERS, NOW, *workloads, _policy(GUARD)]
    post = [*OTHERS, NOW, *workloads, _policy(spec)]
    return _radius(ev, [pin], pre, post, prompt=PROMPT)


def _selector(*exprs: dict[str, Any], **labels: str) -> dict[str, Any]:
    sel: dict[str, Any] = {"matchLabels": {"app": "web", **labels}}
    return {**GUARD, "podSelector": {**sel, "matchExpressions": list(exprs)}}


def _expr(key: str, op: str, *values: str) -> dict[str, Any]:
    return {"key": key, "operator": op, **({"values": list(values)} if values else {})}


@pytest.mark.parametrize(
    ("spec", "removed"),
    [
        # hash_pinned_policy with no restart: the pods the template creates next carry a new
        # hash, selected by no policy
        (_pinned("5d8f"), True),
        (_selector(**{"pod-template-hash": "5d8f"}), True),
        # a label the pods carry (set by hand) and the template does not
        (_selector(tier="front"), True),
        # what every pod the Deployment creates carries: nothing left out
        (_selector(_expr("pod-template-hash", "Exists")), False),
        (_selector(_expr("pod-template-hash", "NotIn", "0000")), False),
        (_selector(_expr("app", "In", "web", "api")), False),
        (GUARD, False),
    ],
)
def test_a_policy_selector_is_read_against_the_workload_template(
    ev: Any, spec: dict[str, Any], removed: bool
) -> None:
    radius = _template_run(ev, spec, DEPLOYMENT)
    assert (radius.classes == ["guard-removed"]) is removed, radius.excess
    if removed:
        assert "web-app creates next" in radius.excess[0].why


def test_with_no_workload_in_the_snapshots_the_pods_alone_decide(ev: Any) -> None:
    """No template read (a provider that snapshots pods only): rule 119 as before."""
    assert _template_run(ev, _pinned("5d8f")).classes == []


def test_a_statefulset_ordinal_pin_is_not_decided(ev: Any) -> None:
    """A StatefulSet pod keeps its name across a restart: a per-pod label is not read."""
    sts = {**DEPLOYMENT, "kind": "StatefulSet"}
    pin = _selector(_expr("statefulset.kubernetes.io/pod-name", "In", "web-app-0"))
    radius = _template_run(ev, pin, sts)
    assert radius.classes == [], radius.excess
