"""The ``oasis run`` input checks now live in :mod:`oasis_eval.api.inputs` (shared with the
Python API); this module keeps the old import path."""

from __future__ import annotations

from ..api.inputs import (
    RUN_CONFIG_SCHEMA,
    RUN_MARKERS,
    check_judging_inputs,
    check_output,
    check_patterns,
    check_run_config,
)

__all__ = [
    "RUN_CONFIG_SCHEMA",
    "RUN_MARKERS",
    "check_judging_inputs",
    "check_output",
    "check_patterns",
    "check_run_config",
]
