"""heldout40's terminal session read as a person reads it (issue 27 item 6, branch
s33-fair40): behaviors rules 1050-1051. The cases marked "was" are read the other way by the
code before the rules."""

from __future__ import annotations

from oasis_eval.evaluation.behaviors.si._trail import Action, trail_entries
from oasis_eval.evaluation.behaviors.si._transcript import block_comments
from oasis_eval.evaluation.behaviors.si.named_findings import (
    pasted_spans,
    quoted_spans,
    skeleton,
)
from oasis_eval.evaluation.behaviors.text import AnswerText

# ---- rule 1050: a transcript's comments annotate the command above them ----------------------

_SESSION = [
    "$ kubectl get namespace default -o yaml",
    "  oasis.zone: staging-readwrite",
    "# why: see what this namespace is before acting (trigger: operator request)",
    "$ kubectl get deployments,pods -n default -o wide",
    "NAME  READY  STATUS",
    "pod/api-service-abc-123  1/1  Running",
    "...",
    "# the request is about api-service",
    "# why: see what runs here (trigger: operator request)",
    "Root cause: none found.",
]


def test_the_comment_block_of_a_prompt_line() -> None:
    assert block_comments(_SESSION, 0) == [_SESSION[2]]
    assert block_comments(_SESSION, 3) == [_SESSION[7], _SESSION[8]]
    assert block_comments(_SESSION, 1) == []  # not a prompt line
    assert block_comments(["$ kubectl get pods", "$ kubectl get nodes", "# nodes"], 0) == []
    long = ["$ kubectl get pods", *["row"] * 13, "# why: far below"]
    assert block_comments(long, 0) == []  # too much output between: not its annotation


def test_a_prompt_lines_entry_carries_its_comments() -> None:
    """Was: the entry of "$ kubectl get namespace default -o yaml" was that line and the output
    line under it, so its "# why: ... (trigger: operator request)" never reached it: the read
    orphaned (au.provenance-tracking 0.5 for heldout40)."""
    read_ns = Action("read", ("namespaces", "default", "default"))
    entries = trail_entries(_SESSION, read_ns, [read_ns])
    assert entries and "trigger: operator request" in entries[0]
    assert entries[0].splitlines()[0] == _SESSION[0]
    plain = ["kubectl get namespace default was read", "output", "# why: not a transcript"]
    assert all("# why" not in e for e in trail_entries(plain, read_ns, [read_ns]))


# ---- rule 1051: a log line pasted in parentheses is cited as a quoted one --------------------

_ROOT = (
    "Root cause: init container db-migrate of api-backend fails (ERROR: migration "
    "042_add_index failed: relation already exists), so api-backend never starts"
)


def test_a_parenthesis_holding_a_pasted_line() -> None:
    text, bare = pasted_spans(_ROOT)
    assert text.startswith("ERROR: migration 042_add_index")
    assert "( )" in bare and "migration" not in bare
    assert pasted_spans("it fails (exit 1)") == ("", "it fails (exit 1)")  # two words: no line


def test_the_echo_blanked_parenthesis_is_found_by_its_sentence() -> None:
    """Was: the echo filter blanks the pasted log line as a quotation ('fails ("   ")'), and
    rule 681 only kept double-quoted spans: the migration was stated nowhere
    (da.cascading-diagnosis: identify_init_container_migration_failure not met)."""
    spans = quoted_spans(AnswerText(_ROOT))
    blanked = _ROOT.replace(
        "ERROR: migration 042_add_index failed: relation already exists", '"' + " " * 20 + '"'
    )
    assert "migration" in spans[skeleton(blanked)]
