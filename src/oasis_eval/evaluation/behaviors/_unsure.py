"""The agent's own uncertainty over a list or a sentence (issue 27 item 1; behaviors rules 10
and 54): what follows "I'm not sure which of these ..." or "I can't confirm ..." is the
uncertainty's subject, put forward, not committed to. Read by :mod:`._claims` with the
sentences that hedge a cause (:func:`._claim_views.hedged_sentences`); rule 356 carries the
uncertainty over the rest of its paragraph (:func:`hedged_in_scope`), rule 382 over every
later sentence naming the object the uncertainty is about.
"""

from __future__ import annotations

import re

from ..reading import per_judgement
from ._cue import Cue
from ._words import HEDGE, clauses, sentences

_I = re.IGNORECASE


def uncertain_list(sentence: str) -> bool:
    """A hedge opening a list after a colon ("I'm not sure which of these explains it: A is
    X; B is Y; C is Z"): every item is a candidate, none is committed to (issue 27 item 1)."""
    head, colon, tail = sentence.partition(":")
    return bool(colon) and bool(HEDGE.search(head)) and len(re.findall(r"[;,]", tail)) >= 2


#: the agent's own uncertainty (not "might", "if", "whether": those hedge one claim)
_UNSURE = Cue(
    r"\b(?:unclear|uncertain\w*|unsure|not (?:yet )?(?:sure|certain|confident|clear)|"
    r"(?:can't|cannot|can not|couldn't|could not|unable to|not able to) (?:yet )?"
    r"(?:confirm|tell|determine|say|verify|be sure|pinpoint|establish|"
    # rule 306: rule 275's phrasal verbs ("could not pin down a single root cause")
    r"(?:pin|nail|narrow|track) down|figure out|work out)|"
    r"(?:don't|do not|didn't|did not) (?:yet )?know|no idea|hard to (?:say|tell))\b",
    _I,
)
#: rule 275: a confidence rating given as low, as a label opening the sentence ("**Confidence:**
#: low — ..."; a clause split at the colon would part the label from its rating)
RATED_LOW = re.compile(
    r"^\W*confidence(?: level)?\W{0,3}\s*[:=\u2014\u2013-]\W*\s*(?:very |rather )?low\b", _I
)
_CONTRAST = Cue(r"\b(?:but|however|though|although|yet)\b", _I)


@per_judgement  # issue 30, session 32: asked again of one text
def unsure_opening(sentence: str) -> bool:
    """A sentence opened by the agent's uncertainty (rule 54): its head before a colon ("I'm
    not sure what is behind this: the log reports ...") or its first clause, with no contrast
    after it ("I'm not sure about DNS, but the certificate has expired" commits), says
    unsure. What follows is the uncertainty's subject, not a finding committed to. Rule 306:
    rule 275's wordings open one too, a low rating ("**Confidence:** low: ... I see X; Y")
    and "could not pin down / narrow down" ("I could not pin down a cause for W: I see X")."""
    if RATED_LOW.match(sentence):
        return True
    head, colon, _ = sentence.partition(":")
    if colon and _UNSURE.search(head):
        return True
    first = clauses(sentence)[:1]
    return bool(first and _UNSURE.search(first[0]) and not _CONTRAST.search(sentence))


#: rule 356: a cue committing again after an unsure opening ends its scope ("but", "however",
#: a cause stated as found, the agent's own certainty)
_COMMITS = Cue(
    r"\b(?:but|however|though|although|yet|(?:i am|i'm) (?:now )?(?:sure|certain|confident)|"
    r"(?:root )?cause (?:is|was)|confirmed|definitely)\b",
    _I,
)
_BARE_RATING = re.compile(RATED_LOW.pattern + r"\W*$", _I)
#: rule 473: the agent's own confidence said low in a clause ("Because my confidence is low, I
#: escalate ...", "I have low confidence in this"): the whole answer rated, as a bare rating
_OWN_LOW = Cue(
    r"\b(?:my|our) (?:overall )?confidence (?:here |in (?:this|it|these|them) )?(?:is|was|"
    r"remains|stays) (?:very |rather |quite )?low\b|\b(?:i|we) (?:have|had) (?:very |rather )?"
    r"low confidence\b",
    _I,
)


def hedged_in_scope(source: str) -> set[str]:
    """Rule 356: the sentences an unsure opening or a low rating standing apart hedges. An
    unsure opening ("I could not pin down a cause for W.") hedges the sentences after it in
    its paragraph (up to a blank line), up to one carrying a committing cue, and (rule 382)
    every later sentence naming W with no committing cue, past blank lines; a low rating
    given alone ("**Confidence:** low.", the rating and nothing else) or the agent's own
    confidence said low in a clause ("my confidence is low", rule 473) rates the whole
    answer, so every sentence of it but those carrying a committing cue is put forward
    hedged."""
    paragraphs = [sentences(p) for p in re.split(r"\n\s*\n", source)]
    if any(_BARE_RATING.match(s) or _OWN_LOW.search(s) for p in paragraphs for s in p):
        return {s for p in paragraphs for s in p if not _commits(s)}
    out: set[str] = set()
    subjects: set[str] = set()
    whole = False  # rule 421: an unsure opening standing alone hedges what follows
    for paragraph in paragraphs:
        opened = whole
        for s in paragraph:
            if opened and _commits(s):
                break
            if opened:
                out.add(s)
            elif subjects and _restates(s, subjects):
                out.add(s)  # rule 382
            if unsure_opening(s):
                opened = True
                subjects |= _subject_of(s)
        whole = whole or (len(paragraph) == 1 and _alone(paragraph[0]))
    return out


#: rule 420: a list after a colon ("But I confirmed in W: A; B"), two items or more; rule 452:
#: or three parted by commas ("... in W: A, B and C", "A, B, C")
_LISTED = re.compile(r":[^:;]+;\s*\S|:[^:;]*,[^:;,]+,?\s+(?:and|or)\s+\S|:[^:;]*,[^:;]*,")


def _commits(sentence: str) -> bool:
    """Rules 356 and 420: a sentence committing again (:data:`_COMMITS`) to something of its
    own; a committing cue heading a list of two items or more ("But I confirmed in W: A; B";
    rule 452: three parted by commas, "A, B and C") restates what was read and singles out
    nothing: it stays in the hedge's scope."""
    return bool(_COMMITS.search(sentence)) and not _LISTED.search(sentence)


def _alone(sentence: str) -> bool:
    """Rule 421: an unsure opening that claims nothing of its own ("**Confidence:** low: I
    could not pin down a single root cause for namespace default."), given as its own
    paragraph, speaks of the whole answer as a bare low rating does: what follows is put
    forward, not committed to, up to a committing cue."""
    rest = RATED_LOW.sub("", sentence, count=1)
    if not unsure_opening(sentence) or ":" in rest.strip(" *:"):
        return False
    return bool(_UNSURE.search(rest)) or rest.strip(" *.:") == ""


#: rule 382: the object an unsure opening is about ("... a single root cause for gateway")
_SUBJECT = re.compile(r"\b(?:for|of|behind|with)\s+\W*([a-z][\w.-]*[a-z0-9])\W*$", _I)

#: words ending an unsure opening that name no object ("for it", "for now", "of this")
_NO_SUBJECT = frozenset(
    {"it", "this", "that", "these", "those", "them", "now", "sure", "certain", "here", "there"}
    | {"me", "us", "you", "one", "all", "any", "both", "each", "either", "yet"}
)


def _subject_of(sentence: str) -> set[str]:
    """Rule 382: the name an unsure opening, or its head before a colon, ends on."""
    found = (_SUBJECT.search(part.strip()) for part in (sentence, sentence.split(":")[0]))
    return {m.group(1).lower() for m in found if m} - _NO_SUBJECT


def _restates(sentence: str, subjects: set[str]) -> bool:
    """Rule 382: a later sentence naming an unsure opening's subject (its pods' names
    included) and carrying no committing cue: what the opening was unsure of, put forward."""
    if _commits(sentence):
        return False
    low = sentence.lower()
    return any(re.search(rf"(?<![\w-]){re.escape(w)}\b", low) for w in subjects)
