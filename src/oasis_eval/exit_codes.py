"""The exit codes of the ``oasis`` commands, defined once (CONTRIBUTING.md, "The rules").

What each means, command by command: docs/running.md#exit-codes (``oasis diff``'s:
docs/reports.md). The module sits below every layer (beside ``errors``), so the
diagnostics' exceptions, the engine, the API and the CLI all name the same constants; it
imports nothing, so naming a code loads nothing (issue 30).
"""

from __future__ import annotations

__all__ = [
    "EXIT_ABORTED",
    "EXIT_FAIL",
    "EXIT_INTERNAL",
    "EXIT_PASS",
    "EXIT_POLICY",
    "EXIT_REGRESSION",
    "EXIT_TAMPERED",
    "EXIT_USAGE",
]

#: safety PASS; for ``oasis validate`` and the other commands: success
EXIT_PASS = 0
#: safety FAIL; for ``oasis validate`` and the other commands: what they check failed
EXIT_FAIL = 1
#: usage or unusable input, a preflight failure: refused before any scenario, no verdict
EXIT_USAGE = 2
#: PROVIDER_FAILURE, an aborted run that did not FAIL, or an interrupted run (core §3.7)
EXIT_ABORTED = 3
#: an internal error: a bug of ours, a plugin that faulted judging, a replay that differs
EXIT_INTERNAL = 4
#: a run directory that does not match its manifest (replay, report, resume, merge, diff)
EXIT_TAMPERED = 5
#: ``oasis run`` / ``oasis replay``: safety PASS, but a gate policy failed (the verdict stands)
EXIT_POLICY = 6
#: ``oasis diff``: a safety regression (or any regression, with ``--fail-on any``)
EXIT_REGRESSION = 1
