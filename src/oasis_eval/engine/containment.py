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
import copy
from typing import Any

from pydantic import BaseModel, ValidationError

from ..spec.provider import ConformanceResponse, ObservationResponse
from .preflight import PreflightError
from .protocols import (
    Agent,
    AgentFault,
    AgentReport,
    AgentResponse,
    AgentTask,
    AgentUnreachable,
    HarnessFault,
    ProviderFault,
    ProvisionRequest,
    ProvisionResult,
    Snapshot,
)


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
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _shape(value: Any, model: type[BaseModel], what: str) -> Any:
    if isinstance(value, model):
        return value
    try:
        return model.model_validate(value)
    except ValidationError as exc:
        raise ProviderFault(f"provider {what} returned a malformed answer: {exc.error_count()} "
                            f"error(s), first: {exc.errors(include_url=False)[0]['msg']}") from None


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
        result = _shape(await self._call("provision", self.inner.provision, request), ProvisionResult, "provision")
        if result.environment_id in self.live:  # not torn down here: it belongs to the scenario that holds it
            raise ProviderFault(f"provision of scenario {request.scenario_id} answered environment id "
                                f"{result.environment_id!r}, which another scenario of this run still holds: "
                                "their evidence could not be told apart")
        self.live.add(result.environment_id)
        return result

    async def inject_state(self, environment_id: str, state: list[dict[str, Any]]) -> None:
        await self._call("inject-state", self.inner.inject_state, environment_id, state)

    async def snapshot(self, environment_id: str, resources: list[dict[str, Any]] | None = None) -> Snapshot:
        got = _shape(await self._call("snapshot", self.inner.snapshot, environment_id, resources), Snapshot, "snapshot")
        _same("snapshot", "environment", environment_id, got.environment_id)
        # the state as it was when taken: an in-process provider may hand out its live objects,
        # which the agent's later calls would rewrite (pre and post would then always agree)
        return got.model_copy(update={"resources": copy.deepcopy(got.resources)})

    async def observe(self, environment_id: str, observation_type: str,
                      parameters: dict[str, str]) -> ObservationResponse:
        got = await self._call("observe", self.inner.observe, environment_id, observation_type, parameters)
        got = _shape(got, ObservationResponse, "observe")
        _same(f"observe {observation_type}", "environment", environment_id, got.environment_id)
        _same(f"observe {observation_type}", "observation type", observation_type,
              str(getattr(got.observation_type, "value", got.observation_type)))
        return got

    async def teardown(self, environment_id: str) -> None:
        try:
            await self._call("teardown", self.inner.teardown, environment_id)
        finally:
            self.live.discard(environment_id)

    async def aclose(self) -> None:
        await self._call("close", self.inner.aclose)


def _same(call: str, what: str, asked: str, answered: str) -> None:
    if answered != asked:
        raise ProviderFault(f"provider {call} was asked for {what} {asked!r} and answered for {answered!r}: "
                            "evidence that cannot be attributed to the scenario (05 §1.1)")


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
            raise AgentFault(f"the agent's identify() returned {type(report).__name__}, "
                             "not an identity report") from None
    return report


class AgentOutcome(BaseModel):
    """What one execute call gave: the answer, or the fault that replaced it."""

    response: AgentResponse
    #: the agent crashed, hung or answered outside the protocol: its answer is taken as empty
    fault: str | None = None
    #: nothing was exchanged with the agent at all
    unreached: bool = False


async def ask_agent(agent: Agent, task: AgentTask) -> AgentOutcome:
    """One execute call with every fault of agent code contained (never PROVIDER_FAILURE)."""
    try:
        response = await agent.execute(task)
    except AgentUnreachable as exc:
        return AgentOutcome(response=AgentResponse(), fault=f"the agent was never reached: {exc}",
                            unreached=True)
    except BaseException as exc:
        if passes_through(exc):
            raise
        text = str(exc) if isinstance(exc, AgentFault) else f"the agent raised {describe(exc)}"
        return AgentOutcome(response=AgentResponse(), fault=text)
    if not isinstance(response, AgentResponse):
        try:
            response = AgentResponse.model_validate(response)
        except ValidationError:
            return AgentOutcome(response=AgentResponse(),
                                fault=f"the agent returned {type(response).__name__}, not a response")
    return AgentOutcome(response=response)
