"""An agent living in the runner's own process (spec 04 §1: "any other mechanism").

:class:`PythonAgent` wraps any object with ``identify()`` and ``execute(task)``
methods, sync or async. Sync methods run in a worker thread (``anyio.to_thread``) so
that one slow agent never blocks the event loop or the other scenarios.

- ``identify()`` returns an :class:`AgentReport` or the wire document
  ``{"identity": {...}, "configuration": {...}, "tools"?, "mode"?}``.
- ``execute(task)`` receives the :class:`AgentTask` model (not the wire dict) and
  returns an :class:`AgentResponse` or the wire response dict (see :mod:`._wire`).
  An agent-level error is reported the same way as over HTTP: ``error=...`` in the
  response, and the agent is judged on the evidence.
- Anything escaping the wrapped object — any exception, and ``SystemExit``,
  ``GeneratorExit`` or a ``CancelledError`` it raised itself — is an :class:`AgentFault`:
  the runner got no protocol-conformant answer, exactly like an HTTP agent that crashed
  with a 500 and no error payload. The engine still judges the scenario on the
  environment's evidence with the answer taken as empty (a crash never escapes a FAIL).
  Only the cancellation of the caller's scope passes through (the user's Ctrl-C
  arrives as one).
- A timeout is an :class:`AgentFault` too. A sync method cannot be interrupted: its
  worker thread is abandoned and finishes in the background.

The wrapped object must itself honour statelessness (04 §1): one instance serves
every scenario, possibly concurrently.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import anyio
import anyio.to_thread

from ...contract import AgentFault, AgentIdentity, AgentReport, AgentResponse, AgentTask
from ...engine.containment import describe, passes_through
from ._wire import parse_report, parse_response

__all__ = ["DEFAULT_TIMEOUT", "FunctionAgent", "PythonAgent", "load_object"]

DEFAULT_TIMEOUT = 600.0
DEFAULT_IDENTITY_TIMEOUT = 30.0


def _import(module_name: str) -> Any:
    """Import ``module_name``; a top-level module not found is looked for in the directory
    ``oasis`` was started from too, as ``python -m`` does (issue 28: ``python:my_agent:Agent``
    beside ``my_agent.py`` works as documented, without ``PYTHONPATH=.``)."""
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        here = os.getcwd()
        if exc.name != module_name.partition(".")[0] or here in sys.path:
            raise
        sys.path.append(here)  # last: nothing installed is shadowed by a file here
        return importlib.import_module(module_name)


def load_object(path: str) -> Any:
    """Import ``"package.module:attr.sub"`` and return the attribute."""
    module_name, sep, attr_path = path.partition(":")
    if not sep or not module_name or not attr_path:
        raise ValueError(f"python agent object must be 'module:attribute', got {path!r}")
    module = _import(module_name)
    obj: Any = module
    for part in attr_path.split("."):
        obj = getattr(obj, part)
    return obj


class _RaisedInThread(Exception):
    """What a sync agent raised in its worker thread, boxed: a raw BaseException
    (GeneratorExit, KeyboardInterrupt, ...) must not cross into the event loop."""

    def __init__(self, inner: BaseException) -> None:
        super().__init__(type(inner).__name__)
        self.inner = inner


def _boxed(fn: Callable[..., Any], args: tuple[Any, ...]) -> tuple[bool, Any]:
    try:
        return True, fn(*args)
    except BaseException as exc:  # noqa: BLE001 - handed back to the loop as a value
        return False, exc


async def _call(fn: Callable[..., Any], *args: Any) -> Any:
    """Await an async callable; run a sync one in a worker thread (awaiting what it returns)."""
    if inspect.iscoroutinefunction(fn):
        result = fn(*args)
    else:
        ok, result = await anyio.to_thread.run_sync(
            lambda: _boxed(fn, args), abandon_on_cancel=True
        )
        if not ok:
            raise _RaisedInThread(result)
    if inspect.isawaitable(result):
        result = await result
    return result


def _describe(exc: BaseException) -> str:
    if isinstance(exc, _RaisedInThread):
        exc = exc.inner
    return describe(exc)


class PythonAgent:
    """The :class:`~oasis_eval.contract.Agent` protocol around an in-process object."""

    def __init__(
        self,
        obj: Any,
        *,
        timeout: float | None = DEFAULT_TIMEOUT,
        identity_timeout: float | None = DEFAULT_IDENTITY_TIMEOUT,
        identity: Mapping[str, Any] | AgentReport | None = None,
        name: str | None = None,
    ) -> None:
        if not callable(getattr(obj, "execute", None)):
            raise TypeError(f"{obj!r} has no execute(task) method")
        if identity is None and not callable(getattr(obj, "identify", None)):
            raise TypeError(f"{obj!r} has no identify() method (or pass identity=...)")
        self.obj = obj
        self.timeout = timeout
        self.identity_timeout = identity_timeout
        self._identity = identity
        self._name = name or f"python agent {type(obj).__module__}.{type(obj).__qualname__}"

    def __repr__(self) -> str:
        return f"PythonAgent({self.obj!r})"

    def replicable(self) -> bool:
        """What the wrapped object says (oasis_eval.contract.Replicable); False if it says
        nothing: only its author knows whether a copy in a worker process works alike."""
        says = getattr(self.obj, "replicable", None)
        return callable(says) and says() is True

    async def _guarded(
        self, what: str, timeout: float | None, fn: Callable[..., Any], *args: Any
    ) -> Any:
        try:
            with anyio.fail_after(timeout):
                return await _call(fn, *args)
        except TimeoutError:
            raise AgentFault(f"{self._name} did not answer within {timeout:g}s ({what})") from None
        except AgentFault:
            raise
        except BaseException as exc:
            if passes_through(exc):
                raise
            raise AgentFault(f"{self._name} raised in {what}(): {_describe(exc)}") from exc

    async def identify(self) -> AgentReport:
        """The configured identity, else the object's own ``identify()`` (05 §1.2)."""
        if self._identity is not None:
            data: Any = self._identity
        else:
            data = await self._guarded("identify", self.identity_timeout, self.obj.identify)
        if isinstance(data, AgentReport):
            return data
        if hasattr(data, "model_dump"):  # another pydantic model of the same shape
            data = data.model_dump(mode="json")
        return parse_report(data, self._name)

    async def execute(self, task: AgentTask) -> AgentResponse:
        """Call the object's ``execute`` under the timeout; mappings and models are accepted."""
        result = await self._guarded("execute", self.timeout, self.obj.execute, task)
        if isinstance(result, AgentResponse):
            return result
        if hasattr(result, "model_dump") and not isinstance(result, Mapping):
            result = result.model_dump(mode="json")
        return parse_response(result, self._name)

    async def aclose(self) -> None:
        """Call the wrapped object's ``aclose()`` or ``close()`` when it has one."""
        for attr in ("aclose", "close"):
            closer = getattr(self.obj, attr, None)
            if callable(closer):
                await self._guarded(attr, self.identity_timeout, closer)
                return


class _FunctionObject:
    def __init__(
        self, report: AgentReport, fn: Callable[[AgentTask], Any], replicable: bool
    ) -> None:
        self._report = report
        self._fn = fn
        self._replicable = replicable

    def replicable(self) -> bool:
        return self._replicable

    def identify(self) -> AgentReport:
        return self._report

    async def execute(self, task: AgentTask) -> Any:
        return await _call(self._fn, task)


class FunctionAgent(PythonAgent):
    """A one-function agent: ``fn(task) -> AgentResponse | dict``, sync or async.

    >>> agent = FunctionAgent("echo", "1.0.0", {"autonomy": "supervised"},
    ...                       lambda task: {"final_answer": task.prompt})

    ``replicable=True`` lets a copy of it run scenarios in a worker process (``--workers``,
    oasis_eval.contract.Replicable): say so only of a function that keeps nothing between
    calls and reaches nothing outside the process.
    """

    def __init__(
        self,
        name: str,
        version: str,
        configuration: Mapping[str, Any] | None,
        fn: Callable[[AgentTask], AgentResponse | Mapping[str, Any] | Awaitable[Any]],
        *,
        description: str | None = None,
        tools: list[str] | None = None,
        mode: str | None = None,
        timeout: float | None = DEFAULT_TIMEOUT,
        replicable: bool = False,
    ) -> None:
        report = AgentReport(
            identity=AgentIdentity(name=name, version=version, description=description),
            configuration=dict(configuration or {}),
            declared_tools=tools,
            declared_mode=mode,
        )
        super().__init__(
            _FunctionObject(report, fn, replicable),
            timeout=timeout,
            identity=report,
            name=f"python agent {name!r}",
        )
