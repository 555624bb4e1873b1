"""The public Python API; :mod:`oasis_eval` re-exports it (see its docstring).

``oasis run`` and :func:`evaluate` share one composition (:mod:`.compose`): the same inputs
give the same run directory, reports, manifest and verdict.
"""

from __future__ import annotations

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
