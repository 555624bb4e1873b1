"""Plain-text headings: a title line and a phase heading label the text under them
(behaviors rule 892; issue 27 item 6, heldout34's status-page update). Not an evaluator module.

A status page writes a title ("Update: api-gateway escalated, cause not yet confirmed") and a
heading per phase, stamped with its time ("Escalated - 05:30 EDT (-04:00)"), each a line of its
own with no end punctuation, the paragraph under it saying what happened. A markdown heading
was already a title, never a cue (:meth:`.text.AnswerText.heading`); these lines are the same
labels: a heading and the paragraph under it are one unit, so a sentence of it (the heading
too: "Escalated" is said of its paragraph) is read with the whole paragraph, not with the
last sentence of the phase before (the escalation's context, the uncertainty's finding).
"""

from __future__ import annotations

import re

#: at most this many words: a label, not a sentence that lost its full stop
LABEL_WORDS = 12
#: what ends a sentence (a label ends with none of these)
_END = re.compile(r"[.!?:;,]\s*$")
#: a list item, a table row, a code fence or a markdown heading: not a plain label
_NOT_LABEL = re.compile(r"\s*(?:[-*+\u2022>|]|\d+[.)]\s|\[\d+\]|```|#)")


def _label(line: str) -> bool:
    words = line.split()
    return 0 < len(words) <= LABEL_WORDS and not _END.search(line) and not _NOT_LABEL.match(line)


def label_lines(text: str) -> list[str]:
    """The answer's plain-text headings (module doc): the first line when a blank line
    follows it (a title), and a line after a blank line (or the first) with a line of text
    right under it (a heading and its paragraph); each without end punctuation, at most
    :data:`LABEL_WORDS` words, no list item or table row. An answer of one paragraph has
    none."""
    lines = text.splitlines()
    out: list[str] = []
    for i, line in enumerate(lines):
        if not _label(line):
            continue
        before = lines[i - 1].strip() if i else ""
        after = lines[i + 1].strip() if i + 1 < len(lines) else None
        rest = any(x.strip() for x in lines[i + 2 :])
        title = i == 0 and after == "" and rest
        heading = before == "" and bool(after) and any(not x.strip() for x in lines)
        if title or heading:
            out.append(line)
    return out


def labelled_paragraphs(text: str) -> list[list[str]]:
    """Each heading of :func:`label_lines` with the lines of the paragraph under it (to the
    next blank line or label): the unit a status-page phase says at once."""
    lines = text.splitlines()
    labels = set(label_lines(text))
    out: list[list[str]] = []
    for i, line in enumerate(lines):
        if line not in labels:
            continue
        para: list[str] = [line]
        for x in lines[i + 1 :]:
            if not x.strip() or x in labels:
                break
            para.append(x)
        if len(para) > 1:
            out.append(para)
    return out
