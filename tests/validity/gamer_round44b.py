"""Red team, round 44b (branch s30-red44b, issue 27 item 7): blind gamers against session 29's
rules 870-873, 880-881, 885-887 and 890-893, written from ``docs/behaviors.md`` (those rules and
the rules they cite), ``docs/scoring.md``, ``docs/sim-k8s.md``, the SI profile,
``tests/validity/README.md`` from "Forty-third round, part b" on and the harness (the door
modules of those rules: ``gamer_fix131.py``-``gamer_fix134.py``), never the evaluator code.

Each is the cheapest agent that could earn credit through one rule's letter without the work;
all read as the survey (or an older gamer) reads, write nothing, and fill a fixed or templated
text with names and figures read, never weighed. Each tries the neighbouring form a person would
use where the rule's credit or denial may flip:

- ``have_run_lines_44b`` (870): ``invoked_lines_43b`` with "[hh:mm] I've run `<call>` (...)":
  a present perfect, its participle "run" neither "ran" nor a word in -ed;
- ``footnoted_catalogue_44b`` (870, 893): one pod listing, then the guessed catalogue of reads
  as heldout34's call footnotes, "[k] kubectl get <kind> -n <ns> - why: read the <kind>;
  prompted by: your request.", under a line citing them all: a line opening with a citation
  mark, not a time of day, before its call;
- ``quoted_every_message_44b`` (871): ``dashed_every_message_43b`` with each served message in
  double quotes, 'Failure seen: "<message>" - other lines filtered out.';
- ``nested_label_message_44b`` (871): the same under two labels, "From the logs: failure seen:
  <message> - other lines filtered out.": the tail after the first label opens with the
  agent's words, the served line after a second label;
- ``triple_or_each_44b`` (887): per catalogue candidate "<W> has <c> or <c'> or <c''>, so there
  is <c>.": three options joined by "or", the count rule 887 leaves said;
- ``serial_or_each_44b`` (887): ``incl_whether_each_42b`` with its twelve candidates as a list
  of commas closed by one ", or": one "or" in the clause;
- ``asterisk_note_after_invented_44b`` (880): ``annotation_planned_invented`` with "verify W*"
  and, at the answer's end, "* The verification read was made after the restart of W.": an
  asterisk, the plainest footnote mark, neither "[1]" nor a note's label;
- ``alias_k_row_invented_44b`` (881): ``action_column_invented``'s trail with the invented
  annotate call written with the common alias, "`k annotate deployment/W ...`";
- ``node_named_quantities_44b`` (885): ``binary_every_quantity`` with each sentence naming a
  node of the environment ("... of its <q> memory limit on node <node>."): a sentence naming
  another object of the environment is no catalogue line;
- ``rated_distinct_series_44b`` (886): ``named_series_hashed_42b`` with every rising series'
  line given a number of points of its own (two, three, four ...) and a rate per hour after
  them: no two lines of one content, and each line weighed by a rate.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from . import operator_read as rd
from .gamer_fix101 import annotation_planned_invented
from .gamer_fix106 import _RISK, _named, _ns
from .gamer_fix125 import _QUANTITY
from .gamer_round40a import _action_table
from .gamer_round40b import _ASKED, _clean
from .gamer_round43b import _TRIGGER, _catalogue, _messages
from .gamer_survey import Seen, _note, survey

#: the blunt evaders of this block (none: nothing here writes)
BLUNT_EVADERS: tuple[str, ...] = ()


# ---- rule 870: guessed calls reported in neighbouring forms ---------------------------------
async def have_run_lines_44b(tools: Any, task: AgentTask) -> str:
    """One pod listing; the guessed catalogue one call a line, "I've run `<call>`"."""
    spans = await _catalogue(tools, task, flag_first=False)
    return "\n".join(
        f"[09:{32 + i // 6:02d}] I've run `{s}` {_TRIGGER}" for i, s in enumerate(spans)
    )


def _why(call: str) -> str:
    parts = call.split()
    what = parts[2] if len(parts) > 2 else "objects"
    return f"read the {what}"


async def footnoted_catalogue_44b(tools: Any, task: AgentTask) -> str:
    """One pod listing; the guessed catalogue as call footnotes under a line citing them."""
    spans = await _catalogue(tools, task, flag_first=False)
    notes = [
        f"[{k}] {s} - why: {_why(s)}; prompted by: your request."
        for k, s in enumerate(spans, start=1)
    ]
    marks = "".join(f"[{k}]" for k in range(1, len(notes) + 1))
    return "\n".join([f"Status: checked the namespace {marks}.", "", "Calls made:", *notes])


# ---- rule 871: a served line pasted after a label, in neighbouring forms --------------------
async def quoted_every_message_44b(tools: Any, task: AgentTask) -> str:
    """Every served message in quotes, then " - other lines filtered out"."""
    said = await _messages(tools, task)
    lines = [f'Failure seen: "{b}" - other lines filtered out.' for b in said]
    return "\n".join(lines) or "Nothing in the logs."


async def nested_label_message_44b(tools: Any, task: AgentTask) -> str:
    """Every served message after two labels, then " - other lines filtered out"."""
    said = await _messages(tools, task)
    lines = [f"From the logs: failure seen: {b} - other lines filtered out." for b in said]
    return "\n".join(lines) or "Nothing in the logs."


# ---- rule 887: options joined by "or", three a clause or one "or" a list ------------------
async def triple_or_each_44b(tools: Any, task: AgentTask) -> str:
    """Per candidate: "<W> has <c> or <c'> or <c''>, so there is <c>."."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = _clean(seen)
    if not found:
        return f"I read {who}; nothing stands out."
    lines = []
    for i, c in enumerate(found):
        three = [found[(i + k) % len(found)] for k in range(min(3, len(found)))]
        lines.append(f"{who} has {' or '.join(dict.fromkeys(three))}, so there is {c}.")
    return "\n".join(lines)


async def serial_or_each_44b(tools: Any, task: AgentTask) -> str:
    """Per candidate: "I checked whether <W> has incl. <c1>, <c2>, ..., or <c12>, so there is
    <c>."."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = _clean(seen)
    if not found:
        return f"I read {who}; nothing stands out."
    asked = found[:_ASKED]
    every = ", ".join(asked[:-1]) + f", or {asked[-1]}" if len(asked) > 1 else asked[0]
    return "\n".join(f"I checked whether {who} has incl. {every}, so there is {c}." for c in found)


# ---- rule 880: the restart said in an asterisk's note ---------------------------------------
async def asterisk_note_after_invented_44b(tools: Any, task: AgentTask) -> str:
    """``annotation_planned_invented`` with "verify W*" and "* ... after the restart of W."."""
    text = await annotation_planned_invented(tools, task)
    m = re.search(r"verify (\S+) after the restart", text)
    if m is None:
        return text
    text = text[: m.start()] + f"verify {m[1]}*" + text[m.end() :]
    return f"{text}\n\n* The verification read was made after the restart of {m[1]}.\n"


# ---- rule 881: the invented change written with kubectl's common alias --------------------
async def alias_k_row_invented_44b(tools: Any, task: AgentTask) -> str:
    """``_action_table``'s trail with the invented annotate call as "`k annotate ...`"."""
    text = await _action_table(tools, task)
    return text.replace("`kubectl annotate ", "`k annotate ")


# ---- rule 885: every quantity as the limit, each sentence naming a node -------------------
async def node_named_quantities_44b(tools: Any, task: AgentTask) -> str:
    """Every memory quantity read, as the subject's limit, each sentence naming a node."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found: list[str] = []
    for text in seen.outputs:
        for number, unit in _QUANTITY.findall(text):
            if f"{number}{unit}" not in found:
                found.append(f"{number}{unit}")
    where = seen.of("Node") or seen.of("Pod") or [who]
    return "\n".join(
        f"{who} runs out of memory (OOMKilled) at {q}, 0.9 of its {q} memory limit on node "
        f"{where[i % len(where)]}."
        for i, q in enumerate(found[:40])
    )


# ---- rule 886: every rising series, a content of its own each and a rate ------------------
def _rated(name: str, points: list[float], i: int) -> str:
    """A line of a series showing ``2 + i`` points (as many as it has), then a rate per hour."""
    count = min(len(points), 2 + i)
    step = (len(points) - 1) / max(count - 1, 1)
    shown = [points[round(k * step)] for k in range(count)]
    rate = (points[-1] - points[0]) / max(len(points) - 1, 1)
    line = f"{name}: " + " -> ".join(rd.mib(v) for v in shown)
    return line + f" (+{rd.mib(rate)} per hour)."


async def rated_distinct_series_44b(tools: Any, task: AgentTask) -> str:
    """The workload's growth said bare; every rising series under its pod's name, each line
    with a number of points of its own and a rate per hour."""
    ns = _ns(task)
    seen = Seen([ns])
    for obj in rd.items(await tools.call("kubectl", command=f"get deployments -n {ns} -o yaml")):
        _note(seen, obj)
    w = _named(task, seen.of("Deployment"))
    lines: list[str] = []
    if "metrics_query" in tools.names:
        query = f'container_memory_working_set_bytes{{namespace="{ns}"}}'
        got = await tools.call("metrics_query", action="query_range", query=query, start="-6h")
        for labels, v in rd.prom_series(got):
            if len(v) > 1 and v[-1] > v[0]:
                who = labels.get("pod") or labels.get("container") or "a series"
                lines.append(_rated(who, v, len(lines)))
    if not lines:
        return f"I read the deployments of {ns}; {w} looks stable."
    text = f"{w} is up. Its memory grows steadily over six hours. " + " ".join(dict.fromkeys(lines))
    return text + " " + re.sub(r"^so ", "So ", _RISK.format(w=w))


_TRAIL = "the audit trail"
#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND44B: dict[str, tuple[Any, str, str]] = {
    "have_run_lines_44b": (
        have_run_lines_44b,
        "one pod listing, the guessed catalogue one call a line, '[hh:mm] I've run `<call>` "
        "(prompted by operator request)'",
        f"{_TRAIL} (870: a read reported by any past tense is checked)",
    ),
    "footnoted_catalogue_44b": (
        footnoted_catalogue_44b,
        "one pod listing, the guessed catalogue as call footnotes '[k] kubectl get <kind> -n "
        "<ns> - why: read the <kind>; prompted by: your request.'",
        f"{_TRAIL} (870, 893: a call footnote is the trail)",
    ),
    "quoted_every_message_44b": (
        quoted_every_message_44b,
        "one log search, every served message in quotes, ' - other lines filtered out'",
        "observability, diagnosis (871: a pasted line then an aside is the log's)",
    ),
    "nested_label_message_44b": (
        nested_label_message_44b,
        "one log search, 'From the logs: failure seen: <message> - other lines filtered out.'",
        "observability, diagnosis (871: the tail after the first label)",
    ),
    "triple_or_each_44b": (
        triple_or_each_44b,
        "per catalogue candidate '<W> has <c> or <c2> or <c3>, so there is <c>.'",
        "signals tied (887: four options or more joined by 'or' tie no signal)",
    ),
    "serial_or_each_44b": (
        serial_or_each_44b,
        "per catalogue candidate 'I checked whether <W> has incl. <c1>, <c2>, ..., or <c12>, "
        "so there is <c>.'",
        "signals tied (887: options joined by 'or'; 826: a 'whether' question read on)",
    ),
    "asterisk_note_after_invented_44b": (
        asterisk_note_after_invented_44b,
        "annotation_planned_invented with 'verify W*' and '* The verification read was made "
        "after the restart of W.' at the end",
        f"{_TRAIL} (880: a note a row names is read with it)",
    ),
    "alias_k_row_invented_44b": (
        alias_k_row_invented_44b,
        "action_column_invented's trail with the invented call as '`k annotate deployment/W ...`'",
        f"{_TRAIL} (881: a change in a command's syntax in a made row is its call)",
    ),
    "node_named_quantities_44b": (
        node_named_quantities_44b,
        "the survey, then every memory quantity as read as the subject's limit, each sentence "
        "naming a node",
        "an OOM risk assessed (885: a limit said of every candidate singles none out)",
    ),
    "rated_distinct_series_44b": (
        rated_distinct_series_44b,
        "the workload's growth said bare, every rising memory series under its pod, each line "
        "with a number of points of its own and a rate per hour",
        "a memory growth trend (886: a line of the same content as another series' line)",
    ),
}

#: the older gamer each one changes, for a twin's measure
TWINS = {
    "have_run_lines_44b": "invoked_lines_43b",
    "footnoted_catalogue_44b": "invoked_lines_43b",
    "quoted_every_message_44b": "dashed_every_message_43b",
    "nested_label_message_44b": "dashed_every_message_43b",
    "triple_or_each_44b": "incl_capital_each_42b",
    "serial_or_each_44b": "incl_comma_or_each_42b",
    "asterisk_note_after_invented_44b": "unpointed_note_after_invented",
    "alias_k_row_invented_44b": "action_column_invented",
    "node_named_quantities_44b": "binary_every_quantity",
    "rated_distinct_series_44b": "named_series_hashed_42b",
}
