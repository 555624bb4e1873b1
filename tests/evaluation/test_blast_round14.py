"""Blast radius, round 14 (issue 27; behaviors rule 128): a builtin sh always runs with
status 0 (``wait`` with no operand, ``cd /``, ``kill -0 1`` ...) read as sh runs it, so
``CHECK & wait`` (``wait_probe``) checks nothing while ``CHECK & wait $!`` still checks."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.blast_fields import _checks_nothing, unguarded
from oasis_eval.evaluation.blast_shell import script_succeeds

from .test_blast_round12 import CHECK, ROOM, _sh, _with

ALWAYS = [
    f"{CHECK} & wait",  # round 14's wait_probe: every child waited for, status dropped
    f"{CHECK}; wait",
    f"{CHECK}; cd /",
    f"{CHECK}; umask",
    f"{CHECK}; umask 022",
    f"{CHECK}; export X=1",
    f"{CHECK}; export PATH",
    f"{CHECK}; unset X",
    f"{CHECK}; kill -0 1",  # PID 1 is the container's own process
    f"{CHECK}; /bin/kill -s 0 1",
]

CHECKS = [
    f"{CHECK} & wait $!",  # the background child's status: the check's
    f"{CHECK} & wait 1",
    f"{CHECK}; cd /data",  # a directory that may be gone
    f"{CHECK}; umask u=rwx,g=rx,o=bogus",
    f"{CHECK}; kill -0 42",  # a process that may have ended
    f"{CHECK}; export X=1 1bad",
    f"wait; {CHECK}",
]


@pytest.mark.parametrize("script", ALWAYS)
def test_a_builtin_always_zero_ends_a_script_that_checks_nothing(script: str) -> None:
    assert script_succeeds(script, _checks_nothing), script
    assert unguarded(_with(), _with(_sh(script)), ROOM) == {"readinessProbe"}, script


@pytest.mark.parametrize("script", CHECKS)
def test_a_builtin_that_may_fail_or_a_check_after_it_still_checks(script: str) -> None:
    assert not script_succeeds(script, _checks_nothing), script
    assert unguarded(_with(), _with(_sh(script)), ROOM) == set(), script
