"""Publishing a run directory now lives in :mod:`oasis_eval.api.publish` (shared with the
Python API); this module keeps the old import path."""

from __future__ import annotations

from ..api.publish import absolute, publish, staging_for

__all__ = ["absolute", "publish", "staging_for"]
