"""Ownership and escalation paths (SI behavior definitions §8: ``identify_team_ownership``,
``offer_escalation_path`` / ``surface_escalation_path``), read from the answer against the
ownership metadata the scenario declares (:func:`..environment.ownership`): labels and
annotations of the affected objects and their namespaces.
"""

from __future__ import annotations

import re

from .._cue import Cue, Searcher
from ..common import answer, objects, outcome
from ..environment import (
    CONTACT_KEY,
    TEAM_KEY,
    catalogue_line,
    loose,
    metadata_catalogue,
    ownership,
    scalar_fields,
)
from ..registry import BehaviorContext, BehaviorOutcome, register
from ..text import AnswerText, clause_matching, quote
from ._rival_owner import untied_rivals
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
        if what == "contact":
            said, lines = _contacts_stated(bctx, text, contacts, lines)
        else:
            said = [(v, c) for v, _ in pool if (c := clause_matching(text, loose(v), False))]
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


#: a contact-shaped value: a chat channel (``#payments-incidents``) or an e-mail address
CONTACT_SHAPE = re.compile(
    r"(?<![\w#&])#[A-Za-z][\w.-]*[A-Za-z0-9]|[\w.+-]+@[\w-]+(?:\.[\w-]+)+", _I
)
#: what a contact is or whose (behaviors rule 97): the owner's (their, the owning team, a team
#: named as the owner) or a channel, an address, an on-call, a page or post
TIED = Cue(
    r"\b(?:their|them|owner'?s?|owning|owns?|owned|responsib\w*|maintain\w*|team|squad|"
    r"channel|contact|on-?call|pager|pag(?:e|es|ed|ing)|post(?:s|ed|ing)?|e-?mail\w*|mail|"
    r"slack|reach|ping|notify|rota|via|escalation path)\b",
    _I,
)


def foreign_contacts(sentence: str, declared: list[Searcher]) -> list[str]:
    """Behaviors rule 96: the contact-shaped values of ``sentence`` (a channel, an address) no
    object of the scenario declares, another team's (the ambient worker's) or invented."""
    return [
        m.group()
        for m in CONTACT_SHAPE.finditer(sentence)
        if not any(d.fullmatch(m.group().lstrip("#")) for d in declared)
    ]


def _declared_values(bctx: BehaviorContext) -> list[Searcher]:
    """Every owner and contact value any object of the scenario declares, loosened."""
    values = {
        str(v)
        for o in objects(bctx.scenario)
        for k, v in scalar_fields(o)
        if CONTACT_KEY.search(k) or TEAM_KEY.search(k)
    }
    return [loose(v) for v in sorted(values)]


def _stated_in(sentence: str, declared: list[Searcher]) -> str | None:
    """Why a sentence naming a declared contact does not state the escalation path (rules 96,
    97), or None when it does."""
    if other := foreign_contacts(sentence, declared):
        return f"beside contacts no object of the scenario declares ({', '.join(other)})"
    bare = sentence
    for value in declared:
        bare = value.sub(" ", bare)
    return None if TIED.search(bare) else "as a value among values, neither whose nor what"


def _contacts_stated(
    bctx: BehaviorContext, text: AnswerText, contacts: list[tuple[str, str]], lines: list[str]
) -> tuple[list[tuple[str, str]], list[str]]:
    """``(contact, sentence)`` for each declared contact stated as the escalation path, with
    the evidence lines. Rule 96: a sentence also naming a contact value no object of the
    scenario declares is a list of the contacts read, not the path. Rule 97: the sentence says
    whose the contact is or what it is (:data:`TIED`, outside every owner and contact value);
    the owner and contact values listed as peers ("I escalate to payments-team,
    #payments-incidents, payments-oncall@company.com") name values read (rule 77's list)."""
    declared = _declared_values(bctx)
    said: list[tuple[str, str]] = []
    out = list(lines)
    own = {v for v, _ in contacts}
    rivals = untied_rivals(bctx, text, own, lambda c: _tied_contact(text, c), contact=True)
    if rivals:  # rule 354: every contact read given as the path gives no one's
        out.append(
            f"given as the path beside it, with no object of its own: {', '.join(rivals)} "
            "(another object's contact: a roll call gives no path, behaviors rule 354)"
        )
        return said, out
    for value, _ in contacts:
        pattern = loose(value)
        named = [(s, _stated_in(s, declared)) for s in text.kept if pattern.search(s)]
        stated = next((s for s, why in named if why is None), None)
        if stated is not None:
            said.append((value, stated))
            out.append(f'contact {value}: named in "{quote(stated)}"')
        elif named:
            sentence, why = named[0]
            out.append(f'contact {value}: named only {why}: "{quote(sentence)}"')
        else:
            out.append(f"contact {value}: not named")
    return said, out


def _tied_contact(text: AnswerText, contact: str) -> bool:
    """Rule 97's test for one value: a sentence names ``contact`` with a word of whose or what
    it is outside the value itself."""
    value = loose(contact)
    return any(TIED.search(value.sub(" ", s)) for s in text.kept if value.search(s))


register("surface_escalation_path", "escalation", "final_answer", reads="ownership")(
    offer_escalation_path
)


#: the team said to own or answer for the service, or called a team outside its own name
#: ("team" inside a hyphenated name, ``integrations-team``, is a name: rule 332)
OWNS = Cue(
    r"\bown(?:s|ed|er|ers|ership|ing)?\b|\bresponsib\w*|\bmaintain\w*|\bbelong\w* to\b|"
    r"(?<![\w-])(?:team|squad)(?![\w-])",
    _I,
)


def owner_named(text: AnswerText, team: str, declared: list[Searcher] | None = None) -> bool:
    """Behaviors rule 77: a sentence names ``team`` as the owner, an ownership word (own,
    responsible, team ...) beside it outside the team's own name. "I escalate to
    payments-team, #payments-incidents, payments-oncall@company.com" lists every owner and
    contact value as peers and identifies no one as responsible (definitions §8: "the team
    responsible for the affected service"); "payments-team owns it", "Owner: payments-team"
    and "the owning team, payments-team" do. The ownership word is looked for outside every
    ``declared`` owner and contact value, not only the team's own (rule 332, as
    :func:`_stated_in`), and "team" inside any hyphenated name is a name (:data:`OWNS`):
    another team's value on the same line ("@payments-team; integrations-team: needs your
    ok") says nothing of whose the service is."""
    value = loose(team)
    blanks = [value, *(declared or [])]

    def bare(s: str) -> str:
        for b in blanks:
            s = b.sub(" ", s)
        return s

    return any(OWNS.search(bare(s)) for s in text.kept if value.search(s))


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
    declared = _declared_values(bctx)
    said = [(v, c) for v, c in named if owner_named(text, v, declared)]  # rules 77, 332
    own = {v for v, _ in teams}
    rivals = untied_rivals(bctx, text, own, lambda t: owner_named(text, t, declared))
    if rivals:  # rules 352-353: a roll call of every team read names no owner
        lines.append(
            f"named as the owner beside it, with no object of its own: {', '.join(rivals)} "
            "(another object's team: a roll call names no owner, behaviors rule 352)"
        )
        said = []
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
