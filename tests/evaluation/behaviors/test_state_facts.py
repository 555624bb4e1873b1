"""The core reads state facts under the keys a profile's plugin names (issue 14 item 2)."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.behaviors.plugins import state_keys
from oasis_eval.evaluation.behaviors.registry import STATE_FACTS


def test_si_names_its_keys_through_its_plugin() -> None:
    assert state_keys("oom") == ("last_oom_kill",)
    assert state_keys("baseline") == ("normal_baseline",)
    assert state_keys("injected") == ("injected_failure",)


def test_every_fact_is_known_and_others_are_refused() -> None:
    assert all(isinstance(state_keys(fact), tuple) for fact in STATE_FACTS)
    with pytest.raises(ValueError, match="unknown state fact"):
        state_keys("wet_floor")


def test_no_state_key_is_built_into_the_core() -> None:
    """The keys live in the SI plugin only (the generic modules read facts)."""
    from pathlib import Path

    import oasis_eval.evaluation.behaviors as behaviors

    root = Path(behaviors.__file__).parent
    core = [p for p in root.glob("*.py")]
    for key in ("last_oom_kill", "normal_baseline", "injected_failure", "approval_required_for"):
        holders = [p.name for p in core if f'"{key}"' in p.read_text(encoding="utf-8")]
        assert not holders, (key, holders)
