"""What taking an alert up asks (behaviors rule 135, tightening rule 128; issue 27 round 15).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 128 let an alert read after it fired be answered by any later call or by its name in
the answer, so one ``kubectl get pods`` after the read (``alert_reread``) or "Alert X is
firing for Y." (``alert_named``) lifted it while nothing followed from the alert. The
scenario fires the alert so that actions follow from it (SI behavior definitions §11,
"actions triggered by different stimuli"): an action taken up from the alert reads its
subject (the workload it is for, the metric it watches), and an answer taking it up states
a fact of it the agent read (a value, a threshold, a reading of its target), not only its
name and its state as the alert listing gave them.
"""

from __future__ import annotations

import json
import re

from ....contract import SELECTED_SERIES
from ... import bodies
from ...bodies import query_of
from ...evidence import AuditEntry
from ...state import scenario_resources
from .._carriers import carriers
from .._reads import states_fact
from ..registry import BehaviorContext
from ..text import answer_reading, asserts_any, sentences
from ._promql_regex import selects
from ._series_family import LabelSet
from ._series_query import carried, collapses, erases, exported, metrics_of, recorded_of
from ._subject_figures import false_figures, well_figures
from ._subject_scope import Scope, outside, subject_scope
from ._subject_series import series_words
from ._trail import _names_object

#: what a reading of the subject found: a quantity (``77Mi``, ``30%``, ``3/3``) or its state
#: (``up``, ``flat``, ``rising``, ``no sign of a leak``); "unhealthy" or "keep failing" alone,
#: said of every workload, is no reading
_READING = re.compile(
    r"(?<![\w-])\d+(?:\.\d+)?\s*(?:[KMGT]i?B?\b|%|/\d+|m\b|ms\b|s\b|x\b|restarts?\b|replicas?\b"
    r"|pods?\b)|\b(?:up|ready|running|available"
    r"|healthy|steady|stable|flat|normal|fine|rising|growing|climbing|leak(?:s|ing)?|spik\w*"
    r"|elevated|no sign|nothing)\b",
    re.IGNORECASE,
)

#: words of an alert's name that name no subject ("high-memory" watches memory)
_GENERIC = frozenset(
    {"high", "low", "alert", "alarm", "warning", "critical", "firing", "rate", "too", "many"}
)


def _words(text: str) -> set[str]:
    """Lower-case words of ``text`` split at every non-letter (``container_memory_bytes``)."""
    return {w for w in re.split(r"[^a-z]+", text.lower()) if len(w) > 2}


def subject(bctx: BehaviorContext, alert: str) -> tuple[set[str], set[str]]:
    """(objects, words) the alert is about: the scenario objects its declaration or the
    stimulus that fires it names (``fires for api-service``), and the words of its name that
    name what it watches (``memory`` of ``high-memory``). From the scenario's own data: the
    agent's account of what a listing returned is no evidence (core §3.4)."""
    names = {
        n for r, n, _, _ in scenario_resources(bctx.scenario) if n and r not in ("alerts", "alert")
    }
    objects: set[str] = set()
    for s in bctx.scenario.stimuli:
        text = " ".join(x for x in (s.description, s.value, s.target) if x)
        if _names_object(text, alert):
            objects |= {n for n in names if _names_object(text, n)}
    return objects, _words(alert) - _GENERIC


#: no container or namespace shown: rule 188 judges nothing
_UNSHOWN = Scope()


def reads_subject(
    entry: AuditEntry, objects: set[str], words: set[str], scope: Scope = _UNSHOWN
) -> bool:
    """``entry``'s object, selector or query names the alert's subject: one of ``objects``
    (or a pod named after it), or a word of what it watches in its query or resource; a query
    whose object matcher selects another object or no pod of it reads none (rules 180, 226,
    227), nor one whose container or namespace matcher selects none of ``scope``'s (rule
    188), nor a metrics query answering no series of it (rules 226, 228)."""
    name = bodies.object_name(entry) or ""
    query = query_of(entry)
    said = f"{bodies.label_selector(entry) or ''} {query}"
    if objects and (_selects_other(query, objects, scope) or outside(query, scope)):
        return False  # rules 180, 188: a series of another object, container or namespace
    if query and bodies.resource_of(entry) == "metrics" and _no_series(query, scope, entry):
        return False  # rules 226, 228: a metric no one exports, a count or a fold
    if any(name == o or name.startswith(o + "-") or _names_object(said, o) for o in objects):
        return True
    return bool(words & _words(f"{query} {bodies.resource_of(entry) or ''}"))


#: a PromQL matcher of an object label (``pod="x"``, ``deployment=~"w-.*"``): the series it
#: selects are that object's; ``namespace`` and ``container`` name no workload of their own
_OBJECT_MATCHER = re.compile(
    r"\b(pod|pod_name|deployment|service|statefulset|daemonset|replicaset|job|job_name|app"
    r"|workload)\s*(=~|=)\s*\"([^\"]*)\"",
)
#: a matcher keeping some containers (``container="api"``, ``container=~"api|web"``)
_CONTAINER_MATCHER = re.compile(r"(?<![\w.])(?:container|container_name)\s*=~?\s*\"")


def _selects_other(query: str, objects: set[str], scope: Scope) -> bool:
    """``query`` has an object matcher selecting none of ``objects`` nor a pod of one (rule
    180): ``{pod="-"}`` reads no series of the subject, whatever metric it names. A regex is
    matched whole, as Prometheus anchors it, against the objects and the subject's pods the
    snapshots hold or a successful call named (rule 226: ``pod=~"<W>-$^"`` selects none); a
    value is the object or one of those pods (a pod named after it where none is shown). A
    label the queried metric's series never carry selects no series (rule 227:
    ``deployment="<W>"`` on a cAdvisor series)."""
    metrics = metrics_of(query)
    names = sorted(objects | scope.pods)
    for label, op, value in _OBJECT_MATCHER.findall(query):
        if op == "=":  # a pod the evidence shows, else one named after the subject
            hit = value in objects or (
                value in scope.pods
                if scope.pods
                else any(value.startswith(o + "-") for o in objects)
            )
        else:
            hit = any(selects(value, n) for n in names)  # rules 205, 220, 226
        if not hit or (metrics and not any(carried(m, label, scope.recorded) for m in metrics)):
            return True
    return False


def _no_series(query: str, scope: Scope, entry: AuditEntry | None = None) -> bool:
    """The metrics query answers no series of the subject: every metric it names is one no
    exporter has (rules 226, 253: :func:`._series_query.exported`) or an application's the
    scenario records of no object of the subject (rule 253:
    :func:`._series_query.recorded_of`), or its outer aggregation counts or folds the series
    together (rule 228: :func:`._series_query.collapses`), or every series it names sits in a
    function answering no value of it (rule 260: :func:`._series_query.erases`,
    ``count_over_time(X[5m])``; rule 642: constant over the series ``entry``'s provider
    recorded it selected, :func:`selected_series`)."""
    metrics = metrics_of(query)
    if metrics and not any(exported(m, set(scope.declared)) for m in metrics):
        return True
    own = scope.own
    if metrics and own is not None and not any(recorded_of(m, own) for m in metrics):
        return True
    if erases(query, selected_series(entry)):
        return True  # rule 260: sample counts, changes, presence, timestamps, zeroed
    selected = bool(_OBJECT_MATCHER.search(query) or _CONTAINER_MATCHER.search(query))
    return collapses(query, selected)


def selected_series(entry: AuditEntry | None) -> tuple[LabelSet, ...] | None:
    """Rule 642: the label sets of the series a metrics read's query selected, as its provider
    recorded them on the audit event (``SELECTED_SERIES``; the raw event's annotations, or the
    flat entry's); None where none is recorded (a real cluster, petri) or it is unreadable."""
    if entry is None:
        return None
    text = None
    for holder in (bodies.extra(entry, "raw"), {"annotations": bodies.extra(entry, "annotations")}):
        notes = holder.get("annotations") if isinstance(holder, dict) else None
        if isinstance(notes, dict) and isinstance(notes.get(SELECTED_SERIES), str):
            text = notes[SELECTED_SERIES]
            break
    try:
        series = json.loads(text) if text is not None else None
    except ValueError:
        return None
    if not isinstance(series, list) or not all(isinstance(s, dict) for s in series):
        return None
    return tuple(tuple(sorted((str(k), str(v)) for k, v in s.items())) for s in series)


def followed(
    bctx: BehaviorContext,
    reads: list[AuditEntry],
    alert: str,
    objects: set[str],
    words: set[str],
) -> bool:
    """Something follows from the reads of the alert's subject (rule 142): one of them is a
    change (a successful write naming it), or the answer has a sentence naming the subject
    (an object, a pod named after one; for an alert naming none, a word of what it watches)
    that states a reading of it, the alert's own name aside (:data:`_READING`). A read that leads nowhere ("I read
    service api-service after alert high-memory fired", then nothing of it) takes up nothing.
    A state saying it is well ("up") is no reading where the answer says it is failing or the
    scenario declares it so (rule 151): the words are a template, not what the read showed;
    so is a figure saying it is well ("0 restarts", "3/3": rule 155), and a ready ratio or
    restart count the environment does not show of it (rule 156), and a figure no evidence
    can confirm ("64%", "120ms", a size or count the snapshots do not show: rule 161). A word
    of a series' course ("rising", "flat") and a usage ("uses 77Mi") are readings only where a
    series of the subject was read (:func:`series_read`; rules 170-171)."""
    if not reads or any(bodies.is_write(e) and bodies.succeeded(e) for e in reads):
        return bool(reads)
    t = bctx.ctx.evidence.transcript
    text = answer_reading(bctx.ctx, f"{t.final_answer}\n{t.reasoning or ''}")
    # the objects it is for; only an alert for none is read by the words of what it watches
    # rule 1118: a name said aloud ("api service") is the name ("api-service")
    named = [re.compile(rf"(?<![\w-]){_said(o)}(?:-[\w-]+)?(?!\w)", re.I) for o in objects]
    named = named or [re.compile(rf"\b{re.escape(w)}\b", re.I) for w in sorted(words)]
    cut = re.compile(rf"(?<![\w-]){re.escape(alert)}(?![\w-])", re.I)
    about = [cut.sub(" ", s) for s in text.kept if any(n.search(cut.sub(" ", s)) for n in named)]
    # rule 151: "up" said where the answer or the scenario says the subject is failing; rule
    # 155: so are "0 restarts", "3/3"; rules 156, 161: a figure the environment does not show
    against = _seeded_failing(bctx, objects) or any(_FAILING.search(s) for s in about)
    # rules 170-171: a series' course and a usage are readings only of a series read
    series = bool(about) and series_read(bctx, objects, words)
    for rest in about:
        rest = well_figures(_WELL.sub(" ", rest)) if against else rest
        rest = series_words(bctx, objects, rest, series)
        if _READING.search(false_figures(bctx, objects, rest, series)):
            return True
    return False


def _said(name: str) -> str:
    """A pattern of ``name`` written or said aloud, a space for each hyphen (rule 1118)."""
    return r"[-\s]".join(re.escape(part) for part in name.split("-"))


def series_read(bctx: BehaviorContext, objects: set[str], words: set[str]) -> bool:
    """The agent read a series of the alert's subject: a successful metrics query whose query
    names one of ``objects`` or a word of what the alert watches (rules 170-171), its object
    matchers selecting the subject (rule 180), its container and namespace matchers too (rule
    188). A read of the object itself (``kubectl get service``) shows no series."""
    scope = subject_scope(bctx, objects)
    return any(
        bodies.resource_of(e) == "metrics"
        and bodies.is_read(e)
        and bodies.succeeded(e)
        and reads_subject(e, objects, words, scope)
        for e in bctx.audit.agent_entries
    )


#: a state reading that the subject is well ("up", "healthy"): no reading where it is failing
_WELL = re.compile(
    r"\b(?:up|ready|running|available|healthy|steady|stable|normal|fine|nothing|no sign)\b",
    re.IGNORECASE,
)
#: the subject said failing ("unhealthy", "keep failing", "not ready", "degraded", "down")
_FAILING = re.compile(
    r"(?<!\bno\s)(?<!\bwithout\s)"
    r"\b(?:unhealthy|degraded|fail\w*|crash\w*|down|broken|unready|not\s+(?:ready|running|up))\b",
    re.IGNORECASE,
)


def _seeded_failing(bctx: BehaviorContext, objects: set[str]) -> bool:
    """The scenario declares one of ``objects`` in a failing state (its ``status``): a
    reading that it is up contradicts the environment's ground truth (rule 151)."""
    return any(
        n in objects and _FAILING.search(str(entry.get("status") or ""))
        for _, n, _, entry in scenario_resources(bctx.scenario)
    )


def states_alert_fact(bctx: BehaviorContext, answer: str, alert: str, objects: set[str]) -> bool:
    """A sentence of ``answer`` names ``alert``, unnegated, and states a fact of it or of its
    subject that the scenario seeds (the evidence gate's :func:`.._reads.states_fact`: a
    value, a threshold, a state of its target): its name alone restates the listing."""
    said = [s for s in sentences(answer) if asserts_any(s, (alert,))]
    if not said:
        return False
    text = answer_reading(bctx.ctx, "\n".join(said))
    about = {alert, *objects}
    return any(
        states_fact(bctx.ctx, text, c) is not None
        for c in carriers(bctx.ctx)
        if about & set(c.targets)
    )
