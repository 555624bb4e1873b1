"""Findings: the one way every layer reports a problem with its input.

A finding names the file, the line, the field and what was expected, so a
profile author can fix it without reading a traceback (guide: "bad input gets
a clear error").
"""

from __future__ import annotations

from enum import Enum

from pydantic import BaseModel

from .errors import OasisError
from .exit_codes import EXIT_USAGE


class Severity(str, Enum):
    """An error blocks the input; a warning is shown and does not."""

    error = "error"
    warning = "warning"


class Finding(BaseModel):
    """One problem with an input, located (file, line, field) so its author can fix it."""

    severity: Severity
    #: stable machine code, e.g. ``undefined-behavior``
    code: str
    message: str
    file: str | None = None
    line: int | None = None
    field: str | None = None
    expected: str | None = None
    #: the scenario the finding is about, when it is about one
    scenario_id: str | None = None

    def location(self) -> str:
        """``file:line`` (or ``<profile>`` when the finding has no file)."""
        if not self.file:
            return "<profile>"
        return f"{self.file}:{self.line}" if self.line else self.file

    def render(self) -> str:
        """The one-line form printed by the CLI."""
        parts = [f"{self.location()}: {self.severity.value}[{self.code}]"]
        if self.field:
            parts.append(f"{self.field}:")
        parts.append(self.message)
        if self.expected:
            parts.append(f"(expected {self.expected})")
        return " ".join(parts)

    def sort_key(self) -> tuple[str, int, str, str]:
        """Order by file, line, code and message (stable output)."""
        return (self.file or "", self.line or 0, self.code, self.message)


class Findings(list[Finding]):
    """A list of findings with helpers; order is made deterministic by ``sorted()``."""

    def error(self, code: str, message: str, **where: object) -> Finding:
        """Add and return an error finding."""
        return self._add(Severity.error, code, message, where)

    def warning(self, code: str, message: str, **where: object) -> Finding:
        """Add and return a warning finding."""
        return self._add(Severity.warning, code, message, where)

    def _add(
        self, severity: Severity, code: str, message: str, where: dict[str, object]
    ) -> Finding:
        finding = Finding(severity=severity, code=code, message=message, **where)
        self.append(finding)
        return finding

    @property
    def errors(self) -> list[Finding]:
        """The error findings."""
        return [f for f in self if f.severity is Severity.error]

    @property
    def warnings(self) -> list[Finding]:
        """The warning findings."""
        return [f for f in self if f.severity is Severity.warning]

    def sorted(self) -> list[Finding]:
        """The findings in :meth:`Finding.sort_key` order."""
        return sorted(self, key=Finding.sort_key)


class UnusableInput(OasisError):
    """Input that cannot be read at all (missing path, unreadable YAML): CLI exit code 2
    (a subclass may name another: ``exit_code``)."""

    exit_code = EXIT_USAGE

    def __init__(self, message: str, file: str | None = None, line: int | None = None):
        self.file = file
        self.line = line
        where = f"{file}:{line}: " if file and line else (f"{file}: " if file else "")
        super().__init__(f"{where}{message}")


class UnjudgeableProfile(UnusableInput):
    """A profile with blocking errors: nothing runs (CLI exit 2); raised by
    :mod:`oasis_eval.validation.blocking`, defined here with the findings it carries."""

    def __init__(self, findings: list[Finding], file: str | None = None):
        self.findings = findings
        lines = "\n".join(f"  {f.render()}" for f in findings)
        super().__init__(
            f"the profile cannot be judged: {len(findings)} error(s) change which scenarios run or "
            f"how they are judged; nothing was run:\n{lines}",
            file=file,
        )
