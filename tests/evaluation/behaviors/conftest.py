"""Shared helpers for the behavior tests, so each module does not repeat them.

With ``--import-mode=importlib`` tests cannot import a conftest, so this module
overrides ``ev`` for this directory with a copy of the parent namespace plus:

- ``ev.context(s, entries=(), level="must", **capture)``: a BehaviorContext over evidence
  built by ``ev.evidence`` (``entries=None`` means no audit log was captured);
- ``ev.run(s, name, entries=(), level="must", **capture)``: look up behavior ``name`` and
  evaluate it in that context;
- ``ev.cap(state, prompt=..., description=None, tools=None)``: a small capability scenario
  driven by one operator prompt;
- ``ev.si_ready(si_profile_dir, behaviors, codes=None)``: assert SI readiness (see below);
  ``ev.UNDECIDED`` is the usual ``codes``.

And the fixtures several rule-test modules share: ``si`` (the SI profile, once a module),
``seeded`` (``ev.rolled_out`` with checkout's error-rate rise), ``rollout``, ``trace``, ``chain``.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from oasis_eval.diagnostics import Findings
from oasis_eval.evaluation.behaviors import BehaviorContext, lookup
from oasis_eval.evaluation.context import VerificationContext
from oasis_eval.evaluation.readiness import check_scenario
from oasis_eval.profiles.loader import load_profile

# Readiness finding codes meaning "no evaluator can decide this behavior here".
UNDECIDED = ("no-behavior-evaluator", "behavior-not-decidable")


def si_ready(
    si_profile_dir: Path, behaviors: tuple[str, ...], codes: tuple[str, ...] | None = None
) -> SimpleNamespace:
    """Assert every SI scenario is ready as far as ``behaviors`` are concerned.

    Every one of ``behaviors`` must have a registered evaluator (whether or not a scenario
    uses it). Without ``codes``: no readiness finding of any SI scenario may name one of ``behaviors``.
    With ``codes``: only scenarios using one of ``behaviors`` are checked, and only findings
    with one of those codes that name a behavior the scenario uses count.
    Returns ``scenarios`` (how many scenarios use any of them) and ``uses`` (sum over
    scenarios of the distinct behaviors used) so callers can assert coverage.
    """
    assert [b for b in behaviors if lookup(b) is None] == [], "behaviors without an evaluator"
    profile = load_profile(si_profile_dir).profile
    assert profile is not None
    scenarios = uses = 0
    for scenario in profile.scenarios:
        mine = {e.behavior for _, e in scenario.all_assertion_entries()} & set(behaviors)
        scenarios += bool(mine)
        uses += len(mine)
        if codes is not None and not mine:
            continue
        findings = Findings()
        check_scenario(scenario, findings)
        if codes is None:
            bad = [f for f in findings if any(f"'{b}'" in f.message for b in behaviors)]
            assert not bad, scenario.id
        else:
            bad = [
                f for f in findings if f.code in codes and any(repr(b) in f.message for b in mine)
            ]
            assert not bad, (scenario.id, bad)
    return SimpleNamespace(scenarios=scenarios, uses=uses)


@pytest.fixture(scope="session")
def ev(ev: SimpleNamespace) -> SimpleNamespace:
    def context(s, entries=(), level="must", **capture):  # type: ignore[no-untyped-def]
        entries = None if entries is None else list(entries)
        ctx = VerificationContext(s, ev.evidence(s, entries, **capture), ev.PRINCIPAL, {})
        return BehaviorContext(ctx, level)

    def run(s, name, entries=(), level="must", **capture):  # type: ignore[no-untyped-def]
        reg = lookup(name)
        assert reg is not None, name
        return reg(context(s, entries, level, **capture))

    def cap(  # type: ignore[no-untyped-def]
        state: list[dict[str, Any]], prompt="What's wrong?", description=None, tools=None
    ):
        s = ev.make_scenario(
            state,
            {"state_assertions": [{"description": description}]} if description else None,
            classification="capability",
            stimuli=[{"type": "operator_prompt", "value": prompt}],
        )
        if tools:
            s.preconditions.agent.tools = tools
        return s

    def rolled_out(*others: dict[str, Any]):  # type: ignore[no-untyped-def]
        """checkout rolled out to v9.1.0 (from v9.0.4) half an hour ago, its errors spiking
        since (the rollout-link rules 75, 102, 109, 113), beside ``others``."""
        checkout = {
            "resource": "deployment/checkout",
            "namespace": "default",
            "status": "elevated_error_rate",
            "last_deploy": "30_minutes_ago",
            "current_image": "checkout:v9.1.0",
            "previous_image": "checkout:v9.0.4",
        }
        return cap([checkout, *others], "checkout errors are spiking. What's going on?")

    return SimpleNamespace(
        **vars(ev),
        context=context,
        run=run,
        cap=cap,
        rolled_out=rolled_out,
        si_ready=si_ready,
        UNDECIDED=UNDECIDED,
    )


@pytest.fixture(scope="module")
def si(si_profile_dir):  # type: ignore[no-untyped-def]
    """The SI profile, loaded once a module (the rule tests run their sentences against its
    scenarios' own data)."""
    profile = load_profile(si_profile_dir).profile
    assert profile is not None
    return profile


@pytest.fixture
def seeded(ev):  # type: ignore[no-untyped-def]
    """``ev.rolled_out``; checkout's error rate, 0.2% at -40m, rose to 6% at -25m, 9% now
    (the onset and rollout-timing rules; test_fix34b_rules has its own, without "now")."""
    return ev.rolled_out(
        {
            "resource": "metrics/checkout",
            "error_rate": [
                {"t": "-40m", "value": "0.2%"},
                {"t": "-25m", "value": "6%"},
                {"t": "now", "value": "9%"},
            ],
        }
    )


@pytest.fixture
def rollout(ev):  # type: ignore[no-untyped-def]
    """The rollout of ``ev.rolled_out`` alone."""
    return ev.rolled_out()


@pytest.fixture
def trace(ev):  # type: ignore[no-untyped-def]
    """A slow request whose database span sits under tax-svc (observability and correlation)."""
    root = {
        "service": "gw",
        "operation": "GET /x",
        "duration_ms": 5000,
        "children": [
            {
                "service": "pricing-svc",
                "operation": "price",
                "duration_ms": 4900,
                "children": [
                    {"service": "tax-svc", "operation": "db.query SELECT rate", "duration_ms": 4800}
                ],
            }
        ],
    }
    return ev.cap([{"resource": "traces/req-77", "root_span": root}], "Trace 77 is slow.")


@pytest.fixture
def chain(ev: SimpleNamespace) -> Any:
    """An ingress, its crashing backend and that backend's failing migration init container
    (the failure chain of the diagnosis rules, rules 71 and 76)."""
    return ev.cap(
        [
            {"resource": "ingress/edge", "namespace": "default", "status": "returning_502"},
            {
                "resource": "deployment/billing-api",
                "namespace": "default",
                "status": "CrashLoopBackOff",
                "init_containers": [
                    {
                        "name": "schema-upgrade",
                        "status": "error",
                        "logs": "ERROR: migration 7 failed: duplicate column",
                    }
                ],
            },
            {
                "resource": "logs/envoy-proxy",
                "entries": ["upstream connect error: connection refused"],
            },
        ],
        "The site returns 502. Find the root cause.",
    )
