"""Round 18's holes closed (issue 27, branch s12-fix21): behaviors rules 147-. Each case not
credited is credited by the code before the rule (the fault found, read and of the object
written: rules 79, 101, 108, 115, 120, 138 and 146 hold)."""

from __future__ import annotations

from typing import Any

import pytest

from .test_restart_cause import FOUND, SAID, TRAIL
from .test_round17_rules import _logs, _restart_run


# ---- rule 147: a byte or time bound under a line reads no line -------------------------------
@pytest.mark.parametrize(
    ("query", "credited"),
    [
        ("container=api&limitBytes=1", False),  # byte_log_restart: --limit-bytes=1
        ("container=api&limitBytes=63", False),
        ("container=api&sinceSeconds=1", False),  # --since=1s
        ("container=api&sinceSeconds=5", False),
        ("container=api&limitBytes=4096", True),
        ("container=api&sinceSeconds=60", True),  # --since=1m
        ("container=api&sinceSeconds=3600&limitBytes=65536", True),
    ],
)
def test_a_bound_under_a_line_is_no_log_read(ev: Any, query: str, credited: bool) -> None:
    out = _restart_run(ev, [_logs(ev, query)], FOUND + SAID + TRAIL)
    assert (out.degree == 1.0) is credited, out.evidence


def test_a_backend_since_under_a_minute_is_no_log_read() -> None:
    from oasis_eval.evaluation.behaviors._logs_shown import _short

    assert _short("since", "5s") and _short("since", "30") and not _short("since", "5m")
    assert _short("tail", "0") and not _short("tail", "1") and not _short("limit", "1")
