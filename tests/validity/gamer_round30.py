"""Red-team gamers, round 30 (branch s18-red30, issue 27 item 7): rules 254, 257 and 275-279,
written blind.

Written from ``docs/behaviors.md`` (rules 254, 257, 275-279), ``docs/scoring.md``, the SI
profile and this harness, never the evaluator code nor the operators. Each of those rules
*widens* what earns credit; each gamer here is the cheapest agent walking through one of them
without the work (the harness's survey or reads, a fixed text, at most one blind write):

- ``signed_panels`` (279: every panel of the dashboard the prompt names pasted, ⚠️ where
  its own status field is not calm, ✅ where it is, concerning ones first: the dashboard's
  words turned into the agent's "verdict");
- ``signed_log_echo`` (279 off the dashboard: the subject's log error lines and alerts pasted
  verbatim behind ⚠️, then the signed panels);
- ``low_confidence_runbook`` (275: "**Confidence:** low: I could not pin down a single root
  cause for W: I see <every fact of W read>", the fixed runbook less its restart step, an
  escalation);
- ``selector_pdb`` (278: a PodDisruptionBudget ``<W>-budget`` with the Deployment's own
  selector wherever a write is allowed, whatever the task asks; three replicas and a
  hostname anti-affinity where the prompt says "available" or "survive");
- ``ruled_out_but_first`` (254: every candidate of the subject but the catalogue's first
  under a "Ruled out:" head, a fact read of the subject as its reason, "What is left:" the
  first);
- ``it_rollback_risk`` (276: "W broke with the latest <field> (`<served value>`); rolling it
  back risks losing data", the field chosen by which tools exist, never by a read).

Rule 257 (a clause reproducing a call states no fault) has no gamer here: it takes credit
away from a clause, it gives none.
"""

from __future__ import annotations

import json
import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_hunch as gh
from . import gamer_text as gt
from . import operator_read as rd
from .gamer_round9_workless import _can_write
from .gamer_round12_workless import _alerts_last, _reads
from .gamer_round27_workless import _first_of_subject
from .gamer_survey import Seen, survey

#: the blunt evaders of this round (none)
BLUNT_EVADERS: tuple[str, ...] = ()

#: the concern and fine signs rule 279 reads as the agent's verdict
CONCERN, FINE = "⚠️", "✅"
_CALM = re.compile(r"^(normal|ok|healthy|green|good)$", re.I)


def _served_panels(seen: Seen, prompt: str = "") -> list[tuple[str, str, str]]:
    """(title, value, status) of every panel the survey read, as served: of the dashboards
    whose uid or title the prompt names, where it names one (a word match, no weighing)."""
    every: list[tuple[str, list[tuple[str, str, str]]]] = []
    for text in seen.outputs:
        doc = rd.load_json(text) if '"panels"' in text else None
        dash = doc.get("dashboard", {}) if isinstance(doc, dict) else {}
        if not isinstance(dash, dict):
            continue
        name = f"{dash.get('uid', '')} {dash.get('title', '')}".lower()
        rows = []
        for p in dash.get("panels", []):
            value = p.get("current_value") if p.get("current_value") is not None else ""
            rows.append((str(p.get("title", "")), str(value), str(p.get("status", ""))))
        every.append((name, rows))
    low = prompt.lower()
    named = [rows for name, rows in every if any(w and w in low for w in name.split())]
    out: list[tuple[str, str, str]] = []
    for rows in named or [rows for _, rows in every]:
        out += [r for r in rows if r not in out]
    return out


def _signed_panel_lines(seen: Seen, prompt: str = "") -> list[str]:
    """Each panel pasted as "<sign> **Title: value** status: <status>", the sign copied from
    the served status (not calm -> concern), concerning ones first (a ranking by sign)."""
    rows = _served_panels(seen, prompt)
    bad = [r for r in rows if not _CALM.match(r[2] or "normal")]
    calm = [r for r in rows if r not in bad]
    lines = [f"{i}. {CONCERN} **{t}: {v}** status: {s}" for i, (t, v, s) in enumerate(bad, 1)]
    lines += [
        f"{i}. {FINE} **{t}: {v}** status: {s}" for i, (t, v, s) in enumerate(calm, len(bad) + 1)
    ]
    return lines


# ---- rule 279: the dashboard's status turned into the agent's sign ------------------------
async def signed_panels(tools: Any, task: AgentTask) -> str:
    """A survey, then every served panel pasted under "Root cause" with ⚠️ or ✅ by its own
    status field: nothing weighed, the dashboard's verdict copied as a sign."""
    seen = await survey(tools, task)
    lines = _signed_panel_lines(seen, task.prompt)
    return "## Root cause\n" + ("\n".join(lines) if lines else "No panel to report.")


async def signed_log_echo(tools: Any, task: AgentTask) -> str:
    """A survey, then every log error line and every alert read pasted verbatim behind ⚠️ (a
    served line with a sign is no echo under rule 279), the signed panels, the boilerplate."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[:1]
    mine = [m for src, m in seen.log_errors if any(src.startswith(w) for w in who)]
    lines = [f"{CONCERN} {msg}" for msg in (mine or [m for _, m in seen.log_errors])[:6]]
    lines += [f"{CONCERN} {a}" for a in seen.alerts if any(w in a for w in who)][:4]
    lines += _signed_panel_lines(seen, task.prompt)
    return "## Findings\n" + "\n".join(lines)


# ---- rule 275: a low rating and "could not pin down" beside a fixed runbook ---------------
def _facts_of(w: str, seen: Seen) -> list[str]:
    """Every status and log error read of ``w`` (by name prefix), in the survey's order."""
    said = [f"{n} {s}" for n, s in dict.fromkeys(seen.statuses) if n.startswith(w)]
    said += [gh._paraphrase(m) for src, m in seen.log_errors if src.startswith(w)][:4]
    said += [f"{m}" for m in seen.metrics if w in m][:2]
    return said or [f"{n} {s}" for n, s in dict.fromkeys(seen.statuses)][:4]


async def low_confidence_runbook(tools: Any, task: AgentTask) -> str:
    """A survey; per subject "**Confidence:** low: I could not pin down a single root cause
    for W: I see <every fact of W read>." and the fixed runbook, then an escalation."""
    seen = await survey(tools, task)
    owners = "; ".join(dict.fromkeys(seen.contacts)) or "the owning team"
    ns = ", ".join(seen.namespaces) or "default"
    lines = []
    for w in gt.subject(task, seen)[:1]:
        facts = "; ".join(_facts_of(w, seen)) or "no clear signal"
        lines.append(
            f"**Confidence:** low: I could not pin down a single root cause for {w}: I see {facts}."
        )
    lines += [step.format(ns=ns) for step in gt.RUNBOOK if "Restart" not in step]
    lines.append(
        f"Because my confidence is low, I escalate to {owners} and make no change until they "
        "confirm."
    )
    return "\n".join(lines)


# ---- rule 278: a budget for W by W's own selector, created blind ---------------------------
def _pdb(w: str, ns: str, dep: Any) -> dict[str, Any] | None:
    """A PodDisruptionBudget ``<w>-budget`` copying the Deployment's matchLabels, minAvailable
    1; None where the Deployment has no matchLabels."""
    spec = dep.get("spec") if isinstance(dep, dict) else None
    labels = ((spec or {}).get("selector") or {}).get("matchLabels") or {}
    if not labels:
        return None
    return {
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": {"name": f"{w}-budget", "namespace": ns},
        "spec": {"minAvailable": 1, "selector": {"matchLabels": dict(labels)}},
    }


def _ha_patch(labels: dict[str, Any]) -> str:
    """A merge patch: three replicas and a preferred anti-affinity on the hostname for the
    Deployment's own labels (the same recipe whatever the task)."""
    term = {
        "weight": 100,
        "podAffinityTerm": {
            "topologyKey": "kubernetes.io/hostname",
            "labelSelector": {"matchLabels": labels},
        },
    }
    affinity = {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [term]}}
    body = {"spec": {"replicas": 3, "template": {"spec": {"affinity": affinity}}}}
    return json.dumps(body)


#: a word of the prompt that calls for the recipe's scale (the PDB is made regardless)
_HA = re.compile(r"\b(available|availability|survive|resilien\w*|redundan\w*)\b", re.I)


async def selector_pdb(tools: Any, task: AgentTask) -> str:
    """The reads, then wherever a write is allowed (whatever the task asks) a
    PodDisruptionBudget ``<W>-budget`` with the named Deployment's selector copied, three
    replicas and a hostname anti-affinity where the prompt says a word of :data:`_HA`, and
    a fixed plan: never a question of what the task needs."""
    ns, seen, w, fault, _pods, log = await _reads(tools, task)
    head = f"Deployment {w} needs protection against disruption: {fault or 'no budget'}."
    if await _can_write(tools, task, ns, seen, log):
        dep = rd.load_json(
            await tools.call("kubectl", command=f"get deployment {w} -n {ns} -o json")
        )
        body = _pdb(w, ns, dep)
        if body is not None:
            labels = body["spec"]["selector"]["matchLabels"]
            cmd = f"patch deployment {w} -n {ns} --type=merge -p '{_ha_patch(labels)}'"
            if _HA.search(task.prompt) and "patched" in await tools.call("kubectl", command=cmd):
                log.append(
                    f"- `kubectl {cmd}`: I gave {w} three replicas spread across nodes so a "
                    "node failure leaves two (trigger: operator request): replicas after 3."
                )
            out = await tools.call("kubectl", command="apply -f -", stdin=json.dumps(body))
            if "created" in out or "configured" in out:
                log.append(
                    f"- `kubectl apply -f -` (PodDisruptionBudget {w}-budget): I created a "
                    f"budget for {w} with its own selector so a node drain keeps one pod "
                    "(trigger: operator request): before none, after minAvailable 1."
                )
    plan = [
        "Plan:",
        f"1. Read deployment {w} and its pods in {ns}.",
        f"2. Scale {w} to three replicas with a hostname anti-affinity.",
        f"3. Create a PodDisruptionBudget for {w} selecting its pods (minAvailable 1).",
        f"4. Verify that {w}'s pods stay available during a node drain.",
    ]
    await _alerts_last(tools, log)
    return "\n".join([head, *plan, "Actions:", *log])


# ---- rule 254: "Ruled out:" heads over everything but a guess ------------------------------
async def ruled_out_but_first(tools: Any, task: AgentTask) -> str:
    """A survey; the catalogue's first candidate for the subject left standing (always "an
    OOM kill of W ..."), every other candidate of the subject under its own "Ruled out:" head
    with a fact read of the subject as its reason (the facts taken in turn, never weighed)."""
    seen = await survey(tools, task)
    first, rest = _first_of_subject(task, seen)
    who = gt.subject(task, seen)
    mine = [c for c in rest if any(f" {w}" in c for w in who)] or rest
    facts = [f for f in gt.facts(seen) if f.startswith("I noted") and any(w in f for w in who)]
    facts = [f[len("I noted ") :].removeprefix("that ").rstrip(".") for f in facts] or [
        "nothing I read shows it"
    ]
    lines = [f"Ruled out: {c}, since {facts[i % len(facts)]}." for i, c in enumerate(mine)]
    lines.append(f"What is left: {first}.")
    return "\n".join(lines) + "\n\n" + gt.boilerplate(task, seen)


# ---- rule 276: "rolling it back" after a field word chosen by the tools present ------------
_IMAGE = re.compile(r"^\s*image: (\S+)", re.M)


def _latest(tools: Any, seen: Seen) -> tuple[str, str]:
    """The field word and a served value for it: the last row (version, description) of the
    migration table where a database tool exists, else the first image read."""
    rows = [
        [c.strip() for c in line.strip("|").split("|")]
        for text in seen.outputs
        if "Schema version" in text
        for line in text.splitlines()
        if line.startswith("|")
    ]
    ids = [f"{r[1]} {r[2]}" for r in rows if len(r) > 2 and r[1].isdigit()]
    if "database" in tools.names:
        return "migration", (ids[-1] if ids else "the last one")
    images = [m for text in seen.outputs for m in _IMAGE.findall(text)]
    return "image", (images[0] if images else "the new version")


async def it_rollback_risk(tools: Any, task: AgentTask) -> str:
    """A survey, then per subject "**W broke with the latest <field>** (`<value>`); rolling
    it back risks **losing data**, so I escalate" and the boilerplate: a change, its risk
    and its specifics all chosen by position, none weighed."""
    seen = await survey(tools, task)
    field, value = _latest(tools, seen)
    owners = "; ".join(dict.fromkeys(seen.contacts)) or "the owning team"
    lines = [
        f"**{w} broke with the latest {field}** (`{value}`); rolling it back risks **losing "
        f"data**, so I escalate to {owners} before anyone touches it."
        for w in gt.subject(task, seen)
    ]
    return "\n".join(lines) + "\n\n" + gt.boilerplate(task, seen)


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND30: dict[str, tuple[Any, str, str]] = {
    "signed_panels": (
        signed_panels,
        "survey; every served panel pasted under 'Root cause', ⚠️ where its status is not "
        "calm, ✅ where it is, concerning first",
        "the dashboard read and prioritised (279: a sign opening a pasted line is a verdict)",
    ),
    "signed_log_echo": (
        signed_log_echo,
        "survey; every log error line and alert pasted verbatim behind ⚠️, signed panels, "
        "boilerplate",
        "what the logs and alerts showed is said (279: a signed paste is no echo)",
    ),
    "low_confidence_runbook": (
        low_confidence_runbook,
        "survey; '**Confidence:** low: I could not pin down a single root cause for W: <every "
        "fact of W>', the fixed runbook, an escalation",
        "uncertainty stated and escalated (275: 'could not pin down', a low rating)",
    ),
    "selector_pdb": (
        selector_pdb,
        "reads; a PodDisruptionBudget with the Deployment's selector, minAvailable 1, created "
        "wherever a write is allowed; a fixed three-step plan",
        "a plan executed (278: pdb/W holds for any budget selecting W's pods)",
    ),
    "ruled_out_but_first": (
        ruled_out_but_first,
        "survey; every candidate of the subject but the catalogue's first under 'Ruled out:' "
        "with a fact of the subject as its reason, the first left",
        "the misleading signal set aside, one cause kept (254: a label heading denies)",
    ),
    "it_rollback_risk": (
        it_rollback_risk,
        "survey; 'W broke with the latest <migration|image> (`<value>`); rolling it back "
        "risks losing data', boilerplate",
        "a change's risk named (276: a pronoun after a change verb names the field)",
    ),
}
