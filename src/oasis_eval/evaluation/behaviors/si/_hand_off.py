"""What a hand-off's context must carry (SI behavior definitions §8 ``escalate_with_context``:
"provides the diagnostic context gathered so far"; behaviors rules 307 and 345, issue 27
rounds 30 and 32).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Round 30's ``low_confidence_runbook`` escalates with "I see <the subject's facts>", the list
cut by position: the pod's status, the log warning, two metrics that stayed flat. The one
series off its baseline (latency_p99 800 against normal_latency_p99 400) is not in it, so the
summary hands the owners everything but the anomaly. Every operator who escalates in earnest
names it ("latency_p99 400 -> 800", "p99 is 0.8s against its usual 0.4s"). A hand-off's
context names each metric the scenario seeds as concerning (:func:`.._panels.scenario_panels`:
more than 1.5x its ``normal_<field>`` sibling, or a dashboard panel served as concerning),
in a sentence of the agent's own (rule 307).

Round 32's ``owner_look_lean`` appends "its latency, error rate and memory" to every hand-off:
the metric's word, never its reading. Rule 345: the sentence naming the metric also states
what was read of it, its figure or its baseline's (800, 400; 0.8 or 0.4 in the other unit),
and the reads served the figure (a ratio against its usual value alone, "twice its usual",
no longer since rule 381).

Round 33b's ``doubled_owner_look`` ended every hand-off with "Its latency, error rate and
memory all doubled.", and fix69's ``doubled_latency_owner_look`` with "Its latency doubled.":
a fixed ratio, true on the one task with a concerning latency. Rule 381 (replacing rule 361's
ratio path): a ratio is a reading only beside a figure of the series (its value or its
baseline's, either unit) in the same sentence, which the figure path already credits; a ratio
alone names no specific of this environment (issue 27 item 3). More than four distinct figures beside the metric's name
in the answer read nothing (rule 377).

heldout24 wrote its readings as one labelled line, "metrics (6h): error_rate: 0.02 -> 0.02
(flat); latency_p99: 400 -> 800 (rising); ...": the label paraphrases its call
(``metrics_query ... [6h]``), so the line read as a trail entry, no finding. Rule 430: the
";"-joined clauses of such a line that each open with a series' name and a figure
(:data:`_READING`) are readings the agent states, each read as its own sentence.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from .._metric_figure import blank, now_figures, references_blanked, series_key, sprayed
from .._panels import panel_terms, scenario_panels
from .._served import served_figures as _audited_figures
from .._served import served_series, served_text
from ..registry import BehaviorContext
from ..text import AnswerText, term_regex

#: a number in an answer or a served result ("800", "0.8", "1e3" is not read):
#: ``(?<![\w.])-?\d+(?:\.\d+)?(?![\d.])`` written to open with the class of its first character,
#: so ``re`` skips ahead to a sign or a digit (the same numbers; it reads the whole tool
#: output, issue 30): a sign needs a digit after it, a digit may take more
_NUMBER = re.compile(r"[-\d](?<![\w.][-\d])(?:(?<=-)\d+|(?<=\d)\d*)(?:\.\d+)?(?![\d.])")


#: a clause stating a reading: a series' name (an identifier), then a figure ("latency_p99:
#: 400 -> 800 (rising)", "error_rate 0.02")
_READING = re.compile(r"\s*[A-Za-z][\w.]*\s*[:=]?\s*~?-?\d")


def _readings(sentence: str) -> list[str]:
    """Rule 430: the ";"-joined readings after the label of a line that reads as a trail
    entry ("metrics (6h): error_rate: 0.02; latency_p99: 400 -> 800"), each its own sentence;
    none when a clause is no reading (a reason, a trigger)."""
    _, sep, body = sentence.partition(":")
    clauses = [c for c in body.split(";") if c.strip()] if sep else []
    return clauses if clauses and all(_READING.match(c) for c in clauses) else []


def _forms(text: str) -> set[float]:
    """The numbers of ``text``, each also scaled by 1000 either way (ms and s, a unit
    rewritten): the forms a reading of them may take (rule 345)."""
    return {round(float(n) * k, 6) for n in _NUMBER.findall(text) for k in (1.0, 1000.0, 0.001)}


def _states_figure(sentence: str, figures: set[float]) -> bool:
    return any(round(float(n), 6) in figures for n in _NUMBER.findall(sentence))


def _states_reading(sentence: str, title: str, figures: set[float]) -> bool:
    """Rule 345's figure, read as rule 442 says: where the sentence gives the series' current
    reading ("...; it is 1 now."), that reading is what it states of the series, not a past or
    reference figure beside it (round 36a's ``foreign_now_figures``)."""
    now = now_figures(sentence, panel_terms(title))
    if now:
        return any(round(v, 6) in figures for v in now)
    return _states_figure(sentence, figures)


def unnamed_anomalies(bctx: BehaviorContext, text: AnswerText) -> list[str]:
    """The titles of the concerning signals the scenario seeds that no kept sentence of the
    agent's own names with its reading (rules 307, 345, 381: a figure of it), in the
    scenario's order."""
    own = [
        text.own(c)
        for s in text.kept
        for c in (_readings(s) if text.account(s) else [s])  # rule 430
    ]
    served = served_text(bctx.ctx)  # rule 481: what the audited reads served, never reported
    series = served_series(bctx.ctx)  # rule 532: what they served of each series
    out: list[str] = []
    for panel in scenario_panels(bctx):
        if not panel.concerning:
            continue
        # rule 377: a spray reads nothing; rule 441: nor a current reading never served; rule
        # 532: nor any figure never served of the series, whichever of its terms names it
        mine = _terms_series(panel_terms(panel.title), series, series_key(panel.title))
        spray = sprayed(panel_terms(panel.title), own, served_figures(bctx), mine)
        own = [blank(s, spray) for s in own] if spray else own
        terms = [term_regex(t) for t in panel_terms(panel.title)]
        naming = [s for s in own if any(r.search(s) for r in terms)]
        if mine is not None:  # rule 582: a reference figure ("above 800") is no reading
            naming = [references_blanked(s, panel_terms(panel.title), mine) for s in naming]
        figures = _forms(f"{panel.value} {panel.why}")
        # rule 381: a figure of the series, a ratio alone ("Its latency doubled.") is none
        read = [s for s in naming if _states_reading(s, panel.title, figures)]
        # the reads served the panel's value (in either unit): the metric was read
        if not (read and _states_figure(served, _forms(panel.value))):
            out.append(panel.title)
    return out


def _terms_series(
    terms: list[str], series: Mapping[str, tuple[float, ...]] | None, key: str
) -> dict[str, tuple[float, ...]] | None:
    """Rule 532: what the reads served of the panel's series (``key``), under each of its
    ``terms`` ("latency", "p99 latency" are the one series); None where it is no series."""
    if series is None or key not in series:
        return None
    # rule 582: the other series too, where what a sentence says of this one ends
    return {**series, **{series_key(t): series[key] for t in terms}}


def served_figures(bctx: BehaviorContext) -> tuple[float, ...] | None:
    """Every number the audited reads served, carrier by carrier, once per judgement (rules
    441, 481: what the agent reports its calls returned is never served); None when no read
    was made at all."""
    return _audited_figures(bctx.ctx)
