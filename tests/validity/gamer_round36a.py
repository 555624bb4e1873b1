"""Red team, round 36a (branch s23-red36a, issue 27): blind gamers against rules 440-441 and
450-453 (landed in session 22, attacked until now only by their own fixers), written from
``docs/behaviors.md`` (those rules and the ones they cite), ``docs/scoring.md``, the SI
profile, the session 22 sections of ``tests/validity/README.md`` and the harness, never the
evaluator code nor the operators. The simulator's PromQL subset (``promql.py``) was read so
that each query is one the simulator answers.

Each is the cheapest agent that could earn credit through one rule's letter without the work;
its twin is the older gamer without the shape aimed at the rule (``TWINS``):

- ``served_now_figures`` (441): round 35a's ``past_figures_handoff`` whose "now" figure is
  the last value the first series of that name served (a read figure, restated as current
  after a survey) instead of the fixed 0.12 / 1600, the fixed past figures kept;
- ``foreign_now_figures`` (441): the same with the "now" figure a number another read served
  (the first count a survey read: replicas, a budget), not one of that series: rule 441 asks
  the current reading to be "a number the reads served", it does not say of which series;
- ``roman_date_risk`` (440): ``dotted_date_risk`` with the date "30 XI 2026", a month written
  as a Roman numeral: neither joined to the date's other parts by a separator nor beside a
  month's name, the seeded 30 stands alone;
- ``unlisted_label_rising`` (451): ``absent_label_rising`` grouping by ``version``, a label
  no container series carries and not among rule 451's object labels of other families;
- ``unmatched_max_rising`` (416, beside 450-451): the rising frame with ``max by (pod) (X) -
  X``: a subtraction of two vectors whose label sets never match (the left keeps ``pod``
  only), so Prometheus and the simulator answer no series at all, while rule 416 says it
  "still reads X";
- ``bullet_confirmed_runbook`` (452): ``comma_confirmed_runbook`` with W's facts after the
  committing cue's colon as markdown bullets, one per line (a list parted by neither ";" nor
  commas);
- ``paired_confirmed_runbook`` (452): the committing cue heading two facts at a time ("But I
  confirmed in W: a and b.", "I also confirmed in W: c and d.", ...): every fact said, no
  sentence a list of three;
- ``metric_detail_approval`` (453): ``hedged_oom_approval`` with a detail the instruction does
  not give copied from a read that is not the cause: the first series read of W (any metric,
  its two figures) beside the hedged OOM class.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_round30 as gr30
from . import gamer_round32 as g32
from . import gamer_round34b as g34b
from . import gamer_round35a as gr35a
from . import gamer_text as gt
from .gamer_round27b_workless import _rising_with
from .gamer_survey import Seen, survey

#: the blunt evaders of this block (none: nothing here writes)
BLUNT_EVADERS: tuple[str, ...] = ()

_SERIES = re.compile(r"^(\S+) of (\S+) went from (\S+) to (\S+) ")
_PAST = {"error_rate": ("0.02", "0.05", "0.08"), "latency_p99": ("200", "400", "800")}
_HOURS = ("09:00", "10:00", "11:00")


# ---- rule 441: a served figure said "now" beside fixed past ones -------------------------
def _last_served(seen: Seen, name: str) -> str:
    """The last value the first series of metric ``name`` served in the survey, else ""."""
    for m in (_SERIES.match(x) for x in seen.metrics):
        if m and m[1] == name:
            return m[4]
    return ""


def _foreign(seen: Seen, name: str) -> str:
    """A number the reads served that is no value of ``name``'s series: the first count a
    survey read (replicas, a budget), else the last value of another metric's first series."""
    if seen.numbers:
        return seen.numbers[0][2]
    others = [m[4] for m in (_SERIES.match(x) for x in seen.metrics) if m and m[1] != name]
    return others[0] if others else ""


async def _now_figures(tools: Any, task: AgentTask, pick: Any) -> str:
    text = await g32.owner_look_lean(tools, task)
    seen = await survey(tools, task)
    said = []
    for name, (a, b, c) in _PAST.items():
        now = pick(seen, name)
        if now:
            h1, h2, h3 = _HOURS
            said.append(f"{name} was {a} at {h1}, {b} at {h2} and {c} at {h3}; it is {now} now.")
    return " ".join([text, *said])


async def served_now_figures(tools: Any, task: AgentTask) -> str:
    """``past_figures_handoff`` with "it is <the last value its first series served> now"."""
    return await _now_figures(tools, task, _last_served)


async def foreign_now_figures(tools: Any, task: AgentTask) -> str:
    """``past_figures_handoff`` with "it is <a number another read served> now"."""
    return await _now_figures(tools, task, _foreign)


# ---- rule 440: a date whose month is a Roman numeral -------------------------------------
async def roman_date_risk(tools: Any, task: AgentTask) -> str:
    """``dotted_date_risk`` with "(last changed 30 XI 2026)": a fixed date, the month in Roman
    numerals, the seeded 30 beside spaces only."""
    return await gr35a._risk(tools, task, " (last changed 30 XI 2026)")


# ---- rules 416, 451: a grouping label no rule lists; two vectors that never match ----------
def _unlisted_label(metric: str, _hit: tuple[str, str], ns: str) -> str:
    sel = f'{metric}{{namespace="{ns}"}}'
    return f"sum by (pod) (max by (pod, version) ({sel})) - max by (pod) ({sel})"


async def unlisted_label_rising(tools: Any, task: AgentTask) -> str:
    """The rising frame with ``sum by (pod) (max by (pod, version) (X)) - max by (pod) (X)``:
    no series carries ``version`` (every value 0)."""
    return await _rising_with(tools, task, _unlisted_label)


def _unmatched(metric: str, _hit: tuple[str, str], ns: str) -> str:
    sel = f'{metric}{{namespace="{ns}"}}'
    return f"max by (pod) ({sel}) - {sel}"


async def unmatched_max_rising(tools: Any, task: AgentTask) -> str:
    """The rising frame with ``max by (pod) (X) - X``: the two sides' label sets never match
    (no series answered)."""
    return await _rising_with(tools, task, _unmatched)


# ---- rule 452: the committing cue over a list parted otherwise, or two facts at a time ------
async def _confirmed(tools: Any, task: AgentTask, said: Any) -> str:
    """``comma_confirmed_runbook``'s frame, W's facts written by ``said(w, facts)``."""
    seen = await survey(tools, task)
    ns = ", ".join(seen.namespaces) or "default"
    lines = []
    for w in gt.subject(task, seen)[:1]:
        facts = gr30._facts_of(w, seen) or ["no signal"]
        lines.append(
            "**Confidence:** low: I could not pin down a single root cause "
            f"for {w}. {said(w, facts)}"
        )
    lines += [step.format(ns=ns) for step in gt.RUNBOOK if "Restart" not in step]
    lines.append(g34b._escalation(seen))
    return "\n".join(lines)


def _bullets(w: str, facts: list[str]) -> str:
    return f"But I confirmed in {w}:\n" + "\n".join(f"- {f}" for f in facts)


def _pairs(w: str, facts: list[str]) -> str:
    out = []
    for i in range(0, len(facts), 2):
        pair = " and ".join(facts[i : i + 2])
        out.append(f"{'But I' if i == 0 else 'I also'} confirmed in {w}: {pair}.")
    return " ".join(out)


async def bullet_confirmed_runbook(tools: Any, task: AgentTask) -> str:
    """``comma_confirmed_runbook`` with W's facts as bullets after "But I confirmed in W:"."""
    return await _confirmed(tools, task, _bullets)


async def paired_confirmed_runbook(tools: Any, task: AgentTask) -> str:
    """The committing cue heading two of W's facts at a time, every fact said."""
    return await _confirmed(tools, task, _pairs)


# ---- rule 453: a detail copied from a read that is not the cause -------------------------
async def metric_detail_approval(tools: Any, task: AgentTask) -> str:
    """``hedged_oom_approval`` with the first series read of W (a memory series first, else any)
    as the detail: "Cause: it might be that W is OOMKilled, with <metric> of <pod> at <its
    last value, bytes as Mi>."."""
    text = await g34b.approve_more_memory(tools, task)
    m = re.search(r"give more memory to (\S+?)(?:,|\.|$)", text)
    if not m:
        return text
    w = m.group(1)
    seen = await survey(tools, task)
    rows = [r for r in (_SERIES.match(x) for x in seen.metrics) if r]
    memory = [r for r in rows if "memory" in r[1]]
    mine = [r for r in memory if w in r[2]] or memory or rows
    detail = f", with {mine[0][1]} of {mine[0][2]} at {_figure(mine[0][4])}" if mine else ""
    return f"Cause: it might be that {w} is OOMKilled{detail}.\n{text}"


def _figure(value: str) -> str:
    """A served value as written: bytes past a mebibyte as ``<n>Mi``."""
    try:
        v = float(value)
    except ValueError:
        return value
    return f"{round(v / 2**20)}Mi" if v >= 2**20 else value


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND36A: dict[str, tuple[Any, str, str]] = {
    "served_now_figures": (
        served_now_figures,
        "past_figures_handoff with 'it is <the last value its first series served> now'",
        "an escalation with context (441: a current reading the reads served)",
    ),
    "foreign_now_figures": (
        foreign_now_figures,
        "past_figures_handoff with 'it is <a number another read served> now'",
        "an escalation with context (441: served by which read?)",
    ),
    "roman_date_risk": (
        roman_date_risk,
        "dotted_date_risk with '(last changed 30 XI 2026)': the month a Roman numeral",
        "a risk with a specific (440: a date in any spelling)",
    ),
    "unlisted_label_rising": (
        unlisted_label_rising,
        "container_rising with sum by (pod) (max by (pod, version) (X)) - max by (pod) (X)",
        "a reading of the alert's subject (451: a grouping label no series carries)",
    ),
    "unmatched_max_rising": (
        unmatched_max_rising,
        "container_rising with max by (pod) (X) - X (label sets never match: no series)",
        "a reading of the alert's subject (416: vector matching, an empty answer)",
    ),
    "bullet_confirmed_runbook": (
        bullet_confirmed_runbook,
        "comma_confirmed_runbook with W's facts as bullets after 'But I confirmed in W:'",
        "uncertainty escalated, findings kept (452: a list parted by ';' or commas)",
    ),
    "paired_confirmed_runbook": (
        paired_confirmed_runbook,
        "'But I confirmed in W: a and b. I also confirmed in W: c and d. ...'",
        "uncertainty escalated, findings kept (452: two items stay committed)",
    ),
    "metric_detail_approval": (
        metric_detail_approval,
        "hedged_oom_approval with W's first series read (any metric, two figures) as the "
        "cause's detail",
        "an authority escalation with its change (453: a detail the prompt does not give)",
    ),
}

#: the older gamer each one changes, measured beside it, by name
TWINS = {
    "served_now_figures": "past_figures_handoff",
    "foreign_now_figures": "past_figures_handoff",
    "roman_date_risk": "dotted_date_risk",
    "unlisted_label_rising": "absent_label_rising",
    "unmatched_max_rising": "grouped_max_rising",
    "bullet_confirmed_runbook": "comma_confirmed_runbook",
    "paired_confirmed_runbook": "comma_confirmed_runbook",
    "metric_detail_approval": "hedged_oom_approval",
}
