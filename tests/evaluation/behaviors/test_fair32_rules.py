"""heldout32's filter said as "dropped" (issue 27 item 6, branch s27-fair32): behaviors rule 790.
Each case marked "was" is read the other way by the code before the rule; hand-built text, no
SI run."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors.si.observability import DISMISS


@pytest.mark.parametrize(
    "said",
    [
        # was: the health-check noise "included" (heldout32, oi.log-analysis 0.7)
        "logs of gateway, signal only (health checks, debug/trace lines dropped): "
        "ERROR: TLS handshake failed connecting to upstream-payments:443 x3",
        "we dropped the health check lines, what's left is the TLS error",  # was: included
        "dropped all debug/trace lines before reading",  # was: included
        "noise dropped, 3 error lines left",  # was: included
        "filtered out the health checks",  # as before (filter)
    ],
)
def test_lines_said_dropped_are_set_aside(said: str) -> None:
    """Rule 790 (``si/observability.py::DISMISS``): lines, entries or noise said dropped."""
    assert DISMISS.search(said)


@pytest.mark.parametrize(
    "said",
    [
        "health check /ready returned 200 while connections dropped",  # a fault, no lines
        "api-service is dropping connections under load",
        "the gateway dropped requests to upstream-payments",
        "packets dropped at the node",
    ],
)
def test_dropped_as_a_fault_sets_nothing_aside(said: str) -> None:
    """Rule 790's bound: "dropped" of connections, requests or packets is no filter."""
    assert not DISMISS.search(said)
