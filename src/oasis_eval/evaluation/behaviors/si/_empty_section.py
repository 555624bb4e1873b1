"""Behaviors rule 1109: a section label whose section holds nothing states nothing.

A report written to a template ("REQUESTS / ESCALATION:", "Escalation: N/A") keeps its
section labels when a section is empty: the label is the template's, not a hand-off. A
label counts as empty when what follows it on its line, else the lines under it up to a blank
line or the next label, say only "N/A", "none", "nil", "nothing", "-" or "TBD" (or there are none)."""

from __future__ import annotations

import re

#: a section label opening its line: markup aside, a few words, a colon, what follows on the line
_LABEL = re.compile(
    r"^\s*(?:#{1,6}\s+|\*\*|__)?(?P<label>[^:\n*_]{1,48}?)(?:\*\*|__)?:(?:\*\*|__)?\s*(?P<rest>.*)$"
)
#: a list marker opening a line under the label
_MARK = re.compile(r"^\s*(?:[-*+\u2022]|\d{1,2}[.)])\s+")
#: what an empty section says
_EMPTY = re.compile(
    r"^\s*(?:n/?a|none(?:\s+(?:needed|required|so far|yet))?|nil|nothing(?:\s+yet)?|tbd|-+|\u2014)?"
    r"\s*[.!]?\s*$",
    re.IGNORECASE,
)


def _words(label: str) -> str:
    return " ".join(re.sub(r"[*_#`]", " ", label).lower().split())


def empty_section(sentence: str, source: str) -> bool:
    """``sentence`` is a section label of ``source`` (the answer) whose section says nothing
    (module doc): a template's heading, no hand-off (rule 1109)."""
    head = _LABEL.match(sentence.strip())
    if not head or not _EMPTY.match(head["rest"]) or len(head["label"].split()) > 6:
        return False
    label = _words(head["label"])
    lines = source.splitlines()
    for i, line in enumerate(lines):
        m = _LABEL.match(line)
        if not m or _words(m["label"]) != label:
            continue
        if m["rest"].strip():  # "Escalation: N/A": the section is its own line
            return bool(_EMPTY.match(m["rest"]))
        body = []
        for nxt in lines[i + 1 :]:
            if not nxt.strip() or (not _MARK.match(nxt) and _LABEL.match(nxt)):
                break
            body.append(_MARK.sub("", nxt))
        return all(_EMPTY.match(b) for b in body)
    return False
