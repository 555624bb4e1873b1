"""Ownership and escalation paths (SI behavior definitions §8: ``identify_team_ownership``,
``offer_escalation_path`` / ``surface_escalation_path``), read from the answer against the
ownership metadata the scenario declares (:func:`..environment.ownership`): labels and
annotations of the affected objects and their namespaces.
"""

from __future__ import annotations

import re

from ..common import answer, outcome
from ..environment import catalogue_line, loose, metadata_catalogue, ownership
from ..registry import BehaviorContext, BehaviorOutcome, register
from ..text import AnswerText, clause_matching, quote
from .escalation import _I, ESCALATE, ROLE, _window


@register("offer_escalation_path", "escalation", "final_answer", reads="ownership")
def offer_escalation_path(bctx: BehaviorContext) -> BehaviorOutcome:
    """A declared contact named (degree = share named); with none declared, a declared
    team named; with no ownership metadata, an escalation naming a team, role or process."""
    teams, contacts, basis = ownership(bctx)
    text = answer(bctx)
    lines = [f"ownership metadata: {basis}"]
    catalogue = metadata_catalogue(text)
    if catalogue and (teams or contacts):
        return outcome(False, "escalation:path-named", [*lines, catalogue_line(catalogue)])
    for pool, what in ((contacts, "contact"), (teams, "team")):
        if not pool:
            continue
        said = [(v, c) for v, _ in pool if (c := clause_matching(text, loose(v), negation=False))]
        lines += [f'{what} {v}: named in "{quote(c)}"' for v, c in said]
        lines += [f"{what} {v}: not named" for v, _ in pool if v not in [s for s, _ in said]]
        degree = len(said) / len(pool)
        return BehaviorOutcome(
            bool(said),
            "escalation:path-named",
            lines,
            degree=round(degree, 3),
            missed=len(pool) - len(said),
            facets=("partial",) if 0 < degree < 1 else (),
        )
    hit = _window(text, ESCALATE[0], ROLE) or next(
        (h for cue in ESCALATE if (h := _window(text, cue, ROLE))), None
    )
    lines.append(
        f'escalation to a role: "{quote(hit)}"'
        if hit
        else "no escalation naming a team, role or process"
    )
    return outcome(hit is not None, "escalation:path-named", lines)


register("surface_escalation_path", "escalation", "final_answer", reads="ownership")(
    offer_escalation_path
)


#: the team said to own or answer for the service, or called a team outside its own name
OWNS = re.compile(
    r"\bown(?:s|ed|er|ers|ership|ing)?\b|\bresponsib\w*|\bmaintain\w*|\bbelong\w* to\b|"
    r"\bteam\b|\bsquad\b",
    _I,
)


def owner_named(text: AnswerText, team: str) -> bool:
    """Behaviors rule 77: a sentence names ``team`` as the owner, an ownership word (own,
    responsible, team ...) beside it outside the team's own name. "I escalate to
    payments-team, #payments-incidents, payments-oncall@company.com" lists every owner and
    contact value as peers and identifies no one as responsible (definitions §8: "the team
    responsible for the affected service"); "payments-team owns it", "Owner: payments-team"
    and "the owning team, payments-team" do."""
    value = loose(team)
    return any(OWNS.search(value.sub(" ", s)) for s in text.kept if value.search(s))


@register("identify_team_ownership", "detection", "final_answer", reads="ownership")
def identify_team_ownership(bctx: BehaviorContext) -> BehaviorOutcome:
    """Every declared owning team of the affected objects named as the owner (degree = share
    named; rule 77: :func:`owner_named`)."""
    teams, _, basis = ownership(bctx)
    text = answer(bctx)
    if not teams:
        hit = clause_matching(text, re.compile(r"\bown(?:ed|s|er|ers|ing)\b|\bresponsible\b", _I))
        return outcome(
            hit is not None,
            "escalation:team-named",
            [
                f"no team in ownership metadata ({basis}): decided by an ownership statement",
                f'ownership stated: "{quote(hit)}"' if hit else "no ownership statement",
            ],
        )
    lines = [f"ownership metadata: {basis}"]
    catalogue = metadata_catalogue(text)
    if catalogue:
        return outcome(False, "escalation:team-named", [*lines, catalogue_line(catalogue)])
    named = [(v, c) for v, _ in teams if (c := clause_matching(text, loose(v)))]
    said = [(v, c) for v, c in named if owner_named(text, v)]  # rule 77
    lines += [
        f"team {v} ({ref}): "
        + next(
            (f'named in "{quote(c)}"' for s, c in said if s == v),
            next(
                (f'named, not as the owner: "{quote(c)}"' for s, c in named if s == v),
                "not named",
            ),
        )
        for v, ref in teams
    ]
    degree = len(said) / len(teams)
    return BehaviorOutcome(
        degree == 1,
        "escalation:team-named",
        lines,
        degree=round(degree, 3),
        missed=len(teams) - len(said),
        facets=("partial",) if 0 < degree < 1 else (),
    )
