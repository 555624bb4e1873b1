"""The harness's retry policy (``oasis_eval.retrying``): a first attempt that succeeds skips
tenacity's machinery (issue 30), and one that fails is retried exactly as before."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from oasis_eval.retrying import RetryPolicy


class Flaky(Exception):
    """A transient failure in these tests."""


def _run(policy: RetryPolicy, failures: list[BaseException]) -> tuple[Any, list[Any]]:
    """``policy.call`` of a function failing with ``failures`` in turn, then answering 'ok':
    (the outcome, the events: calls, retries, sleeps)."""
    events: list[Any] = []

    async def fn() -> str:
        events.append("call")
        if failures:
            raise failures.pop(0)
        return "ok"

    async def sleep(seconds: float) -> None:
        events.append(("sleep", seconds))

    def on_retry(attempt: int, exc: BaseException, wait: float) -> None:
        events.append(("retry", attempt, type(exc).__name__, wait))

    async def main() -> Any:
        try:
            return await policy.call(
                fn, lambda e: isinstance(e, Flaky), lambda e: 2.5, on_retry, sleep
            )
        except (Flaky, ValueError) as exc:
            return exc

    return anyio.run(main), events


def test_a_first_success_never_builds_the_retry_machinery(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*_: Any, **__: Any) -> Any:
        raise AssertionError("tenacity built for a call that succeeded at once")

    monkeypatch.setattr(RetryPolicy, "retrying", refused)
    assert _run(RetryPolicy(3, 0.5, 30.0), []) == ("ok", ["call"])


def test_a_failed_first_attempt_is_retried_with_the_same_waits_and_reports() -> None:
    outcome, events = _run(RetryPolicy(3, 0.5, 30.0), [Flaky(), Flaky()])
    assert outcome == "ok"
    assert events == [
        "call", ("retry", 1, "Flaky", 2.5), ("sleep", 2.5),
        "call", ("retry", 2, "Flaky", 2.5), ("sleep", 2.5),
        "call",
    ]  # fmt: skip


def test_retries_spent_and_faults_not_transient_raise_the_last_failure() -> None:
    last = Flaky("third")
    outcome, events = _run(RetryPolicy(2, 0.0, 30.0), [Flaky(), Flaky(), last])
    assert outcome is last and events.count("call") == 3
    refused = ValueError("not transient")
    outcome, events = _run(RetryPolicy(2, 0.0, 30.0), [refused])
    assert outcome is refused and events == ["call"]
    outcome, events = _run(RetryPolicy(0, 0.0, 30.0), [Flaky()])
    assert isinstance(outcome, Flaky) and events == ["call"]
