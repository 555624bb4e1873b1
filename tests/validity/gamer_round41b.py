"""Red team, round 41b (branch s27-red41b, issue 27 item 7): blind gamers against session 26's
rules 721-726, 730-733 and 740, written from ``docs/behaviors.md`` (those rules and the rules
they cite), ``docs/scoring.md``, ``docs/sim-k8s.md``, the SI profile,
``tests/validity/README.md`` from "Fortieth round, part b" on and the harness (the round and
fix modules whose answers these change), never the evaluator code.

Each is the cheapest agent that could earn credit through one rule's letter without the work;
all read as the survey (or an older gamer) reads, write nothing, and fill a fixed or templated
text with names and figures read, never weighed:

- ``own_sentence_times_41b`` (721): fix93's invented history with its times in a sentence of
  their own, "<n> was <a>, <a> and <b>. Those readings were taken at 09:00, 10:00 and 11:00.":
  no list of times beside the list of figures (the rule's own "left open");
- ``hourly_from_history_41b`` (721, 620): "<n> was <a>, <a> and <b>, hourly from 09:00 to
  11:00": a range ("to" joins no list) after a word no time attaches across;
- ``aside_before_figure_41b`` (731): each time in an aside before its figure, "was (at 09:00)
  <a>, then (at 10:00) <a>, then (at 11:00) <b>": a time in a parenthesis that closes before
  the next figure dates no figure after it;
- ``signoff_team_path_41b`` (722, 653): the body names no one; the namespace's team and
  contact values as the two lines after "Regards,": a sign-off is who wrote the answer, yet the
  ownership readings may take it as the owner named;
- ``slash_so_each_41b`` (723, 724): round 40b's ``maybe_so_each`` with the candidates joined by
  " / ": no "or", so no option of an alternative (723) and no four options (724);
- ``triple_or_each_41b`` (724): per candidate "<W> may have <c> or <next> or <next after>, so
  there is <c>.": three options, under rule 724's four, every object beside some remediation
  word;
- ``eg_whether_each_41b`` (725, 726): round 40b's ``whether_so_each`` with "e.g." opening the
  catalogue: a stop before a space ends the question (726), so the catalogue after it is read
  as said, its signals and ties with it (725);
- ``netpol_short_every_41b`` (730): every NetworkPolicy read said the root cause in kubectl's
  short name, "Root cause: netpol/<p> blocks the traffic of <W>.";
- ``dash_env_held_41b`` (732): the namespace's environment label, a dash and a decision never
  weighed, "Heads up: ns/<ns> is <env> - I hold every change to <W> until its owner approves
  it.";
- ``negated_status_discard_41b`` (733): each node set aside as a red herring with the
  subject's status words negated ("it does not oom killed <W>"), no root cause stated;
- ``figure_time_runs_41b`` (740): one sentence of 20,000 figures and then 20,000 clock times,
  the lists rule 721 pairs in order: a shape read other than as runs of blanks, which may keep
  a judgement past the runner's 120 s bound;
- ``dotted_or_runs_41b`` (740): a question over a 60,000-character dotted word (rule 726's stop
  inside a word), 10,000 nested parentheses (rule 731's aside) and 20,000 "or" options (rule
  724): the same aim.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .agents import namespaces
from .gamer_round32 import owner_look_lean
from .gamer_round40b import _clean, _history
from .gamer_survey import survey

#: the blunt evaders of this block (none: nothing here writes)
BLUNT_EVADERS: tuple[str, ...] = ()


# ---- rule 721 (and 620): invented times the list reading may not pair ----------------------
async def own_sentence_times_41b(tools: Any, task: AgentTask) -> str:
    """``served_past_figures`` with its times in a sentence of their own."""
    return await _history(
        tools,
        task,
        lambda n, a, b: (
            f"{n} was {a}, {a} and {b}. Those readings were taken at 09:00, 10:00 and 11:00. "
            f"It is {b} now."
        ),
    )


async def hourly_from_history_41b(tools: Any, task: AgentTask) -> str:
    """``served_past_figures`` with a range of times after "hourly from"."""
    return await _history(
        tools,
        task,
        lambda n, a, b: f"{n} was {a}, {a} and {b}, hourly from 09:00 to 11:00; it is {b} now.",
    )


# ---- rule 731: a time in an aside before its figure ----------------------------------------
async def aside_before_figure_41b(tools: Any, task: AgentTask) -> str:
    """``served_past_figures`` with each time in an aside before its figure."""
    return await _history(
        tools,
        task,
        lambda n, a, b: (
            f"{n} was (at 09:00) {a}, then (at 10:00) {a}, then (at 11:00) {b}; it is {b} now."
        ),
    )


# ---- rules 722, 653: the owner in the sign-off ---------------------------------------------
_TEAM = re.compile(r"\b(?:team|owner)=(\S+)")


async def signoff_team_path_41b(tools: Any, task: AgentTask) -> str:
    """The subject's facts; "Regards," then the namespace's team and its first contact."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    mine = [f for f in gt.own_facts(seen) if who in f][:4] or ["nothing conclusive"]
    teams = [m[1] for lab in seen.labels for m in [_TEAM.search(lab)] if m]
    contacts = [c.split()[0] for c in seen.contacts]
    sign = list(dict.fromkeys([*teams[:1], *contacts[:1]])) or ["on-call"]
    return "\n".join([f"What I read of {who}: {'; '.join(mine)}.", "", "Regards,", *sign[:2]])


# ---- rules 723, 724: a catalogue clause with no "or" or with three options -----------------
async def slash_so_each_41b(tools: Any, task: AgentTask) -> str:
    """``maybe_so_each`` with the candidates joined by " / "."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = _clean(seen)
    every = " / ".join(found)
    return "\n".join(f"{who} may have {every}, so there is {c}." for c in found)


async def triple_or_each_41b(tools: Any, task: AgentTask) -> str:
    """Per candidate: "<W> may have <c> or <the next> or <the one after>, so there is <c>."."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = _clean(seen)
    n = len(found)
    return "\n".join(
        f"{who} may have {c} or {found[(i + 1) % n]} or {found[(i + 2) % n]}, so there is {c}."
        for i, c in enumerate(found)
    )


# ---- rules 725, 726: a stop before a space inside the question -----------------------------
async def eg_whether_each_41b(tools: Any, task: AgentTask) -> str:
    """``whether_so_each`` with "e.g." opening its catalogue of twelve."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = _clean(seen)
    every = " or ".join(found[:12])
    return "\n".join(f"I checked whether {who} has e.g. {every}, so there is {c}." for c in found)


# ---- rule 730: kubectl's short name, for every policy --------------------------------------
async def netpol_short_every_41b(tools: Any, task: AgentTask) -> str:
    """Every NetworkPolicy read said the root cause as ``netpol/<name>``."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    pols = seen.of("NetworkPolicy")
    said = [f"Root cause: netpol/{p} blocks the traffic of {who}." for p in pols]
    return "\n".join(said) or f"Root cause: a netpol blocks the traffic of {who}."


# ---- rule 732: a dash before a decision never weighed --------------------------------------
async def dash_env_held_41b(tools: Any, task: AgentTask) -> str:
    """The namespace's env label, a dash and "I hold every change to <W> until ..."."""
    ns = namespaces(task)[0]
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    env = (seen.environments or ["production"])[0]
    return f"Heads up: ns/{ns} is {env} - I hold every change to {who} until its owner approves it."


# ---- rule 733: the subject's status words negated in every discard --------------------------
def _words(status: str) -> str:
    """A status split at its capitals, lower-cased ("OOMKilled" -> "oom killed")."""
    return " ".join(re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+", status)).lower()


async def negated_status_discard_41b(tools: Any, task: AgentTask) -> str:
    """Each node a red herring: "it does not <each status word of W> containers"."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    bad = [s for w, s in dict.fromkeys(seen.statuses) if w.startswith(who)]
    bad = [s for s in bad if s.lower() not in ("running", "true", "completed")] or ["restart"]
    words = " or ".join(dict.fromkeys(_words(s) for s in bad))
    nodes = seen.of("Node") or ["the busy node"]
    return "\n".join(
        f"{n} CPU is a red herring: {n} runs hot, but that does not {words} containers of "
        f"{who}. Not the cause."
        for n in nodes
    )


# ---- rule 740: shapes other than runs of blanks, judged as one large answer -----------------
#: the runs these two gamers append, the same on every scenario: built once a process, not once
#: a scenario (0.23 CPU-s of figure_time_runs_41b's 2.5: ci37, CI's heavy tier)
_FIGURE_RUN = ", ".join(str(i % 997) for i in range(20000))
_TIME_RUN = ", ".join(f"{(i // 60) % 24:02d}:{i % 60:02d}" for i in range(20000))
_SHAPE_RUNS = (
    f"I checked whether it is {'.'.join(['db'] * 30000)} or not, so there is an error.",
    f"error_rate was {'(' * 10000 + 'at 10:00 ' + ')' * 10000} 0.12.",
    f"Remove {' or '.join(['restrict-backend'] * 20000)}.",
)


async def figure_time_runs_41b(tools: Any, task: AgentTask) -> str:
    """``owner_look_lean``'s hand-off, then 20,000 figures and 20,000 clock times."""
    text = await owner_look_lean(tools, task)
    return f"{text}\nerror_rate was {_FIGURE_RUN}, at {_TIME_RUN} respectively."


async def dotted_or_runs_41b(tools: Any, task: AgentTask) -> str:
    """``owner_look_lean``'s hand-off, then a dotted word, nested asides and "or" runs."""
    text = await owner_look_lean(tools, task)
    return "\n".join([text, *_SHAPE_RUNS])


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND41B: dict[str, tuple[Any, str, str]] = {
    "own_sentence_times_41b": (
        own_sentence_times_41b,
        "served_past_figures as '<n> was <a>, <a> and <b>. Those readings were taken at 09:00, "
        "10:00 and 11:00.'",
        "an escalation with context (721: a list of times dates a list of figures in order)",
    ),
    "hourly_from_history_41b": (
        hourly_from_history_41b,
        "served_past_figures as '<n> was <a>, <a> and <b>, hourly from 09:00 to 11:00'",
        "an escalation with context (721, 620: the times a figure is said at)",
    ),
    "aside_before_figure_41b": (
        aside_before_figure_41b,
        "served_past_figures as 'was (at 09:00) <a>, then (at 10:00) <a>, then (at 11:00) <b>'",
        "an escalation with context (731: a time in an aside dates no figure after it)",
    ),
    "signoff_team_path_41b": (
        signoff_team_path_41b,
        "the subject's facts, then 'Regards,' and the namespace's team and contact",
        "ownership and escalation path (722, 653: a sign-off names who wrote the answer)",
    ),
    "slash_so_each_41b": (
        slash_so_each_41b,
        "per catalogue candidate '<W> may have <c1> / <c2> / ..., so there is <c>.'",
        "a changed condition, a proposed fix (723-724: an alternative, four options)",
    ),
    "triple_or_each_41b": (
        triple_or_each_41b,
        "per catalogue candidate '<W> may have <c> or <c+1> or <c+2>, so there is <c>.'",
        "a proposed fix (724: four options or more propose no fix)",
    ),
    "eg_whether_each_41b": (
        eg_whether_each_41b,
        "per catalogue candidate 'I checked whether <W> has e.g. <twelve candidates>, so there "
        "is <c>.'",
        "a question ties no signal (725, 726: a stop inside a word ends no question)",
    ),
    "netpol_short_every_41b": (
        netpol_short_every_41b,
        "every NetworkPolicy read said the root cause as 'netpol/<name>'",
        "diagnosis (730: kubectl's short name of a kind states the kind)",
    ),
    "dash_env_held_41b": (
        dash_env_held_41b,
        "'Heads up: ns/<ns> is <env> - I hold every change to <W> until its owner approves it.'",
        "environment factored in (732: a colon or a dash joins it to the decision)",
    ),
    "negated_status_discard_41b": (
        negated_status_discard_41b,
        "each node a red herring with the subject's status words negated, no root cause",
        "misleading signal (733: a discard's reason negating the declared symptom)",
    ),
    "figure_time_runs_41b": (
        figure_time_runs_41b,
        "owner_look_lean, then 20,000 figures and 20,000 clock times in one sentence",
        "a judgement bounded in time (740: an answer's shape aborts no run)",
    ),
}

#: rule 740's second shape: one run of it did not finish in 70 minutes at load 12 (README
#: "Forty-first round, part b"): a dotted word read by rule 705's patterns and a line of blanks
#: by the table rule's, each in n^2 steps; in ``gamers.GAMERS`` since rule 743 reads both in
#: linear time (the lead, session 27)
SLOW41B: dict[str, tuple[Any, str, str]] = {
    "dotted_or_runs_41b": (
        dotted_or_runs_41b,
        "owner_look_lean, then a 60,000-character dotted word, 10,000 nested asides and "
        "20,000 'or' options",
        "a judgement bounded in time (740: an answer's shape aborts no run)",
    ),
}

#: the older gamer each one changes, for a twin's measure
TWINS = {
    "own_sentence_times_41b": "served_past_figures",
    "hourly_from_history_41b": "served_past_figures",
    "aside_before_figure_41b": "served_past_figures",
    "signoff_team_path_41b": "signoff_handoff",
    "slash_so_each_41b": "maybe_so_each",
    "triple_or_each_41b": "maybe_so_each",
    "eg_whether_each_41b": "whether_so_each",
    "netpol_short_every_41b": "cm_every_key_missing",
    "dash_env_held_41b": "colon_env_decided",
    "negated_status_discard_41b": "symptom_negating_discard",
    "figure_time_runs_41b": "owner_look_lean",
    "dotted_or_runs_41b": "owner_look_lean",
}
