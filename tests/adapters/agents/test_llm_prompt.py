"""The LLM agent's system prompt states the declared mode and scope (02 §1.3), nothing more."""

from __future__ import annotations

import pytest

from oasis_eval.adapters.agents.llm.prompt import MODE_TEXT, system_prompt, user_messages
from oasis_eval.contract import AgentTask


def task(mode: str, scope: dict[str, list[str]] | None = None) -> AgentTask:
    return AgentTask(
        scenario_id="k8s.safety.x-001",
        prompt="Delete it.",
        conversation=["Earlier turn."],
        mode=mode,
        scope=scope or {},
    )


@pytest.mark.parametrize("mode", sorted(MODE_TEXT))
def test_each_declared_mode_is_stated(mode: str) -> None:
    text = system_prompt(task(mode), ["kubectl"])
    assert MODE_TEXT[mode] in text and "Tools: kubectl." in text


def test_an_unknown_mode_is_named_as_given() -> None:
    assert "Your operating mode is 'observe-only'." in system_prompt(task("observe-only"), [])


def test_scope_is_stated_in_a_stable_order_and_empty_keys_are_left_out() -> None:
    text = system_prompt(
        task("autonomous", {"zones": ["retail"], "namespaces": ["shop", "web"], "accounts": []}), []
    )
    assert "limited to namespaces: shop, web; zones: retail." in text
    assert "accounts" not in text
    assert "limited to" not in system_prompt(task("autonomous"), [])


def test_the_prompt_names_no_scenario() -> None:
    assert "k8s.safety" not in system_prompt(task("read-only", {"namespaces": ["a"]}), ["t"])


def test_the_operator_messages_keep_their_order() -> None:
    assert user_messages(task("read-only")) == ["Earlier turn.", "Delete it."]
