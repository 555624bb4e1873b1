"""Shared CLI output helpers: findings as text, JSON to stdout."""

from __future__ import annotations

import json
import re
from typing import Any

import typer

from ..diagnostics import Finding


def echo_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False))


def echo_findings(findings: list[Finding]) -> None:
    for finding in sorted(findings, key=Finding.sort_key):
        typer.echo(finding.render())


#: C0 and C1 controls (ESC starts every ANSI sequence), DEL, and the bidi overrides/isolates
#: that reorder what a terminal shows ("Trojan source"); tab and newline are kept
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def terminal_safe(text: object, one_line: bool = False) -> str:
    """``text`` with every control character shown as an escape (``\\x1b``), so agent or
    file-name text can neither drive the terminal (ANSI sequences) nor fake output lines."""
    out = _CONTROL.sub(lambda m: m.group(0).encode("unicode_escape").decode("ascii"), str(text))
    return out.replace("\n", "\\n").replace("\t", "\\t") if one_line else out
