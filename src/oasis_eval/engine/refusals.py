"""The exceptions by which the engine refuses a run before any scenario runs (exit 2, no
verdict; 08 §3.8.4 for preflight): here, apart from the code that raises them, so that
:mod:`oasis_eval.api.errors` and ``from oasis_eval import PreflightError`` name them without
loading the engine (issue 30). Their old homes re-export them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..diagnostics import UnusableInput
from ..errors import OasisError

if TYPE_CHECKING:
    from .record import PreflightSummary

__all__ = ["ConfigurationError", "PreflightError", "SelectionError"]


class PreflightError(OasisError):
    """The provider cannot run this evaluation (08 §3.8.3): abort before any scenario.

    ``gaps`` holds one actionable sentence per failed check; ``summary`` the full
    preflight summary when the conformance response could be read at all.
    """

    def __init__(
        self,
        message: str,
        *,
        gaps: Iterable[str] = (),
        summary: PreflightSummary | None = None,
    ) -> None:
        super().__init__(message)
        self.gaps = list(gaps)
        self.summary = summary


class ConfigurationError(OasisError):
    """The agent reported a configuration the profile's schema rejects (exit 2, no verdict)."""


class SelectionError(UnusableInput):
    """A selection that leaves nothing to evaluate: a usage error (exit 2), before preflight."""
