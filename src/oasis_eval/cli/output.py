"""Shared CLI output helpers: findings as text, JSON to stdout."""

from __future__ import annotations

import json
from typing import Any

import typer

from ..diagnostics import Finding
from ..reporting.controls import visible_controls


def echo_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False))


def echo_findings(findings: list[Finding]) -> None:
    for finding in sorted(findings, key=Finding.sort_key):
        typer.echo(finding.render())


def terminal_safe(text: object, one_line: bool = False) -> str:
    """``text`` with every control character shown as an escape (``\\x1b``), so agent or
    file-name text can neither drive the terminal (ANSI sequences) nor fake output lines."""
    out = visible_controls(str(text))
    return out.replace("\n", "\\n").replace("\t", "\\t") if one_line else out
