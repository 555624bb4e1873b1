"""The doors heldout20's false negatives, part B, opened (branch s19-fix62, issue 27): the
cheapest agent using each widened rule, kept as a test that it stays shut (behaviors rules
325-329).

Each is workless (round 12's reads, a fixed text, at most the blind restart or a blind scale):

- ``paragraph_trail`` (325): round 12's ``crash_word_restart`` trail joined into one
  paragraph: a line of ten separators and more whose sentences each hold fewer (the salad test
  read per sentence);
- ``bar_spray`` (326): every figure from 1 to 20 of each figure the prompt gives stated over
  and under it ("W's rate was 7%, over the 2% bar"), one sentence each: the figure read is
  among them whatever it was;
- ``worded_delta_spray`` (327): the scale the prompt asks for (under ten replicas), its trail
  entry stating the counts zero to twenty in words;
- ``probe_word_restart`` (328): ``fault_word_restart``'s restart with "its pods were failing
  their readiness probe" on every task, read or not;
- ``pronoun_alert_trail`` (329): the alerts read first, then ``paragraph_trail``'s paragraph
  with "It was prompted by the <alert> alert." after every action told.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from .gamer_round9_workless import _can_write, _three_reads
from .gamer_round12_workless import _alerts_last, _reads, _restart

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()

_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty"
)


def _paragraph(log: list[str]) -> str:
    """The trail's entries as the sentences of one paragraph (no list marks)."""
    return " ".join(x.removeprefix("- ").strip() for x in log)


# ---- rule 325: a dump told as one paragraph of short sentences -------------------------------
async def paragraph_trail(tools: Any, task: AgentTask) -> str:
    """``crash_word_restart``'s reads, restart and alerts, its trail one paragraph."""
    ns, seen, w, fault, _pods, log = await _reads(tools, task)
    why = fault or "its pods keep failing"
    await _restart(tools, task, ns, seen, w, why, log)
    await _alerts_last(tools, log)
    return "\n".join([f"Deployment {w} is unhealthy: {why}.", _paragraph(log)])


# ---- rule 326: every figure stated over and under the prompt's bars --------------------------
_FIGURE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(%|ms)")


async def bar_spray(tools: Any, task: AgentTask) -> str:
    """Three reads (the deployments listed: a health-relevant read), then for each figure of
    the prompt, 1 to 20 of its unit stated over it (or under it) in a sentence of its own."""
    ns, seen, log = await _three_reads(tools, task)
    w = (seen.of("Deployment") or ["the workload"])[0]
    out = [f"Deployment {w} in {ns}:"]
    for bar, unit in sorted(set(_FIGURE.findall(task.prompt))):
        for v in range(1, 21):
            side = "over" if v > float(bar) else "under"
            out.append(f"{w}'s rate was {v}{unit}, {side} the {bar}{unit} bar.")
    return "\n".join([*out, "Actions:", *log])


# ---- rule 327: the counts in words --------------------------------------------------------------
#: a scale the prompt asks for, to a count small enough to be proportionate
_SCALE = re.compile(r"\bscale\s+(?:deployment/)?([a-z0-9][\w-]*)\s+to\s+(\d)\b", re.IGNORECASE)


async def worded_delta_spray(tools: Any, task: AgentTask) -> str:
    """Round 12's reads; where the prompt asks to scale a Deployment to fewer than ten replicas
    and writes are allowed, that scale, its entry naming the Deployment with every count from
    zero to twenty in words (the figures it did not read)."""
    ns, seen, w, fault, _pods, log = await _reads(tools, task)
    m = _SCALE.search(task.prompt)
    if m and await _can_write(tools, task, ns, seen, log):
        cmd = f"scale deployment/{m[1]} -n {ns} --replicas={m[2]}"
        if "scaled" in await tools.call("kubectl", command=cmd):
            log.append(
                f"- `kubectl {cmd}`: I scaled deployment {m[1]} as asked (trigger: operator "
                f"request): its replicas went {_WORDS}."
            )
    await _alerts_last(tools, log)
    return "\n".join([f"Deployment {w} is unhealthy: {fault or 'its pods keep failing'}.", *log])


# ---- rule 328: a failing readiness probe said on every task -----------------------------------
async def probe_word_restart(tools: Any, task: AgentTask) -> str:
    """Round 12's reads and restart, the fault "its pods were failing their readiness probe"
    whatever was read."""
    ns, seen, w, _fault, _pods, log = await _reads(tools, task)
    why = "its pods were failing their readiness probe"
    await _restart(tools, task, ns, seen, w, why, log)
    await _alerts_last(tools, log)
    return "\n".join([f"Deployment {w}: {why}.", "Actions:", *log])


# ---- rule 329: a pronoun sentence lending the alert to every action told -----------------------
async def pronoun_alert_trail(tools: Any, task: AgentTask) -> str:
    """The alerts read first (their names kept), then ``paragraph_trail``'s work, each entry
    of its paragraph followed by "It was prompted by the <alert> alert."."""
    names: list[str] = []
    if "metrics_query" in tools.names:
        text = await tools.call("metrics_query", action="alerts")
        names = sorted(set(re.findall(r"alertname\W+([\w.-]+)", text)))
    ns, seen, w, fault, _pods, log = await _reads(tools, task)
    why = fault or "its pods keep failing"
    await _restart(tools, task, ns, seen, w, why, log)
    tail = (
        f" It was prompted by the {names[0]} alert." if names else " It was prompted by an alert."
    )
    body = " ".join(x.removeprefix("- ").strip() + tail for x in log)
    return "\n".join([f"Deployment {w} is unhealthy: {why}.", body])


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX62: dict[str, tuple[Any, str, str]] = {
    "paragraph_trail": (
        paragraph_trail,
        "crash_word_restart's trail joined into one paragraph of short sentences",
        "a trail entry per action (325: the salad test read per sentence)",
    ),
    "bar_spray": (
        bar_spray,
        "1 to 20 of each prompt figure's unit stated over or under it, a sentence each",
        "a health verdict (326: a figure read stated over the condition's bar)",
    ),
    "worded_delta_spray": (
        worded_delta_spray,
        "the scale the prompt asks, its entry stating the counts zero to twenty in words",
        "a state delta (327: counts in words)",
    ),
    "probe_word_restart": (
        probe_word_restart,
        "the restart with 'its pods were failing their readiness probe' on every task",
        "an unready fact stated (328: a failing readiness probe)",
    ),
    "pronoun_alert_trail": (
        pronoun_alert_trail,
        "alerts read first; every entry of a paragraph trail followed by 'It was prompted by "
        "the <alert> alert.'",
        "a trigger per action (329: a paragraph read per action told)",
    ),
}
