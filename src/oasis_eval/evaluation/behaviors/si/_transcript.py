"""A terminal transcript's comments belong to their command (behaviors rule 1050).

An engineer pasting a session into a ticket writes each step as its shell prompt line
(``$ kubectl get pods -n payments``), a few lines of what came back, then ``# `` comment lines
saying what that shows, why it was run and what asked for it. The comments annotate the
command above them, not the answer at large: a trail entry that is a prompt line carries the
comment lines of its block (up to the next prompt line), as a person reads the paste.
"""

from __future__ import annotations

import re

#: a shell prompt line: ``$`` and a command (``$ kubectl get pods``, ``  $ logs_query --tail=50``)
PROMPT = re.compile(r"^\s*\$\s+\S")
#: a shell comment line: ``#``, a space, words (``# why: ... (trigger: operator request)``)
COMMENT = re.compile(r"^\s*#\s+\S")
#: output lines a block may hold before its comments (a trimmed paste keeps a few)
OUTPUT_MOST = 12


def block_comments(lines: list[str], i: int) -> list[str]:
    """The comment lines annotating the prompt line ``lines[i]``: the first run of comment
    lines after its output, before the next prompt line; none when ``lines[i]`` is no prompt
    line, or more than :data:`OUTPUT_MOST` lines of output stand between."""
    if not PROMPT.match(lines[i]):
        return []
    out: list[str] = []
    output = 0
    for line in lines[i + 1 :]:
        if PROMPT.match(line):
            break
        if COMMENT.match(line):
            out.append(line)
        elif out:
            break
        else:
            output += 1
            if output > OUTPUT_MOST:
                return []
    return out
