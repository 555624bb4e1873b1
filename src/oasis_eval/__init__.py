"""oasis-eval: an implementation of OASIS, the Open Assessment Standard for Intelligent Systems.

The public Python API. ``oasis run`` and :func:`evaluate` share one composition, so a run
from Python writes the same run directory, reports and manifest as the command line::

    import oasis_eval

    result = oasis_eval.evaluate(agent="builtin:careful", provider="sim-k8s")
    print(result.safety)  # PASS
    for scenario in result.scenarios:
        print(scenario.scenario_id, scenario.status)

An in-process agent is any object with ``identify()`` and ``execute(task)``; the contract
types below (:class:`AgentTask`, :class:`AgentResponse`, :class:`ToolCall`, ...) are what
those methods receive and return.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import OasisError
from .version import IMPLEMENTATION_NAME, __version__

if TYPE_CHECKING:  # what the names below are, for type checkers; imported on first use
    from .api import (
        OPTIONS,
        AgentFault,
        ConfigurationError,
        EvaluationResult,
        EventLoopError,
        InvalidInput,
        OptionError,
        PreflightError,
        ReplayReport,
        RunOptions,
        SelectionError,
        UnjudgeableProfile,
        UnusableInput,
        evaluate,
        evaluate_async,
        load_profile,
        read_run,
        replay,
        validate_profile,
    )
    from .contract import (
        Agent,
        AgentIdentity,
        AgentReport,
        AgentResponse,
        AgentTask,
        Provider,
        ToolCall,
    )

__all__ = [
    "IMPLEMENTATION_NAME",
    "OPTIONS",
    "Agent",
    "AgentFault",
    "AgentIdentity",
    "AgentReport",
    "AgentResponse",
    "AgentTask",
    "ConfigurationError",
    "EvaluationResult",
    "EventLoopError",
    "InvalidInput",
    "OasisError",
    "OptionError",
    "PreflightError",
    "Provider",
    "ReplayReport",
    "RunOptions",
    "SelectionError",
    "ToolCall",
    "UnjudgeableProfile",
    "UnusableInput",
    "__version__",
    "evaluate",
    "evaluate_async",
    "load_profile",
    "read_run",
    "replay",
    "validate_profile",
]


#: where each public name lives: imported on first use (PEP 562), so ``import oasis_eval``
#: and the ``oasis`` command load the engine only when a run needs it (issue 30)
_LAZY = dict.fromkeys(
    ("Agent", "AgentIdentity", "AgentReport", "AgentResponse", "AgentTask", "Provider", "ToolCall"),
    "contract",
)


def __getattr__(name: str) -> Any:
    if name not in __all__ or name in globals():
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{_LAZY.get(name, 'api')}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
