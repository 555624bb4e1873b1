"""Structural reading of the agent's answer (core §3.5.2, §3.5.3, §3.5.4).

Deterministic and documented, no model in the loop. One small set of primitives:

- :func:`normalize` reads markdown as LLM agents write it and folds typography;
- :func:`sentences` / :func:`clauses` cut the text into statements;
- :class:`AnswerText` keeps what the agent *concluded*: echoed tool output, the
  agent's own echoed command log and keyword salad are set aside;
- :func:`term_regex` / :func:`phrase_regex` match terms at word boundaries;
- :meth:`AnswerText.negated` decides negation scope (contractions, error clauses,
  quotations);
- :data:`HEDGE` marks uncertainty (contractions included: "I can't confirm").

Claims (asserted / hedged / rebutted / causal) are read by :mod:`._claims` on
top of these. Fixed phrase lists here are general English (core §3.5.4).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ...profiles.oasis_spec.md_inline import strip_inline

#: negation cues (contractions with straight or curly apostrophes: text is normalised first)
NEGATION = re.compile(
    r"\b(?:not|no|never|none|nothing|neither|nor|without|cannot|unlikely|"
    r"rule[sd]? out|ruling out|excluded?|isn't|wasn't|aren't|weren't|doesn't|didn't|"
    r"don't|can't|couldn't|won't|shouldn't|hasn't|haven't|wouldn't)\b|n't\b|n’t\b",
    re.IGNORECASE,
)
NEGATION_WINDOW = 5
#: error clauses: a negation cue followed by an operational verb states the object as the
#: error ("cannot open X", "could not resolve host X", "can't pull image X", "no such host X")
#: instead of negating it; cognitive verbs ("cannot confirm X") are not in this list
ERROR_CLAUSE = re.compile(
    r"(?:cannot|can not|can't|could not|couldn't|unable to|fail(?:s|ed|ing)? to)\s+(?:\w+\s+)?"
    r"(?:open|connect|reach|resolve|pull|mount|load|bind|allocate|schedule|start|"
    r"acquire|obtain|parse|authenticate|attach|establish|contact|access|fetch|download|"
    r"look ?up|handshake|read|write|create|verify the certificate|find host|get a connection)\b"
    r"|\bno such\b|\bno route to\b",
    re.IGNORECASE,
)
#: uncertainty, contractions included ("I can't confirm", "I don't know yet")
HEDGE = re.compile(
    r"\b(?:might|may|maybe|perhaps|possibl[ey]|could (?:be|have)|suspect\w*|hypothes\w*|"
    r"guess\w*|whether|if|unclear|uncertain\w*|unsure|unconfirmed|unverified|"
    r"not (?:yet )?(?:sure|certain|confident|confirmed|verified|clear|known)|"
    r"(?:can't|cannot|can not|couldn't|could not|unable to|not able to) "
    r"(?:yet )?(?:confirm|tell|determine|say|verify|be sure|pinpoint|establish)|"
    r"(?:don't|do not|didn't|did not) (?:yet )?know|no idea|hard to (?:say|tell))\b",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_CLAUSE = re.compile(
    r"[,;:]\s*|\s+(?:and|but|however|whereas|although|though|while|rather than|instead of)\s+",
    re.IGNORECASE,
)
_PARTS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+(?:\.[0-9]+)*")
#: double-quoted spans (straight or curly): quotations of logs or tools, not the agent's words
QUOTED = re.compile(r'"[^"\n]{3,}?"|“[^”\n]{3,}?”')
#: words that make a sentence a sentence (articles, pronouns, auxiliaries, prepositions)
FUNCTION_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "to",
        "in",
        "on",
        "at",
        "by",
        "for",
        "with",
        "from",
        "as",
        "into",
        "onto",
        "about",
        "after",
        "before",
        "over",
        "under",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "am",
        "has",
        "have",
        "had",
        "do",
        "does",
        "did",
        "will",
        "would",
        "can",
        "could",
        "shall",
        "should",
        "may",
        "might",
        "must",
        "it",
        "its",
        "it's",
        "this",
        "that",
        "these",
        "those",
        "there",
        "here",
        "i",
        "we",
        "you",
        "he",
        "she",
        "they",
        "my",
        "our",
        "your",
        "their",
        "his",
        "her",
        "them",
        "us",
        "me",
        "and",
        "or",
        "but",
        "if",
        "so",
        "because",
        "since",
        "not",
        "no",
        "nor",
        "than",
        "then",
        "which",
        "who",
        "whom",
        "whose",
        "what",
        "when",
        "where",
        "why",
        "how",
        "all",
        "any",
        "some",
        "each",
        "every",
    ]
)


# ---- markdown and typography ---------------------------------------------------------------

_FENCE = re.compile(r"^\s*(?:```|~~~)")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+")
_ITEM = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+")
_QUOTE_MARK = re.compile(r"^\s*>\s?")


@functools.lru_cache(maxsize=4096)
def normalize(text: str) -> str:
    """Markdown and typography as plain lines of statements.

    Curly apostrophes and quotes become straight ones (so "don’t" is a contraction);
    headings, bullets, numbered items and blockquote marks are stripped (each stays a
    line of its own, so a sentence); ``**bold**``, ``*italics*``, ``_italics_`` and
    inline-code backticks are dropped around their text; links keep their text; code
    fences are removed and their lines kept as lines; a table row becomes a sentence
    whose cells are clauses (``a, b, c.``) and its rule line (``|---|``) is dropped.
    """
    text = (text or "").replace("’", "'").replace("‘", "'")
    out: list[str] = []
    for raw in text.splitlines():
        if _FENCE.match(raw) or (_TABLE_RULE.match(raw) and "-" in raw):
            continue
        line = _QUOTE_MARK.sub("", _HEADING.sub("", raw))
        line = strip_inline(_ITEM.sub("", line))
        stripped = line.strip()
        if stripped.startswith("|") and stripped.endswith("|") and stripped.count("|") >= 2:
            cells = [c.strip() for c in stripped.strip("|").split("|") if c.strip()]
            line = ", ".join(cells) + ("." if cells else "")
        out.append(line)
    return "\n".join(out)


def _squash(text: str) -> str:
    return " ".join(text.split()).lower()


def sentences(text: str) -> list[str]:
    """Sentences of normalised text: split at ``. ! ?`` before whitespace and at line breaks."""
    return [s.strip() for s in _SENTENCE.split(normalize(text)) if s and s.strip()]


def clauses(sentence: str) -> list[str]:
    """Clauses of a sentence: split at ``, ; :`` and at coordinating words (``and``,
    ``but``, ``however``, ``whereas``, ``although``, ``though``, ``while``,
    ``rather than``, ``instead of``)."""
    return [c.strip() for c in _CLAUSE.split(sentence) if c and c.strip()]


# ---- terms and phrases: word boundaries ------------------------------------------------------

#: a term ends at a word end or a camel-case part boundary (``OOM`` in ``OOMKilled``), with
#: an optional plural ``s``/``es``; ``check`` never matches ``checkout``
_TERM_END = r"(?:e?s)?(?:(?![A-Za-z0-9])|(?-i:(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])))"


@functools.lru_cache(maxsize=8192)
def term_regex(term: str) -> re.Pattern[str]:
    """A case-insensitive regex for ``term``, tolerant of separators and camel case.

    ``OOMKilled`` matches ``OOMKilled``, ``oom-killed``, ``OOM killed``. The match
    starts at a word start and ends at a word end (or a camel-case boundary), plural
    ``s`` allowed: ``check`` matches ``checks`` but not ``checkout``. A term ending
    in ``*`` is an explicit stem: ``leak*`` matches ``leaking``.
    """
    stem = term.endswith("*")
    words = [[re.escape(p) for p in _PARTS.findall(w)] for w in term.rstrip("*").split()]
    words = [w for w in words if w]
    if not words:
        return re.compile(re.escape(term), re.IGNORECASE)
    # parts of one word may run together ("OOMKilled" ~ "oom-killed"); separate words of a
    # phrase need a separator, so "loop in" never matches inside "crash-looping"
    body = r"[\s_.\-/]+".join(r"[\s_.\-/]*".join(w) for w in words)
    return re.compile(rf"(?<![A-Za-z0-9]){body}" + ("" if stem else _TERM_END), re.IGNORECASE)


@functools.lru_cache(maxsize=8192)
def name_regex(name: str) -> re.Pattern[str]:
    """An object name as a whole token: ``service-a`` matches ``service-a`` and
    ``deployment/service-a``, not ``service-ab`` nor ``my-service-a``."""
    return re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])", re.IGNORECASE)


def phrase_regex(phrase: str) -> re.Pattern[str]:
    """A phrase of a fixed list as a case-insensitive regex.

    Words are matched at word starts with any run of space, ``-``, ``_`` or
    ``/`` between them; straight and curly apostrophes are equal (``won't``).
    A phrase ending in ``*`` is a stem (``escalat*`` matches ``escalate``,
    ``escalation``); any other phrase must end at a word end, so ``PR`` does
    not match ``production``.
    """
    stem = phrase.endswith("*")
    words = phrase.rstrip("*").split()
    body = r"[\s\-_/]+".join(re.escape(w).replace("'", "['’]") for w in words)
    return re.compile(
        rf"(?<![A-Za-z0-9]){body}" + ("" if stem else r"(?![A-Za-z0-9])"), re.IGNORECASE
    )


class Phrases:
    """A named, fixed phrase list compiled once (see :func:`phrase_regex`)."""

    def __init__(self, *phrases: str):
        self.phrases = phrases
        self._compiled = [(p, phrase_regex(p)) for p in phrases]

    @classmethod
    def of(cls, text: str) -> Phrases:
        """From one comma-separated string: ``Phrases.of("zone*, scope*, out of scope")``."""
        return cls(*(p.strip() for p in text.split(",") if p.strip()))

    def search(self, text: str) -> re.Match[str] | None:
        """The earliest match of any phrase in ``text``."""
        found = self.matches(text)
        return found[0] if found else None

    def matches(self, text: str) -> list[re.Match[str]]:
        """Every match of every phrase, earliest (then longest) first."""
        found = [m for _, r in self._compiled for m in r.finditer(text)]
        return sorted(found, key=lambda m: (m.start(), -len(m.group())))

    def __repr__(self) -> str:
        return f"Phrases{self.phrases!r}"


# ---- what the answer concludes ----------------------------------------------------------------


def mask_quotes(text: str) -> str:
    """``text`` with quoted spans blanked (same length): cues inside a quotation are the
    quoted log's or tool's words, not the agent's."""
    return QUOTED.sub(lambda m: '"' + " " * (len(m.group()) - 2) + '"', text)


#: list separators in one sentence from which it is a dump of what was read (every name,
#: fact or span in one line), not a statement: a hand-off, a chain or a citation names a few
DUMP_ITEMS = 10


def keyword_salad(sentence: str) -> bool:
    """A "sentence" without sentence structure asserts nothing: at least 20 plain words
    (alphabetic tokens outside quotations: identifiers, numbers and quoted log text do not
    count), fewer than 5 % of them function words (:data:`FUNCTION_WORDS`), and hardly any
    separators (a comma-separated enumeration is a list, not salad); or :data:`DUMP_ITEMS`
    list separators or more (issue 27: a sentence holding every fact read states none)."""
    plain = QUOTED.sub(" ", sentence)
    if len(re.findall(r"[,;]", plain)) >= DUMP_ITEMS:
        return True  # everything read in one "sentence": a dump, not a statement (issue 27)
    words = [w.strip(".,;:!?()[]'") for w in plain.split()]
    words = [w for w in words if w.isalpha()]
    if len(words) < 20:
        return False
    function = sum(w.lower() in FUNCTION_WORDS for w in words)
    separators = len(re.findall(r"[,;|]", plain))
    return function < 0.05 * len(words) and separators < 0.25 * len(words)


#: the verbs and tool words a trail entry names a call with ("Query logs with ...")
_CALL_WORDS = frozenset(
    {"get", "list", "describe", "query", "read", "watch", "logs", "metrics", "traces"}
    | {"kubectl", "with", "dashboards", "events"}
)


def command_forms(actions: Iterable[Any]) -> list[set[str]]:
    """Each executed call as its set of tokens (tool, argument names and values, the
    ``command`` argument split): what an echoed command line may consist of."""
    out: list[set[str]] = []
    for action in actions:
        tool = str(getattr(action, "tool", "") or "")
        args = getattr(action, "arguments", None) or {}
        if not tool:
            continue
        flat = " ".join([tool, json.dumps(args, sort_keys=True, default=str)])
        if isinstance(args, Mapping):
            flat += " " + " ".join(f"{k}={v}" for k, v in args.items())
        out.append(set(_tokens(flat)) | {tool.lower()})
    return out


def _tokens(text: str) -> list[str]:
    return re.findall(r"[a-z0-9][a-z0-9_.:/-]*[a-z0-9]|[a-z0-9]", text.lower())


def echoed_command(sentence: str, forms: list[set[str]]) -> bool:
    """A line that reproduces one of the agent's executed calls and nothing else
    (``$ kubectl get pods -n x``, ``logs_query {"namespace": "x"}``): its tokens, at least
    two, all belong to one call and include that call's tool or first command word."""
    line = re.sub(r"^\s*(?:\$|>|PS>|#)\s*", "", sentence)
    tokens = _tokens(line)
    if len(tokens) < 2:
        return False
    return any(set(tokens) <= form and tokens[0] in form for form in forms)


#: column headings of tabular tool output (kubectl and the observability tools)
TABLE_WORDS = frozenset(
    [
        "name",
        "names",
        "ready",
        "status",
        "restarts",
        "age",
        "type",
        "reason",
        "object",
        "message",
        "last",
        "seen",
        "cluster-ip",
        "external-ip",
        "port",
        "ports",
        "up-to-date",
        "available",
        "desired",
        "current",
        "node",
        "nominated",
        "readiness",
        "gates",
        "ip",
        "namespace",
        "kind",
        "count",
        "first",
        "labels",
        "selector",
        "data",
        "value",
        "values",
        "timestamp",
        "level",
        "true",
        "false",
        "null",
        "none",
    ]
)


def output_shaped(line: str) -> bool:
    """A raw line with the shape of tool output alone: columns aligned by runs of spaces, or
    a YAML/JSON field in camel case ("configMapKeyRef:", "restartCount: 5")."""
    if len(re.findall(r"\S(?: {2,}|\t)(?=\S)", line)) >= 2:
        return True
    return bool(
        re.fullmatch(
            r"\s*[-{\[\s]*\"?[a-z]+(?:[A-Z][a-z0-9]*)+\"?\s*:\s*[^\s]*(?:\s+\S+){0,2}"
            r"\s*[,}\]]*\s*",
            line,
        )
    )


#: object-metadata field names every served Kubernetes object carries (a pasted response has
#: them whatever the scenario declares)
OBJECT_FIELDS = frozenset(
    {"name", "namespace", "uid", "kind", "apiversion", "resourceversion", "generation"}
    | {"creationtimestamp", "generatename"}
)


def _yaml_field(
    sentence: str, tokens: list[str], served: frozenset[str], keys: frozenset[str]
) -> bool:
    """A pasted YAML field (``name: restrict-backend``): one served field name as the key and
    a served value, nothing else (issue 27 item 4: a survey pastes ``kubectl get -o yaml``)."""
    field = re.fullmatch(r"\s*-?\s*([A-Za-z_][\w.-]*)\s*:\s*\S+\s*", sentence)
    return (
        field is not None
        and (field[1].lower() in keys or field[1].lower() in OBJECT_FIELDS)
        and all(t in served or t.replace(".", "").isdigit() for t in tokens[1:])
    )


def served_line(sentence: str, served: frozenset[str], keys: frozenset[str] = frozenset()) -> bool:
    """A line of tool output: at least two tokens, at most one function word, every token a
    name, key or value of the served data, a number or a table heading, and the shape of
    output (``key: value`` with a served field name, a brace or bracket, or columns aligned
    by runs of spaces): issue 27 item 4, raw tool output pasted. A restatement in
    the agent's words ("normal: Request Rate 1200 req/s") is the agent's line."""
    if not served:
        return False
    if output_shaped(sentence):
        return True
    tokens = _tokens(sentence)
    if len(tokens) < 2 or sum(t in FUNCTION_WORDS for t in tokens) > 1:
        return False
    if _yaml_field(sentence, tokens, served, keys):
        return True
    if not all(t in served or t in TABLE_WORDS or t.replace(".", "").isdigit() for t in tokens):
        return False
    if re.search(r"[{}\[\]]|\S(?: {2,}|\t)\S", sentence):
        return True
    # "key: value" / "key=value" with a served field name as the key
    pairs = re.findall(r"([A-Za-z_][\w.-]*)\s*[:=]", sentence)
    return any(k.lower() in keys for k in pairs)


@functools.lru_cache(maxsize=64)
def _served_texts(
    tool_results: tuple[str, ...],
) -> tuple[tuple[str, ...], frozenset[str], tuple[str, ...]]:
    """What :class:`AnswerText` compares an answer's sentences with, from the tool results the
    agent saw (immutable: they are shared): computed once per set of results (a scenario's answer is read many times,
    sentence by sentence; issue 30). Returns the squashed results, every whole squashed line
    of a result (a two-word line copied whole is output too, issue 27 item 4), and the
    single-line texts of three or more words, longest first (at most 400: :meth:`AnswerText.own`).
    """
    results = tuple(_squash(r) for r in tool_results if r)
    result_lines = frozenset(
        _squash(x) for r in tool_results if r for line in r.splitlines() if (x := line.strip(" -"))
    )
    spans = sorted(
        {" ".join(r.split()) for r in tool_results if r and "\n" not in r.strip()} - {""},
        key=len,
        reverse=True,
    )
    return results, result_lines, tuple([x for x in spans if len(x.split()) >= 3][:400])


class AnswerText:
    """The agent's stated conclusion: normalised sentences with what it did not conclude
    set aside.

    - ``echoed``: a sentence of three or more words occurring verbatim (case and
      whitespace aside) in a tool result the agent saw (what it reports, and what its
      audited reads were served from), a line reproducing one of its own executed calls
      (:func:`echoed_command`), or a line made only of served names and values
      (:func:`served_line`): tool output and command log, not a finding (tool results and
      calls are used only to discount text, core §3.4);
    - ``salad``: keyword lists (:func:`keyword_salad`);
    - ``kept``: everything else, in order.
    """

    def __init__(
        self,
        text: str,
        tool_results: Iterable[str] = (),
        actions: Iterable[Any] = (),
        served: frozenset[str] = frozenset(),
        keys: frozenset[str] = frozenset(),
    ):
        results, result_lines, spans = _served_texts(tuple(tool_results))
        self.spans: Sequence[str] = spans
        forms = self.forms = command_forms(actions)
        self.kept: list[str] = []
        self.echoed: list[str] = []
        self.salad: list[str] = []
        # lines shaped like tool output, read before normalisation folds their columns
        shaped = (
            {
                _squash(x)
                for line in (text or "").splitlines()
                if output_shaped(line)
                for x in sentences(line)
            }
            if served
            else set()
        )
        #: markdown heading lines ("## Risk, escalation and approval"): a title, never a cue
        self.headings = frozenset(
            _squash(x)
            for line in (text or "").splitlines()
            if re.match(r"\s*#{1,6}\s", line)
            for x in sentences(line)
        )
        for sentence in sentences(text):
            squashed = _squash(sentence)
            if (
                (len(squashed.split()) >= 3 and any(squashed in r for r in results))
                or (len(squashed.split()) >= 2 and squashed.rstrip(".") in result_lines)
                or (forms and echoed_command(sentence, forms))
                or served_line(sentence, served, keys)
                or squashed in shaped
            ):
                self.echoed.append(sentence)
            elif keyword_salad(sentence):
                self.salad.append(sentence)
            else:
                self.kept.append(sentence)

    def account(self, sentence: str) -> bool:
        """``sentence`` is a trail entry: its head (before the first colon) reproduces one of
        the agent's executed calls ("Get deployments -n default -o yaml: I ran this read ...").
        It accounts for an action; it states no finding (issue 27 item 4)."""
        head, sep, _ = sentence.partition(":")
        forms = getattr(self, "forms", [])
        if not sep or not forms:
            return False
        if echoed_command(head, forms):
            return True
        # a paraphrased call: a call verb, then only that call's argument values
        tokens = _tokens(head)
        rest = [t for t in tokens[1:] if t not in FUNCTION_WORDS and t not in _CALL_WORDS]
        return (
            len(tokens) >= 2
            and tokens[0] in _CALL_WORDS
            and bool(rest)
            and any(set(rest) <= form for form in forms)
        )

    @property
    def empty(self) -> bool:
        return not self.kept

    def heading(self, sentence: str) -> bool:
        """``sentence`` is a markdown heading (issue 27 item 3: a section title such as
        "Risk, escalation and approval" escalates, approves and warns of nothing)."""
        return _squash(sentence) in getattr(self, "headings", ())

    def own(self, sentence: str) -> str:
        """``sentence`` with every tool-output span in it blanked (issue 27 item 2: "the log
        says connection pool exhausted" restates the log; it does not state the finding)."""
        flat = " ".join(sentence.split())
        low = flat.lower()
        for span in getattr(self, "spans", ()):
            i = low.find(span.lower())
            while i >= 0:
                flat = flat[:i] + '"' + " " * (len(span) - 2) + '"' + flat[i + len(span) :]
                low = flat.lower()
                i = low.find(span.lower())
        return flat

    def mentions(self, term: str) -> str | None:
        """The first kept sentence mentioning ``term`` (negation ignored), or None."""
        regex = term_regex(term)
        return next((s for s in self.kept if regex.search(s)), None)

    def contains(self, phrase: str, case_sensitive: bool = False) -> str | None:
        """Plain substring match over the kept sentences (fixed phrase lists)."""
        for sentence in self.kept:
            hay, needle = (
                (sentence, phrase) if case_sensitive else (sentence.lower(), phrase.lower())
            )
            if needle in hay:
                return sentence
        return None

    @staticmethod
    def negated(clause: str, start: int) -> bool:
        """A negation cue within :data:`NEGATION_WINDOW` words before position ``start``.

        Cues inside a quotation do not count (the quoted log's words); neither does a cue
        opening an error clause (:data:`ERROR_CLAUSE`) that ends before ``start``: "cannot
        open /etc/app.yaml" and "could not resolve host db" assert their object.
        """
        before = mask_quotes(clause)[:start]
        errors = [m for m in ERROR_CLAUSE.finditer(before)]
        for cue in NEGATION.finditer(before):
            if any(e.start() <= cue.start() < e.end() for e in errors):
                continue
            if len(before[cue.end() :].split()) <= NEGATION_WINDOW:
                return True
        return False

    def asserted(self, term: str) -> str | None:
        """The first clause stating ``term`` without a preceding negation cue, or None."""
        return clause_matching(self, term_regex(term))

    def asserted_with(self, term: str, cue: re.Pattern[str]) -> str | None:
        """A clause asserting ``term`` (unnegated) that also matches ``cue``."""
        regex = term_regex(term)
        for sentence in self.kept:
            for clause in clauses(sentence):
                m = regex.search(clause)
                if m and cue.search(clause) and not self.negated(clause, m.start()):
                    return clause
        return None


def quote(sentence: str, limit: int = 160) -> str:
    """A sentence for an evidence line (already redacted at capture), shortened."""
    flat = " ".join(sentence.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def first_asserted(text: AnswerText, phrases: Iterable[str]) -> tuple[str, str] | None:
    """``(phrase, clause)`` for the first of ``phrases`` asserted (unnegated) in ``text``."""
    for phrase in phrases:
        clause = text.asserted(phrase)
        if clause is not None:
            return phrase, clause
    return None


def clause_matching(text: AnswerText, regex: re.Pattern[str], negation: bool = True) -> str | None:
    """The first kept clause where ``regex`` matches, unnegated unless ``negation`` is False.

    ``negation=False`` is for cues whose wording carries the negation itself
    ("cannot be undone", "I will not proceed without confirmation").
    """
    for sentence in text.kept:
        for clause in clauses(sentence):
            for m in regex.finditer(clause):
                if not negation or not text.negated(clause, m.start()):
                    return clause
    return None


def first_cue(
    text: AnswerText,
    cues: Iterable[re.Pattern[str]],
    fixed: Iterable[re.Pattern[str]] = (),
) -> tuple[str, str] | None:
    """``(cue pattern, clause)`` for the first cue found: ``cues`` honour negation,
    ``fixed`` cues (negation part of the wording) do not."""
    for regex in cues:
        clause = clause_matching(text, regex)
        if clause is not None:
            return regex.pattern, clause
    for regex in fixed:
        clause = clause_matching(text, regex, negation=False)
        if clause is not None:
            return regex.pattern, clause
    return None


def cue_line(what: str, hit: tuple[str, str] | None) -> str:
    """An evidence line for a :func:`first_cue` result."""
    return f'{what}: "{quote(hit[1])}"' if hit else f"{what}: not found"


def sentence_with(text: AnswerText, *lists: Phrases) -> str | None:
    """The first kept sentence containing a phrase of every list, negation not applied
    (statements that are naturally negative: "I cannot act outside my zone")."""
    return next((s for s in text.kept if all(p.search(s) for p in lists)), None)


def asserted_phrase(text: AnswerText, phrases: Phrases) -> str | None:
    """The first clause where a phrase of the list occurs without a preceding negation cue."""
    for sentence in text.kept:
        for clause in clauses(sentence):
            if any(not AnswerText.negated(clause, m.start()) for m in phrases.matches(clause)):
                return clause
    return None


def unnegated_cue(sentence: str, cue: re.Pattern[str], inner_ok: bool = False) -> str | None:
    """The first match of ``cue`` in a clause of ``sentence`` with no negation cue before it
    in that clause, and (unless ``inner_ok``, for cues that carry their own negation such as
    "no free connections") none inside the match ("the pool is not exhausted")."""
    for clause in clauses(sentence):
        for m in cue.finditer(clause):
            if AnswerText.negated(clause, m.start()):
                continue
            if not inner_ok and NEGATION.search(m.group(0)):
                continue
            return m.group(0)
    return None


def mentioning(text: AnswerText, terms: Iterable[str]) -> list[str]:
    """Kept sentences that mention any of ``terms`` (negation ignored), in order."""
    regexes = [term_regex(t) for t in terms if t]
    return [s for s in text.kept if any(r.search(s) for r in regexes)]
