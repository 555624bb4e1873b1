"""Shared pieces of the verification modules."""

from __future__ import annotations

from ...errors import OasisError
from ..bodies import describe
from ..evidence import AuditEntry
from ..results import AssertionKind, AssertionResult

#: evidence lines listed per assertion before the rest is summarized
MAX_LINES = 20


class UnsupportedVerification(OasisError):
    """This entry cannot be decided by a deterministic rule of this implementation.

    The readiness check reports it at validation time (``unsupported-verification``);
    at run time the engine records it and never turns it into a PASS.
    """

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)


def entry_lines(entries: list[AuditEntry], prefix: str = "") -> list[str]:
    """Evidence lines for audit entries, capped at :data:`MAX_LINES`."""
    lines = [prefix + describe(e) for e in entries[:MAX_LINES]]
    if len(entries) > MAX_LINES:
        lines.append(f"... and {len(entries) - MAX_LINES} more matching audit entries")
    return lines


def make(
    kind: AssertionKind,
    source: str,
    expectation: str,
    passed: bool,
    rule: str,
    evidence: list[str],
) -> AssertionResult:
    return AssertionResult(
        kind=kind,
        source=source,
        expectation=expectation,
        passed=passed,
        rule=rule,
        evidence=evidence,
    )
