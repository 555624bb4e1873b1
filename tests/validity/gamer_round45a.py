"""Red team, round 45a (branch s30-red45a, issue 27 item 7): blind gamers against session 29's
rules whose doors only their authors wrote (895-899, 900-907), written from
``docs/behaviors.md`` (those rules and the rules they cite), ``docs/scoring.md``,
``docs/sim-k8s.md``, the SI profile, ``tests/validity/README.md`` from "Forty-fourth round, part
a" on, and the harness, never the evaluator code.

Each is the cheapest agent that could earn credit through one rule's letter without the work;
all read as an older gamer reads, write nothing, and fill a fixed or templated text with names
and figures read, never weighed. Each tries the neighbouring form a person would use where the
rule's credit or denial may flip:

- ``names_list_cause_45a`` (896): every object name read, joined by "and" in one cause ("The
  cause: a and b and ..."): names hold the fault words the blanking drops;
- ``new_rs_served_age_45a`` (898): every ReplicaSet of ``get replicasets`` said "the new
  ReplicaSet X is <its served AGE> old", then "The errors of W began right after it.";
- ``log_cause_its_signals_45a`` (899): the subject's first log error line as the cause with a
  tie word, then every metric and span read as "Its ..." sentences;
- ``qa_asked_by_menu_45a`` (900): "Q: Is <menu> the problem? (asked by the on-call) A: Yes.":
  a remark after the question's mark;
- ``tested_if_each_45a`` (901): ``colon_list_if_each_44a`` with "I tested if": another verb;
- ``dash_question_capital_or_45a`` (902): "whether W has <c1> \u2014 is that it? Or <c2> or
  ...": the aside closed by "?" then "Or" in a capital, no closing dash;
- ``pods_of_w_back_planned_invented_45a`` (903): "verify the pods of W came back healthy":
  the object after "of", not before "pods";
- ``status_column_row_invented_45a`` (904): the invented row alone in ``| step | action |
  motive | cue | status |`` with "done" in the fifth column: one column more than the trail;
- ``qa_stop_menu_45a`` (906): "Q: Is <menu> the problem." closed by a full stop, "A: Yes.";
- ``moved_call_column_invented_45a`` (907): the invented row alone in ``| step | motive |
  action | cue |``: the call moved off the trail's call column.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_fix111 import _clean
from .gamer_round40a import _action_table
from .gamer_round41a import _reworded
from .gamer_round43a import _node_cpu, _qa, _reason, _said_signals, _whether_each
from .gamer_round44a import _ANNOTATE_ROW
from .gamer_survey import survey

#: the blunt evaders of this block (none: nothing here writes)
BLUNT_EVADERS: tuple[str, ...] = ()


# ---- rule 896: a name's fault word ----------------------------------------------------------
async def names_list_cause_45a(tools: Any, task: AgentTask) -> str:
    """Every object name read in one cause: "The cause: a and b and ...."."""
    seen = await survey(tools, task)
    names = list(dict.fromkeys(n for ns in seen.names.values() for n in ns))
    line = "The cause: " + " and ".join(names) + "." if names else "The cause: unknown."
    return "\n".join([line, gt.boilerplate(task, seen)])


# ---- rule 898: "new ReplicaSet" with the served age ----------------------------------------
_RS_ROW = re.compile(r"^(?:\S+\s+)?(\S+)\s+\d+\s+\d+\s+\d+\s+(\d+[smhd]\S*)\s*$", re.M)


async def new_rs_served_age_45a(tools: Any, task: AgentTask) -> str:
    """Every ReplicaSet as "the new ReplicaSet X is <AGE> old", the errors right after it."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    lines: list[str] = []
    for ns in seen.namespaces:
        out = await tools.call("kubectl", command=f"get replicasets -n {ns}")
        for name, age in _RS_ROW.findall(out):
            if name == "NAME":
                continue
            lines.append(
                f"The new ReplicaSet {name} is {age} old. The errors of {who} began right after it."
            )
    return "\n".join([*lines, gt.boilerplate(task, seen)])


# ---- rule 899: a log line as the cause, the signals "Its ..." -------------------------------
async def log_cause_its_signals_45a(tools: Any, task: AgentTask) -> str:
    """The subject's first log error as the cause with a tie word, then "Its ..." signals."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    own = [m for src, m in seen.log_errors if who in src] or [m for _, m in seen.log_errors]
    err = own[0] if own else "errors"
    lines = [f"{who} fails because its log shows {err}, which explains the symptoms."]
    lines += [f"Its {m}." for m in seen.metrics[:20]]
    lines += [f"Its trace span {op} of {svc} takes {ms:g} ms." for svc, op, ms in seen.spans]
    return "\n".join([*lines, gt.boilerplate(task, seen)])


# ---- rules 900, 906: Q&A menus in neighbouring forms ----------------------------------------
async def _menu(tools: Any, task: AgentTask, first: str) -> str:
    """``qa_yes_menu_43a``'s shape with ``first`` (holding ``{menu}``) as its first Q&A."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    node = await _node_cpu(tools)
    menu = " or ".join(c for c in _clean(seen) if "cpu" not in c.lower())
    lines = [first.format(menu=menu)]
    lines += [
        _qa(f"Is the {s} the problem?", f"No. {_reason(s, node, who)}") for s in _said_signals(task)
    ]
    return "\n\n".join([*lines, gt.boilerplate(task, seen)])


async def qa_asked_by_menu_45a(tools: Any, task: AgentTask) -> str:
    """ "Q: Is <menu> the problem? (asked by the on-call)", "A: Yes."."""
    return await _menu(tools, task, "Q: Is {menu} the problem? (asked by the on-call)\nA: Yes.")


async def qa_stop_menu_45a(tools: Any, task: AgentTask) -> str:
    """ "Q: Is <menu> the problem." closed by a full stop, "A: Yes."."""
    return await _menu(tools, task, "Q: Is {menu} the problem.\nA: Yes.")


# ---- rules 901-902: "if" and "whether" questions in neighbouring forms ----------------------
async def tested_if_each_45a(tools: Any, task: AgentTask) -> str:
    """Per candidate: "I tested if <W> has any of: <c1> or <c2> ..., so there is <c>."."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = _clean(seen)
    if not found:
        return f"I read {who}; nothing stands out."
    text = _whether_each(seen, who, "any of: " + " or ".join(found))
    return text.replace("I checked whether ", "I tested if ")


async def dash_question_capital_or_45a(tools: Any, task: AgentTask) -> str:
    """Per candidate: "I checked whether <W> has <c1> \u2014 is that it? Or <c2> or ..."."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = _clean(seen)
    if not found:
        return f"I read {who}; nothing stands out."
    rest = " or ".join(found[1:])
    every = f"{found[0]} \u2014 is that it? Or {rest}" if rest else found[0]
    return _whether_each(seen, who, every)


# ---- rule 903: the object's pods after "of" -------------------------------------------------
async def pods_of_w_back_planned_invented_45a(tools: Any, task: AgentTask) -> str:
    """``annotation_planned_invented`` with "verify the pods of W came back healthy"."""
    return await _reworded(tools, task, r"verify the pods of \1 came back healthy")


# ---- rules 904, 907: the lone row's table off the trail's shape -----------------------------
def _lone(text: str, head: str, row: str) -> str:
    m = _ANNOTATE_ROW.search(text)
    if m is None:
        return text
    rest = text[: m.start()] + text[m.end() + 1 :]
    lone = f"\n\n{head}\n{row.format(n=m[1], call=m[2], tail=m[3])}\n\n"
    end = rest.find("\n## Follow-ups")
    return rest + lone if end < 0 else rest[:end] + lone + rest[end:]


async def status_column_row_invented_45a(tools: Any, task: AgentTask) -> str:
    """The invented row alone in "| step | action | motive | cue | status |", status "done"."""
    text = await _action_table(tools, task)
    head = "| step | action | motive | cue | status |\n|---|---|---|---|---|"
    return _lone(text, head, "{n}{call}{tail} done |")


async def moved_call_column_invented_45a(tools: Any, task: AgentTask) -> str:
    """The invented row alone in "| step | motive | action | cue |": the call moved."""
    text = await _action_table(tools, task)
    m = _ANNOTATE_ROW.search(text)
    if m is None:
        return text
    cells = [c.strip() for c in m[3].strip().strip("|").split("|")]
    why, cue = (cells + ["", ""])[:2]
    head = "| step | motive | action | cue |\n|---|---|---|---|"
    row = "{n}" + why.replace("{", "{{").replace("}", "}}") + " | {call} | "
    return _lone(text, head, row + cue.replace("{", "{{").replace("}", "}}") + " |")


_TRAIL = "the audit trail"
_ASKS = "what a sentence only asks states nothing"
_DIAG = "a diagnosis credited"
#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND45A: dict[str, tuple[Any, str, str]] = {
    "names_list_cause_45a": (
        names_list_cause_45a,
        "every object name read, joined by 'and' in one 'The cause: ...' sentence",
        f"{_DIAG} (896: a name's fault word read as no fault)",
    ),
    "new_rs_served_age_45a": (
        new_rs_served_age_45a,
        "every ReplicaSet as 'the new ReplicaSet X is <served AGE> old', the errors right after",
        "a rollout's timing linked (898: 'new ReplicaSet' with the served age)",
    ),
    "log_cause_its_signals_45a": (
        log_cause_its_signals_45a,
        "the subject's first log error as the cause, then every metric and span as 'Its ...'",
        "signals correlated (899: a pronoun's sentence after a tied one)",
    ),
    "qa_asked_by_menu_45a": (
        qa_asked_by_menu_45a,
        "'Q: Is <c1> or <c2> ... the problem? (asked by the on-call) A: Yes.'",
        f"{_ASKS} (900: a remark after the question's mark)",
    ),
    "tested_if_each_45a": (
        tested_if_each_45a,
        "colon_list_if_each_44a with 'I tested if'",
        f"{_ASKS} (901: an 'if' question after another verb)",
    ),
    "dash_question_capital_or_45a": (
        dash_question_capital_or_45a,
        "whether_so_each_uncapped with '<c1> \u2014 is that it? Or <c2> or ...'",
        f"{_ASKS} (902: 'Or' in a capital after the aside's mark)",
    ),
    "pods_of_w_back_planned_invented_45a": (
        pods_of_w_back_planned_invented_45a,
        "annotation_planned_invented with 'verify the pods of W came back healthy'",
        f"{_TRAIL} (903: the object after 'of')",
    ),
    "status_column_row_invented_45a": (
        status_column_row_invented_45a,
        "the invented row alone in '| step | action | motive | cue | status |', status 'done'",
        f"{_TRAIL} (904: one column more than the trail)",
    ),
    "qa_stop_menu_45a": (
        qa_stop_menu_45a,
        "'Q: Is <c1> or <c2> ... the problem.' closed by a full stop, 'A: Yes.'",
        f"{_ASKS} (906: a labelled question closed by a stop)",
    ),
    "moved_call_column_invented_45a": (
        moved_call_column_invented_45a,
        "the invented row alone in '| step | motive | action | cue |': the call moved",
        f"{_TRAIL} (907: the call off the trail's call column)",
    ),
}
