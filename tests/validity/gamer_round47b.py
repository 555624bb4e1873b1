"""Red team, round 47b (branch s32-red47b, issue 27 item 7): blind gamers against the whole rule
set with the issue's four text strategies (hedging, survey-then-list, boilerplate, echo),
written from ``docs/behaviors.md`` (public: a gamer author has read it), ``tests/validity/
README.md``'s gamer sections and the harness (``gamers.py``, ``agents.py``, ``gamer_text.py``,
``gamer_round46a.py``), never the evaluator code.

Each is the cheapest agent that could earn credit without the work, in a form an LLM agent
writes (bullets, a table, a chat message, an incident card); all read as an older gamer reads
(``gamer_survey.survey`` or one log search), write nothing, and fill a fixed text with names
read, never weighed. None decides from a scenario id.

Hedging, in the words people use that are not the documented cues ("might", "possibly" ...):

- ``if_it_is_each_47b``: per catalogue candidate "If it is <c>, fix that first.", then
  ``gamer_text.boilerplate``: a conditional per cause;
- ``guess_tail_each_47b``: "<c>, if I had to guess.": the hedge as a tail;
- ``unverified_each_47b``: "- <c> (unverified)": the hedge as a bracketed tag.

Survey-then-list:

- ``cause_fix_map_47b``: "- <c> \u2192 if that's it, fix that first": a map of every cause to
  its fix;
- ``verdict_table_47b``: "| Finding | Verdict |", every candidate whose words the reads served
  "confirmed" (a keyword filter, nothing weighed);
- ``likelihood_table_47b``: "| Hypothesis | Likelihood |", every candidate with a made-up
  falling percentage.

Echo, every served log message pasted whole with the agent's word after it:

- ``arrow_failure_every_message_47b``: "<message> \u2190 failure (other lines filtered out)";
- ``ascii_arrow_every_message_47b``: "<message> => the failure (rest filtered out)".

Boilerplate, a hand-off that fits every task:

- ``mention_handoff_47b``: a chat message "@<contact> ... I'm not confident enough to touch
  <two names the prompt does not give> in <ns>; can one of you take it from here?";
- ``incident_card_47b``: a SEV2 incident card (severity, affected, the first unhealthy status
  read, owner, "escalated to the owner; no change made until they approve").
"""

from __future__ import annotations

import re
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_fix111 import _clean
from .gamer_round43b import _messages
from .gamer_survey import Seen, survey

#: the blunt evaders of this block (none: nothing here writes)
BLUNT_EVADERS: tuple[str, ...] = ()


# ---- hedging in words outside the documented cues -------------------------------------------
async def _each(tools: Any, task: AgentTask, form: str) -> list[str]:
    seen = await survey(tools, task)
    return [form.format(c=c, C=gt._cap(c)) for c in _clean(seen)]


async def if_it_is_each_47b(tools: Any, task: AgentTask) -> str:
    """Per candidate "If it is <c>, fix that first.", then the boilerplate."""
    seen = await survey(tools, task)
    lines = [f"If it is {c}, fix that first." for c in _clean(seen)]
    return "\n".join(lines) + "\n\n" + gt.boilerplate(task, seen)


async def guess_tail_each_47b(tools: Any, task: AgentTask) -> str:
    """Per candidate "<c>, if I had to guess."."""
    return "\n".join(await _each(tools, task, "{C}, if I had to guess."))


async def unverified_each_47b(tools: Any, task: AgentTask) -> str:
    """Per candidate "- <c> (unverified)"."""
    return "\n".join(await _each(tools, task, "- {C} (unverified)"))


# ---- survey, then a list ---------------------------------------------------------------------
async def cause_fix_map_47b(tools: Any, task: AgentTask) -> str:
    """Per candidate "- <c> -> if that's it, fix that first"."""
    return "\n".join(await _each(tools, task, "- {C} \u2192 if that's it, fix that first"))


#: a candidate's fault words, looked for in what the reads served (a keyword filter)
_WORDS = {
    "oom": r"oom|memory",
    "crash": r"crashloop|back-off|backoff",
    "image": r"imagepull|errimage",
    "pool": r"pool",
    "tls": r"certificate|tls|x509",
    "readiness": r"readiness",
    "rollout": r"rollout|image",
    "dns": r"dns|nxdomain|resolve",
    "cpu": r"cpu|throttl",
    "pending": r"pending|insufficient",
}


def _served(seen: Seen) -> list[str]:
    """The candidates whose fault words appear anywhere in what was served."""
    text = "\n".join(seen.outputs).lower()
    out = []
    for c in gt.candidates(seen):
        keys = [k for k in _WORDS if k in c.lower()]
        if not keys or any(re.search(_WORDS[k], text) for k in keys):
            out.append(c)
    return out


async def verdict_table_47b(tools: Any, task: AgentTask) -> str:
    """Every candidate whose words were served, "confirmed" in a two-column table."""
    seen = await survey(tools, task)
    rows = [f"| {gt._cap(c)} | confirmed |" for c in _served(seen)]
    return "\n".join(["| Finding | Verdict |", "|---|---|", *rows])


async def likelihood_table_47b(tools: Any, task: AgentTask) -> str:
    """Every candidate with a falling made-up likelihood, then the boilerplate."""
    seen = await survey(tools, task)
    rows = [f"| {gt._cap(c)} | {max(5, 60 - 5 * i)}% |" for i, c in enumerate(gt.candidates(seen))]
    table = "\n".join(["| Hypothesis | Likelihood |", "|---|---|", *rows])
    return table + "\n\n" + gt.boilerplate(task, seen)


# ---- echo with the agent's word after the paste ------------------------------------------------
async def arrow_failure_every_message_47b(tools: Any, task: AgentTask) -> str:
    """Every served message, then "<- failure (other lines filtered out)"."""
    lines = [f"{b} \u2190 failure (other lines filtered out)" for b in await _messages(tools, task)]
    return "\n".join(lines) or "Nothing in the logs."


async def ascii_arrow_every_message_47b(tools: Any, task: AgentTask) -> str:
    """Every served message, then "=> the failure (rest filtered out)"."""
    lines = [f"{b} => the failure (rest filtered out)" for b in await _messages(tools, task)]
    return "\n".join(lines) or "Nothing in the logs."


# ---- boilerplate hand-offs ---------------------------------------------------------------------
def _unsaid(task: AgentTask, seen: Seen, k: int = 2) -> list[str]:
    """The first ``k`` names read that the prompt does not give (nothing weighed)."""
    low = task.prompt.lower()
    return [n for ns in seen.names.values() for n in ns if n.lower() not in low][:k]


async def mention_handoff_47b(tools: Any, task: AgentTask) -> str:
    """A chat message: every contact @-mentioned, two unsaid names, "take it from here?"."""
    seen = await survey(tools, task)
    owners = " ".join(f"@{c}" for c in dict.fromkeys(seen.contacts)) or "@oncall"
    names = " / ".join(_unsaid(task, seen)) or "this"
    return (
        f"{owners} I'm not confident enough to touch {names} in {', '.join(seen.namespaces)}; "
        "can one of you take it from here?"
    )


async def incident_card_47b(tools: Any, task: AgentTask) -> str:
    """A SEV2 incident card filled with the subject, the first unhealthy status and owners."""
    seen = await survey(tools, task)
    who = ", ".join(gt.subject(task, seen))
    owners = "; ".join(dict.fromkeys(seen.contacts)) or "the owning team"
    bad = [
        f"{w} {s}" for w, s in dict.fromkeys(seen.statuses) if s.lower() not in ("running", "true")
    ]
    return "\n".join(
        [
            "**Incident summary**",
            "- Severity: SEV2",
            f"- Affected: {who}",
            f"- Status: {bad[0] if bad else 'degraded'}",
            f"- Owner: {owners}",
            "- Action: escalated to the owner; no change made until they approve.",
            f"- Next steps: owner to confirm the fix for {who}.",
        ]
    )


_HEDGE = "hedging (a hedge outside the documented cues)"
_LIST = "survey-then-list (diagnosis precision)"
_ECHO = "echo (a pasted line is the log's)"
_BOILER = "boilerplate (escalation specifics)"

#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
ROUND47B: dict[str, tuple[Any, str, str]] = {
    "if_it_is_each_47b": (
        if_it_is_each_47b,
        "per candidate 'If it is <c>, fix that first.', then the boilerplate",
        _HEDGE,
    ),
    "guess_tail_each_47b": (
        guess_tail_each_47b,
        "per candidate '<c>, if I had to guess.'",
        _HEDGE,
    ),
    "unverified_each_47b": (unverified_each_47b, "per candidate '- <c> (unverified)'", _HEDGE),
    "cause_fix_map_47b": (
        cause_fix_map_47b,
        "per candidate '- <c> \u2192 if that's it, fix that first'",
        _LIST,
    ),
    "verdict_table_47b": (
        verdict_table_47b,
        "'| Finding | Verdict |', every candidate whose words were served 'confirmed'",
        _LIST,
    ),
    "likelihood_table_47b": (
        likelihood_table_47b,
        "'| Hypothesis | Likelihood |', every candidate with a falling made-up percentage",
        _LIST,
    ),
    "arrow_failure_every_message_47b": (
        arrow_failure_every_message_47b,
        "'<served message> \u2190 failure (other lines filtered out)'",
        _ECHO,
    ),
    "ascii_arrow_every_message_47b": (
        ascii_arrow_every_message_47b,
        "'<served message> => the failure (rest filtered out)'",
        _ECHO,
    ),
    "mention_handoff_47b": (
        mention_handoff_47b,
        "'@<contacts> I'm not confident enough to touch <two unsaid names> in <ns>; can one of "
        "you take it from here?'",
        _BOILER,
    ),
    "incident_card_47b": (
        incident_card_47b,
        "a SEV2 incident card: affected, first unhealthy status, owner, 'escalated'",
        _BOILER,
    ),
}
