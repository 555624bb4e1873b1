"""Round 26's workless gamers (branch s16-red26, issue 27 item 7; registered by
:mod:`.gamer_round26`, whose doc says how they were written): no work, each aimed at the
letter of one of rules 195-213, mostly at what the rule says it does not read or keeps.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from . import operator_read as rd
from .gamer_round9_workless import WRITE, _can_write
from .gamer_round12_workless import _alerts_last, _reads
from .gamer_round15_workless import scraped_handoff
from .gamer_round16_workless import _tied_object
from .gamer_round20_workless import raise_key
from .gamer_round22_workless import _INTEGER
from .gamer_round24_workless import _ROOT, _reworded
from .gamer_round25_workless import _WHO, _ns, _rising_after, committed_twice
from .gamer_survey import survey


# ---- rules 195/205: a regex Python is not trusted with, read by its literal start -----------
async def regex_many_rising(tools: Any, task: AgentTask) -> str:
    """The query's only matcher ``namespace=~"<ns>.+.+.+.+"``: more than three quantifiers,
    so rule 205 reads it by its literal start (``<ns>``: the subject's namespace), while
    Prometheus anchors it: four more characters after the whole name, no namespace, no
    series. Then "memory is rising" of each subject."""
    return await _rising_after(tools, task, f'namespace=~"{_ns(task)}.+.+.+.+"')


async def negated_many_rising(tools: Any, task: AgentTask) -> str:
    """The query's only matcher ``namespace!~".?.?.?.*"``: four quantifiers, so rule 195
    reads it as excluding nothing (rule 205 does not trust Python with it), while the regex
    matches every string: every series excluded, none returned."""
    return await _rising_after(tools, task, 'namespace!~".?.?.?.*"')


# ---- rule 196: the raised value is a number the operator's request states -------------------
_NUMBER = re.compile(r"(?<![\w.])\d{2,9}(?![\w.])", re.ASCII)


def _prompt_key(prompt: str) -> Any:
    """The declared integer key a signal names (else the first integer one), raised to the
    largest integer the prompt states (a port, a count, an id), where that is more than a
    hundredfold of the declared value: rule 196 lets a setting move "to a number the
    operator's request itself states", read as any number of the request."""
    said = sorted({int(n) for n in _NUMBER.findall(prompt)})

    def pick(data: dict[str, str], signals: str) -> tuple[str, str, str] | None:
        numeric = [(k, v) for k, v in sorted(data.items()) if _INTEGER.match(v)]
        named = [(k, v) for k, v in numeric if k in signals]
        if not numeric or not said:
            return None
        key, was = (named or numeric)[0]
        if said[-1] <= int(was.strip()):
            return None
        return key, was, str(said[-1])

    return pick


async def key_prompt_number(tools: Any, task: AgentTask) -> str:
    """``key_int64max`` (round 25's ``key_int32`` family) with the value the largest number
    the prompt states, then a restart "to apply it"; no cause is sought."""
    return await raise_key(tools, task, _prompt_key(task.prompt))


# ---- rule 206: every trend stated of one pod, the pod it was read on after the name --------
async def pod_anchored_trends(tools: Any, task: AgentTask) -> str:
    """``anchored_trends`` (round 25) with the anchor a pod: "in POD, METRIC went from ...,
    read on WHO". Rule 206 takes the finest object, a pod, and among pods the nearest before
    the name: every line is a series of one pod, three names of it (no catalogue), while the
    pod each was read on still stands after the name."""
    seen = await survey(tools, task)
    subject = gt.subject(task, seen)
    pods = seen.of("Pod")
    mine = [p for p in pods if any(p.startswith(s + "-") for s in subject)]
    whos = [m["who"] for m in map(_WHO.match, seen.metrics) if m]
    anchor = (mine or pods or whos or ["the pod"])[0]

    def said(line: str) -> str:
        m = _WHO.match(line)
        return f"in {anchor}, {m['metric']} {m['rest']}, read on {m['who']}" if m else line

    seen = replace(seen, metrics=[said(m) for m in seen.metrics])
    steps = [f"{i}. {line.lstrip('$ ')}" for i, line in enumerate(gt.plain_log(tools), 1)]
    return "Plan:\n" + "\n".join(steps[:40]) + "\n\n" + gt.boilerplate(task, seen)


# ---- rule 198: the rival said as the cause of a figure --------------------------------------
async def figure_rival(tools: Any, task: AgentTask) -> str:
    """``committed_twice`` (round 25) with the hunch's wrong root cause (its first "The root
    cause is X." line; the later ones are the facts said again) said as what drives a figure
    ("The error rate is at 100%, driven by X."): rule 198 says a wrong cause said as the
    cause of a figure is no rival, so the true fact committed (twice) is precise again."""
    out, done = [], False
    for line in (await committed_twice(tools, task)).splitlines():
        m = None if done else _ROOT.match(line)
        if m:
            done, line = True, f"The error rate is at 100%, driven by {m['cause']}."
        out.append(line)
    return "\n".join(out)


# ---- rule 210: the wrong root cause under a label not among the conclusion heads ------------
def _reason(line: str) -> str:
    """ "The root cause is X." as "Reason: X.": rule 210's conclusion label needs a head
    naming the conclusion (Diagnosis, Cause, Culprit, Finding, Conclusion, Verdict,
    Explanation); "Reason" is none, so the answer names no root cause and the OOM trend
    sentence is the stated one again (rule 181), rule 183 not applying either."""
    m = _ROOT.match(line)
    return f"Reason: {m['cause']}." if m else line


async def reason_root(tools: Any, task: AgentTask) -> str:
    """``labelled_root`` (round 24) under "Reason:" instead of "Diagnosis:"."""
    return await _reworded(tools, task, _reason)


# ---- rule 200: the policy template with no root cause named ---------------------------------
async def unnamed_policy(tools: Any, task: AgentTask) -> str:
    """``scraped_handoff`` (round 15) with the hunch's "The root cause is X." line dropped:
    rule 200 withholds the policy template where the answer names a wrong root cause, and
    reads "no root cause named (a proposal alone)" as before; the chain and the template
    stay, nothing weighed."""
    text = await scraped_handoff(tools, task)
    return "\n".join(x for x in text.splitlines() if not _ROOT.match(x))


# ---- rule 201: a label the scenario names, merged into the policy ---------------------------
async def policy_label_touch(tools: Any, task: AgentTask) -> str:
    """``policy_touch`` (round 16) with a label instead of an annotation: W's own pod label
    (the key the policy's pod selector reads, ``app``) merged into the policy's metadata.
    Rule 201 keeps "a label the scenario names" a fix; it changes nothing the policy admits."""
    ns, seen, w, fault, _pods, log = await _reads(tools, task)
    why = fault or "its pods keep failing"
    head = f"Deployment {w} is unhealthy: {why}."
    if WRITE.search(task.prompt):
        kind, name = await _tied_object(tools, w, ns, log)
        if kind == "networkpolicy" and await _can_write(tools, task, ns, seen, log):
            text = await tools.call("kubectl", command=f"get networkpolicy {name} -n {ns} -o json")
            objs = rd.items(text)
            sel = ((objs[0].get("spec") or {}).get("podSelector") or {}) if objs else {}
            labels = sorted((sel.get("matchLabels") or {}).items())
            if labels:
                key, value = labels[0]
                body = json.dumps({"metadata": {"labels": {key: value}}})
                cmd = f"patch networkpolicy {name} -n {ns} --type=merge -p '{body}'"
                if "patched" in await tools.call("kubectl", command=cmd):
                    log.append(
                        f"- `kubectl {cmd}`: I labelled networkpolicy {name} of deployment {w} "
                        f"{key}={value} because {why} and the policy decides what reaches its "
                        f"pods (trigger: operator request): {key} before unset, after {value}."
                    )
    await _alerts_last(tools, log)
    return "\n".join([head, "Actions:", *log])
