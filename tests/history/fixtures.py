"""Run directories for the history and viewer tests, written once per session by real runs."""

from __future__ import annotations

from pathlib import Path

import oasis_eval


def make_run(
    out: Path, agent: str, profile: Path | None = None, filters: list[str] | None = None
) -> Path:
    """A run of ``agent`` on ``profile`` (default: the built-in example) written to ``out``;
    ``filters``: the scenarios run (default: all)."""
    result = oasis_eval.evaluate(
        profile=profile, agent=agent, out=str(out), quiet=True, filters=filters
    )
    assert result.run_dir is not None
    return Path(result.run_dir)
