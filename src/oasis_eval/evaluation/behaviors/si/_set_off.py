"""Where a line sets its call or its remark off, read by the line's structure, not by a list
of marks (behaviors rules 1068, 1071 and 1072; SI behavior definitions §11, issue 27
items 4 and 7: "every trail or reported action must match an audited call").

Not an evaluator module (the leading ``_`` keeps the registry loader away).

Rules 998, 1032 and 1033 read a call-led line by what opens it (a mark of a given shape, a
code span); rules 1004 and 1037 a call cell's remark by what sets it off (a dash, a colon,
parentheses, brackets). Each left the next shape a line may take ("iii: kubectl get ...", a
bare call after its motive, a remark in braces). The default turned round: what a line sets
off is read for what it says, whatever sets it off, unless the words before it positively say
the call is to come, was not made or waits on a condition.
"""

from __future__ import annotations

import re

from ...reported_calls import CALL_TOOLS

#: rule 1068: a short lead closed by a colon before a call-led head ("iii: ", "Step 3: ",
#: "Call: "): whatever it is, a mark or a label, it names the call it sets off
_LEAD = re.compile(r"^[\s*_]*(?P<lead>[^:`|\n]{1,24}?)[\s*_]*:\s+(?=\S)")
#: rule 1068: what makes a lead no account of a call made: what is to come, a condition, a
#: plan, an option, a negation or a question
_LEAD_NOT_DONE = re.compile(
    r"\b(?:if|unless|when|once|later|next|then|should|would|could|will|can|may|might|must|"
    r"need\w*|recommend\w*|suggest\w*|propos\w*|plann?\w*|pending|todo|to\s+do|option\w*|"
    r"alternative\w*|fix\w*|remed\w*|mitigat\w*|not|no|never|skipp\w*|deferred|try|"
    r"example|e\.g|run|do|apply|execute|use)\b|\?",
    re.I,
)


#: rule 1102: a mark alone by its shape (a roman numeral, a letter or two, a number of up to
#: three figures) set off by a dash, "=" or an arrow between spaces ("iii - kubectl get ...",
#: "iii -> kubectl get ..."): a word of more letters before it is a clause's, left unread
_DASHED_MARK = re.compile(
    r"^[\s*_]*(?P<lead>[ivxlc]{1,6}|[IVXLC]{1,6}|[A-Za-z]{1,2}|\d{1,3})[\s*_]*"
    r"\s(?:[-\u2013\u2014=]|->|=>|\u2192)\s+(?=\S)"
)


def lead_end(head: str) -> int | None:
    """Rule 1068 (widens 998 and 1032): where the call starts in ``head`` (a call-led line's
    head, its list marker read) when a short lead closed by a colon stands before it (a
    roman numeral, a letter, a word or two: :data:`_LEAD`), else None. The lead is the
    call's label, unless it says the call is to come, waits on a condition, is an option or
    a fix to make, or is an instruction (:data:`_LEAD_NOT_DONE`)."""
    m = _LEAD.match(head) or _DASHED_MARK.match(head)  # rule 1102: "iii - kubectl ..."
    if m is None or _LEAD_NOT_DONE.search(m["lead"]):
        return None
    return m.end()


#: rule 1068, its value's half: a bare call that is a line's last value, after a colon set
#: off by a space, to the line's end ("- <motive>: kubectl annotate deployment/W ...");
#: rule 1103 (widens 1068): or after any mark between spaces (a dash, "=", an arrow: "-
#: <motive> - kubectl annotate ...", "- <motive> -> kubectl ..."): the call runs whole to the
#: line's end, so the mark sets it off as the colon does
_VALUE_CALL = re.compile(
    rf"(?::|\s(?:[-\u2013\u2014=]|->|=>|\u2192))\s+(?P<call>(?:\$\s*)?{CALL_TOOLS}\s+[^`|\n]{{3,}}?)[\s*_.]*$",
    re.I,
)
#: rule 1068: a head before the value that makes it a call to make: an instruction or a
#: purpose ("run:", "To restart it:", "Fix:"), read by :data:`_LEAD_NOT_DONE` too
#: rule 1107 (narrows 1068): "command" or "cmd" is an instruction's word only after a
#: determiner ("run this command:", "the following command:"); alone it is a record's key
#: ("command: kubectl ...", a YAML or a "key: value" entry), the field holding the call made
_INSTRUCTION = re.compile(
    r"^[\s*_>+\d.)-]*to\s+[a-z]+|\b(?:run|type|enter)\s*$"
    r"|\b(?:the|this|that|these|those|following|a|an|your|same)\s+(?:[a-z]+\s+)?(?:command|cmd)s?\s*$",
    re.I,
)

#: rule 1138: a record's key alone before the call (a YAML field's, a list item's)
_RECORD_KEY = re.compile(r"\s*(?:-\s+)?[a-z][\w.-]{0,30}\s*", re.I)


def value_call(line: str, record: bool = False) -> tuple[str, str] | None:
    """Rule 1068 (widens 1033): the bare call ``line`` ends with, set off by a colon as the
    line's value ("- <motive>: kubectl annotate ..."), and the head before it; None when the
    head is an instruction, a purpose, or says what is to come (:data:`_INSTRUCTION`,
    :data:`_LEAD_NOT_DONE`); rule 1138: a field of a trail's record (``record``, the caller's
    reading) whose head is one key alone is the call made, whatever the key ("run:"). A call set off whole as a line's last value is the line's
    account of it, as a code span is (rule 1033): the markup is not what makes it said."""
    m = _VALUE_CALL.search(line)
    if m is None:
        return None
    head = line[: m.start()]
    if record and _RECORD_KEY.fullmatch(head):  # rule 1138: a trail record's field, any key
        return m["call"].strip(), head
    if _INSTRUCTION.search(head) or _LEAD_NOT_DONE.search(head) or ":" in head.strip(" -*"):
        return None
    return m["call"].strip(), head


#: rule 1072: a code span opening a cell, then a mark setting off what follows (its
#: remark), whatever the mark (a letter or a digit right after the span is the call's own
#: adjunct: "`kubectl get pods` after the restart", left to the call readers, rules 881, 936)
_SPAN_THEN = re.compile(r"^[\s*_]*`[^`\n]*`[\s*_]*(?P<rest>[^\w\s`].*)$")
#: rule 1105: a code span opening a cell, then, no mark between, a clause of its own: a
#: subject and a finite auxiliary ("`kubectl get pods` the read was made after ...",
#: "... verification read was made ..."); the call's own adjunct opens with a preposition, a
#: conjunction or "then" ("`kubectl get pods` after the restart", "... then compared")
#: rule 1136: "then" before a determiner's subject opens a clause of its own ("`kubectl get
#: pods` then the read was made ..."): the call's sequel has no subject ("then compared")
_SPAN_CLAUSE = re.compile(
    r"^[\s*_]*`[^`\n]*`[\s*_]*\s(?:then\s+(?=(?:the|a|an|this|that|these|those|its|their|our|"
    r"my|his|her)\s))?"
    r"(?P<rest>(?!(?:after|before|since|until|once|when|while|if|"
    r"unless|for|to|in|on|at|from|with|by|of|as|during|per|via|then|and|or)\b)[a-z][^`\n]*?"
    r"\b(?:was|were|is|are|had|has|have|did)\b.*)$",
    re.IGNORECASE,
)
_OPENERS = "([{<-\u2013\u2014:;,"
_CLOSERS = ")]}>"


def span_remark(cell: str) -> str | None:
    """Rule 1072 (widens 1004 and 1037): what follows a code span opening a call's cell, read
    as a line whatever mark sets it off (a dash, a colon, parentheses, brackets, braces, an
    angle bracket): the span holds the call, so what a mark sets off after it is not the
    call's; None when no mark follows the span."""
    m = _SPAN_THEN.match(cell)
    if m is None:
        clause = _SPAN_CLAUSE.match(cell)  # rule 1105: "`call` the read was made ..."
        return clause["rest"].rstrip(_CLOSERS + " ") if clause else None
    rest = m["rest"].lstrip(_OPENERS + " ").rstrip(_CLOSERS + " ")
    return rest or None


#: rule 1071: a reply's elliptical clause repeating the question's auxiliary, at the reply's
#: end ("Sure thing it was.", "Of course they were!"); rule 1104: and the question's own
#: participle after it ("Sure thing it was made.")
_ELLIPSIS = re.compile(
    r"\b(?:it|they|that|this|we|i|he|she)\s+(?P<aux>[a-z]+)(?:\s+(?P<verb>[a-z]+))?\s*[.!]*\s*$",
    re.I,
)
#: rule 1071: a word making the elliptical clause a subordinate one, no answer
_SUBORDINATE = re.compile(r"\b(?:if|whether|unless|though|although|why|how|when|that)\W*$", re.I)
_AUXILIARY = re.compile(
    r"^\W*(?:[a-z][\w ]{0,30}:\s+)?(?P<aux>was|were|did|had|has|have|is|are)\b", re.I
)


def echoes_auxiliary(question: str, reply: str) -> bool:
    """Rule 1071 (widens 1003 and 1036): ``reply`` ends with a pronoun and the auxiliary
    ``question`` opens with ("Was it made ...? Sure thing it was."): the elliptical clause
    answers the question whole, whatever words stand before it (the caller reads the reply
    for a negation, a doubt or a question)."""
    q, m = _AUXILIARY.match(question), _ELLIPSIS.search(reply)
    if not (q and m and m["aux"].lower() == q["aux"].lower()):
        return False
    if m["verb"] and not re.search(rf"\b{m['verb']}\b", question, re.I):
        return False  # rule 1104: the question's own participle may follow ("it was made")
    return _SUBORDINATE.search(reply[: m.start()]) is None  # "Hard to say if it was."
