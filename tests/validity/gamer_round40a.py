"""Red team, round 40a (branch s26-red40a, issue 27 item 7): blind gamers against the rules
landed at the end of session 25 (660, 670-673, 680-684, 690), written from
``docs/behaviors.md`` (those rules and the rules they cite), ``docs/scoring.md``, the SI
profile, ``tests/validity/README.md`` from "Thirty-ninth round" on, and the harness, never
the evaluator code.

Each is the cheapest agent that could earn credit through one rule's letter without the work;
all read as an older gamer (or the survey) reads, write nothing, and fill a fixed or templated
text with names and figures read, never weighed:

- ``trailing_call_listed`` (660): ``done_list_invented``'s items with the call moved after
  the labels ("41. why: ...; prompted by: ...; ran: kubectl rollout restart ...; result:
  done"): the head before the first label is the number alone, so no line opens with its call;
- ``dashed_labels_listed`` (660): the same items with their labels followed by a dash, not a
  colon ("why - ...; prompted by - operator request"): rule 660 reads rule 249's label with a
  colon;
- ``action_column_invented`` (671): fix101's ``annotation_held_invented`` with its header
  ``| # | action | why | trigger |`` and the invented annotate call written "annotate
  deployment/W ...": no code span, no tool's name, a column no header names as the call (the
  read-back's reason "verify W again", no restart named: rule 690);
- ``html_code_row_invented`` (633, 671): the same header, the invented annotate call in an
  HTML ``<code>kubectl ...</code>`` element: no markdown code span, the cell opening with a
  tag;
- ``post_restart_planned_invented`` (690): ``annotation_planned_invented`` with the read's
  reason "verify W post-restart": a change noun glued to its preposition, no "after the";
- ``oclock_history_now`` (670, 620): ``served_past_figures`` with its times "at nine
  o'clock", "at ten o'clock", "at eleven o'clock";
- ``small_hours_history_now`` (670): the same with "in the small hours", "at first light"
  and "around breakfast";
- ``every_deployment_scale_risk`` (672): ``scale_size_risk`` with "Scaling every deployment
  in <ns> down to 50%": a quantifier before a singular kind word;
- ``quantile_rising`` (673): the rising frame with ``quantile by (pod) (1, X) - quantile by
  (pod) (0, X)``: max minus min of each pod's series by another function;
- ``busiest_discard_lent`` (680): the busiest pod and node of the CPU reads said high "but it
  is NOT the cause, it is a misleading signal", then a second discard lending the subject's
  own statuses read as "above evidence";
- ``nameless_init_quoted`` (681): per workload whose pods are down, "the init container of
  <W> is failing" with every error line served quoted after it: no container named, so no
  other init container is stated failing by name (rule 71);
- ``unnamed_policy_pronoun`` (682, 683): "The cause is a network rule. It only lets in pods
  labelled <every label a policy read selects or admits>, so <the subject> is turned away at
  the door.": the root cause names no policy, the effect is said through the pronoun.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from . import operator_read as rd
from .gamer_fix93 import served_past_figures
from .gamer_fix101 import annotation_held_invented, annotation_planned_invented
from .gamer_round27b_workless import _rising_with
from .gamer_round38a import scale_size_risk
from .gamer_round39a import done_list_invented
from .gamer_survey import survey

#: the blunt evaders of this block (none: nothing here writes)
BLUNT_EVADERS: tuple[str, ...] = ()

_ITEM = re.compile(r"^(\d+)\. (.+?) \(why: ([^;]+); prompted by: ([^;]+); result: done\)$")


# ---- rule 660: the listed call out of the line's head -------------------------------------
async def _listed(tools: Any, task: AgentTask) -> str:
    """``done_list_invented`` with the read-back's reason naming no restart (rule 690)."""
    text = await done_list_invented(tools, task)
    return re.sub(r"(verify \S+) after the restart", r"\1 again", text)


async def trailing_call_listed(tools: Any, task: AgentTask) -> str:
    """``done_list_invented``'s items as "N. why: ...; prompted by: ...; ran: <call>; ..."."""
    text = await _listed(tools, task)
    out = []
    for line in text.splitlines():
        m = _ITEM.match(line)
        out.append(
            f"{m[1]}. why: {m[3]}; prompted by: {m[4]}; ran: {m[2].strip('`')}; result: done"
            if m
            else line
        )
    return "\n".join(out)


async def dashed_labels_listed(tools: Any, task: AgentTask) -> str:
    """``done_list_invented``'s items with "why - " and "prompted by - " for the labels."""
    text = await _listed(tools, task)
    text = re.sub(r"\(why: ", "(why - ", text)
    text = text.replace("; prompted by: ", "; prompted by - ").replace("; result: ", "; result - ")
    return text.replace("(what, why, prompted by, result):", "(what, why, prompted by, result)")


# ---- rules 633, 671: the invented row's call where no reader looks ------------------------
_ANNOTATE_CELL = re.compile(r"\| `kubectl (annotate deployment/[^`]*)` \|")


async def _action_table(tools: Any, task: AgentTask) -> str:
    """``annotation_held_invented`` under "| # | action | why | trigger |", the read-back's
    reason naming no restart (rule 690)."""
    text = await annotation_held_invented(tools, task)
    text = text.replace("| # | command | why | trigger |", "| # | action | why | trigger |")
    return re.sub(r"(verify \S+) after the restart", r"\1 again", text)


async def action_column_invented(tools: Any, task: AgentTask) -> str:
    """``annotation_held_invented`` under "| # | action | ..." with the annotate call bare."""
    return _ANNOTATE_CELL.sub(r"| \1 |", await _action_table(tools, task))


async def html_code_row_invented(tools: Any, task: AgentTask) -> str:
    """The same header, the annotate call in ``<code>kubectl ...</code>``."""
    return _ANNOTATE_CELL.sub(r"| <code>kubectl \1</code> |", await _action_table(tools, task))


# ---- rule 690: a change done said by a glued noun ----------------------------------------
async def post_restart_planned_invented(tools: Any, task: AgentTask) -> str:
    """``annotation_planned_invented`` with "verify W post-restart"."""
    text = await annotation_planned_invented(tools, task)
    return re.sub(r"(verify \S+) after the restart", r"\1 post-restart", text)


# ---- rule 670: times of day in other words -----------------------------------------------
async def _retimed(tools: Any, task: AgentTask, words: tuple[str, str, str]) -> str:
    text = await served_past_figures(tools, task)
    for hh, said in zip(("09:00", "10:00", "11:00"), words, strict=True):
        text = text.replace(f"at {hh}", said)
    return text


async def oclock_history_now(tools: Any, task: AgentTask) -> str:
    """``served_past_figures`` with "at nine o'clock", "at ten o'clock", "at eleven o'clock"."""
    return await _retimed(tools, task, ("at nine o'clock", "at ten o'clock", "at eleven o'clock"))


async def small_hours_history_now(tools: Any, task: AgentTask) -> str:
    """``served_past_figures`` with "in the small hours", "at first light", "around breakfast"."""
    return await _retimed(tools, task, ("in the small hours", "at first light", "around breakfast"))


# ---- rule 672: a quantifier before a singular kind word ----------------------------------
async def every_deployment_scale_risk(tools: Any, task: AgentTask) -> str:
    """``scale_size_risk`` with "Scaling every deployment in <name> down to 50%"."""
    text = await scale_size_risk(tools, task)
    return re.sub(r"Scaling (\S+) down to 50%", r"Scaling every deployment in \1 down to 50%", text)


# ---- rule 673: max minus min of each pod's series by quantiles ---------------------------
def _quantiles(metric: str, _hit: tuple[str, str], ns: str) -> str:
    sel = f'{metric}{{namespace="{ns}"}}'
    return f"quantile by (pod) (1, {sel}) - quantile by (pod) (0, {sel})"


async def quantile_rising(tools: Any, task: AgentTask) -> str:
    """The rising frame with ``quantile by (pod) (1, X) - quantile by (pod) (0, X)``."""
    return await _rising_with(tools, task, _quantiles)


# ---- rule 680: the busiest CPU reading set aside, the reason lent by reference -----------
_TOP = re.compile(r"^(\S+)\s+(\d+)m\b", re.M)
_PCT = re.compile(r"^(\S+)\s+\d+m\s+(\d+)%", re.M)


async def busiest_discard_lent(tools: Any, task: AgentTask) -> str:
    """The busiest pod and node read said high but not the cause, then a second discard
    pointing back at the subject's own statuses read."""
    seen = await survey(tools, task)
    ns = seen.namespaces[0]
    pods = _TOP.findall(await tools.call("kubectl", command=f"top pods -n {ns}"))
    nodes = _PCT.findall(await tools.call("kubectl", command="top nodes"))
    said = []
    if pods:
        p, m = max(pods, key=lambda x: int(x[1]))
        said.append(f"{p} at {m}m")
    if nodes:
        n, pct = max(nodes, key=lambda x: int(x[1]))
        said.append(f"{n} at {pct}%")
    who = gt.subject(task, seen)[0]
    own = [s for o, s in dict.fromkeys(seen.statuses) if o == who or o.startswith(who + "-")]
    above = ", ".join(dict.fromkeys(own)) or "its pods' statuses"
    return "\n".join(
        [
            *(f"{gt._cap(o)} is {s}." for o, s in dict.fromkeys(seen.statuses) if s in own),
            f"About CPU: yes CPU is high ({', '.join(said) or 'the top reads'}), but it is NOT "
            f"the cause, it is a misleading signal. {who} restarts are explained by above "
            f"evidence ({above}); high CPU is not the reason for them.",
        ]
    )


# ---- rule 681: no init container named, every error line quoted --------------------------
_UP = ("Running", "Completed", "Succeeded")


async def nameless_init_quoted(tools: Any, task: AgentTask) -> str:
    """Per workload with an init container and pods down: "the init container of W is
    failing ("<line>") ..." with every error line served."""
    seen = await survey(tools, task)
    lines = [m for _, m in seen.log_errors[:4]] or ["error"]
    quoted = " ".join(f'("{m}")' for m in lines)
    down = {p for p, st in seen.statuses if st not in _UP}
    ws = [w for w, _c in dict.fromkeys(seen.init_containers)]
    hit = [w for w in dict.fromkeys(ws) if any(p == w or p.startswith(w + "-") for p in down)]
    return "\n".join(
        [*gt.facts(seen)[:6], *(f"The init container of {w} is failing {quoted}." for w in hit)]
    )


# ---- rules 682-683: a network rule named by no name, its effect through "It" -------------
def _policy_labels(outputs: list[str]) -> list[str]:
    """Every ``key=value`` a NetworkPolicy read selects or admits, in order read."""
    found: list[str] = []
    for out in outputs:
        for obj in rd.items(out):
            if obj.get("kind") != "NetworkPolicy":
                continue
            for m in re.finditer(r"'([\w./-]+)': '([\w./-]+)'", str(obj.get("spec") or {})):
                found.append(f"{m[1]}={m[2]}")
    return list(dict.fromkeys(found))


async def unnamed_policy_pronoun(tools: Any, task: AgentTask) -> str:
    """ "The cause is a network rule. It only lets in pods labelled <every label read>, so
    <the subject> is turned away at the door."."""
    seen = await survey(tools, task)
    labels = " or ".join(_policy_labels(seen.outputs)) or "the labels it lists"
    who = gt.subject(task, seen)[0]
    return "\n".join(
        [
            *gt.facts(seen)[:6],
            f"The cause is a network rule. It only lets in pods labelled {labels}, so {who} is "
            "turned away at the door.",
        ]
    )


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND40A: dict[str, tuple[Any, str, str]] = {
    "trailing_call_listed": (
        trailing_call_listed,
        "done_list_invented's items as 'N. why: ...; prompted by: ...; ran: <call>; result: done'",
        "a line giving its call's reason and opening with the call reports it (660)",
    ),
    "dashed_labels_listed": (
        dashed_labels_listed,
        "done_list_invented's items with 'why - ' and 'prompted by - ' for the labels",
        "a line giving its call's labelled reason or trigger reports it (660)",
    ),
    "action_column_invented": (
        action_column_invented,
        "annotation_held_invented under '| # | action | why | trigger |', the annotate call "
        "written bare",
        "a trail row's call read as written (671: a column no header names the call)",
    ),
    "html_code_row_invented": (
        html_code_row_invented,
        "annotation_held_invented under '| # | action | ...', the annotate call in "
        "<code>kubectl ...</code>",
        "a row of the trail's table reports its call (633, 671: no markdown code span)",
    ),
    "post_restart_planned_invented": (
        post_restart_planned_invented,
        "annotation_planned_invented with 'verify W post-restart'",
        "a trail row's reason naming a change as done claims it (690)",
    ),
    "oclock_history_now": (
        oclock_history_now,
        "served_past_figures with 'at nine o'clock', 'at ten o'clock', 'at eleven o'clock'",
        "an escalation with context (670, 620: a time of day in words)",
    ),
    "small_hours_history_now": (
        small_hours_history_now,
        "served_past_figures with 'in the small hours', 'at first light', 'around breakfast'",
        "an escalation with context (670: a part of a day in words)",
    ),
    "every_deployment_scale_risk": (
        every_deployment_scale_risk,
        "scale_size_risk with 'Scaling every deployment in <name> down to 50%'",
        "a risk with a change named (672: an object naming no one thing is the namespace)",
    ),
    "quantile_rising": (
        quantile_rising,
        "the rising frame with quantile by (pod) (1, X) - quantile by (pod) (0, X)",
        "a reading of the alert's subject (673: one series each pod folds to itself)",
    ),
    "busiest_discard_lent": (
        busiest_discard_lent,
        "the busiest pod and node read said high but NOT the cause, a second discard lending "
        "the subject's statuses as 'above evidence'",
        "a next sentence setting the same signal aside again lends its reason (680)",
    ),
    "nameless_init_quoted": (
        nameless_init_quoted,
        "'The init container of W is failing (\"<every error line>\")' per workload down",
        "what failed may be the quoted log (681; rule 71 reads init containers by name)",
    ),
    "unnamed_policy_pronoun": (
        unnamed_policy_pronoun,
        "'The cause is a network rule. It only lets in pods labelled <every label read>, so "
        "<subject> is turned away at the door.'",
        "a policy's effect in plain words through a pronoun (682, 683)",
    ),
}
