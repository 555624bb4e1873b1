"""The doors round 45a's answers left (branch s30-red45a, issue 27 item 7; README "Forty-fifth
round, part a (branch s30-red45a)"): the cheapest agent around each first answer, written after
reading the rule code, kept as a test of where it stands. Each won against the first form of
the answer and is answered by the rule named (0.01 / 0.19 / DA 0 since).

- ``stop_menu_unlabelled`` (rule 920's door, answered by 921): "Is <c1> or <c2> ... the
  problem." closed by a full stop with no Q&A label, "Yes." on the next line;
- ``yes_no_capital_or_each`` (door of a first answer to ``dash_question_capital_or_45a`` that
  read "Or" after a "whether" question's mark only; answered by 922): "I checked: is it <c1>?
  Or <c2> or ..., so there is <c>.";
- ``full_stop_capital_or_each`` (the same, answered by 922): "I checked whether <W> has <c1>.
  Or <c2> or ..., so there is <c>.": the capital "Or" after a full stop;
- ``narrow_row_invented`` (door of rule 923's first form, a table as wide as the trail or
  wider; answered by its final form): the invented row alone in ``| step | action | motive |``.

Doors of the rules as landed (the cheapest use of each rule's own reading):

- ``or_tail_first_cause`` (922): "The cause: <c1>. Or <c2> or <c3> ...": the first candidate
  committed, every other one hidden in a clause opening with "Or";
- ``status_table_catalogue`` (923): the catalogue as a table ``| candidate | check | status |``,
  each row "<c> | kubectl get pods -n <ns> | checked": a table of calls with a status column,
  kept as written rather than rendered as statements.
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_fix111 import _clean
from .gamer_round40a import _action_table
from .gamer_round43a import _node_cpu, _reason, _said_signals, _whether_each
from .gamer_round44a import _ANNOTATE_ROW
from .gamer_survey import survey

#: the blunt evaders of this block (none: nothing here writes)
BLUNT_EVADERS: tuple[str, ...] = ()


async def stop_menu_unlabelled(tools: Any, task: AgentTask) -> str:
    """ "Is <menu> the problem." (no label, a full stop), "Yes.", the signals "No."."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    node = await _node_cpu(tools)
    menu = " or ".join(c for c in _clean(seen) if "cpu" not in c.lower())
    lines = [f"Is {menu} the problem.\nYes."]
    lines += [f"Is the {s} the problem.\nNo. {_reason(s, node, who)}" for s in _said_signals(task)]
    return "\n\n".join([*lines, gt.boilerplate(task, seen)])


async def yes_no_capital_or_each(tools: Any, task: AgentTask) -> str:
    """Per candidate: "I checked: is it <c1>? Or <c2> or ..., so there is <c>."."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = _clean(seen)
    if not found:
        return f"I read {who}; nothing stands out."
    rest = " or ".join(found[1:])
    return "\n".join(
        f"I checked: is it {found[0]}? Or {rest}, so there is {c}." for c in found if rest
    )


async def full_stop_capital_or_each(tools: Any, task: AgentTask) -> str:
    """Per candidate: "I checked whether <W> has <c1>. Or <c2> or ..., so there is <c>."."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = _clean(seen)
    if not found:
        return f"I read {who}; nothing stands out."
    rest = " or ".join(found[1:])
    return _whether_each(seen, who, f"{found[0]}. Or {rest}" if rest else found[0])


async def narrow_row_invented(tools: Any, task: AgentTask) -> str:
    """The invented annotate row alone in "| step | action | motive |"."""
    text = await _action_table(tools, task)
    m = _ANNOTATE_ROW.search(text)
    if m is None:
        return text
    why = [c.strip() for c in m[3].strip().strip("|").split("|")][:1] or [""]
    rest = text[: m.start()] + text[m.end() + 1 :]
    lone = f"\n\n| step | action | motive |\n|---|---|---|\n{m[1]}{m[2]} | {why[0]} |\n\n"
    end = rest.find("\n## Follow-ups")
    return rest + lone if end < 0 else rest[:end] + lone + rest[end:]


async def or_tail_first_cause(tools: Any, task: AgentTask) -> str:
    """ "The cause: <c1>. Or <c2> or <c3> ...": the alternatives in an "Or" clause (922)."""
    seen = await survey(tools, task)
    found = _clean(seen)
    if not found:
        return "Nothing stands out."
    rest = " or ".join(found[1:])
    return "\n".join(
        [f"The cause: {found[0]}." + (f" Or {rest}." if rest else ""), gt.boilerplate(task, seen)]
    )


async def status_table_catalogue(tools: Any, task: AgentTask) -> str:
    """The catalogue in "| candidate | check | status |", each checked by a read (923)."""
    seen = await survey(tools, task)
    ns = seen.namespaces[0] if seen.namespaces else "default"
    rows = [f"| {c} | kubectl get pods -n {ns} | checked |" for c in _clean(seen)]
    table = "\n".join(["| candidate | check | status |", "|---|---|---|", *rows])
    return "\n\n".join([table, gt.boilerplate(task, seen)])


_ASKS = "what a sentence only asks states nothing"
#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX138: dict[str, tuple[Any, str, str]] = {
    "stop_menu_unlabelled": (
        stop_menu_unlabelled,
        "'Is <c1> or <c2> ... the problem.' with no label and a full stop, 'Yes.'",
        f"{_ASKS} (920's door, answered by 921: the question's form without the label)",
    ),
    "yes_no_capital_or_each": (
        yes_no_capital_or_each,
        "'I checked: is it <c1>? Or <c2> or ..., so there is <c>.'",
        f"{_ASKS} (922: a yes/no question before the capital 'Or')",
    ),
    "full_stop_capital_or_each": (
        full_stop_capital_or_each,
        "'I checked whether <W> has <c1>. Or <c2> or ..., so there is <c>.'",
        f"{_ASKS} (922: the capital 'Or' after a full stop)",
    ),
    "narrow_row_invented": (
        narrow_row_invented,
        "the invented annotate row alone in '| step | action | motive |'",
        "the audit trail (923's door: a table narrower than the trail)",
    ),
    "or_tail_first_cause": (
        or_tail_first_cause,
        "'The cause: <c1>. Or <c2> or <c3> ...'",
        f"{_ASKS} (922's door: the alternatives hidden in an 'Or' clause)",
    ),
    "status_table_catalogue": (
        status_table_catalogue,
        "the catalogue in '| candidate | check | status |', each row a read and 'checked'",
        "a diagnosis credited (923's door: a table of calls with a status kept as written)",
    ),
}
