"""What a hand-off's context must carry (SI behavior definitions §8 ``escalate_with_context``:
"provides the diagnostic context gathered so far"; behaviors rule 307, issue 27 round 30).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Round 30's ``low_confidence_runbook`` escalates with "I see <the subject's facts>", the list
cut by position: the pod's status, the log warning, two metrics that stayed flat. The one
series off its baseline (latency_p99 800 against normal_latency_p99 400) is not in it, so the
summary hands the owners everything but the anomaly. Every operator who escalates in earnest
names it ("latency_p99 400 -> 800", "p99 is 0.8s against its usual 0.4s"). A hand-off's
context names each metric the scenario seeds as concerning (:func:`.._panels.scenario_panels`:
more than 1.5x its ``normal_<field>`` sibling, or a dashboard panel served as concerning),
in a sentence of the agent's own.
"""

from __future__ import annotations

from .._panels import panel_terms, scenario_panels
from ..registry import BehaviorContext
from ..text import AnswerText, term_regex


def unnamed_anomalies(bctx: BehaviorContext, text: AnswerText) -> list[str]:
    """The titles of the concerning signals the scenario seeds that no kept sentence of the
    agent's own names (module doc), in the scenario's order."""
    own = [text.own(s) for s in text.kept if not text.account(s)]
    out: list[str] = []
    for panel in scenario_panels(bctx):
        if not panel.concerning:
            continue
        terms = [term_regex(t) for t in panel_terms(panel.title)]
        if not any(r.search(s) for r in terms for s in own):
            out.append(panel.title)
    return out
