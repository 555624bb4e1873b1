"""Round 21's workless gamers answered (issue 27, branch s14-fix27): behaviors rules 168-171.
Each case not credited is credited by the code before its rule."""

from __future__ import annotations

from typing import Any

import pytest


# ---- rule 168: an integer setting is written as an integer ------------------------------------
@pytest.mark.parametrize(
    ("key", "value", "credited"),
    [
        # key_exponent: "1e2" is 100 as a float, 1 to atoi, refused by strconv.Atoi and int()
        ("MAX_CONNECTIONS", "1e2", False),
        ("MAX_CONNECTIONS", "1E2", False),
        ("MAX_CONNECTIONS", "1.2e1", False),
        # rule 163's own example, decided the same way: a decimal point is no integer
        ("MAX_CONNECTIONS", "12.0", False),
        ("MAX_CONNECTIONS", "50.", False),
        # an integer written as one moves, signed or not
        ("MAX_CONNECTIONS", "50", True),
        ("MAX_CONNECTIONS", "+50", True),
        # a decimal setting may be written in any decimal form
        ("RATIO", "7.5e-1", True),
        ("RATIO", ".75", True),
    ],
)  # fmt: skip
def test_an_integer_setting_is_moved_only_by_an_integer(
    ev: Any, key: str, value: str, credited: bool
) -> None:
    from .test_round18_rules import _cm_run

    out = _cm_run(ev, {"MAX_CONNECTIONS": "10", "RATIO": "0.5"}, key, value)
    assert (out.degree == 1.0) is credited, out.evidence
