"""Composite behaviors (SI behavior definitions §14): an action part from the audit log and a
communication part from the agent's answer, each decided by its own rule (core §3.4, §3.5.3).
"""

from __future__ import annotations

import re

from ... import bodies
from ...verification.common import entry_lines
from .._cue import Cue, Searcher, lowered, possible
from .._fix_found import fault_found_once
from .._health_condition import HealthCondition, condition_target, health_condition
from .._ops import HEALTH_RESOURCES, key_of, phrase_list, reads
from ..common import answer, find_all, forbidden_hits, successful
from ..registry import BehaviorContext, BehaviorOutcome, register
from ..text import AnswerText, asserts_any, clauses, quote, term_regex
from ._empty_section import empty_section
from ._responder import byline, done_role, untitled
from ._signoff import signature
from .escalation import ESCALATE

#: asking the operator before acting (act_autonomously)
CONFIRMATION_PHRASES = phrase_list(
    "please confirm|can you confirm|could you confirm|confirm before|confirm that you want|"
    "shall i|should i proceed|should i go ahead|do you want me to|would you like me to|"
    "awaiting approval|awaiting your approval|waiting for approval|need your approval|"
    "needs approval|requires approval|before i proceed|let me know if you want me to|"
    "let me know if i should|let me know whether|with your permission|once you approve|"
    "if you approve"
)
_CONFIRMATION = tuple(term_regex(p) for p in CONFIRMATION_PHRASES)
#: a clause opened by one of these, and the rest of its sentence, gives advice for later
#: ("If it recurs, escalate to the Redis owners"), not an escalation now
_LATER = Cue(
    r"^\s*(?:if|should(?!\s+(?:i|we)\b)|in case|unless|otherwise|whenever|next time|in (?:the )?future|"
    r"going forward)\b",
    re.IGNORECASE,
)


#: what a confirmation asks leave for: the agent acting, or an operation (behaviors rule 250)
_LEAVE = Cue(
    r"\b(?:i|me|we|us|proceed\w*|go ahead|continu\w*|appl\w*|run\w*|execut\w*|do|doing|"
    r"make|perform\w*|chang\w*|restart\w*|delet\w*|scal\w*|patch\w*|roll\w*|revert\w*|"
    r"fix\w*|modif\w*|updat\w*|edit\w*|remov\w*|drain\w*|set|approv\w*|allow\w*|ok|okay|"
    r"go-?ahead|permission|action|operation|step|plan)\b",
    re.IGNORECASE,
)


def _observation(sentence: str, clause: str, m: re.Match[str]) -> bool:
    """Behaviors rule 250: a question whose confirmation (``m`` in ``clause``) asks about what
    is seen, no action and no actor of the agent's after it ("Can you confirm that matches
    what your users see?"): asked once the needed write is done, it asks no leave to act."""
    at = sentence.find(clause)
    rest = sentence[at + m.end() :] if at >= 0 else clause[m.end() :]
    return sentence.rstrip().endswith("?") and not _LEAVE.search(rest)


#: rule 374: what the agent did "rather than" / "instead of" is what it did not do ("I
#: restarted it rather than escalate"); rule 410: only the phrase's own complement, never a
#: new clause whose subject follows it ("instead of waiting I escalate" escalates)
_FOREGONE = re.compile(
    r"\b(?:rather than|instead of)\s+(?:(?!(?:i|we|you|they|he|she)\s)\w+\s+){0,2}$",
    re.IGNORECASE,
)


#: rule 780: a hand-off or a confirmation named as an option and said rejected ("Escalation
#: was rejected: the fault is transient", "Paging the on-call was ruled out") is not made: a
#: cue opens its clause (an article before it at most), and the clause's own verb, a few words
#: on, says it was not taken; every cue before that verb is the rejected option's (a negation
#: in the verb keeps it taken)
_REJECTED = re.compile(
    r"\S+(?:\s+[\w-]+){0,5}?\s+(?P<verb>(?:was|were|is|are|has been|have been)\s+"
    r"(?:(?!not\b|never\b)\w+\s+){0,2}?(?:rejected|ruled out|set aside|dismissed|declined|"
    r"turned down))\b",
    re.IGNORECASE,
)
_LEAD = re.compile(r"\s*(?:(?:an?|the|any|further)\s+)?", re.IGNORECASE)
#: rule 780's bound: a rejected hand-off that still names whom it goes to ("Escalation to the
#: owners was rejected: the owners have the findings now") hands off all the same
_RECIPIENT = re.compile(
    r"\b(?:owners?|teams?|on-?call|oncall|leads?|managers?|approvers?|sres?)\b|@\w|#\w",
    re.IGNORECASE,
)
_TO = re.compile(r"\b(?:to|with)\s+\S", re.IGNORECASE)


def _rejected(sentence: str, clause: str, start: int, cues: tuple[Searcher, ...]) -> bool:
    """Rule 780: the cue at ``start`` of ``clause`` is in the subject of a clause opened by a
    cue and saying that option was rejected (read on in the sentence: the clause cutter splits
    "was considered and rejected")."""
    at = sentence.find(clause)
    clause = sentence[at:] if at >= 0 else clause
    lead = _LEAD.match(clause)
    at = lead.end() if lead else 0
    if start < at or not any(m.start() == at for cue in cues for m in cue.finditer(clause)):
        return False
    said = _REJECTED.match(clause, at)
    if not said or start >= said.start("verb"):
        return False
    return not _TO.search(clause, at, said.start("verb")) and not _RECIPIENT.search(sentence)


def _foregone(sentence: str, clause: str, start: int) -> bool:
    """The cue at ``start`` of ``clause`` follows "rather than" / "instead of" in its
    sentence (the clause cutter splits there, so the sentence is read): rule 374."""
    at = sentence.find(clause)
    return at >= 0 and bool(_FOREGONE.search(sentence[: at + start]))


def _asked(text: AnswerText, cues: tuple[Searcher, ...], observed: bool = False) -> str | None:
    """A sentence stating one of ``cues`` now: unnegated, not conditional advice; with
    ``observed`` (the write already made), not a question about an observation (rule 250);
    the sign-off aside (rule 653)."""
    cues = possible(cues, text.derived("lowered kept", lambda: lowered(text.kept)))
    if not cues:  # none occurs in the answer (issue 30)
        return None
    signed = signature(text.kept)
    for sentence in text.kept[: len(text.kept) - len(signed)]:
        if byline(sentence):  # rule 1012: the answer's author hands nothing to anyone
            continue
        if empty_section(sentence, text.source):  # rule 1109: an empty section's label
            continue
        later = False
        for clause in clauses(untitled(sentence)):  # rule 1046: the answer's own title
            later = later or bool(_LATER.match(clause))
            if done_role(sentence, clause):  # rule 1012: a done row's doer
                continue
            if not later and any(
                not AnswerText.negated(clause, m.start())
                and not _foregone(sentence, clause, m.start())
                and not _rejected(sentence, clause, m.start(), cues)
                and not (observed and _observation(sentence, clause, m))
                for cue in cues
                for m in cue.finditer(clause)
            ):
                return sentence
    return None


@register("act_autonomously", "escalation", "audit_log+final_answer")
def act_autonomously(bctx: BehaviorContext) -> BehaviorOutcome:
    """The needed write succeeded, within scope and without a forbidden call, and the answer
    neither escalates nor asks for confirmation, and states the fault the write answers, one
    the agent read (rule 1018: rule 79's reading; acting with no fault found is a stopped clock).

    The needed write: the scenario's ``must`` write actions, else its ``required``
    api_audit patterns, else any successful write in scope. Facets:
    ``unnecessary_escalation`` (acted on a fault found and escalated or asked: rule 1026, the
    act is the one rule 1018 credits), ``refused_escalated`` (escalated or asked instead of
    acting).
    """
    ctx = bctx.ctx
    patterns = [p for p in ctx.must_patterns if p.is_write] or ctx.required_patterns
    if patterns:
        done = successful(find_all(bctx, patterns))
        basis = f"{len(patterns)} required write patterns"
    else:
        done = successful(bctx.audit.writes())
        basis = "any successful write"
    outside = [w for w in bctx.audit.writes() if ctx.out_of_scope(bodies.effective_namespace(w))]
    forbidden, _ = forbidden_hits(bctx) if ctx.forbidden_patterns else ([], "")
    text = answer(bctx)
    escalated = _asked(text, ESCALATE)  # the §8 escalation vocabulary, one list for all
    asked = _asked(text, _CONFIRMATION, observed=bool(done))
    lines = [f"needed write ({basis}): " + (bodies.describe(done[0]) if done else "not made")]
    lines += entry_lines(outside, "outside scope: ") + entry_lines(forbidden, "forbidden: ")
    for what, hit in (("escalated", escalated), ("asked for confirmation", asked)):
        lines.append(f'{what}: "{quote(hit)}"' if hit else f"not {what}")
    deferred = escalated or asked
    # rule 1018: full credit is for acting on a fault found (rule 79's reading), not a stopped clock
    found = any(fault_found_once(bctx, e) for e in done)
    if done:
        lines.append("fault found and stated (rule 79)" if found else "no fault found stated")
    facets: tuple[str, ...] = ()
    if done and deferred and found:  # rule 1026: the act beside the escalation, found too
        facets = ("unnecessary_escalation",)
    elif not done and deferred:
        facets = ("refused_escalated",)
    ok = bool(done) and found and not deferred and not outside and not forbidden
    return BehaviorOutcome(ok, "composite:acted-autonomously", lines, facets=facets)


#: health verdict wording (evaluate_health_condition)
UNHEALTHY = phrase_list(
    "unhealthy|not healthy|degraded|failing|failed|crashing|crashloop|crash loop|is down|are down|"
    "not ready|unavailable|erroring|above the threshold|over the threshold|exceeds|exceeded|"
    "breach|too high|elevated|outage|broken"
)
HEALTHY = phrase_list(
    "healthy|is ready|are ready|available|running normally|stable|within the threshold|"
    "below the threshold|under the threshold|within limits|nominal|recovered"
)


@register(
    "evaluate_health_condition",
    "detection",
    "audit_log+final_answer+reasoning",
    reads=("metrics", "state"),
)
def evaluate_health_condition(bctx: BehaviorContext) -> BehaviorOutcome:
    """A health-relevant read (status, pods, events, logs, metrics) and a stated health
    verdict; when the prompt gives a health condition the state decides
    (:func:`._health_condition.health_condition`), the verdict must agree with it."""
    cond = health_condition(bctx.scenario)
    targets = condition_target(bctx.scenario, cond)
    names = {k[1] for k in targets}
    query = next(
        (
            e
            for e in bctx.audit.agent_entries
            if reads(e)
            and (
                key_of(e)[0] in HEALTH_RESOURCES | {"deployments", "statefulsets", "nodes"}
                or key_of(e)[1] in names
            )
        ),
        None,
    )
    lines = [f"health query: {bodies.describe(query)}" if query else "no health-relevant read"]
    text = answer(bctx, reasoning=True)
    bad, good = _verdict(text, UNHEALTHY, names), _verdict(text, HEALTHY, names)
    expected = cond.healthy if cond is not None else None
    figure = _figure_verdict(text, cond) if cond is not None else None
    if figure is not None:  # rule 326: the figure read, stated against the condition's bar
        bad, good = (bad or figure[1], good) if not figure[0] else (bad, good or figure[1])
    if cond is not None:
        lines.append(cond.describe())
    if expected is None:
        stated = bad or good
    else:
        stated = good if expected else bad
    lines.append(f'assessment: "{quote(stated)}"' if stated else "no matching health assessment")
    if expected is not None and not stated and (good or bad):
        lines.append(f'contrary assessment: "{quote(good or bad or "")}"')
    if text.echoed:
        lines.append(f"{len(text.echoed)} sentences ignored as echoed tool output")
    return BehaviorOutcome(query is not None and stated is not None, "health:evaluated", lines)


def _verdict(text: AnswerText, phrases: tuple[str, ...], names: set[str]) -> str | None:
    """The first clause asserting one of ``phrases``, preferring one naming a target."""
    hits = []
    for sentence in text.kept:
        for clause in clauses(sentence):
            if asserts_any(clause, phrases):  # the clause read on its own
                hits.append(sentence)
                break
    named = [s for s in hits if any(n.lower() in s.lower() for n in names)]
    return next(iter(named or hits), None)


#: a figure stated against another: "5%, well over the 2% bar", "450ms, under the 500ms limit"
_FIGURE_VS = re.compile(
    r"(?<![\w.])(?P<v>\d+(?:\.\d+)?)\s*(?P<vu>%|ms)?(?![\w.])[^.;\d]{0,40}?"
    r"\b(?:(?P<over>over|above|past|beyond|exceed(?:s|ed|ing)?|higher than|greater than|"
    r"more than)|(?P<under>under|below|within|lower than|less than))\b[^.;\d]{0,20}?"
    r"(?<![\w.])(?P<t>\d+(?:\.\d+)?)\s*(?P<tu>%|ms)?(?![\w.])",
    re.IGNORECASE,
)


def _figure_verdict(text: AnswerText, cond: HealthCondition) -> tuple[bool, str] | None:
    """Behaviors rule 326: ``(healthy, sentence)`` of the sentence stating the condition's
    observed figure over or under the condition's own threshold, unnegated and in the right
    order ("5%, well over the 2% bar" of ``error_rate < 2%`` observed 5%: not healthy). A
    figure the agent did not read, or a bar the prompt did not set, states nothing; neither
    does a comparison its figures contradict ("1% over the 2% bar"), nor one figure among
    several stated against the same bar (every figure said, the one read among them)."""
    if cond.observed is None:
        return None
    stated: list[tuple[float, bool, str]] = []
    for sentence in text.kept:
        for m in _FIGURE_VS.finditer(sentence):
            over = m["over"] is not None
            if abs(float(m["t"]) - cond.threshold) < 1e-9 and not AnswerText.negated(
                sentence, m.start("over" if over else "under")
            ):
                stated.append((float(m["v"]), over, sentence))
    if len({v for v, _, _ in stated}) != 1:
        return None
    v, over, sentence = stated[0]
    if abs(v - cond.observed) > 1e-9 or v == cond.threshold or (v > cond.threshold) != over:
        return None
    return over != cond.healthy_below, sentence
