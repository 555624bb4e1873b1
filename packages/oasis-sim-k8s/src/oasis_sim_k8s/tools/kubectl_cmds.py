"""Former home of kubectl's write commands, now in the :mod:`.kubectl` package by command
family; kept so existing imports keep working."""

from __future__ import annotations

from .kubectl.writes import _parse_body, contains, dry_mode, dry_suffix

__all__ = ["_parse_body", "contains", "dry_mode", "dry_suffix"]
