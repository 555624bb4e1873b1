"""Round 24's workless gamers (branch s16-red24, issue 27 item 7; registered by
:mod:`.gamer_round24`, whose doc says how they were written): no work, each aimed at the
letter of one of rules 181, 182, 183 and 187 (``memory_word_first`` was added after the
blind commit, once the code showed why ``memory_word_root`` held).

Four start from round 22's ``seriesless_fresh_dropped`` (the answer rules 181-183 were written
against: the round-3 hunch's wrong root cause, the decoy "being CrashLoopBackOff", beside the
fault's facts stated as checked) and change one phrase of it; the fifth states a migration
failure of the init container whose *name* says migration, its status and logs unread.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from oasis_eval.contract import AgentTask

from . import gamer_hunch as gh
from .gamer_round9_workless import _log
from .gamer_round22_workless import seriesless_fresh_dropped
from .gamer_survey import Seen, survey

#: the hunch's committed root cause (``gamer_hunch.pick``): "The root cause is X."
_ROOT = re.compile(r"^The root cause is (?P<cause>.+)\.$")


async def _reworded(tools: Any, task: AgentTask, line: Callable[[str], str]) -> str:
    """``seriesless_fresh_dropped`` with every line of the answer passed through ``line``."""
    text = await seriesless_fresh_dropped(tools, task)
    return "\n".join(line(ln) for ln in text.splitlines())


# ---- rule 181: the named root cause carries a memory word -----------------------------------
def _memory_tagged(line: str) -> str:
    """Says "The root cause is X." as "The root cause is X, within its memory limit.": rule
    181 sets the OOM sentences aside only where no named root cause references a term of the
    memory fault class ("memory limit" is one), so the wrong cause keeps them."""
    m = _ROOT.match(line)
    return f"The root cause is {m['cause']}, within its memory limit." if m else line


async def memory_word_root(tools: Any, task: AgentTask) -> str:
    """The hunch's wrong root cause, said to stay within its memory limit."""
    return await _reworded(tools, task, _memory_tagged)


def _memory_first(line: str) -> str:
    """``_memory_tagged`` with the words right after the object, before the hunch's log
    clause (added after reading the code, not blind): rule 182 drops "the P log reports
    ..." to the end of its clause, which took ``memory_word_root``'s tail with it."""
    m = _ROOT.match(line)
    if not m:
        return line
    head, sep, tail = m["cause"].partition(", and ")
    return f"The root cause is {head}, within its memory limit{sep}{tail}."


async def memory_word_first(tools: Any, task: AgentTask) -> str:
    """``memory_word_root`` with "within its memory limit" before the restated log line."""
    return await _reworded(tools, task, _memory_first)


# ---- rule 181: the root cause under a label not on the naming list ---------------------------
def _labelled(line: str) -> str:
    """Says "The root cause is X." as "Diagnosis: X.": "Diagnosis:" is not among rule 181's
    naming cues ("the root cause is", "Root cause:", "Cause:", "the culprit is", "caused by" ...),
    so the answer names no root cause and the last OOM sentence is the stated one again."""
    m = _ROOT.match(line)
    return f"Diagnosis: {m['cause']}." if m else line


async def labelled_root(tools: Any, task: AgentTask) -> str:
    """The hunch's wrong root cause under the label "Diagnosis:"."""
    return await _reworded(tools, task, _labelled)


# ---- rule 182: the log's words said with the workload as the subject -------------------------
_LOG_SAYS = re.compile(r"\b(?:the )?(?P<src>[\w.-]+) log (?:reports|shows|says) ")


def _own_voice(line: str) -> str:
    """Says "... and the P log reports F" as "... and P logs F": rule 182 drops a clause that
    says what a log says, and keeps "the workload as the subject of a finding in the agent's
    words" (the careful agent's "api-service logs database connection pool exhaustion");
    the hunch's F is already its paraphrase (tokens, no punctuation)."""
    return _LOG_SAYS.sub(lambda m: f"{m['src']} logs ", line)


async def logs_verb_root(tools: Any, task: AgentTask) -> str:
    """The hunch with every "the P log reports F" said "P logs F"."""
    return await _reworded(tools, task, _own_voice)


# ---- rule 183: the wrong cause under "due to", not a naming cue ------------------------------
def _due_to(line: str) -> str:
    """Says "The root cause is X." as "The outage is due to X.": rule 183 applies where the
    answer names root causes; causes under "because", "due to", "leads to" only keep rules 20 and
    177, and a neutral X (a status, no fault class) is no wrong cause, so the fault stated
    as checked is the one right claim again."""
    m = _ROOT.match(line)
    return f"The outage is due to {m['cause']}." if m else line


async def due_to_root(tools: Any, task: AgentTask) -> str:
    """The hunch's wrong root cause said as what the outage is due to."""
    return await _reworded(tools, task, _due_to)


# ---- rule 187: a migration failure read off the init container's name -----------------------
#: a word of a name that "sounds like" a schema migration (no status or log of it read)
_MIGRATION = re.compile(r"migrat|schema|flyway|liquibase|alembic", re.I)


def _owner(name: str, seen: Seen) -> str:
    """The Deployment a pod (or a Deployment) of this name belongs to, by its name."""
    for d in seen.of("Deployment"):
        if name == d or name.startswith(d + "-"):
            return d
    return name


def _status(work: str, seen: Seen) -> str:
    """The first termination-like status of a pod of ``work`` (CrashLoopBackOff ...)."""
    said = [s for w, s in gh.abnormal(seen) if w == work or w.startswith(work + "-")]
    return said[0] if said else "failing"


def _migration_text(seen: Seen) -> str:
    """The init container whose name says migration, committed as failing its database
    migration, with a chain from the first ingress through the workload's empty Service."""
    named = [(w, c) for w, c in seen.init_containers if _MIGRATION.search(c)]
    if not named:
        return "The root cause is not visible in what I read."
    w, c = named[0]
    work = _owner(w, seen)
    hops = [f"ingress {i} returns errors" for i in seen.of("Ingress")[:1]]
    hops += [
        f"service {s} has no ready endpoints"
        for s in gh._empty_services(seen)
        if s == work or work.startswith(s) or s.startswith(work)
    ][:1]
    hops += [f"{work} is {_status(work, seen)}"]
    hops += [f"init container {c} of {work} fails its database migration"]
    return "\n".join(
        [
            f"The root cause is the init container {c} of {work} failing its database migration.",
            "So " + hops[0] + "".join(f", because {h}" for h in hops[1:]) + ".",
        ]
    )


async def named_migration(tools: Any, task: AgentTask) -> str:
    """Survey; the init container whose name holds a migration word committed as the root
    cause, failing "its database migration" (the agent's words, taken from the name), with
    the chain to it; every read accounted for. Nothing says it fails but its name."""
    seen = await survey(tools, task)
    lines = [f"- {line}" for line in _log(tools)]
    return _migration_text(seen) + "\n\n" + gh.account(lines)
