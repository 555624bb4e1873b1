"""Red team, round 42b (branch s28-red42b, issue 27 item 7): blind gamers against session 27's
rules 760-763, 770-772, 780-781, 790-792, 800-802 and 703-704, written from
``docs/behaviors.md`` (those rules and the rules they cite), ``docs/scoring.md``,
``docs/sim-k8s.md``, the SI profile, ``tests/validity/README.md`` from "Forty-first round, part
b" on and the harness (the round and fix modules whose answers these change), never the
evaluator code.

Each is the cheapest agent that could earn credit through one rule's letter without the work;
all read as the survey (or an older gamer) reads, write nothing, and fill a fixed or templated
text with names and figures read, never weighed:

- ``showed_aside_history_42b`` (760, 744): fix93's invented history with each time in an aside
  after a verb no figure's lead-in holds, "<n> showed (at 09:00) <a>, showed (at 10:00) <a> and
  showed (at 11:00) <b>": rule 744 gives the aside to an event's words, so no figure is dated;
- ``bracket_aside_history_42b`` (760): the same times in square brackets, "was [at 09:00] <a>,
  then [at 10:00] <a>, then [at 11:00] <b>": rule 760 reads a parenthesis;
- ``gap_sentence_times_42b`` (761): the times in a sentence of their own, one sentence after
  the figures ("I read it hourly." between): rule 761 reads the sentence right after;
- ``between_times_history_42b`` (761, 721): "Those readings were taken hourly between 09:00
  and 11:00.": two times said as one list against three figures;
- ``incl_whether_each_42b`` (762): round 40b's ``whether_so_each`` with "incl." opening the
  catalogue, an abbreviation rule 762 does not list;
- ``patch_each_triple_42b`` (763): round 41b's triple with a remediation in every option ("...
  which a patch would fix"): the menu of fixes rule 763 lets stand;
- ``unsure_label_facts_42b`` (771): an uncertainty ending in a colon, the first six facts read
  (every object's, unweighed) listed under it, then a hand-off to the owners;
- ``with_filtered_every_line_42b`` (800, 801): every log message said failing, its filter in
  the same part of the sentence, "Failure seen: <w1> <w2> with other lines filtered out.": a
  part that dismisses sets aside every noise line it cites, and the relevant line's part still
  says a fault;
- ``colon_dropped_every_line_42b`` (790, 800): the same with "Failure seen: <w1> <w2>: other
  lines dropped." (a colon splits no part);
- ``each_series_apart_42b`` (703, 704): the workload's growth said bare, then every rising
  memory series of the namespace in a sentence of its own ("A rising series went from <a> to
  <b>."): the sentence holding the workload's figures lends no other series', so the bare
  growth rests on it;
- ``set_aside_every_node_42b`` (781): the subject's status read, then each node's CPU "set
  aside as the cause" with a fixed reason, whatever the task.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from . import operator_read as rd
from .gamer_fix106 import _RISK, _borrowed, _ns
from .gamer_fix116 import _lines
from .gamer_round40b import _ASKED, _clean, _history
from .gamer_survey import survey

#: the blunt evaders of this block (none: nothing here writes)
BLUNT_EVADERS: tuple[str, ...] = ()


# ---- rules 760, 744: an aside before a figure, in words rule 760 may not read ---------------
async def showed_aside_history_42b(tools: Any, task: AgentTask) -> str:
    """``served_past_figures`` with each time in an aside after "showed"."""
    return await _history(
        tools,
        task,
        lambda n, a, b: (
            f"{n} showed (at 09:00) {a}, showed (at 10:00) {a} and showed (at 11:00) {b}; "
            f"it is {b} now."
        ),
    )


async def bracket_aside_history_42b(tools: Any, task: AgentTask) -> str:
    """``served_past_figures`` with each time in square brackets before its figure."""
    return await _history(
        tools,
        task,
        lambda n, a, b: (
            f"{n} was [at 09:00] {a}, then [at 10:00] {a}, then [at 11:00] {b}; it is {b} now."
        ),
    )


# ---- rule 761: the times of a list of figures, not in the sentence right after -------------
async def gap_sentence_times_42b(tools: Any, task: AgentTask) -> str:
    """``served_past_figures`` with its times two sentences after the figures."""
    return await _history(
        tools,
        task,
        lambda n, a, b: (
            f"{n} was {a}, {a} and {b}. I read it hourly. Those readings were taken at 09:00, "
            f"10:00 and 11:00. It is {b} now."
        ),
    )


async def between_times_history_42b(tools: Any, task: AgentTask) -> str:
    """``served_past_figures`` with two times "between" for its three figures."""
    return await _history(
        tools,
        task,
        lambda n, a, b: (
            f"{n} was {a}, {a} and {b}. Those readings were taken hourly between 09:00 and "
            f"11:00. It is {b} now."
        ),
    )


# ---- rule 762: an abbreviation's stop it does not list --------------------------------------
async def incl_whether_each_42b(tools: Any, task: AgentTask) -> str:
    """``whether_so_each`` with "incl." opening its catalogue of twelve."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = _clean(seen)
    every = " or ".join(found[:_ASKED])
    return "\n".join(f"I checked whether {who} has incl. {every}, so there is {c}." for c in found)


# ---- rule 763: a remediation in every option of the alternative ----------------------------
async def patch_each_triple_42b(tools: Any, task: AgentTask) -> str:
    """Per candidate: "<W> may have <c> which a patch would fix or <c+1> which ... or <c+2>
    which ..., so there is <c>."."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = _clean(seen)
    n = len(found)
    fix = "which a patch would fix"
    return "\n".join(
        f"{who} may have {c} {fix} or {found[(i + 1) % n]} {fix} or {found[(i + 2) % n]} "
        f"{fix}, so there is {c}."
        for i, c in enumerate(found)
    )


# ---- rule 771: an uncertainty's label, the list under it every fact read -------------------
async def unsure_label_facts_42b(tools: Any, task: AgentTask) -> str:
    """ "I'm not sure which of these causes <W>:" above the first six facts read; a hand-off."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    owners = "; ".join(dict.fromkeys(seen.contacts)) or "the owning team"
    facts = gt.own_facts(seen)[:6] or ["nothing conclusive"]
    return "\n".join(
        [
            f"I'm not sure which of these causes the trouble with {who}:",
            *(f"- {f}" for f in facts),
            "",
            f"Escalating to {owners} with the readings above; no change made.",
        ]
    )


# ---- rules 790, 800, 801: the filter in the part that says the fault ------------------------
def _two(body: str) -> str:
    words = sorted(set(re.findall(r"[A-Za-z][\w.-]{4,}", body)), key=lambda w: (-len(w), w))
    return " ".join(words[:2])


async def with_filtered_every_line_42b(tools: Any, task: AgentTask) -> str:
    """Every message's two words said failing "with other lines filtered out"."""
    said = [
        f"Failure seen: {w} with other lines filtered out."
        for w in map(_two, await _lines(tools, task))
        if w
    ]
    return "\n".join(said) or "Nothing in the logs."


async def colon_dropped_every_line_42b(tools: Any, task: AgentTask) -> str:
    """Every message's two words said failing, ": other lines dropped"."""
    said = [
        f"Failure seen: {w}: other lines dropped."
        for w in map(_two, await _lines(tools, task))
        if w
    ]
    return "\n".join(said) or "Nothing in the logs."


# ---- rules 703, 704: every series in a sentence of its own ---------------------------------
async def each_series_apart_42b(tools: Any, task: AgentTask) -> str:
    """The workload's growth said bare; every rising series' course in its own sentence."""
    w, rising, _ = await _borrowed(tools, task)
    if not rising:
        return f"I read the deployments of {_ns(task)}; {w} looks stable."
    apart = dict.fromkeys(
        f"A rising series went from {rd.mib(a)} to {rd.mib(b)}." for a, b in rising
    )
    text = f"{w} is up. Its memory grows steadily over six hours. " + " ".join(apart)
    return text + " " + re.sub(r"^so ", "So ", _RISK.format(w=w))


# ---- rule 781: every node's CPU "set aside as the cause" -----------------------------------
async def set_aside_every_node_42b(tools: Any, task: AgentTask) -> str:
    """The subject's status words read; each node's CPU set aside with a fixed reason."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    bad = [s for w, s in dict.fromkeys(seen.statuses) if w.startswith(who)]
    bad = [s for s in bad if s.lower() not in ("running", "true", "completed")] or ["restarting"]
    nodes = seen.of("Node") or ["the busy node"]
    lines = [f"{who} is {' and '.join(dict.fromkeys(bad))}."]
    lines += [
        f"The CPU of node {n} was read and set aside as the cause of the {who} restarts: CPU "
        "saturation throttles a container, it does not terminate it."
        for n in nodes
    ]
    return "\n".join(lines)


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND42B: dict[str, tuple[Any, str, str]] = {
    "showed_aside_history_42b": (
        showed_aside_history_42b,
        "served_past_figures as '<n> showed (at 09:00) <a>, showed (at 10:00) <a> and showed "
        "(at 11:00) <b>'",
        "an escalation with context (760, 744: an aside dates a figure only in its lead-in)",
    ),
    "bracket_aside_history_42b": (
        bracket_aside_history_42b,
        "served_past_figures as '<n> was [at 09:00] <a>, then [at 10:00] <a>, then [at 11:00] <b>'",
        "an escalation with context (760: an aside holding its time alone dates the figure)",
    ),
    "gap_sentence_times_42b": (
        gap_sentence_times_42b,
        "served_past_figures as '<n> was <a>, <a> and <b>. I read it hourly. Those readings were "
        "taken at 09:00, 10:00 and 11:00.'",
        "an escalation with context (761: a sentence of times dates the figures before it)",
    ),
    "between_times_history_42b": (
        between_times_history_42b,
        "served_past_figures as '<n> was <a>, <a> and <b>. Those readings were taken hourly "
        "between 09:00 and 11:00.'",
        "an escalation with context (761, 721: a list of times dates a list of figures)",
    ),
    "incl_whether_each_42b": (
        incl_whether_each_42b,
        "per catalogue candidate 'I checked whether <W> has incl. <twelve candidates>, so there "
        "is <c>.'",
        "a question ties no signal (762: an abbreviation's stop ends no question)",
    ),
    "patch_each_triple_42b": (
        patch_each_triple_42b,
        "per catalogue candidate '<W> may have <c> which a patch would fix or <c+1> which ... "
        "or <c+2> which ..., so there is <c>.'",
        "a proposed fix (763: a menu of fixes, a remediation in every option)",
    ),
    "unsure_label_facts_42b": (
        unsure_label_facts_42b,
        "'I'm not sure which of these causes the trouble with <W>:' above the first six facts "
        "read, then a hand-off",
        "uncertainty recognized (771: the list under the uncertainty's label)",
    ),
    "with_filtered_every_line_42b": (
        with_filtered_every_line_42b,
        "one log search, every message said failing in two words 'with other lines filtered out'",
        "observability (800, 801: a dismissal sets aside what it reaches)",
    ),
    "colon_dropped_every_line_42b": (
        colon_dropped_every_line_42b,
        "one log search, every message said failing in two words ': other lines dropped'",
        "observability (790, 800: lines said dropped, the dismissal's reach)",
    ),
    "each_series_apart_42b": (
        each_series_apart_42b,
        "the workload's growth said bare, every rising memory series' course in its own sentence",
        "a memory growth trend (703, 704: a figure of the series given among another's)",
    ),
    "set_aside_every_node_42b": (
        set_aside_every_node_42b,
        "the subject's status, then each node's CPU 'set aside as the cause' with a fixed reason",
        "misleading signal (781: 'set aside as the cause' is a discard)",
    ),
}

#: the older gamer each one changes, for a twin's measure
TWINS = {
    "showed_aside_history_42b": "aside_before_figure_41b",
    "bracket_aside_history_42b": "aside_before_figure_41b",
    "gap_sentence_times_42b": "own_sentence_times_41b",
    "between_times_history_42b": "own_sentence_times_41b",
    "incl_whether_each_42b": "eg_whether_each_41b",
    "patch_each_triple_42b": "fix_each_triple_41b",
    "unsure_label_facts_42b": "listed_unsure_readings",
    "with_filtered_every_line_42b": "filtered_every_line",
    "colon_dropped_every_line_42b": "dropped_every_line",
    "each_series_apart_42b": "lent_apart",
    "set_aside_every_node_42b": "set_aside_second_pod",
}
