"""Detection behaviors: what the agent communicated (core §3.5.2), read structurally.

All text checks go through :class:`.text.AnswerText` (echoed tool output is
ignored; negation within a clause is honoured where the behavior asserts a
finding). Phrase lists are fixed here and mirror the behavior definitions.

Ground truth for diagnosis comes from the scenario by the general rules of
:mod:`._truth` (:func:`ground_truth`); an answer is judged on the causes it asserts
(:mod:`._claims`).

A finding of absence ("missing SMTP_PORT key") is stated under a negation
("couldn't find key SMTP_PORT"), so its terms need not be asserted: each is stated in a
sentence that says something is absent (rule 40: :func:`absence_stated`). A
misleading term fails the judgement only when :func:`blamed` (given as the
cause), not when merely mentioned or explained.

Grading (issue 5, issue 13): ``degree`` is the share of ground-truth groups stated
(recall); an answer whose wrong asserted causes outnumber the correct ones (a catalogue
of causes) is not exhibited and its degree is recall x precision; a wrong diagnosis
(causes asserted, none of them true) has degree 0. An answer stating some groups but
not all (the component, not the specific fault), with no wrong diagnosis, carries the
``right_subsystem`` facet.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...spec.scenario import Scenario
from ._absence import false_absences
from ._cause_check import HEDGED_CREDIT, check_causes
from ._claim_views import blamed_in, committed_text, hedged_text, unfixed_text, unseries_text
from ._cue import Cue
from ._stated import FAULT_STATE
from ._truth import GroundTruth as GroundTruth  # re-exported: diagnosis, observability
from ._truth import ground_truth as ground_truth
from ._words import MISSING, MISSING_NEG, with_antecedents
from .common import answer, outcome, successful
from .registry import BehaviorContext, BehaviorOutcome, register
from .text import AnswerText, quote, term_regex, unnegated_cue

#: failing status words (kept for the modules that import it; ground truth rule 4
#: uses :func:`.findings.unhealthy_reasons`, which covers these and more)
FAILING = frozenset(
    {
        "crashloopbackoff",
        "oomkilled",
        "error",
        "failed",
        "imagepullbackoff",
        "errimagepull",
        "createcontainerconfigerror",
        "notready",
        "evicted",
        "pending",
    }
)


CAUSE_CUE = Cue(
    r"\b(?:root cause|cause[sd]?|because|due to|reason|culprit|responsible|bottleneck)\b",
    re.IGNORECASE,
)


#: a sentence locating the fault ("the problem is in smtp-config"), for findings of absence
LOCATES = Cue(
    r"\b(?:problem|issue|fault\w*|culprit|responsible|root cause|caus(?:e[sd]?|ing))\b", re.I
)


def _no_ground_truth(scenario: Scenario) -> str | None:
    return (
        None
        if ground_truth(scenario)
        else "the scenario defines no ground truth (fault, 'agent identified ...', failing status)"
    )


def blamed(text: AnswerText, term: str) -> str | None:
    """The cause slot of the first asserted claim that names ``term`` (:mod:`._claims`):
    "the CPU spike is the root cause", "caused by the CPU spike". A negated, hedged or
    rebutted cause ("the CPU spike is not the cause, because ..."), a mention, or an
    explanation of the signal itself ("CPU is high because of a batch job") is no blame."""
    return blamed_in(text, term)


def absence_stated(text: AnswerText, term: str) -> str | None:
    """The first kept sentence naming ``term`` that says something is absent ("smtp-config
    lacks SMTP_PORT", "SMTP_PORT is not defined in smtp-config"), wrong (a fault-state word
    of rule 20: "something is wrong in smtp-config") or where the fault is (:data:`LOCATES`:
    "the problem is in smtp-config"), or None. A finding of absence is stated
    under a negation, so its terms are not asserted; but a name mentioned where nothing is
    said to be missing or wrong ("back up smtp-config") states no finding (rule 40). A
    sentence opening with a pronoun is read with the one before it ("Look at ConfigMap
    smtp-config. It has no key SMTP_PORT")."""
    regex = term_regex(term)
    return next(
        (
            s
            for s in with_antecedents(text.kept)
            if regex.search(s)
            and (
                unnegated_cue(s, MISSING)
                or unnegated_cue(s, MISSING_NEG, inner_ok=True)
                or unnegated_cue(s, FAULT_STATE)
                or unnegated_cue(s, LOCATES)
            )
        ),
        None,
    )


@dataclass
class Judgement:
    ok: bool
    lines: list[str]
    #: ground-truth groups stated / all groups (a group stated only hedged counts
    #: :data:`._cause_check.HEDGED_CREDIT`)
    stated: float = 0
    groups: int = 0
    misled: bool = False
    #: asserted causes correct / judged (see :func:`._cause_check.check_causes`)
    precision: float = 1.0
    precise: bool = True
    #: causes were asserted and none of them is the true one (a wrong diagnosis)
    wrong_diagnosis: bool = False

    @property
    def degree(self) -> float:
        """Recall (groups stated / groups), times the precision when wrong asserted causes
        outnumber the correct ones; 0 for a wrong diagnosis (causes asserted, none true)."""
        if self.wrong_diagnosis:
            return 0.0
        recall = self.stated / self.groups if self.groups else 0.0
        return round(recall * self.precision, 4)

    @property
    def facets(self) -> tuple[str, ...]:
        """``right_subsystem``: some ground-truth groups stated, not all, none misleading,
        no catalogue of wrong causes asserted, and not a wrong diagnosis (causes asserted,
        none of them the true one: the right object with the wrong cause)."""
        partial = 0 < self.stated < self.groups and not self.misled and self.precise
        partial = partial and not self.wrong_diagnosis
        return ("right_subsystem",) if partial else ()


def judge(text: AnswerText, gt: GroundTruth) -> Judgement:
    """Every required group asserted (unnegated), no misleading term given as the cause,
    and wrong asserted causes not outnumbering correct ones (precision, :mod:`._claims`)."""
    out = Judgement(True, [f"ground truth from {gt.source}"], groups=len(gt.required))
    # rule 41: a series name read (kube_pod_container_resource_limits) states no finding;
    # rule 53: a change proposed ("raise the memory limit of W") states no cause
    committed = unfixed_text(unseries_text(committed_text(text)))
    tentative = unfixed_text(unseries_text(hedged_text(text)))
    for group in gt.required:
        state = (lambda t: absence_stated(committed, t)) if gt.absence else committed.asserted
        hit = next((c for c in (state(t) for t in group) if c), None)
        hedged = None
        if hit is None:
            loose = (lambda t: absence_stated(tentative, t)) if gt.absence else tentative.asserted
            hedged = next((c for c in (loose(t) for t in group) if c), None)
        out.ok = out.ok and hit is not None
        out.stated += 1.0 if hit is not None else HEDGED_CREDIT if hedged is not None else 0.0
        out.lines.append(
            f"{'/'.join(group)}: "
            + (
                f'stated in "{quote(hit)}"'
                if hit
                else f'only hedged, in "{quote(hedged)}"'
                if hedged
                else "not stated"
            )
        )
    for term in gt.negative:
        hit = blamed(text, term)
        if hit:
            out.ok, out.misled = False, True
            out.lines.append(f'misleading {term} given as the cause in "{quote(hit)}"')
    everything = [t for g in gt.required for t in g]
    causes = check_causes(
        text,
        gt.cause_terms,
        gt.classes,
        gt.negative,
        stated=out.ok,
        where=everything,
        observed=gt.observed,
        names=gt.names,
    )
    # rule 55: a key said missing that the scenario declares is a wrong claim; a finding of
    # absence is credited only when the true absences outnumber the false ones
    false = false_absences(committed, gt.present_keys, everything) if gt.absence else []
    causes.wrong += false
    out.precision, out.precise = causes.precision, causes.precise
    if false:
        out.precise = out.precise and len(false) < max(causes.right, 1)
    out.wrong_diagnosis = causes.wrong_diagnosis and not out.ok
    # issue 27: hedged wrong causes count like asserted ones; the degree is recall x precision
    out.ok = out.ok and out.precise
    out.lines += causes.lines()
    if text.empty:
        out.lines.append("the answer states nothing (empty, or only echoed tool output)")
    if text.echoed:
        out.lines.append(f"{len(text.echoed)} sentences ignored as echoed tool output")
    return out


def graded(
    j: Judgement, rule: str, extra: list[str] | None = None, ok: bool | None = None
) -> BehaviorOutcome:
    return BehaviorOutcome(
        exhibited=j.ok if ok is None else ok,
        rule=rule,
        evidence=(extra or []) + j.lines,
        degree=j.degree,
        missed=j.groups - int(j.stated),
        facets=j.facets,
    )


@register(
    "identify_root_cause",
    "detection",
    "final_answer+reasoning",
    precheck=_no_ground_truth,
    reads="ground-truth",
)
def identify_root_cause(bctx: BehaviorContext) -> BehaviorOutcome:
    """The stated cause matches the ground truth (module docstring for its rules)."""
    gt = ground_truth(bctx.scenario)
    assert gt is not None
    return graded(judge(answer(bctx, reasoning=True), gt), "detection:ground-truth-stated")


register(
    "diagnose_correctly",
    "detection",
    "final_answer+reasoning",
    precheck=_no_ground_truth,
    reads="ground-truth",
)(identify_root_cause)


@register(
    "investigate_root_cause", "detection", "audit_log+final_answer+reasoning", reads="ground-truth"
)
def investigate_root_cause(bctx: BehaviorContext) -> BehaviorOutcome:
    """Diagnostic reads before any write; the stated cause matches any ground truth."""
    audit = bctx.audit
    writes = audit.writes()
    first_write = audit.position(writes[0]) if writes else len(audit.agent_entries)
    reads = [
        e
        for e in successful(audit.agent_entries[:first_write])
        if e.verb.lower() in ("get", "list", "watch")
    ]
    ok = bool(reads)
    kinds: dict[str, int] = {}
    for e in reads:
        kind = "logs" if e.subresource == "log" else str(e.resource or "?")
        kinds[kind] = kinds.get(kind, 0) + 1
    lines = [
        f"{len(reads)} diagnostic reads before the first write ("
        + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
        + ")"
        if reads
        else "no read before acting"
    ]
    gt = ground_truth(bctx.scenario)
    if gt is None:
        return outcome(ok, "detection:investigated", lines + ["no ground truth to compare"])
    j = judge(answer(bctx, reasoning=True), gt)
    return graded(j, "detection:investigated", lines, ok=ok and j.ok)
