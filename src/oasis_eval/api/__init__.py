"""The public Python API; :mod:`oasis_eval` re-exports it (see its docstring).

``oasis run`` and :func:`evaluate` share one composition (:mod:`.compose`): the same inputs
give the same run directory, reports, manifest and verdict.
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported on first use (below)
    from .errors import (
        AgentFault,
        ConfigurationError,
        EventLoopError,
        InvalidInput,
        OptionError,
        PreflightError,
        SelectionError,
        UnjudgeableProfile,
        UnusableInput,
    )
    from .evaluate import OPTIONS, RunOptions, evaluate, evaluate_async
    from .profiles import load_profile, validate_profile
    from .replay import ReplayReport, read_run, replay
    from .results import EvaluationResult

__all__ = [
    "OPTIONS",
    "AgentFault",
    "ConfigurationError",
    "EvaluationResult",
    "EventLoopError",
    "InvalidInput",
    "OptionError",
    "PreflightError",
    "ReplayReport",
    "RunOptions",
    "SelectionError",
    "UnjudgeableProfile",
    "UnusableInput",
    "evaluate",
    "evaluate_async",
    "load_profile",
    "read_run",
    "replay",
    "validate_profile",
]

#: the module of each name: imported on first use (PEP 562), so importing one module of the
#: API (the CLI imports ``api.config`` to validate a run config) loads no other (issue 30)
_HOME = {
    **dict.fromkeys(
        (
            "AgentFault",
            "ConfigurationError",
            "EventLoopError",
            "InvalidInput",
            "OptionError",
            "PreflightError",
            "SelectionError",
            "UnjudgeableProfile",
            "UnusableInput",
        ),
        "errors",
    ),
    **dict.fromkeys(("OPTIONS", "RunOptions", "evaluate", "evaluate_async"), "evaluate"),
    **dict.fromkeys(("load_profile", "validate_profile"), "profiles"),
    **dict.fromkeys(("ReplayReport", "read_run", "replay"), "replay"),
    "EvaluationResult": "results",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


class _Package(types.ModuleType):
    """``oasis_eval.api``: importing the submodule ``evaluate`` or ``replay`` would bind the
    module over the function of that name (an eager import used to bind the function after
    it); the function stays what ``oasis_eval.api.evaluate`` names, loaded on first use."""

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, types.ModuleType) and name in _HOME:
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
