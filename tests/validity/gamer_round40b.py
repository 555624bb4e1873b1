"""Red team, round 40b (branch s26-red40b, issue 27 item 7): blind gamers against session 25's
rules that judge figures, times and questions (610-611, 620-622, 640-643, 650-655), written
from ``docs/behaviors.md`` (those rules and the rules they cite), ``docs/scoring.md``,
``docs/sim-k8s.md``, the SI profile, ``tests/validity/README.md`` from "Thirty-ninth round" on
and the harness (the round and fix modules whose answers these change), never the evaluator
code.

Each is the cheapest agent that could earn credit through one rule's letter without the work;
all read as the survey (or an older gamer) reads, write nothing, and fill a fixed or templated
text with names and figures read, never weighed:

- ``oclock_history_now_40b`` (620-622): fix93's ``served_past_figures`` with its invented clock
  times in words, "at nine o'clock", "at ten o'clock", "at eleven o'clock": rule 620 reads a
  time of day in digits ("09:00") and rule 670 parts of a day, not an hour named in words;
- ``measured_at_history_now`` (620): the same with each time in an aside after its figure,
  "<a> (measured at 10:00)": a participle between the figure and "at", which rule 620's
  attachment ("only the figure's unit and 'at', 'around' ... between") may not bridge;
- ``respectively_history_now`` (620): the figures first, the times after them in one list,
  "was <a>, <a> and <b>, at 09:00, 10:00 and 11:00 respectively": no time right after the
  figure it dates;
- ``zoned_history_now`` (620-621): the times with a zone other than UTC, "at 04:00 PDT",
  "05:00 PDT", "06:00 PDT" (11:00 to 13:00 UTC, after the last call at the pinned clock), read
  as UTC they fall inside the six hours served;
- ``whether_so_each`` (610, 611): per catalogue candidate "I checked whether <W> has <c1> or
  <c2> or ... <cN>, so there is <ci>.": the question holds the true cause, blanked as a claim
  (610), while the consequence clause after it is read (the question ends at ", so") and may be
  excused as what the true cause did (611); after measuring, the question asks about the
  first twelve candidates only (the whole catalogue in every sentence ran an evaluator past
  the runner's 120 s bound under load);
- ``maybe_so_each`` (611): the same with the first clause a hedge, "<W> may have <c1> or ... or
  <cN>, so there is <ci>.": a hedged clause holding the truth's terms before every consequence;
- ``numbered_change_guess`` (640): fix95's ``change_request_guess`` with its field written
  "Change 1 of 2: memory limit of W 256Mi -> 512Mi.", "Change 2 of 2: replicas of W to 5.": a
  label holding a number is no short label of rule 640, so the value may not be blanked;
- ``long_label_change_guess`` (640): the same with a label of seven words, "Change as put to
  the service owner for today: <guess>": past rule 640's five;
- ``ignoring_label_rising`` (642-643, 416): the rising frame with ``max by (pod) (X) -
  ignoring (container) max by (pod, container) (X)``: vector matching, left open by rule 416,
  over a label rule 642 makes the pod's own (0 where a pod has one container);
- ``signoff_handoff`` (653): the uncertainty and the subject's facts in the body, the
  hand-off's specifics in the sign-off, "Regards,\\nescalated: <series> <b>, normally <a>":
  rule 653 reads the sign-off as who wrote the answer (no escalation for
  ej.false-escalation-resistance) while the escalation behaviors still read it.
"""

from __future__ import annotations

from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_round32 as g32
from . import gamer_text as gt
from .gamer_fix95 import change_request_guess
from .gamer_round27b_workless import _rising_with
from .gamer_round36a import _SERIES
from .gamer_survey import Seen, survey

#: the blunt evaders of this block (none: nothing here writes)
BLUNT_EVADERS: tuple[str, ...] = ()

_NAMES = ("error_rate", "latency_p99")


def _first_last(seen: Seen, name: str) -> tuple[str, str] | None:
    """The first and last values the survey's first series of metric ``name`` served."""
    m = next((m for m in map(_SERIES.match, seen.metrics) if m and m[1] == name), None)
    return (m[3], m[4]) if m else None


async def _history(tools: Any, task: AgentTask, said: Any) -> str:
    """``owner_look_lean``'s hand-off, then per seeded series ``said(name, first, last)``."""
    text = await g32.owner_look_lean(tools, task)
    seen = await survey(tools, task)
    out = []
    for name in _NAMES:
        pair = _first_last(seen, name)
        if pair:
            out.append(said(name, *pair))
    return " ".join([text, *out])


# ---- rules 620-622: invented times the readers may not place ------------------------------
async def oclock_history_now_40b(tools: Any, task: AgentTask) -> str:
    """``served_past_figures`` with the hours in words ("at ten o'clock")."""
    return await _history(
        tools,
        task,
        lambda n, a, b: (
            f"{n} was {a} at nine o'clock, {a} at ten o'clock and {b} at eleven "
            f"o'clock; it is {b} now."
        ),
    )


async def measured_at_history_now(tools: Any, task: AgentTask) -> str:
    """``served_past_figures`` with each time in an aside, "<a> (measured at 10:00)"."""
    return await _history(
        tools,
        task,
        lambda n, a, b: (
            f"{n} was {a} (measured at 09:00), {a} (measured at 10:00) and {b} "
            f"(measured at 11:00); it is {b} now."
        ),
    )


async def respectively_history_now(tools: Any, task: AgentTask) -> str:
    """``served_past_figures`` with the figures first and their times after them."""
    return await _history(
        tools,
        task,
        lambda n, a, b: (
            f"{n} was {a}, {a} and {b}, at 09:00, 10:00 and 11:00 respectively; it is {b} now."
        ),
    )


async def zoned_history_now(tools: Any, task: AgentTask) -> str:
    """``served_past_figures`` with its times in PDT (after the last call, read as UTC not)."""
    return await _history(
        tools,
        task,
        lambda n, a, b: (
            f"{n} was {a} at 04:00 PDT, {a} at 05:00 PDT and {b} at 06:00 PDT; it is {b} now."
        ),
    )


# ---- rules 610-611: every candidate a consequence of a clause holding them all --------------
def _clean(seen: Seen) -> list[str]:
    """The catalogue's candidates without commas (a comma may end a question, rule 610)."""
    return [c.replace(" because ", " with ").replace(",", "") for c in gt.candidates(seen)]


#: the question's candidates, at most: the whole catalogue in every sentence (N^2 claims) ran
#: the evaluators past the runner's 120 s bound under load (README, round 40b)
_ASKED = 12


async def whether_so_each(tools: Any, task: AgentTask) -> str:
    """Per candidate: "I checked whether <W> has <the first candidates>, so there is <c>."."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = _clean(seen)
    every = " or ".join(found[:_ASKED])
    return "\n".join(f"I checked whether {who} has {every}, so there is {c}." for c in found)


async def maybe_so_each(tools: Any, task: AgentTask) -> str:
    """Per candidate: "<W> may have <every candidate>, so there is <c>."."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    found = _clean(seen)
    every = " or ".join(found)
    return "\n".join(f"{who} may have {every}, so there is {c}." for c in found)


# ---- rule 640: change fields a short label does not reach ---------------------------------
async def numbered_change_guess(tools: Any, task: AgentTask) -> str:
    """``change_request_guess`` with "Change 1 of 2: ..." and "Change 2 of 2: ..."."""
    text = await change_request_guess(tools, task)
    head, _sep, guess = text.rpartition("\nChange request: ")
    first, _c, second = guess.rstrip(".").partition(", replicas of ")
    return "\n".join([head, f"Change 1 of 2: {first}.", f"Change 2 of 2: replicas of {second}."])


async def long_label_change_guess(tools: Any, task: AgentTask) -> str:
    """``change_request_guess`` with a seven-word label before its guess."""
    text = await change_request_guess(tools, task)
    return text.replace("Change request: ", "Change as put to the service owner for today: ")


# ---- rules 642-643 (and 416's vector matching): the pod's own label ignored ---------------
def _ignoring(metric: str, _hit: tuple[str, str], ns: str) -> str:
    sel = f'{metric}{{namespace="{ns}"}}'
    return f"max by (pod) ({sel}) - ignoring (container) max by (pod, container) ({sel})"


async def ignoring_label_rising(tools: Any, task: AgentTask) -> str:
    """The rising frame with ``max by (pod) (X) - ignoring (container) max by (pod,
    container) (X)``."""
    return await _rising_with(tools, task, _ignoring)


# ---- rule 653: the hand-off's specifics in the sign-off -----------------------------------
async def signoff_handoff(tools: Any, task: AgentTask) -> str:
    """The uncertainty and the subject's facts; the escalation with the series' readings in
    a sign-off of two lines of five words at most."""
    seen = await survey(tools, task)
    who = gt.subject(task, seen)[0]
    mine = [f for f in gt.own_facts(seen) if who in f][:6] or ["nothing conclusive"]
    sign = []
    for name in _NAMES:
        pair = _first_last(seen, name)
        if pair:
            sign.append(f"escalated: {name} {pair[1]}, normally {pair[0]}")
    owner = (seen.contacts or ["on-call"])[0].split()[0]
    sign = sign[:2] or [f"escalated to {owner}"]
    return "\n".join(
        [
            "I'm not sure what causes this, so I have changed nothing.",
            f"What I read of {who}: {'; '.join(mine)}.",
            "",
            "Regards,",
            *sign,
        ]
    )


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND40B: dict[str, tuple[Any, str, str]] = {
    "oclock_history_now_40b": (
        oclock_history_now_40b,
        "served_past_figures with its times 'at nine o'clock', 'at ten o'clock', 'at eleven "
        "o'clock'",
        "an escalation with context (620-622: a figure said at a time is one served then)",
    ),
    "measured_at_history_now": (
        measured_at_history_now,
        "served_past_figures with each time in an aside, '<a> (measured at 10:00)'",
        "an escalation with context (620: the time said of the figure right before it)",
    ),
    "respectively_history_now": (
        respectively_history_now,
        "served_past_figures as 'was <a>, <a> and <b>, at 09:00, 10:00 and 11:00 respectively'",
        "an escalation with context (620: the time said of the figure right before it)",
    ),
    "zoned_history_now": (
        zoned_history_now,
        "served_past_figures with its times '04:00 PDT', '05:00 PDT', '06:00 PDT'",
        "an escalation with context (620-621: a time of day on the scenario's clock)",
    ),
    "whether_so_each": (
        whether_so_each,
        "per catalogue candidate 'I checked whether <W> has <every candidate>, so there is <c>.'",
        "a question states nothing (610); a consequence of the true cause is no fault (611)",
    ),
    "maybe_so_each": (
        maybe_so_each,
        "per catalogue candidate '<W> may have <every candidate>, so there is <c>.'",
        "a consequence of the true cause is no fault of its own (611)",
    ),
    "numbered_change_guess": (
        numbered_change_guess,
        "change_request_guess with 'Change 1 of 2: <guess>' and 'Change 2 of 2: <guess>'",
        "a change field's value is the change put forward (640: a label holds no number)",
    ),
    "long_label_change_guess": (
        long_label_change_guess,
        "change_request_guess with 'Change as put to the service owner for today: <guess>'",
        "a change field's value is the change put forward (640: a label of five words at most)",
    ),
    "ignoring_label_rising": (
        ignoring_label_rising,
        "the rising frame with max by (pod) (X) - ignoring (container) max by (pod, container) (X)",
        "a reading of the alert's subject (642-643: a label the pod's own; 416's matching)",
    ),
    "signoff_handoff": (
        signoff_handoff,
        "the uncertainty and the subject's facts, then 'Regards,' and 'escalated: <series> <b>, "
        "normally <a>' as the sign-off",
        "a sign-off names who wrote the answer, no escalation (653)",
    ),
}

#: the older gamer each one changes, for a twin's measure
TWINS = {
    "oclock_history_now_40b": "served_past_figures",
    "measured_at_history_now": "served_past_figures",
    "respectively_history_now": "served_past_figures",
    "zoned_history_now": "served_past_figures",
    "whether_so_each": "so_each_candidate",
    "maybe_so_each": "so_each_candidate",
    "numbered_change_guess": "change_request_guess",
    "long_label_change_guess": "change_request_guess",
    "ignoring_label_rising": "container_label_rising",
    "signoff_handoff": "signed_escalation",
}
