"""Causes checked with precision against the ground truth (core §3.5.2, §3.5.4; issue 13).

**Precision** (:func:`check_causes`): each asserted cause slot is one cause, or, when it
enumerates three or more items (split at ``;``, ``,``, ``or``, ``and``), one cause per
item. A cause is *correct* when it names a ground-truth term or a fault class of the
ground truth (:func:`._claims.catalogue`, general platform vocabulary from the plugins) and no other
class, *wrong* when it names another fault class (or a declared misleading term) and no
ground-truth term, and *neutral* otherwise (mechanism, consequence, anaphora: "the new
version"). Wrong causes committed to need more right ones committed: a tie of committed
causes singles out none (:attr:`CauseCheck.precise`, behaviors rules 177, 193).

The claims read are :mod:`._claims`'s; a hedged right cause is credited at most
:data:`HEDGED_CREDIT` of a committed one (:attr:`CauseCheck.committed`), so hedging never
scores above committing to the right cause (issue 27 item 1).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache

from ._cause_tail import effect_tail
from ._claim_views import hedged_sentences
from ._claims import (
    ARROW,
    CAUSE_BEFORE,
    Claim,
    catalogue,
    claims,
    fault_classes,
    labelled,
    read_items,
)
from ._cue import Cue
from ._explained import explained
from ._named_cause import names_cause, of_reading, unrestated
from ._stated import stated_faults, unnamed
from ._why_chain import right_later
from ._words import name_regex, term_regex
from .text import AnswerText, quote

#: the share of a committed claim's credit a hedged right claim earns (never more)
HEDGED_CREDIT = 0.5


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
    truths = (truth, true_classes)
    masks = [name_regex(n) for n in sorted(set(names), key=len, reverse=True) if n]
    found, hedged = claims(text), hedged_sentences(text)  # rule 988: the hedged sentences
    if observed is not None:
        out.wrong += stated_faults(
            text, found, true_classes | observed, truth, names, catalogue(), true_classes, hedged
        )
    # rule 387, read only where a slot is a chain: the faults said as the true cause's effects
    effects = cache(lambda: _effect_classes(found, truth, true_classes))
    read = list(map(labelled, found))
    later = cache(lambda: right_later(read, lambda c: _commits_right(c, truth, true_classes)))
    for k, claim in enumerate(read):
        if not claim.judged:
            continue
        out.asserted += claim.asserted
        before, committed = len(out.correct), out.committed_wrong
        wrong, neutral, located = len(out.wrong), out.neutral, out.located
        # rules 182, 212: a log line restated in the slot is what the log says, no cause
        items = ((unrestated(i, text.served_lines), e) for i, e in read_items(claim))
        kept = [(i, e) for i, e in items if i]
        for n, (item, effect) in enumerate(kept):
            item = explained(item, lambda t: _right(t, fault_classes(t), *truths), observed)
            classes = fault_classes(item)
            if _right(item, classes, truth, true_classes):
                (out.correct if claim.asserted else out.hedged_correct).append(item)
            elif claim.asserted and _symptom_side(item, classes, effects):
                out.neutral += 1  # rule 387: the symptom side of the true cause's chain
            elif claim.asserted and _upstream(
                kept[n + 1 :], classes, (truth, true_classes), observed
            ):
                out.neutral += 1  # rule 684: a hop the same slot's right cause ends
            elif claim.asserted and claim.link and later()[k] and _seen(classes, observed):
                out.neutral += 1  # rule 503: a link of a why-chain a right cause explains
            elif _hop(claim, item, classes, observed, wrong_terms) and later()[k]:
                out.neutral += 1  # rule 895: a hop said with its effect, a right cause after
            elif (
                n and claim.asserted and effect_tail(claim, kept, n, truths, observed, wrong_terms)
            ):
                out.neutral += 1  # rule 1141: a right head's effects after its semicolon
            elif _named_fault(item, masks) or any(r.search(item) for r in wrong_terms):
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
        own = _own_object(out, (wrong, neutral, located))  # rule 683
        out.named_other += (
            claim.asserted and len(out.correct) == before and names_cause(claim.text) and not own
        )
    return out


def _own_object(out: CauseCheck, before: tuple[int, int, int]) -> bool:
    """Rule 683: the claim just read named, beside no wrong cause, only the fault's own
    objects (``where``: every neutral item located) where the true finding is stated ("The
    cause is the network rule restrict-backend." beside restrict-backend's effect stated):
    the root cause it names is the fault's object, no other root cause (rule 183)."""
    wrong, neutral, located = before
    named = out.neutral - neutral
    return out.stated and len(out.wrong) == wrong and named > 0 and out.located - located == named


def _upstream(
    after: list[tuple[str, bool]],
    classes: set[str],
    truth: tuple[list[Cue], set[str]],
    observed: frozenset[str] | None,
) -> bool:
    """Rule 684: an item of a slot read from the symptom down ("503 because the proxy cannot
    connect, because service W has no ready endpoints; ..., and those pods are not Ready (see
    init container failure above)") naming only faults the environment makes true
    (``observed``, given), followed in the same slot by an item committing a right cause (no
    consequence): a hop of the chain the right cause ends, no rival cause. A rival said after
    the right cause, or a fault nothing shows, stays wrong."""
    if observed is None or not classes or not classes <= observed:
        return False
    return any(not e and _right(i, fault_classes(i), *truth) for i, e in after)


#: rule 895: the effect said after the cause, in the cause's own sentence ("X, which is why Y")
_EFFECT_AFTER = Cue(r"^[\s,;:-]*(?:(?:which|that|this) is why|that's why)\b", re.IGNORECASE)


def _hop(
    claim: Claim,
    item: str,
    classes: set[str],
    observed: frozenset[str] | None,
    misleading: list[Cue],
) -> bool:
    """Rule 895: a committed claim giving its effect after it ("W has no ready endpoints,
    which is why the ingress answers 503."), whose one item names only faults the environment
    makes true (``observed``, given) and no declared misleading signal, read before a claim
    committing a right cause (the caller's ``later``): a hop of the chain told from the symptom
    down, no rival cause (rule 684 read across sentences). A fault nothing shows, a misleading
    signal, or a hop with no right cause after it stays wrong."""
    if not claim.asserted or observed is None or not classes or not classes <= observed:
        return False
    at = claim.text.find(claim.cause) if claim.cause else -1
    if at < 0 or claim.cause.strip() != item.strip():
        return False
    return bool(_EFFECT_AFTER.match(claim.text[at + len(claim.cause) :])) and not any(
        r.search(item) for r in misleading
    )


def _named_fault(item: str, masks: list[Cue]) -> bool:
    """Rule 896: the item names a fault class outside the scenario's object names: a pod
    called ``batch-processor-x9k2`` is an object, not the CPU fault its name's word spells
    ("node-1 is at 97% CPU, but that comes from batch-processor-x9k2, not from W" blames
    no CPU fault on the pod; renamed, it read so already)."""
    return bool(fault_classes(unnamed(item, masks) if masks else item))


def _seen(classes: set[str], observed: frozenset[str] | None) -> bool:
    """Rule 521: a why-chain's link is an effect the right cause explains only where the
    environment makes its faults true (``observed``; not given: not checked). A chain through
    faults nothing shows ("Why <an expired TLS certificate>? Because of <a DNS failure>.",
    round 37b's ``status_root_chain``) is a list of rival causes, however it ends."""
    return observed is None or classes <= observed


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
    links = ARROW.split(item)
    chain = len(links) > 1 and bool(classes) and not fault_classes(links[0])
    return chain and classes <= effects()
