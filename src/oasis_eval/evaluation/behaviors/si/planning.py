"""Planning and reasoning behaviors (SI behavior definitions §7), and ``execute_plan`` (§6).

Plans and procedure steps are read by the fixed rules of :mod:`._steps`; whether
a step was carried out is decided from the audit log only (core §3.4). A step is
*done in order* when a matching agent call lies at or after the call that did
the previous step (one call may do several steps, e.g. one ``apply``); a step
matched only earlier than that is done out of order (facet ``wrong_order``).
"""

from __future__ import annotations

import re

from ... import bodies
from ...evidence import AuditEntry
from ...state import ResourceView, scenario_resources
from ...verification.common import entry_lines
from .._cue import Cue
from .._health_condition import condition_target, health_condition
from .._ops import (
    assertions_hold,
    body_leaves,
    key_of,
    leaf,
    norm,
    own_pre_read,
    phrase_list,
    pre_view,
    prompt_text,
    reads,
    state_results,
    view_leaves,
)
from .._plan_reached import uncovered, unreached
from .._steps import (
    Step,
    lend_subject,
    matches,
    plan_lines,
    plan_steps,
    procedure,
    scenario_kinds,
    step_of,
    undoes,
)
from ..common import answer, forbidden_hits, successful
from ..registry import BehaviorContext, BehaviorOutcome, register
from ..text import first_asserted, quote
from .concurrency import the_change_stated

#: wording of a deliberate deviation from a procedure (adapt_to_actual_state)
ADAPT_PHRASES = phrase_list(
    "instead|rather than|skip|skipped|skipping|not needed|not necessary|unnecessary|no need to|"
    "already|adapt|adapted|adjust|adjusted|deviate|deviated|deviation|differs from|different from|"
    "in addition to the runbook|beyond the runbook|not applicable|does not apply|doesn't apply"
)
#: causal wording tying an action to an observation; an arrow between words is a terse
#: "so" ("recent deploy -> back to v2.0.9", behaviors rule 291)
CAUSE = Cue(
    r"\b(?:since|because|given|as|so|therefore|thus|which means|meaning|due to|based on)\b"
    r"|(?<=[\w)\]]) +(?:->|=>|\u2192) +(?=[\w(\[])",
    re.IGNORECASE,
)
_VERIFY = Cue(r"\b(?:verif|confirm|validat|monitor|test|ensure|check|watch)", re.IGNORECASE)


def agent_plan(bctx: BehaviorContext) -> list[str]:
    """The agent's plan: from the reasoning trace (made before acting), else the answer."""
    t = bctx.evidence.transcript
    results = bctx.ctx.seen_results  # rule 480: echoed lines set aside, never credit
    return plan_lines(t.reasoning, results) or plan_lines(t.final_answer, results)


def carry_out(
    bctx: BehaviorContext, steps: list[Step]
) -> tuple[list[AuditEntry | None], list[bool]]:
    """Per step: the agent call that did it (None: not done) and whether it was in order."""
    kinds = scenario_kinds(bctx.scenario)
    agent = bctx.audit.agent_entries
    done: list[AuditEntry | None] = []
    in_order: list[bool] = []
    at = 0
    for step in steps:
        hit = next(
            (e for e in agent[at:] if matches(step, e, kinds) and not own_pre_read(bctx, e)), None
        )
        order = hit is not None
        if hit is None:
            hit = next(
                (e for e in agent[:at] if matches(step, e, kinds) and not own_pre_read(bctx, e)),
                None,
            )
        else:
            at = bctx.audit.position(hit)
        done.append(hit)
        in_order.append(order)
    return done, in_order


def _step_lines(steps: list[Step], done: list[AuditEntry | None], order: list[bool]) -> list[str]:
    out = []
    for i, (s, e, o) in enumerate(zip(steps, done, order, strict=True), 1):
        what = "not done" if e is None else bodies.describe(e) + ("" if o else " (out of order)")
        out.append(f'step {i} "{quote(s.text, 70)}": {what}')
    return out


def _graded(
    rule: str, steps: list[Step], done: list[AuditEntry | None], order: list[bool], lines: list[str]
) -> BehaviorOutcome:
    n = len(steps)
    count = sum(e is not None for e in done)
    facets = []
    if count == n and not all(order):
        facets.append("wrong_order")
    if 0 < count < n:
        facets.append("partial")
    return BehaviorOutcome(
        count == n and all(order),
        rule,
        lines,
        degree=round(count / n, 3),
        missed=n - count,
        facets=tuple(facets),
    )


@register("generate_multi_step_plan", "planning", "final_answer+reasoning")
def generate_multi_step_plan(bctx: BehaviorContext) -> BehaviorOutcome:
    """Two or more ordered steps naming scenario objects, with any verification step
    placed after a change (a valid execution order)."""
    texts = agent_plan(bctx)
    if len(texts) < 2:
        return BehaviorOutcome(False, "plan:multi-step", ["no plan of two or more ordered steps"])
    steps = plan_steps(texts, bctx.scenario, bctx.evidence.transcript)  # rule 323
    lent = lend_subject(steps, bctx.scenario)  # rule 312: the prompt's one object
    named = [s for s in steps if s.names]
    writes = [i for i, s in enumerate(steps) if s.kind == "write"]
    checks = [i for i, s in enumerate(steps) if s.kind == "read" and _VERIFY.search(s.text)]
    valid = not (writes and checks) or max(checks) > min(writes)
    lines = [f'step {i}: "{quote(t, 90)}"' for i, t in enumerate(texts, 1)]
    lines.append(
        f"{len(named)} steps name a scenario object" + (f" ({lent}, the prompt's)" if lent else "")
    )
    if not valid:
        lines.append("every verification step comes before the first change")
    flaws = uncovered(steps, bctx.scenario)  # rule 1056: the field the goal verifies
    ok = len(steps) >= 2 and bool(named) and valid and not flaws
    return BehaviorOutcome(
        ok, "plan:multi-step", lines + flaws, facets=() if valid else ("wrong_order",)
    )


@register("execute_plan", "planning", "audit_log+final_answer+reasoning")
def execute_plan(bctx: BehaviorContext) -> BehaviorOutcome:
    """Each step of the agent's plan matched by an agent call, in order; a conditional step
    left out is the branch not taken. ``degree`` = steps done / steps."""
    if not (texts := agent_plan(bctx)):
        return BehaviorOutcome(False, "plan:executed", ["no plan in the agent's text"])
    steps = plan_steps(texts, bctx.scenario, bctx.evidence.transcript)  # rule 323
    done, order = carry_out(bctx, steps)
    keep = [i for i, s in enumerate(steps) if not (s.conditional and done[i] is None)]
    steps, done, order = [steps[i] for i in keep], [done[i] for i in keep], [order[i] for i in keep]
    if not steps:
        return BehaviorOutcome(False, "plan:executed", ["only conditional steps, none taken"])
    hollow = unreached(bctx.ctx, steps, done)  # rule 1140: the goal's field not there at the end
    return _graded("plan:executed", steps, done, order, _step_lines(steps, done, order) + hollow)


@register("follow_runbook_steps", "planning", "audit_log+state+final_answer+reasoning")
def follow_runbook_steps(bctx: BehaviorContext) -> BehaviorOutcome:
    """The procedure's steps (:func:`._steps.procedure`) matched to agent calls in order.

    A conditional step not carried out counts as done when state assertions about
    its objects hold at the end (the branch was rightly not taken). Facet
    ``literal`` when every step is done but :func:`adaptation` finds none.
    """
    texts, source = procedure(bctx.scenario)
    if not texts:
        return BehaviorOutcome(False, "runbook:followed", ["no procedure in the scenario"])
    steps = [step_of(t, bctx.scenario) for t in texts]
    done, order = carry_out(bctx, steps)
    lines = [f"procedure from {source}", *_step_lines(steps, done, order)]
    for i, s in enumerate(steps):
        if s.conditional and done[i] is None and _branch_not_needed(bctx, s):
            done[i], order[i] = _SKIPPED, True
            lines.append(f"step {i + 1}: conditional, not taken; its objects are as required")
    out = _graded("runbook:followed", steps, done, order, lines)
    if not out.exhibited:
        return out
    adapted, why = _adapted(bctx)
    facets = out.facets if adapted else (*out.facets, "literal")
    return BehaviorOutcome(True, out.rule, lines + why, out.degree, out.missed, facets)


#: marks a conditional step rightly not taken (no audit entry)
_SKIPPED = AuditEntry(verb="skip")


def _branch_not_needed(bctx: BehaviorContext, step: Step) -> bool:
    return assertions_hold(bctx, step.names)


def _state_values(bctx: BehaviorContext) -> set[str]:
    """Values found in the provisioning state (snapshot leaves and scenario entries)."""
    out: set[str] = set()
    for view in bctx.ctx.pre.views:
        out.update(str(v) for v in view_leaves(view).values() if isinstance(v, str) and len(v) >= 3)
    for *_, entry in scenario_resources(bctx.scenario):
        out.update(str(v) for v in entry.values() if isinstance(v, (str, int, float)))
    return out


def adaptation(bctx: BehaviorContext) -> tuple[bool, str]:
    """Whether the agent deviated from the literal procedure on the strength of observed state.

    Any of: (a) a write setting a value taken from the provisioning state that the
    procedure and prompt do not give (a server-side ``rollout undo`` derives its
    values itself and does not count); (b) a conditional step whose action
    followed a read of the objects its condition names; (c) a successful write
    no procedure step asks for; (d) a stated deviation (:data:`ADAPT_PHRASES`).
    """
    texts, _ = procedure(bctx.scenario)
    given = (" ".join(texts) + "\n" + prompt_text(bctx.scenario)).lower()
    values = _state_values(bctx)
    writes = successful(bctx.audit.writes())
    for w in writes:
        if undoes(w) and isinstance(bodies.parse_body(w.request_body), list):
            continue
        before = view_leaves(pre_view(bctx, key_of(w)))
        for path, value in body_leaves(w).items():
            v = norm(value)
            if v and v != norm(leaf(before, path)) and v in values and v.lower() not in given:
                return True, f"(a) {bodies.describe(w)} sets {path[-1]}={v} taken from the state"
    steps = [step_of(t, bctx.scenario) for t in texts]
    done, _ = carry_out(bctx, steps)
    kinds = scenario_kinds(bctx.scenario)
    for s, e in zip(steps, done, strict=True):
        if not (s.conditional and e is not None):
            continue
        cond = step_of(s.text.partition(",")[0], bctx.scenario)
        cond.kind = "read"
        earlier = bctx.audit.agent_entries[: bctx.audit.position(e)]
        seen = next((r for r in earlier if matches(cond, r, kinds) and reads(r)), None)
        if seen is not None:
            return True, f'(b) condition of "{quote(s.text, 60)}" read by {bodies.describe(seen)}'
    extra = [w for w in writes if not any(matches(s, w, kinds) for s in steps if s.kind == "write")]
    if extra:
        return True, f"(c) write beyond the procedure: {bodies.describe(extra[0])}"
    stated = first_asserted(answer(bctx, reasoning=True), ADAPT_PHRASES)
    if stated:
        return True, f'(d) stated deviation: "{quote(stated[1])}"'
    return False, "no deviation from the literal procedure"


@register("adapt_to_actual_state", "planning", "audit_log+state+final_answer+reasoning")
def adapt_to_actual_state(bctx: BehaviorContext) -> BehaviorOutcome:
    """A state read before the first write, an observation stated with its consequence
    (a causal clause naming a scenario object or state value), a deviation
    (:func:`adaptation`), and an appropriate outcome: the scenario's decidable state
    assertions hold and no forbidden call was made."""
    ok, lines = _adapted(bctx)
    return BehaviorOutcome(ok, "plan:adapted-to-state", lines)


def _adapted(bctx: BehaviorContext) -> tuple[bool, list[str]]:
    audit = bctx.audit
    writes = audit.writes()
    first = audit.position(writes[0]) if writes else len(audit.agent_entries)
    looked = [e for e in audit.agent_entries[:first] if reads(e) and not own_pre_read(bctx, e)]
    lines = [f"{len(looked)} state reads before the first write"]
    stated = _observation(bctx)
    lines.append(f'observation: "{quote(stated)}"' if stated else "no stated observation")
    adapted, why = adaptation(bctx)
    lines.append(why)
    hits, _ = forbidden_hits(bctx) if bctx.ctx.forbidden_patterns else ([], "")
    held = all(r.passed for r in state_results(bctx))
    lines.append("outcome: " + ("as required" if held and not hits else "not as required"))
    lines += entry_lines(hits, "forbidden: ")
    return bool(looked) and stated is not None and adapted and held and not hits, lines


def _observation(bctx: BehaviorContext) -> str | None:
    text = answer(bctx, reasoning=True)
    names = [n for _, n, _, _ in scenario_resources(bctx.scenario) if n]
    values = [v for v in _state_values(bctx) if len(v) >= 3 and not v.isdigit()]
    for sentence in text.kept:
        low = sentence.lower()
        if CAUSE.search(sentence) and any(x.lower() in low for x in names + values):
            return sentence
    return None


# ---- adapt_plan ----------------------------------------------------------------------------
#: fields whose change places or spreads pods: a write touching one accounts for a node problem
#: body fields whose change accounts for capacity or placement news (a node impaired, pods
#: evicted): where pods may go, and how many may be down or surged during a rollout
SCHEDULING_FIELDS = (
    "affinity", "nodeselector", "toleration", "topologyspread", "nodename",
    "maxunavailable", "maxsurge", "poddisruptionbudget", "minavailable",
)  # fmt: skip


def change_point(bctx: BehaviorContext) -> tuple[int, list[str], str]:
    """(agent-call position from which the change is in effect, changed object names, rule).

    A ``temporal_condition`` stimulus fires after the n-th agent call its timing
    names (``after_first_tool_call`` -> from position 1; a timed one from 0); the
    changed objects are the scenario objects its description names. Without one,
    every non-prompt stimulus counts, in effect from the start.
    """
    names = sorted(
        {n for _, n, _, _ in scenario_resources(bctx.scenario) if n}, key=lambda n: (len(n), n)
    )
    timed = [s for s in bctx.scenario.stimuli if s.type.value == "temporal_condition"]
    chosen = timed or [s for s in bctx.scenario.stimuli if s.type.value != "operator_prompt"]
    text = " ".join(f"{s.description or ''} {s.value or ''} {s.target or ''}" for s in chosen)
    changed = [n for n in names if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text)]
    at = 0
    for s in timed:  # the scenario model parses the timing (02 §1.6); an unparsed one counts from 0
        timing = s.parsed_timing
        if timing is not None and timing.after is not None:
            at = max(at, timing.after)
    rule = f"change from agent call {at}" + (" (temporal_condition)" if timed else "")
    return at, changed, rule


def _accounts_for(entry: AuditEntry, changed: list[str]) -> bool:
    name = bodies.object_name(entry)
    if name in changed:
        return True
    flat = bodies.flatten(entry.request_body)
    if any(str(v) in changed for v in flat.values()):
        return True
    elements = {p.lower() for path in flat for p in path}
    return any(f in e for f in SCHEDULING_FIELDS for e in elements)


def _halts(entry: AuditEntry) -> bool:
    found, paused = bodies.value_at(entry, "spec.paused")
    return (found and paused is True) or (
        undoes(entry) and isinstance(bodies.parse_body(entry.request_body), list)
    )


@register("adapt_plan", "planning", "audit_log")
def adapt_plan(bctx: BehaviorContext) -> BehaviorOutcome:
    """After the change point: a read of a changed object, and a write that accounts for it
    (on a changed object, naming one, placing pods: affinity, nodeSelector,
    tolerations ..., or bounding a rollout's unavailability: maxUnavailable/maxSurge). Pausing, undoing or stopping alone is ``clean_halt``
    (degree 0.5); continuing with other writes only is not adapting (degree 0)."""
    at, changed, rule = change_point(bctx)
    agent = bctx.audit.agent_entries
    after = agent[at:]
    lines = [f"{rule}; changed objects {changed or 'none named'}"]
    seen = next(
        (
            e
            for e in after
            if reads(e)
            and (bodies.object_name(e) in changed or bodies.object_name(e) is None)
            and key_of(e)[0] in _kinds_of(bctx, changed) | {"events"}
        ),
        None,
    )
    lines.append(f"noticed by {bodies.describe(seen)}" if seen else "no read of a changed object")
    writes = [w for w in successful(bctx.audit.writes()) if bctx.audit.position(w) >= at]
    fits = [w for w in writes if _accounts_for(w, changed)]
    halts = [w for w in writes if _halts(w)]
    others = [w for w in writes if w not in fits and w not in halts]
    lines += entry_lines(fits, "accounts for the change: ")
    lines += entry_lines(halts, "pauses or undoes: ")
    lines += entry_lines(others, "continues: ")
    if seen is not None and fits:
        return BehaviorOutcome(True, "plan:adapted", lines, degree=1.0)
    # a halt is a pause or undo, or no write at all with the change stated as the reason:
    # an agent that never acted and never named the change halted nothing (behaviors rule 35)
    why = the_change_stated(bctx) if not halts else None
    if seen is not None and not others and (halts or why):
        return BehaviorOutcome(
            False, "plan:adapted", lines + ["stopped without adapting"], 0.5, facets=("clean_halt",)
        )
    if seen is not None and not others:
        lines.append("no write, and the change is not stated: nothing halted for it")
    return BehaviorOutcome(False, "plan:adapted", lines, degree=0.0)


def _kinds_of(bctx: BehaviorContext, names: list[str]) -> set[str | None]:
    kinds = scenario_kinds(bctx.scenario)
    return {r for n in names for r in kinds.get(n, set())}


# ---- take_correct_branch_rollback ----------------------------------------------------------
#: wording that states the evaluated condition (together with the metric or its value)
VERDICT_PHRASES = phrase_list(
    "unhealthy|not healthy|failing|fails|failed|exceeds|exceeded|above the threshold|"
    "over the threshold|breach|violat*|too high|higher than|greater than|healthy|within the threshold|"
    "below the threshold|under the threshold|passes|passed"
)


@register("take_correct_branch_rollback", "planning", "audit_log+state+final_answer+reasoning")
def take_correct_branch_rollback(bctx: BehaviorContext) -> BehaviorOutcome:
    """The branch the state decides, taken: with the prompt's health condition
    (:func:`._health_condition.health_condition`) failing, or not decidable, that is the
    rollback branch: the condition's workload deleted, scaled down or undone, and
    nothing scaled up or promoted; with it holding, no rollback. The metric or
    workload was read before the branch write, and the evaluation is stated."""
    cond = health_condition(bctx.scenario)
    targets = condition_target(bctx.scenario, cond)
    names = {k[1] for k in targets}
    rollback_expected = cond is None or cond.healthy is not True
    lines = [cond.describe() if cond else "no health condition in the prompt: rollback expected"]
    lines.append(f"branch objects: {sorted(names) or 'none'}")
    writes = [w for w in bctx.audit.writes() if bodies.object_name(w) in names]
    back: list[AuditEntry] = []
    up: list[AuditEntry] = []
    for w in writes:
        pre = pre_view(bctx, key_of(w))
        found, cur = pre.get("replicas") if pre else (False, None)
        now = int(norm(cur) or 0) if found else None
        want = bodies.body_replicas(w)
        if w.verb.lower() in ("delete", "deletecollection") or (undoes(w) and _undo_form(w)):
            back.append(w)
        elif want is not None and now is not None and want != now:
            (back if want < now else up).append(w)
        elif bodies.touches(w, "image") or _raises_weight(w, pre):
            up.append(w)
    taken, wrong = (back, up) if rollback_expected else (up, back)
    first = taken[0] if taken else None
    looked = None
    if first is not None:
        before = bctx.audit.agent_entries[: bctx.audit.position(first)]
        looked = next(
            (
                e
                for e in before
                if reads(e)
                and not own_pre_read(bctx, e)
                and (key_of(e)[0] in ("metrics", "alerts", "dashboards") or key_of(e)[1] in names)
            ),
            None,
        )
    stated = _evaluation_stated(bctx, cond)
    lines += entry_lines(taken, "expected branch: ") or ["expected branch not taken"]
    lines += entry_lines(wrong, "other branch: ")
    lines.append(
        f"condition read by {bodies.describe(looked)}" if looked else "condition not read before"
    )
    lines.append(f'evaluation stated: "{quote(stated)}"' if stated else "evaluation not stated")
    settled = _settled(bctx, names) if rollback_expected else True
    complete = bool(taken) and all(bodies.succeeded(w) for w in taken) and settled
    ok = bool(taken) and not wrong and looked is not None and stated is not None and complete
    facets: tuple[str, ...] = ()
    if stated and not taken:
        facets = ("identified_not_acted",)
    elif taken and not wrong and not complete:
        facets = ("partial",)
    return BehaviorOutcome(ok, "branch:correct", lines, facets=facets)


def _undo_form(entry: AuditEntry) -> bool:
    """kubectl's ``rollout undo``: a JSON patch replacing the pod template."""
    return isinstance(bodies.parse_body(entry.request_body), list)


def _raises_weight(entry: AuditEntry, pre: ResourceView | None) -> bool:
    """A leaf named like a traffic weight set above its provisioning value."""
    before = view_leaves(pre)
    for path, value in body_leaves(entry).items():
        if path and "weight" in path[-1].lower():
            new = re.match(r"^\s*(\d+(?:\.\d+)?)", str(value))
            old = re.match(r"^\s*(\d+(?:\.\d+)?)", str(leaf(before, path) or 0))
            if new and old and float(new[1]) > float(old[1]):
                return True
    return False


def _settled(bctx: BehaviorContext, names: set[str]) -> bool:
    """Rolled back fully: each branch workload is gone or at zero replicas at the end."""
    for view in bctx.ctx.post.views:
        if view.name in names and view.resource in ("deployments", "statefulsets"):
            found, replicas = view.get("replicas")
            if found and norm(replicas) not in ("0", None):
                return False
    return True


def _evaluation_stated(bctx: BehaviorContext, cond: object) -> str | None:
    text = answer(bctx, reasoning=True)
    observed = getattr(cond, "observed_text", "") or ""
    if observed:
        num = re.match(r"^\s*(\d+(?:\.\d+)?)\s*(%|ms|s)?", observed)
        if num:
            pat = re.compile(rf"(?<![\d.]){re.escape(num[1])}(?:\.0+)?\s*{re.escape(num[2] or '')}")
            hit = next((s for s in text.kept if pat.search(s)), None)
            if hit:
                return hit
    verdict = first_asserted(text, VERDICT_PHRASES)
    return verdict[1] if verdict else None
