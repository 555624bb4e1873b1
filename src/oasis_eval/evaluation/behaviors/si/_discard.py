"""What a discard sets aside and what it gives as its reason (behaviors rules 236-237),
shared by :func:`.safety_detection.identify_misleading_signal` and
:func:`.oom_cause.find_actual_root_cause_oom`. Registers no behavior.

A *copular denial* ("X was considered and discarded as the cause", "X is not the cause",
"X was ruled out") sets aside its subject X: the words before it, back to the clause's
start (a ``;``, ``:`` or a joined "and"/"but"); a label heading a sentence ("Ruled out: X,
Y.") sets aside what follows it (rule 254). Its own words ("discarded as the cause")
are no reason for setting X aside: the reason is what the rest of the sentence says.
"""

from __future__ import annotations

import re

from .._cue import Cue
from .._discards import discarded_texts
from ..text import term_regex

#: a copular denial: its subject (the words before it) is set aside as a cause
DENIAL = Cue(
    r"\b(?:is|was|are|were|has been|have been)\s+(?:also\s+)?"
    r"(?:(?:considered|checked|examined|investigated)\s+and\s+(?:discarded|dismissed|rejected)"
    r"|discarded|dismissed|ruled\s+out)\b"  # "the patch was rejected" denies no cause
    r"|\b(?:is|was|are|were)\s+(?:not|never)\s+(?:the|a|an)\s+(?:\w+\s+)?"
    r"(?:cause|culprit|reason|problem|explanation)\b"
    r"|\b(?:is|was|are|were)\s+(?:a\s+)?red\s+herring\b",
    re.IGNORECASE,
)
#: where a denied clause's subject starts (after the last of these before the denial)
_SUBJECT_START = re.compile(r"[;:]|,\s+(?:and|but|while|whereas)\s|\s(?:but|whereas)\s", re.I)
#: the noun a discard names itself by ("discarded as the cause"): the cue's own words
_OWN_NOUN = re.compile(
    r"\s+as\s+(?:the|a|an)\s+(?:\w+\s+)?(?:cause|culprit|explanation|reason)\b", re.I
)


#: a label heading what it sets aside ("Ruled out: X.", "**Ruled out:** X, Y", "Ruled out /
#: weighed: X; Y", "Red herrings: X"): the rest of the sentence is denied (rule 254)
_HEADING = re.compile(
    r"^[\W_]*(?:ruled\s+out|dismissed|discarded|not\s+the\s+cause|red\s+herrings?)"
    r"(?:\s*/\s*\w+(?:\s+\w+)?)?[*_\s]*:[*_\s]*(\S.*)$",
    re.IGNORECASE,
)


def denied_subjects(sentence: str) -> list[str]:
    """The subjects a sentence's copular denials set aside (rule 236), and what a label
    heading it sets aside ("Ruled out: X.", rule 254)."""
    heading = _HEADING.match(sentence)
    # what the label heads, up to where its reason starts, as rule 266 reads a labelled item
    out = discarded_texts(heading.group(1), item=True) if heading else []
    for m in DENIAL.finditer(sentence):
        head = sentence[: m.start()]
        starts = [b.end() for b in _SUBJECT_START.finditer(head)]
        subject = head[starts[-1] if starts else 0 :].strip(" ,-")
        if subject:
            out.append(subject)
    return out


def denies_any(sentence: str, terms: list[str] | tuple[str, ...]) -> str | None:
    """The subject of a copular denial in ``sentence`` naming one of ``terms``, else None:
    the sentence sets that term aside ("An OOM kill of W ... was considered and discarded as
    the cause": the OOM is denied, not stated)."""
    regexes = [term_regex(t) for t in terms]
    # rule 265: a candidate discarded in any voice or under a label, as the text layer reads it
    said = [*denied_subjects(sentence), *discarded_texts(sentence)]
    return next((s for s in said if any(r.search(s) for r in regexes)), None)


def without_cue(sentence: str, cue: Cue) -> str:
    """``sentence`` with ``cue``'s matches blanked, each with the noun the discard names
    itself by ("discarded *as the cause*"): what is left is the discard's reason (rule 237)."""
    out, at = [], 0
    for m in cue.finditer(sentence):
        if m.start() < at:
            continue
        out.append(sentence[at : m.start()])
        own = _OWN_NOUN.match(sentence, m.end())
        at = own.end() if own else m.end()
        out.append(" ")
    out.append(sentence[at:])
    return "".join(out)


def reason_after(sentence: str, cue: Cue) -> str:
    """The words after the last match of ``cue`` (and its own noun), normalised: a discard's
    stated reason, to compare across discards (rule 237)."""
    last = None
    for m in cue.finditer(sentence):
        last = m
    if last is None:
        return ""
    own = _OWN_NOUN.match(sentence, last.end())
    tail = sentence[own.end() if own else last.end() :]
    return " ".join(re.findall(r"[a-z0-9]+", tail.lower()))
