"""Faults stated plainly as present, judged for precision (issue 27 item 1, rule 20).

Split from :mod:`._claims` (which calls :func:`stated_faults` from
:func:`._cause_check.check_causes`): a committed clause that says something fails and names a
fault class the environment does not make true is a wrong claim, like a wrong cause.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Mapping, Sequence
from typing import Any

from ..reading import per_judgement
from ._cue import Cue, Searcher
from ._hedge_kept import hedge_skipped
from ._named_cause import restates
from ._output import Forms, echoed_command
from ._question import mask_questions
from ._see_said import unseen
from ._why_chain import is_why
from ._words import Phrases, clauses, mask_quotes, name_regex
from .text import AnswerText

_I = re.IGNORECASE
#: a clause that states a fault as present: a failure or fault-state word beside the class
FAULT_STATE = Cue(
    r"\b(?:fail\w*|error\w*|crash\w*|broke\w*|exhaust\w*|expir\w*|down|outage|block\w*|"
    r"den(?:y|ies|ied)|drop\w*|reject\w*|refus\w*|missing|not found|invalid|stuck|pending|"
    r"throttl\w*|pressure|killed|oom\w*|backoff|leak\w*|saturat\w*|overload\w*|"
    r"time[sd]?[\s-]?out|unreachable|unavailable|unhealthy|not ready|no ready|degraded|"
    r"exceed\w*|no space|nxdomain|deadlock\w*|contention|bottleneck|slow\w*|spik\w*|pegged|"
    r"faulty|bad|regress\w*|unschedulable|insufficient|corrupt\w*|misconfigur\w*|lacks?|"
    r"absent|wrong|too (?:low|high|many|small)|runs? out|ran out|out of|"
    # behaviors rule 216: a demand stated against what the capacity offers ("requests
    # 2500m CPU, more than any node can offer"), as "exceeds" states it
    r"more than (?:what )?(?:\w+\s+){0,3}?(?:can|could) (?:offer|fit|hold|provide|give|"
    r"allocate|accommodate|take|schedule)|"
    # rule 251: the same comparison said as what no node has or fits ("no node has that much
    # unrequested left", "does not fit on any node", "too big for the free room")
    r"no (?:node|host|machine)s? (?:has|have|offers?) (?:that much|enough|room)|"
    # rule 974: the same said of the node sought ("finds no node with enough free CPU")
    r"no (?:node|host|machine)s? (?:with|that has|having) (?:enough|sufficient)|"
    r"(?:does not|doesn't|won't|will not|cannot|can't|can not) fit|too (?:big|large) for)\b",
    _I,
)
#: rule 216's comparison with what the capacity offers, in rule 251's words too (a fault word
#: only where the agent read what it offers: rule 238, :func:`._offer_read.offer_read`; rule
#: 974: the plural too, "no machines having sufficient CPU")
CAPACITY = Cue(
    r"^(?:more than|no (?:node|host|machine)s?|(?:does not|doesn't|won't|will not|cannot|can't|"
    r"can not) fit|too (?:big|large) for)\b",
    _I,
)
#: a clause about looking at something, not stating it ("see every pod's readiness",
#: "check node conditions"); "checked that X failed" still states X
_LOOKING = Cue(
    r"\b(?:see|check(?:ed|ing|s)?|know|look(?:ed|ing)? (?:at|for)|map|inspect\w*|quer\w*|"
    r"list(?:ed|ing)?|get|watch\w*|review\w*|examin\w*|fetch\w*|describ\w*|monitor\w*|"
    r"read(?:ing)?)\b(?!\s+that\b)",
    _I,
)


#: rule 611: a clause that says what followed ("..., so it is taken out of the endpoints",
#: "which means", "as a result", "and therefore"): an effect, not a fault of its own
EFFECT = Cue(
    r"^(?:and\s+)?(?:so|hence|therefore|thus|consequently|as a (?:result|consequence)|"
    r"which (?:means|meant|leaves|left))\b(?!\s+that\b)",
    _I,
)
#: the consequence word alone, its clause after the comma ("As a result, W has no endpoints")
_EFFECT_ALONE = Cue(
    r"^(?:and\s+)?(?:therefore|thus|hence|consequently|as a (?:result|consequence))$", _I
)


def stated_faults(
    text: AnswerText,
    found: Iterable[Any],
    observed: set[str] | frozenset[str],
    truth: Sequence[Searcher],
    names: Iterable[str] = (),
    classes: Mapping[str, Phrases] | None = None,
    causes: set[str] | frozenset[str] = frozenset(),
    hedged: Container[str] | None = None,
) -> list[str]:
    """Faults stated plainly as present that the environment does not make true (issue 27
    item 1): "The TLS certificate of W has expired." with no cause cue is a claim of that
    fault, judged like a cause. Per clause of a plain statement (not hedged, rebutted, an
    account of a call or tool output) that says something fails (:data:`FAULT_STATE`) and is
    not about looking at it (:data:`_LOOKING`), each fault class named unnegated, with no ground-truth
    term in the clause, outside the classes the scenario makes true (``observed``: the truth's
    own and those its state and injected stimuli name, so "the node CPU is at 97 %" is an
    observation) is one wrong claim, once per sentence and class; a clause reproducing one of
    the agent's calls, a trail row's cell, is none (rule 257). ``found`` are the answer's
    claims (:func:`._claims.claims`), ``classes`` the fault catalogue
    (:func:`._claims.catalogue`). Rule 611: a clause after a consequence word (:data:`EFFECT`)
    that follows, in its sentence, a clause stating the true cause (a ground-truth term, or a
    class of ``causes``, the truth's own, object names blanked) says what the fault did: none.
    Rule 610: what a sentence only asks (:func:`._question.mask_questions`) states nothing.
    Rule 988: ``hedged``, the answer's hedged and candidate sentences: a hedged plain statement
    outside them is judged (:func:`._hedge_kept.hedge_skipped`). Rule 1147: a clause restating
    a served line (:func:`._named_cause.restates`, rule 212: a describe's event row "Warning
    BackOff 7m50s kubelet Back-off restarting failed container ...") is what the tool said; its
    reporter ("kubelet") states no node fault."""
    masks = [name_regex(n) for n in sorted(set(names), key=len, reverse=True) if n]
    forms: Forms = getattr(text, "forms", None) or Forms()
    out: list[str] = []
    for claim in found:
        if claim.causal or hedge_skipped(claim, hedged) or text.account(claim.text):
            continue  # rule 988: a hedge the committed view keeps is judged
        if claim.rebutted and not claim.aside:
            continue  # rule 590: a rebuttal's reason blames nothing, yet states what it says
        if is_why(claim.text):
            continue  # rule 503: a "Why ...?" question states the symptom it asks about
        seen: set[str] = set()
        cause = after = False  # rule 611: the true cause stated; the clause before said "so"
        denied = False  # rule 897: the clause before ended in a denial ("with no crash")
        for clause in clauses(mask_quotes(mask_questions(claim.text))):  # rule 610
            bare = unnamed(clause, masks)
            listed, denied = denied and bool(_LIST_TAIL.match(bare)), _ends_denied(bare)
            if listed:
                continue  # rule 897: "no A, B or C": the denial reaches every item of its list
            effect, after = (
                cause and (after or bool(EFFECT.match(clause))),
                bool(_EFFECT_ALONE.match(clause)),
            )
            cause = cause or _true_cause(bare, truth, causes, classes or {})
            if effect or any(r.search(clause) for r in truth) or echoed_command(clause, forms):
                continue  # rule 257: a call quoted (``rollout status ... --timeout=60s``)
            if not FAULT_STATE.search(bare) or _LOOKING.search(unseen(bare)):
                continue  # rule 993: "I see X" reports X
            for name, phrases in (classes or {}).items():
                if name in observed or name in seen:
                    continue
                hits = [m for m in phrases.matches(bare) if not AnswerText.negated(bare, m.start())]
                if hits and _restated(clause, getattr(text, "served_lines", frozenset())):
                    break  # rule 1147: a served line restated is what the tool said
                if hits:
                    seen.add(name)
                    out.append(clause)
    return out


@per_judgement
def _restated(clause: str, lines: frozenset[str]) -> bool:
    """Rule 1147: ``clause`` restates a served line (rule 212's test), read once per clause
    and run (issue 30: the served lines are scanned per call)."""
    return restates(clause, lines)


#: rule 897: a clause going on with a list its last item closes ("OOM kill or config error
#: behind it" after "with no crash"): a few words, then "or"/"nor"
_LIST_TAIL = Cue(r"^\s*(?:[\w'/-]+\s+){0,3}?[\w'/-]+\s+(?:or|nor)\s", re.IGNORECASE)
#: a clause ending in a denied noun phrase ("with no crash", "without any OOM kill")
_DENIAL_END = Cue(
    r"\b(?:no|without(?:\s+any)?|neither|not\s+any)\s+(?:[\w'/-]+\s+){0,2}[\w'/-]+\W*$", re.I
)


def _ends_denied(clause: str) -> bool:
    """Rule 897: the clause ends in a denied noun phrase of up to three words ("with no
    crash"): the first item of a list the next clauses may go on with."""
    return bool(_DENIAL_END.search(clause))


def _true_cause(
    bare: str,
    truth: Sequence[Searcher],
    causes: set[str] | frozenset[str],
    classes: Mapping[str, Phrases],
) -> bool:
    """Rule 611: ``bare`` (object names blanked) states the true cause, a ground-truth term or
    a phrase of one of ``causes`` unnegated (an observed class is not enough: a signal the
    environment shows is no cause its effects follow from)."""
    if any(r.search(bare) for r in truth):
        return True
    return any(
        not AnswerText.negated(bare, m.start())
        for name in sorted(causes)
        if name in classes
        for m in classes[name].matches(bare)
    )


def says_fault(sentence: str) -> bool:
    """Rule 591: ``sentence`` says something is wrong: a clause with a fault-state word
    (:data:`FAULT_STATE`) not negated and not about looking at it (:data:`_LOOKING`). "The TLS
    handshake of W fails: its certificate expired" does; "I looked at the TLS certificate of
    W", "the TLS certificate of W" name a part and say nothing of it."""
    for clause in clauses(sentence):
        if _LOOKING.search(clause):
            continue
        for m in FAULT_STATE.finditer(clause):
            if not AnswerText.negated(clause, m.start()):
                return True
    return False


def unnamed(clause: str, masks: list[Cue]) -> str:
    """``clause`` with each of ``masks`` blanked, in order; a mask whose literal the current
    text lacks (:meth:`.Cue.absent_from`, what its own ``sub`` would test) is not asked
    (issue 30: a scenario's hundred names, asked of every clause)."""
    low = clause.lower() if clause.isascii() else None
    for mask in masks:
        if low is not None and mask.absent_from(low):
            continue
        blanked = mask.sub(" ", clause)
        if blanked != clause:
            clause = blanked
            low = clause.lower() if clause.isascii() else None
    return clause
