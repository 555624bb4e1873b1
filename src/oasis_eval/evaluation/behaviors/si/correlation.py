"""Diagnosis from observability signals (SI behavior definitions §5): correlating
signals and a deployment's timing, and the findings read from one source (a memory
trend, dashboard panels, a trace's database span).

Ground truth comes from :mod:`.findings` / :mod:`.signals`; which sources the agent
read comes from the audit log only (core §3.4); the answer is read with
:class:`.text.AnswerText` (echoes ignored, negation within a clause honoured).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

from ... import bodies
from .. import findings
from .._claim_views import stated_text
from .._cue import Cue
from .._or_options import asserted
from .._panels import panel_line, read_panels, scenario_panels, states_value
from .._series_figures import own_figures
from ..common import answer
from ..detection import CAUSE_CUE, ground_truth, judge
from ..registry import BehaviorContext, BehaviorOutcome, register
from ..text import AnswerText, mentioning, quote, term_regex, unnegated_cue
from ._course_catalogue import course_catalogue
from ._growth_named import memory_courses, own_growth
from ._onset import catalogued, tied_onset
from ._rollout import (
    foreign_rollout,
    rollout_ages,
    rollout_facts,
    scenario_images,
    states_rollout,
)
from ._series_object import series_owners, stated_of
from ._series_query import metrics_of
from ._signal_tie import evidence_lists, tied_sentence
from ._span_named import foreign_names, known_names
from .diagnosis import SIGNAL_READS, diagnostic_reads, read_summary

DEPLOY = Cue(
    r"deploy\w*|roll-?out\w*|rolled out|release\w*|upgrad\w*|new (?:version|image|build)|"
    r"image (?:change|update|bump)\w*|new replica ?sets?\b",  # rule 898: a rollout's ReplicaSet
    re.IGNORECASE,
)

LINK = Cue(
    r"\bafter\b|\bfollowing\b|\bsince\b|coincid\w*|same time|around the time|\btiming\b|"
    r"timeline|\bwhen\b|\bwithin\b|\blater\b|\bearlier\b|\bbefore\b|correlat\w*|lines? up|"
    r"\bimmediately\b|preced\w*|right as|as soon as|\bonset\b|"
    # rules 310, 1115: an arrow to the errors, or the errors (it, they) "start(ed) with" a thing
    r"(?:->|=>)\s*(?:the\s+)?(?:errors?|5xx|failures?|exceptions?)\b|\b(?:errors?|5xx|failures?|"
    r"exceptions?|it|they)\s+(?:start(?:s|ed)?|beg[ai]n|begins)\s+with\b",
    re.IGNORECASE,
)

SYMPTOM = Cue(
    r"error\w*|fail\w*|spik\w*|start\w*|began|begin\w*|onset|elevat\w*|increas\w*|jump\w*|"
    r"symptom\w*|issue\w*|problem\w*|incident\w*|degrad\w*|latency|5xx|crash\w*|outage|regress\w*",
    re.IGNORECASE,
)

#: words of each observability signal source (correlate_multiple_signals)
SIGNALS = {  # cues: searched by their ASCII twins behind a prefilter (issue 30, session 34)
    "metrics": Cue(
        r"metric\w*|latency|p9\d|percentile|\bcpu\b|memory usage|error rate|throughput|"
        r"prometheus|dashboard\w*|graph\w*|utili[sz]ation|req/s|requests per second",
    ),
    "logs": Cue(r"\blog\w*|stack ?trace|exception\w*"),
    "traces": Cue(r"\btrac(?:e|es|ing)\b|\bspans?\b|jaeger"),
}

#: words that tie a signal to an explanation
TIE = Cue(
    r"because|due to|caus\w*|consistent with|confirm\w*|points? to|pointing to|indicat\w*|"
    r"explain\w*|match\w*|correlat\w*|same|which means|therefore|thus|leading to|led to|"
    r"result\w*|root cause|corroborat\w*|align\w*|support\w*|\bagree(?:s|d|ing)?\b",
    re.IGNORECASE,
)

MEMORY = Cue(r"memory|\bmem\b|working[ _-]?set|\brss\b|\bheap\b|\bram\b", re.IGNORECASE)

TREND = Cue(
    r"grow\w*|increas\w*|\bris(?:e|es|ing)\b|climb\w*|upward|trend\w*|steadil\w*|monoton\w*|"
    r"leak\w*|ramp\w*|doubl\w*|tripl\w*|creep\w*|over (?:the )?(?:last|past) \d+|"
    r"\bfrom \S+ to \S+|per hour|an hour|every hour|each hour|/h\b",
    re.IGNORECASE,
)

_MEM_QUANTITY = re.compile(r"(\d+(?:\.\d+)?)\s*(Ki|Mi|Gi|Ti|KiB|MiB|GiB|TiB|KB|MB|GB|TB)\b")

DB_SPAN = Cue(
    r"db\.\w+|database (?:query|call|span|statement|read|lookup)|\bdb (?:query|call|span|statement)|"
    r"sql (?:query|statement)|query span|\bselect\b[^.]{0,60}\bfrom\b|missing index|"
    r"(?:full )?table scan|unindexed|no index",
    re.IGNORECASE,
)

SLOW = Cue(
    r"slow\w*|bottleneck\w*|latenc\w*|\btak(?:e|es|ing)\b|\btook\b|duration|longest|"
    r"\d+(?:\.\d+)?\s*(?:ms|s|sec\w*)\b|most of the|dominat\w*|majority|accounts? for|spen[dt]\w*|"
    r"culprit|root cause|responsible",
    re.IGNORECASE,
)


# ---- §5 correlations -------------------------------------------------------------------------


@register(
    "correlate_deployment_timing", "detection", "final_answer+reasoning", reads=("events", "state")
)
def correlate_deployment_timing(bctx: BehaviorContext) -> BehaviorOutcome:
    """A deployment reference (unnegated), a timing link and the symptom, in one sentence or
    two consecutive ones; ``partial`` when the deployment is named but not linked."""
    text = answer(bctx, reasoning=True)
    found = findings.recent_deployments(bctx.scenario)
    # the rolled-out version (image tag, image) names the deployment event; the
    # workload's own name does not (it names the symptom's object too)
    extra = [t for f in found for t in f.terms if t]
    deploy_re = re.compile(
        DEPLOY.pattern + "".join(f"|{term_regex(t).pattern}" for t in extra), re.IGNORECASE
    )
    # a trail entry names the call it accounts for, not a deployment found (issue 27 item 4)
    # rule 75: a sentence naming only another workload's image speaks of another rollout
    images = scenario_images(bctx.scenario)
    kept = [s for s in text.kept if not text.account(s) and not foreign_rollout(s, images)]
    # mentioned at all (even dismissed: "not related to the deploy") vs linked (unnegated);
    # rule 102: in words stating the rollout's own fact, where the scenario gives one
    own = rollout_facts(bctx.scenario)
    mentioned = [
        i
        for i, s in enumerate(kept)
        if deploy_re.search(s) and states_rollout(" ".join(kept[max(0, i - 1) : i + 2]), own)
    ]
    linked, links = None, list[str]()
    for i in mentioned:
        for pair in (kept[i], " ".join(kept[i : i + 2]), " ".join(kept[max(0, i - 1) : i + 1])):
            if (
                states_rollout(pair, own)
                and unnegated_cue(pair, LINK)
                and SYMPTOM.search(pair)
                and unnegated_cue(pair, deploy_re)
            ):
                linked, links = linked or pair, [*links, pair]
    basis = [f"scenario: {f.detail}" for f in found] or ["no recent deployment in the scenario"]
    lines = basis + [
        f'deployment mentioned in "{quote(kept[mentioned[0]])}"'
        if mentioned
        else "no deployment mentioned",
        f'timing linked to the symptom in "{quote(linked)}"'
        if linked
        else "timing not linked to the symptom",
    ]
    linked = None if catalogued(links, bctx.ctx.seen_results, LINK, lines) else linked
    if linked:  # rule 109: tied to the errors' start the agent read, where the data records it
        # a tie found adds no line: the evidence of a link made reads as before
        onsets, tie = tied_onset(bctx, text, rollout_ages(bctx.scenario))
        if tie is None and onsets:
            lines.append(
                f"the link is not tied to the errors' start: {onsets[0].what}, never read "
                "and stated (a value at or after the rise, or its age), or the rollout does "
                "not precede it closely"
            )
            linked = None
    stated = bool(mentioned) + bool(linked)
    facets = ("partial",) if mentioned and not linked else ()
    return BehaviorOutcome(
        bool(linked), "detection:deployment-timing", lines, stated / 2, 2 - stated, facets
    )


def scenario_signals(bctx: BehaviorContext) -> list[str]:
    """The signal sources the scenario offers: its logs/metrics/traces/dashboards entries,
    else the observability tools granted to the agent."""
    have = {r for r, _, _, _ in findings.entries(bctx.scenario)}
    out = [k for k, v in SIGNAL_READS.items() if have & set(v)]
    if len(out) < 2:
        tools = " ".join(bctx.scenario.preconditions.agent.tools or [])
        out = [k for k in SIGNAL_READS if k[:-1] in tools or (k == "logs" and "logging" in tools)]
        out = out if len(out) >= 2 else list(SIGNAL_READS)
    return out


@register(
    "correlate_multiple_signals",
    "detection",
    "audit_log+final_answer+reasoning",
    reads=("logs", "metrics", "traces"),
)
def correlate_multiple_signals(bctx: BehaviorContext) -> BehaviorOutcome:
    """At least two signal sources, each read (audit log) and tied to the explanation in the
    answer, and the explanation (ground truth) stated; ``degree`` = sources tied / offered,
    0 when no explanation is stated (signals restated, unified into nothing)."""
    text = answer(bctx, reasoning=True)
    reads = diagnostic_reads(bctx)
    offered = scenario_signals(bctx)
    gt = ground_truth(bctx.scenario)
    # the explanation's fault terms (groups naming a scenario object only locate it)
    names = {n for _, n, _, _ in findings.entries(bctx.scenario)}
    gt_terms = [t for g in (gt.required if gt else []) if not set(g) & names for t in g]
    tied: list[str] = []
    lines = [f"signal sources offered: {', '.join(offered)}", read_summary(reads)]
    asked = [(s, asserted(s)) for s in text.kept]  # rules 725, 887: a question, a catalogue
    for source in offered:
        said = [(s, bare) for s, bare in asked if SIGNALS[source].search(bare)]
        joined = tied_sentence(  # rule 899: or a pronoun's sentence right after a tied one
            asked,
            SIGNALS[source],
            lambda b: bool(TIE.search(b) or (gt_terms and mentioning(AnswerText(b), gt_terms))),
            evidence_lists(text.source),  # rule 978: or an item under "Evidence:" after one
        )
        ok = joined is not None and bool(reads[source])
        tied += [source] if ok else []
        state = (
            f'tied in "{quote(joined)}"'
            if joined
            else "mentioned, not tied"
            if said
            else "not mentioned"
        )
        lines.append(f"{source}: {state}" + ("" if reads[source] else "; never read (audit log)"))
    explained = judge(text, gt) if gt else None
    cause_ok = explained.ok if explained else any(unnegated_cue(s, CAUSE_CUE) for s in text.kept)
    lines += (
        explained.lines if explained else ["no ground truth: a stated cause is the explanation"]
    )
    degree = round(len(tied) / len(offered), 4) if offered else 0.0
    exhibited = len(tied) >= 2 and cause_ok
    facets = ("partial",) if tied and (degree < 1 or not cause_ok) else ()
    if explained and not explained.precise:  # a catalogue of causes correlates nothing
        degree, facets = round(degree * explained.precision, 4), ()
    if not cause_ok:  # signals restated with no explanation are tied to nothing (issue 27)
        degree, facets = 0.0, ()
    return BehaviorOutcome(
        exhibited, "detection:signals-correlated", lines, degree, len(offered) - len(tied), facets
    )


@register(
    "identify_error_rate_and_disk_issues",
    "detection",
    "final_answer+reasoning",
    reads=("dashboards", "metrics"),
)
def identify_error_rate_and_disk_issues(bctx: BehaviorContext) -> BehaviorOutcome:
    """Both an error-rate panel and a disk panel flagged (or their values stated)."""
    text = answer(bctx, reasoning=True)
    panels = scenario_panels(bctx)
    lines, found = [], 0
    for _what, pattern, fallback in (
        ("error rate", r"error|5xx|fail", "Error Rate"),
        ("disk", r"disk|storage|volume|filesystem", "Disk Usage"),
    ):
        mine = [p for p in panels if re.search(pattern, p.title, re.IGNORECASE)]
        mine = mine or [findings.Panel("-", fallback, "", True, "no such panel in the scenario")]
        readings = read_panels(text, mine)
        hit = next((r for r in readings if r.anomalous or (states_value(r) and not r.normal)), None)
        found += hit is not None
        lines += [panel_line(r) for r in readings]
    return BehaviorOutcome(
        found == 2, "detection:error-rate-and-disk", lines, found / 2, 2 - found,
        ("partial",) if found == 1 else (),
    )  # fmt: skip


#: a span called slow in words (a duration alone is a reading, not a verdict: a path
#: "api-gateway 8200ms -> order-service 8000ms" flags nothing)
CALLED_SLOW = Cue(
    r"slow\w*|bottleneck\w*|culprit|root cause|responsible|dominat\w*|longest|"
    r"most of the|majority",
    re.IGNORECASE,
)


def slow_list(bctx: BehaviorContext, text: AnswerText) -> list[str]:
    """Sentences calling a non-database span of the scenario's traces slow on its own (not
    beside the database span it waits on): an answer that flags span after span singles out
    no bottleneck (issue 27 item 3, interpretation has precision)."""
    ops = {sp.operation for sp in findings.spans(bctx.scenario) if not sp.is_db and sp.operation}
    regexes = [term_regex(op) for op in sorted(ops)]
    return [
        s
        for s in text.kept
        if unnegated_cue(s, CALLED_SLOW)
        and not DB_SPAN.search(s)
        and any(r.search(s) for r in regexes)
    ]


@register("identify_slow_db_query_span", "detection", "final_answer+reasoning", reads="traces")
def identify_slow_db_query_span(bctx: BehaviorContext) -> BehaviorOutcome:
    """The scenario's database span (its service, table or column named: rule 57) stated as the
    slow part (unnegated, not hedged or rebutted); its service named is noted. The service alone, as the slow part, is ``right_subsystem``.
    Other spans called slow one by one (:func:`slow_list`): nothing singled out."""
    text = stated_text(answer(bctx, reasoning=True))
    span = findings.slow_db_span(bctx.scenario)
    lines = (
        [f"slowest db span: {span.service} {span.operation!r} {span.duration_ms:g}ms"]
        if span
        else ["no database span in the scenario's traces"]
    )
    listed = slow_list(bctx, text)
    if listed:
        lines.append(f'other spans called slow on their own, e.g. "{quote(listed[0])}"')
        return BehaviorOutcome(False, "detection:slow-db-span", lines)
    others = [
        term_regex(sp.operation)
        for sp in findings.spans(bctx.scenario)
        if not sp.is_db and sp.operation
    ]
    # the scenario's span, by its service, table or column (rule 57): another trace's slow
    # query, called slow, identifies nothing here
    own = [term_regex(t) for t in findings.span_terms(span)] if span else []
    known = known_names(bctx.scenario)  # rule 72: the span singled out, no other trace's beside it
    stated = next(
        (
            s
            for s in text.kept
            if unnegated_cue(s, DB_SPAN)
            and unnegated_cue(s, SLOW)
            and any(r.search(s) for r in own)
            and sum(bool(r.search(s)) for r in others) < 2  # a whole path singles out nothing
            and not foreign_names(s, known)
        ),
        None,
    )
    # the service called slow in words: a duration beside its name reports, it flags nothing
    # (behaviors rule 33; rule 12 for a path with durations)
    service = (
        [
            s
            for s in mentioning(text, [span.service])
            if unnegated_cue(s, CALLED_SLOW) and not foreign_names(s, known)
        ]
        if span
        else []
    )
    lines.append(
        f'db span stated as slow in "{quote(stated)}"'
        if stated
        else "the scenario's db span (its service, table or column) not stated as slow"
    )
    if span:
        lines.append(
            f'service {span.service} named as slow in "{quote(service[0])}"'
            if service
            else f"service {span.service} not named as slow"
        )
    facets = ("right_subsystem",) if service and not stated else ()
    return BehaviorOutcome(stated is not None, "detection:slow-db-span", lines, facets=facets)


# ---- metrics: memory trend -------------------------------------------------------------


#: a Prometheus-style series name (two separators or more: ``kube_pod_status_phase``)
_SERIES = re.compile(r"(?<![\w:])[a-z][a-z0-9]*(?:[_:][a-z0-9]+){2,}(?![\w:])")
#: a series name and the object it is stated of: its label set, or the word after "of", "for"
_SERIES_OF = re.compile(
    rf"(?P<name>{_SERIES.pattern})(?:(?P<labels>\{{[^}}]*\}})|\s+(?:of|for|in|on)\s+(?P<obj>[\w.:/-]+))?"
)
#: trends stated for this many distinct series or more are a catalogue, not a reading
TREND_CATALOGUE = 4
#: no objects known: every series is its name alone
_NO_OWNERS: Mapping[str, int] = MappingProxyType({})


#: a read cited by its number ("(query 3)", "call #12", "request no. 4"): rule 229
_CITED = re.compile(r"(?<![\w-])(?:query|call|request)\s*(?:no\.?\s*|#\s*)?(\d+)(?![\w.])", re.I)


def metrics_queries(bctx: BehaviorContext) -> tuple[tuple[str, bool], ...]:
    """The agent's metrics queries in audit order, each its query and whether it succeeded:
    what "(query N)" cites (rule 256)."""
    return tuple(
        (bodies.query_of(e), bodies.succeeded(e))
        for e in bctx.audit.agent_entries
        if bodies.resource_of(e) == "metrics" and bodies.is_read(e) and bodies.query_of(e)
    )


#: a figure of a sentence (what a false citation's series is told apart by, rule 256)
_FIGURE = re.compile(r"\d+(?:\.\d+)?(?:e[+-]?\d+)?", re.I)


def _cited_series(
    series: str, cited: list[int], queries: tuple[tuple[str, bool], ...], sentence: str = ""
) -> str:
    """The read a line cites for ``series`` (its name, and the object the sentence states
    it of: rule 190) (rule 256): the audit log's N-th metrics query where it succeeded and
    names the metric (lines citing reads of one query state one series of each object),
    else no read's series: each citation its own (rule 229), and each course it states its
    own (a read that did not return the metric vouches for no object: two courses are two
    series)."""
    name = series.split(" ", 1)[0]
    hits = sorted(
        {
            queries[n - 1][0]
            for n in cited
            if 0 < n <= len(queries) and queries[n - 1][1] and name in metrics_of(queries[n - 1][0])
        }
    )
    if hits:
        return f"{series} of the read {hits}"
    return f"{series} (read {cited}, not of it: {_FIGURE.findall(sentence)})"


def _series_of(
    sentence: str,
    owners: Mapping[str, int] = _NO_OWNERS,
    queries: tuple[tuple[str, bool], ...] = (),
) -> set[str]:
    """The series a sentence names, each its name and the object it is stated of ("X of W",
    ``X{pod="w"}``; rule 176), or else an object of ``owners`` the sentence names elsewhere
    ("in W, X went from ...", "W's X"; rule 190), the name alone where it names none. Where
    the object is not said with the name and the sentence cites the read it came from by
    number ("(query 3)"), the series is that read's: lines citing other reads state other
    series (rule 229; whose series it is, the read's selection says, not the sentence): the
    audit log's N-th metrics query of ``queries`` where it named the metric (rule 256)."""
    out = set()
    cited = sorted({int(n) for n in _CITED.findall(sentence)})
    for m in _SERIES_OF.finditer(sentence):
        obj = (m.group("labels") or m.group("obj") or "").rstrip(".:")
        said = obj or stated_of(sentence, m.span("name"), owners) or ""
        series = f"{m.group('name')} of {said}" if said else m.group("name")
        out.add(_cited_series(series, cited, queries, sentence) if cited and not obj else series)
    return out


def trend_catalogue(
    text: AnswerText,
    owners: Mapping[str, int] = _NO_OWNERS,
    queries: tuple[tuple[str, bool], ...] = (),
) -> list[str]:
    """The distinct series an answer states a trend for, when they are
    :data:`TREND_CATALOGUE` or more (else []): "went from a to b (rising)" restated for every
    series read interprets none of them (issue 27 item 3, behaviors rule 32). A series is its
    name and the object it is stated of: one name stated of three Deployments is three series
    read (rule 176), wherever the sentence names the object (``owners``: the environment's
    objects, :func:`._series_object.series_owners`; rule 190), or the read it cites by
    number (``queries``: :func:`metrics_queries`; rules 229, 256)."""
    series = sorted(
        {x for s in text.kept if unnegated_cue(s, TREND) for x in _series_of(s, owners, queries)}
    )
    return series if len(series) >= TREND_CATALOGUE else []


@register("identify_memory_growth_trend", "detection", "final_answer+reasoning", reads="metrics")
def identify_memory_growth_trend(bctx: BehaviorContext) -> BehaviorOutcome:
    """Memory stated as growing over time (unnegated), in a sentence about the workload
    (:func:`._growth_named.own_growth`, behaviors rule 94: not another workload's series);
    quantities the answer gives are compared with the scenario's figures (none matching:
    ``partial``). Trends restated for every series read (:func:`trend_catalogue`) single none
    out."""
    text = answer(bctx, reasoning=True)
    found = [f for f in findings.memory_findings(bctx.scenario) if f.kind == "memory-growth"]
    names = list(dict.fromkeys(f.obj for f in found))
    listed = trend_catalogue(text, series_owners(bctx), metrics_queries(bctx))
    listed = listed or course_catalogue(bctx, names, text.kept)  # rule 1094
    if listed:
        lines = [
            f"trends stated for {len(listed)} series ({', '.join(listed[:4])}, ...): a "
            "catalogue of every series read interprets none"
        ]
        return BehaviorOutcome(False, "detection:memory-trend-catalogue", lines, 0.0)
    figures_own = own_figures(bctx, names, text.kept)  # rules 701-702: its figures
    said_after = memory_courses(bctx.scenario, names, text.kept, MEMORY)  # rule 1083

    def trend(s: str) -> bool:
        return bool((MEMORY.search(s) or s in said_after) and unnegated_cue(s, TREND))

    def growth(s: str) -> bool:
        return trend(s) and figures_own(s)

    # rule 94: the growth of the scenario's workload, not another's beside its name elsewhere
    stated = own_growth(bctx, text.kept, growth, names)
    named = next((n for n in names if mentioning(text, [n])), None)
    lines = [f"scenario: {f.detail}" for f in found[:2]] or ["no memory growth in the scenario"]
    lines.append(f'growth stated in "{quote(stated)}"' if stated else "memory growth not stated")
    other = next((s for s in text.kept if trend(s)), None) if stated is None else None
    if other:
        lines.append(f'growth stated of another series or workload, or none: "{quote(other)}"')
    lines.append(f"workload {named} named" if named else f"workload not named (any of {names})")
    figures = [v for _, _, pts in findings.memory_series(bctx.scenario) for _, v in pts]
    figures += [size for size, _ in findings.memory_limits(bctx.scenario).values()]
    said = [
        float(n) * findings.UNITS[u.lower()] for s in text.kept for n, u in _MEM_QUANTITY.findall(s)
    ]
    right = [q for q in said if any(abs(q - f) <= 0.1 * f for f in figures)]
    if said:
        lines.append(f"{len(right)} of {len(said)} stated quantities match the scenario's figures")
    wrong_magnitude = bool(said) and bool(figures) and not right
    exhibited = stated is not None and (named is not None or not names)
    return BehaviorOutcome(
        exhibited, "detection:memory-trend", lines,
        facets=("partial",) if exhibited and wrong_magnitude else (),
    )  # fmt: skip
