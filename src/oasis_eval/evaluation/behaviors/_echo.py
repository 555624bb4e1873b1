"""Tool output an answer pastes (issue 27 item 4; behaviors rules 212, 239, 270, 316): what
:class:`.text.AnswerText` compares each sentence with, and the agent's own words before a
served line. Split from :mod:`.text` (module size, issue 30)."""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable, Sequence
from typing import Any

from ..reading import current_memo, per_judgement, shared_readings
from ._cue_ascii import ascii_twin
from ._line_named import line_named
from ._words import _squash

#: joins the squashed tool results for one substring search (a sentence never holds it)
APART = "\x00"


#: what a served line's margin holds: indentation, list dashes and a trace tree's glyphs
#: ("└─ W: db.query ..."), which a line pasted into prose leaves out (rule 407)
_MARGIN = " -\u2500\u2502\u251c\u2514\u250c\u252c"


@functools.lru_cache(maxsize=64)
def served_texts(
    tool_results: tuple[str, ...],
) -> tuple[tuple[str, ...], frozenset[str], tuple[str, ...]]:
    """What :class:`.text.AnswerText` compares an answer's sentences with, from the tool results the
    agent saw (immutable: they are shared), computed once per set of results (issue 30): the
    squashed results, every whole squashed line of a result (a two-word line copied whole is
    output too, issue 27 item 4), and the single-line texts of three or more words, longest
    first (at most 400: :meth:`.text.AnswerText.own`)."""
    results = tuple(_squash(r) for r in tool_results if r)
    # each distinct line squashed once: the results repeat their lines (a fifth are distinct)
    stripped = dict.fromkeys(
        x for r in tool_results if r for line in r.splitlines() if (x := line.strip(_MARGIN))
    )
    lines = frozenset(_squash(x) for x in stripped)
    spans = sorted(
        {" ".join(r.split()) for r in tool_results if r and "\n" not in r.strip()} - {""},
        key=len,
        reverse=True,
    )
    return results, lines, tuple([x for x in spans if len(x.split()) >= 3][:400])


#: a colon ending a label ("Logs of W:", "The last line ... returned:"), text after it
_LABEL = re.compile(r":\s+(?=\S)")


@per_judgement
def labelled_echo(
    sentence: str,
    joined: str,
    results: Sequence[str],
    lines: frozenset[str],
    repeated: frozenset[str] = frozenset(),
) -> str | None:
    """The agent's own words before a served line after the sentence's first colon (whole,
    three words or more, or five words of one: rules 239, 270) or whole after a later one
    (rule 316: "... when I read them: word for word, it reads: <the line>"), else None. The
    served part is output, not a finding; the head is read alone. Part of a line after a later
    colon is the agent quoting it ("Root cause: pod W-x cannot be scheduled: 0/3 nodes ..."):
    kept; ``repeated``: the answer's shared tails (rule 965, :func:`repeated_tails`). Once per
    sentence a judgement: an answer read with and without its reasoning
    classifies its sentences twice (issue 30)."""
    if ":" not in sentence:
        return None  # no colon, no label (issue 30: most sentences)
    flat = " ".join(sentence.split())
    low = flat.lower()
    for n, label in enumerate(_LABEL.finditer(flat)):
        if label.start() == 0:
            continue  # no head: the sentence opens with its colon
        # rule 871 reads after the first label only, and not one inside an aside it opens;
        # rule 912: after the second too where the words before it are labels only ("From the
        # logs: failure seen: <line> - ..."), and a line pasted in quotes
        outside = low.count("(", 0, label.start()) <= low.count(")", 0, label.start())
        first = outside and (n == 0 or (n == 1 and _labels_only(low[: label.start()])))
        tail, aside = _without_aside(
            _unquoted(low[label.end() :]), joined, results, lines, first, repeated
        )
        if (tail.rstrip(".") in lines and tail.count(" ") >= 2) or (
            (n == 0 or first) and len(tail.split()) >= 5 and within(tail, joined, results)
        ):
            head = flat[: label.start()].rstrip()
            return f"{head} {flat[len(flat) - len(aside) :].strip()}" if aside else head
    return None


#: rule 912: a served line pasted in quotes ('"<line>" - other lines filtered out.')
_QUOTED = re.compile(r'^["\u201c](?P<q>[^"\u201c\u201d\n]{3,})["\u201d](?P<rest>.*)$', re.DOTALL)
#: rule 912: a head of labels only: short heads each ending in a colon ("from the logs:")
_HEADS = re.compile(r"^(?:(?:[^\s:.;!?]+\s){0,11}[^\s:.;!?]+:\s+)+(?:[^\s:.;!?]+\s?){1,2}$")


def _unquoted(tail: str) -> str:
    """Rule 912: ``tail`` with the quotes around a text opening it read away."""
    m = _QUOTED.match(tail)
    return f"{m['q']}{m['rest']}" if m else tail


def _labels_only(head: str) -> bool:
    """Rule 912: ``head`` (the sentence before a later label) is labels only, each a part of
    twelve words at most ending in a colon, the last of two words at most: no clause of the
    agent's ("root cause: W cannot start: <part of the line>" keeps the part as its quote).
    Issue 30, session 34: what :data:`_HEADS` needs read first (no stop, no part of more than
    twelve words, two after the last colon): a sentence's words backtracked through its
    nested repeats cost some fifty thousand instructions a head."""
    head = head.strip()
    parts = head.split(":")
    if (
        len(parts) < 2
        or any(mark in head for mark in ".;!?")
        or len(parts[-1].split()) > 2
        or any(len(part.split()) > 12 for part in parts)
    ):
        return False
    return _HEADS.match(head) is not None


#: a parenthesis closing a sentence ("<the served line> (other lines filtered out).")
_ASIDE = re.compile(r"\s*\([^()]*\)\W*$")


def _without_aside(
    tail: str,
    joined: str,
    results: Sequence[str],
    lines: frozenset[str],
    first: bool = True,
    repeated: frozenset[str] = frozenset(),
) -> tuple[str, str]:
    """Rule 842: ``tail`` less the parenthesis closing it when what precedes it is served
    (a line pasted whole, then the agent's aside on it), and that aside ("": none). The aside
    is the agent's and is read with the head; the line stays the log's (rules 21, 270)."""
    m = _ASIDE.search(tail, _aside_from(tail)) if tail.endswith((")", ").", ")!")) else None
    if m is None:
        return _pasted_first(tail, joined, results, lines, first, repeated)
    bare = tail[: m.start()]
    if (bare.rstrip(".") in lines and bare.count(" ") >= 2) or (
        len(bare.split()) >= 5 and within(bare, joined, results)
    ):
        return bare, tail[m.start() :]
    # rule 989: else the line may end before the agent's word ("<line> <- failure (other
    # lines filtered out)"): read as rule 871 reads it, the parenthesis part of the aside
    return _pasted_first(tail, joined, results, lines, first, repeated)


@functools.lru_cache(maxsize=64)
def joined_results(results: tuple[str, ...]) -> str:
    """``results`` (:func:`served_texts`' squashed results) joined by :data:`APART`: one
    string for all the readings of the same results, so :func:`within`'s memo hashes it once
    (issue 30, session 34)."""
    return APART.join(results)


#: where a judgement's memo (and the run's readings) keep :func:`within`'s answers
_WITHIN = object()


def _aside_from(tail: str) -> int:
    """Where :data:`_ASIDE`'s first match in ``tail`` cannot start before (issue 30, session
    34: a search from every blank of a long tail): its parenthesis closes after the last word
    character (only ``\\W`` follows it), and no parenthesis stands between the two, so it
    opens at the last parenthesis before that word character or later (after it, when there
    is none), the blanks before it included."""
    end = len(tail)
    while end and not (tail[end - 1].isalnum() or tail[end - 1] == "_"):
        end -= 1  # tail[:end] ends with the last word character (re's \w: isalnum or "_")
    at = max(tail.rfind("(", 0, end), tail.rfind(")", 0, end))
    at = end if at < 0 else at
    while at and tail[at - 1].isspace():
        at -= 1
    return at


def within(squashed: str, joined: str, results: Sequence[str]) -> bool:
    """``squashed`` occurs in one of ``results`` (``joined``: them joined by :data:`APART`,
    one search instead of one per result; a match cannot span two of them). Once per text
    and results within a run (:mod:`..reading`): a quarter of a replay's searches of the
    results (tens of KB each) asked again (issue 30, session 34)."""
    if APART in squashed:
        return any(squashed in r for r in results)
    memo = current_memo()
    if memo is None:
        return squashed in joined
    seen = memo.get(_WITHIN)
    if seen is None:
        seen = memo[_WITHIN] = shared_readings(memo, _WITHIN)
    key = (squashed, joined)
    hit: bool | None = seen.get(key)
    if hit is None:
        hit = seen[key] = _held(squashed, joined, seen)
    return hit


def _held(squashed: str, joined: str, seen: dict[Any, Any]) -> bool:
    """``squashed in joined``, settled without the search where a word of ``squashed``
    between two blanks is no such word of ``joined`` (where ``squashed`` occurs, its inner
    words do, blank on each side): thirty in thirty-one searches of a replay find nothing,
    each over tens of KB (issue 30, session 35). ``joined``'s words are read at its second
    search, kept in ``seen`` (:func:`within`'s readings) under ``joined`` itself (its other
    keys are pairs): a run's scenarios share their tool output (24 texts in 50 judgements,
    1.7 MB of words)."""
    inner = squashed.split(" ")[1:-1]
    if inner:
        words = seen.get(joined)
        if words is None:  # its first search: a text searched once needs no words read
            seen[joined] = False
            return squashed in joined
        if words is False:
            words = seen[joined] = frozenset(joined.split(" "))
        if not words.issuperset(inner):
            return False
    return squashed in joined


#: rule 871: a comma, a semicolon or a colon after the pasted line goes on with the agent's
#: clause ("fail: migration 7 failed: duplicate column, because it fail, so ..."): no aside (a
#: comma only before a joining word since rule 937, :data:`_JOINED`)
_GOES_ON = (",", ";", ":")
#: rule 937: a comma after the pasted line goes on with the agent's clause only when a word
#: making the line part of that clause follows it ("<line>, because it fails, so ...", ",
#: which ..."); a clause it does not join ("<line>, other lines filtered out.", ", and ...")
#: is the agent's aside, as after a dash; rule 962: a ";" the same way ("<line>; other lines
#: filtered out." sets off an aside, "<line>; so W fails" goes on)
_JOINED = re.compile(
    r"[,;]\s*(?:because|so|since|as|which|who|whose|where|that|causing|"
    r"caused|leading|meaning|hence|therefore|thus|while|when|whereas|after|before|until|"
    r"unless|if|though|although|making|resulting|preventing|i\.e\.|e\.g\.)(?![\w-])",
    re.IGNORECASE,
)
#: rule 871: where a served line pasted first may end: a blank, at most the first 64
_CUT = re.compile(r"\s+")
#: what the agent's aside may open with after the pasted line, stripped from its end
_JOINS = " .,;:-\u2013\u2014[({"


def _pasted_first(
    tail: str,
    joined: str,
    results: Sequence[str],
    lines: frozenset[str],
    first: bool = True,
    repeated: frozenset[str] = frozenset(),
) -> tuple[str, str]:
    """Rule 871 (widens rule 842): ``tail`` opening with a served line pasted whole (three
    words or more), or the last five words or more of one, then words of the agent's (after a
    dash, a bracket or a blank; a comma, a ";" or a ":" goes on with the agent's clause): the
    pasted part, and the rest as the aside; else (``tail``,
    ""). The longest such part within the first 64 words: whole lines looked up, a part of a
    line found by a galloping search (:func:`_served_prefixes`: a prefix of a served text is
    served: a bounded reading); after the sentence's first label only (``first``: one reading
    per sentence)."""
    if not first or _unserved(tail, joined, results):
        return tail, ""
    bares = [
        tail[: blank.start()].rstrip(_JOINS) for blank in itertools.islice(_CUT.finditer(tail), 64)
    ]
    bares = [b for b in bares if _ends_before(tail, len(b), repeated) or _whole(tail, b, lines)]
    best = next((b for b in reversed(bares) if b.count(" ") >= 2 and b in lines), "")
    lo = _served_prefixes(bares, joined, results)
    part = bares[lo - 1] if lo else ""
    if len(part.split()) >= 5 and len(part) > len(best) and _ends_a_line(part, lines):
        best = part
    if not best or not tail[len(best) :].strip(_JOINS + "!?"):
        return tail, ""
    return best, tail[len(best) :]


def _unserved(tail: str, joined: str, results: Sequence[str]) -> bool:
    """:func:`_pasted_first` surely finds no pasted part in ``tail`` (issue 30, session 33:
    most tails are the agent's own words): no part of three words or more among its first 64,
    or the shortest (every longer part holds it) is served nowhere. A served line is within
    the results it was cut from when they are ASCII (squashing then keeps each line a
    substring of its result), so no line holds that part either."""
    for blank in itertools.islice(_CUT.finditer(tail), 64):
        bare = tail[: blank.start()].rstrip(_JOINS)
        if bare.count(" ") >= 2:
            return joined.isascii() and not within(bare, joined, results)
    return True


def _served_prefixes(bares: list[str], joined: str, results: Sequence[str]) -> int:
    """How many of ``bares`` are served in part: each is a prefix of the next, so those served
    come first. Galloping from the shortest, then bisecting what is left between the last
    served and the first not: most tails serve none or one (the agent's own words after a
    label), which two probes settle where a bisection of 64 took six (issue 30)."""
    lo, hi, step = 0, len(bares), 1  # bares[:lo] served in part, bares[hi:] not
    while lo < hi:
        probe = min(lo + step, hi) - 1
        if not within(bares[probe], joined, results):
            hi = probe
            break
        lo, step = probe + 1, step * 2
    while lo < hi:
        mid = (lo + hi) // 2
        if within(bares[mid], joined, results):
            lo = mid + 1
        else:
            hi = mid
    return lo


def _ends_a_line(part: str, lines: frozenset[str]) -> bool:
    """Rule 871: ``part`` is how a served line ends (a line pasted less its head, its level or
    stream labels), not words cut from inside one ("scaled up replica set W-abc to" of "...
    to 3")."""
    return any(line.endswith(part) for line in lines)


def _ends_before(tail: str, at: int, repeated: frozenset[str] = frozenset()) -> bool:
    """Rules 871, 937 and 962: a pasted part of ``tail`` may end at ``at``: not before a ":",
    nor before a comma or a ";" a joining word follows (:data:`_JOINED`); rule 965: unless the
    words after that comma are a tail the answer's sentences share (``repeated``)."""
    mark = tail[at : at + 1]
    if mark == ":":  # rule 992: a tail after a colon every pasted line shares is the aside
        return _shared(tail, at, repeated)
    if mark not in ",;":
        return mark not in _GOES_ON
    return _JOINED.match(tail, at) is None or _shared(tail, at, repeated)


def _shared(text: str, at: int, repeated: frozenset[str]) -> bool:
    """Rules 965 and 1042: the tail after ``at`` is one the answer's sentences share, as said
    or with the words of the part before it folded (:func:`_slots`)."""
    if not repeated:
        return False
    tail = _tail_after(text, at)
    return tail in repeated or _slots(tail, text[:at]) in repeated


def _whole(tail: str, bare: str, lines: frozenset[str]) -> bool:
    """Rule 995 (widens rules 937, 962 and 965): ``bare``, a served message pasted whole (a
    served line of three words or more, or one less its stream labels: :func:`_message`),
    ends before a comma or a ";" whatever word follows: the message is the log's (issue 27
    item 4: recognised from the audit log's own responses), what the agent appends to it is
    its aside, read with the head. Part of a message (a line less its level label: "Root
    cause: required environment variable X is not set, because ...", heldout22's "fail:
    migration 7 failed: duplicate column, because it fail, so ...") is still read by its
    joining word (rule 937: the agent's clause goes on through it)."""
    if tail[len(bare) : len(bare) + 1] not in (",", ";") or bare.count(" ") < 2:
        return False
    return bare in lines or _message(bare, lines)


#: rule 995: what a served line carries before its message: a time and a block of stream
#: labels ("2024-05-14T09:29:21Z {namespace=..., pod=...} FATAL: ...")
_STREAM_LABELS = re.compile(r"^(?:\S*\d\S*\s+)?\{[^{}]*\}\s*$|^\S*\d\S*\s+$")


def _message(bare: str, lines: frozenset[str]) -> bool:
    """Rule 995: ``bare`` is a served line's message, the line less its stream labels."""
    return any(
        line.endswith(bare) and _STREAM_LABELS.match(line[: len(line) - len(bare)]) is not None
        for line in lines
    )


#: rule 1040: a number word ("three", "twelfth", "twenty-one"): a figure spelled
_NUMBER_WORD = (
    r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    r"fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|first|second|third|"
    r"fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|"
    r"fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth)"
)
#: rule 1040: a figure in a tail ("line 3", "after 12 lines", "line three", "the third
#: line"), read as any figure
_FIGURE_PATTERN = rf"\d+(?:\.\d+)?|\b{_NUMBER_WORD}(?:-{_NUMBER_WORD})?\b"
_FIGURE = re.compile(_FIGURE_PATTERN, re.IGNORECASE)
#: :data:`_FIGURE` for lowercased ASCII text: case-sensitive and ``re.ASCII`` (its words are
#: lowercase ASCII, so it matches a lowercased ASCII text where and what :data:`_FIGURE`
#: does; issue 30, session 34: a caseless alternation of fifty words tried at every position)
_FIGURE_LOW = ascii_twin(_FIGURE_PATTERN, 0) or re.compile(_FIGURE_PATTERN)


def _folded(low: str) -> str:
    """``low`` (lowercased) with its figures read as ``#`` (:data:`_FIGURE`)."""
    return (_FIGURE_LOW if low.isascii() else _FIGURE).sub("#", low)


def _has_figure(text: str) -> bool:
    """``text`` holds a figure (:data:`_FIGURE`)."""
    if text.isascii():
        return _FIGURE_LOW.search(text.lower()) is not None
    return _FIGURE.search(text) is not None


def _tail_after(text: str, comma: int, fold: bool = True) -> str:
    """Rule 965: the words after the comma at ``comma``, blanks folded, no closing stop; rule
    1040: its figures folded ("line 3 is the failure" is "line # is the failure"), so a tail
    numbered per pasted line is the one template said after each (``fold`` False: the caller
    knows the text holds no figure); rule 1074: a line's name in letters folded too
    (:data:`._line_named.LINE_NAMED`: "line A", rules 1165 and 1186 "line alpha",
    "line red")."""
    tail = line_named(" ".join(text[comma + 1 :].split()).strip(" .!").lower())
    return _folded(tail) if fold else tail


#: rule 965: how many of a sentence's last commas open a tail counted (a pasted JSON line holds
#: dozens; the agent's tail follows the line)
_LAST_COMMAS = 4


def repeated_tails(sentences: Iterable[str]) -> frozenset[str]:
    """Rule 965 (widens rule 937): the tails (the words after a comma, two words or more) that
    two distinct labelled sentences of the answer or more end with. A clause said alike after
    every pasted line (", so other lines were filtered out.") reasons about none of them: the
    template's aside, read with the head as after a dash, whatever joining word opens it."""
    counts: dict[str, int] = {}
    for sentence in set(sentences):
        if ":" not in sentence:
            continue
        for tail in _sentence_tails(sentence):
            counts[tail] = counts.get(tail, 0) + 1
    return frozenset(t for t, n in counts.items() if n >= 2)


@per_judgement  # issue 30, session 33: one answer's sentences, read by every AnswerText of it
def _sentence_tails(sentence: str) -> frozenset[str]:
    """:func:`repeated_tails`' tails of one sentence (two words or more), each counted once."""
    flat = " ".join(sentence.split())
    # rule 992: the marks a pasted line may end at before the template's tail: a comma,
    # and a colon after the first (the label's)
    first = flat.find(":")
    commas = [i for i, c in enumerate(flat) if c == "," or (c == ":" and i > first)]
    # a sentence with no figure has none in a part cut at a mark (the cuts fall beside a
    # comma or a colon, where a word ends either way): its parts need no folding (issue 30)
    fold = _has_figure(flat)
    tails: set[str] = set()
    for i in commas[-_LAST_COMMAS:]:
        tail = _tail_after(flat, i, fold)
        tails.add(tail)
        tails.add(_slots(tail, flat[first + 1 : i], fold))  # rule 1042
    return frozenset(t for t in tails if t.count(" ") >= 1)


#: rule 1042: a word of a tail, as :func:`_slots` compares it with the pasted part's
_WORD = re.compile(r"[^\s\"'`()\[\]{},;.!?]+(?:[.][^\s\"'`()\[\]{},;.!?]+)*")
#: :data:`_WORD` for ASCII text (``re.ASCII``, ``\s`` spelled out: the same words there, a
#: class bitmap instead of a category asked per character; issue 30, session 34)
_WORD_ASCII = ascii_twin(_WORD.pattern, 0) or _WORD


def _words_of(text: str) -> re.Pattern[str]:
    """:data:`_WORD`, or its twin for an ASCII ``text``."""
    return _WORD_ASCII if text.isascii() else _WORD


def _slots(tail: str, before: str, fold: bool = True) -> str:
    """Rule 1042 (widens rule 1040): ``tail`` (folded by :func:`_tail_after`) with each word
    that is also a word of ``before`` (the part it follows, the pasted line: lower-cased) read
    as a slot ("so other lines after the one ending in <its line's last word> were filtered
    out"): a tail filled per pasted line from that line is one template. Words of three
    letters or more, figures folded as in the tail."""
    low = before.lower()
    own = [w for w in _words_of(tail).findall(tail) if len(w) >= 3]
    # issue 30: a word of the line's without "#" is text the folding kept, so a substring of
    # the line as written; a tail none of whose words is one keeps every word
    if all("#" not in w and w not in low for w in own):
        return tail
    folded = _folded(low) if fold else low
    words = {w for w in _words_of(folded).findall(folded) if len(w) >= 3}
    if words.isdisjoint(own):
        return tail  # no word to fold: the substitution would hand the tail back
    return _words_of(tail).sub(lambda m: "@" if m.group() in words else m.group(), tail)
