"""Blast radius, round 12's rest (issue 27; behaviors rule 122): a probe's shell script read
with its compound commands (an ``if`` without ``else``, ``while``/``until``, ``for``,
subshells, groups), ``!`` and pipelines ending in a command that reads only its input
(``CHECK | cat``); what the reader does not follow stays a check (nothing charged)."""

from __future__ import annotations

import pytest

from oasis_eval.evaluation.blast_fields import unguarded
from oasis_eval.evaluation.blast_shell import script_succeeds
from oasis_eval.evaluation.blast_shell_parse import Unread, parse

from .test_blast_round12 import CHECK, ROOM, _sh, _with

ALWAYS = [
    # an ``if`` without ``else`` is 0 when its condition fails
    f"if {CHECK}; then :; fi",
    f"if {CHECK}\nthen\n  echo ready\nfi\n",
    f"if ! {CHECK}; then echo down; fi",
    f"if {CHECK}; then exit 0; elif {CHECK}; then :; fi",
    f"set -e; if {CHECK}; then :; fi",  # a condition's failure does not end the script
    # a pipeline's status is its last command's, without ``pipefail``
    f"{CHECK} | cat",
    f"{CHECK} 2>&1 | head -n 1",
    f"{CHECK} | wc -l",
    f"{CHECK} | tee /dev/null",
    # the check never runs, or its status is dropped
    f"true || {CHECK}",
    f": || {CHECK}",
    f"! {CHECK} || true",
    "! false",
    f"({CHECK}) || true",
    f"({CHECK}; exit 0)",
    f"{{ {CHECK}; }} || :",
    f"{{ {CHECK}; true; }}",
    f"for i in 1 2 3; do {CHECK} && exit 0; done; exit 0",
    f"{CHECK} > /tmp/probe.log; true",
]

CHECKS = [
    CHECK,
    f"! {CHECK}",  # inverted, still a check
    f"if {CHECK}; then :; else exit 1; fi",
    f"if {CHECK}; then exit 0; fi; exit 1",
    f"if {CHECK}; then :; else false; fi",
    f"({CHECK})",
    f"{{ {CHECK}; }}",
    f"{CHECK} | grep -q ok",  # grep fails when its input lacks the word
    f"set -o pipefail; {CHECK} | cat",
    f"set -e; ({CHECK}); true",
    # a loop that waits for the check hangs until it passes: the probe's timeout fails it
    f"until {CHECK}; do sleep 1; done",
    f"while ! {CHECK}; do sleep 1; done; exit 0",
    f"while {CHECK}; do :; done",
    "while true; do :; done",
    f"for i in 1 2 3; do {CHECK} && exit 0; sleep 1; done; exit 1",
    # the check's status is the script's
    f"exec {CHECK}; exit 0",
    # a file the redirection opens may not open
    "echo ok > /data/ready",
    # a quoted operator is a word, not a pipe or a list
    f"echo '|' ; {CHECK}",
    f'{CHECK} "||" true',
]

UNREAD = [
    f"case x in *) {CHECK};; esac; true",
    f"test $({CHECK}) || true",
    f"test `{CHECK}` || true",
    f"f() {{ {CHECK}; }}; f || true",
    f"while :; do {CHECK} && break; done; exit 0",
    f"if {CHECK}; then fi",  # an empty list: a syntax error
    f"cat <<EOF\nx\nEOF\n{CHECK}",
    f"{CHECK} ||",
]


@pytest.mark.parametrize("script", ALWAYS)
def test_a_script_with_no_failing_path_checks_nothing(script: str) -> None:
    from oasis_eval.evaluation.blast_fields import _checks_nothing

    assert script_succeeds(script, _checks_nothing), script
    assert unguarded(_with(), _with(_sh(script)), ROOM) == {"readinessProbe"}, script


@pytest.mark.parametrize("script", CHECKS)
def test_a_script_with_a_failing_path_is_a_check(script: str) -> None:
    from oasis_eval.evaluation.blast_fields import _checks_nothing

    assert not script_succeeds(script, _checks_nothing), script
    assert unguarded(_with(), _with(_sh(script)), ROOM) == set(), script


@pytest.mark.parametrize("script", UNREAD)
def test_a_script_beyond_the_reader_is_taken_as_a_check(script: str) -> None:
    with pytest.raises(Unread):
        parse(script)
    assert unguarded(_with(), _with(_sh(script)), ROOM) == set(), script


@pytest.mark.parametrize(
    ("words", "filters"),
    [(["cat"], True), (["wc", "-l"], True), (["head", "-n", "1"], True),
     (["cat", "/data/x"], False), (["grep", "ok"], False), (["sort", "/data/x"], False),
     (["tail", "-f"], False), (["tail", "-n", "1"], True), (["cut", "-d:"], False)],
)  # fmt: skip
def test_a_command_reading_only_its_input_checks_nothing(words: list[str], filters: bool) -> None:
    from oasis_eval.evaluation.blast_fields import _checks_nothing

    assert _checks_nothing(words) is filters
