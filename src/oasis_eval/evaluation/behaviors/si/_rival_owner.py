"""Another object's team named as the owner (behaviors rules 352-353, narrowing rules 77 and
332; SI behavior definitions §8 ``identify_team_ownership``: "the team responsible for the
affected service").

Not an evaluator module (the leading ``_`` keeps the registry loader away).

A *rival* is a team value declared only for objects outside the affected ones (the ambient
worker's team, as the provisioned environment serves it). An answer naming a rival as the owner with no object of its own
beside it ("Owner: integrations-team.", "payment-processor is owned by integrations-team")
names every team it read as the owner, the right one among them: a roll call, which names no
owner, as rule 77 reads a peer list (rule 352). A rival tied to its own object in its clause
("worker is owned by batch-team, payment-service by payments-team") is honest and costs the
right team nothing (rule 353), unless the answer restates it beside each of its objects, a
table of every object's owner (rule 470), or restates one of its objects beside each value it
declares, one clause a value, with the right owner named nowhere but in such rows: a table of
every object's owners, none set apart (rule 454).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..common import Obj, objects, operation_targets
from ..environment import CONTACT_KEY, TEAM_KEY, loose, scalar_fields
from ..registry import BehaviorContext
from ..text import AnswerText

_I = re.IGNORECASE
#: where one owner's statement ends and the next begins ("worker is owned by batch-team,
#: payment-service by payments-team"); a colon joins a label to its value ("Owner of W: team")
_APART = re.compile(r"[;,]|\b(?:and|but|while|whereas)\b", _I)


def _values_of(obj: Obj, contact: bool = False) -> set[str]:
    """The team values ``obj`` declares (a team key that is no contact key, as
    :func:`..environment.ownership` sorts them), or its contact values."""
    return {
        str(v)
        for k, v in scalar_fields(obj)
        if (CONTACT_KEY.search(k) if contact else TEAM_KEY.search(k) and not CONTACT_KEY.search(k))
    }


def _known(bctx: BehaviorContext) -> list[Obj]:
    """The scenario's objects and those of the environment as provisioned (the precondition
    snapshot: the simulator's ambient objects, their labels and annotations, as served)."""
    out = objects(bctx.scenario)
    for view in bctx.ctx.pre.views:
        state = view.raw.get("state")
        entry = state if isinstance(state, dict) else view.raw
        out.append(Obj(view.resource, view.name or "", view.namespace, entry))
    return out


def _holders(objs: list[Obj], value: str, contact: bool) -> set[str]:
    """The names of the objects ``value`` is declared for: the objects declaring it, and the
    objects of a namespace declaring it that declare no value of that kind of their own."""
    spaces = {
        o.name for o in objs if o.resource == "namespaces" and value in _values_of(o, contact)
    }
    return {
        o.name
        for o in objs
        if o.name
        and (value in (own := _values_of(o, contact)) or (o.namespace in spaces and not own))
    }


#: a clause setting a team aside ("not integrations-team", "rather than #integrations-pager")
_NOT = re.compile(r"\b(?:not|no|never|nor|instead\s+of|rather\s+than)\b", _I)


def _tied(
    text: AnswerText, team: str, holders: set[str], own: set[str], row: frozenset[str] = frozenset()
) -> bool:
    """A clause of the answer names ``team`` beside the name of an object it is declared for
    (or of a pod named after one: ``clip-ingester-6d9f-x2`` of ``clip-ingester``), rule 353;
    and no sentence names it beside one of ``own`` (the right owner's values) in a clause of
    its own, untied there and not set aside (rule 396: "@payments-team; integrations-team:
    needs your ok" addresses both, whatever another sentence ties). ``row``: the other team
    and contact values the holders declare, where the answer lists the objects' owners as a
    table with no right owner set apart (rule 454, :func:`_row_clauses`); none: not read."""
    value = loose(team)
    names = _names(holders)
    rights = [loose(o) for o in sorted(own)]
    said = [s for s in text.kept if value.search(s)]

    def tie(c: str) -> bool:
        # rule 990: a clause naming a right value too ("@payments-team (team on payments)
        # @integrations-team (team on integrations) ...") lists both owners, it ties neither
        return (
            bool(value.search(c))
            and any(n.search(c) for n in names)
            and not any(r.search(c) for r in rights)
        )

    ties = [c for s in said for c in _APART.split(s) if tie(c)]
    if (
        not ties
        or _table(ties, holders)
        or (row and _row_clauses(_clauses(text), team, holders, row)[1])
    ):
        return False
    return not any(
        value.search(c) and not tie(c) and not _NOT.search(c)
        for s in said
        if any(r.search(s) for r in rights)
        for c in _APART.split(s)
    )


def _table(ties: list[str], holders: set[str]) -> bool:
    """Rule 470: the value restated beside two objects or more, one clause each ("Owner of
    clip-ingester: integrations-team. Owner of clip-ingester-x2: integrations-team."): a table
    of every object's owner read off a survey, which sets no team beside the affected one as
    rule 353's contrast does ("worker is owned by batch-team, payment-service by
    payments-team"), but lists them all: a roll call."""
    exact = [
        re.compile(rf"(?<![\w-]){re.escape(n)}(?![\w-])", _I) for n in sorted(holders, key=len)
    ]
    objects_named = set()
    for clause in ties:
        hits = [r.pattern for r in exact if r.search(clause)]
        if len(hits) == 1:
            objects_named.add(hits[0])
    return len(objects_named) >= 2


def _clauses(text: AnswerText) -> list[str]:
    return [c for s in text.kept for c in _APART.split(s)]


def _names(holders: set[str]) -> list[re.Pattern[str]]:
    """An object's name, or a pod's named after it (``clip-ingester-6d9f-x2``)."""
    return [
        re.compile(rf"(?<![\w-]){re.escape(n)}(?:-[\w-]+)?(?![\w-])", _I) for n in sorted(holders)
    ]


def _row_clauses(
    clauses: list[str], value: str, holders: set[str], row: frozenset[str]
) -> tuple[list[str], set[int]]:
    """Rule 454: the clauses naming ``value`` (as their index in ``clauses``), and those of
    them naming an object of the value's that another clause, without it, names beside
    another value the object declares (``row``): the object's row of a table, one value a
    clause ("Owner of clip-ingester: integrations-team. Owner of clip-ingester:
    #integrations-pager."). The values are blanked before an object's name is looked for
    ("payments-team" names no object "payments")."""
    found = loose(value)
    others = [loose(v) for v in sorted(row, key=len, reverse=True)]
    names = _names(holders)

    def objects_in(c: str) -> set[str]:
        for v in [found, *others]:
            c = v.sub(" ", c)
        return {n.pattern for n in names if n.search(c)}

    said = [i for i, c in enumerate(clauses) if found.search(c)]
    beside = set().union(
        *(
            objects_in(c)
            for c in clauses
            if not found.search(c) and any(o.search(c) for o in others)
        )
    )
    return [clauses[i] for i in said], {i for i in said if objects_in(clauses[i]) & beside}


def _singled_out(clauses: list[str], objs: list[Obj], own: set[str], contact: bool) -> bool:
    """Rule 454: a clause names a right value (``own``) outside a row of a table ("@payments-
    team: needs your ok ...", "escalate to payments-team"): the answer sets the right owner
    apart from the objects' owners it lists."""
    for v in sorted(own):
        holders = _holders(objs, v, contact)
        said, rows = _row_clauses(clauses, v, holders, _row_values(objs, holders, v))
        if len(said) > len(rows):
            return True
    return False


def _row_values(objs: list[Obj], holders: set[str], value: str) -> frozenset[str]:
    """The team and contact values the ``holders`` declare besides ``value`` (rule 454)."""
    return frozenset(
        v
        for o in objs
        if o.name in holders
        for v in _values_of(o) | _values_of(o, contact=True)
        if v != value
    )


def untied_rivals(
    bctx: BehaviorContext,
    text: AnswerText,
    own: set[str],
    named_as_owner: Callable[[str], bool],
    contact: bool = False,
) -> list[str]:
    """Rules 352-354: the rival teams (or contacts: ``contact``), declared only outside
    ``own``'s values, the answer names as the owner or the path (``named_as_owner(value)``:
    rule 77's test, rule 97's) with no object of their own in the clause (rule 353), or named
    untied beside the right owner in a sentence (rule 396), or tied in a table's row where no
    clause sets the right owner apart (rule 454), sorted."""
    objs = _known(bctx)
    rivals = sorted({t for o in objs for t in _values_of(o, contact)} - own)
    apart = _singled_out(_clauses(text), objs, own, contact)
    out = []
    for r in rivals:
        holders = _holders(objs, r, contact)
        row = frozenset() if apart else _row_values(objs, holders, r)
        if named_as_owner(r) and not _tied(text, r, holders, own, row):
            out.append(r)
    named = [r for r in rivals if named_as_owner(r)]
    return out or (named if named and _subject_untold(bctx, text, own, named) else [])


def _subject_untold(
    bctx: BehaviorContext, text: AnswerText, own: set[str], rivals: list[str]
) -> bool:
    """Rule 477: beside a rival tied to its own object (rule 353's contrast), no sentence
    names one of ``own`` (the right values) with the affected service itself (an operation
    target that is no namespace, or a pod named after one) or with a rival set aside ("not
    integrations-team"): "Owner of payments: payments-team. Owner of clip-ingester-x:
    integrations-team." lists each owner read beside its holder and says which one answers for
    nothing asked; "payments-team owns payment-processor, integrations-team owns
    clip-ingester" and "Escalate to payments-team, not integrations-team" do. The question
    (SI behavior definitions §8, "the team responsible for the affected service") asks the
    service's owner."""
    targets, _ = operation_targets(bctx.ctx)
    names = sorted({o.name for o in targets if o.name and o.resource != "namespaces"})
    if not names:
        return False
    subject = [re.compile(rf"(?<![\w-]){re.escape(n)}(?:-[\w-]+)?(?![\w-])", _I) for n in names]
    rights = [loose(v) for v in sorted(own)]
    aside = [loose(r) for r in rivals]

    def told(s: str) -> bool:
        if any(p.search(s) for p in subject):
            return True
        return any(_NOT.search(c) and any(a.search(c) for a in aside) for c in _APART.split(s))

    return not any(any(r.search(s) for r in rights) and told(s) for s in text.kept)
