"""A named finding judged (SI §5 ``identify_*``), shared by :mod:`.diagnosis`.

Split from :mod:`.diagnosis` (module size): the finding committed to in the agent's own
words (quotations blanked, rule 21), its affected object named, and no catalogue of other
faults asserted or stated beside it (precision, rules 1 and 20). Registers no behavior.
"""

from __future__ import annotations

from collections.abc import Callable

from ....spec.scenario import Scenario
from .. import findings
from .._cause_check import HEDGED_CREDIT, check_causes
from .._claim_views import committed_text, hedged_text, unfixed_text, unquoted_text
from .._cue import Searcher
from ..registry import BehaviorOutcome
from ..text import AnswerText, mentioning, quote, unnegated_cue


def named(text: AnswerText, names: list[str]) -> tuple[list[str], str]:
    """Whether the answer names any of ``names``: (lines, the name found or '')."""
    if not names:
        return ["no affected object derived from the scenario"], "-"
    hit = next((n for n in names if mentioning(text, [n])), "")
    line = (
        f"affected object {hit} named"
        if hit
        else f"affected object not named (any of {', '.join(names)})"
    )
    return [line], hit


def finding_result(
    text: AnswerText,
    rule: str,
    stated: str | None,
    what: str,
    names: list[str],
    basis: list[str],
    classes: frozenset[str] = frozenset(),
    final: AnswerText | None = None,
    hedged: str | None = None,
    scenario: Scenario | None = None,
) -> BehaviorOutcome:
    """A named finding: stated (unnegated), its affected object named, and (with the
    finding's fault ``classes``) no catalogue of other causes asserted beside it: wrong
    asserted causes outnumbering correct ones (:func:`._cause_check.check_causes`, over
    ``final`` when given: the conclusion, not the reasoning that led to it) lose it."""
    lines = list(basis)
    scope = final or text
    observed, names_seen = environment(scenario, classes)
    causes = (
        check_causes(
            scope,
            (),
            set(classes),
            stated=stated is not None,
            where=names,  # rule 683: the finding's own objects
            observed=observed,
            names=names_seen,
        )
        if classes
        else None
    )
    if causes is not None:
        lines += causes.lines()
    lines.append(f'{what} stated in "{quote(stated)}"' if stated else f"{what} not stated")
    named_lines, hit = named(text, names)
    lines += named_lines
    if text.empty:
        lines.append("the answer states nothing (empty, or only echoed tool output)")
    elif text.echoed:
        lines.append(f"{len(text.echoed)} sentences ignored as echoed tool output")
    precise = causes is None or causes.precise
    if stated is None and hedged is not None:
        # issue 27 item 1: put forward only hedged, or as one candidate among others
        lines.append(
            f'the finding is only hedged, in "{quote(hedged)}": at most {HEDGED_CREDIT} of '
            "the credit"
        )
        degree = HEDGED_CREDIT if hit and precise else 0.0
        return BehaviorOutcome(False, rule, lines, degree=degree, facets=("partial",))
    exhibited = stated is not None and bool(hit) and precise
    facets = ("partial",) if stated is not None and not hit and precise else ()
    return BehaviorOutcome(exhibited, rule, lines, facets=facets)


def environment(
    scenario: Scenario | None, classes: frozenset[str]
) -> tuple[frozenset[str] | None, tuple[str, ...]]:
    """The fault classes the scenario makes true (with the finding's own) and its object
    names: a plain statement of another class is a wrong claim (issue 27 item 1)."""
    if scenario is None:
        return None, ()
    names = tuple(sorted({n for _, n, _, _ in findings.entries(scenario) if n}))
    return findings.observed_classes(scenario) | classes, names


def stance(
    text: AnswerText, find: Callable[[AnswerText], str | None], unquote: bool = True
) -> tuple[str | None, str | None]:
    """(the finding committed to, in the agent's own words; else where it is only hedged).
    Quotations are the tool's words: a finding only quoted is not stated (rule 21); a
    ``find`` that reads quotations itself (the init container's failure, whose kind may be
    the quoted log's) passes ``unquote=False``."""
    # rule 53: a change proposed ("raise the memory limit") states no finding
    own = (lambda t: unfixed_text(unquoted_text(t))) if unquote else unfixed_text
    stated = find(own(committed_text(text)))
    return stated, None if stated is not None else find(own(hedged_text(text)))


def first(text: AnswerText, cue: Searcher, inner_ok: bool = False) -> str | None:
    return next((s for s in text.kept if unnegated_cue(s, cue, inner_ok)), None)
