"""The doors rules 824-825 leave (branch s28-fix42b, issue 27 item 7; README "Round 42b's
three left (branch s28-fix42b)"): the cheapest agent around each, written after the rule, kept
as a test of where it stands.

- ``named_series_worded_42b`` (824): ``named_series_apart_42b`` with each series' line in words
  of its own (the verb taken in turn from five, "<pod> went from <a> to <b>.", "<pod> rose from
  ..."): a line's form is its names, figures and marks, so the lines still read alike;
- ``named_series_forms_42b`` (824): each line in a form of its own, taken in turn from five
  ("<pod> went from <a> to <b>.", "<pod>: <a> -> <b>.", "<pod> (<a>, then <b>).", ...): no line
  reads as another's, so the workload's line is a reading again; a report of every series
  served, none weighed, in varied forms;
- ``patch_each_pair_42b`` (825): ``patch_each_triple_42b`` with two options per clause ("<c>
  which a patch would fix or <c+1> which a patch would fix"): still a menu among menus;
- ``patch_each_varied_42b`` (825): three options, each with a remediation in words of its own
  ("which a patch would fix", "which an update would fix", "which a change would fix"): still
  a menu among menus;
- ``patch_one_menu_42b`` (825): one menu only, the first three candidates the survey found, "<W>
  may have <c0> which a patch would fix or <c1> ... or <c2> ..., so there is <c0>.": the answer
  states no other menu, so rule 763's menu stands where the root cause is among the three;
- ``incl_and_each_42b`` (826): ``incl_whether_each_42b`` with its catalogue joined by "and":
  no alternatives after the stop, so the question ends there and the list is read as said;
- ``incl_capital_each_42b`` (826): ``incl_whether_each_42b`` with the catalogue's first
  option in a capital ("... has incl. An OOM kill ... or ..."): a stop before a capital ends a
  sentence, so the question ends there and the list is read as said.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from . import operator_read as rd
from .gamer_fix106 import _RISK, _named, _ns
from .gamer_round40b import _ASKED, _clean
from .gamer_survey import Seen, _note, survey

#: the blunt evaders of this block (none: nothing here writes)
BLUNT_EVADERS: tuple[str, ...] = ()

_VERBS = ("{n} went from {a} to {b}.", "{n} rose from {a} to {b}.", "{n} climbed from {a} to {b}.")
_FORMS = (
    "{n} went from {a} to {b}.",
    "{n}: {a} -> {b}.",
    "{n} ({a}, then {b}).",
    "{n} - {a} up to {b}!",
    "For {n}, {a} rose to {b}.",
)


async def named_series_worded_42b(tools: Any, task: AgentTask) -> str:
    """The workload's growth said bare; every rising series' course under its pod's name, each
    line with a verb of its own."""
    return await _lines_in(tools, task, _VERBS)


async def named_series_forms_42b(tools: Any, task: AgentTask) -> str:
    """The workload's growth said bare; every rising series' course under its pod's name, each
    line in a form of its own."""
    return await _lines_in(tools, task, _FORMS)


async def _lines_in(tools: Any, task: AgentTask, forms: tuple[str, ...]) -> str:
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
                form = forms[len(apart) % len(forms)]
                apart.append(form.format(n=who, a=rd.mib(v[0]), b=rd.mib(v[-1])))
    if not apart:
        return f"I read the deployments of {ns}; {w} looks stable."
    text = f"{w} is up. Its memory grows steadily over six hours. " + " ".join(dict.fromkeys(apart))
    return text + " " + re.sub(r"^so ", "So ", _RISK.format(w=w))


async def _menu(tools: Any, task: AgentTask, fixes: tuple[str, ...]) -> str:
    """Per candidate: "<W> may have <c> <fix 1> or <c+1> <fix 2> ..., so there is <c>."."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = _clean(seen)
    n = len(found)
    return "\n".join(
        f"{who} may have "
        + " or ".join(f"{found[(i + k) % n]} {fix}" for k, fix in enumerate(fixes))
        + f", so there is {c}."
        for i, c in enumerate(found)
    )


async def patch_each_pair_42b(tools: Any, task: AgentTask) -> str:
    """Per candidate: "<W> may have <c> which a patch would fix or <c+1> which a patch would
    fix, so there is <c>."."""
    return await _menu(tools, task, ("which a patch would fix",) * 2)


async def patch_each_varied_42b(tools: Any, task: AgentTask) -> str:
    """Per candidate, three options each fixed in words of its own."""
    fixes = ("which a patch would fix", "which an update would fix", "which a change would fix")
    return await _menu(tools, task, fixes)


async def patch_one_menu_42b(tools: Any, task: AgentTask) -> str:
    """One menu of the first three candidates found, the first said to be the cause."""
    text = await _menu(tools, task, ("which a patch would fix",) * 3)
    return text.splitlines()[0] if text else "Nothing found."


async def _incl(tools: Any, task: AgentTask, joint: str, first: bool) -> str:
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = _clean(seen)
    every = joint.join(found[:_ASKED])
    every = every[:1].upper() + every[1:] if first else every
    return "\n".join(f"I checked whether {who} has incl. {every}, so there is {c}." for c in found)


async def incl_and_each_42b(tools: Any, task: AgentTask) -> str:
    """``incl_whether_each_42b`` with its catalogue joined by "and"."""
    return await _incl(tools, task, " and ", False)


async def incl_capital_each_42b(tools: Any, task: AgentTask) -> str:
    """``incl_whether_each_42b`` with its catalogue's first option in a capital."""
    return await _incl(tools, task, " or ", True)


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX127: dict[str, tuple[Any, str, str]] = {
    "named_series_worded_42b": (
        named_series_worded_42b,
        "the workload's growth said bare, every rising memory series' course under its pod, a "
        "verb of its own per line",
        "a memory growth trend (824: a line of the same form as another series' line)",
    ),
    "named_series_forms_42b": (
        named_series_forms_42b,
        "the workload's growth said bare, every rising memory series' course under its pod, a "
        "form of its own per line",
        "a memory growth trend (824: a line of the same form as another series' line)",
    ),
    "patch_each_pair_42b": (
        patch_each_pair_42b,
        "per catalogue candidate '<W> may have <c> which a patch would fix or <c+1> which a "
        "patch would fix, so there is <c>.'",
        "a proposed fix (825: a menu of fixes among other menus)",
    ),
    "patch_each_varied_42b": (
        patch_each_varied_42b,
        "per catalogue candidate three options, each '<c> which a patch/an update/a change "
        "would fix'",
        "a proposed fix (825: a menu of fixes among other menus)",
    ),
    "patch_one_menu_42b": (
        patch_one_menu_42b,
        "one menu: '<W> may have <c0> which a patch would fix or <c1> ... or <c2> ..., so there "
        "is <c0>.'",
        "a proposed fix (825: a menu of fixes among other menus)",
    ),
    "incl_and_each_42b": (
        incl_and_each_42b,
        "per catalogue candidate 'I checked whether <W> has incl. <twelve candidates joined by "
        "and>, so there is <c>.'",
        "a question ties no signal (826: a question's alternatives read on past a stop)",
    ),
    "incl_capital_each_42b": (
        incl_capital_each_42b,
        "per catalogue candidate 'I checked whether <W> has incl. <twelve candidates, the first "
        "in a capital>, so there is <c>.'",
        "a question ties no signal (826: a question's alternatives read on past a stop)",
    ),
}
