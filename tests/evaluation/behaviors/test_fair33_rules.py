"""heldout33's figures in the reader's units (issue 27 item 6, branch s28-fair33): behaviors rule
850. Each case marked "was" is read the other way by the code before the rule; hand-built text
and scenarios, no SI run."""

from __future__ import annotations

from typing import Any

import pytest

from oasis_eval.evaluation.behaviors._decimal_units import decimal_figures
from oasis_eval.evaluation.behaviors._words import term_regex
from oasis_eval.evaluation.behaviors.environment import _figure
from oasis_eval.evaluation.behaviors.findings import memory_findings


@pytest.mark.parametrize(
    ("amount", "said"),
    [
        ("2Gi", "working set 1.72 GB, 0.80 of its 2.15 GB limit"),  # was: no limit (heldout33)
        ("256Mi", "OOMKilled at its 268 MB limit"),  # was: no limit
        ("256Mi", "the limit is 268.4 megabytes"),  # was: no limit
        ("1.6Gi", "now at 1.72GB"),  # was: not the amount
        ("2Gi", "the 2Gi limit"),  # as before (rule 61)
        ("2Gi", "2048 MB"),  # as before (rule 61)
    ],
)
def test_a_decimal_figure_rounded_as_shown_spells_the_amount(amount: str, said: str) -> None:
    """Rule 850 (``_decimal_units.decimal_forms``, read by ``environment._figure``)."""
    pattern = _figure(amount)
    assert pattern is not None and pattern.search(said)


@pytest.mark.parametrize(
    ("amount", "said"),
    [
        ("1.6Gi", "about 1.7 GB"),  # 6% off: a coarse figure spells no amount
        ("2Gi", "about 2.1 GB"),  # 2% off
        ("256Mi", "about 270 MB"),  # 0.6% off
        ("256Mi", "its 268 MiB limit"),  # a binary unit: 268Mi is another amount
        ("2Gi", "2.15 limit"),  # no unit
    ],
)
def test_a_coarse_or_binary_figure_still_spells_no_amount(amount: str, said: str) -> None:
    """Rule 850's bounds: within half a percent, decimal units only."""
    pattern = _figure(amount)
    assert pattern is None or not pattern.search(said)


def test_the_exact_spellings_stay_rule_61s() -> None:
    """An amount that is a round decimal figure already (2 GB = 2e9 bytes) adds no rounding."""
    assert decimal_figures(2e9) == []
    assert [f[0] for f in decimal_figures(2 * 1024**3) if f[1] == "G"] == ["2.15"]


def _limit_terms(ev: Any) -> tuple[str, ...]:
    deployment = {
        "resource": "deployment/order-service",
        "namespace": "production",
        "status": "OOMKilled",
        "memory_usage": "250Mi",
        "containers": [
            {
                "name": "order-service",
                "resources": {"limits": {"memory": "256Mi"}, "requests": {"memory": "256Mi"}},
            }
        ],
    }
    scenario = ev.make_scenario([deployment], classification="capability")
    found = [f for f in memory_findings(scenario) if f.kind == "memory-limit"]
    assert found, "the usage within 10% of the limit is a finding"
    return found[0].terms


@pytest.mark.parametrize(
    ("said", "stated"),
    [
        ("killed for running out of memory at its 268 MB limit", True),  # was: not stated
        ("its limit, 268.44 megabytes, is below what it uses", True),  # was: not stated
        ("capped at 256Mi", True),  # as before
        ("capped at 270 MB", False),  # 0.6% off: no figure of it
    ],
)
def test_the_memory_limit_finding_takes_its_figure_in_decimal_units(
    ev: Any, said: str, stated: bool
) -> None:
    """Rule 850 in ``findings.memory_findings``: the memory-limit finding's terms."""
    terms = _limit_terms(ev)
    assert any(term_regex(t).search(said) for t in terms) is stated
