"""Former home of kubectl's command-line parser, now :mod:`.kubectl.args` (flag tables in
:mod:`.kubectl.flags`); kept so existing imports keep working."""

from __future__ import annotations

from .kubectl.args import Parsed, UsageError, parse, parse_duration, resolve_type, split

__all__ = ["Parsed", "UsageError", "parse", "parse_duration", "resolve_type", "split"]
