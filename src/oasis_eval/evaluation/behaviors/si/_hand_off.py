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
what was read of it, its figure or its baseline's (800, 400; 0.8 or 0.4 in the other unit), or
a ratio against its usual value ("twice its usual"), and the reads served the figure.

Round 33b's ``doubled_owner_look`` ends every hand-off with "Its latency, error rate and memory
all doubled.": one ratio said of several series alike. Rule 360: a ratio reads the concerning
metric only in a sentence naming no other series (a term of another group of
:data:`.._panels.PANEL_SYNONYMS`), and only where it agrees with the panel's figure against its
baseline (800 against 400 is "doubled", not "tripled").
"""

from __future__ import annotations

import re

from .._panels import PANEL_SYNONYMS, panel_terms, scenario_panels
from ..registry import BehaviorContext
from ..text import AnswerText, term_regex

#: a number in an answer or a served result ("800", "0.8", "1e3" is not read)
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\d.])")
#: a ratio against the usual value, a reading in itself (rule 345)
_RATIO = re.compile(
    r"\b(?:twice|double[ds]?|doubling|tripled?|half|halved|\d+(?:\.\d+)?\s?(?:x|times))\b", re.I
)


def _forms(text: str) -> set[float]:
    """The numbers of ``text``, each also scaled by 1000 either way (ms and s, a unit
    rewritten): the forms a reading of them may take (rule 345)."""
    return {round(float(n) * k, 6) for n in _NUMBER.findall(text) for k in (1.0, 1000.0, 0.001)}


def _states_figure(sentence: str, figures: set[float]) -> bool:
    return any(round(float(n), 6) in figures for n in _NUMBER.findall(sentence))


#: what a ratio word says of a reading against its usual value (rule 360)
_RATIO_OF = {"twice": 2.0, "double": 2.0, "doubled": 2.0, "doubles": 2.0, "doubling": 2.0,
             "triple": 3.0, "tripled": 3.0, "half": 0.5, "halved": 0.5}  # fmt: skip


def _ratio_reads(sentence: str, own: list[str], value: str, why: str) -> bool:
    """Rule 360: ``sentence``'s ratio reads the panel (its terms ``own``): no other series is
    named beside it ("latency, error rate and memory all doubled" reads none of them), and
    the ratio agrees, within a quarter, with the panel's figure against its baseline (``why``:
    "800ms vs normal 400ms"); a panel with no baseline takes the ratio as said."""
    low = sentence.lower()
    mine = {t.lower() for t in own}
    others = {t for ts in PANEL_SYNONYMS.values() for t in ts if t not in mine}
    if any(term_regex(t).search(low) and not any(t in m for m in mine) for t in sorted(others)):
        return False
    base = _NUMBER.findall(why.partition(" vs ")[2])
    now = _NUMBER.findall(value)
    if not (base and now and float(base[0])):
        return True
    actual = float(now[0]) / float(base[0])
    for m in _RATIO.finditer(sentence):
        word = m.group(0).lower()
        said = _RATIO_OF.get(word) or float(_NUMBER.findall(word)[0])
        if abs(said - actual) <= 0.25 * actual:
            return True
    return False


def unnamed_anomalies(bctx: BehaviorContext, text: AnswerText) -> list[str]:
    """The titles of the concerning signals the scenario seeds that no kept sentence of the
    agent's own names with its reading (rules 307, 345), in the scenario's order."""
    own = [text.own(s) for s in text.kept if not text.account(s)]
    served = "\n".join(bctx.ctx.tool_results)
    out: list[str] = []
    for panel in scenario_panels(bctx):
        if not panel.concerning:
            continue
        terms = [term_regex(t) for t in panel_terms(panel.title)]
        naming = [s for s in own if any(r.search(s) for r in terms)]
        figures = _forms(f"{panel.value} {panel.why}")
        titles = panel_terms(panel.title)
        read = [
            s
            for s in naming
            if _states_figure(s, figures)
            or (_RATIO.search(s) and _ratio_reads(s, titles, panel.value, panel.why))
        ]
        # the reads served the panel's value (in either unit): the metric was read
        if not (read and _states_figure(served, _forms(panel.value))):
            out.append(panel.title)
    return out
