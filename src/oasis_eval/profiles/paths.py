"""Profile paths stay inside the profile directory (issue 11 item 7).

A profile is data someone else wrote: its ``scenario_paths`` and the files found under it
must not reach outside its directory, whether by an absolute path, a ``..`` segment or a
symbolic link. An escape is the blocking error ``path-outside-profile``
(:mod:`oasis_eval.validation.blocking`): the scenario set would depend on files the
profile does not hold.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath, PureWindowsPath

from ..diagnostics import Findings

CODE = "path-outside-profile"
EXPECTED = "a path inside the profile directory (relative, no '..', no symbolic link leading out)"


def pattern_problem(pattern: str) -> str | None:
    """Why a glob pattern would leave the profile directory (or is no pattern at all), or ``None``."""
    if not pattern.strip():
        return "an empty pattern matches nothing"
    if PurePosixPath(pattern).is_absolute() or PureWindowsPath(pattern).is_absolute():
        return f"'{pattern}' is an absolute path"
    if ".." in PurePosixPath(pattern.replace("\\", "/")).parts:
        return f"'{pattern}' climbs out with '..'"
    return None


def escapes(root: Path, path: Path) -> bool:
    """Does ``path`` (found under ``root``) resolve outside ``root``, e.g. through a symlink?"""
    base = root.resolve()
    resolved = path.resolve()
    return resolved != base and base not in resolved.parents


def confined_files(root: Path, paths: list[Path], findings: Findings) -> list[Path]:
    """``paths`` without those that escape ``root`` or are not regular files (a scenario file
    silently skipped would change the scenario set); each is an error finding."""
    kept = []
    for path in paths:
        if escapes(root, path):
            shown = path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
            findings.error(
                CODE,
                f"'{shown}' leads outside the profile directory (to {path.resolve()})",
                file=shown,
                expected=EXPECTED,
            )
        elif (
            not path.is_file()
        ):  # a FIFO would hang the reader, a device never ends, a dangling link
            findings.error(
                "unreadable-file",
                f"'{path.relative_to(root).as_posix()}' is not a regular file "
                "(a FIFO, device, socket or dangling link)",
                file=path.relative_to(root).as_posix(),
                expected="a regular scenario file",
            )
        else:
            kept.append(path)
    return kept
