"""The OOM root cause behind a misleading signal (SI behavior definitions §5,
``find_actual_root_cause_oom``): the answer states out-of-memory as the cause and does not
blame the misleading signal after it (a blame before it is a self-correction).
"""

from __future__ import annotations

import re

from .. import findings
from .._claim_views import committed_flags, hedged_text
from .._claims import REBUT, claims, fault_classes, labelled
from .._cue import Cue
from .._named_cause import names_cause, unrestated
from .._why_chain import aside_at
from ..detection import GroundTruth, blamed, ground_truth
from ..registry import BehaviorContext, BehaviorOutcome, register
from ..text import AnswerText, asserts_any, plain_reading, quote
from ._discard import denies_any
from ._finding import finding_result

#: an out-of-memory cause stated (the OOM phrasings without "memory limit", which names
#: a remedy as often as a cause, plus a leak)
OOM_STATED = tuple(t for t in findings.OOM_TERMS if t != "memory limit") + (
    "memory leak",
    "leaking memory",
    "memory growth",
)
#: words of a hypothesis, not an assertion (find_actual_root_cause_oom self-correction)
HEDGE = Cue(
    r"\b(?:maybe|might|could|possibly|perhaps|suspect\w*|hypothes\w*|wonder\w*|whether|if)\b",
    re.IGNORECASE,
)
#: the fault classes (:func:`._claims.catalogue`) each named finding belongs to
MEMORY_CLASSES = frozenset({"memory"})
#: a memory term bounded or negated: it says memory is *not* exhausted (rule 211): "within
#: its memory limit", "well below the memory limit", "no memory pressure", "not OOMKilled"
_BOUNDED = Cue(
    r"\b(?:(?:well\s+|comfortably\s+|far\s+)?(?:within|below|under|inside|short of|beneath)|"
    r"no|not|never|without|nowhere near)\s+(?:\w+\s+){0,3}?"
    r"(?:memory|oom|out[\s-]of[\s-]memory)[\w-]*(?:\s+(?:limits?|pressure|usage|leaks?|kills?))?",
    re.IGNORECASE,
)
#: an object's name as the answer writes it (a Kubernetes name: words joined by hyphens)
_OBJECT = re.compile(r"\b[a-z][a-z0-9]*(?:-[a-z0-9]+)+\b")
#: hyphenated words of the memory vocabulary, no object's name
_MEMORY_WORDS = re.compile(r"^(?:out-of-memory|oom-\w+|exit-code|\w+-memory|memory-\w+)$")


# ---- §5 find_actual_root_cause_oom ---------------------------------------------------------


def misleading_terms(bctx: BehaviorContext, gt: GroundTruth | None) -> list[str]:
    """The misleading signal: the ground truth's ``not X`` terms, else ``CPU`` when another
    object of the scenario shows a high CPU reading (>= 80 %)."""
    if gt is not None and gt.negative:
        return list(gt.negative)
    for _, _, _, entry in findings.entries(bctx.scenario):
        for key, value in entry.items():
            number = findings.number_of(value)
            if "cpu" in str(key).lower() and number is not None and number >= 80:
                return ["CPU"]
    return []


def names_memory(slot: str, oomed: tuple[str, ...] = ()) -> bool:
    """A named cause references OOM or memory exhaustion (rules 181, 211): a memory term
    neither bounded nor negated ("within its memory limit" says memory is not exhausted),
    said of the OOM'd object (``oomed``, its name or its pods'), or of no named object."""
    own = _BOUNDED.sub(" ", slot)
    if not (fault_classes(own) & MEMORY_CLASSES or asserts_any(own, OOM_STATED)):
        return False
    named = [n for n in _OBJECT.findall(own.lower()) if not _MEMORY_WORDS.match(n)]
    return not (oomed and named) or any(o.lower() in own.lower() for o in oomed)


def named_root(final: AnswerText, oomed: tuple[str, ...] = ()) -> tuple[list[str], list[str]]:
    """The root causes the final answer names itself (behaviors rules 181, 210): (those that
    reference OOM or memory exhaustion of ``oomed``, rule 211; those that do not). A log
    line restated in a named cause is the log's words, not the cause (rules 182, 212)."""
    right: list[str] = []
    wrong: list[str] = []
    for claim in (c for c in map(labelled, claims(final)) if c.asserted and names_cause(c.text)):
        slot = unrestated(claim.cause, final.served_lines)
        (right if names_memory(slot, oomed) else wrong).append(claim.cause)
    return right, wrong


@register("find_actual_root_cause_oom", "detection", "final_answer+reasoning", reads="ground-truth")
def find_actual_root_cause_oom(bctx: BehaviorContext) -> BehaviorOutcome:
    """OOM / memory exhaustion stated as the cause; the misleading signal not blamed after it.

    Chronological order is the reasoning, then the final answer. A misleading
    signal blamed (unhedged) before the OOM statement and not after it is a
    self-correction (``self_corrected``); blamed after the last OOM statement fails.
    Where the final answer names root causes and none references OOM, an OOM sentence
    beside them (another object's, a trend, a line quoted as checked) is no stated root
    cause (rule 181).
    """
    ev = bctx.evidence.transcript
    results = bctx.ctx.seen_results  # rule 480: echo set aside, never credit
    final = AnswerText(ev.final_answer, results, ev.actions)
    ordered = AnswerText(ev.reasoning, results, ev.actions).kept + final.kept
    text = AnswerText("\n".join(ordered), ())
    misleading = misleading_terms(bctx, ground_truth(bctx.scenario))
    terms = OOM_STATED
    found = [
        f for f in findings.memory_findings(bctx.scenario) if f.kind in ("oom", "memory-growth")
    ]
    names = list(dict.fromkeys(f.obj for f in found))
    names_t = tuple(names)
    right, wrong = named_root(final, names_t)
    # rule 181: a root cause named, none of them OOM: no OOM sentence is the stated one
    misnamed = bool(wrong) and not right
    own = [] if misnamed else committed_flags(text)
    # each sentence read on its own, once per judgement (a pasted output repeats them)
    # rule 236: a sentence setting the OOM aside does not state it; where one does, a fact
    # restated ("W has status OOMKilled") states it only beside a root cause naming the OOM
    denied = [s for s in final.kept if (d := denies_any(s, terms)) and names_memory(d, names_t)]
    oom_at = [
        i
        for i, s in enumerate(own)
        if s and asserts_any(s, terms) and not denies_any(text.kept[i], terms)
    ]
    if denied and not right:
        oom_at = []
    hedged = None
    if not oom_at and not misnamed:
        hedged = next((s for s in hedged_text(text).kept if asserts_any(s, terms)), None)
    chained = aside_at(text.kept, REBUT)  # rule 502: reasons and answers a why-chain sets aside
    blame_at = [
        i
        for i, s in enumerate(text.kept if misleading else [])
        if i not in chained
        for probe in (plain_reading(s),)  # one reading of the sentence for every term
        for t in misleading
        if blamed(probe, t) and not HEDGE.search(s)
    ]
    basis = [f"OOM evidence: {f.detail}" for f in found[:2]] or ["no OOM marker in the scenario"]
    basis.append(f"misleading signal terms: {misleading or 'none derived'}")
    if denied and not right:
        basis.append(f'OOM set aside in "{quote(denied[0])}", no root cause names it (rule 236)')
    if misnamed:
        basis.append(f'root cause named without OOM: "{quote(wrong[-1])}" (rule 181)')
    stated = text.kept[oom_at[-1]] if oom_at else None
    result = finding_result(
        text,
        "detection:oom-root-cause",
        stated,
        "OOM",
        names,
        basis,
        MEMORY_CLASSES,
        final,
        hedged,
        scenario=bctx.scenario,
    )
    late = [i for i in blame_at if not oom_at or i > oom_at[-1]]
    early = [i for i in blame_at if oom_at and i < oom_at[-1]]
    lines = list(result.evidence)
    lines += [f'misleading signal blamed in "{quote(text.kept[i])}"' for i in blame_at[:2]]
    exhibited = result.exhibited and not late
    facets = result.facets + (("self_corrected",) if exhibited and early else ())
    return BehaviorOutcome(exhibited, result.rule, lines, facets=facets)
