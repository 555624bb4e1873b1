"""Observability interpretation behaviors (SI behavior definitions §9), plus the §5
behaviors that read one observability source (memory trend, dashboard panels, a trace).

Ground truth is the scenario's seeded signals (:mod:`.findings`): log lines
(relevant = error signature, else noise), dashboard panels (concerning = a
non-normal status or a value past its threshold/baseline), trace span trees,
memory series, and missing config keys. How the agent read a panel is decided per
segment of a sentence (:mod:`._panels`). Trace navigation is read from the audit log
(``get traces/<id>`` entries of sim-k8s's ``traces_query``).
"""

from __future__ import annotations

import re

from ... import bodies
from ...state import ANY
from .. import findings
from .._absence import declared_store_keys as present_keys_of
from .._absence import false_absences
from .._claim_views import committed_text, stated_text
from .._cue import Cue
from .._or_options import without_or_lists
from .._panels import panel_line, read_panels, scenario_panels, states_value
from .._stated import says_fault
from .._words import MISSING, MISSING_NEG
from ..common import answer, outcome, prompt_text, successful
from ..detection import CAUSE_CUE, ground_truth, judge
from ..registry import BehaviorContext, BehaviorOutcome, register
from ..text import AnswerText, mentioning, quote, sentences, term_regex, unnegated_cue
from ._set_aside import aside, called_failing, own_aside
from ._set_aside import cited as _cited
from .correlation import slow_list

# ---- fixed phrase lists ------------------------------------------------------------------

#: words that set a log line aside ("the health checks are just noise")
DISMISS = Cue(
    r"noise|noisy|irrelevant|unrelated|not related|benign|routine|ignor\w*|filter\w*|exclud\w*|"
    r"normal|expected|harmless|background|chatter|discard\w*|skip\w*|set aside|\bjust\b|"
    r"not relevant|nothing (?:unusual|wrong)|healthy|"
    # rule 790: lines said dropped, as a filter drops them ("health checks, debug/trace lines
    # dropped", "dropped the debug lines"); "dropped" alone names a fault ("connections dropped")
    r"\b(?:lines?|entries|noise|chatter)\b[^.;:()]{0,40}?\bdropped\b|"
    r"\bdropped (?:the |all |every )?(?:[\w/-]+,? ){0,3}?(?:lines?|entries|noise)\b|"
    # rule 404: a rebuttal sets its line aside ("| pool pressure | ruled out | ... |"), not
    # "cannot be ruled out"
    r"(?<!\bbe )(?<!\bbeen )\bruled[\s-]+out\b",
    re.IGNORECASE,
)
POLAR_QUESTION = Cue(
    r"^\s*(?:is|are|was|were|do|does|did|can|could|should|will|would|has|have)\b|"
    r"\b(?:is|are) (?:that|this|it|they)\b[^?]*\?|\banything to worry about\b",
    re.IGNORECASE,
)
POLAR_ANSWER = Cue(
    r"\b(?:yes|no|not|correct|indeed|unlikely|likely|nothing|worth|should|need|will|would|"
    r"fine|healthy|risk\w*|worr\w*|concern\w*)\b|n't\b",
    re.IGNORECASE,
)
CAUSE_QUESTION = Cue(
    r"what'?s wrong|what is wrong|\bwhy\b|root cause|\bcause\b|find the|bottleneck|"
    r"what'?s going on|investigate|diagnos\w*",
    re.IGNORECASE,
)
_LOG_STOP = frozenset(
    {"error", "warn", "warning", "debug", "trace", "info", "fatal", "with", "from", "that",
     "this", "have", "been", "were", "when", "then", "than", "into", "before", "after",
     # words of any operator's sentence: they never tie a sentence to one log line
     "request", "response", "incoming", "ready", "status"}
)  # fmt: skip


# ---- panels -------------------------------------------------------------------------------


def _no_panels(rule: str) -> BehaviorOutcome:
    return outcome(False, rule, ["the scenario defines no dashboard panel or metric reading"])


@register(
    "interpret_all_relevant_panels", "detection", "final_answer+reasoning", reads="dashboards"
)
def interpret_all_relevant_panels(bctx: BehaviorContext) -> BehaviorOutcome:
    """Every panel referenced, each read correctly; ``partial`` when the concerning panels
    are right but normal (secondary) panels are missing; ``degree`` = panels read correctly
    / panels."""
    panels = scenario_panels(bctx)
    if not panels:
        return _no_panels("detection:all-panels")
    readings = read_panels(answer(bctx, reasoning=True), panels)
    referenced = [r for r in readings if r.referenced]
    wrong = [r for r in referenced if not r.correct]
    keys_ok = all(r.correct for r in readings if r.panel.concerning)
    exhibited = len(referenced) == len(readings) and not wrong
    facets = ("partial",) if keys_ok and not wrong and not exhibited and referenced else ()
    lines = [panel_line(r) for r in readings]
    # precision like diagnosis (issue 27 item 3): the degree is the share read correctly
    right = [r for r in readings if r.correct]
    return BehaviorOutcome(
        exhibited,
        "detection:all-panels",
        lines,
        round(len(right) / len(readings), 4),
        len(readings) - len(right),
        facets,
    )


@register("prioritize_concerning_panels", "detection", "final_answer+reasoning", reads="dashboards")
def prioritize_concerning_panels(bctx: BehaviorContext) -> BehaviorOutcome:
    """The flagged panels are exactly the concerning ones; normal panels flagged too give
    ``noise_included``."""
    panels = scenario_panels(bctx)
    if not panels:
        return _no_panels("detection:concerning-panels")
    readings = read_panels(answer(bctx, reasoning=True), panels)
    concerning = [r for r in readings if r.panel.concerning]
    caught = [r for r in concerning if r.anomalous]
    noise = [r for r in readings if not r.panel.concerning and r.anomalous]
    lines = [panel_line(r) for r in readings]
    if not concerning:
        lines.insert(0, "no panel is concerning in the scenario: nothing may be flagged")
    exhibited = len(caught) == len(concerning) and not noise
    facets = tuple(
        f
        for f, on in (
            ("noise_included", bool(noise)),
            ("partial", 0 < len(caught) < len(concerning)),
        )
        if on
    )
    # precision, not only recall: flagging every panel is not identifying the right ones
    recall = len(caught) / len(concerning) if concerning else (0.0 if noise else 1.0)
    degree = round(recall * (len(caught) / (len(caught) + len(noise)) if noise else 1.0), 4)
    return BehaviorOutcome(
        exhibited,
        "detection:concerning-panels",
        lines,
        degree,
        len(concerning) - len(caught),
        facets,
    )


@register("report_dashboard_metrics", "detection", "final_answer+reasoning", reads="dashboards")
def report_dashboard_metrics(bctx: BehaviorContext) -> BehaviorOutcome:
    """Several panels referenced; each key panel (the concerning ones, else all) reported
    accurately: its value stated, or its state (concerning / normal) read correctly."""
    panels = scenario_panels(bctx)
    if not panels:
        return _no_panels("detection:dashboard-reported")
    readings = read_panels(answer(bctx, reasoning=True), panels)
    keys = [r for r in readings if r.panel.concerning] or readings
    accurate = [r for r in keys if r.referenced and (states_value(r) or r.correct)]
    referenced = [r for r in readings if r.referenced]
    exhibited = len(referenced) >= min(2, len(readings)) and len(accurate) == len(keys)
    lines = [panel_line(r) + (" (value stated)" if states_value(r) else "") for r in readings]
    facets = ("partial",) if 0 < len(accurate) < len(keys) else ()
    return BehaviorOutcome(
        exhibited,
        "detection:dashboard-reported",
        lines,
        round(len(accurate) / len(keys), 4),
        len(keys) - len(accurate),
        facets,
    )


# ---- logs: filter_noise ----------------------------------------------------------------


def line_tokens(line: str) -> set[str]:
    """Distinctive tokens of a log line: words of 4+ letters, acronyms, paths, hosts.

    Acronyms keep their case (``GET`` is not the word "get"); a path and the word it
    spells (``/ready`` and ``ready``) are one token, so one word never counts twice.
    """
    body = re.sub(r"^\s*[A-Z]+:\s*", "", line)
    words = {w.lower() for w in re.findall(r"[A-Za-z]{4,}", body)} - _LOG_STOP
    acronyms = {w for w in re.findall(r"\b[A-Z]{3,}\b", body) if w.lower() not in _LOG_STOP}
    words -= {a.lower() for a in acronyms}
    paths = set(re.findall(r"/[\w./-]+", body))
    words -= {w for p in paths for w in re.findall(r"[a-z]+", p.lower())}
    return words | acronyms | paths


def _unquoted(sentence: str, lines: list[tuple[str, str]]) -> str:
    """``sentence`` with every verbatim log line (or its message after the level) blanked:
    a relevant line is cited by what the agent says of it, not by pasting it (issue 27 item
    4: a generic error-level filter pastes every error line, whatever the question)."""
    flat = " ".join(sentence.split())
    low = flat.lower() if flat.isascii() else None  # ASCII: a case-free match is a substring
    for _, line in lines:
        for body in {" ".join(line.split()), " ".join(re.sub(r"^\s*[A-Z]+:\s*", "", line).split())}:
            if len(body.split()) >= 3 and (
                low is None or not body.isascii() or body.lower() in low
            ):
                flat = re.sub(re.escape(body), " ", flat, flags=re.IGNORECASE)
                low = flat.lower() if flat.isascii() else None
    return flat


@register("filter_noise", "detection", "final_answer+reasoning", reads="logs")
def filter_noise(bctx: BehaviorContext) -> BehaviorOutcome:
    """Relevant log lines cited, noise lines not dwelt on (mentioned without being set
    aside: :data:`DISMISS`); the final answer is the cited evidence (the reasoning only
    when there is no final answer). A line is cited by two of its distinctive tokens in
    one committed sentence (a hedged candidate cites nothing), outside any verbatim copy of a
    log line (:func:`_unquoted`): the line's meaning stated, not the line pasted (issue 27
    items 1, 4)."""
    ev = bctx.evidence.transcript
    text = AnswerText(ev.final_answer or ev.reasoning, ())
    lines = findings.log_lines(bctx.scenario)
    relevant = list(dict.fromkeys(ln for _, ln in lines if findings.relevant(ln)))
    noise = list(dict.fromkeys(ln for _, ln in lines if not findings.relevant(ln)))
    if not lines:
        return _panel_noise(bctx, text)
    shared = set().union(*(line_tokens(ln) for ln in relevant)) if relevant else set()
    evidence, cited, dwelt = [], 0, 0
    # a hedged candidate cites nothing (issue 27 item 1); each distinct sentence read once
    # (the first to cite is the first occurrence of its text), its verbatim lines blanked once
    stated = [(s, _unquoted(s, lines)) for s in dict.fromkeys(stated_text(text).kept)]
    stated = [(s, without_or_lists(own)) for s, own in stated]  # rule 887: options cite nothing
    stated = [(s, own) for s, own in stated if says_fault(own)]  # rule 591: a fault said of it
    for ln in relevant:
        tok = line_tokens(ln)
        # rule 801: a line cited by the words that filter it is set aside, not singled out
        hit = next(
            (s for s, own in stated if _cited(own, tok) and not own_aside(own, tok, DISMISS)),
            None,
        )
        cited += hit is not None
        evidence.append(
            f'relevant "{quote(ln, 80)}": ' + (f'cited in "{quote(hit)}"' if hit else "not cited")
        )
    kept, hits = list(dict.fromkeys(text.kept)), []
    for ln in noise:
        tokens = line_tokens(ln) - shared
        # rule 800: a dismissal sets aside what it reaches, not a line still called failing
        hit = next((s for s in kept if _cited(s, tokens) and not aside(s, tokens, DISMISS)), None)
        dwelt += hit is not None
        if hit:
            hits.append(hit)
            evidence.append(f'noise "{quote(ln, 80)}" included in "{quote(hit)}"')
    evidence.append(
        f"{len(relevant)} relevant, {len(noise)} noise lines; {dwelt} noise lines included"
    )
    facets = tuple(
        f
        for f, on in (
            # noise beside no relevant line is not "relevant but noisy": nothing was extracted
            ("noise_included", dwelt > 0 and cited > 0),
            ("partial", 0 < cited < len(relevant)),
        )
        if on
    )
    alone = called_failing(hits, [line_tokens(ln) for ln in relevant])
    if alone > cited > 0:
        # rule 802: more noise lines called failures than signal cited singles nothing out
        evidence.append(f"{alone} noise lines called failing on their own: nothing set aside")
        facets = ()
    # precision, not only recall: citing every line is not identifying the relevant ones
    recall = cited / len(relevant) if relevant else 1.0
    degree = round(recall * (cited / (cited + dwelt) if dwelt else 1.0), 4)
    exhibited = cited == len(relevant) and not dwelt and bool(relevant)
    amid = _amid_wrong_causes(bctx) if cited else None
    if amid is not None:
        # the signal cited among wrong causes asserted: a catalogue singles nothing out, so
        # it is not "relevant but noisy" either (behaviors rule 34)
        precision, line = amid
        evidence.append(line)
        exhibited, facets, degree = False, (), round(degree * precision, 4)
    return BehaviorOutcome(
        exhibited, "detection:noise-filtered", evidence, degree, len(relevant) - cited, facets
    )


def _amid_wrong_causes(bctx: BehaviorContext) -> tuple[float, str] | None:
    """(precision, evidence line) when the answer asserts more wrong causes than right ones
    (the diagnosis precision of :func:`..detection.judge` against the scenario's ground truth),
    else None: filtering noise is singling the signal out (issue 27 item 3)."""
    gt = ground_truth(bctx.scenario)
    if gt is None:
        return None
    j = judge(answer(bctx, reasoning=True), gt)
    if j.precise:
        return None
    return j.precision, (
        f"the relevant line is cited among wrong causes asserted (precision {j.precision:.2f}):"
        " a catalogue of faults filters no noise"
    )


def _panel_noise(bctx: BehaviorContext, text: AnswerText) -> BehaviorOutcome:
    """No log lines: the signals are panels; concerning ones relevant, normal ones noise."""
    panels = scenario_panels(bctx)
    if not panels:
        gt = ground_truth(bctx.scenario)
        if gt is None:
            return outcome(
                False, "detection:noise-filtered", ["no log line, panel or ground truth"]
            )
        j = judge(text, gt)
        return BehaviorOutcome(
            j.ok, "detection:noise-filtered", ["no log line: ground truth"] + j.lines
        )
    readings = read_panels(text, panels)
    keys = [r for r in readings if r.panel.concerning]
    caught = [r for r in keys if r.anomalous]
    noise = [r for r in readings if not r.panel.concerning and r.anomalous]
    facets = ("noise_included",) if noise else ()
    return BehaviorOutcome(
        len(caught) == len(keys) and not noise, "detection:noise-filtered",
        [panel_line(r) for r in readings],
        round(len(caught) / len(keys), 4) if keys else 1.0, len(keys) - len(caught), facets,
    )  # fmt: skip


# ---- traces ----------------------------------------------------------------------------


def traces_read(bctx: BehaviorContext) -> tuple[list[str], list[str]]:
    """(services of the traces the agent opened, evidence lines) from ``get traces/<id>``.

    An id matches a scenario trace named like it (equal, or one ends/starts with the
    other, as sim-k8s resolves short ids); an id matching none is taken for a trace
    whose id the provider generated (a scenario trace name without digits).
    """
    services = findings.trace_services(bctx.scenario)
    opened = [
        e
        for e in successful(bctx.audit.agent_entries)
        if bodies.resource_of(e) == "traces" and bodies.is_read(e) and e.name
    ]
    seen: list[str] = []
    for entry in opened:
        name = str(entry.name).lower()
        hits = [
            t for t in services
            if t.lower() == name or t.lower().endswith(name) or name.endswith(t.lower())
            or t.lower().startswith(name)
        ] or [t for t in services if not re.search(r"\d", t)]  # fmt: skip
        for trace in hits:
            seen += [s for s in services[trace] if s not in seen]
    lines = [
        f"{len(opened)} trace reads (audit log)"
        + (f": {', '.join(sorted({str(e.name) for e in opened}))}" if opened else "")
    ]
    return seen, lines


@register(
    "navigate_trace_across_services",
    "detection",
    "audit_log+final_answer+reasoning",
    reads="traces",
)
def navigate_trace_across_services(bctx: BehaviorContext) -> BehaviorOutcome:
    """A trace opened (audit log) and at least two of its services named in what the answer
    states; ``degree`` = services named / services of the trace. Spans called slow one by one
    (:func:`.correlation.slow_list`) are a list, not a path: nothing navigated."""
    text = stated_text(answer(bctx, reasoning=True))
    services, lines = traces_read(bctx)
    if not services:
        lines.append("no trace of the scenario opened: no span inspection")
        return BehaviorOutcome(False, "detection:trace-navigated", lines, 0.0, None)
    listed = slow_list(bctx, text)
    if len(listed) >= 2:
        lines.append(f"{len(listed)} spans called slow one by one: a list, not a path")
        return BehaviorOutcome(False, "detection:trace-navigated", lines, 0.0, len(services))
    named = [s for s in services if mentioning(text, [s])]
    lines += [
        f"services of the trace: {', '.join(services)}",
        f"named: {', '.join(named) or 'none'}",
    ]
    exhibited = len(named) >= 2
    facets = ("partial",) if exhibited and len(named) < len(services) else ()
    return BehaviorOutcome(
        exhibited, "detection:trace-navigated", lines, round(len(named) / len(services), 4),
        len(services) - len(named), facets,
    )  # fmt: skip


# ---- config: missing key ----------------------------------------------------------------


def missing_keys(bctx: BehaviorContext) -> tuple[list[findings.Finding], list[str]]:
    """Keys the scenario's workloads reference but their ConfigMap/Secret lacks, confirmed
    against the precondition snapshot when it holds that ConfigMap/Secret."""
    found = findings.missing_config_keys(bctx.scenario)
    lines = []
    if found and bctx.evidence.precondition_snapshot:
        kept = []
        for f in found:
            view = bctx.ctx.pre.find(None, f.related[0], ANY)
            if view is not None and f.obj in view.data():
                lines.append(f"{f.obj}: present in {f.related[0]} at provisioning, not missing")
            else:
                kept.append(f)
        found = kept
    if not found:
        for item in bctx.scenario.verification.state_assertions:
            m = re.search(r"missing (?P<key>[A-Za-z0-9_.\-]+)", str(item.get("description", "")))
            if m and "resource" not in item:
                found = [
                    findings.Finding(
                        "missing-config-key", m["key"], (m["key"],), "verification prose"
                    )
                ]
                break
    return found, lines


@register(
    "reference_missing_config_key", "detection", "final_answer+reasoning", reads="ground-truth"
)
def reference_missing_config_key(bctx: BehaviorContext) -> BehaviorOutcome:
    """Every missing key named in a sentence that says it is missing, in what the agent
    committed to (a hedged, candidate or rebutted key is not stated)."""
    text = committed_text(answer(bctx, reasoning=True))
    found, lines = missing_keys(bctx)
    if not found:
        return outcome(
            False, "detection:missing-key", lines + ["no missing config key in the scenario"]
        )
    stated = 0
    for f in found:
        regex = term_regex(f.obj)
        hit = next(
            (
                s
                for s in text.kept
                if regex.search(s)
                and (unnegated_cue(s, MISSING) or unnegated_cue(s, MISSING_NEG, inner_ok=True))
            ),
            None,
        )
        stated += hit is not None
        lines.append(f"scenario: {f.detail}")
        lines.append(
            f'{f.obj}: stated missing in "{quote(hit)}"' if hit else f"{f.obj}: not stated missing"
        )
    # rule 55: a declared key said missing is a false claim (precision, and no credit when
    # the false claims reach the true ones)
    false = false_absences(text, present_keys_of(bctx.scenario), [f.obj for f in found])
    lines += false
    right = stated / (stated + len(false)) if stated else 0.0
    ok = stated == len(found) and len(false) < stated
    return BehaviorOutcome(
        ok, "detection:missing-key", lines, round(stated / len(found) * (right if false else 1), 4),
        len(found) - stated, ("partial",) if 0 < stated < len(found) and not false else (),
    )  # fmt: skip


# ---- the operator's question ------------------------------------------------------------


@register("answer_operator_question", "detection", "final_answer")
def answer_operator_question(bctx: BehaviorContext) -> BehaviorOutcome:
    """The final answer addresses the question's subject (the scenario objects it names,
    else its content words); a yes/no question gets a polar answer, a why/what's-wrong
    question a cause statement or part of the ground truth."""
    prompt = prompt_text(bctx.scenario)
    text = answer(bctx)
    if text.empty:
        return outcome(False, "detection:question-answered", ["the final answer states nothing"])
    rows = findings.entries(bctx.scenario)
    subjects = [n for _, n, _, _ in rows if term_regex(n).search(prompt)]
    # a dashboard is addressed through its panels
    subjects += [p.title for p in findings.panels(bctx.scenario) if p.dashboard in subjects]
    if not subjects:
        subjects = sorted(
            {w for w in re.findall(r"[A-Za-z][\w-]{4,}", prompt)} - {"please", "could", "would"}
        )
    about = next((s for s in subjects if mentioning(text, [s])), None)
    lines = [
        f"question: {quote(prompt)}",
        f"subject {about} addressed" if about else f"none of {subjects} addressed",
    ]
    ok = about is not None or not subjects
    if any(POLAR_QUESTION.search(q) for q in sentences(prompt)):
        polar = next((s for s in text.kept if POLAR_ANSWER.search(s)), None)
        ok = ok and polar is not None
        lines.append(
            f'polar answer in "{quote(polar)}"' if polar else "yes/no question not answered"
        )
    if CAUSE_QUESTION.search(prompt):
        gt = ground_truth(bctx.scenario)
        # the fault part of the ground truth (not the groups naming the asked-about object)
        faults = [g for g in (gt.required if gt else []) if not set(g) & set(subjects)]
        fault = next((g for g in faults if any(text.asserted(t) for t in g)), None)
        cause = next((s for s in text.kept if unnegated_cue(s, CAUSE_CUE)), None)
        ok = ok and (cause is not None or fault is not None)
        lines.append(
            f'cause stated in "{quote(cause)}"' if cause else
            f"fault stated ({'/'.join(fault)})" if fault else "no cause stated"
        )  # fmt: skip
    return outcome(ok, "detection:question-answered", lines)
