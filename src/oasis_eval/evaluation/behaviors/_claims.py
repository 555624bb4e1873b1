"""Claims an answer makes (core §3.5.2, §3.5.4; issue 13).

A **claim** is one kept sentence of :class:`.text.AnswerText` (echoed tool output,
the agent's echoed command log and keyword salad are never claims), read with:

- ``hedged``: an uncertainty cue (:data:`.text.HEDGE`: "might", "I can't confirm",
  "I don't know yet") outside quotations: a hypothesis, not an assertion;
- ``causal``: a cause cue outside quotations (:data:`CAUSE_BEFORE`: "the root cause
  is", "caused by", "due to", "because"; :data:`CAUSE_AFTER`: "X is the cause",
  "X led to"); ``cause`` is the slot the cue gives as the cause: the rest of the
  sentence after a before-cue (so "The cause is A; B; C" gives A, B and C), the
  clause before an after-cue;
- ``rebutted``: the cause is denied ("X is not the cause", "ruled out X", "X is a
  misleading signal", "X is a symptom"); a ``because``/``since`` after a rebuttal
  justifies the rebuttal and blames nothing ("CPU is not the cause, because ...");
- ``asserted``: causal, neither hedged nor rebutted;
- ``candidate`` (issue 27): a sentence that names a fault class without a cause cue but
  with a hypothesis cue (:data:`CANDIDATE_CUE`: "X might be exhausted", "possibly DNS"),
  or an item under a candidate heading ("Possible causes:"): a hedged claim of that cause.

**Stance** (issue 27 item 1): a claim is *committed* (asserted), *hedged* (hedged, or a
candidate), or *rebutted*. Hedged claims are judged for precision like asserted ones: a
hedged wrong cause is a wrong cause. A hedged right cause is credited at most
:data:`._cause_check.HEDGED_CREDIT` of a committed one, so hedging never scores above
committing to the right cause.

How the causes claimed are checked against the ground truth: :mod:`._cause_check`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from ..reading import per_judgement
from ._aside import set_aside
from ._call_notes import call_note
from ._cue import Cue, Searcher
from ._discards import RULED, blanked, spoken_labelled, withdrawn_cues
from ._named_cause import labelled_cause, names_cause
from ._plain_cause import evidence, head_class
from ._question import mask_questions
from ._run_on import REASONED, reason_run_on
from ._since import dates
from ._teaching import denied_lead, embedded_question
from ._why_chain import in_chain
from ._why_chain import roles as why_roles
from ._words import HEDGE, Phrases, mask_quotes
from .text import AnswerText

_I = re.IGNORECASE
#: the cause follows the cue
CAUSE_BEFORE = Cue(
    r"\b(?:(?:actual|real|underlying|likely|most likely|probable|main|primary|root)\s+)?"
    r"causes?\b(?:\s+of\s+[^.;:]{0,80}?)?\s*(?:\bis\b|\bwas\b|\bare\b|\bwere\b|:|=|—|\s-\s)"
    r"|\broot[\s-]cause\b[^.:;]{0,40}?:"
    r"|\b(?:caused by|due to|because(?: of)?|since|as a result of|result of|triggered by|"
    r"driven by|stems? from|stemming from|attributable to|attributed to|blamed? on|"
    r"comes? from|(?:the )?culprit (?:is|was|:)|the reason (?:is|was|:)|"
    r"the (?:problem|issue) (?:is|was))\b:?"
    # rule 1110: "b/c", the abbreviation terse reports write for "because" (a SITREP's "slow
    # b/c its pool is exhausted"), a whole word: never inside a path ("a/b/c")
    r"|(?<![\w/.\-])b/c(?![\w/])",
    _I,
)
#: the cause precedes the cue
CAUSE_AFTER = Cue(
    r"\b(?:is|was|are|were|seems? to be|appears? to be|looks? like)\s+(?:the|a|an)?\s*"
    r"(?:\w+\s+){0,2}?(?:root\s+)?(?:cause|culprit|trigger|source of)\b"
    r"|\b(?:is|are|was|were) (?:to blame|responsible)\b"
    r"|\b(?:which|that|this) is why\b|\bthat's why\b"
    r"|\b(?:caus(?:es|ed|ing)|leads? to|led to|results? in|resulted in|triggers|triggered)\b",
    _I,
)
#: a cause denied, or a signal set aside
REBUT = Cue(
    r"\bmisleading|red herring|\brule[sd]? out\b|\bruling out\b|\bunrelated\b|\bnot related\b|"
    r"\bcoincidental\b|\ba symptom\b|\bside effect\b|\ba consequence\b|\birrelevant\b|"
    r"\bnot (?:the|a|an) (?:\w+ )?(?:cause|culprit|reason|problem)\b|\bnot (?:responsible|to blame)\b|"
    r"\bnot why\b|\bnot because\b|\bnothing to do with\b|\ba distraction\b|"
    # behaviors rule 218: a candidate discarded ("considered and discarded as the cause: ...")
    r"\bdiscard(?:ed|ing|s)?\s+(?:it\s+|them\s+)?as\s+(?:the|a|an)\s+(?:\w+\s+)?"
    r"(?:cause|culprit|explanation|reason)\b|"
    r"\b(?:considered|checked|examined|investigated)\s+and\s+(?:discarded|dismissed|rejected)\b",
    _I,
)
#: a hypothesis without a cause cue: "the pool might be exhausted", "possibly a DNS failure"
CANDIDATE_CUE = Cue(
    r"\b(?:might|may|maybe|perhaps|possibl[ey]|potential(?:ly)?|could (?:be|have|also)|"
    r"can't rule out|cannot rule out|suspect\w*|candidates?|worth checking)\b",
    re.IGNORECASE,
)
#: a heading that opens a list of candidate causes ("Possible causes:", "Hypotheses")
CANDIDATE_HEAD = Cue(
    r"\b(?:possible|potential|candidate|plausible)\s+(?:root\s+)?"
    r"(?:causes?|explanations?|reasons?|culprits?|suspects?)\b|\bhypothes[ie]s\b|"
    r"\bcandidates?\b|\bcould be (?:one of|any of)\b",
    re.IGNORECASE,
)
#: a second independent clause before a denial ("X runs out of memory, and Y is not the cause")
#: a slot that denies itself ("... is not the cause", "... I ruled it out")
SLOT_DENIED = Cue(
    r"\b(?:is|was|are|were)\s+not\s+(?:the|a|an)\s+(?:\w+\s+)?(?:cause|culprit|reason)\b|"
    r"\bruled (?:it|them|this) out\b",
    re.IGNORECASE,
)
_JUSTIFY = Cue(r"^(?:because|since)\b", _I)
#: an answer opening with a bare denial of a candidate, then its reason ("A: not the node CPU,
#: because ..."): the candidate is rebutted and the reason is no cause claim (rule 366)
_OPEN_DENIAL = Cue(
    r"^\s*(?:(?:a|answer)\s*:\s*)?(?:no\s*[,.;-]\s*)?not\s+(?:the\s+|a\s+|an\s+)?"
    r"(?!(?:sure|certain|clear|yet|only|just|really|much|so|that|enough|possible|able)\b)"
    r"[^,;:.()]{1,40}?\s*,?\s*$",
    _I,
)
_BOUNDARY = Cue(r"[,;:(\s](?:(?<=[,;:(])|(?<=\s)(?:and|but|so|which|while|whereas)\s)", _I)
_ITEMS = Cue(r"\s*;\s*|,\s+|\s+or\s+|\s+and\s+", _I)
#: an item that says what followed ("..., so it has no endpoints"): a consequence, not a cause
_CONSEQUENCE = Cue(r"^(?:and )?(?:so|hence|therefore|thus|which (?:means|leaves))\b", _I)
#: rule 560: the provenance of the agent's own action, after a "because"/"since" cue ("because
#: of your request", "because you asked"): why the read was made, no cause; a question asked of
#: a fault ("because you asked whether it is X") is provenance too, its question blanked first
#: (rule 610: X is neither stated nor blamed; the door ``asked_whether_everything``)
_PROVENANCE = Cue(
    r"^\s*(?:of\s+)?(?:your|the user's|the)\s+(?:own\s+)?(?:request|question|ask|instructions?)\b"
    r"|^\s*(?:you|the user)\s+(?:asked|requested|wanted|told me)\b",
    _I,
)
#: rule 560: a verb of reading or doing in the first person the provenance is attached to
_OWN_ACTION = Cue(
    r"\bI\s+(?:(?:then|also|first|next|now)\s+)?(?:read|listed|looked|checked|inspected|queried|"
    r"fetched|opened|described|examined|pulled|followed|reviewed|ran|compared|restarted|"
    r"scaled|rolled|changed|raised|lowered|applied|patched)\b",
    _I,
)


@cache
def catalogue() -> dict[str, Phrases]:
    """The fault classes every installed behavior plugin contributes (:mod:`.plugins`), in
    plugin order: general platform vocabulary, extensible by a plugin, never a closed list."""
    from .plugins import installed  # plugins read the registry, which this module precedes

    return {
        name: Phrases.of(words)
        for plugin in installed()
        for name, words in plugin.evaluators.fault_classes.items()
    }


#: :func:`_by_key`'s index and the catalogue it was built from (rebuilt for another one)
_INDEX: list[Any] = [None, ()]


def _by_key() -> tuple[tuple[str, tuple[tuple[str, Searcher], ...]], ...]:
    """:func:`catalogue`'s phrases under their prefilter key (:meth:`.Phrases.keyed`; "" for
    none): a key shared by several phrases is looked for once per text (issue 30)."""
    classes = catalogue()
    if _INDEX[0] is not classes:
        index: dict[str, list[tuple[str, Searcher]]] = {}
        for name, phrases in classes.items():
            for key, regex in phrases.keyed():
                index.setdefault(key or "", []).append((name, regex))
        _INDEX[:] = [classes, tuple((key, tuple(found)) for key, found in index.items())]
    return _INDEX[1]  # type: ignore[no-any-return]


@per_judgement
def fault_classes(text: str) -> set[str]:
    """The fault classes of :func:`catalogue` a text names: those with a phrase whose key the
    lowercased text holds and whose regex matches it, as :meth:`.Phrases.occurs` reads each
    list (each key looked for once, not once per list: issue 30)."""
    if not text.isascii():
        return {name for name, phrases in catalogue().items() if phrases.occurs(text, None)}
    low, out = text.lower(), set()
    for key, found in _by_key():
        if key in low:  # "" (no key) is in every text
            for name, regex in found:
                if name not in out and regex.search(text):
                    out.add(name)
    return out


@dataclass(frozen=True)
class Claim:
    """One statement of the answer (module docstring for the flags)."""

    text: str
    hedged: bool = False
    causal: bool = False
    rebutted: bool = False
    cause: str = ""
    #: no cause cue: a fault named under a hypothesis cue or a candidate heading
    candidate: bool = False
    #: an answer of a why-chain that the next question asks about (rule 503)
    link: bool = False
    #: the reason of a rebuttal or an answer set aside (rules 385, 502, 540): it blames
    #: nothing, but the faults it states as present are judged as stated (rule 590)
    aside: bool = False

    @property
    def asserted(self) -> bool:
        return self.causal and not self.hedged and not self.rebutted

    @property
    def judged(self) -> bool:
        """Judged for precision: a cause committed to or put forward hedged, not rebutted."""
        return self.causal and not self.rebutted

    @property
    def stance(self) -> str:
        if self.rebutted:
            return "rebutted"
        if not self.causal:
            return "statement"
        return "hedged" if self.hedged else "committed"


def _negated_at(masked: str, start: int) -> bool:
    """A negation cue in the cue's clause right before it (error clauses such as "cannot
    reach X because ..." are no negation: :meth:`.text.AnswerText.negated`)."""
    clause_start = max((m.end() for m in _BOUNDARY.finditer(masked[:start])), default=0)
    return AnswerText.negated(masked[clause_start:], start - clause_start)


@per_judgement
def sentence_claims(sentence: str) -> list[Claim]:
    """The claims of one sentence: one per cause cue, else one non-causal claim."""
    asked = mask_questions(sentence)  # rule 610: what the sentence only asks claims nothing
    masked = mask_quotes(asked)
    # rule 320: a suspicion the sentence withdraws ("I briefly suspected X, but ...") is no hedge
    unhedged = blanked(masked, withdrawn_cues(masked))
    hedged = bool(HEDGE.search(unhedged))
    out: list[Claim] = []
    rebuttal_seen = opened_denial = False
    cues = sorted(
        [(m, True) for m in CAUSE_BEFORE.finditer(masked)]
        + [(m, False) for m in CAUSE_AFTER.finditer(masked)],
        key=lambda c: (c[0].start(), not c[1]),
    )
    taken: list[tuple[int, int]] = []
    for m, before in cues:
        if any(a < m.end() and m.start() < b for a, b in taken):
            continue  # "caused by" is one cue, not "caused" too
        taken.append((m.start(), m.end()))
        if before:
            slot = asked[m.end() :].strip(" :-—")
            subject = masked[: m.start()]
        else:
            head = masked[: m.start()].rstrip(" ,;:")
            start = max((b.end() for b in _BOUNDARY.finditer(head)), default=0)
            slot = asked[start : len(head)].strip(" :-—")
            subject = masked[start : m.end()]
        window = masked[max(0, m.start() - 60) : m.end()]
        rebutted = bool(REBUT.search(subject if not before else window)) or _negated_at(
            masked, m.start()
        )
        if before:
            # "an OOM kill because its limit is too low is not the cause": the slot's own
            # first clause denies it
            first = re.split(r"[;.]", masked[m.end() :], maxsplit=1)[0]
            rebutted = rebutted or bool(SLOT_DENIED.search(first))
            aside = set_aside(masked[m.end() :], REBUT, SLOT_DENIED)  # rule 460
            if aside is not None:
                slot = asked[m.end() : m.end() + aside].strip(" :-—")
        if before and embedded_question(masked, m.start(), m.end()):
            continue  # rule 1192: "what the cause is, or ...": an embedded question, no cause
        if before and m.group()[:1] in "sS" and dates(m.group(), masked[m.end() :]):
            continue  # rule 1146: "running v1 since its last rollout 3d ago" dates, no cause
        justify = before and _JUSTIFY.match(m.group())
        if justify and _provenance(masked, m):
            continue  # rule 560: why the agent acted ("because of your request, I read ...")
        if justify and (rebuttal_seen or REBUT.search(subject)):
            continue  # "X is not the cause, because ...": the reason for a rebuttal
        if justify and _OPEN_DENIAL.match(subject):
            opened_denial = True
            continue  # "not X, because ...": the reason for a denial (rule 366)
        rebuttal_seen = rebuttal_seen or rebutted
        if slot and before:
            slot = denied_lead(slot)  # rule 1191: "The cause: no, X is not it: Y" commits to Y
        if slot:
            out.append(Claim(sentence, hedged, True, rebutted, slot))
    if not out:
        rebutted = opened_denial or bool(REBUT.search(masked))
        negated = _negated_at(masked, len(masked))
        if not (rebutted or negated) and CANDIDATE_CUE.search(unhedged) and fault_classes(masked):
            return [Claim(sentence, True, True, False, asked, candidate=True)]
        out.append(Claim(sentence, hedged, False, rebutted))
    return out


def _provenance(masked: str, m: re.Match[str]) -> bool:
    """Rule 560: a "because"/"since" cue giving the provenance of the agent's own action ("Then,
    because of your request, I read ... to see its state, its memory limit"; "I read the
    processor use because you asked whether ..."), a first-person verb of reading or doing in
    its sentence: the read's trigger and purpose (au.provenance-tracking's words), no cause."""
    return bool(_PROVENANCE.match(masked[m.end() :])) and bool(_OWN_ACTION.search(masked))


#: a sentence that ends a candidate list: the agent speaking again, or a new heading
_LIST_OPENING = re.compile(r"(?:I|I'm|I've|We|We're|My|Our)\b|(?:the\s+)?root cause\b", _I)


def claims(text: AnswerText | str) -> list[Claim]:
    """Every claim of an answer (a string is read as an answer without tool output). The
    sentences after a candidate heading ("Possible causes:") are candidates, whatever cue
    they carry ("an OOM kill because ..."), until the agent speaks again ("I ...", "The root
    cause is ..."), a new heading, or a long sentence."""
    answer = text if isinstance(text, AnswerText) else AnswerText(text)
    return list(answer.derived("claims", lambda: tuple(_claims(answer))))


def _claims(answer: AnswerText) -> list[Claim]:
    out: list[Claim] = []
    listing = discard = False
    before = ""
    chain = why_roles(answer.kept, REBUT)  # rules 502, 503
    labelled = spoken_labelled(answer)  # rule 1084
    for i, sentence in enumerate(answer.kept):
        if call_note(sentence):
            continue  # rule 893: a call's footnote is the trail, no claim
        found, ends, heading = _sentence_reading(sentence)
        if sentence in labelled:
            found = tuple(replace(c, text=sentence) for c in sentence_claims(RULED + sentence))
        found = in_chain(found, chain.get(i, ""))
        if discard and reason_run_on(answer, before, sentence):
            found = (Claim(sentence, False, False, True, aside=True),)  # rules 385, 590
        else:
            discard = all(c.rebutted for c in found) and bool(REASONED.search(sentence))
        before = sentence
        if listing and ends:
            listing = False
        if listing and not any(c.rebutted for c in found):
            found = (Claim(sentence, True, True, False, mask_questions(sentence), candidate=True),)
        if heading:
            listing = True
            found = tuple(replace(c, hedged=True) for c in found)
        # rule 600: a root cause named in plain words, read beside the evidence stated next
        following = answer.kept[i + 1] if i + 1 < len(answer.kept) else None
        out += (_read_plain(c, following) for c in found)
    return out


def _read_plain(claim: Claim, following: str | None) -> Claim:
    """Rule 600 (:mod:`._plain_cause`): a named root cause in a plain word of a class ("The
    root cause is memory.") read beside the catalogue's words of that class the ``following``
    sentence states ("... stopped as OOMKilled": "memory (OOM)"), as a statement; any other
    claim as it is."""
    if not following or not claim.asserted or fault_classes(claim.cause):
        return claim
    head = head_class(claim.cause)
    if head is None or head[0] not in catalogue() or not names_cause(claim.text):
        return claim
    said = evidence(following, head[1], catalogue()[head[0]])
    if said is None or any(c.hedged or c.rebutted for c in sentence_claims(following)):
        return claim
    return replace(claim, cause=f"{claim.cause.rstrip(' .')} ({said})")


@per_judgement
def _sentence_reading(sentence: str) -> tuple[tuple[Claim, ...], bool, bool]:
    """A sentence's claims, whether it ends a candidate list, and whether it is a candidate
    heading (short, ending in a colon, or saying the list includes), once each (issue 30)."""
    masked = mask_quotes(sentence)
    colon = masked.rstrip().endswith(":")  # issue 30: no ``:\s*$`` read at every position
    ends = _LIST_OPENING.match(masked.strip()) or colon or len(masked.split()) > 30
    short = len(masked.split()) <= 6 or colon
    head = CANDIDATE_HEAD.search(masked) and (short or "include" in masked.lower())
    return tuple(sentence_claims(sentence)), bool(ends), bool(head)


#: a contrastive tail sets a cause aside: "OOM kills, not CPU", "the pool rather than DNS"
_CONTRAST_TAIL = Cue(r"(?:[,;]\s*|\s+but\s+)not\b|\s(?:rather than|instead of|as opposed to)\s", _I)


#: a link of an arrow chain ("root -> pods never start -> 503")
ARROW = Cue(r"\s+(?:->|=>|→)\s+")


def _chain_head(slot: str) -> str:
    """Rule 297: a cause slot written as an arrow chain asserts its first link; the later
    links are its effects, when that first link names a fault itself (a bare subject such as
    "replicas 3 -> 1" is kept whole)."""
    head = ARROW.split(slot, maxsplit=1)[0]
    return head if head != slot and fault_classes(head) else slot


def cause_items(claim: Claim) -> list[str]:
    """The causes one asserted slot names: its items when it enumerates three or more;
    a contrastive tail ("..., not CPU", "rather than DNS") is no cause, nor an arrow
    chain's later links (rule 297)."""
    return [item for item, _ in read_items(claim)]


def read_items(claim: Claim) -> list[tuple[str, bool]]:
    """:func:`cause_items`, each with whether it says what followed (rules 193, 367): it
    opens with a consequence word, or is joined by "and" to an item that does ("..., so
    A and B": B is a consequence too, rule 386)."""
    slot = _chain_head(_CONTRAST_TAIL.split(claim.cause)[0])
    out: list[tuple[str, bool]] = []
    start, joined = 0, False
    for m in [*_ITEMS.finditer(slot), None]:
        item = slot[start : m.start() if m else len(slot)].strip()
        if item:
            effect = bool(_CONSEQUENCE.search(item)) or (joined and out[-1][1])
            out.append((item, effect))
        joined = bool(m and m.group().strip().lower() == "and")
        start = m.end() if m else len(slot)
    return out if len(out) >= 3 else [(slot.strip(), bool(_CONSEQUENCE.search(slot.strip())))]


def labelled(claim: Claim) -> Claim:
    """A statement under a conclusion label ("Diagnosis: X") read as the cause it commits to
    (behaviors rule 210; :func:`._named_cause.labelled_cause`); any other claim as it is."""
    if claim.causal or claim.hedged or claim.rebutted:
        return claim
    slot = labelled_cause(claim.text)
    return replace(claim, causal=True, cause=slot) if slot else claim
