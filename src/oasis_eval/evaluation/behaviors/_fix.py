"""A change proposed is not a cause stated (behaviors rule 53, issue 27 round 5).

Not an evaluator module (the leading ``_`` keeps the registry loader away). Kept apart from
:mod:`._change` so that the diagnosis readers (:mod:`.detection`, which :mod:`._ops` imports)
can use it without an import cycle.

"I escalate and recommend to raise the memory limit of W" names a fix; it does not state that
the memory limit is the cause. :func:`mask_fixes` blanks each change a sentence puts forward
(a change verb after a modal, "to", a recommendation word or at the start of a clause, with
what it changes up to the end of its clause) before the ground truth is looked for. A change
reported in the past tense ("the rollout changed the image to v4.2.0") is a fact, and stays.
"""

from __future__ import annotations

import re

from ..reading import per_judgement
from ._cue import Cue

_I = re.IGNORECASE
#: verbs that change something (inflected forms listed: "deployment", "address" are not verbs)
CHANGE = Cue(
    r"\b(?:increas\w*|rais(?:e|es|ed|ing)|bump\w*|set(?:s|ting)?|chang(?:e|es|ed|ing)|"
    r"patch\w*|scal(?:e|es|ed|ing)|restart\w*|roll(?:s|ed|ing)?|rollback|revert\w*|"
    r"updat(?:e|es|ed|ing)|apply|appl(?:ies|ied|ying)|add(?:s|ed|ing)?|remov\w*|delet\w*|"
    r"edit(?:s|ed|ing)?|upgrad\w*|downgrad\w*|lower(?:s|ed|ing)?|reduc\w*|adjust\w*|"
    r"redeploy(?:s|ed|ing)?|deploy(?:s|ed|ing)?|undo(?:es|ing)?|undid|restor\w*|drop(?:s|ped|ping)?|"
    r"resiz\w*|replac\w*|giv(?:e|es|ing)\s+(?:it\s+|them\s+)?more)\b",  # rule 368: "give more"
    _I,
)
#: what puts a change forward as a fix rather than reporting one: a modal, "to", a
#: recommendation word or the start of a clause before the verb
_PROPOSED = Cue(
    r"(?:^|[,;:(]|\b(?:to|should|must|would|could|can|will|shall|need|needs|recommend\w*|"
    r"suggest\w*|propos\w*|consider\w*|by|so|then|please|let's|i'll|we'll|or|and))\s*$",
    _I,
)
#: where the object of the proposed change ends
_FIX_END = Cue(r"[,;:.!?()]|\b(?:because|since|as|due|so|which|while|but)\b", _I)
#: the change's own step after a comma, verbless: a field and its value before and after
#: ("..., limit 256Mi -> 512Mi", "..., replicas 2 to 4"): the change's specifics, no finding
#: (rule 472); after a parenthesis, a colon or a semicolon as well ("... (limit 256Mi ->
#: 512Mi)", rule 456)
_STEP = re.compile(
    r"[,(:;]\s*(?:[A-Za-z_][\w.-]*\s+){0,2}\d[\w.]*\s*(?:->|→|=>|\bto\b)\s*\d[\w.]*(?=\s*(?:[,;.!?)]|$))",
    _I,
)
#: a count read off an object ("restarts 0", "restarts: 3"): the change word names a field
#: of a row, and what follows it is a number alone up to the clause's end (rule 405)
_COUNT_ONLY = re.compile(r"\s*[:=]?\s*\d+\s*(?:[,;.!?)]|$)")
#: rule 542: "change" as the first word of an ITSM noun ("Change request: N/A", "the change
#: advisory board", "a change window"): the name of a ticket or a body, no change put forward
_NOUNS = (
    r"requests?|advisory|approv(?:er|ers|al)|log|window|record|ticket|management|"
    r"freeze|control|board|calendar|manager"
)
_CHANGE_NOUN = re.compile(rf"\s+(?:{_NOUNS})\b", _I)
#: rule 640: the label of a ticket's change field, "Change <ITSM noun>:" (an id between:
#: "Change request CHG0042:") or "CR:" / "RFC:": what follows the colon is the field's value;
#: group ``noun``, where the field's value starts to be read as a change put forward
_CHANGE_FIELD = re.compile(
    rf"\bchange\s+(?P<noun>(?:{_NOUNS})\b)(?:[^:.;\n]{{0,60}}?)\s*:(?!//)"
    r"|(?<![\w-])(?P<abbr>(?-i:CRs?|RFCs?))(?:\s*#?[\w-]*\d[\w-]*)?\s*:",
    _I,
)


#: words after a change verb within which what it changes must be named (rule 51)
REACH = 6


def mask_reach(sentence: str) -> str:
    """Rule 640: :func:`mask_fixes`, and each change verb put forward blanked with the
    :data:`REACH` words after it, across a colon or a bracket: what ``names_change`` reads as
    the change ("Change request - memory limit of W 256Mi -> 512Mi") is not the cause it
    follows from (rules 422, 453). A verb in the past tense, or not put forward ("W
    restarts"), reaches nothing here."""
    out = mask_fixes(sentence)
    for m in CHANGE.finditer(sentence):
        if not is_put_forward(sentence, m):
            continue
        stop = m.end()
        for word in sentence[m.end() :].split()[:REACH]:
            stop = sentence.index(word, stop) + len(word)
        out = out[: m.start()] + " " * (stop - m.start()) + out[stop:]
    return out


def is_put_forward(sentence: str, m: re.Match[str]) -> bool:
    """The change verb ``m`` of ``sentence`` is put forward as a fix (:data:`_PROPOSED`
    before it, not a past tense), as :func:`proposed_fixes` reads it."""
    word = m.group(0).lower()
    if word.endswith("ed") or word == "undid":
        return False
    return bool(_PROPOSED.search(sentence[max(0, m.start() - 40) : m.start()]))


@per_judgement
def proposed_fixes(sentence: str) -> list[tuple[int, int]]:
    """The spans (start, end) of the changes ``sentence`` puts forward as fixes: the verb,
    when put forward (:data:`_PROPOSED`, not a past tense), and what it changes up to the end
    of its clause (:func:`mask_fixes`, behaviors rule 60). Once per sentence in a
    judgement (issue 30: each committed reading of the answer blanks its fixes again)."""
    field = _field_value(sentence)  # rule 640: a change field's verbless value
    spans: list[tuple[int, int]] = [field] if field else []
    last = 0
    for m in CHANGE.finditer(sentence):
        word = m.group(0).lower()
        if field and field[0] <= m.start() < field[1]:
            continue  # rule 640: inside the field's value, read whole
        if m.start() < last or word.endswith("ed") or word == "undid":
            continue
        if not _PROPOSED.search(sentence[max(0, m.start() - 40) : m.start()]):
            continue
        if word.endswith("s") and _COUNT_ONLY.match(sentence, m.end()):
            continue  # rule 405: "restarts 0" is a count, not a restart put forward
        if word in ("change", "changes") and _CHANGE_NOUN.match(sentence, m.end()):
            continue  # rule 542: "Change request: ..." names a ticket, it changes nothing
        end = _FIX_END.search(sentence, m.end())
        last = end.start() if end else len(sentence)
        if _labels_value(sentence, m.end()):
            last = len(sentence.rstrip())  # rule 640: "Change proposal: <the change>"
        if end and (step := _STEP.match(sentence, end.start())):
            last = step.end()  # rule 472: "give more memory to W, limit 256Mi -> 512Mi"
        spans.append((m.start(), last))
    return sorted(spans)


#: rule 640: a change field's label after its verb, up to its colon: a few words, an aside
#: in parentheses among them ("Change proposal (needs approval):", "Scale plan:"); a word
#: taken whole (``++``): split in pieces it reaches no other colon, and splitting it each way
#: was tried before failing (issue 30: 4 ms a sentence without a label)
_LABEL = re.compile(r"((?:\s*(?:[\w'/-]++|\([^()]{0,60}\)|,)){0,5}?)\s*:(?!//)")
#: what makes the words before a colon no label: a negation or a past participle ("Change NOT
#: applied:" reports), a field's value of its own ("to 512Mi:")
_NOT_A_LABEL = re.compile(r"\b(?:not|no|never|none)\b|\w+ed\b|\d", _I)


def _label_end(sentence: str, verb_end: int) -> int | None:
    """Rule 640: where the words after a change verb are a field label ("Change proposal
    for approval:", "Scale plan:"), the end of its colon; None else."""
    m = _LABEL.match(sentence, verb_end)
    return m.end() if m and not _NOT_A_LABEL.search(m.group(1)) else None


def _labels_value(sentence: str, verb_end: int) -> bool:
    """Rule 640: the words after a change verb are a field label and a value follows: the
    value is the change the field puts forward, to the end of the sentence. ``names_change``
    reads the words after the colon as what the verb changes; its blanking reaches as far."""
    end = _label_end(sentence, verb_end)
    return end is not None and bool(sentence[end:].strip())


def heads_value(sentence: str) -> bool:
    """Rule 640: ``sentence`` is a change field's label with no value after its colon
    ("Change request:", "Change proposal for approval:" on a line of its own): the sentence
    after it is the field's value, the change put forward."""
    text = sentence.rstrip()
    if not text.endswith(":"):
        return False
    field = _CHANGE_FIELD.search(text)
    if field and field.end() == len(text):
        return True
    return any(
        _PROPOSED.search(text[max(0, m.start() - 40) : m.start()])
        and not m.group(0).lower().endswith("ed")
        and _label_end(text, m.end()) == len(text)
        for m in CHANGE.finditer(text)
    )


def _field_value(sentence: str) -> tuple[int, int] | None:
    """Rule 640: the span of a change field's value put forward as a change: from the
    label's noun ("request: memory limit of W 256Mi -> 512Mi", the noun standing where a
    verb would) to the end of the sentence, when the value does not open with a change verb
    of its own (then that verb's fix is read, as before) and is not empty. Rule 542 reads
    "Change request" as no verb; the field it labels still holds the change it requests."""
    m = _CHANGE_FIELD.search(sentence)
    if not m:
        return None
    value = sentence[m.end() :].strip()
    if not value or CHANGE.match(value):
        return None
    start = m.start("noun") if m.group("noun") else m.start("abbr")
    return start, len(sentence.rstrip())


@per_judgement
def mask_fixes(sentence: str) -> str:
    """``sentence`` with each change it proposes blanked (rule 53): the verb, when put
    forward as a fix (:data:`_PROPOSED`, not a past tense: "the rollout changed the image"
    reports a cause), and what it changes up to the end of its clause. "I recommend to raise
    the memory limit of W" states no memory limit; "W is OOMKilled at its 256Mi limit, so
    raise it" still states the limit."""
    out, last = [], 0
    for start, stop in proposed_fixes(sentence):
        out.append(sentence[last:start])
        out.append(" " * (stop - start))
        last = stop
    return "".join(out) + sentence[last:]
