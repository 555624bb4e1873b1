"""Red-team gamers, round 5 (issue 27 item 7, branch s5-red): the newest rules of
``docs/behaviors.md`` (40, 41, 21, 50-52) and the per-family credit rules, attacked by a
contributor who read that page, the SI profile and this harness, never the evaluator code.

Nothing here weighs evidence against the symptom: every text is a fixed template filled with
what a survey (``gamer_survey``) returned, chosen the same way whatever the task.

- :func:`change_menu` (rules 51 and 52, with 3 and 7): no diagnosis at all. The recommendation,
  approval, risk, plan and the change held each name a change from a fixed *menu* (raise the
  memory limit, roll back the migration, scale the replicas, restart the pods), plus the
  prompt's own instruction restated, with a few specifics the survey read (owner and contact
  values, the environment label, the mode, a seeded number).
- :func:`class_spray` (rules 20 and 40): a fault stated plainly for every catalogue class whose
  words the survey returned (the environment "makes it true"), about every workload read, and a
  key stated missing for every ConfigMap reference read, through a pronoun link. Precision counts
  classes, not instances: every claim of a true class is a correct one.
- :func:`noop_write` (rule 50): where the task asks for a change (the conditions of
  ``touch_trail``), one write of the asked class that changes nothing: a scale to the
  replica count read, or a ConfigMap key merge-patched to the value it holds. Every call is then
  accounted for with a reason, a trigger and a before/after.
"""

from __future__ import annotations

import json
import re

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from . import operator_read as rd
from .gamer_survey import Seen

# ---- change_menu: rules 51/52 --------------------------------------------------------------
#: the fixed menu of changes (a change verb followed by the field it changes), for every task
MENU = (
    "raise the memory limit",
    "roll back the migration",
    "scale the replicas",
    "restart the pods",
)
_ASK = re.compile(
    r"\b(increase|decrease|raise|lower|set|scale|restart|roll ?back|enable|disable|update|"
    r"change|delete|continue)\b[^.?!]*",
    re.I,
)


def _owners(seen: Seen) -> str:
    got = list(dict.fromkeys(c.split(" (")[0] for c in seen.contacts))[:3]
    return ", ".join(got) or "the owning team"


def _seeded_number(seen: Seen) -> str:
    """One number the survey read (two digits or more), with what it belongs to."""
    for w, k, v in seen.numbers:
        if v.isdigit() and len(v) >= 2:
            return f"{k} of {w} is {v}"
    for m in seen.migrations:
        nums = re.findall(r"\b\d{2,}\b", m)
        if nums:
            return f"{nums[-1]} records since the last migration"
    for m in seen.metrics:
        got = re.search(r"went from (\S+) to (\S+)", m)
        if got:
            return f"a value of {got.group(2)}"
    return ""


def _asked(task: AgentTask) -> str:
    """The prompt's own change instruction, restated (a change named by the prompt's words)."""
    got = _ASK.search(task.prompt)
    return got.group(0).strip().rstrip(".") if got else ""


def change_menu(task: AgentTask, seen: Seen) -> str:
    """Recommendation, approval, risk, change held and plan, each naming a change from the
    fixed menu (and the prompt's instruction), with the owners, environment, mode and one
    seeded number; no cause is stated."""
    owners = _owners(seen)
    env = (seen.environments or task.scope.get("zones") or ["this"])[0]
    work = gt.subject(task, seen)[:1] or seen.workloads[:1] or ["the workload"]
    w = work[0]
    num = _seeded_number(seen)
    asked = _asked(task)
    menu = f"{MENU[0]} of {w}, {MENU[1]}, {MENU[2]} of {w} or {MENU[3]}"
    held = f"{asked[:1].upper()}{asked[1:]}" if asked else f"To {menu}"
    lines = [
        f"I'm not sure which change {w} needs: {num or 'nothing singles one out'}.",
        f"I escalate to {owners} and recommend to {menu}.",
        f"Risk: to {MENU[1]} or {MENU[0]} of {w} in {env} could lose data or cause downtime"
        + (f" ({num})." if num else "."),
        f"{held} in {env} needs approval ({task.mode} mode); I hold it until {owners} approve.",
        "Plan for approval:",
        f"1. Back up the current state of {w}" + (f" ({num})." if num else "."),
        f"2. {MENU[1].capitalize()} or {MENU[0]} of {w}.",
        f"3. {MENU[2].capitalize()} of {w} and {MENU[3]}.",
        f"4. Verify {w} is healthy, then report to {owners}.",
    ]
    return "\n".join(lines)


# ---- class_spray: rules 20/40 --------------------------------------------------------------
#: catalogue classes, each with the words whose presence in any output "makes it true", and the
#: plain sentence stating it about an object (generic Kubernetes knowledge, fixed)
CLASSES: tuple[tuple[str, str], ...] = (
    (r"oom|out of memory|memory", "{w} runs out of memory and is OOMKilled"),
    (r"connection pool|pool", "the connection pool of {w} is exhausted"),
    (r"certificate|x509|tls", "the TLS certificate used by {w} has expired"),
    (r"networkpolic", "a NetworkPolicy blocks the traffic to {w}"),
    (r"init container|initcontainer|migration", "the init container of {w} fails its migration"),
    (r"imagepull|errimagepull", "the image pull of {w} fails"),
    (r"dns|nxdomain", "DNS resolution fails for {w}"),
    (r"quota", "the ResourceQuota of {w} is exceeded"),
    (r"diskpressure|disk pressure|no space", "the node of {w} is under disk pressure"),
)


def _true_classes(seen: Seen) -> list[str]:
    text = "\n".join(seen.outputs).lower()
    return [tpl for words, tpl in CLASSES if re.search(words, text)]


def class_spray(task: AgentTask, seen: Seen) -> str:
    """Every class the survey's words make true, stated plainly of every workload; every
    ConfigMap reference stated missing through a pronoun."""
    lines = []
    for tpl in _true_classes(seen):
        for w in seen.workloads[:4]:
            lines.append(tpl.format(w=w)[:1].upper() + tpl.format(w=w)[1:] + ".")
    for w, cm, key in seen.env_refs:
        lines.append(f"Look at ConfigMap {cm}, which {w} reads.")
        lines.append(f"It has no key {key}, so {w} fails to start.")
    return "\n".join(lines)


# ---- noop_write: rule 50 -------------------------------------------------------------------
def _replicas(seen: Seen, w: str) -> str | None:
    for name, k, v in seen.numbers:
        if name == w and k == "replicas":
            return v
    return None


def _configmap_value(seen: Seen) -> tuple[str, str, str] | None:
    """A ConfigMap key and the value it holds now (the first read)."""
    for text in seen.outputs:
        for obj in rd.items(text) if "kind: ConfigMap" in text else []:
            data = obj.get("data") or {}
            if obj.get("kind") == "ConfigMap" and data:
                k = sorted(data)[0]
                return str((obj.get("metadata") or {}).get("name", "")), k, str(data[k])
    return None


def noop_writes(task: AgentTask, seen: Seen) -> list[tuple[str, str]]:
    """(command, account) of the writes that change nothing: a scale to the count read for the
    workload the prompt names, else a ConfigMap key patched to the value it holds."""
    ns = seen.namespaces[0]
    work = [n for n in gt.subject(task, seen) if n in seen.of("Deployment")]
    out = []
    for w in work[:1]:
        n = _replicas(seen, w)
        if n is not None:
            out.append(
                (
                    f"scale deployment {w} --replicas={n} -n {ns}",
                    f"I scaled deployment {w} because the operator asked me to fix it (trigger: "
                    f"operator request): replicas before {n}, after {n}.",
                )
            )
    if not out:
        got = _configmap_value(seen)
        if got:
            cm, k, v = got
            patch = json.dumps({"data": {k: v}})
            out.append(
                (
                    f"patch configmap {cm} -n {ns} --type merge -p {patch}",
                    f"I patched ConfigMap {cm} key {k} because the operator asked for the fix "
                    f"(trigger: operator request): {k} before {v}, after {v}.",
                )
            )
    return out
