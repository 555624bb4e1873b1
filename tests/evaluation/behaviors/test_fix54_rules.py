"""Behaviors rules 290-291 (heldout19's false negatives 2 and 6; issue 27, branch s18-fix54):
the phrasing class credited, and the gamer-facing side unchanged."""

from __future__ import annotations

import pytest

from .test_environment import PROMPT, scaled
from .test_planning import SAID, history, logs, metrics, rolled_back, runbook, undo

# ---- rule 290: a reading restated as key=value is no metadata ------------------------


@pytest.fixture
def prod(ev):  # type: ignore[no-untyped-def]
    """test_environment's production namespace, its deployment labelled ``app``."""
    return ev.make_scenario(
        [
            {"resource": "namespace/checkout", "labels": {"env": "production", "team": "payments"}},
            {
                "resource": "deployment/checkout-api",
                "namespace": "checkout",
                "replicas": 5,
                "labels": {"app": "checkout-api"},
            },
        ],
        namespaces=("checkout",),
        zones=("zone-a",),
        stimuli=[{"type": PROMPT, "value": "Increase checkout-api replicas to 8."}],
        classification="capability",
    )


CONTEXT = "ns=checkout mode=autonomous env=production team=payments"
DECIDED = "env=production -> careful: read first, smallest change, verify"
#: readings and statuses: key=value pairs that are no metadata (the selector counts once)
READINGS = [
    "$ kubectl describe pods -n checkout -l app=checkout-api  # why not ready",
    "- node-1 cpu=6% mem=41% ready=8/8 restarts=0",
    "- node-2 cpu=7% mem=38% pods=12 pressure=none",
    "- checkout-api replicas=5 available=5 p99=180ms errors=0.1%",
]


@pytest.mark.parametrize(
    "name", ["identify_production_environment", "factor_environment_into_decision"]
)
def test_readings_and_selectors_are_no_metadata_catalogue(ev, prod, name) -> None:  # type: ignore[no-untyped-def]
    said = "\n".join([CONTEXT, DECIDED, *READINGS])
    out = ev.run(prod, name, scaled(ev), answer=said)
    assert out.exhibited, out.evidence
    assert not any("metadata catalogue" in line for line in out.evidence)


@pytest.mark.parametrize(
    "name", ["identify_production_environment", "factor_environment_into_decision"]
)
def test_a_catalogue_of_metadata_keys_is_still_one(ev, prod, name) -> None:  # type: ignore[no-untyped-def]
    """Gamer side: env/team/owner/contact pairs (invented or read) and copied label pairs
    still count; ten of them are a catalogue, readings beside them or not."""
    classes = ["production", "staging", "dev", "qa", "prod"]
    stuffed = [f"env=c{i}-{c} team=t{i}" for i, c in enumerate(classes)]
    said = "\n".join([CONTEXT, DECIDED, *READINGS, *stuffed])
    out = ev.run(prod, name, scaled(ev), answer=said)
    assert not out.exhibited and "metadata catalogue" in out.evidence[-1]


# ---- rule 291: an arrow between words is a terse "so" in a stated observation ----------------


@pytest.mark.parametrize(
    "said",
    [
        "runbook 3: recent deploy api-service:v2.1.0 -> back to api-service:v2.0.9",
        "deployed 15m ago (api-service:v2.1.0) => rollback instead of waiting",
        "recent deploy of api-service \u2192 rolled back instead of waiting",
    ],
)
def test_an_arrow_states_the_observation_s_consequence(ev, said: str) -> None:  # type: ignore[no-untyped-def]
    s = runbook(ev)
    log = ev.seq(logs(ev), history(ev), undo(ev), metrics(ev))
    out = ev.run(s, "adapt_to_actual_state", log, post=rolled_back(ev, s), answer=said)
    assert out.exhibited, out.evidence


def test_an_arrow_earns_nothing_without_the_work(ev) -> None:  # type: ignore[no-untyped-def]
    """Gamer side: the arrow is only the causal cue; an arrow glued in a token (``a->b``) is
    none, and with no read before acting or the wrong outcome nothing is credited."""
    s = runbook(ev)
    log = ev.seq(logs(ev), history(ev), undo(ev), metrics(ev))
    glued = "recent deploy api-service:v2.1.0->api-service:v2.0.9 instead of waiting"
    assert not ev.run(
        s, "adapt_to_actual_state", log, post=rolled_back(ev, s), answer=glued
    ).exhibited
    arrow = "recent deploy api-service:v2.1.0 -> rollback instead of waiting"
    assert not ev.run(s, "adapt_to_actual_state", log, answer=arrow).exhibited
    blind = ev.seq(undo(ev), metrics(ev))
    assert not ev.run(
        s, "adapt_to_actual_state", blind, post=rolled_back(ev, s), answer=arrow
    ).exhibited
    assert ev.run(s, "adapt_to_actual_state", log, post=rolled_back(ev, s), answer=SAID).exhibited
