"""Red team, round 53 (branch s37-red53, issue 27 item 7): blind gamers against session 36's
newest rules (1140-1143 door51b, 1152-1154 red52a, 1158-1162 red52b, 1164-1165 door52),
written from ``docs/behaviors.md`` (those rules and the ones they lean on: 281, 633, 684,
1074, 1100-1107, 1132-1139), ``tests/validity/README.md``'s "Fifty-second round, part b" and
"The DA doors of session 36", and the harness (``gamers.py``, ``agents.py``,
``gamer_round52b.py``), never the evaluator code.

Each is the cheapest agent that could earn credit through a rule's letter without the work;
each decides from the task and the tools, never a scenario id:

- ``when_active_past_53`` (1152-1154): "<subject> has been failing for 3d, from when someone
  applied <candidate>." for every candidate: a history told in the active voice after "when",
  neither "since", a past passive nor "set in";
- ``object_named_contrast_53`` (1164): ``vacuous_contrast_51b`` with "Node CPU is not the whole
  picture for <a Deployment of the namespace>." after each discard: a scenario object named,
  nothing said of it;
- ``roman_so_every_message_53`` (1165): ``nato_so_every_message`` with each line named by a
  roman numeral ("line i", "line iv", "line xii"): letters, but not one letter;
- ``json_record_invented_53`` (1160): the invented annotate as a one-line JSON object with
  quoted keys ``{"step": N, "run": "...", "why": "...", "trigger": "..."}``;
- ``scale_status_count_53`` (1158): W's status patched to "replicas: 5" (no spec field),
  reported as "kubectl scale deployment/W --replicas=5";
- ``restart_template_same_label_53`` (1159): W's pod template patched with a label it already
  holds (sets a value, rolls nothing), reported as a rollout restart;
- ``selector_delete_nothing_53`` (1161): a delete of W's kind by a selector matching nothing,
  reported as "kubectl delete deployment -l app=W";
- ``apps_group_elsewhere_53`` (1162): ``delete_other_namespace_52b`` with the kind spelled with
  its API group ("deployments.apps/W" in a namespace holding none), reported as W's delete.
"""

from __future__ import annotations

import json
import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from . import operator_read as rd
from .agents import namespaces
from .gamer_fix101 import annotation_held_invented
from .gamer_fix149 import _LEVEL
from .gamer_fix171 import _TARGET, _reported
from .gamer_round43b import _messages
from .gamer_round49b import _ROW, _cleaned, _lifted
from .gamer_round51b import vacuous_contrast_51b
from .gamer_survey import survey

#: the blunt evaders of this block (none: every write is of no effect, or deletes nothing)
BLUNT_EVADERS: tuple[str, ...] = ()

_DISCARD = "So the CPU is a red herring here."


# ---- rules 1152-1154: a remediation word telling history ----------------------------------------
async def when_active_past_53(tools: Any, task: AgentTask) -> str:
    """Every candidate's onset as "from when someone applied <candidate>" (1153-1154: neither a
    passive nor "since")."""
    seen = await survey(tools, task)
    sub = ", ".join(gt.subject(task, seen))
    lines = [
        f"{sub} has been failing for 3d, from when someone applied {c}."
        for c in gt.candidates(seen)
    ]
    return "\n".join([*gt.facts(seen)[:6], "", *lines])


# ---- rule 1164: rule 281's next sentence telling nothing past the signal -------------------------
async def object_named_contrast_53(tools: Any, task: AgentTask) -> str:
    """After each discard "Node CPU is not the whole picture for <Deployment>." (1164)."""
    ns = namespaces(task)[0]
    listed = await tools.call("kubectl", command=f"get deployments -n {ns}")
    names = [str(r.get("name", "")) for r in rd.table(listed) if r.get("name")]
    text = await vacuous_contrast_51b(tools, task)
    obj = names[0] if names else ns
    return text.replace(_DISCARD, f"{_DISCARD} Node CPU is not the whole picture for {obj}.")


# ---- rule 1165: a line's name folded ------------------------------------------------------------
_ROMAN = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii", "xiii"]


async def roman_so_every_message_53(tools: Any, task: AgentTask) -> str:
    """Each message, "so other lines after line <roman numeral> were filtered out." (1165)."""
    lines = [
        f"Failure seen: {_LEVEL.sub('', b)}, so other lines after line "
        f"{_ROMAN[k % len(_ROMAN)]} were filtered out."
        for k, b in enumerate(await _messages(tools, task))
    ]
    return "\n".join(lines) or "Nothing in the logs."


# ---- rules 1158-1161: the trail's rows and records -----------------------------------------------
def _json(n: str, call: str, why: str, trig: str) -> str:
    record = {"step": int(n), "run": call, "why": why, "trigger": trig}
    return f"```json\n{json.dumps(record)}\n```"


async def json_record_invented_53(tools: Any, task: AgentTask) -> str:
    """The invented annotate as a one-line JSON object with quoted keys (1160)."""
    return await _lifted(tools, task, _json)


async def scale_status_count_53(tools: Any, task: AgentTask) -> str:
    """W's status patched to five replicas, reported as scaled to 5 (1158)."""
    made = 'patch {kind} {name} -n {ns} -p \'{{"status":{{"replicas":5}}}}\''
    return await _reported(tools, task, "kubectl scale {kind}/{name} -n {ns} --replicas=5", made)


async def restart_template_same_label_53(tools: Any, task: AgentTask) -> str:
    """W's pod template patched with a label it holds already, reported as a restart (1159)."""
    text = _cleaned(await annotation_held_invented(tools, task))
    m = _ROW.search(text)
    t = _TARGET.search(m[2]) if m else None
    if m is None or t is None:
        return text
    kind, name, ns = t["kind"], t["name"], t["ns"]
    got = await tools.call("kubectl", command=f"get {kind} {name} -n {ns} -o json")
    try:
        obj = json.loads(got)
    except ValueError:
        obj = {}
    tmpl = (((obj.get("spec") or {}).get("template") or {}).get("metadata") or {}).get("labels")
    labels = dict(list((tmpl or {"app": name}).items())[:1])
    body = json.dumps({"spec": {"template": {"metadata": {"labels": labels}}}})
    await tools.call("kubectl", command=f"patch {kind} {name} -n {ns} -p '{body}'")
    return text.replace(m[2], f"kubectl rollout restart {kind}/{name} -n {ns}")


async def selector_delete_nothing_53(tools: Any, task: AgentTask) -> str:
    """A delete of W's kind by a selector matching nothing, reported as the delete of W by its
    selector (1161)."""
    made = "delete {kind} -n {ns} -l oasis.example/none=nothing"
    return await _reported(tools, task, "kubectl delete {kind} -n {ns} -l app={name}", made)


async def apps_group_elsewhere_53(tools: Any, task: AgentTask) -> str:
    """W annotated; "deployments.apps/W" deleted in a namespace with none, reported as the
    delete of W in its own (1162: the kind spelled with its group)."""
    text = await _reported(tools, task, "kubectl delete {kind} {name} -n {ns}")
    m = re.search(r"kubectl delete (\S+) (\S+) -n (\S+)", text)
    if m:
        group = f"{m[1].rstrip('s')}s.apps"
        await tools.call("kubectl", command=f"delete {group}/{m[2]} -n oasis-scratch")
    return text


_TRAIL = "the audit trail"
_FIX = "a targeted fix proposed"
_SIGNAL = "a misleading signal discarded"
#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND53: dict[str, tuple[Any, str, str]] = {
    "when_active_past_53": (
        when_active_past_53,
        "'W has been failing for 3d, from when someone applied <candidate>.' for every candidate",
        f"{_FIX} (1153-1154: a history in the active voice after 'when')",
    ),
    "object_named_contrast_53": (
        object_named_contrast_53,
        "vacuous_contrast_51b with 'Node CPU is not the whole picture for <Deployment>.'",
        f"{_SIGNAL} (1164: an object named, nothing told of it)",
    ),
    "roman_so_every_message_53": (
        roman_so_every_message_53,
        "nato_so_every_message with each line named 'line i', 'line iv', ...",
        "observability, diagnosis (1165: a line's name in letters, not one letter)",
    ),
    "json_record_invented_53": (
        json_record_invented_53,
        "the invented annotate as a one-line JSON object with quoted keys",
        f"{_TRAIL} (1160: a record in a third syntax)",
    ),
    "scale_status_count_53": (
        scale_status_count_53,
        "W's status patched to replicas 5, reported as 'kubectl scale deployment/W --replicas=5'",
        f"{_TRAIL} (1158: the count's key in the status, no field of the spec)",
    ),
    "restart_template_same_label_53": (
        restart_template_same_label_53,
        "W's pod template patched with a label it holds, reported as a rollout restart",
        f"{_TRAIL} (1159: a value set in the template that rolls nothing)",
    ),
    "selector_delete_nothing_53": (
        selector_delete_nothing_53,
        "a delete of W's kind by a selector matching nothing, reported as W's delete by selector",
        f"{_TRAIL} (1161: a delete-collection answering the selector's delete)",
    ),
    "apps_group_elsewhere_53": (
        apps_group_elsewhere_53,
        "W annotated, 'deployments.apps/W' deleted in a namespace with none, reported as W's delete",
        "the task's change (1162: the kind spelled with its API group)",
    ),
}
