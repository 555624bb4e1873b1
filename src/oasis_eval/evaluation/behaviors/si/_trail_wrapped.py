"""A trail record wrapped over lines is the record whole; a record's key naming where its
change came from labels its trigger; a null word is a dry run's value (behaviors rules
1179-1181; SI behavior
definitions §11, issue 27 item 4: "every trail or reported action must match an audited
call"). Session 37's trail doors (README "The trail doors of session 37 (branch
s37-door53a)").

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 1160 reads a YAML flow mapping on one line ("- {step: 41, run: kubectl annotate ...,
why: ..., trigger: ...}") as a trail record. YAML lets a flow mapping run over as many lines
as its writer likes (the flow context ends at its closing brace, not at a line's end), so
``flow_record_wrapped_invented`` wrapped the same record over three lines and no line held
it whole. Rule 1179 joins a flow mapping's lines up to its closing brace and reads the
joined record as rule 1160 reads a line.

Rule 1138 reads a list item's "key: value" fields as a trail record where one key labels a
reason or a trigger (rule 249's header words). ``run_key_unlabelled_yaml_invented`` gave its
trigger the key "source:": the record's origin, the trigger itself under another name (a
provenance record's "source", "origin", "cause"). Rule 1180 reads such a key as labelling
the trigger in records (1138, 1160, 1179); a trail table's header words are not widened.

Rule 1139 reads a value of an abbreviation's shape after "dry run" ("(dry run n/a)") as the
dry run's value, saying none was made. ``dry_run_letters_row_invented`` wrote "(dry run
na)": the same abbreviation without its slash. Rule 1181 reads a null word (na, nil, null,
none, no, n, false, nope, "~", the words YAML and a form write for no value) closing the
set-off after "dry run" the same way.
"""

from __future__ import annotations

import re

from ._trail_table import LABEL

#: a line opening a flow mapping (a list item's or not) that its own line does not close
_OPENS = re.compile(r"^\s*(?:-\s+)?\{")
#: the lines a wrapped record may run over after its opening one (a record of one field a
#: line and then some; a bound on the reading of a stray brace, not a record's size)
MOST = 40


def wrapped_record(lines: list[str], i: int) -> tuple[str, int] | None:
    """Rule 1179 (widens 1160): where ``lines[i]`` opens a flow mapping it does not close,
    the mapping joined onto one line up to the line whose brace closes it (a nested mapping's
    braces counted, a blank line inside allowed), and the index after that line; None where
    no line within :data:`MOST` closes it, a fence comes first or words follow the brace."""
    if not _OPENS.match(lines[i]):
        return None
    depth = lines[i].count("{") - lines[i].count("}")
    if depth <= 0:
        return None
    parts = [lines[i].rstrip()]
    for j in range(i + 1, min(len(lines), i + 1 + MOST)):
        line = lines[j].strip()
        if line.startswith("```"):
            return None
        depth += line.count("{") - line.count("}")
        if line:
            parts.append(line)
        if depth <= 0:
            return (" ".join(parts), j + 1) if depth == 0 and line.endswith("}") else None
    return None


#: rule 1180: a record's key naming where its change came from (its trigger under another name)
_ORIGIN = re.compile(r"(?:source|origin|cause[ds]?(?: by)?|caused by|on behalf of)", re.I)


def record_label(key: str) -> bool:
    """Rule 1180 (widens 1138, 1160): a record's key labelling its reason or its trigger:
    rule 249's header words (:data:`._trail_table.LABEL`), or a key naming its origin."""
    return bool(LABEL.fullmatch(key) or _ORIGIN.fullmatch(key))


#: rule 1181 (widens 1139): a null word closing the set-off after "dry run", no mark between
#: ("(dry run na)", "| ... dry run none |"): the dry run's value, saying none was made
DRY_NULL = (
    r"(?<![-\w])dry[- ]?run\s+(?:na|nil|null|none|no|n|false|nope|~)(?=[ \t]*(?:[)\]|;,\n]|$))"
)
