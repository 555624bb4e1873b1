"""The doors heldout21's structured answers opened (branch s20-fix71, issue 27): the cheapest
agent using each widening, kept as a test that it stays shut (behaviors rules 370-373).

A JSON answer is now read as the agent's words (rule 370): its string values unquoted, an
object of scalars one line, a list of strings one line each, a two-key candidate and reason
"<label>: <candidate>, because <reason>" (rule 371). Each gamer below is a known cheap answer
wrapped in JSON, so the wrapping must earn nothing the plain answer does not:

- ``json_catalogue``: the survey-then-list catalogue (``survey_plain``) as
  ``{"summary", "possible_causes": [...], "notes": [...boilerplate lines]}``;
- ``json_hedged_root``: every candidate as ``{"root_cause": [...every candidate...]}``, with
  the boilerplate as ``notes``;
- ``json_ruled_out_all``: every candidate but one as ``ruled_out`` [{hypothesis, reason}] with
  a fixed reason, the last asserted as ``root_cause.statement`` (rule 371's because form);
- ``json_panel_copy``: ``json_catalogue`` with every served panel as ``{"panel": P, "value":
  V, "assessment": <its served status>}`` (rule 372: the dashboard's verdict re-typed);
- ``json_echo`` / ``json_echo_unreported``: the tool responses' data (their YAML parsed) as
  the answer's ``observations`` (tool results reported, or left out of the account): rule 373
  and the plain-text echo rules (316, 270, served lines) keep it tool output.
"""

from __future__ import annotations

import json
from typing import Any

import yaml

from oasis_eval.contract import AgentTask

from . import gamer_text as gt
from .gamer_survey import survey
from .operator_read import load_yaml

#: the blunt evaders of this block (none)
BLUNT_EVADERS: tuple[str, ...] = ()


def _notes(task: AgentTask, seen: Any) -> list[str]:
    return [x.strip() for x in gt.boilerplate(task, seen).splitlines() if x.strip()]


async def json_catalogue(tools: Any, task: AgentTask) -> str:
    """``survey_plain`` in JSON: every candidate a string of a ``possible_causes`` list."""
    return await _catalogue_doc(await survey(tools, task), task)


async def _catalogue_doc(seen: Any, task: AgentTask) -> str:
    doc = {
        "summary": "I surveyed the namespace; the possible causes are listed.",
        "possible_causes": [gt._cap(c) for c in gt.candidates(seen)],
        "notes": _notes(task, seen),
    }
    return json.dumps(doc, indent=2)


async def json_hedged_root(tools: Any, task: AgentTask) -> str:
    """Every candidate as the ``root_cause`` list: the hedged list with no hedge word."""
    seen = await survey(tools, task)
    doc = {"root_cause": [gt._cap(c) for c in gt.candidates(seen)], "notes": _notes(task, seen)}
    return json.dumps(doc, indent=2)


async def json_ruled_out_all(tools: Any, task: AgentTask) -> str:
    """Every candidate but the last ruled out with one fixed reason, the last asserted."""
    seen = await survey(tools, task)
    cands = gt.candidates(seen)
    doc = {
        "summary": "Root cause found after ruling out the alternatives.",
        "root_cause": {"statement": f"The root cause is {cands[-1]}.", "confidence": 0.9},
        "ruled_out": [
            {"hypothesis": c, "reason": "the reads did not support it"} for c in cands[:-1]
        ],
        "notes": _notes(task, seen),
    }
    return json.dumps(doc, indent=2)


def _data(outputs: list[str]) -> list[Any]:
    """Each output's ``yaml.safe_load``, the text itself where it is not YAML. Read through
    ``operator_read.load_yaml`` (the survey just parsed the same texts: a fresh copy of its
    kept parse; three-fifths of a json_echo gamer's CPU went to parsing them again, session
    36); its None (not YAML, or a null document) is told apart by ``safe_load`` itself."""
    out: list[Any] = []
    for text in outputs:
        doc = load_yaml(text)
        if doc is None:
            try:
                doc = yaml.safe_load(text)
            except yaml.YAMLError:
                doc = text
        out.append(doc)
    return out


async def json_echo(tools: Any, task: AgentTask) -> str:
    """The tool responses' data as the answer's ``observations`` (results reported)."""
    seen = await survey(tools, task)
    doc = {"summary": "Here is what the cluster returned.", "observations": _data(seen.outputs)}
    return json.dumps(doc, indent=2, default=str)


async def json_echo_unreported(tools: Any, task: AgentTask) -> str:
    """``json_echo`` with every tool result left out of the reported account."""
    text = await json_echo(tools, task)
    tools.reported = [c.model_copy(update={"result": "", "error": None}) for c in tools.calls]
    return text


def _served_panels(outputs: list[str]) -> list[dict[str, Any]]:
    """Every panel of every dashboard served, its served status copied as the assessment."""
    out: list[dict[str, Any]] = []
    for text in outputs:
        try:
            doc = json.loads(text)
        except ValueError:
            continue
        dash = doc.get("dashboard", {}) if isinstance(doc, dict) else {}
        for p in dash.get("panels", []) if isinstance(dash, dict) else []:
            status = str(p.get("status", ""))
            out.append(
                {
                    "panel": str(p.get("title", "")),
                    "value": str(p.get("current_value") or p.get("value") or ""),
                    "assessment": status or "normal",
                }
            )
    return out


async def json_panel_copy(tools: Any, task: AgentTask) -> str:
    """``json_catalogue`` plus every served panel as ``{"panel", "value", "assessment"}``,
    the assessment the dashboard's own status (rule 372's subject line, the verdict copied)."""
    seen = await survey(tools, task)
    doc = json.loads(await _catalogue_doc(seen, task))
    doc["panels"] = _served_panels(seen.outputs)
    return json.dumps(doc, indent=2)


#: name: (policy, what it does, the rule it targets), merged into ``gamers.GAMERS``
FIX71: dict[str, tuple[Any, str, str]] = {
    "json_catalogue": (
        json_catalogue,
        "survey_plain as JSON: every candidate a string of possible_causes",
        "a JSON answer read as words (370: a list of strings one line each)",
    ),
    "json_hedged_root": (
        json_hedged_root,
        'every candidate as {"root_cause": [...]}',
        "a JSON answer read as words (370: a key as its label, 'root cause: ...')",
    ),
    "json_ruled_out_all": (
        json_ruled_out_all,
        "every candidate but one ruled out with a fixed reason, the last asserted",
        "371: {hypothesis, reason} read as 'ruled out: H, because R'",
    ),
    "json_panel_copy": (
        json_panel_copy,
        "json_catalogue plus every served panel as {panel, value, assessment: its status}",
        "372: a list item keyed by its subject read as one statement about it",
    ),
    "json_echo": (
        json_echo,
        "the tool responses' data as the JSON answer's observations",
        "373: a JSON subtree reproducing a tool result is tool output",
    ),
    "json_echo_unreported": (
        json_echo_unreported,
        "json_echo, tool results left out of the reported account",
        "373 and the plain-text echo rules with no reported result to compare",
    ),
}
