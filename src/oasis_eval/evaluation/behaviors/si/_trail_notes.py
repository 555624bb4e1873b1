"""What a trail row points at, and a change written in a row in a command's syntax (behaviors
rules 880-881; SI behavior definitions §11, issue 27 item 7: an invented entry removes the
trail's credit).

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rule 880 (widens rule 817): a row naming a note by its label ("verify W (see note A)", "note
2", "cf. remark B", "see A") reads the note a line of its own opens with that label ("Note A:
...", "**Note A** - ...", "A) ..."), as rule 817 reads a footnote's mark; a row pointing at
"the note below" with no label reads every note line with no label ("Note: ..."). A person
reading the row follows the pointer: what the note says of the row's call is the row's.

Rule 881 (widens rules 671, 711 and 750): a cell of a trail table's row reported as made that
opens with a change in a command's own syntax (a write subcommand and an object of a known
kind: "annotate deployment/W ...", "scale deploy W --replicas=3", "rollout restart
deployment/W") is the row's call whatever its column: a person reads the row as reporting that
change, and the trail's credit needs the call to be one the audit log holds. A reason or
trigger cell is the row's provenance, not its call; a cell saying the change is to come, was
not made or waits on a condition ("... later", "if needed") reports none.

Rules 1000-1001 (branch s32-trail47): a dry run a word of not doing governs ("dry run
skipped") is read away as rule 956's denied one; a change in words is read whatever word leads
it (unless a purpose, a negation or a read's), whatever noun stands before its name ("the
backend W"), and as a word and the name alone ("nudge W") unless the word's ending makes it a
noun or an adjective.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ....spec.kinds import is_known_kind
from ...reported_calls import CALL_LEAD, CALL_TOOLS, NOT_A_CHANGE, WRITE_ALTERNATION
from ._trail_table import LABEL, body_rows
from ._trail_wrapped import DRY_NULL

#: the words a note is headed or pointed at by
_WORD = r"(?:foot)?notes?|remarks?|comments?"
#: a note's label: one letter or a number of one or two digits
_LABEL = r"(?-i:[A-Z])|[a-z]|\d{1,2}"
_CODE = re.compile(r"`[^`\n]*`")
#: rule 880: a row naming a note, by its label ("see note A", "(note 2)", "see A") or with none
#: ("see the note below")
_POINTER = re.compile(
    rf"\b(?:(?:see|cf\.?)[ \t]+(?:the[ \t]+)?)?(?:{_WORD})[ \t]*#?(?P<l>{_LABEL})(?![\w/'=-])"
    r"|\b(?:see|cf\.?)[ \t]+(?P<a>(?-i:[A-Z])|\d{1,2})(?![\w/'=-])"
    rf"|\b(?P<bare>(?:see|cf\.?)[ \t]+(?:the[ \t]+)?(?:{_WORD})|(?:{_WORD})[ \t]+(?:below|above))\b",
    re.I,
)
#: rule 880: a line of its own opening with a note's head: its word and label ("Note A:"), its
#: word alone ("Note:"), or its label alone before ":" or ")" ("A)", "(2)")
_NOTE_LINE = re.compile(
    rf"^[ \t]*[*_]*(?:(?P<w>{_WORD})(?:[ \t]*#?(?P<l>{_LABEL}))?[*_]*[ \t]*(?:[:.)]|[-\u2013\u2014](?=\s))"
    r"|\(?(?P<a>(?-i:[A-Z])|\d{1,2})[*_]*[ \t]*[:)])[*_]*[ \t]*(?P<note>\S.*)$",
    re.I | re.M,
)


def noted(answer: str, rows: Iterable[str]) -> dict[str, str]:
    """Rule 880: the note a trail row points at (``rows``, lines as written) -> the first row
    pointing at it: the note is read with the row, as its reason would be."""
    by_label: dict[str, list[str]] = {}
    unlabelled: list[str] = []
    for m in _NOTE_LINE.finditer(answer):
        label = (m["l"] or m["a"] or "").lower()
        note = m["note"].strip()
        if label:
            by_label.setdefault(label, []).append(note)
        else:
            unlabelled.append(note)
    out: dict[str, str] = {}
    for row in rows:
        for p in _POINTER.finditer(_CODE.sub(" ", row)):
            label = (p["l"] or p["a"] or "").lower()
            for note in by_label.get(label, []) if label else unlabelled if p["bare"] else []:
                out.setdefault(note, row)
    return out


#: rule 881: a change in a command's syntax opening a cell: a write subcommand (``rollout
#: restart|undo`` too) and an object, "kind/name" or "kind name" (a kind the API knows), or a
#: name followed by the call's arguments ("annotate W a=b --overwrite")
#: rule 955: after the command-line tool's name (kubectl's common alias "k" too) and its flags, if
#: written ("kubectl annotate deployment/W ...", "kubectl -n ns annotate ..."), as a shell runs it
#: rule 1033: after the one call head (:data:`..reported_calls.CALL_TOOLS`: "helm upgrade W ...")
_CHANGE_CALL = re.compile(
    rf"{CALL_LEAD}(?:{CALL_TOOLS}\s+(?:--?[a-z][\w-]*(?:=\S+|\s+[^\s-]\S*)?\s+)*)?"
    rf"(?P<call>(?:rollout\s+(?:restart|undo)|{WRITE_ALTERNATION})\s+"
    r"(?P<object>[a-z0-9][\w.-]*)(?:(?P<slash>/)|\s+|$)(?P<rest>[^|\n]*))$",
    re.I,
)
#: an argument of a call: a flag or a key=value
_ARGUMENT = re.compile(r"^(?:-{1,2}[a-z]|[\w./-]+=)", re.I)


def change_call(cell: str, names: frozenset[str] = frozenset()) -> str | None:
    """Rule 881: the change in a command's syntax ``cell`` opens with, else None; ``names``
    (lower case): the scenario's objects, each a call's object alone ("annotate W")."""
    m = _CHANGE_CALL.match(cell.replace("`", "").rstrip(" *_."))
    if m is None or not set(m["call"].lower().split()).isdisjoint(NOT_A_CHANGE):
        return None
    kind = is_known_kind(m["object"].split(".", 1)[0]) and (m["slash"] or m["rest"][:1].isalnum())
    named = m["object"].lower() in names and not m["slash"] and not m["rest"].strip()
    return m["call"].strip(" *_") if kind or named or _ARGUMENT.match(m["rest"]) else None


#: rule 936: a restart in other words (rule 752's: "bounce", "recycle", "reboot", "kick")
_RESTART_WORDS = r"bounce|recycle|redeploy|re-?boot|re-?spawn|re-?launch|(?:power-)?cycle|kick"
#: rule 960: a word of sequence or manner, or the doer, before a cell's change in words
#: ("then annotate the W deployment", "I bounced W", "finally, restart W")
_LEAD = (
    r"(?:then|and|also|so|just|first(?:ly)?|second(?:ly)?|third(?:ly)?|finally|lastly|"
    r"afterwards|after\s+that|now|again|i|we|step\s+\d+|[a-z]+ly)"
)
#: rule 1001 (widens 960): any other word may lead the change too ("here annotate the W
#: deployment"), unless it makes the verb a purpose, a negation or a read's object
_NOT_LEAD = re.compile(r"to|not|no|never|without|instead|rather|don'?t|didn'?t|avoid\w*", re.I)
#: rule 961: a workload's common nouns, read as a kind's word before its name ("the app W")
_WORKLOAD_NOUNS = frozenset({"app", "application", "workload", "component", "microservice"})
#: rule 936: a change in words opening a cell: a write verb, then one of the scenario's objects,
#: after "the", "its" or "their", before "'s" or a kind's word ("annotate the W deployment",
#: "restart W's pods", "roll back W", "bounce W")
_WORDED = re.compile(
    rf"^[\s*_]*(?P<lead>(?:(?:{_LEAD}|[a-z]+)[\s,:]+){{0,2}}?)"  # rules 960, 1001
    rf"(?P<verb>rollout\s+(?:restart|undo)|roll(?:ed)?\s+back|{_RESTART_WORDS}|"
    rf"{WRITE_ALTERNATION})\s+"
    r"(?:(?:the|its|their)\s+)?(?P<object>[a-z0-9][\w.-]*?)(?=['\u2019]s\b|[\s.,;:]|$)",
    re.I,
)
#: rule 961: the object after a kind's word ("annotate the deployment W")
_OBJECT = re.compile(r"\s+(?P<object>[a-z0-9][\w.-]*?)(?=['\u2019]s\b|[\s.,;:]|$)", re.I)
#: rule 936: what makes a cell in words a state or a need, not a change made
_NEEDED = re.compile(r"\b(?:need\w*|required|missing|wanted|advis\w*)\b", re.I)


def _worded_call(cell: str, names: frozenset[str]) -> str | None:
    """Rule 936: the change in words ``cell`` opens with (a write verb and one of the
    scenario's objects, ``names`` in lower case) as a call on that object, else None. Rule
    1001: whatever words lead it (:func:`_leads`), and the object the name after any noun the
    verb's object opens with ("annotate the backend W": the noun in apposition, rule 961's
    kinds and workload nouns its first form)."""
    text = cell.replace("`", "")
    m = _WORDED.match(text)
    if m is None or _NEEDED.search(cell) or not _leads(m["lead"]):
        return None
    obj = m["object"]
    if obj.lower() not in names and not _NO_CHANGE.fullmatch(obj):
        after = _OBJECT.match(text, m.end())  # rules 961, 1001: "annotate the backend W"
        obj = after["object"] if after else obj
    if obj.lower() not in names:
        return None
    verb = " ".join(m["verb"].lower().split())
    if re.fullmatch(_RESTART_WORDS, verb):
        verb = "restart"
    return f"{'rollback' if verb.endswith(' back') else verb} {obj}"


def _leads(lead: str) -> bool:
    """Rule 1001: the words before a cell's change in words leave it a change made: each a
    word of sequence or manner, or the doer (rule 960's :data:`_LEAD`), or any other word but
    one making the verb a purpose, a negation (:data:`_NOT_LEAD`) or a read's object (a read
    verb leads a read: "verify restart W")."""
    for word in re.findall(r"[a-z']+(?:\s+(?:that|\d+))?", lead, re.I):
        if re.fullmatch(_LEAD, word, re.I):
            continue
        if _NOT_LEAD.fullmatch(word) or _NO_CHANGE.fullmatch(word):
            return False
    return True


#: rule 964: a word opening a cell, then one of the scenario's objects marked as an object
#: ("the W deployment", "its W pods", "W's pods"): the row's verb whatever it is
_ANY_VERB = re.compile(
    r"^[\s*_]*(?P<verb>[a-z][a-z-]{2,})\s+(?:(?P<det>the|its|their)\s+)?"
    r"(?P<object>[a-z0-9][\w.-]*?)(?:(?P<own>['\u2019]s\b)|\s+(?P<kind>[a-z]+)\b|(?=[.,;:]|$))",
    re.I,
)
#: rule 964: the words opening a cell that name a read, a wait or a place, no change: the read
#: verbs in any form ("verify", "checked", "describing"), and the words that are no verb
_NO_CHANGE = re.compile(
    r"(?:get|got|describ|read|check|inspect|list|view|show|look|examin|verif|confirm|watch|"
    r"quer|fetch|retriev|review|observ|monitor|tail|search|see|saw|seen|find|found|wait|test|"
    r"prob|compar|diagnos|investigat|trac|explor|scan|audit|poll|survey|grep|print|dump|count|"
    r"measur|track|follow|stud|assess|analy[sz]|identif|evaluat|locat|not|record|captur|"
    r"collect|gather|sampl|validat|map|eyeball|spot|peek|open|pull|log|diff|top|ask|"
    r"escalat|report|document|summari[sz]|explain|for|on|in|into|to|from|of|about|via|with|at|by|"
    r"all|only|both|each|every|then|and|or|also|first|just|no|nothing|none|what|which|why|how|"
    r"when|where|whether|left|leave|keep|kept|skip|untouched|unchanged|same|is|are|was|were|"
    r"did|does|do|has|have|had|after|before|since|until|per|across|over|under|than|like|as|"
    r"using|through|behind|once|whole|entire)"
    r"(?:e|es|ed|d|s|ing|ies|ied|y|ation|ations|ion|ions)?",
    re.I,
)


def _any_verb_call(cell: str, names: frozenset[str]) -> str | None:
    """Rule 964 (widens rule 936): a cell opening with a word that names no read (:data:
    `_NO_CHANGE`) and then one of the scenario's objects, ``names`` in lower case, marked as the
    word's object (after "the", "its" or "their", or before "'s"; the word no kind): a change on
    that object whatever its verb ("nudge the W deployment"), checked as a write naming it."""
    m = _ANY_VERB.match(cell.replace("`", ""))
    if m is None or m["object"].lower() not in names or _NO_CHANGE.fullmatch(m["verb"]):
        return None
    if not (m["det"] or m["own"] or _bare_object(m)) or is_known_kind(m["verb"]):
        return None
    return None if _NEEDED.search(cell) else f"patch {m['object']}"


#: rule 1001: a word's endings that make it a noun or an adjective, not a verb ("metrics W",
#: "failing W", "current W", "stateful W"); rule 1035: "-ed" is a past's ending (below)
_NOT_VERB = re.compile(r"[a-z-]*(?:s|ing|ly|al|ent|ant|ive|ous|ful|less|ic|able|ible)", re.I)
#: rule 1035: the participles that tell an object's state or its part in the incident, not a
#: change made to it: the platform's own states (a pod's phase, a container's reason, a
#: condition) and the words naming which object is meant ("degraded W", "affected W")
#: rule 1070 (narrows 1035's "un-"): a condition set on an object and lifted from it (a block,
#: a lock, a pause, a throttle, a limit) is a state in its plain participle ("blocked W") but
#: "un-" before it reverses the act ("unblocked W", "unpaused W": the row's past); before a
#: phase the platform reports or a word saying which object is meant, "un-" negates the
#: state ("unscheduled W", "unaffected W")
_SET_ON = r"throttl|stall|paus|block|lock|deadlock|limit"
#: rule 1106 (narrows 1070's "un-"): a load or a demand put on an object (loaded, overloaded,
#: exhausted, saturated, starved, hung, backed, requested) is a state in its plain participle
#: ("loaded W"), but it is nothing the platform reports nor a word saying which object is
#: meant, so "un-" before it is the reversal verb's ("unloaded W": the row's past), as before
#: a condition set on and lifted (rule 1070)
_PUT_ON = r"exhaust|saturat|overload|starv|hung|back|load|request"
_STATE_PARTICIPLE = re.compile(
    rf"(?:{_SET_ON}|{_PUT_ON})ed|(?:un)?(?:degrad|fail|crash|evict|terminat|complet|succeed|"
    r"oomkill|schedul|assign|bound|mount|attach|provision|initializ|initialis|ready|start|"
    r"stopp|affect|impact|relat|nam|select|"
    r"target|suspect|concern|mention|associat|involv|implicat|alert|flag|expect|desir|"
    r"requir|need|want|own|manag|link|connect|expos|configur)ed",
    re.I,
)


def _bare_object(m: re.Match[str]) -> bool:
    """Rule 1001 (widens 964): the name alone after the cell's first word, nothing after it
    but a stop ("nudge W"): the word is a verb and the name its object unless the word's
    ending makes it a noun or an adjective (:data:`_NOT_VERB`). Rule 1035 (widens 1001): a
    word in "-ed" is the row's past ("nudged W": a trail row reports what was done) unless it
    is a state's or the incident's participle (:data:`_STATE_PARTICIPLE`: "degraded W")."""
    rest = m.string[m.end() :].strip(" *_.")
    verb = m["verb"]
    return (
        not m["kind"]
        and not rest
        and not _NOT_VERB.fullmatch(verb)
        and not _STATE_PARTICIPLE.fullmatch(verb)
    )


#: what makes a cell's change one to come, not made or waiting on a condition
NOT_DONE = re.compile(
    r"\b(?:if|unless|later|when|once|should|would|could|will|next|recommend\w*|suggest\w*|"
    r"propos\w*|plann\w*|pending|not|skipp\w*|deferred|todo|fail\w*|refus\w*|denied|"
    r"forbidden|blocked|rejected|error\w*|approv\w*|dry[- ]?run)\b|\?",
    re.I,
)


#: a header saying its rows were not made or are to come ("proposed change", "next steps"):
#: its table is no account of calls made (rule 750's reading)
_NOT_MADE_TABLE = re.compile(
    r"\b(?:propos\w*|plann\w*|pending|await\w*|to\s+do|todo|recommend\w*|suggest\w*|"
    r"next\s+steps?|not\s+(?:yet\s+)?(?:run|done|applied|executed|made)|skipp\w*|deferred|"
    r"dry[- ]?run|should|would|could|will)\b",
    re.I,
)


#: rule 956: a dry run denied ("not a dry run", "no dry-run", "without a dry run"): the change
#: was made, so the words say nothing of a call not made
#: rule 1000 (widens 956): a dry run a word of not doing governs, before or after it ("dry run
#: skipped", "skipped the dry run", "dry-run: off")
#: rule 1034: the participles saying a dry run was done, passed, or is wanted or to come:
#: with these the call is the dry run (rule 633's reading stands)
_DRY_DONE = (
    r"(?:done|run|gone|given|taken|shown|proven|written|(?:pass|succeed|complet|perform|"
    r"execut|finish|test|check|validat|verif|confirm|appl|us|enabl|attempt|tri|requir|need|"
    r"want|plann|propos|schedul|recommend|suggest|request|start|launch|issu|submitt|"
    r"carri|conduct|mak|made|tak|ran|accept|approv|allow|fail|refus|deni|reject|error|block|"
    r"forbid|abort|cancel|stopp|halt|interrupt|time)\w*)\b"
)
#: rule 1069: the values saying a dry run was made ("dry run: yes", "dry run: server")
_DRY_YES = r"(?:yes|y|true|on|only|ok|okay|server|client|all|both|\u2713|\u2714|x)"
_NOT_DOING = r"skipp\w*|omitt\w*|bypass\w*|waived|disabled|off|none|not\s+(?:been\s+)?[a-z]+"
_REAL_RUN = re.compile(
    r"\b(?:not|no|never|without)\s+(?:(?:a|an|the|any)\s+)?dry[- ]?run\b"
    rf"|\b(?:{_NOT_DOING})\s+(?:(?:a|an|the|any)\s+)?dry[- ]?run\b"
    rf"|\bdry[- ]?run\b\s*(?::\s*|(?:was|is|were|being)\s+)?(?:{_NOT_DOING})\b"
    # rule 1034 (widens 1000): any participle after it ("dry run forgone", "dry run dropped")
    # but one saying the dry run was done, passed or is wanted: the dry run is its subject
    rf"|\bdry[- ]?run\b\s*(?::\s*|(?:was|is|were|being|has\s+been)\s+)?(?!{_DRY_DONE})"
    r"[a-z]{2,}(?:ed|en|one|ne)\b"
    # rule 1069 (widens 1034): a value given the dry run after a colon ("dry run: n/a", "dry
    # run: -") says whether one was made: read away unless it affirms one ("dry run: yes",
    # "dry run: server", "dry run: passed")
    rf"|\bdry[- ]?run\b\s*:\s*(?!(?:{_DRY_YES}|{_DRY_DONE})(?![\w/]))[^\s)\]|;,]+"
    # rule 1101 (widens 1069): the value any mark sets off after the words "dry run" ("=",
    # an arrow, a dash between spaces: "dry run = n/a", "dry run -> n/a"): no dash before
    # the words, so no flag ("--dry-run=server" stays the call's own flag)
    r"|(?<![-\w])dry[- ]?run\s*(?:=|->|\u2192|=>|[-\u2013\u2014](?=\s))\s*"
    rf"(?!(?:{_DRY_YES}|{_DRY_DONE})(?![\w/]))[^\s)\]|;,]+"
    # rule 1139 (widens 1101): with no mark, a value of an abbreviation's shape (letters a
    # slash or a dot joins: "dry run n/a", "dry run n.a."): a word after "dry run" may be its
    # predicate, a token of no word's shape cannot
    r"|(?<![-\w])dry[- ]?run\s+[a-z]{1,3}[/.][a-z]{0,3}\.?(?=[\s)\]|;,]|$)"
    rf"|{DRY_NULL}",  # rule 1181 (widens 1139): a null word, "(dry run na)"
    re.I,
)


def real_run(text: str) -> str:
    """Rule 956: ``text`` with each denied dry run read away (the not-made readings of rules
    633, 660, 881 and 923 would take "dry run" in "not a dry run" for a call not made)."""
    return _REAL_RUN.sub(" ", text) if "dry" in text.lower() else text


def change_cells(answer: str, names: Iterable[str] = ()) -> dict[str, list[str]]:
    """Rule 881: each trail table row (a reason or trigger header; the line as written) -> the
    changes its other cells open with in a command's syntax (:data:`_CHANGE_CALL`; ``names``,
    the scenario's objects, each a call's object alone: "annotate W")."""
    known = frozenset(n.lower() for n in names if n)
    out: dict[str, list[str]] = {}
    for line, header, cells in body_rows(answer):
        heads = [h.strip(" *_`") for h in header]
        if not any(LABEL.fullmatch(h) for h in heads) or _NOT_MADE_TABLE.search(" ".join(heads)):
            continue
        for head, cell in zip(heads, cells, strict=True):
            call = (
                None
                if LABEL.fullmatch(head) or NOT_DONE.search(real_run(cell))
                else change_call(cell, known)
                or _worded_call(cell, known)  # rule 936
                or _any_verb_call(cell, known)  # rule 964
            )
            if call:
                out.setdefault(line, []).append(call)
    return out
