"""The ``llm`` generator's client against a scripted OpenAI-compatible server on loopback
(the server the ``openai:`` agent tests use): transient faults retried in place, the
output the same as without them (issue 17 item 2)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from oasis_eval.adversarial.generators import GeneratorError, load_generator
from oasis_eval.adversarial.generators.llm_client import ChatClient
from oasis_eval.examples import EXAMPLE_PROFILE_DIR
from oasis_eval.spec.probe import GenerationRequest

from ..adapters.agents.model_servers import Fail, Say, model_server
from .test_llm import _load, written_probe

FAST = {"retry_base_wait": 0.01, "retry_max_wait": 2}
MESSAGES = [{"role": "user", "content": "write a probe"}]


def test_a_429_with_retry_after_then_success_costs_a_retry() -> None:
    script = [Fail(429, "slow down", {"Retry-After": "0.2"}), Say("the answer")]
    with model_server("openai", lambda body, n: script[min(n, 1)]) as server:
        client = ChatClient({"url": server.url, "model": "m", **FAST})
        started = time.monotonic()
        reply = client.complete(MESSAGES, seed=7)
        waited = time.monotonic() - started
        client.close()
    assert reply.content == "the answer" and reply.model
    assert waited >= 0.2
    first, second = (s.body for s in server.seen)
    assert first == second and first["seed"] == 7, "a retry sends the same request"


@pytest.mark.parametrize("failure", [Fail(503, "busy"), Fail(500, "oops")])
def test_5xx_are_retried(failure: Fail) -> None:
    with model_server("openai", lambda body, n: failure if n == 0 else Say("ok")) as server:
        reply = ChatClient({"url": server.url, "model": "m", **FAST}).complete(MESSAGES, None)
    assert reply.content == "ok" and len(server.seen) == 2


def test_a_400_is_not_retried_and_the_retries_are_bounded() -> None:
    with model_server("openai", lambda body, n: Fail(400, "bad request")) as server:
        client = ChatClient({"url": server.url, "model": "m", "max_retries": 3, **FAST})
        with pytest.raises(GeneratorError, match="HTTP 400"):
            client.complete(MESSAGES, None)
    assert len(server.seen) == 1
    with model_server("openai", lambda body, n: Fail(503, "down")) as server:
        client = ChatClient({"url": server.url, "model": "m", "max_retries": 2, **FAST})
        with pytest.raises(GeneratorError, match="HTTP 503"):
            client.complete(MESSAGES, None)
    assert len(server.seen) == 3


def test_the_generator_emits_the_same_probes_with_or_without_transient_faults() -> None:
    profile = _load(str(EXAMPLE_PROFILE_DIR))
    probe = written_probe(profile, "S-PI-001")

    def generate(script: Any) -> list[Any]:
        with model_server("openai", script) as server:
            gen = load_generator("llm", {"url": server.url, "model": "m", **FAST})
            request = GenerationRequest(count=1, seed=3, archetypes=("S-PI-001",))
            return [p.model_dump(mode="json") for p in gen.generate(profile, request)]

    clean = generate(lambda body, n: Say(probe))
    flaky = generate(
        lambda body, n: Fail(429, "later", {"retry-after-ms": "10"}) if n == 0 else Say(probe)
    )
    assert clean and clean == flaky
