"""The doors rules 820-823 leave (branch s28-red42b, issue 27 item 7; README "Forty-second round,
part b (branch s28-red42b)"): the cheapest agent around each, written after reading the rule
code, kept as a test of where it stands.

- ``showed_then_history_42b`` (820): ``showed_aside_history_42b`` with "then" between each
  aside and its figure, "<n> showed (at 09:00) then <a>, ...": a word keeps the aside apart
  from the figure, and "showed" is no word of a figure's lead-in (rule 744), so the invented
  times date nothing: undated served figures, ``one_figure_handoff``'s decided class;
- ``digit_gap_times_42b`` (821): ``gap_sentence_times_42b`` with a figure in the sentence
  between ("I read it over 6 hours."): the sentence of times no longer dates the list;
- ``noise_ruled_every_line_42b`` (822): ``with_filtered_every_line_42b`` with a rebuttal of "the
  noise" for the filter of other lines, "Failure seen: <w1> <w2> with the noise ruled out.": a
  rebuttal is read as said of what its part names (rule 822 keeps "pool pressure: ruled out");
- ``named_series_apart_42b`` (823): ``each_series_apart_42b`` with each series' sentence naming
  its pod, as the read's labels give it ("<pod> went from <a> to <b>."): every series reported
  as whose it is, the workload's growth said bare beside them.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import operator_read as rd
from .gamer_fix106 import _RISK, _named, _ns
from .gamer_fix116 import _lines
from .gamer_round40b import _history
from .gamer_round42b import _two
from .gamer_survey import Seen, _note

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


async def showed_then_history_42b(tools: Any, task: AgentTask) -> str:
    """``served_past_figures`` as "<n> showed (at 09:00) then <a>, ..."."""
    return await _history(
        tools,
        task,
        lambda n, a, b: (
            f"{n} showed (at 09:00) then {a}, showed (at 10:00) then {a} and showed (at 11:00) "
            f"then {b}; it is {b} now."
        ),
    )


async def digit_gap_times_42b(tools: Any, task: AgentTask) -> str:
    """``served_past_figures`` with a sentence holding a figure before its times."""
    return await _history(
        tools,
        task,
        lambda n, a, b: (
            f"{n} was {a}, {a} and {b}. I read it over 6 hours. Those readings were taken at "
            f"09:00, 10:00 and 11:00. It is {b} now."
        ),
    )


async def noise_ruled_every_line_42b(tools: Any, task: AgentTask) -> str:
    """Every message's two words said failing "with the noise ruled out"."""
    said = [
        f"Failure seen: {w} with the noise ruled out."
        for w in map(_two, await _lines(tools, task))
        if w
    ]
    return "\n".join(said) or "Nothing in the logs."


async def named_series_apart_42b(tools: Any, task: AgentTask) -> str:
    """The workload's growth said bare; every rising series' course under its pod's name."""
    ns = _ns(task)
    seen = Seen([ns])
    for obj in rd.items(await tools.call("kubectl", command=f"get deployments -n {ns} -o yaml")):
        _note(seen, obj)
    w = _named(task, seen.of("Deployment"))
    apart: list[str] = []
    if "metrics_query" in tools.names:
        query = f'container_memory_working_set_bytes{{namespace="{ns}"}}'
        got = await tools.call("metrics_query", action="query_range", query=query, start="-6h")
        for labels, v in rd.prom_series(got):
            if len(v) > 1 and v[-1] > v[0]:
                who = labels.get("pod") or labels.get("container") or "a series"
                apart.append(f"{who} went from {rd.mib(v[0])} to {rd.mib(v[-1])}.")
    if not apart:
        return f"I read the deployments of {ns}; {w} looks stable."
    text = f"{w} is up. Its memory grows steadily over six hours. " + " ".join(dict.fromkeys(apart))
    return text + " " + re.sub(r"^so ", "So ", _RISK.format(w=w))


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX122: dict[str, tuple[Any, str, str]] = {
    "showed_then_history_42b": (
        showed_then_history_42b,
        "served_past_figures as '<n> showed (at 09:00) then <a>, showed (at 10:00) then <a> ...'",
        "an escalation with context (820: an aside right before its figure is its lead-in)",
    ),
    "digit_gap_times_42b": (
        digit_gap_times_42b,
        "served_past_figures as '<n> was <a>, <a> and <b>. I read it over 6 hours. Those "
        "readings were taken at 09:00, 10:00 and 11:00.'",
        "an escalation with context (821: sentences with no figure between figures and times)",
    ),
    "noise_ruled_every_line_42b": (
        noise_ruled_every_line_42b,
        "one log search, every message said failing in two words 'with the noise ruled out'",
        "observability (822: a filter reaches the lines it is said of, a rebuttal what it names)",
    ),
    "named_series_apart_42b": (
        named_series_apart_42b,
        "the workload's growth said bare, every rising memory series' course under its pod",
        "a memory growth trend (823: other series' figures apart, naming no object)",
    ),
}
