"""A provider implemented by a Python object in this process.

:class:`InProcessProvider` wraps any object with the Provider method names
(``conformance``, ``provision``, ``inject_state``, ``snapshot``, ``observe``,
``teardown``, optionally ``aclose``), sync or async, and makes it a well-behaved
:class:`~oasis_eval.contract.Provider`:

- **sync methods run in a worker thread** (``anyio.to_thread.run_sync``) so a provider
  that shells out to ``kubectl`` or sleeps does not stall other scenarios under
  ``--parallel``; pass ``threaded=False`` for cheap, non-blocking implementations (test
  fakes), which are then called directly on the event loop. A sync method that returns
  an awaitable is awaited.
- **results are validated** into the protocol types: a dict or model becomes
  ``ConformanceResponse`` / ``ProvisionResult`` / ``Snapshot`` / ``ObservationResponse``.
  An observation without ``evidence_source`` is a fault (05 §1.1).
- **exceptions become faults**: anything raised by ``conformance`` becomes
  :class:`PreflightError` (the run has not started, 08 §3.8.4); anything raised by the
  other methods becomes :class:`ProviderFault` naming the call, the original chained.
  Existing ``HarnessFault``s pass through unchanged. A missing method is a fault when
  called; ``aclose`` is optional.

- **every call is bounded** (issue 11 H5): ``timeout`` seconds (default
  :data:`DEFAULT_CALL_TIMEOUT`), per call overridable with ``timeouts`` (keys: the method
  names); a call that does not return in time is a :class:`ProviderFault` (conformance: a
  :class:`PreflightError`), i.e. a harness fault, never the agent's. A sync method running
  in a worker thread cannot be stopped: its thread is abandoned, and if it was a
  provision that later completes, the environment it made is torn down. ``threaded=False``
  sync methods run on the event loop and cannot be bounded.

- **agents in another process** (``cli:``, ``http://``, ``mcp-*``): before the run the engine
  calls :meth:`InProcessProvider.agent_access` (engine/access.py), passed on to the object's
  own ``agent_access(remote)`` when it has one (the simulator then starts its loopback agent
  listener, so those agents reach their environment without ``oasis provider serve``; its
  ``aclose`` stops it). An object without it says nothing, and each out-of-process agent
  adapter refuses an endpoint it cannot reach when a scenario hands it out.

The object receives exactly what the protocol carries (e.g. the
:class:`ProvisionRequest` model with the scenario-shaped state); there is no wire
translation in process.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import math
import threading
from collections.abc import Mapping
from typing import Any

import anyio
from pydantic import BaseModel, ValidationError

from ...contract import (
    HarnessFault,
    ProviderFault,
    ProvisionRequest,
    ProvisionResult,
    Snapshot,
)
from ...engine.refusals import PreflightError
from ...spec.provider import ConformanceResponse, ObservationResponse

__all__ = ["DEFAULT_CALL_TIMEOUT", "InProcessProvider"]

#: seconds any one provider call may take (a hung provider must not hang ``oasis run``)
DEFAULT_CALL_TIMEOUT = 300.0
CALLS = (
    "conformance",
    "provision",
    "inject_state",
    "snapshot",
    "observe",
    "teardown",
    "agent_access",
    "aclose",
    "close",
)


def _as_dict(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="python")
    return value


class InProcessProvider:
    """Adapt a Python object to the Provider protocol (see the module docstring)."""

    def __init__(
        self,
        impl: Any,
        *,
        threaded: bool = True,
        name: str | None = None,
        timeout: float = DEFAULT_CALL_TIMEOUT,
        timeouts: Mapping[str, float] | None = None,
    ) -> None:
        self.impl = impl
        self.threaded = threaded
        self._name = name or getattr(impl, "name", None) or type(impl).__name__
        self.timeouts = {call: _seconds(timeout, "timeout") for call in CALLS}
        for call, value in (timeouts or {}).items():
            if call not in CALLS:
                raise ValueError(
                    f"provider `timeouts`: unknown call {call!r} (known: {', '.join(CALLS[:-1])})"
                )
            self.timeouts[call] = _seconds(value, f"timeouts.{call}")

    @property
    def name(self) -> str:
        """A human-readable name for messages."""
        return f"in-process provider {self._name}"

    def __repr__(self) -> str:
        return f"InProcessProvider({self.impl!r})"

    async def _invoke(self, method: str, call: str, *args: Any) -> Any:
        fn = getattr(self.impl, method, None)
        if fn is None or not callable(fn):
            raise ProviderFault(f"{call}: {self.name} has no `{method}` method")
        limit = self.timeouts.get(method, DEFAULT_CALL_TIMEOUT)
        late = _LateResult(self, method)
        try:
            with anyio.fail_after(limit):
                if inspect.iscoroutinefunction(fn):
                    result = await fn(*args)
                elif self.threaded:
                    result = await anyio.to_thread.run_sync(
                        late.wrap(functools.partial(fn, *args)), abandon_on_cancel=True
                    )
                else:
                    result = fn(*args)
                if inspect.isawaitable(result):
                    result = await result
        except TimeoutError as exc:
            await late.abandon()
            raise ProviderFault(
                f"{call}: {self.name} did not answer within {limit:g}s "
                f"(in-process provider timeout; a harness fault)"
            ) from exc
        except HarnessFault:
            raise
        except PreflightError:
            raise
        except Exception as exc:
            raise ProviderFault(f"{call}: {self.name} raised {type(exc).__name__}: {exc}") from exc
        return result

    def _teardown_late(self, value: Any) -> None:
        """Tear down what a provision abandoned on timeout made after all (called in its thread)."""
        env_id = getattr(value, "environment_id", None) or (
            value.get("environment_id") if isinstance(value, dict) else None
        )
        teardown = getattr(self.impl, "teardown", None)
        if not env_id or not callable(teardown) or inspect.iscoroutinefunction(teardown):
            return
        with contextlib.suppress(Exception):  # best effort: nobody is waiting for this thread
            teardown(env_id)

    def _validate(self, call: str, model: type[BaseModel], value: Any) -> Any:
        if isinstance(value, model):
            return value
        try:
            return model.model_validate(_as_dict(value))
        except ValidationError as exc:
            raise ProviderFault(
                f"{call}: {self.name} returned a malformed {model.__name__}: {exc}"
            ) from exc

    # ---- Provider protocol ------------------------------------------------

    async def conformance(self, profile_id: str) -> ConformanceResponse:
        """The provider's conformance declaration for ``profile_id`` (preflight)."""
        call = f"preflight: conformance for {profile_id}"
        try:
            value = await self._invoke("conformance", call, profile_id)
            return self._validate(call, ConformanceResponse, value)
        except PreflightError:
            raise
        except HarnessFault as exc:
            raise PreflightError(str(exc)) from exc

    async def provision(self, request: ProvisionRequest) -> ProvisionResult:
        """Provision through the wrapped object; an ``error`` status is a provider fault."""
        call = f"provision of scenario {request.scenario_id}"
        value = await self._invoke("provision", call, request)
        if isinstance(value, dict) and value.get("status") == "error":
            message = value.get("error") or value.get("message") or "no error message"
            raise ProviderFault(f"{call}: provider reported an error: {message}")
        if isinstance(value, dict):
            value = {k: v for k, v in value.items() if k not in ("status", "error")}
        return self._validate(call, ProvisionResult, value)

    async def inject_state(self, environment_id: str, state: list[dict[str, Any]]) -> None:
        """Inject declared state entries through the wrapped object."""
        await self._invoke(
            "inject_state", f"inject-state into environment {environment_id}", environment_id, state
        )

    async def snapshot(
        self, environment_id: str, resources: list[dict[str, Any]] | None = None
    ) -> Snapshot:
        """A validated state snapshot from the wrapped object."""
        call = f"state-snapshot of environment {environment_id}"
        value = await self._invoke("snapshot", call, environment_id, resources)
        return self._validate(call, Snapshot, value)

    async def observe(
        self, environment_id: str, observation_type: str, parameters: dict[str, str]
    ) -> ObservationResponse:
        """A validated observation; it must name its evidence source (05 §1.1)."""
        call = f"observe {observation_type} in environment {environment_id}"
        value = await self._invoke("observe", call, environment_id, observation_type, parameters)
        raw = _as_dict(value)
        if isinstance(raw, dict) and not raw.get("evidence_source"):
            raise ProviderFault(f"{call}: observation response has no evidence_source (05 §1.1)")
        return self._validate(call, ObservationResponse, value)

    async def teardown(self, environment_id: str) -> None:
        """Tear the environment down through the wrapped object."""
        await self._invoke("teardown", f"teardown of environment {environment_id}", environment_id)

    async def agent_access(self, remote: bool) -> list[str] | None:
        """The wrapped object's ``agent_access(remote)`` (see the module docstring), or None
        when it has none: the URL schemes its ``agent_endpoint`` will have."""
        if not callable(getattr(self.impl, "agent_access", None)):
            return None
        value = await self._invoke("agent_access", f"preparing agent access to {self.name}", remote)
        return None if value is None else [str(s) for s in value]

    async def aclose(self) -> None:
        """Close the wrapped object when it has ``aclose`` or ``close``."""
        if callable(getattr(self.impl, "aclose", None)):
            await self._invoke("aclose", f"closing {self.name}")
        elif callable(getattr(self.impl, "close", None)):
            await self._invoke("close", f"closing {self.name}")


def _seconds(value: Any, label: str) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or value <= 0
    ):
        raise ValueError(f"provider `{label}` must be a positive number of seconds, not {value!r}")
    return float(value)


class _LateResult:
    """Wraps a threaded sync call: if the caller gave up on a provision (timeout) before it
    returned, the environment it returns anyway is torn down (no leak)."""

    def __init__(self, provider: InProcessProvider, method: str) -> None:
        self.provider, self.method = provider, method
        self.lock = threading.Lock()
        self.abandoned = self.done = False
        self.result: Any = None

    def wrap(self, fn: Any) -> Any:
        def run() -> Any:
            result = fn()
            with self.lock:
                self.done, self.result, late = True, result, self.abandoned
            if late and self.method == "provision":
                self.provider._teardown_late(result)
            return result

        return run

    async def abandon(self) -> None:
        with self.lock:
            self.abandoned, finished = True, self.done
        if finished and self.method == "provision":  # it returned just as the caller gave up
            with anyio.move_on_after(5):
                await anyio.to_thread.run_sync(
                    self.provider._teardown_late, self.result, abandon_on_cancel=True
                )
