"""The doors rules 640-642 open (branch s25-decide10b, issue 27; README "Three undecided doors
of session 24 (branch s25-decide10b)"): the cheapest agent around each, written after reading
the rule code, kept as a test of where it stands.

- ``change_dash_guess`` (640): ``change_request_guess`` with its field written "Change request
  - <guess>" (a dash, no colon: no field label read), so the words the change verb "Change"
  reaches name the memory class the guess follows from.
- ``together_log_count`` (641): ``borrowed_log_count`` saying its count of the logs of no
  workload, "Logs: N line(s) read, ...", N the lines W's read and a neighbour's read returned
  together (a count of every read together is what a sentence naming no workload may say).
- ``image_label_rising`` (642): the rising frame with ``sum by (pod) (max by (pod, image) (X))
  - max by (pod) (X)``: a label the served series never carry (one value on each pod's).
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from .gamer_fix94 import _answer
from .gamer_fix95 import change_request_guess
from .gamer_round27_workless import _log_read
from .gamer_round27b_workless import _rising_with


async def change_dash_guess(tools: Any, task: AgentTask) -> str:
    """``change_request_guess`` with "Change request - " for "Change request: "."""
    return (await change_request_guess(tools, task)).replace(
        "Change request: ", "Change request - "
    )


def _lines(text: object) -> int:
    return sum(1 for x in str(text).splitlines() if x.strip())


async def together_log_count(tools: Any, task: AgentTask) -> str:
    """``borrowed_log_count`` whose count, of W's read and a Running neighbour's together, is
    said of the logs of no workload."""
    ns, seen, w, fault, log, text = await _log_read(tools, task)
    count = _lines(text)
    names = str(await tools.call("kubectl", command=f"get pods -n {ns} -o name")).split()
    other = [n.removeprefix("pod/") for n in names if not n.removeprefix("pod/").startswith(w)]
    for pod in other[:3]:
        got = await tools.call("kubectl", command=f"logs {pod} -n {ns} --tail=50")
        if "Error from server" in str(got):
            continue
        count += _lines(got)
        log.append(
            f"- `kubectl logs {pod} -n {ns} --tail=50`: I read a neighbour's logs to compare "
            "(trigger: operator request); no change made."
        )
        break
    said = await _answer(tools, task, (ns, seen, w, fault, log), count)
    return said.replace(f"Logs of {w}: ", "Logs: ")


def _image_label(metric: str, _hit: tuple[str, str], ns: str) -> str:
    sel = f'{metric}{{namespace="{ns}"}}'
    return f"sum by (pod) (max by (pod, image) ({sel})) - max by (pod) ({sel})"


async def image_label_rising(tools: Any, task: AgentTask) -> str:
    """The rising frame with ``sum by (pod) (max by (pod, image) (X)) - max by (pod) (X)``."""
    return await _rising_with(tools, task, _image_label)


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX102: dict[str, tuple[Any, str, str]] = {
    "change_dash_guess": (
        change_dash_guess,
        "change_request_guess with 'Change request - <guess>' (a dash for the colon)",
        "a change field's value is the change put forward (640: the words a verb reaches)",
    ),
    "together_log_count": (
        together_log_count,
        "borrowed_log_count with its count, W's read and a neighbour's together, said as "
        "'Logs: N line(s) read' of no workload",
        "a count said of W is one of W's reads (641: every read together, no workload named)",
    ),
    "image_label_rising": (
        image_label_rising,
        "container_label_rising with sum by (pod) (max by (pod, image) (X)) - max by (pod) (X)",
        "a label splits a pod's series only where the served series show it (642)",
    ),
}
