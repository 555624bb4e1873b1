"""A markdown answer with tables read as the agent's words (issue 27, fairness; behaviors
rules 400-403).

An operator filing an incident ticket writes markdown: headings, tables, checkboxes, inline
code. Read line by line, a table row is "a, b, c." (:func:`._words.normalize`) and a heading a
bare title, so a "## Hypotheses" table opens a candidate list nothing closes, and every later
row (a timeline of calls, a follow-up) reads as a hedged cause. :func:`as_words` renders such
an answer into the lines a person would have said, once, before any evaluator reads it (the
hook is :func:`._structured.answer_evidence`, as for a JSON answer, rule 370):

- a heading ends the section before it: it is said as a label ("## Actions" -> "## Actions:"),
  which ends a candidate list (rule 400);
- only a table with a verdict column is rendered: its header row is dropped (its names are no
  statement); every other table is kept as written, the old reading (an evidence row "|
  `kubectl get events` | FailedScheduling ... |" is a finding, which "<call>: <finding>" would
  make a trail entry, rule 215; a trail table is what rule 249 reads) (rule 401);
- a row of a table with a verdict column ("verdict", "status", "conclusion", ...) is read by
  its verdict: "confirmed" commits ("The root cause is <first> (confirmed). <evidence>."),
  "ruled out", "unlikely", "excluded" rebut ("<first>: ruled out (<verdict>); <evidence>."),
  "possible", "not confirmed" hedge ("<first>: possible, not confirmed; <evidence>.": the
  hedge stays in the words); an unknown verdict is a plain row (rule 402);
- a table of calls (a "command", "call" or "change" column) is kept as written even beside a
  verdict column: rule 249 reads it as the trail; under the heading that now ends the
  hypotheses, its rows are no candidates (rule 403);
- a checkbox item is a follow-up ("- [ ] X" -> "- follow-up: X"), a proposal, not a cause.

Inline code (`` `x` ``) already reads as the name x (:func:`._words.strip_inline`). Only an
answer holding a table (a header row over a ``|---|`` rule) is rendered; fenced blocks are
kept as written. The agent's order is kept. Deterministic: a pure function of the answer.
"""

from __future__ import annotations

import re
from itertools import pairwise

from ..reported_calls import CALL_TOOLS, WRITE_ALTERNATION

#: a table's rule line under its header ("|---|:--:|")
_RULE = re.compile(r"^\s*(?:\|\s*)?:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*(?:\|\s*)?$")  # rule 743
_FENCE = re.compile(r"^\s*(?:```|~~~)")
_HEADING = re.compile(r"^(\s*#{1,6}\s+)(.*?)\s*#*\s*$")
_CHECKBOX = re.compile(r"^(\s*(?:[-*+]|\d+[.)])\s+)\[([ xX])\]\s+")
#: the headers naming a table's verdict column
VERDICT_HEADS = frozenset({"verdict", "status", "conclusion", "assessment", "outcome"})
#: the headers naming a table of calls (its rows are a trail, rule 403)
CALL_HEADS = frozenset({"command", "call", "change", "tool call", "action taken"})
#: a verdict cell that commits, rebuts or hedges (its opening words, markdown stripped)
COMMITS = re.compile(r"^(?:confirmed|verified|proven|the root cause|root cause)\b", re.I)
REBUTS = re.compile(
    r"^(?:ruled[\s-]+out|excluded|rejected|unlikely|disproven|refuted|discarded|dismissed|"
    r"not (?:the )?(?:root )?cause)\b",
    re.I,
)
HEDGES = re.compile(
    r"^(?:possible|possibly|plausible|open|unconfirmed|not (?:yet )?confirmed|unverified|"
    r"unknown|undetermined|inconclusive|likely|probable|suspected|pending)\b",
    re.I,
)
_MARKUP = re.compile(r"[*_`]+")
#: rule 923: a cell holding a call: a command-line tool's name first, or a write and a
#: "kind/name" object ("annotate deployment/W ..."), markup and a shell's prompt aside; rule
#: 1033: the tool's name the one call head's (:data:`..reported_calls.CALL_TOOLS`)
_CALL_CELL = re.compile(
    rf"^[\s*_`]*(?:[$#>%]\s*)?(?:{CALL_TOOLS}\s+\S|(?:rollout\s+restart|{WRITE_ALTERNATION})\s+"
    r"[a-z][\w.-]*/[a-z0-9])",
    re.I,
)


def _cells(line: str) -> list[str]:
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
    parts = re.split(r"(?<!\\)\|", body)
    return [p.replace("\\|", "|").strip() for p in parts]


def _plain(cell: str) -> str:
    return " ".join(_MARKUP.sub("", cell).split()).strip()


def _is_row(line: str) -> bool:
    s = line.strip()
    return s.startswith("|") and s.count("|") >= 2


def has_table(text: str) -> bool:
    """``text`` holds a markdown table: a row directly over a rule line (rule 401)."""
    lines = (text or "").splitlines()
    return any(_is_row(a) and _RULE.match(b) for a, b in pairwise(lines))


def verdict_stance(cell: str) -> str | None:
    """ "committed", "rebutted" or "hedged" for a verdict cell, else None (rule 402). A hedge
    is read first: "not confirmed" never commits."""
    text = _plain(cell)
    if HEDGES.match(text):
        return "hedged"
    if REBUTS.match(text):
        return "rebutted"
    if COMMITS.match(text):
        return "committed"
    return None


def _joined(cells: list[str]) -> str:
    return "; ".join(c for c in cells if c)


def trail_table(header: list[str]) -> bool:
    """The table is kept as written: it has no verdict column (rule 401), or it is a trail of
    calls (a "command", "call" or "change" column) whose header labels its reason and trigger
    cells for rule 249 (rule 403)."""
    names = {_plain(h).lower() for h in header}
    return bool(names & CALL_HEADS) or not names & VERDICT_HEADS


def _status_of_calls(header: list[str], rows: list[str]) -> bool:
    """Rule 923: the table's rows (``rows``, from its first body row on) hold a call and no
    verdict its verdict column commits, rebuts or hedges ("| step | action | ... | status |",
    "done"): a table of calls done, kept as written for the trail's readers (rule 403), not a
    table of hypotheses."""
    cols = [i for i, h in enumerate(header) if i and _plain(h).lower() in VERDICT_HEADS]
    called = False
    for line in rows:
        if not _is_row(line) or _RULE.match(line):
            break
        cells = _cells(line)
        if any(i < len(cells) and verdict_stance(cells[i]) for i in cols):
            return False
        called = called or any(_CALL_CELL.match(c) for c in cells)
    return called


def row_words(header: list[str], cells: list[str]) -> str:
    """One table row as one sentence (rules 401, 402)."""
    names = [_plain(h).lower() for h in header]
    cells = cells + [""] * (len(names) - len(cells))
    first = cells[0]
    verdict = next(
        (
            i
            for i, n in enumerate(names[1:], 1)
            if n in VERDICT_HEADS and verdict_stance(cells[i]) is not None
        ),
        None,
    )
    if verdict is not None and first:
        said = _plain(cells[verdict])
        tail = _joined([c for i, c in enumerate(cells[1:], 1) if i != verdict])
        stance = verdict_stance(said)
        if stance == "committed":
            return f"The root cause is {first} ({said})." + (f" {tail}." if tail else "")
        if stance == "rebutted":
            head = "ruled out" if said.lower().startswith("ruled") else f"ruled out ({said})"
            return f"{first}: {head}" + (f"; {tail}." if tail else ".")
        return f"{first}: {said}" + (f"; {tail}." if tail else ".")
    # rule 401: a row of neither kind reads as before, its cells one sentence; "<source>:
    # <finding>" would make an evidence row whose first cell is a call a trail entry (rule 215)
    return ", ".join(c for c in cells if c) + "."


def as_words(text: str) -> str | None:
    """The markdown answer ``text`` rendered into lines of words (module doc); None when it
    holds no table (rule 401)."""
    if not has_table(text):
        return None
    lines = (text or "").splitlines()
    out: list[str] = []
    fenced = False
    header: list[str] | None = None
    calls = False
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
            out.append(line)
            continue
        if fenced:
            out.append(line)
            continue
        if _RULE.match(line) and header is not None:
            if calls:
                out.append(line)
            continue
        if _is_row(line):
            if i + 1 < len(lines) and _RULE.match(lines[i + 1]):
                header = _cells(line)  # the header row names the columns; said in each row
                calls = trail_table(header) or _status_of_calls(header, lines[i + 2 :])
                if calls:
                    out.append(line)
            elif header is not None and not _RULE.match(line):
                out.append(line if calls else row_words(header, _cells(line)))
            else:
                out.append(line)
            continue
        header = None
        out.append(_line(line))
    return "\n".join(out)


def _line(line: str) -> str:
    """A heading said as a label (rule 400), a checkbox as a follow-up; other lines as written."""
    heading = _HEADING.match(line)
    if heading:
        title = heading[2]
        return (
            f"{heading[1]}{title}" if title.endswith(":") or not title else f"{heading[1]}{title}:"
        )
    box = _CHECKBOX.match(line)
    if box:
        done = "done" if box[2] in "xX" else "follow-up"
        return f"{box[1]}{done}: {line[box.end() :]}"
    return line
