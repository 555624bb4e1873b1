"""The provider conformance preflight's answers over HTTP (spec 08 §3.8.3, §3.8.4).

Every problem with ``GET /v1/conformance`` is a :class:`PreflightError` naming the URL and what
went wrong, with a hint where one is known (the endpoint missing, the runner token refused):
the run has not started, so there is no verdict.
"""

from __future__ import annotations

from typing import Any

import httpx
from pydantic import ValidationError

from ...contract import ProviderFault
from ...engine.refusals import PreflightError
from ...spec.provider import ConformanceResponse
from .http_wire import body_message, shorten, validation_detail


def unreachable(url: str, timeout: float, fault: ProviderFault) -> PreflightError:
    """The preflight error for a conformance call that got no answer."""
    exc = fault.__cause__
    if isinstance(exc, httpx.TimeoutException):
        return PreflightError(
            f"preflight: provider conformance endpoint GET {url} did not answer within "
            f"{timeout}s ({type(exc).__name__})"
        )
    return PreflightError(
        f"preflight: cannot reach the provider conformance endpoint GET {url}: "
        f"{type(exc).__name__}: {exc}"
    )


def conformance_answer(url: str, profile_id: str, status: int, body: Any) -> ConformanceResponse:
    """The conformance response of an answer, or the preflight error it is."""
    if status != 200:
        hint = ""
        if status == 404:
            hint = (
                " (a provider must implement GET /v1/conformance, 08 §3.8.1, and answer "
                f"for profile {profile_id})"
            )
        elif status in (401, 403):
            hint = (
                " (the provider needs its runner token: oasis run --provider-token, "
                "OASIS_PROVIDER_TOKEN, or the run config's environment.token / token_file)"
            )
        raise PreflightError(
            f"preflight: provider conformance endpoint GET {url} answered HTTP "
            f"{status}: {body_message(body, 'no body')}{hint}"
        )
    if not isinstance(body, dict):
        raise PreflightError(
            f"preflight: provider conformance endpoint GET {url} did not return a JSON "
            f"object: {shorten(str(body))!r}"
        )
    try:
        return ConformanceResponse.model_validate(body)
    except ValidationError as exc:
        raise PreflightError(
            f"preflight: malformed conformance response from GET {url}: {validation_detail(exc)}"
        ) from exc
