"""Transient faults retried in place: one policy for every remote call the harness makes —
the model APIs of ``openai:`` / ``anthropic:`` agents, the HTTP provider adapter, the ``llm``
probe generator (issue 17 item 2; core §3.7: a harness fault is PROVIDER_FAILURE, and a
fault that goes away when asked again is not one).

Transient: a timeout, a connection error, HTTP 408, 429 or any 5xx. The wait before retry
``n`` (1-based) is the server's own ``retry-after-ms`` / ``Retry-After`` (seconds or an
HTTP date) when it sent one, else ``base_wait * 2**(n-1)`` plus up to ``base_wait`` of
jitter; either is capped at ``max_wait``. Other 4xx answers are never retried: asking again
gets the same answer. The retrying itself is tenacity's (``AsyncRetrying``); each retry is
reported to ``on_retry`` so callers can count and record it.
"""

from __future__ import annotations

import email.utils
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from tenacity import (
    AsyncRetrying,
    RetryCallState,
    Retrying,
    retry_if_exception,
    stop_after_attempt,
    wait_exponential,
    wait_random,
)

__all__ = [
    "Retried",
    "RetryPolicy",
    "retry_after",
    "sdk_transient",
    "sdk_wait_hint",
    "transient_status",
]

T = TypeVar("T")

#: what one retry was: the attempt that failed (1-based), why, and the wait before the next
Retried = Callable[[int, BaseException, float], None]


def transient_status(status: int | None) -> bool:
    """HTTP statuses worth asking again: 408, 429, 5xx."""
    return status is not None and (status in (408, 429) or 500 <= status <= 599)


def retry_after(headers: Mapping[str, str] | None) -> float | None:
    """The server's requested wait in seconds: ``retry-after-ms``, else ``Retry-After`` as
    seconds or an HTTP date (RFC 9110 §10.2.3); None when absent or unreadable."""
    if not headers:
        return None
    lowered = {str(k).lower(): str(v).strip() for k, v in headers.items()}
    for key, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = lowered.get(key)
        if not value:
            continue
        try:
            return max(float(value) / scale, 0.0)
        except ValueError:
            pass
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            continue
        return max(when.timestamp() - time.time(), 0.0)
    return None


def sdk_transient(sdk: Any) -> Callable[[BaseException], bool]:
    """Whether an exception of the model SDK ``sdk`` (``openai``, ``anthropic``: both raise
    ``APIConnectionError``, timeouts included, and ``APIStatusError``) is worth retrying."""

    def transient(exc: BaseException) -> bool:
        if isinstance(exc, sdk.APIConnectionError):
            return True
        return isinstance(exc, sdk.APIStatusError) and transient_status(exc.status_code)

    return transient


def sdk_wait_hint(exc: BaseException) -> float | None:
    """The wait the server asked for (``retry-after-ms`` / ``Retry-After``) on an SDK error."""
    response = getattr(exc, "response", None)
    return retry_after(getattr(response, "headers", None))


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to wait (module doc). ``max_retries`` 0: one attempt only."""

    max_retries: int = 2
    base_wait: float = 0.5
    max_wait: float = 30.0

    def __post_init__(self) -> None:
        if self.max_retries < 0 or self.base_wait < 0 or self.max_wait < 0:
            raise ValueError("max_retries, base_wait and max_wait must be >= 0")

    def retrying(
        self,
        transient: Callable[[BaseException], bool],
        wait_hint: Callable[[BaseException], float | None] = lambda exc: None,
        on_retry: Retried | None = None,
        sleep: Callable[[float], Awaitable[Any]] | None = None,
    ) -> AsyncRetrying:
        """A tenacity ``AsyncRetrying``: retries what ``transient`` accepts, waits what
        ``wait_hint`` reads from the failure (``Retry-After``) or backs off, re-raises the last
        failure when the retries are spent."""
        extra: dict[str, Any] = {} if sleep is None else {"sleep": sleep}
        return AsyncRetrying(**self._settings(transient, wait_hint, on_retry), **extra)

    def _settings(
        self,
        transient: Callable[[BaseException], bool],
        wait_hint: Callable[[BaseException], float | None],
        on_retry: Retried | None,
    ) -> dict[str, Any]:
        """tenacity's settings for this policy (the module doc's waits and stop)."""
        backoff = wait_exponential(multiplier=self.base_wait, max=self.max_wait) + wait_random(
            0, self.base_wait
        )

        def wait(state: RetryCallState) -> float:
            failure = state.outcome.exception() if state.outcome else None
            hinted = wait_hint(failure) if failure is not None else None
            return min(hinted if hinted is not None else backoff(state), self.max_wait)

        def before_sleep(state: RetryCallState) -> None:
            failure = state.outcome.exception() if state.outcome else None
            if on_retry is not None and failure is not None and state.next_action is not None:
                on_retry(state.attempt_number, failure, state.next_action.sleep)

        return {
            "stop": stop_after_attempt(self.max_retries + 1),
            "wait": wait,
            "retry": retry_if_exception(transient),
            "before_sleep": before_sleep,
            "reraise": True,
        }

    def call_sync(
        self,
        fn: Callable[[], T],
        transient: Callable[[BaseException], bool],
        wait_hint: Callable[[BaseException], float | None] = lambda exc: None,
        on_retry: Retried | None = None,
    ) -> T:
        """``fn()`` under this policy, for synchronous callers (tenacity's ``Retrying``)."""
        result: T = Retrying(**self._settings(transient, wait_hint, on_retry))(fn)
        return result

    async def call(
        self,
        fn: Callable[[], Awaitable[T]],
        transient: Callable[[BaseException], bool],
        wait_hint: Callable[[BaseException], float | None] = lambda exc: None,
        on_retry: Retried | None = None,
        sleep: Callable[[float], Awaitable[Any]] | None = None,
    ) -> T:
        """``fn()`` under this policy (see :meth:`retrying`). A first attempt that succeeds
        never builds tenacity's machinery (about 0.1 ms a call, issue 30: the HTTP provider
        makes some 330 calls a run); one that fails is handed to tenacity as its first
        attempt, so what is retried, the waits and ``on_retry`` are the same."""
        try:
            return await fn()
        except Exception as exc:  # noqa: BLE001 - tenacity decides, as for every attempt
            first: list[Exception] = [exc]

        async def once() -> T:
            if first:
                raise first.pop()
            return await fn()

        result: T = await self.retrying(transient, wait_hint, on_retry, sleep)(once)
        return result
