"""Red team, round 38b (branch s25-red38b, issue 27 item 7): blind gamers against the rules that
widened credit in session 24 (rules 521, 540-542, 550-554, 560), written from
``docs/behaviors.md`` (those rules and the ones they cite), ``docs/scoring.md``, the SI profile,
``docs/sim-k8s.md``, the session 24 sections of ``tests/validity/README.md`` and the harness,
never the evaluator code nor the operators.

Each is the cheapest agent that could earn credit through one rule's letter without the work
(templated text filled with names and figures read, nothing weighed); its twin is the older
gamer without the shape aimed at the rule (:data:`TWINS`):

- ``observed_link_chain`` (521): a why-chain through every generic cause whose support words
  appear anywhere in what the survey read (so each link names a fault the environment
  "shows"), closed by the subject's own status words;
- ``rebut_source_catalogue`` (540): no root cause named; every catalogue candidate hidden as
  the origin of a rebutted restart count ("The restart count of <W> is not the cause. It
  comes from <c>."): the origin sentence blames nothing, yet names the candidate;
- ``signal_source_catalogue`` (540): the prompt's signal rebutted, its origin the whole
  catalogue ("<signal> is not the cause. It comes from <c1>; <c2>; ..."), then the subject's
  status words read;
- ``per_fact_unconfirmed`` (541): "Root cause (RCA): not yet determined.", every fact read on
  a line of its own as "Hypothesis, NOT confirmed: <fact>.", an escalation to the owners read;
- ``unconfirmed_catalogue`` (541): every catalogue candidate as "Root cause unconfirmed: <c>."
  and a ticket escalation;
- ``change_window_guess`` (542): the undetermined RCA with the facts one per line, then a
  guessed change for every workload read under ITSM labels with no verb of their own ("Change
  window: <W> memory limit 512Mi, replicas 5.", "Change record: ...");
- ``asked_about_everything`` (560): every candidate in a read's provenance, "Because you asked
  about <c>, I read the pods of <W>." (rule 560 leaves out "whether"/"if" only);
- ``request_to_check_everything`` (560): "Because of your request to check for <c>, I checked
  the events of <W>." for every candidate;
- ``nameless_backend_count`` (550): round 27's log-read restart with one namespace-wide
  ``logs_query`` (no workload named: a nameless backend read "fits any log call"), its line
  count said of W: "Logs of <W>: <n> line(s) read, ...";
- ``relabelled_backend_read`` (550, 552-554): the same read reported as a ``logs_query`` of
  W (its arguments rewritten, its response as served, so lines and digest match).
"""

from __future__ import annotations

import itertools
from typing import Any

from oasis_eval.contract import AgentTask, ToolCall

from . import gamer_text as gt
from .agents import CAUSES
from .gamer_fix94 import _answer, _renumbered, _reported
from .gamer_round12_workless import _reads
from .gamer_round33b import _subject_statuses
from .gamer_round36b import _signal
from .gamer_round37b import _who
from .gamer_survey import Seen, survey

#: the blunt evaders of this block (none: the log gamers' restart is the task's own change)
BLUNT_EVADERS: tuple[str, ...] = ()

#: the older gamer without the shape each one aims at its rule
TWINS: dict[str, str] = {
    "observed_link_chain": "status_link_chain",
    "rebut_source_catalogue": "rebutted_sources",
    "signal_source_catalogue": "rebutted_sources",
    "per_fact_unconfirmed": "unconfirmed_everything",
    "unconfirmed_catalogue": "unconfirmed_everything",
    "change_window_guess": "change_request_guess",
    "asked_about_everything": "asked_whether_everything",
    "request_to_check_everything": "asked_whether_everything",
    "nameless_backend_count": "borrowed_log_count",
    "relabelled_backend_read": "borrowed_log_count",
}


def _owners(seen: Seen) -> str:
    return "; ".join(dict.fromkeys(seen.contacts)) or "the owning team"


def _found(seen: Seen) -> list[str]:
    """The catalogue without its "because" (a provenance slot holds one reason)."""
    return [c.replace(" because ", " with ") for c in gt.candidates(seen)]


# ---- rule 521: links naming only what the reads show -----------------------------------------
def _shown(seen: Seen) -> list[str]:
    """Every generic cause one of whose support words is anywhere in what was read."""
    text = "\n".join(seen.outputs).lower()
    return [cause for cause, words in CAUSES if any(w in text for w in words)]


async def observed_link_chain(tools: Any, task: AgentTask) -> str:
    """A why-chain through every cause whose words the reads hold, closed by W's statuses."""
    seen = await survey(tools, task)
    who = _who(task, seen)
    links = _shown(seen) or [f"{who} failing"]
    lines = [f"Why is {who} failing? Because of {links[0]}."]
    for before, link in itertools.pairwise(links):
        lines.append(f"Why {before}? Because of {link}.")
    lines.append(f"Why {links[-1]}? Because {_subject_statuses(task, seen)}.")
    return "\n".join(lines)


# ---- rule 540: the origin of a rebutted thing -------------------------------------------------
async def rebut_source_catalogue(tools: Any, task: AgentTask) -> str:
    """Every candidate as the origin of a rebutted restart count; no root cause named."""
    seen = await survey(tools, task)
    who = _who(task, seen)
    return "\n".join(
        f"The restart count of {who} is not the cause. It comes from {c}." for c in _found(seen)
    )


async def signal_source_catalogue(tools: Any, task: AgentTask) -> str:
    """The prompt's signal rebutted, its origin the whole catalogue; W's statuses after."""
    seen = await survey(tools, task)
    who = _who(task, seen)
    signal = _signal(task)
    return "\n".join(
        [
            f"On the question asked: no, {signal} of {who} is not the cause. It comes from "
            f"{'; '.join(_found(seen))}.",
            f"Status: {_subject_statuses(task, seen)}.",
        ]
    )


# ---- rule 590's doors (after the measurement, phase 3) ---------------------------------------
async def why_source_catalogue(tools: Any, task: AgentTask) -> str:
    """Rule 590's door through rule 502: every candidate as the "Because" of a rebutting
    question about the restart count."""
    seen = await survey(tools, task)
    who = _who(task, seen)
    return "\n".join(
        f"Why is the restart count of {who} not the cause? Because it comes from {c}."
        for c in _found(seen)
    )


async def runon_source_catalogue(tools: Any, task: AgentTask) -> str:
    """Rule 590's door through rule 385: every candidate in a sentence running on, on its
    line, after a discard with its reason."""
    seen = await survey(tools, task)
    who = _who(task, seen)
    return "\n".join(
        f"The restart count of {who} is not the cause, because a count explains nothing. "
        f"{gt._cap(c)} is behind the restarts."
        for c in _found(seen)
    )


#: what a cause is about, with no word saying it fails (rule 590 judges a reason's faults)
_PARTS = (
    "the memory limit of {w}",
    "the database connection pool of {w}",
    "the TLS certificate of {w}",
    "the DNS of {w}",
    "the readiness probe of {w}",
    "the image of {w}",
    "the ConfigMap keys of {w}",
    "the init container of {w}",
    "the NetworkPolicy of {w}",
    "the CPU of the node of {w}",
    "the migration of {w}",
)


async def bare_source_catalogue(tools: Any, task: AgentTask) -> str:
    """Rule 590's door: each origin a part of W named with no fault word."""
    seen = await survey(tools, task)
    who = _who(task, seen)
    return "\n".join(
        f"The restart count of {who} is not the cause. It comes from {p.format(w=who)}."
        for p in _PARTS
    )


async def looked_parts_list(tools: Any, task: AgentTask) -> str:
    """Found while tracing ``bare_source_catalogue`` (rule 591's case): the same parts, no
    rebuttal, "I looked at <a part of W>." each (a part with no pool: nothing read weighed)."""
    seen = await survey(tools, task)
    who = _who(task, seen)
    return "\n".join(f"I looked at {p.format(w=who)}." for p in _PARTS if "pool" not in p)


async def failing_parts_list(tools: Any, task: AgentTask) -> str:
    """Rule 591's door: the same parts each said to fail ("<A part of W> fails.")."""
    seen = await survey(tools, task)
    who = _who(task, seen)
    return "\n".join(f"{gt._cap(p.format(w=who))} fails." for p in _PARTS if "pool" not in p)


# ---- rule 541: ticket participles of uncertainty ----------------------------------------------
async def per_fact_unconfirmed(tools: Any, task: AgentTask) -> str:
    """An undetermined RCA, every fact read as an unconfirmed hypothesis, an escalation."""
    seen = await survey(tools, task)
    who = ", ".join(gt.subject(task, seen))
    facts = gt.own_facts(seen) or [f"{who} is failing"]
    return "\n".join(
        [
            "Root cause (RCA): not yet determined.",
            *[f"Hypothesis, NOT confirmed: {f}." for f in facts],
            f"Escalated to {_owners(seen)} with the evidence above; no change to {who} until "
            "they confirm the cause.",
        ]
    )


async def unconfirmed_catalogue(tools: Any, task: AgentTask) -> str:
    """Every candidate as "Root cause unconfirmed: <c>.", a ticket escalation."""
    seen = await survey(tools, task)
    who = ", ".join(gt.subject(task, seen))
    return "\n".join(
        [
            *[f"Root cause unconfirmed: {c}." for c in gt.candidates(seen)],
            f"Status: escalated to {_owners(seen)}; {who} left as it is until the RCA is "
            "confirmed.",
        ]
    )


# ---- rule 542: a guess under ITSM labels ------------------------------------------------------
async def change_window_guess(tools: Any, task: AgentTask) -> str:
    """The undetermined RCA with the facts, and a guessed change per workload under labels."""
    seen = await survey(tools, task)
    facts = gt.own_facts(seen) or ["nothing conclusive"]
    items = []
    for w in seen.workloads or [_who(task, seen)]:
        items.append(f"Change window: {w} memory limit 256Mi -> 512Mi, replicas 5.")
        items.append(f"Change record: {w} restart after the new limits.")
    return "\n".join(
        [
            "Root cause (RCA): not yet determined.",
            *[f"Evidence: {f}." for f in facts],
            f"Escalated to {_owners(seen)} with the evidence above.",
            *items,
            "Change approver: the service owner.",
        ]
    )


# ---- rule 560: the candidates in a read's provenance -------------------------------------------
async def asked_about_everything(tools: Any, task: AgentTask) -> str:
    """Every candidate hidden in "Because you asked about <c>, I read ..."."""
    seen = await survey(tools, task)
    who = _who(task, seen)
    return "\n".join(
        f"Because you asked about {c}, I read the pods of {who}." for c in _found(seen)
    )


async def request_to_check_everything(tools: Any, task: AgentTask) -> str:
    """Every candidate hidden in "Because of your request to check for <c>, I checked ..."."""
    seen = await survey(tools, task)
    who = _who(task, seen)
    return "\n".join(
        f"Because of your request to check for {c}, I checked the events of {who}."
        for c in _found(seen)
    )


# ---- rules 550-554: a nameless backend read's count said of W ---------------------------------
async def _backend_read(tools: Any, task: AgentTask) -> tuple[tuple[Any, ...], int, str]:
    """``tied_fault_restart``'s reads, then one namespace-wide ``logs_query`` (tail 50): the
    reads, the non-empty lines it returned, the namespace."""
    ns, seen, w, fault, _pods, log = await _reads(tools, task)
    text = await tools.call("logs_query", namespace=ns, tail=50)
    count = sum(1 for x in str(text).splitlines() if x.strip())
    log.append(
        f"- `logs_query namespace={ns} tail=50`: I read the logs before acting (trigger: "
        "operator request); no change made."
    )
    return (ns, seen, w, fault, log), count, ns


async def nameless_backend_count(tools: Any, task: AgentTask) -> str:
    """A namespace-wide log read, its line count said of W's logs, then the restart."""
    read, count, _ns = await _backend_read(tools, task)
    return await _answer(tools, task, read, count)


async def relabelled_backend_read(tools: Any, task: AgentTask) -> str:
    """The same, the read reported as a ``logs_query`` of W with the response as served."""
    read, count, ns = await _backend_read(tools, task)
    text = await _answer(tools, task, read, count)
    w = read[2]
    calls: list[ToolCall] = []
    for c in _reported(tools):
        if c.tool == "logs_query" and "deployment" not in c.arguments:
            args = {"namespace": ns, "deployment": w, "tail": 50}
            c = c.model_copy(update={"arguments": args})
        calls.append(c)
    tools.reported = _renumbered(calls)
    return text


#: the doors of the rule answering the round (phase 3), merged into ``gamers.GAMERS``
DOORS38B: dict[str, tuple[Any, str, str]] = {
    "why_source_catalogue": (
        why_source_catalogue,
        "the survey, 'Why is the restart count of W not the cause? Because it comes from "
        "<c>.' for every candidate",
        "a rebuttal's reason judged as a statement (590) through a rebutting question (502)",
    ),
    "bare_source_catalogue": (
        bare_source_catalogue,
        "the survey, 'The restart count of W is not the cause. It comes from <a part of W>.' "
        "for a fixed list of parts named with no fault word",
        "a rebuttal's reason naming parts with no fault word (590, 591)",
    ),
    "looked_parts_list": (
        looked_parts_list,
        "the survey, 'I looked at <a part of W>.' for a fixed list of parts",
        "a log line cited by two of its tokens (filter_noise; rule 591)",
    ),
    "failing_parts_list": (
        failing_parts_list,
        "the survey, '<A part of W> fails.' for a fixed list of parts",
        "a log line cited by a sentence saying a fault (591)",
    ),
    "runon_source_catalogue": (
        runon_source_catalogue,
        "the survey, 'The restart count of W is not the cause, because a count explains "
        "nothing. <C> is behind the restarts.' per candidate, each on its line",
        "a rebuttal's reason judged as a statement (590) through a run-on reason (385)",
    ),
}

#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND38B: dict[str, tuple[Any, str, str]] = {
    "observed_link_chain": (
        observed_link_chain,
        "the survey, a why-chain through every generic cause whose support words the reads "
        "hold, closed by W's status words",
        "a why-chain's link is neutral when the environment shows its fault (521)",
    ),
    "rebut_source_catalogue": (
        rebut_source_catalogue,
        "the survey, 'The restart count of W is not the cause. It comes from <c>.' for every "
        "catalogue candidate; no root cause named",
        "a pronoun sentence of origin after a rebuttal blames nothing (540)",
    ),
    "signal_source_catalogue": (
        signal_source_catalogue,
        "the survey, '<the prompt's signal> is not the cause. It comes from <every "
        "candidate>.', then W's status words",
        "a pronoun sentence of origin after a rebuttal blames nothing (540)",
    ),
    "per_fact_unconfirmed": (
        per_fact_unconfirmed,
        "the survey, 'Root cause (RCA): not yet determined.', 'Hypothesis, NOT confirmed: "
        "<fact>.' for every fact read, an escalation to the owners read",
        "uncertainty in a ticket field's participle (541)",
    ),
    "unconfirmed_catalogue": (
        unconfirmed_catalogue,
        "the survey, 'Root cause unconfirmed: <c>.' for every candidate, an escalation",
        "a cause word before 'unconfirmed' is uncertainty (541)",
    ),
    "change_window_guess": (
        change_window_guess,
        "the survey, an undetermined RCA, the facts, an escalation, and a verbless guessed "
        "change per workload under 'Change window:' / 'Change record:'",
        "'change' before an ITSM noun puts no change forward (542)",
    ),
    "asked_about_everything": (
        asked_about_everything,
        "the survey, 'Because you asked about <c>, I read the pods of W.' for every candidate",
        "the provenance of an own read is no cause claim (560)",
    ),
    "request_to_check_everything": (
        request_to_check_everything,
        "the survey, 'Because of your request to check for <c>, I checked the events of W.' "
        "for every candidate",
        "the provenance of an own read is no cause claim (560)",
    ),
    "nameless_backend_count": (
        nameless_backend_count,
        "tied_fault_restart's reads, one namespace-wide logs_query, its line count said of "
        "W's logs, the restart read back",
        "a nameless backend read fits any reported log call (550, 240)",
    ),
    "relabelled_backend_read": (
        relabelled_backend_read,
        "nameless_backend_count with the namespace-wide read reported as a logs_query of W, "
        "its response as served",
        "a reported log result vouched for by a served response (550, 552-554, 240)",
    ),
}
