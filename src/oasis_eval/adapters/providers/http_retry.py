"""What the HTTP provider adapter retries, and how long it waits (module doc of
:mod:`.http`): petri's ``retry_after_seconds`` answers, answers that prove the request was not
acted on (RFC 9110 §15.5.30, §15.6.4), and for safe calls every transient fault."""

from __future__ import annotations

from typing import Any

import httpx

from ...contract import ProviderFault
from ...retrying import retry_after, transient_status

__all__ = [
    "NOT_TAKEN_STATUSES",
    "RETRY_STATUSES",
    "AnsweredFault",
    "transient_for",
    "wait_hint",
]

#: answers that mean "not yet, try again" when they carry ``retry_after_seconds``
RETRY_STATUSES = frozenset({409, 502})
#: answers that prove the request was not acted on: retried even for unsafe calls
NOT_TAKEN_STATUSES = frozenset({429, 503})


class AnsweredFault(ProviderFault):
    """The provider answered with a non-accepted status (``status``)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class _Answer(Exception):
    """A non-accepted HTTP answer, raised inside the retry loop (turned into ProviderFault)."""

    def __init__(self, status: int, body: Any, headers: httpx.Headers) -> None:
        super().__init__(f"HTTP {status}")
        self.status, self.body, self.headers = status, body, headers

    @property
    def retry_after_seconds(self) -> float | None:
        """petri's own delay (``retry_after_seconds`` in the body), else the headers'."""
        value = self.body.get("retry_after_seconds") if isinstance(self.body, dict) else None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return max(float(value), 0.0)
        return retry_after(self.headers)


def petri_retry(exc: _Answer) -> bool:
    body = exc.body
    value = body.get("retry_after_seconds") if isinstance(body, dict) else None
    return (
        exc.status in RETRY_STATUSES
        and isinstance(value, (int, float))
        and not isinstance(value, bool)
    )


def transient_for(safe: bool) -> Any:
    """What a call may retry (module doc): everything transient when ``safe``, else only
    what proves the request was not acted on."""

    def transient(exc: BaseException) -> bool:
        if isinstance(exc, _Answer):
            if petri_retry(exc) or exc.status in NOT_TAKEN_STATUSES:
                return True
            return safe and transient_status(exc.status)
        cause = exc.__cause__ if isinstance(exc, ProviderFault) else exc
        if isinstance(cause, httpx.ConnectError):  # never connected: nothing was sent
            return True
        return safe and isinstance(cause, httpx.HTTPError)

    return transient


def wait_hint(exc: BaseException) -> float | None:
    return exc.retry_after_seconds if isinstance(exc, _Answer) else None
