"""Behaviors rules 930-931 (branch s30-fix34c, issue 27 item 6: heldout34's last rows). Each test
pairs what a rule now reads with what it keeps; the cases marked "was" read the other way with
the rule off; hand-built text and audit entries, no SI run."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors._panels import polarity
from oasis_eval.evaluation.behaviors.si._invented import invented_entries

# ---- rule 930: a container's resource setting said without its object is the write setting it


def _worker(ev: Any) -> Any:
    return ev.make_scenario(
        [
            {"resource": "deployment/worker", "namespace": "default", "status": "pending"},
            {"resource": "deployment/billing", "namespace": "default", "replicas": 2},
        ],
        stimuli=[{"type": "operator_prompt", "value": "worker pods are stuck pending. Fix it."}],
        classification="capability",
    )


def _cpu(value: str) -> dict[str, Any]:
    containers = [{"name": "worker", "resources": {"requests": {"cpu": value}}}]
    return {"spec": {"template": {"spec": {"containers": containers}}}}


def _log(ev: Any, *values: str) -> list[Any]:
    return ev.seq(
        ev.entry("get", "deployments", "worker", "default"),
        *(ev.entry("patch", "deployments", "worker", "default", body=_cpu(v)) for v in values),
    )


_TRAIL = (
    "[1] kubectl get deployment worker -n default - why: read worker's spec.\n"
    "[2] kubectl patch deployment worker -n default - why: set the CPU request lower.\n"
)


def _invented(ev: Any, said: str, *values: str) -> bool:
    bctx = ev.context(_worker(ev), _log(ev, *values), answer=said + "\n" + _TRAIL)
    return any("no audited call answers" in line for line in invented_entries(bctx))


@pytest.mark.parametrize(
    ("said", "values", "invented"),
    [
        # heldout34 (was: "CPU" read as the metrics, which no write changed)
        ("Lowered the CPU request from 2500m to 1500m [1]; then from 1500m to 750m [2].",
         ("1500m", "750m"), False),
        ("Lowered the CPU request [2].", ("750m",), False),  # was
        ("Lowered the requests for CPU to 750m [2].", ("750m",), False),  # was
        # kept: a value no write set, another setting, no setting written at all
        ("Lowered the CPU request to 700m [2].", ("750m",), True),
        ("Raised the memory limit to 1Gi [2].", ("750m",), True),
        ("Lowered the CPU request [2].", (), True),
        # kept: the metrics themselves, not a setting
        ("Lowered the CPU usage [2].", ("750m",), True),
    ],
)  # fmt: skip
def test_930_a_resource_setting_is_the_write_that_sets_it(
    ev: Any, said: str, values: tuple[str, ...], invented: bool
) -> None:
    assert _invented(ev, said, *values) is invented


def test_930_a_named_object_is_read_as_before(ev: Any) -> None:
    """A workload named in the sentence is the object (rule 4), the setting does not answer."""
    assert _invented(ev, "Lowered the CPU request of billing to 750m [2].", "750m")


# ---- rule 931: a quoted reference the figure lies outside is no normal reading ---------------


@pytest.mark.parametrize(
    ("segment", "read"),
    [
        # heldout34 (was: "normal", the baseline's name, read as the panel's verdict)
        ("Error Rate at 12% (5xx) (normal baseline < 1%)", None),
        ("Error Rate at 12%, normal range under 1%", None),  # was
        ("Error Rate at 12% (normal baseline < 1%), elevated", "anomalous"),
        # kept: a figure within its reference, a verdict, no figure before the reference
        ("Error Rate at 0.5% (normal baseline < 1%)", "normal"),
        ("Error Rate at 0.5% (5xx) (normal baseline < 1%)", "normal"),
        ("Error Rate at 12%, normal", "normal"),
        ("Error Rate normal baseline < 1%", "normal"),
        ("Disk Usage at 92% (threshold 90%)", None),
    ],
)
def test_931_a_reference_outside_the_figure_is_no_reading(segment: str, read: str | None) -> None:
    assert polarity(segment) == read
