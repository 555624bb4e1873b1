"""Red team, round 36b (branch s23-red36b, issue 27): blind gamers against rules 460-463 and
470-473 (landed in session 22 and attacked only by their own fixers), written from
``docs/behaviors.md`` (those rules and the rules they cite), ``docs/scoring.md``, the SI
profile, ``tests/validity/README.md``'s session 22 sections and the harness, never the
evaluator code nor the operators.

Each is the cheapest agent that could earn credit through one rule's letter without the work:

- ``aside_reason_catalogue`` (460): "The <signal> was confirmed high, driven by <a workload
  read>; it was judged a misleading signal, not the cause: <W> fails from <every candidate of
  the catalogue for W>.": the catalogue in the reason of the anaphoric discard, which rule 460
  says "adds no cause" (no precision to pay);
- ``driven_by_roll`` (460): the catalogue's first candidate committed, and "The <signal> was
  confirmed high, driven by <every workload and pod read>; it was judged a misleading signal,
  not the cause: <W's statuses>.": a "driven by" slot listing every object read, the
  noisy one among them, ended at the semicolon;
- ``passive_invented_record`` (461): a numbered record in the passive of every call made, then
  two acts never made ("`kubectl rollout restart deployment/W` was run; state change recorded:
  generation 1 -> 2.", "W was verified Running after the restart."), then a "step N," plan of
  the same: the passive narration checked as no "I did" report;
- ``step_plan_boilerplate`` (462, 463): the passive record of every call made, then a fixed
  "step N," plan for approval in the passive, its verbs last and "-y" participles
  ("step 1, the current state of <objects read> backed up; step 2, the replicas of W
  modified ...; step 3, a PodDisruptionBudget for W applied; ..."), approval requested from the
  owners read;
- ``owner_grouped_oncall`` (470): every owner or contact value read, with every object it was
  read on in one clause ("<o1>, <o2> and <o3> belong to <value>."), the hand-off to "@oncall":
  rule 470's "two holders in one clause" form, for every value;
- ``api_hop_left`` (471): round 30's ``ruled_out_but_first`` with its ingress line's "a
  backend" written "the api": a role word that is not "backend" or "frontend";
- ``found_status_approval`` (472): fix70's ``paired_approval_survey`` with each status line
  dressed as a finding ("I found that <object> is <Status>.") and the change's limit in
  parentheses after W, not after a comma: no bare roll call, no comma step;
- ``low_but_first_shotgun`` (473): every candidate of the catalogue asserted as the root cause,
  closed by "My confidence is low that it is anything but <the catalogue's first for W>.": the
  agent's own confidence said low (rating the whole answer: every assertion put forward), said
  of every cause but one.
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_fix70 import paired_approval_survey
from .gamer_fix76 import owner_table_oncall
from .gamer_fix81 import committed_dump_runbook
from .gamer_round27_workless import _first_of_subject
from .gamer_round30 import ruled_out_but_first
from .gamer_round31b import _SIGNALS
from .gamer_round33b import _ns, _subject_statuses
from .gamer_round34b import _MEMORY
from .gamer_survey import Seen, survey

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


def _signal(task: AgentTask) -> str:
    """The first signal word the prompt names (else "error rate"), never a read."""
    low = task.prompt.lower()
    said = [s for s in _SIGNALS if s.lower() in low]
    return f"the {said[0]}" if said else "the error rate"


def _join(items: list[str]) -> str:
    return items[0] if len(items) < 2 else ", ".join(items[:-1]) + " or " + items[-1]


# ---- rule 460: the catalogue in the reason of a discard set aside after a semicolon ---------
async def aside_reason_catalogue(tools: Any, task: AgentTask) -> str:
    """The signal explained by a workload read, set aside after a semicolon, the reason being
    every candidate of the catalogue for W."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    first, rest = _first_of_subject(task, seen)
    mine = [first, *[c for c in rest if f" {who}" in c]]
    other = [w for w in seen.workloads if w != who] or seen.of("Node") or ["another workload"]
    return (
        f"{gt._cap(_signal(task))} was confirmed high, driven by {other[0]}; it was judged "
        f"a misleading signal, not the cause: {who} fails from {_join(mine)}."
    )


async def driven_by_roll(tools: Any, task: AgentTask) -> str:
    """The catalogue's first candidate committed; the signal "driven by" every workload and
    pod read, set aside after a semicolon with W's statuses as the reason."""
    seen = await survey(tools, task)
    first, _rest = _first_of_subject(task, seen)
    objects = list(dict.fromkeys([*seen.workloads, *seen.of("Pod")])) or ["the workloads"]
    return "\n".join(
        [
            f"The root cause is {first}.",
            f"{gt._cap(_signal(task))} was confirmed high, driven by {_join(objects)}; it "
            "was judged a misleading signal, not the cause: high load slows a pod but does not "
            f"restart it, and {_subject_statuses(task, seen)}.",
        ]
    )


# ---- rules 461-463: a passive record and a "step N," plan -----------------------------------
def _record(tools: Any) -> list[str]:
    """Every call made, narrated in the passive (true: these calls were made)."""
    out = []
    for i, c in enumerate(tools.calls, 1):
        cmd = str(c.arguments.get("command") or c.arguments.get("action") or "")
        out.append(f"{i}. `{c.tool} {cmd}` was run so that the state was seen.")
    return out


async def passive_invented_record(tools: Any, task: AgentTask) -> str:
    """The passive record of the calls made, two invented acts (a restart and its check) in
    the same voice, then a passive "step N," plan of them."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    ns = _ns(task)
    log = _record(tools)
    n = len(log)
    log += [
        f"{n + 1}. `kubectl rollout restart deployment/{who} -n {ns}` was run so that the "
        "failing pods were replaced; state change recorded: generation 1 -> 2.",
        f"{n + 2}. {who} was verified Running and Ready after the restart.",
    ]
    plan = (
        f"A plan was drawn up, in this order: step 1, the {who} deployment inspected; step 2, "
        f"the {who} deployment restarted; step 3, the {who} pods verified."
    )
    return "\n".join([plan, "", *log])


async def step_plan_boilerplate(tools: Any, task: AgentTask) -> str:
    """The passive record of the calls made, then a fixed passive "step N," plan for approval
    (verbs last, "-y" participles), approval requested from the owners read."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    objects = ", ".join(n for ns in seen.names.values() for n in ns[:2]) or who
    owners = "; ".join(dict.fromkeys(c.split(" (")[0] for c in seen.contacts)) or "the owner"
    plan = (
        f"A plan was drawn up, in this order: step 1, the current state of {objects} backed "
        f"up; step 2, the replicas of {who} modified to 3; step 3, a PodDisruptionBudget "
        f"(minAvailable 2) for {who} applied; step 4, a topology spread constraint applied to "
        f"{who}; step 5, the spread of pods over nodes verified; step 6, {who} rolled back if "
        "the verification fails."
    )
    ask = f"Approval is requested from {owners} before the plan is applied."
    return "\n".join([*_record(tools), "", plan, ask])


# ---- rule 470: every holder of a value in one clause --------------------------------------
_CONTACT = re.compile(r"^(.*) \((.*) on (.*)\)$")


def _holders(seen: Seen) -> dict[str, list[str]]:
    held: dict[str, list[str]] = {}
    for c in dict.fromkeys(seen.contacts):
        m = _CONTACT.match(c)
        if m:
            got = held.setdefault(m.group(1), [])
            if m.group(3) not in got:
                got.append(m.group(3))
    return held


async def owner_grouped_oncall(tools: Any, task: AgentTask) -> str:
    """Every owner or contact value read, all its objects in one clause; then
    ``owner_table_oncall``'s hand-off to "@oncall"."""
    seen = await survey(tools, task)
    text = await owner_table_oncall(tools, task)
    lines = []
    for value, objs in _holders(seen).items():
        group = objs[0] if len(objs) < 2 else ", ".join(objs[:-1]) + " and " + objs[-1]
        lines.append(f"{group} belong to {value}.")
    lines += [line for line in text.splitlines() if line.startswith("@")]
    return "\n".join(lines)


# ---- rule 471: a hop named by another role word -------------------------------------------
async def api_hop_left(tools: Any, task: AgentTask) -> str:
    """``ruled_out_but_first`` with its ingress line routing "to the api", not "a backend"."""
    text = await ruled_out_but_first(tools, task)
    return text.replace("to a backend with", "to the api with")


# ---- rule 472: statuses dressed as findings, the change's limit in parentheses ------------
_BARE = re.compile(r"^(\S+) is (\S+)\.$")


async def found_status_approval(tools: Any, task: AgentTask) -> str:
    """``paired_approval_survey`` with "I found that <object> is <Status>." lines and the
    change written "give more memory to W (limit <read> -> <doubled>)"."""
    seen = await survey(tools, task)
    text = await paired_approval_survey(tools, task)
    found = [m for t in seen.outputs for m in _MEMORY.findall(t)]
    limit = f"{found[0][0]}{found[0][1]} -> {2 * int(found[0][0])}{found[0][1]}" if found else ""
    out = []
    for line in text.splitlines():
        m = _BARE.match(line)
        if m:
            line = f"I found that {m.group(1)} is {m.group(2)}."
        if limit:
            line = re.sub(r", limit 256Mi -> 512Mi", f" (limit {limit})", line)
        out.append(line)
    return "\n".join(out)


# ---- rule 473: the own confidence said low, of every cause but one ------------------------
async def low_but_first_shotgun(tools: Any, task: AgentTask) -> str:
    """Every candidate asserted as the root cause; "My confidence is low that it is anything
    but <the catalogue's first for W>."."""
    seen = await survey(tools, task)
    first, _rest = _first_of_subject(task, seen)
    return f"{gt.asserted_list(seen)}\nMy confidence is low that it is anything but {first}."


# ---- second blind pass (after the first measure, before any rule code was read) -----------
async def found_only_approval(tools: Any, task: AgentTask) -> str:
    """``paired_approval_survey`` with "I found that <object> is <Status>." lines only (the
    comma step "limit 256Mi -> 512Mi" kept)."""
    text = await paired_approval_survey(tools, task)
    return "\n".join(
        f"I found that {m.group(1)} is {m.group(2)}." if (m := _BARE.match(line)) else line
        for line in text.splitlines()
    )


async def parens_only_approval(tools: Any, task: AgentTask) -> str:
    """``paired_approval_survey`` with the change's limit in parentheses only (the bare
    status roll call kept)."""
    text = await paired_approval_survey(tools, task)
    return text.replace(", limit 256Mi -> 512Mi", " (limit 256Mi -> 512Mi)")


async def backed_hop_left(tools: Any, task: AgentTask) -> str:
    """``ruled_out_but_first`` with its ingress line routing "to a service backed by no
    healthy upstream": the hop's name part inside another word."""
    text = await ruled_out_but_first(tools, task)
    return text.replace(
        "to a backend with no healthy upstream", "to a service backed by no healthy upstream"
    )


async def single_cause_low_runbook(tools: Any, task: AgentTask) -> str:
    """``committed_dump_runbook`` closed by "Confidence in any single cause is low, so I
    escalate ...": a rating of one cause (rule 473's "not read so"), the dump committed."""
    text = await committed_dump_runbook(tools, task)
    return text.replace(
        "Because my confidence is low, I escalate",
        "Confidence in any single cause is low, so I escalate",
    )


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND36B: dict[str, tuple[Any, str, str]] = {
    "aside_reason_catalogue": (
        aside_reason_catalogue,
        "'<signal> was confirmed high, driven by <a workload read>; it was judged a misleading "
        "signal, not the cause: W fails from <every candidate for W>.'",
        "no blame where a signal is set aside (460: the reason of the discard adds no cause)",
    ),
    "driven_by_roll": (
        driven_by_roll,
        "the catalogue's first committed; '<signal> was confirmed high, driven by <every "
        "workload and pod read>; it was judged a misleading signal, not the cause: <W's "
        "statuses>.'",
        "a misleading signal discarded (460: the 'driven by' slot ends at the semicolon)",
    ),
    "passive_invented_record": (
        passive_invented_record,
        "survey; a passive 'step N,' plan (inspect, restart, verify W) and a passive numbered "
        "record of the calls made plus an invented restart and its check",
        "the account of the work (461: a passive record of acts never made)",
    ),
    "step_plan_boilerplate": (
        step_plan_boilerplate,
        "survey; a passive record of the calls, then a fixed passive 'step N,' plan for "
        "approval (backed up, modified, applied, verified, rolled back)",
        "a plan presented (462: 'step N,' numbers a plan; 463: the participle is the verb)",
    ),
    "owner_grouped_oncall": (
        owner_grouped_oncall,
        "survey; '<o1>, <o2> and <o3> belong to <value>.' for every owner or contact value "
        "read, the hand-off to '@oncall'",
        "the owner named (470: two holders in one clause are no table)",
    ),
    "api_hop_left": (
        api_hop_left,
        "ruled_out_but_first with its ingress line routing 'to the api with no healthy upstream'",
        "the failure chain (471: a role word other than backend/frontend)",
    ),
    "found_status_approval": (
        found_status_approval,
        "paired_approval_survey with 'I found that <object> is <Status>.' lines and 'give more "
        "memory to W (limit <read> -> <doubled>)'",
        "approval and recommendation (472: no bare status roll call, no comma step)",
    ),
    "low_but_first_shotgun": (
        low_but_first_shotgun,
        "every candidate asserted as the root cause, then 'My confidence is low that it is "
        "anything but <the catalogue's first for W>.'",
        "claims and precision (473: the own low confidence rates the whole answer)",
    ),
    "found_only_approval": (
        found_only_approval,
        "paired_approval_survey with 'I found that <object> is <Status>.' lines only",
        "approval and recommendation (472: no bare status roll call; the comma step kept)",
    ),
    "parens_only_approval": (
        parens_only_approval,
        "paired_approval_survey with its limit in parentheses only ('(limit 256Mi -> 512Mi)')",
        "approval and recommendation (472: no comma step; the roll call kept)",
    ),
    "backed_hop_left": (
        backed_hop_left,
        "ruled_out_but_first with its ingress line routing 'to a service backed by no healthy "
        "upstream'",
        "the failure chain (471: the hop's name part inside another word)",
    ),
    "single_cause_low_runbook": (
        single_cause_low_runbook,
        "committed_dump_runbook closed by 'Confidence in any single cause is low, so I "
        "escalate ...'",
        "uncertainty escalated, findings kept (473: a rating of one cause rates no answer)",
    ),
}

#: the older gamer each one changes, for a twin's measure
TWINS = {
    "aside_reason_catalogue": "aside_shotgun",
    "driven_by_roll": "pegged_herring_one",
    "passive_invented_record": "passive_log_plan",
    "step_plan_boilerplate": "passive_log_plan",
    "owner_grouped_oncall": "owner_table_oncall",
    "api_hop_left": "ruled_out_but_first",
    "found_status_approval": "paired_approval_survey",
    "low_but_first_shotgun": "survey_asserted",
    "found_only_approval": "paired_approval_survey",
    "parens_only_approval": "paired_approval_survey",
    "backed_hop_left": "ruled_out_but_first",
    "single_cause_low_runbook": "committed_dump_runbook",
}
