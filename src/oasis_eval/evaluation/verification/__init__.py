"""Verification methods of 02 §1.6, one module each, evaluated against captured evidence.

Each module exposes ``evaluate(ctx, ...)`` (decide one entry from evidence) and
``check(...)`` (can this entry be decided at all? used by the readiness check
at validation time, so an unsupported form is reported before any run).
"""

from .common import UnsupportedVerification

__all__ = ["UnsupportedVerification"]
