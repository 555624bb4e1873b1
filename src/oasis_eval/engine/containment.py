"""Containing what agent and provider code raise, per scenario (core §3.6, §3.7).

Only the cancellation of *our* scope may leave a scenario: an abort, or the user's
Ctrl-C, which ``asyncio.Runner`` delivers as a cancellation of the main task. Everything
else agent or provider code raises — ``Exception``, ``SystemExit``, ``GeneratorExit``,
``KeyboardInterrupt``, a ``CancelledError`` it raised itself, exception groups — is
turned into a fault of the side that raised it (a ``KeyboardInterrupt`` raised while we
are being cancelled is a second Ctrl-C: the pending cancellation still ends the run):

- provider code -> :class:`ProviderFault` (a harness fault: PROVIDER_FAILURE, abort);
- agent code -> an agent fault recorded with the scenario, which is still judged on the
  environment's evidence (an agent can never escape a FAIL by crashing).
"""

from __future__ import annotations

import asyncio
import math
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NoReturn, TypeVar

from pydantic import BaseModel, ValidationError

from ..contract import (
    Agent,
    AgentFault,
    AgentReport,
    AgentResponse,
    AgentTask,
    AgentUnreachable,
    AgentUnusable,
    HarnessFault,
    ProviderFault,
    ProvisionRequest,
    ProvisionResult,
    Snapshot,
)
from ..spec.provider import ConformanceResponse, ObservationResponse
from .refusals import PreflightError


def being_cancelled() -> bool:
    """True while our own scope cancels the current task (anyio and asyncio count the
    requests in ``Task.cancelling()``); a ``CancelledError`` raised with no request pending
    was raised by the code we called, not by us."""
    try:
        task = asyncio.current_task()
    except RuntimeError:
        return False
    return task is not None and task.cancelling() > 0


def passes_through(exc: BaseException) -> bool:
    """What must never be contained: our own cancellation (an abort, or the user's Ctrl-C)."""
    return isinstance(exc, (asyncio.CancelledError, BaseExceptionGroup)) and being_cancelled()


def describe(exc: BaseException) -> str:
    """``Type: message`` of what foreign code raised (its ``__str__`` may raise too, or
    return lone surrogates: the description is always writable text)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    try:
        text = str(exc).strip()
    except BaseException:  # noqa: BLE001 - an exception whose __str__ raises
        text = "<unprintable message>"
    name = safe_text(type(exc).__name__)
    return f"{name}: {safe_text(text)}" if text else name


#: the pydantic model a provider's or agent's answer is checked against
_Model = TypeVar("_Model", bound=BaseModel)


def _shape(value: Any, model: type[_Model], what: str) -> _Model:
    if isinstance(value, model):
        return value
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        raise ProviderFault(
            f"provider {what} returned a malformed answer: {exc.error_count()} "
            f"error(s), first: {exc.errors(include_url=False)[0]['msg']}"
        ) from None


class GuardedProvider:
    """A provider whose every call either returns a well-formed answer or raises
    :class:`ProviderFault` (or our own cancellation). Wrapping is idempotent.

    Well-formed includes *attributable* (05 §1.1, core §3.7): a snapshot or observation that
    names another environment than the one asked, or an observation of another type, is
    evidence of something else, and a provision that answers the id of an environment still
    live in this run would mix two scenarios' evidence; each is a :class:`ProviderFault`."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        #: environment ids provisioned through this guard and not yet torn down
        self.live: set[str] = set()

    def __getattr__(self, name: str) -> Any:  # fakes' counters, ids, ... stay reachable
        return getattr(self.inner, name)

    async def _call(self, what: str, fn: Any, *args: Any) -> Any:
        try:
            return await fn(*args)
        except ProviderFault:
            raise
        except BaseException as exc:
            if passes_through(exc):
                raise
            if isinstance(exc, HarnessFault):
                raise ProviderFault(str(exc)) from exc
            raise ProviderFault(f"provider {what} raised {describe(exc)}") from exc

    async def conformance(self, profile_id: str) -> ConformanceResponse:
        try:  # an adapter's own preflight diagnosis (e.g. "needs its runner token") reaches the user as is
            got = await self._call("conformance", self.inner.conformance, profile_id)
        except ProviderFault as exc:
            if isinstance(exc.__cause__, PreflightError):
                raise exc.__cause__ from None
            raise
        return _shape(got, ConformanceResponse, "conformance")

    async def provision(self, request: ProvisionRequest) -> ProvisionResult:
        result = _shape(
            await self._call("provision", self.inner.provision, request),
            ProvisionResult,
            "provision",
        )
        if (
            result.environment_id in self.live
        ):  # not torn down here: it belongs to the scenario that holds it
            raise ProviderFault(
                f"provision of scenario {request.scenario_id} answered environment id "
                f"{result.environment_id!r}, which another scenario of this run still holds: "
                "their evidence could not be told apart"
            )
        self.live.add(result.environment_id)
        return result

    async def inject_state(self, environment_id: str, state: list[dict[str, Any]]) -> None:
        await self._call("inject-state", self.inner.inject_state, environment_id, state)

    async def snapshot(
        self, environment_id: str, resources: list[dict[str, Any]] | None = None
    ) -> Snapshot:
        got = _shape(
            await self._call("snapshot", self.inner.snapshot, environment_id, resources),
            Snapshot,
            "snapshot",
        )
        _same("snapshot", "environment", environment_id, got.environment_id)
        # the state as it was when taken: an in-process provider may hand out its live objects,
        # which the agent's later calls would rewrite (pre and post would then always agree).
        # A provider whose snapshots are already its caller's own (decoded from the wire, or
        # cloned by the provider) says so with ``snapshots_detached`` and is not copied again
        # (issue 30: the copy was 12% of a run's CPU).
        if getattr(self.inner, "snapshots_detached", False) is True:
            return got
        return got.model_copy(update={"resources": detached(got.resources)})

    async def observe(
        self, environment_id: str, observation_type: str, parameters: dict[str, str]
    ) -> ObservationResponse:
        got = await self._call(
            "observe", self.inner.observe, environment_id, observation_type, parameters
        )
        got = _shape(got, ObservationResponse, "observe")
        _same(f"observe {observation_type}", "environment", environment_id, got.environment_id)
        _same(
            f"observe {observation_type}",
            "observation type",
            observation_type,
            str(getattr(got.observation_type, "value", got.observation_type)),
        )
        return got

    def plan_capture(
        self,
        environment_id: str,
        window: dict[str, str],
        resource_states: list[dict[str, str]],
        served_calls: bool,
    ) -> None:
        """Announce the calls after the agent (the served record when ``served_calls``, the
        audit log of ``window``, ``resource_states``, the final snapshot) to a provider that
        can answer them in one exchange (an optional method: the HTTP adapter's
        ``oasis-capture``, issue 30); each call is still made, and checked, as before."""
        plan = getattr(type(self.inner), "plan_capture", None)
        if plan is None:
            return
        try:
            self.inner.plan_capture(environment_id, window, resource_states, served_calls)
        except Exception as exc:
            raise ProviderFault(f"provider plan_capture raised {describe(exc)}") from exc

    async def teardown(self, environment_id: str) -> None:
        try:
            await self._call("teardown", self.inner.teardown, environment_id)
        finally:
            self.live.discard(environment_id)

    async def aclose(self) -> None:
        await self._call("close", self.inner.aclose)


def _same(call: str, what: str, asked: str, answered: str) -> None:
    if answered != asked:
        raise ProviderFault(
            f"provider {call} was asked for {what} {asked!r} and answered for {answered!r}: "
            "evidence that cannot be attributed to the scenario (05 §1.1)"
        )


def guard_provider(provider: Any) -> GuardedProvider:
    return provider if isinstance(provider, GuardedProvider) else GuardedProvider(provider)


async def identify_agent(agent: Agent) -> AgentReport:
    """The agent's identity report; anything else it raises or returns is an AgentFault
    (before any scenario: no verdict, exit 2)."""
    try:
        report = await agent.identify()
    except AgentFault:
        raise
    except BaseException as exc:
        if passes_through(exc):
            raise
        raise AgentFault(f"the agent raised in identify(): {describe(exc)}") from exc
    if not isinstance(report, AgentReport):
        try:
            report = AgentReport.model_validate(report)
        except ValidationError:
            raise AgentFault(
                f"the agent's identify() returned {type(report).__name__}, not an identity report"
            ) from None
    return _plain_model(report, AgentReport, "the agent's identity report")


#: an agent's answer nests at most this deep (the wire documents need a handful of levels)
MAX_ANSWER_DEPTH = 64
#: and holds at most this many values in all
MAX_ANSWER_NODES = 1_000_000
_INT_BOUND = 2**63


def safe_text(text: str) -> str:
    """``text`` with every code point UTF-8 can carry: lone surrogates (which an in-process
    agent can return, or JSON can spell as ``\\ud800``) become U+FFFD, so that no file of the
    run fails to be written after the run (which would lose its verdict)."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def detached(value: Any) -> Any:
    """A copy of JSON-like ``value`` sharing no dict or list with it (faster than
    ``copy.deepcopy``, which memoises every node): strings, numbers and other leaves are
    immutable and shared."""
    if isinstance(value, dict):
        return {key: detached(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [detached(item) for item in value]
    return value


def plain_json(value: Any, what: str) -> Any:
    """A copy of what agent code returned as plain JSON values (dict with string keys, list,
    string, bool, 64-bit int, float, None) with valid Unicode, nested at most
    :data:`MAX_ANSWER_DEPTH` deep; anything else is an :class:`AgentFault` (an answer outside
    the protocol, 04 §1). The run keeps, redacts and writes what comes back, so an answer
    that cannot be written must be refused here, not after the run."""
    count = 0

    def walk(item: Any, depth: int) -> Any:
        nonlocal count
        count += 1
        if count > MAX_ANSWER_NODES:
            raise AgentFault(f"{what} holds more than {MAX_ANSWER_NODES} values")
        if item is None or isinstance(item, bool):
            return item
        if isinstance(item, str):
            return safe_text(item)
        if isinstance(item, int):
            if -_INT_BOUND <= item < _INT_BOUND:
                return int(item)
            raise AgentFault(f"{what} holds an integer outside 64 bits")
        if isinstance(item, float):
            return float(item) if math.isfinite(item) else str(item)
        if depth >= MAX_ANSWER_DEPTH:
            raise AgentFault(f"{what} nests deeper than {MAX_ANSWER_DEPTH} levels")
        if isinstance(item, dict):
            out = {}
            for key, sub in item.items():
                if not isinstance(key, str):
                    raise AgentFault(
                        f"{what} has a {type(key).__name__} key; JSON keys are strings"
                    )
                out[safe_text(key)] = walk(sub, depth + 1)
            return out
        if isinstance(item, (list, tuple)):
            return [walk(sub, depth + 1) for sub in item]
        raise AgentFault(f"{what} holds a {type(item).__name__}, which is not a JSON value")

    return walk(value, 0)


def _plain_model(model: BaseModel, shape: type[_Model], what: str) -> _Model:
    """``model`` re-validated from its plain-JSON copy (see :func:`plain_json`)."""
    try:
        data = model.model_dump(mode="python", warnings=False)
    except Exception as exc:  # noqa: BLE001 - pydantic's own depth limit, objects it cannot dump, ...
        raise AgentFault(f"{what} cannot be read: {safe_text(describe(exc))}") from None
    try:
        return shape.model_validate(plain_json(data, what))
    except ValidationError as exc:
        raise AgentFault(
            f"{what} breaks the protocol: {exc.error_count()} error(s), first: "
            f"{safe_text(str(exc.errors(include_url=False)[0]['msg']))}"
        ) from None


class AgentOutcome(BaseModel):
    """What one execute call gave: the answer, or the fault that replaced it."""

    response: AgentResponse
    #: the agent crashed, hung or answered outside the protocol: its answer is taken as empty
    fault: str | None = None
    #: nothing was exchanged with the agent at all
    unreached: bool = False
    #: the agent never worked at all (AgentUnusable): the run stops with no verdict
    unusable: bool = False


async def ask_agent(agent: Agent, task: AgentTask) -> AgentOutcome:
    """One execute call with every fault of agent code contained (never PROVIDER_FAILURE)."""
    try:
        response = await agent.execute(task)
    except AgentUnreachable as exc:
        return AgentOutcome(
            response=AgentResponse(),
            fault=safe_text(f"the agent was never reached: {exc}"),
            unreached=True,
            unusable=isinstance(exc, AgentUnusable),
        )
    except BaseException as exc:
        if passes_through(exc):
            raise
        text = str(exc) if isinstance(exc, AgentFault) else f"the agent raised {describe(exc)}"
        return AgentOutcome(response=_partial(exc), fault=safe_text(text))
    if not isinstance(response, AgentResponse):
        try:
            response = AgentResponse.model_validate(response)
        except (ValidationError, RecursionError):
            return AgentOutcome(
                response=AgentResponse(),
                fault=f"the agent returned {type(response).__name__}, not a response",
            )
    try:
        return AgentOutcome(response=_plain_model(response, AgentResponse, "the agent's answer"))
    except AgentFault as exc:
        return AgentOutcome(response=AgentResponse(), fault=str(exc))


def _partial(exc: BaseException) -> AgentResponse:
    """What an agent did before its fault, as it reports it (AgentFault.partial), else empty."""
    partial = exc.partial if isinstance(exc, AgentFault) else None
    if not isinstance(partial, AgentResponse):
        return AgentResponse()
    try:
        return _plain_model(partial, AgentResponse, "the agent's partial answer")
    except AgentFault:
        return AgentResponse()


class HardExitRefused(SystemExit):
    """``os._exit`` called by code running inside the run's process (an in-process agent)."""


@contextmanager
def no_hard_exit() -> Iterator[None]:
    """While a run runs, ``os._exit`` in this process raises :class:`HardExitRefused` instead
    of ending the process with no verdict (and, with ``os._exit(0)``, exit 0): raised in an
    agent's call, it is that agent's fault like any ``SystemExit``. A forked child still
    exits for real. Mitigation only: an in-process agent is code in the runner's process
    (docs/agents.md, "A hostile agent") and can end it by other means (a signal, ``ctypes``)."""
    real, runner_pid = os._exit, os.getpid()

    def refuse(status: int) -> NoReturn:
        if os.getpid() != runner_pid:
            real(status)
        raise HardExitRefused(f"os._exit({status}) refused during the run")

    modules = [m for m in (os, sys.modules.get("posix"), sys.modules.get("nt")) if m is not None]
    for module in modules:
        # posix / nt: ModuleType declares no _exit, but these modules have one
        module._exit = refuse  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for module in modules:
            module._exit = real  # type: ignore[attr-defined]  # as above: ModuleType has no _exit
