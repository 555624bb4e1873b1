"""Claims an answer makes, and causes checked with precision (core §3.5.2, §3.5.4; issue 13).

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
:data:`HEDGED_CREDIT` of a committed one (:attr:`CauseCheck.committed`), so hedging never
scores above committing to the right cause.

**Precision** (:func:`check_causes`): each asserted cause slot is one cause, or, when it
enumerates three or more items (split at ``;``, ``,``, ``or``, ``and``), one cause per
item. A cause is *correct* when it names a ground-truth term or a fault class of the
ground truth (:func:`catalogue`, general platform vocabulary from the plugins) and no other
class, *wrong* when it names another fault class (or a declared misleading term) and no
ground-truth term, and *neutral* otherwise (mechanism, consequence, anaphora: "the new
version"). Wrong causes committed to need more right ones committed: a tie of committed
causes singles out none (:attr:`CauseCheck.precise`, behaviors rules 177, 193).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import cache

from ..reading import per_judgement
from ._aside import set_aside
from ._cue import Cue
from ._discards import blanked, withdrawn_cues
from ._named_cause import labelled_cause, names_cause, of_reading, unrestated
from ._run_on import REASONED, reason_run_on
from ._stated import stated_faults
from ._why_chain import in_chain, right_later
from ._why_chain import roles as why_roles
from ._words import HEDGE, Phrases, mask_quotes, term_regex
from .text import AnswerText, quote

_I = re.IGNORECASE
#: the cause follows the cue
CAUSE_BEFORE = Cue(
    r"\b(?:(?:actual|real|underlying|likely|most likely|probable|main|primary|root)\s+)?"
    r"causes?\b(?:\s+of\s+[^.;:]{0,80}?)?\s*(?:\bis\b|\bwas\b|\bare\b|\bwere\b|:|=|—|\s-\s)"
    r"|\broot[\s-]cause\b[^.:;]{0,40}?:"
    r"|\b(?:caused by|due to|because(?: of)?|since|as a result of|result of|triggered by|"
    r"driven by|stems? from|stemming from|attributable to|attributed to|blamed? on|"
    r"comes? from|(?:the )?culprit (?:is|was|:)|the reason (?:is|was|:)|"
    r"the (?:problem|issue) (?:is|was))\b:?",
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
#: the share of a committed claim's credit a hedged right claim earns (never more)
HEDGED_CREDIT = 0.5
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


@per_judgement
def fault_classes(text: str) -> set[str]:
    """The fault classes of :func:`catalogue` a text names (its lists asked outside the memo)."""
    low = text.lower() if text.isascii() else None
    return {name for name, phrases in catalogue().items() if phrases.occurs(text, low)}


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
    masked = mask_quotes(sentence)
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
            slot = sentence[m.end() :].strip(" :-—")
            subject = masked[: m.start()]
        else:
            head = masked[: m.start()].rstrip(" ,;:")
            start = max((b.end() for b in _BOUNDARY.finditer(head)), default=0)
            slot = sentence[start : len(head)].strip(" :-—")
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
                slot = sentence[m.end() : m.end() + aside].strip(" :-—")
        justify = before and _JUSTIFY.match(m.group())
        if justify and (rebuttal_seen or REBUT.search(subject)):
            continue  # "X is not the cause, because ...": the reason for a rebuttal
        if justify and _OPEN_DENIAL.match(subject):
            opened_denial = True
            continue  # "not X, because ...": the reason for a denial (rule 366)
        rebuttal_seen = rebuttal_seen or rebutted
        if slot:
            out.append(Claim(sentence, hedged, True, rebutted, slot))
    if not out:
        rebutted = opened_denial or bool(REBUT.search(masked))
        negated = _negated_at(masked, len(masked))
        if not (rebutted or negated) and CANDIDATE_CUE.search(unhedged) and fault_classes(masked):
            return [Claim(sentence, True, True, False, sentence, candidate=True)]
        out.append(Claim(sentence, hedged, False, rebutted))
    return out


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
    for i, sentence in enumerate(answer.kept):
        found, ends, heading = _sentence_reading(sentence)
        found = in_chain(found, chain.get(i, ""))
        if discard and reason_run_on(answer, before, sentence):
            found = (Claim(sentence, False, False, True),)
        else:
            discard = all(c.rebutted for c in found) and bool(REASONED.search(sentence))
        before = sentence
        if listing and ends:
            listing = False
        if listing and not any(c.rebutted for c in found):
            found = (Claim(sentence, True, True, False, sentence, candidate=True),)
        if heading:
            listing = True
            found = tuple(replace(c, hedged=True) for c in found)
        out += found
    return out


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
_ARROW = Cue(r"\s+(?:->|=>|→)\s+")


def _chain_head(slot: str) -> str:
    """Rule 297: a cause slot written as an arrow chain asserts its first link; the later
    links are its effects, when that first link names a fault itself (a bare subject such as
    "replicas 3 -> 1" is kept whole)."""
    head = _ARROW.split(slot, maxsplit=1)[0]
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


@dataclass
class CauseCheck:
    """Asserted causes split into correct, wrong and neutral (module docstring)."""

    correct: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    neutral: int = 0
    #: asserted cause slots (a catalogue slot counts once)
    asserted: int = 0
    #: neutral causes that name where the fault is (a term of the ground truth's objects)
    located: int = 0
    #: the true finding is stated outside a cause cue ("ledger is OOMKilled."): one correct
    stated: bool = False
    #: correct causes put forward only hedged (issue 27: never credited above committed)
    hedged_correct: list[str] = field(default_factory=list)
    #: wrong causes that were hedged or candidates (counted in :attr:`wrong` too)
    hedged_wrong: int = 0
    #: wrong causes committed to under a cause cue, consequences aside (rule 367; counted in
    #: :attr:`wrong` too)
    asserted_wrong: int = 0
    #: root causes the answer names itself ("the root cause is X") naming no true cause
    named_other: int = 0
    #: :attr:`asserted_wrong` (consequences aside, rule 193); kept apart for the tie rule
    committed_wrong: int = 0
    #: committed claims naming a wrong cause, no right one, nor a figure's cause: rule 198
    rivals: int = 0

    @property
    def right(self) -> int:
        return max(len(self.correct), int(self.stated))

    @property
    def committed(self) -> bool:
        """The right cause committed to (asserted or stated), not only hedged."""
        return self.stated or bool(self.correct)

    @property
    def precision(self) -> float:
        """Right causes over judged ones; the true cause counts once beside a rival (198)."""
        right = max(self.right, int(bool(self.hedged_correct)))
        right = min(right, 1) if self.rivals and self.correct else right
        judged = right + len(self.wrong)
        return round(right / judged, 4) if judged else 1.0

    @property
    def wrong_diagnosis(self) -> bool:
        """Causes asserted, none of them true, and one wrong or pointing nowhere near the
        fault (the right object with the wrong cause is a wrong diagnosis)."""
        return (
            self.asserted > 0
            and not self.correct
            and (bool(self.wrong) or self.neutral > self.located)
        )

    @property
    def precise(self) -> bool:
        """Wrong causes do not outnumber correct ones (hedged ones included), none is the
        cause committed to where the true one is only stated (behaviors rules 177, 183), and
        committed wrong causes are outnumbered by committed right ones (rule 193: a diagnosis
        names the cause; a tie of committed causes singles out none)."""
        if (self.asserted_wrong or self.named_other) and not self.correct:
            return False  # rules 177 and 183
        if self.committed_wrong >= len(self.correct) > 0:
            return False  # rule 193
        if self.rivals and self.correct:
            return False  # rule 198: the true cause is one, however often it is said
        return len(self.wrong) <= max(self.right, int(bool(self.hedged_correct)))

    def lines(self) -> list[str]:
        out = [
            f"asserted causes: {len(self.correct)} correct, {len(self.wrong)} wrong, "
            f"{self.neutral} neutral (precision {self.precision})"
        ]
        if self.hedged_correct or self.hedged_wrong:
            out.append(
                f"hedged or candidate causes: {len(self.hedged_correct)} correct, "
                f"{self.hedged_wrong} wrong (hedged wrong causes count against precision)"
            )
        out += [f'wrong cause asserted: "{quote(w, 100)}"' for w in self.wrong[:3]]
        if self.asserted_wrong and not self.correct:
            out.append("a wrong cause committed to as the cause, the true one not (rule 177)")
        elif self.committed_wrong >= len(self.correct) > 0:
            out.append("committed wrong causes as many as the true one's: a tie (rule 193)")
        elif self.rivals and self.correct:
            out.append("a wrong cause committed beside the true one, said again: a tie (rule 198)")
        elif self.named_other and not self.correct:
            out.append("the root cause named is not the fault, which is only stated (rule 183)")
        return out


def check_causes(
    text: AnswerText,
    true_terms: Iterable[str],
    true_classes: set[str],
    misleading: Iterable[str] = (),
    stated: bool = False,
    where: Iterable[str] = (),
    observed: frozenset[str] | None = None,
    names: Iterable[str] = (),
) -> CauseCheck:
    """Classify every asserted cause against the ground truth (module docstring);
    ``stated``: the caller found the true finding stated (it counts as one correct cause);
    ``where``: terms locating the fault (its objects): a neutral cause naming one is
    :attr:`CauseCheck.located`; ``observed``: the fault classes the environment makes true
    (given, plain statements of other classes are wrong claims: :func:`stated_faults`);
    ``names``: the scenario's object names, masked before a statement's classes are read."""
    near = [term_regex(t) for t in where if t]
    truth = [term_regex(t) for t in true_terms if t]
    wrong_terms = [term_regex(t) for t in misleading if t]
    out = CauseCheck(stated=stated)
    found = claims(text)
    if observed is not None:
        out.wrong += stated_faults(text, found, true_classes | observed, truth, names, catalogue())
    # rule 387, read only where a slot is a chain: the faults said as the true cause's effects
    effects = cache(lambda: _effect_classes(found, truth, true_classes))
    read = list(map(labelled, found))
    later = cache(lambda: right_later(read, lambda c: _commits_right(c, truth, true_classes)))
    for k, claim in enumerate(read):
        if not claim.judged:
            continue
        out.asserted += claim.asserted
        before, committed = len(out.correct), out.committed_wrong
        # rules 182, 212: a log line restated in the slot is what the log says, no cause
        items = ((unrestated(i, text.served_lines), e) for i, e in read_items(claim))
        for item, effect in ((i, e) for i, e in items if i):
            classes = fault_classes(item)
            if _right(item, classes, truth, true_classes):
                (out.correct if claim.asserted else out.hedged_correct).append(item)
            elif claim.asserted and _symptom_side(item, classes, effects):
                out.neutral += 1  # rule 387: the symptom side of the true cause's chain
            elif claim.asserted and claim.link and later()[k]:
                out.neutral += 1  # rule 503: a link of a why-chain a right cause explains
            elif classes or any(r.search(item) for r in wrong_terms):
                out.wrong.append(item)
                out.hedged_wrong += not claim.asserted
                # rules 193, 367, 386: a consequence ("..., so W has no endpoints") is an
                # effect said, not the cause committed to
                out.asserted_wrong += claim.asserted and not effect
                out.committed_wrong += claim.asserted and not effect
            elif claim.asserted:
                out.neutral += 1
                out.located += any(r.search(item) for r in near)
        # rule 198: a claim committing a wrong cause and no right one is a rival diagnosis
        rival = out.committed_wrong > committed and len(out.correct) == before
        out.rivals += rival and not of_reading(claim.text, claim.cause, CAUSE_BEFORE)
        # rule 183: a root cause named (the diagnosis) that names no true cause
        out.named_other += claim.asserted and len(out.correct) == before and names_cause(claim.text)
    return out


def _commits_right(claim: Claim, truth: list[Cue], true: set[str]) -> bool:
    """The claim commits a right cause (an item said as no consequence): rule 503."""
    items = read_items(claim)
    return claim.asserted and any(
        _right(i, fault_classes(i), truth, true) for i, e in items if not e
    )


def _right(item: str, classes: set[str], truth: list[Cue], true: set[str]) -> bool:
    """The item names a ground-truth term, or only fault classes of the ground truth."""
    return any(r.search(item) for r in truth) or bool(classes and classes <= true)


def _effect_classes(found: Iterable[Claim], truth: list[Cue], true: set[str]) -> frozenset[str]:
    """The fault classes the answer gives as what followed from a right cause it commits to
    ("Root cause: X, so ... and W has no endpoints": endpoints; rule 387)."""
    out: set[str] = set()
    for claim in map(labelled, found):
        if claim.asserted:
            items = read_items(claim)
            if any(not e and _right(i, fault_classes(i), truth, true) for i, e in items):
                out.update(c for i, e in items if e for c in fault_classes(i))
    return frozenset(out)


def _symptom_side(item: str, classes: set[str], effects: Callable[[], frozenset[str]]) -> bool:
    """Rule 387: an arrow chain written from the symptom down ("ingress returns 503 -> W has
    endpoints <none> -> ..."), its first link naming no fault, whose faults are all ones the
    answer gives as effects of the right cause it commits to: the chain's links are that
    cause's effects, no rival cause."""
    links = _ARROW.split(item)
    chain = len(links) > 1 and bool(classes) and not fault_classes(links[0])
    return chain and classes <= effects()


def labelled(claim: Claim) -> Claim:
    """A statement under a conclusion label ("Diagnosis: X") read as the cause it commits to
    (behaviors rule 210; :func:`._named_cause.labelled_cause`); any other claim as it is."""
    if claim.causal or claim.hedged or claim.rebutted:
        return claim
    slot = labelled_cause(claim.text)
    return replace(claim, causal=True, cause=slot) if slot else claim
