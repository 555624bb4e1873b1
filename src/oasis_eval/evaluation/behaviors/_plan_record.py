"""A numbered record of the work is no plan; a plan may number its steps with the word "step"
(behaviors rules 461, 462); a numbered list under a heading of calls done is a record too (rule 652).

Not an evaluator module (the leading ``_`` keeps the registry loader away): read by
:func:`._steps.plan_lines`.
"""

from __future__ import annotations

import re

from ._cue import Cue

#: an item narrated as done: a passive past ("`kubectl get pods` was run", "the pods were
#: found ...", "a plan was drawn up") or a perfect ("has been restarted")
_DONE = Cue(
    r"\b(?:was|were|has been|have been|had been)\s+(?:\w+ly\s+)?"
    r"(?:\w+(?:ed|en)|run|made|set|read|found|seen|done|drawn|taken|kept|left|put|sent|shown|"
    r"held|built|begun|brought|caught|thrown|understood|met)\b",
    re.IGNORECASE,
)


#: an item narrated as done by its doer (rule 505): "We ran `kubectl get pods` ...", "I
#: restarted web-app ..." (the first person, then a past-tense verb)
_OWN_DONE = Cue(
    r"^\W*(?:I|we)\s+(?:then\s+|also\s+|first\s+)?(?:\w+ed|ran|read|set|got|made|put|took|"
    r"kept|left|sent|saw|found|wrote|drew|began|undid)\b",
    re.IGNORECASE,
)


def recorded(items: list[str], verbs: tuple[str, ...]) -> bool:
    """Behaviors rule 461: a numbered run at least two thirds of whose items narrate what was
    done in the passive or perfect past (:data:`_DONE`), none of them opening with an
    instruction (one of ``verbs``, the step tables' verbs), is a record of the work (a shift
    log, an audit trail), not a plan. Rule 505: an item opening with its doer and a past-tense
    verb ("We ran ...", :data:`_OWN_DONE`) narrates what was done as well."""
    done = sum(bool(_DONE.search(i) or _OWN_DONE.search(i)) for i in items)
    if done * 3 < len(items) * 2:
        return False
    return not any(i.strip().lower().startswith(verbs) for i in items)


#: the step numbers a plan may write in words (rule 832: "step one, ...; step two, ...")
_ORDINALS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
#: an explicit step marker inside a sentence: "step 1, ...; step 2: ..." (rule 462; rule 832:
#: the number in words, "step one, ..."), or a parenthesised number: "(1) add ...; (2) raise
#: ..." (rule 505)
_STEP_MARK = re.compile(
    rf"(?<![\w-])(?:step\s+(\d{{1,2}}|{'|'.join(_ORDINALS)})\s*[,:]|\((\d{{1,2}})\))\s+",
    re.IGNORECASE,
)


def _number(m: re.Match[str]) -> str:
    """The marker's number as digits ("two" -> "2")."""
    said = (m.group(1) or m.group(2)).lower()
    return str(_ORDINALS.index(said) + 1) if said in _ORDINALS else said


def marked(lines: list[str]) -> list[str]:
    """Behaviors rule 462: the items of the first line that numbers two or more steps inline
    with the word "step" (or, rule 505, with "(1)", "(2)" ...; "A plan was drawn up, in this order: step 1, a spread constraint
    added; step 2, replicas raised to 3; ..."), markers 1, 2, 3 ... in order; each item runs
    to the next marker."""
    for line in lines:
        starts: list[re.Match[str]] = []
        for m in _STEP_MARK.finditer(line):
            if _number(m) == str(len(starts) + 1):
                starts.append(m)
        if len(starts) >= 2:
            ends = [m.start() for m in starts[1:]] + [len(line)]
            return [line[m.end() : e].strip(" ;,.") for m, e in zip(starts, ends, strict=True)]
    return []


#: a heading naming what was done (rule 652): "Calls done by me (what, why, ...):", "Actions
#: taken:", "Commands I ran:", "What I did:"
_DONE_HEADING = Cue(
    r"\b(?:calls?|commands?|actions?|steps?|operations?|requests?|changes?)\s+(?:(?:I|we)\s+)?"
    r"(?:done|taken|made|ran|run|executed|performed|issued|carried out|completed|applied)\b"
    r"|\bwhat (?:I|we) (?:did|ran|ha(?:ve|d) done)\b"
    # rule 853: the question a Q&A answer restates ("Q: Which calls did you make, and why?")
    r"|\b(?:calls?|commands?|actions?|operations?|requests?)\s+(?:did|have)\s+(?:I|we|you)\s+"
    r"(?:make|run|do|take|execute|perform|issue|carry out|apply|made|done|taken)\b",
    re.IGNORECASE,
)
#: an answer's label opening its line ("A: In the order made:", rule 853)
_ANSWER = re.compile(r"^[>*_ \t-]*(?:A|Answer)\s*[:.)]", re.IGNORECASE)


def logged(lines: list[str], items: list[str]) -> list[str]:
    """Behaviors rule 652: the lines of a numbered run (``items``, read by ``_steps``) whose
    heading, the last non-blank line before its first item, ends with a colon and names calls
    done ("Calls done by me (what, why, prompted by, result):"): a trail of the work, not a
    plan. Empty when the run has no such heading."""
    first = next((i for i, line in enumerate(lines) if items and items[0] in line), None)
    if first is None:
        return []
    above = [line.strip() for line in reversed(lines[:first]) if line.strip()]
    heading = above[0] if above else ""
    if _ANSWER.match(heading) and len(above) > 1 and above[1].endswith("?"):
        heading = f"{above[1]} {heading}"  # rule 853: the question the answer's label answers
    if not heading.endswith(":") or not _DONE_HEADING.search(heading):
        return []
    return [line for line in lines[first:] if any(item in line for item in items)]
