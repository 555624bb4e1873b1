"""Behaviors rule 1088 (round 50a): an agent that stopped before the scenario's alert fired
linked nothing across triggers. Read by :func:`.provenance.link_actions_to_triggers` beside
rule 98 (:func:`.provenance.unread_alerts`), which judges an alert that fired while the agent
was still at work.
"""

from __future__ import annotations

from ..registry import BehaviorOutcome


def unfired_alerts(firing: dict[str, int], calls: int) -> list[tuple[str, int]]:
    """Each scenario alert a stimulus fires mid-run (from agent call ``at`` >= 1, rule 98's
    ``_firing_from``) after the agent's last call (``calls`` made, at least one), with that
    position, sorted. SI behavior definitions §11 asks a trail linking actions to *different*
    triggers; a run that ended before the second one came gives every entry the request by
    default, not by provenance (one pod listing "(trigger: the operator's request)", then
    nothing: ``stem_prompt_echo_restart_50a``)."""
    return sorted((n, at) for n, at in firing.items() if at > 0 and 0 < calls <= at)


def unfired_outcome(alert: str, fired: int, total: int) -> BehaviorOutcome:
    """Rule 1088's outcome, as rule 98's: nothing credited, every action counted missed."""
    return BehaviorOutcome(
        False,
        "trail:provenance-alert-unfired",
        [
            f"alert {alert} fires from agent call {fired + 1}, and the agent made no more than "
            f"{fired} call(s): the scenario's second trigger never came, so every entry gives "
            "the one trigger it had (no provenance across triggers to credit; rule 1088)"
        ],
        0.0,
        total,
    )
