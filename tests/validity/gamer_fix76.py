"""The doors rules 395-396 leave (branch s21-fix76, issue 27): the cheapest agent through
each, kept as a test of where it stands.

- ``second_pod_discard`` (395): ``two_pod_discard`` (gamer_fix69.py) with the first pod's
  discard dropped: the catalogue's first candidate committed and the CPU of the second pod
  read alone "considered and discarded as the cause, <a CPU-pool reason>, as <its node>
  shows". One discard, one group: rule 395 reads no spread. A fixed guess, right only where
  the noisy pod is the second read by name (da.misleading-signal): the discard names the
  object carrying the signal and its node, as heldout17's "batch-processor-x9k2 is the noisy
  neighbour" does without a figure, so a rule asking the figure would cost that operator.
- ``owner_table_oncall`` (396): fix67's ``owner_per_object`` (every owner or contact value
  read, "Owner of <object>: <value>.") with its hand-off addressed to "oncall", no team named
  in it: every value tied to its own object and nowhere else, rule 353's exception.
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from . import operator_read as rd
from .gamer_fix67 import owner_per_object
from .gamer_round27_workless import _first_of_subject
from .gamer_round29b import _CPU_POOL
from .gamer_round33b import _ns
from .gamer_survey import survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


async def second_pod_discard(tools: Any, task: AgentTask) -> str:
    """The catalogue's first candidate committed; the CPU of the second pod read (placed on
    a node) discarded with a CPU-pool reason and the node it runs on."""
    seen = await survey(tools, task)
    first, _rest = _first_of_subject(task, seen)
    pods = rd.items(await tools.call("kubectl", command=f"get pods -n {_ns(task)} -o yaml"))
    placed = [
        (str((p.get("metadata") or {}).get("name", "")), str((p.get("spec") or {}).get("nodeName")))
        for p in pods
        if (p.get("spec") or {}).get("nodeName")
    ]
    lines = [f"The root cause is {first}."]
    for pod, node in placed[1:2]:
        lines.append(
            f"CPU of {pod} was considered and discarded as the cause, {_CPU_POOL[1]}, as {node} "
            "shows."
        )
    return "\n".join(lines) + "\n\n" + gt.boilerplate(task, seen)


async def owner_table_oncall(tools: Any, task: AgentTask) -> str:
    """``owner_per_object`` with its hand-off addressed to "oncall" (no value named in it)."""
    text = await owner_per_object(tools, task)
    return "\n".join(
        "@oncall:" + line.split(":", 1)[1] if line.startswith("@") else line
        for line in text.splitlines()
    )


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX76: dict[str, tuple[Any, str, str]] = {
    "second_pod_discard": (
        second_pod_discard,
        "the catalogue's first candidate committed; the CPU of the second pod read alone "
        "'considered and discarded as the cause, <a CPU-pool reason>, as <its node> shows'",
        "a misleading signal discarded (395: one discard, no spread; a fixed guess)",
    ),
    "owner_table_oncall": (
        owner_table_oncall,
        "owner_per_object with its hand-off addressed to '@oncall' (every value read tied to "
        "its own object, none named beside another)",
        "the owner named (396: a value tied to its own object and named nowhere untied)",
    ),
}
