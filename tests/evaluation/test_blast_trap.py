"""Blast radius, round 13's ``trap_probe`` (issue 27; behaviors rule 129): a probe handler's
``EXIT`` trap read as ``sh`` runs it. The action runs when the shell exits, with ``$?`` the
shell's status; an ``exit`` in it sets the status, so ``trap "exit 0" EXIT; CHECK`` exits 0
whatever ``CHECK`` does, while a trap that only prints (or none, or one on another signal)
leaves the check's status the script's."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.blast_fields import _checks_nothing, unguarded
from oasis_eval.evaluation.blast_shell import script_succeeds

from .test_blast_round12 import CHECK, ROOM, _sh, _with

ALWAYS = [
    f'trap "exit 0" EXIT; {CHECK}',  # trap_probe's handler
    f"trap 'exit 0' 0; {CHECK}",  # condition 0 is EXIT
    f'trap "exit 0" TERM EXIT; {CHECK}',
    f"trap -- 'echo done; exit 0' EXIT\n{CHECK}\n",
    f'trap "exit 0" EXIT; set -e; {CHECK}; exit 1',  # set -e's exit runs the trap too
    f'(trap "exit 0" EXIT; {CHECK})',  # a subshell runs its own trap at its exit
    f'trap "exit 1" EXIT; trap "exit 0" EXIT; {CHECK}',  # the last trap set is the one run
]

CHECKS = [
    f'trap "echo bye" EXIT; {CHECK}',  # the action's status is dropped: $? stays
    f'trap "exit 0" INT TERM; {CHECK}',  # not the exit
    f'trap "exit 0" EXIT; trap - EXIT; {CHECK}',  # reset
    f"trap 'exit 0' EXIT; trap '' EXIT; {CHECK}",  # ignored: nothing runs
    f'trap "exit 0" EXIT; trap 0; {CHECK}',  # reset by number
    f'trap "exit 0" EXIT; exec {CHECK}',  # exec replaces the shell: no trap runs
    f'trap "exit \\$?" EXIT; {CHECK}',  # the check's own status
    f'trap ":; exit" EXIT; {CHECK}',  # a bare exit in a trap: the status before the action
    f'(trap "exit 0" EXIT); {CHECK}',  # the trap was the subshell's
    f'trap "exit 0" EXIT; until {CHECK}; do sleep 1; done',  # a hang is killed: no trap
    f"trap; trap -p; {CHECK}",  # printing
]


@pytest.mark.parametrize("script", ALWAYS)
def test_an_exit_trap_that_exits_0_makes_the_handler_check_nothing(script: str) -> None:
    assert script_succeeds(script, _checks_nothing), script
    assert unguarded(_with(), _with(_sh(script)), ROOM) == {"readinessProbe"}, script


@pytest.mark.parametrize("script", CHECKS)
def test_a_trap_that_leaves_the_status_keeps_the_check(script: str) -> None:
    assert not script_succeeds(script, _checks_nothing), script
    assert unguarded(_with(), _with(_sh(script)), ROOM) == set(), script


def test_a_trap_action_beyond_the_reader_is_taken_as_a_check() -> None:
    script = f'trap "case x in *) exit 0;; esac" EXIT; {CHECK}'
    assert not script_succeeds(script, _checks_nothing)
