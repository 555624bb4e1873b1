"""The root cause an answer names itself (behaviors rules 181-183, 210-212; issue 27).

A cause cue (:data:`._claims.CAUSE_BEFORE`, :data:`._claims.CAUSE_AFTER`) marks any causal
claim ("because", "leads to"); a *naming* cue marks the one the answer gives as its
diagnosis: "the root cause is X", "Root cause: X", "Cause: X", "the actual cause of the
restarts is X", "X is the root cause", "the culprit is X", "caused by X". Such a claim,
committed to (not hedged, not rebutted: :attr:`._claims.Claim.asserted`), is what the
profile's verification calls the agent's *stated root cause* (SI behavior definitions §5):
:func:`._cause_check.check_causes` counts those that name no true cause (rule 183).

The naming is read from the sentence's structure too, not only from those words (rule
210): a *diagnosis label* ("Diagnosis: X", "Finding: X", "Conclusion: X": a short heading
whose label is the answer's conclusion, :func:`labelled_cause`), and a *copular
attribution*, the cause as the predicate of the sentence's main clause ("The outage is due
to X", "The problem stems from X", "X is to blame").

A log line restated ("the api-service log reports ERROR: pool exhausted", "api-service logs
<a served line's words in order>") is what the log says, not a cause the answer commits to
(rules 182, 212): :func:`unrestated` drops it from a slot. A cue explaining a figure ("CPU
is at 97%, driven by X") gives what makes up a reading, no rival diagnosis (rule 198,
:func:`of_reading`). Registers no behavior.
"""

from __future__ import annotations

import re

from ..reading import per_judgement
from ._cue import Cue
from ._teaching import denied_lead
from ._words import mask_quotes

#: a root cause named as the diagnosis (quotations masked before it is searched)
NAMING = Cue(
    r"\broot[\s-]causes?\b"
    r"|\b(?:actual|real|underlying|main|primary)\s+causes?\b"
    r"|\bthe\s+causes?\s+(?:of\s+[^.;:]{0,80}?\s*)?(?:is|was|are|were)\b"
    r"|^[\W_]*causes?[\W_]*:"
    r"|\bculprit\b|\bcaused by\b",
    re.IGNORECASE,
)
#: rule 210: the cause as the predicate of the main clause: a short subject, a copula (or a
#: verb of origin), then the cause ("The outage is due to X", "The problem stems from X")
ATTRIBUTION = Cue(
    r"^[\W_]*(?:[\w'.-]+\s+){1,4}?"
    r"(?:(?:is|are|was|were|has been|have been)\s+(?:\w+ly\s+|all\s+|entirely\s+)?"
    r"(?:due to|because of|the (?:result|consequence|product) of|a result of|down to|"
    r"attributable to|triggered by|driven by|owed to|explained by)"
    r"|(?:stems?|stemmed|originates?|originated|results?|resulted|comes?|came)\s+from"
    r"|(?:comes?|came|boils?|boiled)\s+down\s+to)\b"
    r"|\b(?:is|are|was|were)\s+(?:to blame|responsible)\b",
    re.IGNORECASE,
)
#: rule 210: a label that heads the answer's conclusion ("Diagnosis:", "Finding:") before a
#: statement; a hedged label ("Possible cause:") is a candidate heading (:mod:`._claims`)
_LABEL = re.compile(r"^[\W_]*(?P<label>[A-Za-z][\w/'-]*(?:\s+[\w/'-]+){0,2})\s*:\s+(?P<slot>\S.*)$")
#: the head words of a conclusion label (the profile's "stated root cause", SI §5): what
#: went wrong and why, as opposed to what to do, what was read or what it affects
_CONCLUSION = Cue(
    r"^(?:(?:the|my|our|final|likely|probable|actual|real|root|main|primary)\s+)*"
    r"(?:diagnos[ie]s|caus(?:e|es)|culprit|finding|conclusion|verdict|explanation)$",
    re.IGNORECASE,
)
#: a label that puts causes forward without committing to one
_HEDGED_LABEL = Cue(r"\b(?:possible|potential|candidate|plausible|likely|suspected?)\b", re.I)
#: a log line restated as what the log says: "the api-service log reports ...", "its logs
#: show ...", up to the end of its clause (a ``;``) or the sentence
_RESTATED = re.compile(
    r"\b(?:the|its|their|[\w.-]+'s)\s+(?:[\w.-]+\s+){0,3}?logs?\s+"
    r"(?:reports?|shows?|says|said|contains?|prints?|reads|records?|has|had)\b[^;]*",
    re.IGNORECASE,
)
#: rule 212: a clause of a slot (split at ``;`` and a joined "and"/"but")
_CLAUSE = re.compile(r"\s*;\s*|,\s*(?:and|but)\s+|\s+and\s+(?=the\s|its\s|[\w.-]+\s+logs?\b)")
_TOKEN = re.compile(r"[a-z0-9](?:[a-z0-9_.-]*[a-z0-9])?")
#: rule 212: a restated line's words, at least this many, all a served line's in its order
RESTATED_WORDS = 4


def labelled_cause(sentence: str) -> str | None:
    """The statement under a conclusion label ("Diagnosis: X" -> "X"; rule 210), else
    None: the label is a short heading (three words at most) naming the conclusion, not
    hedged ("Possible causes:" opens candidates)."""
    m = _LABEL.match(mask_quotes(sentence))
    if m is None or not _CONCLUSION.search(m["label"]) or _HEDGED_LABEL.search(m["label"]):
        return None
    return denied_lead(sentence[m.start("slot") :].strip()) or None  # rule 1191


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def _in_order(words: list[str], line: list[str]) -> bool:
    """``words`` all occur in ``line``, in this order (gaps allowed)."""
    it = iter(line)
    return all(any(w == x for x in it) for w in words)


@per_judgement
def restates(clause: str, lines: frozenset[str]) -> bool:
    """The clause ends in a served line's words (rule 212): past its first one to three words
    (its subject and verb, whatever the verb), :data:`RESTATED_WORDS` or more words, all one
    served line's in their order ("api-service-7c9 logs java.sql.SQLTransientConnectionException
    Cannot connection pool error"). ``lines``: the served lines, lower-cased."""
    words = _tokens(mask_quotes(clause))
    if len(words) < RESTATED_WORDS + 1:
        return False
    rare = max(words[3:] or words[1:], key=len)
    near = [_tokens(line) for line in lines if rare in line]
    return any(
        _in_order(words[k:], line)
        for line in near
        for k in (1, 2, 3)
        if len(words) - k >= RESTATED_WORDS
    )


def unrestated(slot: str, lines: frozenset[str] = frozenset()) -> str:
    """``slot`` without the log lines it restates (rules 182, 212): "X being CrashLoopBackOff,
    and the api log reports pool exhausted" -> "X being CrashLoopBackOff, and"; a clause
    ending in a served line's words (``lines``: the served lines, lower-cased) is dropped."""
    slot = _RESTATED.sub("", slot).strip(" ,;:-")
    if not lines or not slot:
        return slot
    parts = _CLAUSE.split(slot)
    kept = [p for p in parts if not restates(p, lines)]
    return slot if len(kept) == len(parts) else ", ".join(kept).strip(" ,;:-")


def names_cause(sentence: str) -> bool:
    """A naming cue, a conclusion label or a copular attribution in the agent's own words
    (quotations masked; rules 181, 210)."""
    masked = mask_quotes(sentence)
    return bool(NAMING.search(masked) or ATTRIBUTION.search(masked) or labelled_cause(sentence))


#: a clause ending in a figure ("node-1 CPU is at 97%, "): what a cue after it explains
_FIGURE_END = re.compile(
    r"\d+(?:\.\d+)?\s*(?:%|[KMGT]i?B?|m|cores?|ms|s|x)?\)?\s*[,;:]?\s*$", re.IGNORECASE
)


def of_reading(sentence: str, cause: str, cue: Cue) -> bool:
    """The ``cue`` (a cause before its cause) giving ``cause`` in ``sentence`` explains a
    figure the sentence reads ("node-1 CPU is at 97%, driven by batch-processor (1.9
    cores)"): what makes up a reading, not a rival cause of the fault (behaviors rule 198)."""
    at = sentence.rfind(cause) if cause else -1
    head = sentence[: max(at, 0)]
    cues = list(cue.finditer(mask_quotes(head)))
    return bool(cues) and _FIGURE_END.search(head[: cues[-1].start()]) is not None
