"""A trail record that is a key's value is the record (behaviors rule 1210; SI behavior
definitions §11, issue 27 item 4: "every trail or reported action must match an audited
call"). The doors of session 37 (README "The doors of session 37 (branch s37-door54)").

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rules 1160 and 1179 read a YAML flow mapping opening a line ("- {step: 41, run: kubectl
annotate ..., why: ..., trigger: ...}", on one line or wrapped up to its closing brace) as a
trail record where one of its keys labels a reason or a trigger. ``flow_record_keyed_wrapped_
invented`` gave the same mapping a key ("- entry: {step: 41, ..."): YAML's list item is then a
one-key mapping whose value is the record, the record no less a record for being named. Rule
1210 reads a flow mapping that is the value of a line's first key as those rules read it
unkeyed; the key stays in the line, so a key saying the record is to come ("plan:", "next:",
"proposed:") leaves it as a plan (rule 935's reading of the rest of the line).

Rule 1211 (widens 1210): ``flow_record_in_sequence_wrapped_invented`` put the same record inside
a flow sequence ("- [{step: 41, ...}]"), a list of one mapping: the brackets read away, the
mapping is read as rule 1210 reads a key's value.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ._change_answered import flow_record_call
from ._trail_wrapped import MOST, wrapped_record

#: rule 1210: a line's first key (a list item's or not, quoted or not) whose value opens a flow
#: mapping, or a flow sequence's bracket opening one (rule 1211)
_KEYED = re.compile(
    r"^(?P<lead>\s*(?:-\s+)?)(?:(?P<key>[\"']?[a-z][\w .-]{0,30}?[\"']?)\s*:\s*|\[\s*)(?=\{)",
    re.I,
)
#: rule 1211: a flow sequence's bracket closing the mapping's line
_SEQ_END = re.compile(r"\}\s*\]\s*$")


def keyed_record(
    lines: list[str], i: int, call_of: Callable[[str], object]
) -> tuple[str, str] | None:
    """Rule 1210 (widens 1160, 1179): where ``lines[i]``'s first key has a flow mapping for its
    value, the line (joined up to the mapping's closing brace, its key kept) and the record's
    call, as rules 1160 and 1179 read the mapping unkeyed; rule 1211: so a flow sequence's one
    mapping ("- [{step: 41, ...}]"); None where it is no such record."""
    m = _KEYED.match(lines[i])
    if m is None:
        return None
    seq = m["key"] is None
    part = [lines[i][m.end() :], *lines[i + 1 : i + 1 + MOST]]
    if seq:  # rule 1211: the sequence's closing bracket read away
        part = [_SEQ_END.sub("}", p) for p in part]
    bare = m["lead"] + part[0]
    call = flow_record_call(bare, call_of)
    if call is not None:
        return lines[i], call
    joined = wrapped_record([bare, *part[1:]], 0)  # rule 1179
    if joined is None or (call := flow_record_call(joined[0], call_of)) is None:
        return None
    return f"{m['key'] or '['}: {joined[0]}", call
