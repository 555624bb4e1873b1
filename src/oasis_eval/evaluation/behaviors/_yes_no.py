"""A yes/no question of cause and its bare answer read as one statement (behaviors rule 851).

A Q&A answer puts the subject in the question and the verdict in a bare word after it ("Q: Is
the node's CPU the problem? A: No. The CPU is busy, ..."): read sentence by sentence, "No."
names nothing, so the signal the question names was never set aside. Read together, the
answer says what "the node's CPU is not the cause" says, and "Yes." what "the node's CPU is
the cause" says: :func:`answered` writes that statement into the bare answer, and everything
after reads it as the agent's own (its reason, the true cause it denies, the other signals it
sets aside one by one), as it reads the same words written out.

Only a copular question of cause ("Is/Was/Could X (be) the [root] cause|problem|culprit|...?",
a label such as "Q:" before it) followed at once by "No" or "Yes" (a label such as "A:"
before it, a stop, a comma or a dash after it) is read so: a question of another form, or an
answer that does not open with the bare word, is left as written. Not an evaluator module.
"""

from __future__ import annotations

import re

from ..reading import per_judgement

_ASKED = re.compile(
    # the question: a sentence opening (a line, or after a stop), a label such as "Q:"
    r"(?P<ask>(?:^|(?<=[.!?]\s))[ \t>*_#-]*(?:(?:Q|Question)\s*\d*\s*[:.)][*_ \t]*)?"
    r"(?P<aux>is|are|was|were|could|might|would|can)\s+"
    r"(?P<subject>[^?.!\n]{1,80}?)\s+(?:be\s+)?(?:the|a|an)\s+"
    r"(?:(?:root|real|actual|main|primary|underlying)\s+)?"
    r"(?:cause|problem|culprit|reason|issue|explanation|driver|source|bottleneck)\b"
    r"[^?.!\n]{0,60}\?[*_ \t]*"
    # the answer at once: on the next line or the same, a label such as "A:", the bare word
    r"\n?[ \t>*_-]*(?:(?:A|Answer)\s*[:.)][*_ \t]*)?)"
    r"(?P<word>no|yes)\b(?P<stop>[*_]*(?:[.,;:!]|[ \t]+[\u2014\u2013-][ \t])|[*_ \t]*$)",
    re.IGNORECASE | re.MULTILINE,
)


def _statement(m: re.Match[str]) -> str:
    aux, subject = m.group("aux").lower(), m.group("subject").strip()
    verb = {"are": "are", "were": "were", "was": "was"}.get(aux, "is")
    negation = " not" if m.group("word").lower() == "no" else ""
    stop = m.group("stop")
    end = stop if stop.strip(" \t*_") else stop.rstrip(" \t") + "."
    return f"{m.group('ask')}{m.group('word')}, {subject} {verb}{negation} the cause{end}"


@per_judgement
def answered(text: str) -> str:
    """``text`` with each bare "No"/"Yes" answering a yes/no question of cause written out as
    the statement it makes (module docstring): "Q: Is the node's CPU the problem? A: No." ->
    "... A: No, the node's CPU is not the cause."."""
    if "?" not in text:
        return text
    return _ASKED.sub(_statement, text)
