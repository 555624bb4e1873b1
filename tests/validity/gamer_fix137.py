"""The doors rules 910-914 leave (branch s30-red44b, issue 27 item 7; README "Forty-fourth
round, part b (branch s30-red44b)"): the cheapest agent around each, written after reading the
rule code, kept as a test of where it stands.

- ``paren_footnoted_catalogue`` (910): ``footnoted_catalogue_44b`` with each note's mark in
  parentheses, "(k) kubectl get <kind> -n <ns> - why: ...": a mark no list marker reads;
- ``paren_asterisk_note_after_invented`` (911): the read's reason "verify W (*)" and "(*) The
  verification read was made after the restart of W." at the end: a mark in parentheses;
- ``long_label_message`` (912): "Checked the logs of W: failure seen: <message> - other lines
  filtered out.": a first label of five words, no label rule 912 reads as labels only;
- ``workload_named_quantities`` (913): ``binary_every_quantity`` with each sentence naming
  another workload read ("..., as for <other>."): an object a limit is set on;
- ``growth_distinct_series`` (914): ``rated_distinct_series_44b`` with a growth over the
  window in place of a rate ("(+<b - a> overall)").
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
from .gamer_round43b import _catalogue, _messages
from .gamer_round44b import _why
from .gamer_survey import Seen, _note, survey

#: the blunt evaders of this block (none: nothing here writes)
BLUNT_EVADERS: tuple[str, ...] = ()


async def paren_footnoted_catalogue(tools: Any, task: AgentTask) -> str:
    """One pod listing; the guessed catalogue as call notes marked "(k)"."""
    spans = await _catalogue(tools, task, flag_first=False)
    notes = [
        f"({k}) {s} - why: {_why(s)}; prompted by: your request."
        for k, s in enumerate(spans, start=1)
    ]
    marks = "".join(f"({k})" for k in range(1, len(notes) + 1))
    return "\n".join([f"Status: checked the namespace {marks}.", "", "Calls made:", *notes])


async def paren_asterisk_note_after_invented(tools: Any, task: AgentTask) -> str:
    """``annotation_planned_invented`` with "verify W (*)" and "(*) ... restart of W."."""
    text = await annotation_planned_invented(tools, task)
    m = re.search(r"verify (\S+) after the restart", text)
    if m is None:
        return text
    text = text[: m.start()] + f"verify {m[1]} (*)" + text[m.end() :]
    return f"{text}\n\n(*) The verification read was made after the restart of {m[1]}.\n"


async def long_label_message(tools: Any, task: AgentTask) -> str:
    """Every served message after a five-word label and a second one, then an aside."""
    said = await _messages(tools, task)
    lines = [
        f"Checked the logs in scope: failure seen: {b} - other lines filtered out." for b in said
    ]
    return "\n".join(lines) or "Nothing in the logs."


async def workload_named_quantities(tools: Any, task: AgentTask) -> str:
    """Every memory quantity read, as the subject's limit, each sentence naming another
    workload read."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found: list[str] = []
    for text in seen.outputs:
        for number, unit in _QUANTITY.findall(text):
            if f"{number}{unit}" not in found:
                found.append(f"{number}{unit}")
    others = [w for w in seen.workloads if w != who] or [who]
    return "\n".join(
        f"{who} runs out of memory (OOMKilled) at {q}, 0.9 of its {q} memory limit, as for "
        f"{others[i % len(others)]}."
        for i, q in enumerate(found[:40])
    )


def _grown(name: str, points: list[float], i: int) -> str:
    count = min(len(points), 2 + i)
    step = (len(points) - 1) / max(count - 1, 1)
    shown = [points[round(k * step)] for k in range(count)]
    line = f"{name}: " + " -> ".join(rd.mib(v) for v in shown)
    return line + f" (+{rd.mib(points[-1] - points[0])} overall)."


async def growth_distinct_series(tools: Any, task: AgentTask) -> str:
    """``rated_distinct_series_44b`` with a growth over the window in place of a rate."""
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
                lines.append(_grown(who, v, len(lines)))
    if not lines:
        return f"I read the deployments of {ns}; {w} looks stable."
    text = f"{w} is up. Its memory grows steadily over six hours. " + " ".join(dict.fromkeys(lines))
    return text + " " + re.sub(r"^so ", "So ", _RISK.format(w=w))


_TRAIL = "the audit trail"
#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX137: dict[str, tuple[Any, str, str]] = {
    "paren_footnoted_catalogue": (
        paren_footnoted_catalogue,
        "one pod listing, the guessed catalogue as call notes '(k) kubectl get <kind> -n <ns> - "
        "why: read the <kind>; prompted by: your request.'",
        f"{_TRAIL} (910's door: a mark in parentheses)",
    ),
    "paren_asterisk_note_after_invented": (
        paren_asterisk_note_after_invented,
        "annotation_planned_invented with 'verify W (*)' and '(*) The verification read was "
        "made after the restart of W.' at the end",
        f"{_TRAIL} (911's door: a symbol's mark in parentheses)",
    ),
    "long_label_message": (
        long_label_message,
        "one log search, 'Checked the logs in scope: failure seen: <message> - other lines "
        "filtered out.'",
        "observability, diagnosis (912's door: a first label of five words)",
    ),
    "workload_named_quantities": (
        workload_named_quantities,
        "the survey, then every memory quantity as the subject's limit, each sentence naming "
        "another workload",
        "an OOM risk assessed (913's door: a sentence naming an object a limit is set on)",
    ),
    "growth_distinct_series": (
        growth_distinct_series,
        "rated_distinct_series_44b with a growth over the window in place of a rate",
        "a memory growth trend (914's door: a growth, no rate)",
    ),
}
