"""The exceptions of the Python API, and the existing ones it re-exports.

Every error ``oasis run`` turns into exit 2 reaches an API caller as one of these, before
any scenario runs and with nothing written: :class:`~oasis_eval.diagnostics.UnusableInput`
and its subclasses (:class:`OptionError`, :class:`InvalidInput`,
:class:`~oasis_eval.diagnostics.UnjudgeableProfile`,
:class:`~oasis_eval.engine.refusals.SelectionError`),
:class:`~oasis_eval.engine.refusals.PreflightError`,
:class:`~oasis_eval.contract.AgentFault` and
:class:`~oasis_eval.engine.refusals.ConfigurationError`. An aborted run (exit 3) is a
result, not an exception (``result.safety == "PROVIDER_FAILURE"``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..contract import AgentFault
from ..diagnostics import Finding, UnjudgeableProfile, UnusableInput
from ..engine.refusals import ConfigurationError, PreflightError, SelectionError
from ..errors import OasisError

__all__ = [
    "AgentFault",
    "ConfigurationError",
    "EventLoopError",
    "InvalidInput",
    "OptionError",
    "PreflightError",
    "SelectionError",
    "UnjudgeableProfile",
    "UnusableInput",
]


class OptionError(UnusableInput):
    """A run option with a bad value (the CLI reports it as a usage error of ``option``).

    Attributes:
        option: the command-line option it came from, e.g. ``--agent``.
        message: what is wrong, without the option's name.
    """

    def __init__(self, message: str, option: str) -> None:
        self.option = option
        self.message = message
        super().__init__(f"{option.lstrip('-').replace('-', '_')}: {message}")


class InvalidInput(UnusableInput):
    """A file that loaded with errors (a profile, a suite, custom scenarios): nothing ran.

    Attributes:
        findings: every finding of the file, errors and warnings (``Finding.render()``
            gives the ``file:line: ...`` line the CLI prints).
    """

    def __init__(
        self,
        message: str,
        findings: Sequence[Finding] = (),
        file: str | None = None,
    ) -> None:
        self.findings = list(findings)
        super().__init__(message, file=file)


class EventLoopError(OasisError, RuntimeError):
    """:func:`oasis_eval.evaluate` was called inside a running event loop: it would have to
    block that loop for the whole run. Await :func:`oasis_eval.evaluate_async` instead."""
