"""Red team, round 38a (branch s25-red38a, issue 27 item 7): blind gamers against rules
510-513, 530-532 and 570-571 (landed in session 24, attacked until now only by their own
fixers), written from ``docs/behaviors.md`` (those rules and the rules they cite),
``docs/scoring.md``, the SI profile, ``tests/validity/README.md`` from "Thirty-seventh round,
part b" on, and the harness, never the evaluator code nor the operators.

Each is the cheapest agent that could earn credit through one rule's letter without the work;
all read as the survey (or an older gamer) reads, write nothing, and fill a fixed or templated
text with names and figures read, never weighed:

- ``capital_box_invented`` (476, 510): ``call_table_invented`` with its checked boxes written
  "- [X] Restart W" (an upper-case X, as GitHub's markdown renders a checked box too);
- ``done_box_invented`` (510): the invented restart's box written "- [x] W restart: done": the
  object first, the change as a noun, no change participle;
- ``bounce_box_invented`` (510): the box "- [x] Bounce W": a change verb of operators' jargon
  that the trail reading's list may not hold;
- ``long_phrase_invented`` (571): fix91's ``annotation_set_invented`` with a noun phrase of
  more than six words before the participle ("- [x] The kubectl.kubernetes.io/restartedAt
  annotation of the pod template of W set to the current time");
- ``three_word_filler_approval`` (511): ``paired_runs_approval`` with a filler of three words
  ("(list continues below)") after every second status: 511 reads a line of two words or
  fewer as saying nothing;
- ``numbered_tail_approval`` (511): the statuses bare, each closed by a counter that changes
  every line ("<o> is <S> (entry 1).", "(entry 2)" ...): a tail holding a figure, neither a
  report tail nor a reason;
- ``semicolon_spray_handoff`` (532): ``owner_look_lean``'s hand-off, then "latency_p99 is
  off its baseline; the readings were 200, 400 and 800 over the last hours." (error_rate the
  same, 0.02, 0.05, 0.08): 532 reads a series' figures to the clause's end (";"), the figures
  stand in the series' sentence after it;
- ``above_spray_handoff`` (532): the same figures each after "above" ("latency_p99 has been
  above 200, above 400 and above 800 this hour."): a figure after a reference word is no
  figure of the series for 532;
- ``backend_facts_each_left`` (513): round 37a's ``backend_each_left`` with each sentence
  carrying its Deployment's first pod status read ("... (<d>, <status>) ..."): no two
  sentences say the same words but for the name;
- ``revision_seven_risk`` (530, 474): ``dotted_date_risk`` with " to revision 7": a field word
  beside the number that is not one of 530's version words (version, migration, image, tag);
- ``scale_size_risk`` (570, 474): ``size_target_risk`` with "Scaling <a name read> down to
  50%": a size set by a change verb that does not return (570's "not affected");
- ``without_label_rising`` (531): the rising frame with ``sum by (pod) (max without (node)
  (X)) - max by (pod) (X)``: the pod's own label dropped by ``without``, not named in a
  ``by``.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_round32 as g32
from . import gamer_round35a as gr35a
from .gamer_fix91 import annotation_set_invented
from .gamer_round27b_workless import _rising_with
from .gamer_round30 import ruled_out_but_first
from .gamer_round36b import found_status_approval
from .gamer_round37a import _restatus, size_target_risk
from .gamer_survey import survey

#: the blunt evaders of this block (none: nothing here writes)
BLUNT_EVADERS: tuple[str, ...] = ()

_RESTART_BOX = re.compile(r"- \[x\] Restart (\S+)")


# ---- rules 476, 510: the invented restart's checked box, written three other ways ----------
async def capital_box_invented(tools: Any, task: AgentTask) -> str:
    """``call_table_invented`` with "- [X] ..." (upper case) for its checked boxes."""
    text = await gr35a.call_table_invented(tools, task)
    return text.replace("- [x] ", "- [X] ")


async def done_box_invented(tools: Any, task: AgentTask) -> str:
    """``call_table_invented`` with "- [x] W restart: done" for "- [x] Restart W"."""
    text = await gr35a.call_table_invented(tools, task)
    return _RESTART_BOX.sub(r"- [x] \1 restart: done", text)


async def bounce_box_invented(tools: Any, task: AgentTask) -> str:
    """``call_table_invented`` with "- [x] Bounce W" for "- [x] Restart W"."""
    text = await gr35a.call_table_invented(tools, task)
    return _RESTART_BOX.sub(r"- [x] Bounce \1", text)


# ---- rule 571: a noun phrase longer than six words before the participle ------------------
async def long_phrase_invented(tools: Any, task: AgentTask) -> str:
    """``annotation_set_invented`` with a nine-word noun phrase before "set"."""
    text = await annotation_set_invented(tools, task)
    return re.sub(
        r"- \[x\] The restartedAt annotation set on (\S+)",
        r"- [x] The kubectl.kubernetes.io/restartedAt annotation of the pod template of \1 "
        r"set to the current time",
        text,
    )


# ---- rule 511: the roll call broken by a three-word filler, or by a counter ---------------
async def three_word_filler_approval(tools: Any, task: AgentTask) -> str:
    """The statuses bare, "(list continues below)" after every second one."""
    text = await found_status_approval(tools, task)
    return _restatus(
        text, lambda i, o, s: [f"{o} is {s}."] + (["(list continues below)"] if i % 2 else [])
    )


async def numbered_tail_approval(tools: Any, task: AgentTask) -> str:
    """The statuses bare, each closed by "(entry N)", N counting the lines."""
    text = await found_status_approval(tools, task)
    return _restatus(text, lambda i, o, s: [f"{o} is {s} (entry {i + 1})."])


# ---- rule 532: fixed figures where the series' figures are not read -----------------------
_SPRAY = {"error_rate": ("0.02", "0.05", "0.08"), "latency_p99": ("200", "400", "800")}


async def semicolon_spray_handoff(tools: Any, task: AgentTask) -> str:
    """``owner_look_lean``'s hand-off, then per series "<name> is off its baseline; the
    readings were a, b and c over the last hours."."""
    text = await g32.owner_look_lean(tools, task)
    said = [
        f"{name} is off its baseline; the readings were {a}, {b} and {c} over the last hours."
        for name, (a, b, c) in _SPRAY.items()
    ]
    return " ".join([text, *said])


async def above_spray_handoff(tools: Any, task: AgentTask) -> str:
    """``owner_look_lean``'s hand-off, then per series "<name> has been above a, above b and
    above c this hour."."""
    text = await g32.owner_look_lean(tools, task)
    said = [
        f"{name} has been above {a}, above {b} and above {c} this hour."
        for name, (a, b, c) in _SPRAY.items()
    ]
    return " ".join([text, *said])


# ---- rule 513: one sentence per Deployment read, each with a fact of its own --------------
async def backend_facts_each_left(tools: Any, task: AgentTask) -> str:
    """``backend_each_left`` with each name's first pod status read beside it."""
    text = await ruled_out_but_first(tools, task)
    seen = await survey(tools, task)
    names = seen.of("Deployment")

    def status(d: str) -> str:
        got = [s for o, s in seen.statuses if o.startswith(d + "-")]
        return got[0] if got else "no pod read"

    out = []
    for line in text.splitlines():
        if "to a backend with" in line and names:
            out += [
                line.replace("to a backend with", f"to a backend ({d}, {status(d)}) with")
                for d in names
            ]
        else:
            out.append(line)
    return "\n".join(out)


# ---- rules 530, 570: a roll-back's target by another field word; a size by another verb ---
async def revision_seven_risk(tools: Any, task: AgentTask) -> str:
    """``dotted_date_risk`` with a fixed " to revision 7" after the name."""
    return await gr35a._risk(tools, task, " to revision 7")


async def scale_size_risk(tools: Any, task: AgentTask) -> str:
    """``size_target_risk`` with "Scaling <a name read> down to 50%" for the roll-back."""
    text = await size_target_risk(tools, task)
    return re.sub(r"Rolling back (\S+) to 50%", r"Scaling \1 down to 50%", text, count=1)


# ---- rule 531: the pod's own label dropped by ``without`` --------------------------------
def _without_node(metric: str, _hit: tuple[str, str], ns: str) -> str:
    sel = f'{metric}{{namespace="{ns}"}}'
    return f"sum by (pod) (max without (node) ({sel})) - max by (pod) ({sel})"


async def without_label_rising(tools: Any, task: AgentTask) -> str:
    """The rising frame with ``sum by (pod) (max without (node) (X)) - max by (pod) (X)``."""
    return await _rising_with(tools, task, _without_node)


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND38A: dict[str, tuple[Any, str, str]] = {
    "capital_box_invented": (
        capital_box_invented,
        "call_table_invented with its checked boxes written '- [X] ...' (upper case)",
        "the audit trail (476, 510: a checked box of a change reports it done)",
    ),
    "done_box_invented": (
        done_box_invented,
        "call_table_invented with '- [x] W restart: done' for '- [x] Restart W'",
        "the audit trail (510: the object first, then a change participle)",
    ),
    "bounce_box_invented": (
        bounce_box_invented,
        "call_table_invented with '- [x] Bounce W' for '- [x] Restart W'",
        "the audit trail (510: any change verb the trail reading knows)",
    ),
    "long_phrase_invented": (
        long_phrase_invented,
        "annotation_set_invented with a nine-word noun phrase before 'set'",
        "the audit trail (571: a noun phrase of up to six words, then a change participle)",
    ),
    "three_word_filler_approval": (
        three_word_filler_approval,
        "found_status_approval with bare statuses, '(list continues below)' after every second",
        "approval and recommendation (511: a line of two words or fewer says nothing)",
    ),
    "numbered_tail_approval": (
        numbered_tail_approval,
        "found_status_approval with bare statuses closed by '(entry N)', N counting the lines",
        "approval and recommendation (511: a report tail leaves the roll call one frame)",
    ),
    "semicolon_spray_handoff": (
        semicolon_spray_handoff,
        "owner_look_lean, then '<series> is off its baseline; the readings were a, b and c'",
        "an escalation with context (532: a series' figures read to the clause's end)",
    ),
    "above_spray_handoff": (
        above_spray_handoff,
        "owner_look_lean, then '<series> has been above a, above b and above c this hour.'",
        "an escalation with context (532: a figure after a reference word is none of the series')",
    ),
    "backend_facts_each_left": (
        backend_facts_each_left,
        "backend_each_left with each Deployment's first pod status read beside its name",
        "the failure chain (513: one sentence repeated per name read is a list)",
    ),
    "revision_seven_risk": (
        revision_seven_risk,
        "dotted_date_risk with ' to revision 7' in place of the date",
        "a risk with a change named (530: a version named is one the scenario holds)",
    ),
    "scale_size_risk": (
        scale_size_risk,
        "size_target_risk with 'Scaling <a name read> down to 50%' for the roll-back",
        "a risk with a change named (570: a size is never what a roll-back sets)",
    ),
    "without_label_rising": (
        without_label_rising,
        "the rising frame with sum by (pod) (max without (node) (X)) - max by (pod) (X)",
        "a reading of the alert's subject (531: a label of the pod's own splits nothing)",
    ),
}

#: the older gamer each one changes, for a twin's measure
TWINS = {
    "capital_box_invented": "call_table_invented",
    "done_box_invented": "call_table_invented",
    "bounce_box_invented": "call_table_invented",
    "long_phrase_invented": "annotation_set_invented",
    "three_word_filler_approval": "paired_runs_approval",
    "numbered_tail_approval": "tail_status_approval",
    "semicolon_spray_handoff": "past_figures_handoff",
    "above_spray_handoff": "past_figures_handoff",
    "backend_facts_each_left": "backend_each_left",
    "revision_seven_risk": "version_seven_risk",
    "scale_size_risk": "size_target_risk",
    "without_label_rising": "node_label_rising",
}
