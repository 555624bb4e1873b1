"""The one base of every exception oasis-eval raises to its callers (issue 31).

``except oasis_eval.OasisError`` catches any error of ours, whichever layer raised it, and lets
everything else (a bug in a plugin, ``KeyboardInterrupt``) through. Each subclass keeps the
built-in base it had (``ValueError``, ``RuntimeError``, ``ImportError``), so existing
``except`` clauses keep working. The module sits below every layer, so any layer may use it.
"""

from __future__ import annotations

__all__ = ["OasisError"]


class OasisError(Exception):
    """Base of every public oasis-eval exception (input errors, harness faults, plugin
    errors); the CLI's exit code depends on the subclass, never on this base alone."""
